"""`sgn validate -o parquet --output-file FILE`: the results as one table, to query an
archive's with pandas, DuckDB or Polars instead of reading a report.

One row per diagnostic (`kind` "diagnostic": file, line, column, code, layer, severity,
pointer, message, hint) and, after them, one row per file (`kind` "file": its messages,
errors, warnings, level and verdict, valid, invalid or unreadable). The columns that do not
apply to a row's kind are null. Rows are written in row groups of ROW_GROUP as they come, so
memory stays bounded however many diagnostics there are. pyarrow is the optional extra
`parquet`, imported only here.
"""

from __future__ import annotations

from typing import Any, BinaryIO, Dict, List

from ..diagnostic import Diagnostic
from ..packaged import SetupError, install_hint
from ..words import printable
from .reporters import Reporter, Tally

ROW_GROUP = 65_536
# (column, Arrow type): the table's schema, in order
COLUMNS = (
    ("kind", "string"),
    ("file", "string"),
    ("line", "int64"),
    ("column", "int64"),
    ("code", "string"),
    ("layer", "string"),
    ("severity", "string"),
    ("pointer", "string"),
    ("message", "string"),
    ("hint", "string"),
    ("messages", "int64"),
    ("errors", "int64"),
    ("warnings", "int64"),
    ("level", "string"),
    ("verdict", "string"),
)
_DIAGNOSTIC_FIELDS = ("file", "line", "column", "code", "layer", "severity", "pointer", "message", "hint")


def require() -> Any:
    """pyarrow's parquet module, or a SetupError that says how to install it."""
    try:
        import pyarrow
        import pyarrow.parquet as parquet
    except ImportError:
        raise SetupError(f"-o parquet needs pyarrow: {install_hint('parquet', 'pyarrow')}") from None
    return pyarrow, parquet


def schema() -> Any:
    pyarrow, _ = require()
    return pyarrow.schema([(name, getattr(pyarrow, kind)()) for name, kind in COLUMNS])


class ParquetReporter(Reporter):
    """Writes the table to a binary stream (the --output-file), a row group at a time."""

    def __init__(self, out: BinaryIO):
        super().__init__(out)  # type: ignore[arg-type]
        self.pyarrow, parquet = require()
        self.schema = schema()
        self.writer = parquet.ParquetWriter(out, self.schema, compression="zstd")
        self.rows: Dict[str, List[Any]] = {name: [] for name, _ in COLUMNS}

    def diagnostic(self, d: Diagnostic) -> None:
        row = d._asdict()
        self._add(dict({name: row[name] for name in _DIAGNOSTIC_FIELDS}, kind="diagnostic"))

    def finish(self, tally: Tally) -> None:
        for f in tally.files:
            self._add(
                {
                    "kind": "file",
                    "file": f.file,
                    "messages": f.messages,
                    "errors": f.errors,
                    "warnings": f.warnings,
                    "level": f.level,
                    "verdict": f.verdict,
                }
            )
        self._flush()
        self.writer.close()

    def _add(self, row: Dict[str, Any]) -> None:
        for name, values in self.rows.items():
            value = row.get(name)
            values.append(printable(value) if isinstance(value, str) else value)  # Arrow strings are UTF-8
        if len(self.rows["kind"]) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self.rows["kind"]:
            self.writer.write_table(self.pyarrow.table(self.rows, schema=self.schema))
            self.rows = {name: [] for name in self.rows}
