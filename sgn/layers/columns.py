"""Where a JSON pointer's value sits in a line: its columns, and the excerpt of the line a
report shows under a diagnostic.

One function places a pointer (`place`) and every output takes its column from it: the
text report's caret, `-o json`'s `column` and `end_column`, SARIF's region, GitHub's `col`,
JUnit's location. Columns count characters (code points), 1-based, as ruff counts them;
the end column is one past the value's last character (SARIF's `endColumn`).

A pointer that names no value of the line (a member the message lacks, a line that is no
JSON, a value written over several lines) is placed at the nearest value on its way that
the line has; one that names nothing in it at all has no column.
"""

from __future__ import annotations

from typing import Final, List, NamedTuple, Optional, Tuple

from ..diagnostic import Diagnostic

EXCERPT_BEFORE = 40  # characters of context kept before the fault in a long line
EXCERPT_WIDTH = 120  # characters of a line an excerpt keeps at most
_SPACE: Final = " \t\r\n"
_CLOSE: Final = {"[": "]", "{": "}"}


class Excerpt(NamedTuple):
    """The part of a line a report shows: `text`, which starts at column `start` of the
    line (1 when the line is whole there), and whether the line goes on past it (`cut`)."""

    text: str
    start: int = 1
    cut: bool = False


def _tokens(pointer: str) -> Optional[List[str]]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        return None
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in _SPACE:
        at += 1
    return at


def _string_end(text: str, at: int) -> int:
    """The index after the string that starts at `at` (a quote); len(text) if unclosed."""
    at += 1
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char == '"':
            return at + 1
        at += 1
    return len(text)


def _value_end(text: str, at: int) -> int:
    """The index after the JSON value that starts at `at`."""
    if at >= len(text):
        return at
    char = text[at]
    if char == '"':
        return _string_end(text, at)
    if char in _CLOSE:
        depth = 0
        while at < len(text):
            char = text[at]
            if char == '"':
                at = _string_end(text, at)
                continue
            if char in "[{":
                depth += 1
            elif char in "]}":
                depth -= 1
                if depth == 0:
                    return at + 1
            at += 1
        return len(text)
    while at < len(text) and text[at] not in ",]}" + _SPACE:
        at += 1
    return at


def _key(text: str, at: int, end: int) -> Optional[str]:
    import json

    try:
        key = json.loads(text[at:end])
    except ValueError:
        return None
    return key if isinstance(key, str) else None


def _member(text: str, at: int, token: str) -> Optional[int]:
    """The index of the value `token` names in the array or object at `at`, or None."""
    opening = text[at]
    index = 0
    at = _skip_space(text, at + 1)
    while at < len(text) and text[at] != _CLOSE[opening]:
        if opening == "{":
            if text[at] != '"':
                return None
            end = _string_end(text, at)
            name = _key(text, at, end)
            at = _skip_space(text, end)
            if at >= len(text) or text[at] != ":":
                return None
            at = _skip_space(text, at + 1)
            if name == token:
                return at
        elif token == str(index):
            return at
        at = _skip_space(text, _value_end(text, at))
        if at < len(text) and text[at] == ",":
            at = _skip_space(text, at + 1)
        elif at < len(text) and text[at] != _CLOSE[opening]:
            return None
        index += 1
    return None


def place(text: str, pointer: str) -> Optional[Tuple[int, int]]:
    """(column, end column) of the value `pointer` names in the line `text` (1-based, in
    characters, the end one past the value), or of the nearest value on its way that the
    line holds; None when the line holds no value on its way (blank, no JSON)."""
    tokens = _tokens(pointer)
    at = _skip_space(text, 0)
    if tokens is None or at >= len(text) or text[at] in ",:]}":
        return None
    for token in tokens:
        if text[at] not in _CLOSE:
            break
        inner = _member(text, at, token)
        if inner is None or inner >= len(text):
            break
        at = inner
    end = _value_end(text, at)
    return at + 1, max(end, at + 1) + 1


def excerpt(text: str, column: Optional[int]) -> Excerpt:
    """The line `text`, or for a long one the part around `column` (EXCERPT_WIDTH characters
    at most, EXCERPT_BEFORE of them before the fault): a 2 KB map is not printed whole."""
    if len(text) <= EXCERPT_WIDTH:
        return Excerpt(text)
    first = max(0, min((column or 1) - 1 - EXCERPT_BEFORE, len(text) - EXCERPT_WIDTH))
    return Excerpt(text[first : first + EXCERPT_WIDTH], first + 1, first + EXCERPT_WIDTH < len(text))


def line_text(raw: bytes, number: int) -> str:
    """A line's text as read (its bytes as UTF-8, a byte that is not written as U+FFFD), with no
    line break and, on the first line, no byte order mark: the text the columns count in."""
    text = raw.decode("utf-8", "replace").rstrip("\r\n")
    return text[1:] if number == 1 and text.startswith("\ufeff") else text


# the lines a check keeps at once for the diagnostics still to come on them (the replay may
# hold a fault for 200 messages, sgn/game/fork.py), and their bytes at most
KEPT_LINES: Final = 256
KEPT_BYTES: Final = 1 << 20


class KeptLines:
    """The lines of a file that have a diagnostic, kept as read until it is reported (the
    replay may report a fault some lines later): standard input is read once, so a line
    is kept where it is read, and only so many at a time (`KEPT_LINES`, `KEPT_BYTES`), the
    oldest dropped first: a diagnostic whose line was dropped has no excerpt. `placed` gives
    a diagnostic its columns and excerpt from its line.

    A ring: a line is kept for every line read while the replay weighs a fault (most lines of
    an engine's game with faults), and looked for only when a diagnostic comes."""

    def __init__(self) -> None:
        self.ring: List[Optional[Tuple[int, bytes]]] = [None] * KEPT_LINES  # (number, line)
        self.next = 0  # where the next line goes: the oldest kept is there, or after it
        self.last = 0  # the number of the line kept last
        self.size = 0  # bytes kept

    def __len__(self) -> int:
        return sum(1 for entry in self.ring if entry is not None)

    def keep(self, number: int, raw: bytes) -> None:
        if number <= self.last:  # (kept once, and in the order read: `line` counts on it)
            return
        self.last = number
        ring, at = self.ring, self.next
        old = ring[at]
        if old is not None:
            self.size -= len(old[1])
        ring[at] = (number, raw)
        self.size += len(raw)
        self.next = (at + 1) % KEPT_LINES
        if self.size > KEPT_BYTES:
            self._trim()

    def _trim(self) -> None:
        """Drop the oldest lines until the bytes kept are within `KEPT_BYTES` (the newest stays)."""
        at = self.next
        for _ in range(KEPT_LINES - 1):
            if self.size <= KEPT_BYTES:
                return
            old = self.ring[at]
            if old is not None:
                self.size -= len(old[1])
                self.ring[at] = None
            at = (at + 1) % KEPT_LINES

    def line(self, number: int) -> Optional[bytes]:
        """Line `number`, if it is kept: a binary search, from the oldest slot (`next`) on,
        as the lines are kept in the order read, after the empty slots."""
        ring, start = self.ring, self.next
        low, high = 0, KEPT_LINES
        while low < high:
            middle = (low + high) // 2
            entry = ring[(start + middle) % KEPT_LINES]
            if entry is None or entry[0] < number:
                low = middle + 1
            else:
                high = middle
        entry = ring[(start + low) % KEPT_LINES] if low < KEPT_LINES else None
        return entry[1] if entry is not None and entry[0] == number else None

    def placed(self, diagnostic: Diagnostic) -> Diagnostic:
        """`diagnostic` with the column of its pointer's value and the excerpt of its line,
        if its line is kept; else as it is."""
        raw = self.line(diagnostic.line) if diagnostic.line else None
        if raw is None or diagnostic.source is not None:
            return diagnostic
        text = line_text(raw, diagnostic.line)
        column, end = diagnostic.column, diagnostic.end_column
        if column is None:
            where = place(text, diagnostic.pointer)
            if where is not None:
                column, end = where
        return diagnostic._replace(column=column, end_column=end, source=excerpt(text, column))
