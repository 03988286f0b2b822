"""Where the data that ships with the package lives: the schema, the corpus, the example games.

In an installed package they are the subpackages `sgn._schema` and
`sgn._corpus` (mapped from `schema/` and `test-corpus/` at build time); in a
source checkout they are those folders themselves.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

# (paths as text: `pathlib` is loaded only where a Path is asked for, and start-up counts)
_HERE = os.path.dirname(os.path.realpath(__file__))
_CHECKOUT = os.path.dirname(_HERE)
VERSION = "0.1.0"  # the distribution's version (`sgn.__version__`)
# The distribution's name on the package index (the import name and the command are `sgn`).
DISTRIBUTION = "settlers-game-notation"


def _where(package: str, checkout_name: str) -> str:
    installed = os.path.join(_HERE, package)
    return installed if os.path.isdir(installed) else os.path.join(_CHECKOUT, checkout_name)


def schema_dir() -> "Path":
    """The folder of `schema/` (message schema, errata, corpus and harness schemas)."""
    from pathlib import Path

    return Path(_where("_schema", "schema"))


def corpus_dir() -> "Path":
    """The folder of `test-corpus/` (cases.json and the example games)."""
    from pathlib import Path

    return Path(_where("_corpus", "test-corpus"))


@lru_cache(maxsize=None)
def load_json(path: str) -> Any:
    """A JSON file of the packaged schema folder, by relative path, read once."""
    with open(os.path.join(_where("_schema", "schema"), path), encoding="utf-8") as handle:
        return json.load(handle)


def example_games() -> dict:
    """The bundled example logs, by name (file name without .sgn)."""
    folder = corpus_dir() / "games"
    return {p.stem: p for p in sorted(folder.glob("*.sgn"))}


class SetupError(Exception):
    """What is asked for cannot be done in this installation or setting (an extra missing, a
    scheduler out of reach): a usage error, told before any file is checked."""


def install_hint(extra: str, packages: str) -> str:
    """How to install what an optional extra brings, for the message of a missing dependency:
    the packages themselves first (the distribution is not on the package index yet), then
    the extra."""
    return f"pip install {packages} (or install the package with its extra: pip install '{DISTRIBUTION}[{extra}]')"
