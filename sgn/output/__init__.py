"""The reporters of `sgn validate -o`, by name."""

from __future__ import annotations

from typing import Dict, Type

from .junit import JunitReporter
from .reporters import ConciseReporter, GithubReporter, JsonLinesReporter, JsonReporter, Reporter, TextReporter
from .sarif import SarifReporter

REPORTERS: Dict[str, Type[Reporter]] = {
    "text": TextReporter,
    "concise": ConciseReporter,
    "json": JsonReporter,
    "jsonl": JsonLinesReporter,
    "github": GithubReporter,
    "junit": JunitReporter,
    "sarif": SarifReporter,
}


def _parquet(out, *, color: bool = False) -> Reporter:
    """-o parquet (sgn/output/parquet.py), loaded when asked: pyarrow is an optional extra."""
    from .parquet import ParquetReporter

    return ParquetReporter(out)


REPORTERS["parquet"] = _parquet  # type: ignore[assignment]
