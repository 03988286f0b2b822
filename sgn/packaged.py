"""Where the data that ships with the package lives: the schema, the corpus, the example games.

In an installed package they are the subpackages `sgn._schema` and
`sgn._corpus` (mapped from `schema/` and `test-corpus/` at build time); in a
source checkout they are those folders themselves.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

_CHECKOUT = Path(__file__).resolve().parent.parent
VERSION = "0.1.0"      # the distribution's version (`sgn.__version__`)
# The distribution's name on the package index (the import name and the command are `sgn`).
DISTRIBUTION = "settlers-game-notation"


def _folder(package: str, checkout_name: str) -> Path:
    installed = Path(__file__).resolve().parent / package
    return installed if installed.is_dir() else _CHECKOUT / checkout_name


def schema_dir() -> Path:
    """The folder of `schema/` (message schema, errata, corpus and harness schemas)."""
    return _folder("_schema", "schema")


def corpus_dir() -> Path:
    """The folder of `test-corpus/` (cases.json and the example games)."""
    return _folder("_corpus", "test-corpus")


@lru_cache(maxsize=None)
def load_json(path: str) -> Any:
    """A JSON file of the packaged schema folder, by relative path, read once."""
    with open(schema_dir() / path, encoding="utf-8") as handle:
        return json.load(handle)


def example_games() -> dict:
    """The bundled example logs, by name (file name without .sgn)."""
    folder = corpus_dir() / "games"
    return {p.stem: p for p in sorted(folder.glob("*.sgn"))}
