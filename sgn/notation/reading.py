"""The input of `sgn parse` and `sgn convert`, read: its lines, read as `sgn validate`
reads a log (`read_input`); where each thing was read (`Where`); its notation, detected
from its first line (`detect`); HAN actions and HSGN turns parsed a line at a time, each
fault a diagnostic at its line and column. `sgn/notation/convert.py` reads and writes
the notations with them.
"""

from __future__ import annotations

import json
import re
from collections import deque
from typing import Iterable, Iterator, List, NamedTuple, Optional, Tuple, TypeVar

from ..diagnostic import Diagnostic, make
from ..layers.reader import LogReader, Source as Readable
from . import han, hsgn_turns


class Where(NamedTuple):
    """Where something was read: file, 1-based line, and column when known."""

    file: str
    line: int
    column: Optional[int] = None

    def problem(self, code: str, message: str) -> Diagnostic:
        return make(code, message, file=self.file, line=self.line, column=self.column)


Item = Tuple[Where, Optional[list], List[Diagnostic]]  # an SGN message (or None) and what was found
Output = Tuple[Optional[str], List[Diagnostic]]  # a line of output (or None) and what was found


Lines = List[Optional[str]]  # the lines of the input; None for one that could not be read
T = TypeVar("T")


class Input(NamedTuple):
    """The input of `sgn parse` and `sgn convert`: its name, its lines, what reading found."""

    name: str
    lines: Lines
    found: List[Diagnostic]

    @property
    def unreadable(self) -> bool:
        """The input could not be read at all (a missing file, say): exit 2."""
        return any(d.is_io for d in self.found)


def read_input(source: Readable, name: Optional[str] = None, **limits) -> Input:
    """Read bytes as `sgn validate` does (`LogReader`): gzip, a byte order mark, CRLF, bad
    UTF-8 and over-long lines each give their diagnostic at their line, and reading goes on;
    a line that cannot be read is None. Blank lines are kept, as "", without a warning:
    HSN lays out its parts with them, and the line-based notations skip them. `limits`
    (max_line_bytes) go to the reader: an engine's record may be one long line."""
    reader = LogReader(source, name=name, **limits)
    lines: Lines = []
    found: List[Diagnostic] = []
    for item in reader:
        if isinstance(item, Diagnostic):  # a line too long, a damaged stream, no file
            found.append(item)
            continue
        number, raw = item
        lines += [None] * (number - 1 - len(lines))  # the lines skipped unread
        blanks = reader.blanks
        line, seen = reader.decode(number, raw)
        found += [d for d in seen if d.code != "blank-line"]
        lines.append(line.text if line is not None else "" if reader.blanks > blanks else None)
    lines += [None] * (reader.number + reader.broken - len(lines))  # and the line a damaged stream cut
    return Input(reader.name, lines, found)


def in_line_order(
    found: List[Diagnostic], items: Iterable[Tuple[Optional[T], List[Diagnostic]]]
) -> Iterator[Tuple[Optional[T], List[Diagnostic]]]:
    """The items of a parser or converter, with the diagnostics of reading (`Input.found`)
    put in front of the first diagnostics of a later line, so that they come in line order
    (each taken once from the front of the queue: time linear in the input, however many)."""
    pending = deque(sorted(found, key=lambda d: d.line))
    for record, seen in items:
        if seen and pending:
            first = min(d.line for d in seen)
            early = []
            while pending and pending[0].line <= first:
                early.append(pending.popleft())
            seen = early + seen
        yield record, seen
    if pending:
        yield None, list(pending)


_HSN_KINDS = "BDGLOSW"  # HSN's tile letters
_HSN_FIRST_FIELD = re.compile(rf"\[[0-9{_HSN_KINDS}/]*\]")  # [3SSSS/2SOWLS/...]: the tile rows
_HSN_002_TILE_ROWS = re.compile(rf"[0-9{_HSN_KINDS}]*[{_HSN_KINDS}][0-9{_HSN_KINDS}/]*")  # the same, bare
_HSGN_PLAYER = re.compile(r"(\d+\.\s*)?p\d+\s*:")  # p1: or 4.p2: opens a turn


def detect(lines: Lines) -> str:
    """The notation of some input, from its first non-blank line: hsn when it opens with
    HSN's bracketed tile rows (and is no JSON), sgn when it is JSON or starts like it ([ or
    {), hsn-002 when its first word is bare tile rows (capitals of tile kinds, digits,
    slashes: no HAN action or HSGN turn looks so), hsgn when it starts with a player
    (p1:, after a turn number or not) or ends with a period, as an HSGN turn does, else han."""
    first = next((line.strip() for line in lines if line and line.strip()), "")
    is_json = _is_json(first)
    if _HSN_FIRST_FIELD.match(first) and not is_json:
        return "hsn"
    if is_json or first[:1] in ("[", "{"):
        return "sgn"
    if first and _HSN_002_TILE_ROWS.fullmatch(first.split(None, 1)[0]):
        return "hsn-002"
    return "hsgn" if first.endswith(".") or _HSGN_PLAYER.match(first) else "han"


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


# -- HAN actions and HSGN turns, a line at a time ----------------------------------------------


def numbered(lines: Iterable[Optional[str]]) -> Iterator[Tuple[int, str]]:
    """Each line that is there to read (not blank, not None), with its number."""
    for number, text in enumerate(lines, 1):
        if text is None:
            continue
        text = text.rstrip("\r\n")
        if text.strip():
            yield number, text


def nothing_to_read(lines: Lines) -> bool:
    """Whether an input holds nothing at all: no line, or blank lines only (a line that
    could not be read is something, reported by itself). Such an input is an error in
    every notation, as an empty log is (`empty-file`): a HAN or HSGN input holds at least
    one action, as an SGN log holds at least one message."""
    return all(line is not None and not line.strip() for line in lines)


def _nothing(code: str, what: str, name: str) -> Diagnostic:
    return make(code, f"the input holds no {what}: it is empty or has only blank lines", file=name, line=1, column=1)


def parse_han(
    lines: Iterable[Optional[str]], name: str
) -> Iterator[Tuple[int, Optional[han.Action], List[Diagnostic]]]:
    """(line number, action or None, diagnostics) for each non-blank line."""
    lines = list(lines)
    if nothing_to_read(lines):
        yield 1, None, [_nothing("han-syntax", "HAN action", name)]
    for number, text in numbered(lines):
        try:
            action, warnings = han.parse(text.strip())
        except han.HanError as error:
            yield number, None, [make(error.code, error.reason, file=name, line=number, column=error.column)]
            continue
        yield (
            number,
            action,
            [make("han-style", message, file=name, line=number, column=column) for column, message in warnings],
        )


def parse_hsgn(
    lines: Iterable[Optional[str]], name: str
) -> Iterator[Tuple[int, List[hsgn_turns.Turn], List[Diagnostic]]]:
    """(line number, its turns, diagnostics) for each non-blank line; no turns when it does not parse."""
    lines = list(lines)
    if nothing_to_read(lines):
        yield 1, [], [_nothing("hsgn-syntax", "HSGN turn", name)]
    for number, text in numbered(lines):
        try:
            turns, warnings = hsgn_turns.parse_line(text)
        except hsgn_turns.TurnError as error:
            yield number, [], [make(error.code, error.reason, file=name, line=number, column=error.column)]
            continue
        yield (
            number,
            turns,
            [make("hsgn-style", message, file=name, line=number, column=column) for column, message in warnings],
        )
