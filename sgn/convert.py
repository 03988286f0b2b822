"""`sgn parse` and `sgn convert`: the neighbouring notations read, and SGN messages
converted to and from HAN.

Reading (`PARSERS`) gives, for each line of HAN actions or HSGN turns (or for a whole
HSN state), what it means as JSON data and in its standard form, or diagnostics with
the line and column at fault. Every line that cannot be converted becomes a
diagnostic, and the others are still converted.
"""
from __future__ import annotations

import json
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple

from . import board
from .diagnostic import Diagnostic, make
from .notation import han, hsgn_turns, hsn


def detect(lines: List[str]) -> str:
    """The notation of some input lines: sgn when the first non-blank one is JSON, else han."""
    first = next((line.strip() for line in lines if line.strip()), "")
    return "sgn" if first[:1] in "[{" else "han"


# -- reading a notation -------------------------------------------------------------------------

def _numbered(lines: Iterable[str]) -> Iterator[Tuple[int, str]]:
    for number, text in enumerate(lines, 1):
        text = text.rstrip("\r\n")
        if text.strip():
            yield number, text


def parse_han(lines: Iterable[str], name: str) -> Iterator[Tuple[int, Optional[han.Action], List[Diagnostic]]]:
    """(line number, action or None, diagnostics) for each non-blank line."""
    for number, text in _numbered(lines):
        try:
            action, warnings = han.parse(text.strip())
        except han.HanError as error:
            yield number, None, [make("han-syntax", error.reason, file=name, line=number, column=error.column)]
            continue
        yield number, action, [make("han-style", message, file=name, line=number, column=column)
                               for column, message in warnings]


def parse_hsgn(lines: Iterable[str], name: str) -> Iterator[Tuple[int, List[hsgn_turns.Turn], List[Diagnostic]]]:
    """(line number, its turns, diagnostics) for each non-blank line; no turns when it does not parse."""
    for number, text in _numbered(lines):
        try:
            turns, warnings = hsgn_turns.parse_line(text)
        except hsgn_turns.TurnError as error:
            yield number, [], [make(error.code, error.reason, file=name, line=number, column=error.column)]
            continue
        yield number, turns, [make("hsgn-style", message, file=name, line=number, column=column)
                              for column, message in warnings]


def _coordinates(key: str, value):
    """A field of a parsed action as JSON data, in SGN coordinates."""
    if key == "vertex":
        return [list(t) for t in board.canonical_corner(value)]
    if key == "edge":
        return [[list(t) for t in c] for c in board.canonical_edge(value)]
    if key == "edges":
        return [_coordinates("edge", e) for e in value]
    return list(value) if isinstance(value, tuple) else value


def describe(action, standard: str) -> dict:
    """A parsed action (HAN or HSGN) as plain JSON data, with its standard form."""
    first = action._fields[0]
    data = {first: getattr(action, first), "standard": standard}
    data.update((key, _coordinates(key, value)) for key, value in action._asdict().items()
                if key != first and value not in (None, ()))
    return data


Parsed = Tuple[Optional[Tuple[dict, str]], List[Diagnostic]]     # (JSON data, standard text) or None


def _han_records(lines: List[str], name: str) -> Iterator[Parsed]:
    for number, action, found in parse_han(lines, name):
        if action is None:
            yield None, found
            continue
        text = han.format_action(action)
        yield (dict(describe(action, text), line=number), f"{number}: {text}"), found


def _hsgn_records(lines: List[str], name: str) -> Iterator[Parsed]:
    for number, turns, found in parse_hsgn(lines, name):
        if found:
            yield None, found
        for turn in turns:
            text = hsgn_turns.format_turn(turn)
            actions = [dict(describe(a, hsgn_turns.format_action(a)), column=c)
                       for a, c in zip(turn.actions, turn.columns)]
            data = {"line": number, "column": turn.column, "player": turn.player, "standard": text,
                    "actions": actions}
            yield (data, f"{number}: {text}"), []


def _hsn_records(read: Callable, render: Callable) -> Callable:
    def records(lines: List[str], name: str) -> Iterator[Parsed]:
        try:
            fields = read("\n".join(lines))
        except hsn.HsnError as error:
            yield None, [make("hsn-syntax", error.reason, file=name, line=error.line, column=error.column)]
            return
        yield (fields, render(fields).rstrip("\n")), []
    return records


PARSERS: Dict[str, Callable[[List[str], str], Iterator[Parsed]]] = {
    "han": _han_records,
    "hsgn": _hsgn_records,
    "hsn": _hsn_records(hsn.parse, hsn.render),
    "hsn-002": _hsn_records(hsn.parse_002, hsn.render_002),
}


def parse(notation: str, lines: List[str], name: str) -> Iterator[Parsed]:
    """What `sgn parse --notation NOTATION` reads: each record and its diagnostics."""
    return PARSERS[notation](lines, name)


# -- conversion (HAN) --------------------------------------------------------------------------

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
