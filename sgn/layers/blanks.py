"""Blank lines, as the reader reads them for a check (`LogReader(open_value=...)`): each of
the first MAX_PROBLEMS of a file its own `blank-line` warning, then each run of them one
warning, given when the run ends, that stands for the run (`occurrences`). Ten million
newlines (a gzip of 10 KB) cost what reading them costs, not ten million warnings: the
reader counts an empty line past the first ones in its tight loop, and nothing more."""

from __future__ import annotations

from typing import List

from ..diagnostic import MAX_PROBLEMS, Diagnostic, make
from ..words import count
from .multiline import OpenValue


class BlankLines:
    """The blank lines of one file read by the reader, and the run not yet told of. None are
    read while the check's JSON value written over several lines is open: they are its."""

    def __init__(self, name: str, open_value: OpenValue):
        self.name = name
        self.open_value = open_value
        self.run = 0  # blank lines past the first MAX_PROBLEMS, not told of yet (consecutive)
        self.end = 0  # the last of them

    def reads(self, line: bytes) -> bool:
        """Whether `line` is a blank line (JSON's whitespace only) to read here."""
        return not self.open_value.start and not line.strip(b" \t\r")

    def past_cap(self, blanks: int) -> bool:
        """Whether an empty line now, after `blanks` of the file, is only counted."""
        return blanks >= MAX_PROBLEMS and not self.open_value.start

    def add(self, run: int, last: int) -> None:
        """`run` more blank lines, up to `last`, to the run to tell of."""
        self.run += run
        self.end = last

    def one(self, number: int, blanks: int) -> List[Diagnostic]:
        """The warning of the blank line `number`, the `blanks`-th of the file: its own among
        the first MAX_PROBLEMS, else none yet (it joins the run)."""
        if blanks <= MAX_PROBLEMS:
            return [make("blank-line", "blank line skipped", file=self.name, line=number)]
        self.add(1, number)
        return []

    def told(self) -> List[Diagnostic]:
        """The run not told of yet, as one warning at its last line; nothing if none."""
        run, last = self.run, self.end
        if not run:
            return []
        self.run = 0
        said = f"{count(run, 'blank line')} skipped, lines {last - run + 1} to {last}" if run > 1 else ""
        return [make("blank-line", said or "blank line skipped", file=self.name, line=last, occurrences=run)]
