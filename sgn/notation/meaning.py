"""What a parsed HAN action or HSGN turn means, in words, as `sgn parse` prints it after
the standard form: `1: Pv(d4n) -- place a village (settlement) at the corner of tiles
[0,-1] [1,-1] [0,0]`. Places are given in SGN coordinates, the ones an SGN log holds.
"""

from __future__ import annotations

from typing import Dict, Iterable, Optional

from .. import board
from ..board import Corner, Edge, Tile
from ..rules import RESOURCE_NAMES
from ..words import count
from . import han, hsgn_turns

_HAN_ITEMS = {"v": "a village (settlement)", "c": "a city", "r": "a road", "d": "a development card"}
_HAN_CARDS = {"k": "a knight", "y": "year of plenty", "m": "monopoly", "o": "road building"}
_HSGN_CARDS = {"PK": "a knight", "PY": "year of plenty", "PM": "monopoly"}  # road building: its roads


def cards(formula: Optional[Dict[str, int]]) -> str:
    """`{"B": 2, "O": 1}` as "2 brick, 1 ore"; "nothing" for no card."""
    if not formula:
        return "nothing"
    return ", ".join(f"{n} {RESOURCE_NAMES.get(r, r)}" for r, n in sorted(formula.items()) if n)


def _tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(f"[{q},{r}]" for q, r in tiles)


def tile(t: Tile) -> str:
    return f"tile [{t[0]},{t[1]}]"


def corner(c: Corner) -> str:
    return "the corner of tiles " + _tiles(board.canonical_corner(c))


def edge(e: Edge) -> str:
    return "the edge between tiles " + _tiles(sorted(board.edge_tiles(e)))


def _han_player(p: Optional[int]) -> str:
    return "the bank" if p == 0 else f"player {p}"


# The phrases HAN and HSGN share: HAN's sentence is "the player" and the phrase, HSGN's the
# phrase after its player's name.


def _to(t: Optional[Tile]) -> str:
    """Where the robber goes: " to" a tile, or nothing where the notation does not say."""
    return f" to {tile(t)}" if t else ""


def _discards(who: object, formula: Optional[Dict[str, int]]) -> str:
    return f"{who} discards {cards(formula)}"


def _steals(what: str, whom: object) -> str:
    return f"steals {what} from {whom}"


def _plays(card: str, formula: Optional[Dict[str, int]] = None) -> str:
    """Playing a development card, with what it takes (year of plenty) or names (monopoly)."""
    if card == "year of plenty":
        return f"plays year of plenty, taking {cards(formula)}"
    if card == "monopoly":
        return f"plays monopoly on {cards(formula).lstrip('0123456789 ')}"
    return f"plays {card}"


def _trades(whom: object, formula: Optional[Dict[str, int]], formula2: Optional[Dict[str, int]]) -> str:
    return f"trades with {whom}, giving {cards(formula)} for {cards(formula2)}"


def of_han(action: han.Action) -> str:
    """A HAN action in words (HAN names no actor but for a discard: "the player" acts)."""
    v = action.verb
    if v == "R":
        if action.dice is None:
            return "the player rolls (the dice are not given)"
        a, b = sorted(action.dice)
        return f"the player rolls {a} and {b}: {a + b}"
    if v == "M":
        return "the robber moves" + _to(action.tile)
    if v == "D":
        return _discards(f"player {action.player}", action.formula)
    if v == "S":
        what = "a card not named" if action.formula is None else cards(action.formula)
        return "the player " + _steals(what, _han_player(action.player))
    if v == "B":
        return f"the player buys {_HAN_ITEMS.get(action.item or '', 'something')}"
    if v == "P":
        where = edge(action.edge) if action.edge else corner(action.vertex) if action.vertex else "a place"
        return f"the player places {_HAN_ITEMS.get(action.item or '', 'a piece')} on {where}"
    if v == "U":
        return "the player " + _plays(_HAN_CARDS.get(action.item or "", "a card"), action.formula)
    if v == "T":
        return "the player " + _trades(_han_player(action.player), action.formula, action.formula2)
    return "the player ends the turn"


def _hsgn_action(a: hsgn_turns.Action) -> str:
    code = a.code
    if code == "roll":
        return f"rolls {a.roll}"
    if code == "MR":
        return "moves the robber" + _to(a.tile)
    if code == "D":
        return _discards(a.player, a.formula)
    if code == "S":
        return _steals("a card", a.player)
    if code in ("BV", "BC"):
        what = "a village (settlement)" if code == "BV" else "a city"
        return f"builds {what} on {corner(a.vertex)}" if a.vertex else f"builds {what}"
    if code == "BR":
        return f"builds a road on {edge(a.edges[0])}" if a.edges else "builds a road"
    if code == "BD":
        return "buys a development card"
    if code in _HSGN_CARDS:
        return _plays(_HSGN_CARDS[code], a.formula)
    if code == "PR":
        built = "; ".join(edge(e) for e in a.edges)
        return f"plays road building, building {count(len(a.edges), 'road')}" + (f" on {built}" if built else "")
    if code == "T":
        return _trades(a.player, a.formula, a.formula2)
    return code


def of_hsgn(turn: hsgn_turns.Turn) -> str:
    """An HSGN turn in words: its player (or "the next player"), then each action."""
    who = turn.player or "the next player"
    return f"{who}: " + "; ".join(_hsgn_action(a) for a in turn.actions) if turn.actions else f"{who} passes"


__all__ = ["cards", "corner", "edge", "of_han", "of_hsgn", "tile"]
