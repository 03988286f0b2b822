"""catanatron's games as SGN: from the JSON of a game, or from a live `catanatron.Game`.

catanatron (a Python engine and bot framework) writes a game as JSON with its own
encoder, `json.dumps(game, cls=catanatron.json.GameEncoder)`, which is also what its
web server returns: the board (`tiles` in cube coordinates, `nodes`, `edges`, the
ports among the tiles), the players in play order (`colors`), and the action log.
The log records what a replay needs that the rules do not decide: the dice, the card
drawn, the card stolen, the cards discarded. catanatron 3.2.1 (the release on the
package index) writes it as `actions`, each `[color, type, value]` with that result in
the value; its later sources write `action_records`, each `[[color, type, value],
result]`, a discard one card a record, and domestic trades. Both are read.

Places. catanatron's cube coordinates (x, y, z) are SGN's axial ones as q = x, r = z:
catanatron's east (1, -1, 0) is SGN's (q + 1, r). A node is a corner of a tile
(`tile_coordinate`, `direction` NORTH ... NORTHWEST), an edge the pair of nodes at its
ends, a port a sea tile whose `direction` names the side of it that holds the
harbor. The map lists every tile, land and sea, in rows (r, then q).

The live function, `to_sgn(game)`, encodes the game with catanatron's own encoder
and converts that JSON: one conversion for both, so what a bot author gets from a
game in memory is what `sgn convert --from catanatron` makes of its file. It is the
only place that imports catanatron, which stays an optional extra
(`pip install "settlers-game-notation[catanatron]"`).

Players are 1..N in play order (`colors`); what has no SGN form is left out without
a word (`END_TURN`: SGN infers a turn's end; trade offers, acceptances, refusals and
cancellations: SGN records the trade made, `CONFIRM_TRADE`); anything else unknown is
an `engine-unknown` warning (`sgn/adapters/writer.py`). docs/engines.md has the
departures from the rulebook that the replay finds in catanatron's games.

The converter's shape is every converter's (`sgn/adapters/writer.py`): this module reads
the JSON and its log of actions, and hands each action to the function
`catanatron_actions.HANDLERS` names for its type, which writes SGN to the game under
conversion (`catanatron_actions.Conversion`).
"""

from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..diagnostic import make
from ..game.rule_profiles import CATANATRON
from ..layers import records
from ..layers.jsonline import MAX_NUMBER_CHARS
from ..layers.records import WON
from ..messages import define_map
from ..notation.reading import Item, Lines, Where
from .catanatron_actions import HANDLERS, SILENT, Conversion
from .catanatron_board import RESOURCE, a_list, field, named, shown
from .writer import Unreadable, unreadable

COLORS = ("RED", "BLUE", "WHITE", "ORANGE")  # catanatron's four colours, in its own order

# -- the log of actions ----------------------------------------------------------------------


def _records(data: dict) -> Tuple[str, list]:
    """The action log, in either form: 3.2.1's `actions` (each result in its value) or the
    later `action_records`; its key."""
    if isinstance(data, dict) and "action_records" in data:
        return "action_records", a_list(data["action_records"], "/action_records", "`action_records`")
    return "actions", a_list(field(data, "actions", ""), "/actions", "`actions`")


def _record(key: str, i: int, record) -> Tuple[str, list, object]:
    """(pointer, [color, type, value], result) of one entry of the log."""
    where = f"/{key}/{i}"
    if key == "action_records":
        action, result = a_list(record, where, "an action record", 2)
        return where + "/0", a_list(action, where + "/0", "an action", 3), result
    return where, a_list(record, where, "an action", 3), None


def header(c: Conversion, data: dict) -> list:
    """The game's header (docs/format.md, "Records"): each seat's colour, the profile
    catanatron's games need, and the result catanatron recorded: its winner (`winning_color`)
    and each seat's points (`ACTUAL_VICTORY_POINTS`); none where it names no winner."""
    players = {seat: {"name": color, "color": color} for color, seat in c.names.items()}
    result: Optional[Dict[str, Any]] = None
    winner = data.get("winning_color") if isinstance(data, dict) else None
    if isinstance(winner, str) and winner in c.names:
        result = {"how": WON, "winner": c.names[winner]}
        state = data.get("player_state")
        state = state if isinstance(state, dict) else {}  # (a record cut short: no points)
        points = {seat: state.get(f"P{int(seat) - 1}_ACTUAL_VICTORY_POINTS") for seat in c.names.values()}
        if all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 99 for n in points.values()):
            result["points"] = points
    return records.header(players, CATANATRON, result)


def _messages(c: Conversion, data: dict) -> List[Item]:
    """The header, the map, then each action of the log by the handler of its type."""
    c.write(header(c, data))
    c.write(define_map(c.places.map))
    try:
        key, records = _records(data)
    except Unreadable as error:
        c.writer.unreadable(c.where, error)
        return c.writer.out
    for i, record in enumerate(records):
        pointer = f"/{key}/{i}"
        try:
            pointer, action, result = _record(key, i, record)
            color, kind, value = action
            player = named(color, c.names, pointer + "/0", "the acting colour")
            if not isinstance(kind, str):
                raise Unreadable(f"an action type is {shown(kind)}, not a name", pointer + "/1")
            if kind != "DISCARD_RESOURCE" or (c.discard and c.discard[0] != player):
                c.flush()
            if kind in SILENT:
                continue
            handler = HANDLERS.get(kind)
            if handler is None:
                c.writer.report(
                    c.where,
                    "engine-unknown",
                    f"an action of type {shown(kind)}, which the converter does not know: left out",
                    pointer,
                )
                continue
            handler(c, player, value, result, pointer)
        except Unreadable as error:
            c.writer.unreadable(c.where, error)
    c.flush()
    return c.writer.out


def convert(data, name: str = "<game>") -> Iterator[Item]:
    """The SGN messages of catanatron's JSON of a game (already parsed), each an `Item`."""
    where = Where(name, 1)
    try:
        conversion = Conversion(data, name)
    except Unreadable as error:
        yield unreadable(where, error)
        return
    yield from _messages(conversion, data)


class _TooLong(ValueError):
    def __init__(self, literal: str) -> None:
        super().__init__(literal[:20])
        self.literal = literal


def _number(kind):
    """A parser of JSON number literals that refuses one longer than any SGN field could need
    (`sgn.layers.jsonline`), before Python converts it: a huge literal costs quadratic time,
    and past 4,300 digits Python refuses it with advice for programmers."""

    def parse(literal: str):
        if len(literal) > MAX_NUMBER_CHARS:
            raise _TooLong(literal)
        return kind(literal)

    return parse


def _too_long(text: str, literal: str, name: str) -> Item:
    at = text.find(literal)
    line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
    return (
        Where(name, line, column),
        None,
        [
            make(
                "engine-input",
                f"a number of {len(literal)} characters (more than {MAX_NUMBER_CHARS}): catanatron writes none so long",
                file=name,
                line=line,
                column=column,
            )
        ],
    )


def read(lines: Lines, name: str, **_) -> Iterator[Item]:
    """`sgn convert --from catanatron`: the input is one JSON document, on one line or several."""
    where = Where(name, 1)
    if None in lines:  # a line that could not be read: reported by reading
        return
    text = "\n".join(line or "" for line in lines)
    if not text.strip():
        yield (
            where,
            None,
            [
                make(
                    "engine-input",
                    f"{name} is empty: catanatron's JSON of a game is one object",
                    file=name,
                    line=1,
                    column=1,
                )
            ],
        )
        return
    try:
        data = json.loads(text, parse_int=_number(int), parse_float=_number(float))
    except _TooLong as error:
        yield _too_long(text, error.literal, name)
        return
    except RecursionError:
        yield (
            where,
            None,
            [make("engine-input", "the JSON is nested too deep to be a catanatron game", file=name, line=1)],
        )
        return
    except ValueError as error:
        line, column = getattr(error, "lineno", 1), getattr(error, "colno", 1)
        yield (
            Where(name, line, column),
            None,
            [
                make(
                    "invalid-json",
                    f"not JSON ({getattr(error, 'msg', error)}): catanatron's game is one JSON object",
                    file=name,
                    line=line,
                    column=column,
                )
            ],
        )
        return
    yield from convert(data, name)


def to_sgn(game) -> List[list]:
    """The SGN messages of a live `catanatron.Game`, finished or not (each a list, as
    `json.loads` reads an SGN line). What cannot be converted raises ValueError; what is
    left out (an action of a kind the converter does not know) warns (`warnings`)."""
    import warnings

    from catanatron.json import GameEncoder  # (no stubs, or not installed: pyproject.toml)

    messages = []
    for _, message, found in convert(json.loads(json.dumps(game, cls=GameEncoder)), "<game>"):
        for d in found:
            if d.is_error:
                raise ValueError(d.message)
            warnings.warn(d.message, stacklevel=2)
        if message is not None:
            messages.append(message)
    return messages


translate = to_sgn  # the name bench/engine_games.py has used


def end_state(data) -> Dict[str, dict]:
    """What catanatron's JSON says of each player at its end (by SGN player): the hand,
    the points, Knights played, and whether they hold the longest road or largest army.
    (The replay's end is compared with this in t/test_adapters_catanatron.py.)"""
    state, out = data["player_state"], {}
    for i, _ in enumerate(data["colors"]):
        key = f"P{i}_"
        out[str(i + 1)] = {
            "hand": {RESOURCE[r]: state[f"{key}{r}_IN_HAND"] for r in RESOURCE},
            "points": state[key + "ACTUAL_VICTORY_POINTS"],
            "knights": state[key + "PLAYED_KNIGHT"],
            "longest road": state[key + "HAS_ROAD"],
            "largest army": state[key + "HAS_ARMY"],
        }
    return out


def player_names(lines: Lines) -> Dict[str, str]:
    """SGN's player -> catanatron's colour (`colors`, in play order: docs/format.md,
    "Players' names"); {} for a record that cannot be read (its conversion says why)."""
    text = "\n".join(line or "" for line in lines)
    try:
        data = json.loads(text, parse_int=_number(int), parse_float=_number(float))
        return {name: color for color, name in Conversion(data, "").names.items()}
    except (ValueError, RecursionError, Unreadable, LookupError, TypeError, AttributeError):
        return {}
