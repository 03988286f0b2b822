#!/usr/bin/env python3
"""Benchmark: how big a game's report page is, how long `sgn report` takes to write it, and
how long a step to another move takes in headless Chromium (the page must stay responsive
for a 1,000-message game: docs/pictures.md quotes these figures).

    python bench/bench_report.py              # needs playwright and Debian's chromium for the steps
"""
from __future__ import annotations

import gzip
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sgn.packaged import example_games  # noqa: E402
from sgn.pictures.page import report_html  # noqa: E402

LONG = ROOT / "test-corpus" / "logs" / "random-6p-whole-deck.sgn"


def _long_log(folder: Path) -> Path:
    """The 6-player game, then rolls after its end, up to 1,000 lines."""
    lines = LONG.read_text(encoding="utf-8").splitlines()
    rolls = [text for text in lines if '"RD"' in text]
    lines += (rolls * 10)[:1000 - len(lines)]
    path = folder / "long-1000.sgn"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _step_ms(html: str, folder: Path) -> str:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "not measured: no playwright"
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return "not measured: no chromium"
    page_file = folder / "page.html"
    page_file.write_text(html, encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True)
        tab = browser.new_page()
        started = time.perf_counter()
        tab.goto(page_file.as_uri())
        opened = time.perf_counter() - started
        took = tab.evaluate("""() => { const s = document.getElementById('slider'), t = performance.now();
            const n = Number(s.max);
            for (let i = 0; i <= n; i += 10) { s.value = i; s.dispatchEvent(new Event('input')); }
            return (performance.now() - t) / (Math.floor(n / 10) + 1); }""")
        browser.close()
    return f"opens in {opened:.2f} s, {took:.1f} ms a step"


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="sgn-bench-report-"))
    logs = [(name, path) for name, path in example_games().items()] + [("1,000 lines", _long_log(folder))]
    print(f"{'log':<36} {'messages':>8} {'page':>9} {'gzipped':>8} {'written':>8}  in Chromium")
    for name, path in logs:
        started = time.perf_counter()
        html = report_html(str(path), name)
        written = time.perf_counter() - started
        messages = sum(1 for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip())
        print(f"{name:<36} {messages:>8} {len(html) / 1000:>7.0f}KB {len(gzip.compress(html.encode())) / 1000:>6.0f}KB "
              f"{written:>7.2f}s  {_step_ms(html, folder)}")
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
