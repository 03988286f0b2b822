#!/usr/bin/env python3
"""Draw the pictures of docs/pictures.md and docs/format.md from the bundled examples,
with `sgn render`.

    python docs/make_pictures.py          # rewrite docs/pictures/*.svg

t/test_docs_pictures.py fails when a committed picture is not what this draws now.
"""
from __future__ import annotations

import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from sgn.cli import main  # noqa: E402
from sgn.packaged import example_games  # noqa: E402

# (file name, example, arguments of `sgn render`, the page that shows it)
PICTURES = [
    ("random-4p.svg", "random-4p", [], "pictures.md"),
    ("random-4p-line-40.svg", "random-4p", ["--at", "40"], "pictures.md"),
    ("faulty.svg", "faulty-cards-played-when-bought", [], "pictures.md"),
    ("format-tiles.svg", "game", ["--at", "1", "--coordinates"], "format.md"),
    ("format-corners.svg", "game", ["--at", "1", "--corners", "--size", "900"], "format.md"),
    ("format-setup.svg", "game", ["--at", "14", "--coordinates"], "format.md"),
]


def draw(example: str, args) -> str:
    out = io.StringIO()
    main(["render", str(example_games()[example]), "--size", "520", *args], out=out)   # a later --size wins
    return out.getvalue()


def main_() -> int:
    for name, example, args, _ in PICTURES:
        (HERE / "pictures" / name).write_text(draw(example, args), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main_())
