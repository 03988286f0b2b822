"""`sgn parse` and `sgn convert`: the neighbouring notations read, and converted through SGN.

Reading (`PARSERS`) gives, for each line of HAN actions or HSGN turns (or for a whole
HSN state), what it means as JSON data and in its standard form, or diagnostics with
the line and column at fault. Converting is a reader to SGN messages, each with the
place it came from, then a writer from them (`READERS`, `WRITERS`), so that any of
SGN, HAN and HSGN converts to any other, and SGN to SGN normalises (`canonical`). What
one side cannot say is left out with a `no-counterpart` warning at its source, and the
rest is converted.

The input is read as bytes by `read_input`, as `sgn validate` reads a log: a line of
bad UTF-8 is its own diagnostic, and None among the lines given to the parsers. That,
the detection of a notation and the parsing of HAN and HSGN lines are in
`sgn/notation/reading.py` (its names are here too).
"""

from __future__ import annotations

import json
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Tuple, cast

from .. import board
from ..diagnostic import Diagnostic, make
from ..layers.records import is_record
from . import han, hsgn_sgn, hsgn_turns, hsn, meaning
from .han import NoMapping

# (those imported "as" themselves are given here too, where the commands and tests import them)
from .reading import (
    Input as Input,
    Item,
    Lines,
    Output,
    Where,
    detect as detect,
    in_line_order as in_line_order,
    nothing_to_read,
    numbered,
    parse_han,
    parse_hsgn,
    read_input as read_input,
)


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
    data.update(
        (key, _coordinates(key, value))
        for key, value in action._asdict().items()
        if key != first and value not in (None, ())
    )
    return data


Parsed = Tuple[Optional[Tuple[dict, str]], List[Diagnostic]]  # (JSON data, standard text) or None


def _han_records(lines: Lines, name: str) -> Iterator[Parsed]:
    for number, action, found in parse_han(lines, name):
        if action is None:
            yield None, found
            continue
        text = han.format_action(action)
        yield (dict(describe(action, text), line=number), f"{number}: {text} -- {meaning.of_han(action)}"), found


def _hsgn_records(lines: Lines, name: str) -> Iterator[Parsed]:
    for number, turns, found in parse_hsgn(lines, name):
        if found:
            yield None, found
        for turn in turns:
            text = hsgn_turns.format_turn(turn)
            actions = [
                dict(describe(a, hsgn_turns.format_action(a)), column=c) for a, c in zip(turn.actions, turn.columns)
            ]
            data = {"line": number, "column": turn.column, "player": turn.player, "standard": text, "actions": actions}
            yield (data, f"{number}: {text} -- {meaning.of_hsgn(turn)}"), []


def _hsn_records(read: Callable, render: Callable) -> Callable:
    def records(lines: Lines, name: str) -> Iterator[Parsed]:
        if None in lines:  # one state: with a line missing there is nothing to read
            return
        try:
            fields = read("\n".join(cast(List[str], lines)))  # no None: see above
        except hsn.HsnError as error:
            yield None, [make("hsn-syntax", error.reason, file=name, line=error.line, column=error.column)]
            return
        yield (fields, render(fields).rstrip("\n")), []

    return records


PARSERS: Dict[str, Callable[[Lines, str], Iterator[Parsed]]] = {
    "han": _han_records,
    "hsgn": _hsgn_records,
    "hsn": _hsn_records(hsn.parse, hsn.render),
    "hsn-002": _hsn_records(hsn.parse_002, hsn.render_002),
}


def parse(notation: str, lines: Lines, name: str) -> Iterator[Parsed]:
    """What `sgn parse --notation NOTATION` reads: each record and its diagnostics."""
    return PARSERS[notation](lines, name)


# -- conversion: readers to SGN ---------------------------------------------------------------


def read_sgn(lines: Iterable[Optional[str]], name: str, **_) -> Iterator[Item]:
    """Each SGN line as a message, when it is one valid at the semantic level (a converter
    that took a wrong message would write a wrong action); else its errors."""
    from ..layers.jsonline import parse_line
    from ..layers.stages import validate_message

    lines = list(lines)
    if nothing_to_read(lines):
        yield (
            Where(name, 0),
            None,
            [make("empty-file", f"{name} holds no message: it is empty or has only blank lines", file=name)],
        )
        return
    for number, text in numbered(lines):
        where = Where(name, number)
        parsed = parse_line(text, file=name, line=number)
        if isinstance(parsed, Diagnostic):
            yield where, None, [parsed]
            continue
        errors = [d for d in validate_message(parsed[0], level="semantic", file=name, line=number) if d.is_error]
        yield where, None if errors else parsed[0], errors


def _as_sgn(where: Where, message: list, found: List[Diagnostic]) -> Item:
    """A message read from another notation, when it is valid SGN at the semantic level; else
    its errors at the place it was read (`S(O)1` of player 1 is a steal from oneself, which
    no writer may take for a steal)."""
    from ..layers.stages import validate_message

    errors = [d for d in validate_message(message, level="semantic") if d.is_error]
    if not errors:
        return where, message, found
    text = json.dumps(message, separators=(",", ":"))
    return (
        where,
        None,
        found + [where.problem(d.code, f"as SGN {text}: {d.pointer or '/'}: {d.message}") for d in errors],
    )


_NO_ACTOR = "?"


def missing_actor(lines: Iterable[Optional[str]], name: str) -> Optional[Tuple[int, str]]:
    """The first HAN action (its line and text) whose SGN form needs the acting player,
    which HAN does not name (it does for a discard); None when no action needs one."""
    for number, action, _ in parse_han(lines, name):
        try:
            if action is not None and han.to_sgn(action, _NO_ACTOR)[0] == _NO_ACTOR:
                return number, han.format_action(action)
        except NoMapping:
            continue
    return None


def read_han(lines: Iterable[Optional[str]], name: str, player: Optional[str] = None, **_) -> Iterator[Item]:
    """Each HAN line as an SGN message by `player` (HAN names no actor but for discards;
    `missing_actor` tells beforehand whether one is needed)."""
    for number, action, found in parse_han(lines, name):
        where = Where(name, number)
        if action is None:
            yield where, None, found
            continue
        try:
            message = han.to_sgn(action, player or _NO_ACTOR)
        except NoMapping as error:
            yield where, None, found + [where.problem("no-counterpart", str(error))]
            continue
        yield _as_sgn(where, message, found)


def read_hsgn(lines: Iterable[Optional[str]], name: str, **_) -> Iterator[Item]:
    """Each action of the HSGN turns as SGN messages (a road card gives several), by the
    turn's player: the one written, or the next after the turn before's (`hsgn_sgn`)."""
    parsed = list(parse_hsgn(lines, name))
    every = [turn for _, turns, _ in parsed for turn in turns]
    players = iter(hsgn_sgn.turn_players(every, hsgn_sgn.player_count(every)))
    for number, turns, found in parsed:
        if found:
            yield Where(name, number), None, found
        for turn in turns:
            yield from _turn_messages(turn, next(players), Where(name, number, turn.column))


def _turn_messages(turn: hsgn_turns.Turn, player: str, start: Where) -> Iterator[Item]:
    try:
        actor = hsgn_sgn.to_sgn_player(player)
    except NoMapping as error:
        yield start, None, [start.problem("no-counterpart", f"the turn cannot be converted: {error}")]
        return
    for action, column in zip(turn.actions, turn.columns):
        where = start._replace(column=column)
        try:
            messages = hsgn_sgn.to_sgn(action, actor)
        except NoMapping as error:
            yield where, None, [where.problem("no-counterpart", str(error))]
            continue
        for message in messages:
            yield _as_sgn(where, message, [])


# -- conversion: writers from SGN --------------------------------------------------------------


def write_sgn(items: Iterable[Item]) -> Iterator[Output]:
    """Each message in its canonical form (`canonical`), so SGN to SGN normalises a log."""
    from .canonical import canonical_line

    for _, message, found in items:
        yield (None if message is None else canonical_line(message)), found


def write_han(items: Iterable[Item]) -> Iterator[Output]:
    for where, message, found in items:
        if message is None:
            yield None, found
            continue
        try:
            yield han.format_action(han.from_sgn(message)), found
        except ValueError as error:  # NoMapping, or a place HAN cannot name
            yield None, found + [where.problem("no-counterpart", str(error))]


def write_hsgn(items: Iterable[Item]) -> Iterator[Output]:
    """One line per turn (the grouping of messages into turns is `hsgn_sgn.group`)."""
    found: List[Diagnostic] = []

    def messages():
        for where, message, seen in items:
            found.extend(seen)
            if message is not None:
                yield where, message

    for turn, reasons in hsgn_sgn.group(messages()):
        problems = [where.problem("no-counterpart", reason) for where, reason in reasons]
        yield (None if turn is None else hsgn_turns.format_turn(turn)), found + problems
        found.clear()
    if found:
        yield None, list(found)


READERS = {"sgn": read_sgn, "han": read_han, "hsgn": read_hsgn}
WRITERS = {"sgn": write_sgn, "han": write_han, "hsgn": write_hsgn}


def convert(
    lines: Lines,
    name: str,
    source: str,
    target: str,
    player: Optional[str] = None,
    read: Optional[Callable[..., Iterable[Item]]] = None,
    records: bool = True,
) -> Iterator[Output]:
    """Each line of output (None where there is none) with the diagnostics found on the way;
    `read` reads the input in place of READERS[source] (an engine's record: sgn/adapters).
    Without `records`, the record lines (a header, the end of a turn) are left out: SGN v1.0."""
    items = (read or READERS[source])(lines, name, player=player)
    if not records:
        items = ((where, None if is_record(message) else message, found) for where, message, found in items)
    return WRITERS[target](items)
