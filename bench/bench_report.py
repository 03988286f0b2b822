#!/usr/bin/env python3
"""Benchmark: how big a game's report page is, how long `sgn report` takes to write it, and
how long a step to another move takes in headless Chromium (the page must stay responsive
for a 1,000-message game: docs/pictures.md quotes these figures); then `sgn report` on
100,000-line logs (games of `sgn generate`, and games recorded from catanatron with their
faults), each in a process of its own: the time and the peak memory, against the targets of
10 s and 128 MB, and the time of `sgn validate --level rules` on the same log beside it.

    python bench/bench_report.py              # needs playwright and Debian's chromium for the steps
"""

from __future__ import annotations

import gzip
import itertools
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from peak import PRINT_PEAK, megabytes  # noqa: E402  (beside this script)
from sgn.packaged import example_games  # noqa: E402
from sgn.page import report_html  # noqa: E402

LONG = ROOT / "test-corpus" / "logs" / "random-6p-whole-deck.sgn"
ENGINE = ROOT / "t" / "data" / "catanatron-games.sgn.gz"
HUGE = 100_000  # lines
TARGET_SECONDS, TARGET_MB = 10.0, 128.0


def _long_log(folder: Path) -> Path:
    """The 6-player game, then rolls after its end, up to 1,000 lines."""
    lines = LONG.read_text(encoding="utf-8").splitlines()
    rolls = [text for text in lines if '"RD"' in text]
    lines += (rolls * 10)[: 1000 - len(lines)]
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


def _huge_logs(folder: Path) -> list:
    """Two logs of HUGE lines: games of `sgn generate`, and catanatron's recorded games."""
    generated = folder / "generated.sgn"
    subprocess.run(
        [sys.executable, "-m", "sgn", "generate", "--games", "400", "--seed", "1", "-j", "2", "-o", str(generated)],
        check=True,
        cwd=ROOT,
    )
    out = []
    for name, lines in (
        ("sgn generate, 100,000 lines", generated.open("rb")),
        ("catanatron, 100,000 lines", gzip.open(ENGINE, "rb")),
    ):
        path = folder / (name.split(",")[0].replace(" ", "-") + "-100k.sgn")
        with lines:
            path.write_bytes(b"".join(itertools.islice(lines, HUGE)))
        out.append((name, path))
    return out


_MEASURED = (
    "import sys\nfrom sgn.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n" + PRINT_PEAK
)


def _in_a_process(args: list) -> tuple:
    """(seconds, peak MB) of `sgn ARGS` in a child process of its own (bench/peak.py)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED] + args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    took = time.perf_counter() - started
    return took, megabytes(done.stderr)


def huge(folder: Path) -> None:
    print(
        f"\n{'log':<30} {'report':>8} {'peak':>8} {'validate':>9}  targets: {TARGET_SECONDS:.0f} s, {TARGET_MB:.0f} MB"
    )
    for name, path in _huge_logs(folder):
        took, peak = _in_a_process(["report", str(path), "-o", str(folder / "page.html")])
        checked, _ = _in_a_process(["validate", "--isolated", "--level", "rules", str(path)])
        verdict = "met" if took <= TARGET_SECONDS and peak <= TARGET_MB else "MISSED"
        print(
            f"{name:<30} {took:>7.1f}s {peak:>6.0f}MB {checked:>8.1f}s  {verdict} "
            f"(the page costs {took / checked:.1f}x the check)"
        )


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="sgn-bench-report-"))
    logs = [(name, path) for name, path in example_games().items()] + [("1,000 lines", _long_log(folder))]
    print(f"{'log':<36} {'messages':>8} {'page':>9} {'gzipped':>8} {'written':>8}  in Chromium")
    for name, path in logs:
        started = time.perf_counter()
        html = report_html(str(path), name)
        written = time.perf_counter() - started
        messages = sum(1 for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip())
        print(
            f"{name:<36} {messages:>8} {len(html) / 1000:>7.0f}KB {len(gzip.compress(html.encode())) / 1000:>6.0f}KB "
            f"{written:>7.2f}s  {_step_ms(html, folder)}"
        )
    huge(folder)
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
