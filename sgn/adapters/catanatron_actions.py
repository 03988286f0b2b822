"""catanatron's actions as SGN (`sgn/adapters/catanatron.py`): the game under conversion
(`Conversion`: its board in SGN's places, its colours as SGN's players, a discard read
one card a record, and the `Writer` the handlers write SGN to) and `HANDLERS`, the
function of each action type, which writes the SGN messages the action makes. Each value
is checked as it is read (`sgn/adapters/catanatron_board.py`): a fault is an `Unreadable`
at its JSON pointer, and the action writes nothing.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from .. import board, messages
from ..notation.reading import Where
from .catanatron_board import RESOURCE, Translation, a_list, cube, field, integer, named, shown
from .writer import Unreadable, Writer, between, with_bank

FREQDECK = ("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE")  # the order of catanatron's counts
CARD = {"KNIGHT": "KN", "VICTORY_POINT": "VP", "ROAD_BUILDING": "RB", "YEAR_OF_PLENTY": "YP", "MONOPOLY": "MO"}
# Actions with no SGN form: a turn's end, and the talk around a domestic trade.
SILENT = frozenset({"END_TURN", "OFFER_TRADE", "ACCEPT_TRADE", "REJECT_TRADE", "CANCEL_TRADE"})


class Conversion:
    """A game of catanatron's JSON under conversion: its places, its players (`colors`, in
    play order, as 1..N), a discard whose cards come one a record, the messages written."""

    def __init__(self, data: dict, name: str) -> None:
        self.where = Where(name, 1)  # catanatron's JSON is one document: each item at its start
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
        self.writer = Writer()

    def write(self, message: list) -> None:
        self.writer.write(self.where, message)

    def flush(self) -> None:
        """A discard read one card a record, written whole once its last card is read."""
        if self.discard:
            player, cards, _ = self.discard
            self.discard = None
            self.write(with_bank(player, board.tally(cards)))


def _resources(values, pointer: str, what: str) -> List[str]:
    return [
        named(v, RESOURCE, f"{pointer}/{i}", what) for i, v in enumerate(a_list(values, pointer, what)) if v is not None
    ]


def _freqdeck(values, pointer: str) -> Dict[str, int]:
    counts = [integer(n, f"{pointer}/{i}", "a count of cards") for i, n in enumerate(values)]
    return {RESOURCE[r]: n for r, n in zip(FREQDECK, counts) if n}


# -- each action type: the SGN messages it makes ---------------------------------------------
# (player: SGN's; value: the action's value; result: the record's result, in the later
# `action_records`; pointer: the action's, in the JSON)


def build_settlement(c: Conversion, player: str, value, result, pointer: str) -> None:
    c.write(messages.build_settlement(player, c.places.corner(value, pointer + "/2")))


def build_city(c: Conversion, player: str, value, result, pointer: str) -> None:
    c.write(messages.build_city(player, c.places.corner(value, pointer + "/2")))


def build_road(c: Conversion, player: str, value, result, pointer: str) -> None:
    c.write(messages.build_road(player, c.places.edge(value, pointer + "/2")))


def roll(c: Conversion, player: str, value, result, pointer: str) -> None:
    dice = result if result is not None else value
    where = pointer + "/2" if result is None else pointer.rsplit("/", 1)[0] + "/1"
    a, b = (integer(d, f"{where}/{i}", "a die") for i, d in enumerate(a_list(dice, where, "the dice", 2)))
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise Unreadable(f"the dice {shown(dice)} are not two numbers 1 to 6", where)
    c.write(messages.roll(player, a + b))


def discard(c: Conversion, player: str, value, result, pointer: str) -> None:
    c.write(with_bank(player, board.tally(_resources(value, pointer + "/2", "a discarded card"))))


def discard_resource(c: Conversion, player: str, value, result, pointer: str) -> None:
    card = named(value if value is not None else result, RESOURCE, pointer + "/2", "the discarded card")
    if c.discard is None:
        c.discard = (player, [], pointer)
    c.discard[1].append(card)


def move_robber(c: Conversion, player: str, value, result, pointer: str) -> None:
    value = a_list(value, pointer + "/2", "a robber's move")
    if len(value) not in (2, 3):
        raise Unreadable(
            f"a robber's move is {shown(value)}, not [coordinate, victim] or [coordinate, victim, card]",
            pointer + "/2",
        )
    tile = cube(value[0], pointer + "/2/0")
    if tile not in c.places.land:
        raise Unreadable(f"the robber moves to {shown(value[0])}, which is no land tile", pointer + "/2/0")
    out = [messages.move_robber(player, tile)]
    victim = value[1]
    card = value[2] if len(value) == 3 else result
    if victim is not None and card is not None:
        robbed = named(victim, c.names, pointer + "/2/1", "the robbed colour")
        out.append(messages.steal(player, robbed, named(card, RESOURCE, pointer + "/2/2", "the stolen card")))
    for message in out:  # (written once both are read: a fault in the steal writes neither)
        c.write(message)


def maritime_trade(c: Conversion, player: str, value, result, pointer: str) -> None:
    value = a_list(value, pointer + "/2", "a maritime trade", 5)
    given = _resources(value[:4], pointer + "/2", "a card given")
    taken = _resources(value[4:], pointer + "/2", "the card asked for")
    c.write(with_bank(player, board.tally(given), board.tally(taken)))


def confirm_trade(c: Conversion, player: str, value, result, pointer: str) -> None:
    value = a_list(value, pointer + "/2", "a domestic trade", 11)
    other = named(value[10], c.names, pointer + "/2/10", "the accepting colour")
    gives, takes = _freqdeck(value[:5], pointer + "/2"), _freqdeck(value[5:10], pointer + "/2")
    c.write(between(player, player, gives, other, takes))


def buy_development_card(c: Conversion, player: str, value, result, pointer: str) -> None:
    card = result if result is not None else value
    if card is None:
        raise Unreadable("the card bought is not recorded: SGN names the card drawn", pointer + "/2")
    c.write(messages.buy_card(player, named(card, CARD, pointer + "/2", "the card bought")))


def play_knight_card(c: Conversion, player: str, value, result, pointer: str) -> None:
    c.write(messages.play_knight(player))


def play_road_building(c: Conversion, player: str, value, result, pointer: str) -> None:
    c.write(messages.play_road_building(player))


def play_year_of_plenty(c: Conversion, player: str, value, result, pointer: str) -> None:
    c.write(messages.play_year_of_plenty(player, _resources(value, pointer + "/2", "a card taken")))


def play_monopoly(c: Conversion, player: str, value, result, pointer: str) -> None:
    c.write(messages.play_monopoly(player, named(value, RESOURCE, pointer + "/2", "the resource")))


Handler = Callable[[Conversion, str, object, object, str], None]
# The function of each action type converted (the others: SILENT, or unknown).
HANDLERS: Dict[str, Handler] = {
    "BUILD_SETTLEMENT": build_settlement,
    "BUILD_CITY": build_city,
    "BUILD_ROAD": build_road,
    "ROLL": roll,
    "DISCARD": discard,
    "DISCARD_RESOURCE": discard_resource,
    "MOVE_ROBBER": move_robber,
    "MARITIME_TRADE": maritime_trade,
    "CONFIRM_TRADE": confirm_trade,
    "BUY_DEVELOPMENT_CARD": buy_development_card,
    "PLAY_KNIGHT_CARD": play_knight_card,
    "PLAY_ROAD_BUILDING": play_road_building,
    "PLAY_YEAR_OF_PLENTY": play_year_of_plenty,
    "PLAY_MONOPOLY": play_monopoly,
}
