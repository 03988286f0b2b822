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
an `engine-unknown` warning (`sgn/adapters/common.py`). docs/engines.md has the
departures from the rulebook that the replay finds in catanatron's games.
"""

from __future__ import annotations

import json
from typing import Dict, Iterator, List, Optional, Tuple

from ..diagnostic import make
from ..layers.jsonline import MAX_NUMBER_CHARS
from ..notation.reading import Item, Lines, Source
from .catanatron_board import RESOURCE, Translation, a_list, cube, field, integer, named, shown
from .common import Unreadable, between, steal, tally, unknown, unreadable, with_bank

FREQDECK = ("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE")  # the order of catanatron's counts
CARD = {"KNIGHT": "KN", "VICTORY_POINT": "VP", "ROAD_BUILDING": "RB", "YEAR_OF_PLENTY": "YP", "MONOPOLY": "MO"}
COLORS = ("RED", "BLUE", "WHITE", "ORANGE")  # catanatron's four colours, in its own order
# Actions with no SGN form: a turn's end, and the talk around a domestic trade.
SILENT = frozenset({"END_TURN", "OFFER_TRADE", "ACCEPT_TRADE", "REJECT_TRADE", "CANCEL_TRADE"})
# Actions converted, each by the method of its name in lower case (`_Converter._roll`, ...).
HANDLED = frozenset(
    {
        "BUILD_SETTLEMENT",
        "BUILD_CITY",
        "BUILD_ROAD",
        "ROLL",
        "DISCARD",
        "DISCARD_RESOURCE",
        "MOVE_ROBBER",
        "MARITIME_TRADE",
        "CONFIRM_TRADE",
        "BUY_DEVELOPMENT_CARD",
        "PLAY_KNIGHT_CARD",
        "PLAY_ROAD_BUILDING",
        "PLAY_YEAR_OF_PLENTY",
        "PLAY_MONOPOLY",
    }
)

# -- the actions -----------------------------------------------------------------------------


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


def _resources(values, pointer: str, what: str) -> List[str]:
    return [
        named(v, RESOURCE, f"{pointer}/{i}", what) for i, v in enumerate(a_list(values, pointer, what)) if v is not None
    ]


def _freqdeck(values, pointer: str) -> Dict[str, int]:
    counts = [integer(n, f"{pointer}/{i}", "a count of cards") for i, n in enumerate(values)]
    return {RESOURCE[r]: n for r, n in zip(FREQDECK, counts) if n}


class _Converter:
    def __init__(self, data: dict, name: str) -> None:
        self.where = Source(name, 1)
        self.places = Translation(data)
        colors = a_list(field(data, "colors", ""), "/colors", "`colors`")
        if (
            not colors
            or len(colors) > 6
            or not all(isinstance(c, str) for c in colors)
            or len(set(colors)) != len(colors)
        ):
            raise Unreadable(f"`colors` is {shown(colors)}, not 1 to 6 different colour names", "/colors")
        self.names = {color: str(i + 1) for i, color in enumerate(colors)}
        self.discard: Optional[Tuple[str, List[str], str]] = None  # (player, cards, pointer): 1 card a record

    def messages(self, data: dict) -> Iterator[Item]:
        yield self.where, ["B", "DM", self.places.map], []
        try:
            key, records = _records(data)
        except Unreadable as error:
            yield unreadable(self.where, error)
            return
        for i, record in enumerate(records):
            pointer = f"/{key}/{i}"
            try:
                pointer, action, result = _record(key, i, record)
                color, kind, value = action
                player = named(color, self.names, pointer + "/0", "the acting colour")
                if not isinstance(kind, str):
                    raise Unreadable(f"an action type is {shown(kind)}, not a name", pointer + "/1")
                if kind != "DISCARD_RESOURCE" or (self.discard and self.discard[0] != player):
                    yield from self._discarded()
                if kind in SILENT:
                    continue
                if kind not in HANDLED:
                    yield unknown(
                        self.where,
                        f"an action of type {shown(kind)}, which the converter does not know: left out",
                        pointer,
                    )
                    continue
                for message in getattr(self, "_" + kind.lower())(player, value, result, pointer):
                    yield self.where, message, []
            except Unreadable as error:
                yield unreadable(self.where, error)
        yield from self._discarded()

    def _discarded(self) -> Iterator[Item]:
        if self.discard:
            player, cards, _ = self.discard
            self.discard = None
            yield self.where, with_bank(player, tally(cards)), []

    # each action type: the SGN messages it makes
    def _build_settlement(self, player, value, result, pointer):
        return [[player, "BS", {"intersection": self.places.corner(value, pointer + "/2")}]]

    def _build_city(self, player, value, result, pointer):
        return [[player, "BC", {"intersection": self.places.corner(value, pointer + "/2")}]]

    def _build_road(self, player, value, result, pointer):
        return [[player, "BR", {"path": self.places.edge(value, pointer + "/2")}]]

    def _roll(self, player, value, result, pointer):
        dice = result if result is not None else value
        where = pointer + "/2" if result is None else pointer.rsplit("/", 1)[0] + "/1"
        a, b = (integer(d, f"{where}/{i}", "a die") for i, d in enumerate(a_list(dice, where, "the dice", 2)))
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise Unreadable(f"the dice {shown(dice)} are not two numbers 1 to 6", where)
        return [[player, "RD", {"result": a + b}]]

    def _discard(self, player, value, result, pointer):
        return [with_bank(player, tally(_resources(value, pointer + "/2", "a discarded card")))]

    def _discard_resource(self, player, value, result, pointer):
        card = named(value if value is not None else result, RESOURCE, pointer + "/2", "the discarded card")
        if self.discard is None:
            self.discard = (player, [], pointer)
        self.discard[1].append(card)
        return []

    def _move_robber(self, player, value, result, pointer):
        value = a_list(value, pointer + "/2", "a robber's move")
        if len(value) not in (2, 3):
            raise Unreadable(
                f"a robber's move is {shown(value)}, not [coordinate, victim] or [coordinate, victim, card]",
                pointer + "/2",
            )
        tile = cube(value[0], pointer + "/2/0")
        if tile not in self.places.land:
            raise Unreadable(f"the robber moves to {shown(value[0])}, which is no land tile", pointer + "/2/0")
        out = [[player, "MR", {"tile": list(tile)}]]
        victim = value[1]
        card = value[2] if len(value) == 3 else result
        if victim is not None and card is not None:
            robbed = named(victim, self.names, pointer + "/2/1", "the robbed colour")
            out.append(steal(player, robbed, named(card, RESOURCE, pointer + "/2/2", "the stolen card")))
        return out

    def _maritime_trade(self, player, value, result, pointer):
        value = a_list(value, pointer + "/2", "a maritime trade", 5)
        given = _resources(value[:4], pointer + "/2", "a card given")
        taken = _resources(value[4:], pointer + "/2", "the card asked for")
        return [with_bank(player, tally(given), tally(taken))]

    def _confirm_trade(self, player, value, result, pointer):
        value = a_list(value, pointer + "/2", "a domestic trade", 11)
        other = named(value[10], self.names, pointer + "/2/10", "the accepting colour")
        return [
            between(player, player, _freqdeck(value[:5], pointer + "/2"), other, _freqdeck(value[5:10], pointer + "/2"))
        ]

    def _buy_development_card(self, player, value, result, pointer):
        card = result if result is not None else value
        if card is None:
            raise Unreadable("the card bought is not recorded: SGN names the card drawn", pointer + "/2")
        return [[player, "BD", {"cCode": named(card, CARD, pointer + "/2", "the card bought")}]]

    def _play_knight_card(self, player, value, result, pointer):
        return [[player, "PD", {"cCode": "KN"}]]

    def _play_road_building(self, player, value, result, pointer):
        return [[player, "PD", {"cCode": "RB"}]]

    def _play_year_of_plenty(self, player, value, result, pointer):
        return [[player, "PD", {"cCode": "YP", "rCodes": _resources(value, pointer + "/2", "a card taken")}]]

    def _play_monopoly(self, player, value, result, pointer):
        return [[player, "PD", {"cCode": "MO", "rCodes": [named(value, RESOURCE, pointer + "/2", "the resource")]}]]


def convert(data, name: str = "<game>") -> Iterator[Item]:
    """The SGN messages of catanatron's JSON of a game (already parsed), each an `Item`."""
    where = Source(name, 1)
    try:
        converter = _Converter(data, name)
    except Unreadable as error:
        yield unreadable(where, error)
        return
    yield from converter.messages(data)


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
        Source(name, line, column),
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
    where = Source(name, 1)
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
            Source(name, line, column),
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

    from catanatron.json import GameEncoder  # type: ignore  # (no stubs; or not installed)

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
        return {name: color for color, name in _Converter(data, "").names.items()}
    except (ValueError, RecursionError, Unreadable, LookupError, TypeError, AttributeError):
        return {}
