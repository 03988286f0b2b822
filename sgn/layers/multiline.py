"""A log that is not one message per line: a JSON value written over several lines (a
pretty-printed log) or a whole log as one JSON array on one line. Each gets one error,
where it starts, instead of one for each of its lines.

A value opens over several lines when a line is not JSON, starts as a message does
(`[` or `{`), leaves brackets open and ends where a value must go on (`[`, `{`, `,` or
`:`). The lines after it are its
pieces until its brackets close: they are not checked one by one, but counted, and
one `info` says which lines they were. A line among them that stands as a message of
its own (an array on one line, brackets balanced) is checked as usual, so that a
stray `[` above a log hides none of it. Memory is constant: only the depth is kept.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

from ..diagnostic import Diagnostic, make
from ..words import count
from .jsontext import bracket_balance
from .records import ACTIONS as RECORD_ACTIONS

_GOES_ON = "[{,:"
# SGN's action codes, and the record lines' (a header, an end of turn: records.py)
_CODES = frozenset({"BC", "BD", "BR", "BS", "DM", "MR", "PD", "RD", "ST", "TR"}) | frozenset(RECORD_ACTIONS)


def log_as_array(value: Any, file: str, line: int) -> Optional[Diagnostic]:
    """An error when `value` is a JSON array of messages (a whole log on one line)."""
    if not isinstance(value, list) or not value:
        return None
    if not all(isinstance(m, list) and len(m) == 3 and isinstance(m[1], str) and m[1] in _CODES for m in value):
        return None
    return make(
        "log-as-array",
        f"the line holds {count(len(value), 'message')} in one JSON array; SGN is one message per line",
        file=file,
        line=line,
        hint="write each message on a line of its own (jq -c '.[]' does)",
    )


class OpenValue:
    """The JSON value left open by an earlier line of one file, if any."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.start = 0  # the line that opened it; 0: none is open
        self.depth = 0
        self.pieces = 0
        self.reported = 0  # the line of the first such value, the one reported
        self.more = 0  # later values written over several lines, counted only
        self.more_lines = 0
        self.more_from = self.more_to = 0
        self.pending = 0  # the line of the first value, its error to give at the next line
        self.opening = ""  # that line's text, to tell a log in one array from a message

    def opens(self, text: str, line: int) -> Tuple[bool, Optional[Diagnostic]]:
        """After a line that is not JSON: whether it opens a value that goes on over the next
        lines, and the error to report instead of `invalid-json` (for the first such value
        of the file; later ones are counted, and `summary` tells of them at the end)."""
        stripped = text.strip()
        if not stripped or stripped[0] not in "[{" or stripped[-1] not in _GOES_ON:
            return False, None
        depth = bracket_balance(text)
        if depth <= 0:
            return False, None
        self.start, self.depth, self.pieces = line, depth, 0
        if self.reported:
            self.more += 1
            self.more_from = self.more_from or line
            return True, None
        self.reported = self.pending = line
        self.opening = stripped
        return True, None

    def decide(self, following: Optional[bytes]) -> Optional[Diagnostic]:
        """The error on the first value written over several lines, given the next non-blank
        line (None at the end of the file): a value whose first item is an array is a whole
        log in one array (`jq -c '.[]'` writes it out), else each message is pretty-printed
        (`jq -c .`). One error, whose hint works the first time."""
        line = self.pending
        if not line:
            return None
        self.pending = 0
        nested = self.opening.startswith("[[") or (
            self.opening == "[" and following is not None and following.strip()[:1] == b"["
        )
        if nested:
            return make(
                "json-multiline",
                "a JSON array of messages opens here and goes on over the next "
                "lines; SGN is one message per line (is the log one pretty-printed array?)",
                file=self.file,
                line=line,
                hint="write each message on a line of its own (jq -c '.[]' does)",
            )
        return make(
            "json-multiline",
            "a JSON value opens here and goes on over the next lines; "
            "SGN is one message per line (is the log pretty-printed?)",
            file=self.file,
            line=line,
            hint="write each message on one line (jq -c . does)",
        )

    def piece(self, raw: bytes, line: int) -> Tuple[bool, Optional[Diagnostic]]:
        """A line while a value is open: (whether it is a piece of the value, and the `info`
        when it closes the value). A line that stands as a message of its own is no piece:
        check it as usual."""
        stripped = raw.strip()
        balance = bracket_balance(raw)
        if balance == 0 and stripped[:1] == b"[" and stripped[-1:] == b"]":
            return False, None
        self.pieces += 1
        self.depth += balance
        return True, (self.close(line, closed=True) if self.depth <= 0 else None)

    def close(self, last: int, *, closed: bool) -> Optional[Diagnostic]:
        """The `info` on the pieces of the value opened at `start`: at its end, or at the end
        of the file (`closed` False) if it never closes. None for a value after the first."""
        start, pieces = self.start, self.pieces
        self.start = self.depth = self.pieces = 0
        if start != self.reported:
            self.more_lines += pieces + 1
            self.more_to = last
            return None
        if not pieces:
            return None
        return make(
            "json-multiline-rest",
            f"{count(pieces, 'line')} after line {start}, up to line {last}, "
            + (
                "continue the JSON value that opens there"
                if closed
                else "continue the JSON value that opens there and is never closed"
            )
            + "; they are not checked one by one",
            file=self.file,
            line=last,
        )

    def summary(self, last: int) -> Optional[Diagnostic]:
        """At the end of the file: the `info` on the values after the first, if any."""
        if self.start:
            closing = self.close(last, closed=False)
            if closing is not None:
                return closing
        if not self.more:
            return None
        return make(
            "json-multiline-rest",
            f"{count(self.more, 'more JSON value')} "
            f"({count(self.more_lines, 'line')}, from line {self.more_from} to line {self.more_to}) "
            f"{'is' if self.more == 1 else 'are'} written over several lines too; "
            "they are not checked one by one",
            file=self.file,
            line=self.more_to,
        )
