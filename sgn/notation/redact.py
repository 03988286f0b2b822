"""A log as one seat sees it (docs/hidden.md): the cards a player cannot see written as
hidden values (`?`), as at a table.

A player sees every roll, build, trade, discard, Monopoly and Year of Plenty, and the
robber's moves; they do not see the card another player draws (`BD`), nor the card
stolen between two others (`ST`). A spectator (`seat=None`) sees neither of them for
anyone. Every other line is kept as it is, byte for byte, faults and all, so that the view
of a log keeps every fault a player could see.
"""

from __future__ import annotations

import json
from itertools import chain
from typing import Any, Iterable, Iterator, List, Optional, Set

from ..diagnostic import Diagnostic
from ..layers.hidden import HIDDEN
from ..layers.jsonline import parse_line
from ..layers.reader import UTF8_BOM
from ..layers.schema import COMPAT, default_schema

HIDES = frozenset({"BD", "ST", "HD"})  # the actions of the messages `hide` may change


def hide(message: Any, seat: Optional[str]) -> Any:
    """The message as `seat` (a player "1".."6", or None: a spectator) sees it: the same
    object when nothing in it is hidden from them. A header keeps all but its result's
    points, which count the Victory Point cards each seat drew."""
    if not (isinstance(message, list) and len(message) == 3 and isinstance(message[1], str)):
        return message
    player, action, value = message
    if action == "BD" and player != seat and isinstance(value, dict) and isinstance(value.get("cCode"), str):
        if value["cCode"] != HIDDEN:
            return [player, action, {**value, "cCode": HIDDEN}]
    elif action == "ST" and isinstance(value, list) and all(_side(s) for s in value):
        if seat not in [s["player"] for s in value]:
            hidden = [{**s, "resources": {HIDDEN: sum(s["resources"].values())}} for s in value]
            if hidden != value:
                return [player, action, hidden]
    elif action == "HD" and isinstance(value, dict) and isinstance(value.get("result"), dict):
        if "points" in value["result"]:  # (they count each seat's Victory Point cards, drawn unseen)
            result = {k: v for k, v in value["result"].items() if k != "points"}
            return [player, action, {**value, "result": result}]
    return message


def _side(side: Any) -> bool:
    return (
        isinstance(side, dict)
        and isinstance(side.get("resources"), dict)
        and all(type(n) is int for n in side["resources"].values())
    )


def read_message(body: bytes) -> Any:
    """A line's message as `sgn validate` reads it (one reader: the JSON layer, escapes and
    all, and the schema layer's reading of the published text's legacy forms, an object
    message or numbers written as strings), or None where the validator reads no value."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return None
    parsed = parse_line(text)
    if isinstance(parsed, Diagnostic):
        return None
    return default_schema().check(parsed[0], profile=COMPAT)[1]


def redact_line(line: bytes, seat: Optional[str], first: bool = False) -> bytes:
    """One line of a log as `seat` sees it: the line itself, byte for byte, when nothing in
    it is hidden from them (or it is no message that can be read); a line ending kept, and
    on the first line (`first`) a byte-order mark. A line that hides something is written
    as the message the validator reads, hidden: whatever form it was written in."""
    body, end = (line[:-1], b"\r") if line.endswith(b"\r") else (line, b"")
    mark = b""
    if first and body.startswith(UTF8_BOM):
        mark, body = UTF8_BOM, body[len(UTF8_BOM) :]
    if b"\\" not in body and b"BD" not in body and b"ST" not in body and b"HD" not in body:
        return line  # (an escape may spell a code: "B\u0044")
    message = read_message(body)
    if message is None:
        return line
    seen = hide(message, seat)
    if seen is message:
        return line
    return mark + json.dumps(seen, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + end


SETUP_LOOK_AHEAD = 64  # lines read before the first is written, to see who plays


class NotASeat(ValueError):
    """The seat asked for does not play in the log (its setup shows who does)."""


def redact(lines: Iterable[bytes], seat: Optional[str]) -> Iterator[bytes]:
    """The lines of a log (bytes, each without its newline) as `seat` sees them. A seat the
    log's setup does not show is `NotASeat`, raised before any line is given: the view of a
    seat nobody sat in would be the spectator's, written as a player's."""
    lines = iter(lines)
    ahead: List[bytes] = []
    if seat is not None:
        for line in lines:
            ahead.append(line)
            if len(ahead) >= SETUP_LOOK_AHEAD or b'"RD"' in line:
                break
        seats = _setup_seats(ahead)
        if seats and seat not in seats:
            raise NotASeat(
                f"seat {seat} does not play in this log: its setup shows players {', '.join(sorted(seats, key=int))}"
            )
    for number, line in enumerate(chain(ahead, lines)):
        yield redact_line(line, seat, first=number == 0)


def _setup_seats(lines: List[bytes]) -> Set[str]:
    """The seats that place a settlement in the lines of a setup (empty: none seen)."""
    seats: Set[str] = set()
    for number, line in enumerate(lines):
        body = line[len(UTF8_BOM) :] if number == 0 and line.startswith(UTF8_BOM) else line
        if b"BS" in body or b"\\" in body:
            message = read_message(body.rstrip(b"\r"))
            if isinstance(message, list) and len(message) == 3 and message[1] == "BS" and isinstance(message[0], str):
                seats.add(message[0])
    return seats
