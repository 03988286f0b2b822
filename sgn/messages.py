"""SGN messages, each form written in one place: `[player, aCode, value]` (docs/format.md).

Whatever writes SGN (the move generator and the decisions of a game being played, the
converters from other engines, the notations, the random player, the referee, the readings
of a fault) builds its messages here, so that a form is written one way, the way the
schema (`schema/v1.0/message.json`, `records.json`) describes it, and a change of form is
made once. Each function takes the parts as they are to be written: a place as SGN already
lists it (an intersection, a path), the resources of each side in the order to write them
(each writer keeps its own order: the generator's is that of `rules.RESOURCES`, the
converters' the alphabet), so that the bytes of a log do not depend on who wrote it here.

A value that was not seen is written `HIDDEN` (docs/hidden.md): a roll's result, the card
bought, the resource of a steal or of a side of a trade.
"""

from __future__ import annotations

from typing import Any, Final, List, Mapping, Optional, Sequence

# a message [player, aCode, value], as it is read: any sequence (the forms below write lists).
# Not `List`: the compiled build checks a `List` argument's type when it is called, and the
# replay is handed whatever a refused line held (sgn/game/recovery.py, `gap`).
Message = Sequence[Any]

HIDDEN: Final = "?"  # a card or a roll not seen, an extension of SGN v1.0 (docs/hidden.md)
BANK = "B"  # the bank, as a message names it: the sender of a map or a header, a side of a trade

# The action codes this module writes: SGN v1.0's ten, then the record lines' two (a header,
# the end of a turn: sgn/layers/records.py).
CODES = ("DM", "MR", "BS", "BR", "BC", "RD", "BD", "PD", "TR", "ST", "HD", "ET")


# -- the game's frame: its map, its header, the end of a turn ---------------------------------


def define_map(value: Any, player: str = BANK) -> List[Any]:
    """The map (`DM`), first in its game: `value` is `{"tiles": [...], "harbors": [...]}`.
    The bank sends it; the format lets a player send it too."""
    return [player, "DM", value]


def header(value: Any) -> List[Any]:
    """A game's header (`HD`, a record line): who plays, the rules, the result, the tags
    (`sgn.layers.records.header` makes the value)."""
    return [BANK, "HD", value]


def end_turn(seat: str) -> List[Any]:
    """The end of the seat's part of a turn (`ET`, a record line): v1.0 infers it from the next
    roll, a game being played and a record that says it need it written."""
    return [seat, "ET", {}]


# -- the dice and the robber --------------------------------------------------------------------


def roll(player: str, result: Any) -> List[Any]:
    """A roll (`RD`): the total of the two dice, 2 to 12, or HIDDEN for a roll not seen."""
    return [player, "RD", {"result": result}]


def move_robber(player: str, tile: Sequence[int]) -> List[Any]:
    """The robber moved (`MR`) to `tile`, `(q, r)`: after a 7, a Knight, or on the desert
    before the setup."""
    return [player, "MR", {"tile": list(tile)}]


def steal(thief: str, victim: str, resource: str) -> List[Any]:
    """A steal (`ST`) of one card of `resource` (HIDDEN: one not seen), the thief's side first."""
    return [
        thief,
        "ST",
        [{"player": thief, "resources": {resource: 1}}, {"player": victim, "resources": {resource: -1}}],
    ]


def steal_cards(thief: str, victim: str, cards: Mapping[str, int]) -> List[Any]:
    """A steal of `cards` (resource -> count), the thief's side first: where a notation says
    more than the one card a steal takes, its message says what the notation said (and the
    semantic checks refuse it), rather than another move."""
    return [
        thief,
        "ST",
        [
            {"player": thief, "resources": dict(cards)},
            {"player": victim, "resources": {r: -n for r, n in cards.items()}},
        ],
    ]


# -- building -------------------------------------------------------------------------------------


def build_settlement(player: str, intersection: Any) -> List[Any]:
    """A settlement (`BS`) on `intersection`, listed as SGN lists it: its three tiles."""
    return [player, "BS", {"intersection": intersection}]


def build_city(player: str, intersection: Any) -> List[Any]:
    """A city (`BC`) on the player's settlement at `intersection`."""
    return [player, "BC", {"intersection": intersection}]


def build_road(player: str, path: Any) -> List[Any]:
    """A road (`BR`) along `path`, listed as SGN lists it: its two intersections."""
    return [player, "BR", {"path": path}]


# -- development cards ----------------------------------------------------------------------------


def buy_card(player: str, card: str) -> List[Any]:
    """A development card bought (`BD`): the card drawn, or HIDDEN for one drawn unseen."""
    return [player, "BD", {"cCode": card}]


def play_card(player: str, card: str, chosen: Optional[Sequence[str]] = None) -> List[Any]:
    """A development card played or shown (`PD`), with the resources `chosen` where the card
    names them (`rCodes`: Monopoly's one, Year of Plenty's two), written when given."""
    value: dict = {"cCode": card}
    if chosen is not None:
        value["rCodes"] = list(chosen)
    return [player, "PD", value]


def play_knight(player: str) -> List[Any]:
    """A Knight played: the robber's move (and a steal) follow."""
    return [player, "PD", {"cCode": "KN"}]


def play_road_building(player: str) -> List[Any]:
    """A Road Building card played: its free roads follow, each a `build_road`."""
    return [player, "PD", {"cCode": "RB"}]


def play_monopoly(player: str, resource: str) -> List[Any]:
    """A Monopoly on `resource`: the cards move with the message itself."""
    return [player, "PD", {"cCode": "MO", "rCodes": [resource]}]


def play_year_of_plenty(player: str, resources: Sequence[str]) -> List[Any]:
    """A Year of Plenty taking `resources` (two) from the bank, with the message itself."""
    return [player, "PD", {"cCode": "YP", "rCodes": list(resources)}]


def show_victory_point(player: str) -> List[Any]:
    """A Victory Point card shown (any time in the player's turn; to win, at the end)."""
    return [player, "PD", {"cCode": "VP"}]


# -- cards changing hands -------------------------------------------------------------------------


def trade(
    sender: str, first: str, first_resources: Mapping[str, int], second: str, second_resources: Mapping[str, int]
) -> List[Any]:
    """A trade (`TR`) sent by `sender`: two sides, each what its party gains (positive) and
    gives (negative), written as given: the sides balance where the trade is sound."""
    return [
        sender,
        "TR",
        [{"player": first, "resources": first_resources}, {"player": second, "resources": second_resources}],
    ]


def trade_with_bank(player: str, resources: Mapping[str, int], bank_resources: Mapping[str, int]) -> List[Any]:
    """A trade of `player` with the bank, the player's side first (a discard, where the player
    only gives)."""
    return trade(player, player, resources, BANK, bank_resources)


def discard(player: str, given: Mapping[str, int]) -> List[Any]:
    """A discard after a 7: the cards `given` (resource -> count, each above 0, in the order to
    write them) go to the bank, nothing in return; a `TR` whose bank side mirrors the
    player's."""
    return [
        player,
        "TR",
        [
            {"player": player, "resources": {r: -n for r, n in given.items()}},
            {"player": BANK, "resources": dict(given)},
        ],
    ]


__all__ = [
    "BANK",
    "CODES",
    "HIDDEN",
    "Message",
    "build_city",
    "build_road",
    "build_settlement",
    "buy_card",
    "define_map",
    "discard",
    "end_turn",
    "header",
    "move_robber",
    "play_card",
    "play_knight",
    "play_monopoly",
    "play_road_building",
    "play_year_of_plenty",
    "roll",
    "show_victory_point",
    "steal",
    "steal_cards",
    "trade",
    "trade_with_bank",
]
