"""The reporters of `sgn validate -o`, by name: each module loaded when its format is asked
for (a run reports in one format, and its start pays for that one alone; `parquet` needs
pyarrow, an optional extra)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Dict, Tuple

if TYPE_CHECKING:
    from .reporters import Reporter

# name -> (module, class, whether it takes `color`)
_WHERE: Dict[str, Tuple[str, str, bool]] = {
    "text": ("reporters", "TextReporter", True),
    "concise": ("reporters", "ConciseReporter", True),
    "json": ("reporters", "JsonReporter", True),
    "jsonl": ("reporters", "JsonLinesReporter", True),
    "github": ("reporters", "GithubReporter", True),
    "junit": ("junit", "JunitReporter", True),
    "sarif": ("sarif", "SarifReporter", True),
    "parquet": ("parquet", "ParquetReporter", False),
}


def _maker(module: str, name: str, takes_color: bool) -> Callable[..., "Reporter"]:
    def make(out: Any, *, color: bool = False) -> "Reporter":
        made = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        return made(out, color=color) if takes_color else made(out)

    make.__name__ = make.__qualname__ = name
    return make


REPORTERS: Dict[str, Callable[..., "Reporter"]] = {name: _maker(*where) for name, where in _WHERE.items()}
