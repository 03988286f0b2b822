"""Record lines: a game's header and the end of a turn (docs/format.md, "Records").

An extension of SGN v1.0 (schema/ERRATA.md, point 23), described by its own schema file
(`schema/v1.0/records.json`) beside the message schema, which stays v1.0's: a log without
these lines gets exactly the verdicts of v1.0, and a reader that knows only v1.0 refuses
them (the profile `v1.0`).

- `["B", "HD", {...}]`, the header: who plays each seat, the rule profile, the result and
  the tags PGN has (event, site, date, round), first in its game, before the map;
- `[seat, "ET", {}]`, the end of the seat's part of a turn (its turn, or its place in the
  Special Building Phase).
"""

from __future__ import annotations

import re
from typing import Any, Dict, Iterable, Iterator, List, Optional

from .. import messages
from ..diagnostic import Problem
from .schema_words import show

HEADER, END_TURN = "HD", "ET"
SEATS = ("1", "2", "3", "4", "5", "6")  # who ends a turn
ACTIONS = (HEADER, END_TURN)
SCHEMA_FILE = "v1.0/records.json"
NAMES = {HEADER: "a header (HD)", END_TURN: "an end of turn (ET)"}
WON = "won"
# How a game may end, as a header's result says it (every one but WON leaves no winner by the rules).
HOW = ("won", "abandoned", "forfeited", "time", "adjudicated", "turn-limit")
EXTRA_PREFIX = "x-"
# How a game ended otherwise than by a win, in words.
ENDED = {
    "abandoned": "abandoned",
    "forfeited": "forfeited",
    "time": "lost on time",
    "adjudicated": "adjudicated",
    "turn-limit": "stopped at the turn limit",
}


def is_record(message: Any) -> bool:
    """Whether a parsed message is a record line (by its action code)."""
    return isinstance(message, list) and len(message) > 1 and message[1] in ACTIONS


MAX_TEXT = 200  # characters of a header's text (a name, an event, a seed written as text)
MAX_RULES = 40
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.+Z-]{0,30})?\Z")
_RULES = re.compile(r"[a-z0-9-]{1,%d}\Z" % MAX_RULES)


def header_problems(player: str, value: Dict[str, Any], context: Any = None) -> Iterable[Problem]:
    """What the semantic layer says of a header: a value out of its form (`header-form`: a
    date not ISO 8601, a profile's name not one, a text too long, a seat forfeited twice);
    a result against the header itself (`header-inconsistent`: "won" with no winner; a
    winner, points or a forfeit for a seat its players do not name)."""
    yield from _form_problems(value)
    result = value.get("result")
    if not isinstance(result, dict):
        return
    if result.get("how") == WON and "winner" not in result:
        yield Problem(
            "header-inconsistent", "/2/result", 'the result says the game was won ("won") but names no winner'
        )
    players = value.get("players")
    if not isinstance(players, dict) or not players:
        return
    named = [("/2/result/winner", result["winner"])] if "winner" in result else []
    named += [(f"/2/result/points/{seat}", seat) for seat in result.get("points", {})]
    named += [(f"/2/result/forfeited/{i}", seat) for i, seat in enumerate(result.get("forfeited", []))]
    unnamed = [(pointer, seat) for pointer, seat in named if seat not in players]
    if unnamed:  # (one fault: the players listed are not all; said once, at the first)
        seats = sorted({seat for _, seat in unnamed}, key=str)
        who = f"player {seats[0]}, whom" if len(seats) == 1 else f"players {', '.join(map(str, seats))}, whom"
        yield Problem(
            "header-inconsistent",
            unnamed[0][0],
            f"the result names {who} the header's players do not name ({', '.join(sorted(players))})",
        )


def _form_problems(value: Dict[str, Any]) -> Iterator[Problem]:
    date, rules = value.get("date"), value.get("rules")
    if isinstance(date, str) and not _DATE.match(date):
        yield Problem(
            "header-form", "/2/date", f"the date {show(date)} is not ISO 8601 (2026-12-02, a time may follow)"
        )
    if isinstance(rules, str) and not _RULES.match(rules):
        yield Problem(
            "header-form",
            "/2/rules",
            f"the rules {show(rules)} are no profile's name (lower-case letters, digits and -, as catanatron)",
        )
    texts = [(f"/2/{key}", value.get(key)) for key in ("event", "site", "round", "seed")]
    players = value.get("players")
    if isinstance(players, dict):
        texts += [
            (f"/2/players/{seat}/{key}", entry.get(key))
            for seat, entry in players.items()
            if isinstance(entry, dict)
            for key in ("name", "color")
        ]
    for pointer, text in texts:
        if isinstance(text, str) and len(text) > MAX_TEXT:
            yield Problem("header-form", pointer, f"a text of {len(text):,} characters, where {MAX_TEXT} is the most")
    result = value.get("result")
    forfeited = result.get("forfeited") if isinstance(result, dict) else None
    if isinstance(forfeited, list):
        for i, seat in enumerate(forfeited):
            if seat in forfeited[:i]:
                yield Problem("header-form", f"/2/result/forfeited/{i}", f"player {seat} is listed twice")


def player_names(value: Optional[Dict[str, Any]]) -> Dict[str, str]:
    """Each seat's name in a header's value (the seats it names)."""
    players = (value or {}).get("players") or {}
    return {seat: p["name"] for seat, p in players.items() if isinstance(p, dict) and "name" in p}


def player_colors(value: Optional[Dict[str, Any]]) -> Dict[str, str]:
    """Each seat's engine colour in a header's value (the seats it gives one)."""
    players = (value or {}).get("players") or {}
    return {seat: p["color"] for seat, p in players.items() if isinstance(p, dict) and "color" in p}


def header(
    players: Optional[Dict[str, Dict[str, str]]] = None,
    rules: Optional[str] = None,
    result: Optional[Dict[str, Any]] = None,
    **tags: Any,
) -> List[Any]:
    """A header line, with what is given (None: left out): `players` {seat: {name, color}},
    `rules`, `result` {how, winner, points, forfeited, line}, and tags (event, site, date,
    round, seed, variant, extra keys x-...)."""
    value: Dict[str, Any] = {}
    if players:
        value["players"] = players
    if rules is not None:
        value["rules"] = rules
    if result is not None:
        value["result"] = result
    value.update((key, tag) for key, tag in tags.items() if tag is not None)
    return messages.header(value)
