"""`sgn parse` and `sgn convert`: HAN actions read, and SGN messages converted to and from HAN.

Each input line is one SGN message or one HAN action. Every line that cannot be
read or converted becomes a diagnostic (with its line, and the column for HAN),
and the others are still converted.
"""
from __future__ import annotations

import json
from typing import Iterable, Iterator, List, Optional, Tuple

from .diagnostic import Diagnostic, make
from .notation import han


def detect(lines: List[str]) -> str:
    """The notation of some input lines: sgn when the first non-blank one is JSON, else han."""
    first = next((line.strip() for line in lines if line.strip()), "")
    return "sgn" if first[:1] in "[{" else "han"


def parse_han(lines: Iterable[str], name: str) -> Iterator[Tuple[int, Optional[han.Action], List[Diagnostic]]]:
    """(line number, action or None, diagnostics) for each non-blank line."""
    for number, text in enumerate(lines, 1):
        text = text.rstrip("\r\n")
        if not text.strip():
            continue
        try:
            action, warnings = han.parse(text.strip())
        except han.HanError as error:
            yield number, None, [make("han-syntax", error.reason, file=name, line=number, column=error.column)]
            continue
        yield number, action, [make("han-style", message, file=name, line=number, column=column)
                               for column, message in warnings]


def describe(action: han.Action) -> dict:
    """An action as plain JSON data (SGN coordinates)."""
    data = {"verb": action.verb, "standard": han.format_action(action)}
    for key, value in action._asdict().items():
        if value is None or key == "verb":
            continue
        if key == "vertex":
            value = [list(t) for t in sorted(value)]
        elif key == "edge":
            value = [[list(t) for t in sorted(end)] for end in sorted(value, key=sorted)]
        elif isinstance(value, tuple):
            value = list(value)
        data[key] = value
    return data


def to_han(lines: Iterable[str], name: str) -> Iterator[Tuple[Optional[str], List[Diagnostic]]]:
    """Each SGN line as a HAN action, or the diagnostic saying why it cannot be one."""
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            message = json.loads(text)
            action = han.from_sgn(message)
            yield han.format_action(action), []
        except han.NoMapping as error:
            yield None, [make("no-counterpart", str(error), file=name, line=number)]
        except (ValueError, TypeError, KeyError, IndexError, StopIteration) as error:
            yield None, [make("no-counterpart", f"not an SGN message this converter reads: {error}",
                              file=name, line=number)]


def to_sgn(lines: Iterable[str], name: str, player: str) -> Iterator[Tuple[Optional[str], List[Diagnostic]]]:
    """Each HAN line as an SGN message by `player` (HAN names no actor), or why it cannot be one."""
    for number, action, found in parse_han(lines, name):
        if action is None:
            yield None, found
            continue
        try:
            yield json.dumps(han.to_sgn(action, player), separators=(",", ":")), found
        except han.NoMapping as error:
            yield None, found + [make("no-counterpart", str(error), file=name, line=number)]
