"""HAN, the Hexil Action Notation (seed 001): parse, format, and convert to and from SGN.

One HAN string is one action, e.g. `R(2+3)`, `Pv(d4n)`, `T(LO2)(B3)1`, `2D(O2)`.
Parsing follows the seed's grammar exactly and whole (the grammar itself is not
anchored; we are: trailing characters are an error). Errors name the 1-based
column of the offending character. The SHOULD rules (counts of 1 omitted,
resources and dice in standard order) are applied when formatting and reported
as warnings when parsing.

Coordinates: a tile is letters + row, spreadsheet-style columns (a = 1), and
SGN `[q, r]` = (column - 4, row - 4): `d4` is `[0,0]`. A vertex is a tile and
`n` or `s` (its north or south corner); an edge is a tile and `ne`, `nw` or `w`.
HAN has no map, so a coordinate names a place of the seed's default setup, the
standard board: one that is not (`a1n`, far out at sea) is refused, reading and
writing alike (docs/notations.md). The names of places are in `han_places.py`.
"""

from __future__ import annotations

import json
from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple, TypeVar

from .. import board, messages
from ..board import Corner, Edge, Tile
from ..layers.hidden import HIDDEN
from ..layers.records import END_TURN
from .han_places import (
    BOARD_RADIUS as BOARD_RADIUS,
    OFFSET,
    column_letters as column_letters,
    column_number,
    edge_name,
    edge_of,
    on_board,
    tile_name,
    vertex_name,
    vertex_of,
)
from .scan import RESOURCES, Cursor, NotationError, format_counts, is_digit

CARDS = {"k": "KN", "y": "YP", "m": "MO", "o": "RB"}  # HAN use-card letter -> SGN cCode


class HanError(NotationError):
    """A HAN string that does not parse: the message, and the 1-based column at fault."""

    code = "han-syntax"


class PlaceError(HanError):
    """A coordinate that follows the grammar but names no place of the standard board."""

    code = "han-place"


class Action(NamedTuple):
    """One parsed HAN action. `verb` is R M D S B P U T E; the other fields are set as the verb needs."""

    verb: str
    player: Optional[int] = None  # D: who discards; S, T: the other player (0 = bank)
    dice: Optional[Tuple[int, int]] = None  # R: None for `R?`
    formula: Optional[Dict[str, int]] = None  # D, S (None for `S?`), U y/m, T: what is given
    formula2: Optional[Dict[str, int]] = None  # T: what is got in return
    item: Optional[str] = None  # B, P: v c r d; U: k y m o
    tile: Optional[Tile] = None  # M: the destination (SGN coordinates)
    vertex: Optional[Corner] = None  # P v/c
    edge: Optional[Edge] = None  # P r


# -- parsing -----------------------------------------------------------------------------------


class _Parser(Cursor):
    error = HanError
    name_at = 0  # where the name of the last coordinate read starts

    def player(self) -> int:
        return int(self.take("0123456", "a player (0-6)"))

    def formula(self) -> Dict[str, int]:
        start = self.at
        self.expect("(")
        found, order = self.counts(one_is_style=True, zero_is_whole=True)
        self.expect(")")
        if order != sorted(order, key=RESOURCES.index):
            self.warn(start, "resources SHOULD be in the standard order B G L O W")
        return found

    def coordinate(self, suffixes: Tuple[str, ...], what: str) -> Tuple[Tile, str]:
        self.expect("(")
        self.name_at = self.at
        letters = self.bounded(lambda ch: "a" <= ch <= "z", "a column")  # column letters, then the row
        if not letters:
            self.fail("expected column letters a-z")
        if not self.peek() or self.peek() not in "123456789":
            self.fail("expected a row number 1-9...")
        digits = self.bounded(is_digit, "a row number")
        suffix = ""
        for option in sorted(suffixes, key=len, reverse=True):
            if option and self.text.startswith(option, self.at):
                suffix = option
                self.at += len(option)
                break
        if suffixes != ("",) and not suffix:
            self.fail(f"expected {what}: {' or '.join(s for s in suffixes if s)}")
        self.expect(")")
        return (column_number(letters) - OFFSET, int(digits) - OFFSET), suffix

    def place(self, kind: str, found):
        """A tile, corner or edge read, when it is a place of the standard board."""
        if not on_board(kind, found):
            name = self.text[self.name_at : self.at - 1]
            where = (
                "a hex beyond its sea ring"
                if kind == "tile"
                else f"{'a corner' if kind == 'vertex' else 'a side'} that touches none of its land"
            )
            raise PlaceError(
                f"{name!r} is no place of the standard board, the one HAN names (d4 its centre): {where}",
                self.name_at + 1,
            )
        return found

    def action(self) -> Action:
        if is_digit(self.peek()):
            player = self.player()
            self.expect("D")
            return Action("D", player=player, formula=self.formula())
        verb = self.take("RMSBPUTE", "an action letter (R M S B P U T E) or a player")
        if verb == "R":
            if self.peek() == "?":
                self.at += 1
                return Action("R")
            self.expect("(")
            a = int(self.take("123456", "a die value 1-6"))
            self.expect("+")
            b = int(self.take("123456", "a die value 1-6"))
            self.expect(")")
            if a > b:
                self.warn(1, "die values SHOULD be in order, lowest first")
            return Action("R", dice=(a, b))
        if verb == "M":
            tile, _ = self.coordinate(("",), "a tile")
            return Action("M", tile=self.place("tile", tile))
        if verb == "S":
            formula = None
            if self.peek() == "?":
                self.at += 1
            else:
                formula = self.formula()
            return Action("S", formula=formula, player=self.player())
        if verb == "B":
            return Action("B", item=self.take("vcrd", "v, c, r or d (village, city, road, card)"))
        if verb == "P":
            item = self.take("vcr", "v, c or r (village, city, road)")
            if item == "r":
                tile, border = self.coordinate(("ne", "nw", "w"), "an edge")
                return Action("P", item=item, edge=self.place("edge", edge_of(tile, border)))
            tile, corner = self.coordinate(("n", "s"), "a corner")
            return Action("P", item=item, vertex=self.place("vertex", vertex_of(tile, corner)))
        if verb == "U":
            card = self.take("kymo", "k, y, m or o (knight, year of plenty, monopoly, road card)")
            return Action("U", item=card, formula=self.formula() if card in "ym" else None)
        if verb == "T":
            give = self.formula()
            get = self.formula()
            return Action("T", formula=give, formula2=get, player=self.player())
        return Action("E")


def parse(text: str) -> Tuple[Action, List[Tuple[int, str]]]:
    """One HAN action, and the warnings (column, message) of the SHOULD rules it breaks.
    Raises HanError (with the column) when it does not parse."""
    parser = _Parser(text)
    if not text:
        raise HanError("an empty string is no action", 1)
    action = parser.action()
    if parser.at != len(text):
        parser.fail(f"unexpected {text[parser.at]!r} after a complete action")
    return action, parser.warnings


T = TypeVar("T")


def _given(field: Optional[T]) -> T:
    """A field of an action that its verb sets (the parser and `from_sgn` set each verb's own)."""
    assert field is not None
    return field


# -- formatting ------------------------------------------------------------------------------------


def format_formula(formula: Dict[str, int]) -> str:
    return "(" + format_counts(formula) + ")"


def format_action(action: Action) -> str:
    """The standard form: counts of 1 omitted, resources and dice in standard order."""
    v = action.verb
    if v == "R":
        return "R?" if action.dice is None else "R({}+{})".format(*sorted(action.dice))
    if v == "M":
        return f"M({tile_name(_given(action.tile))})"
    if v == "D":
        return f"{action.player}D{format_formula(_given(action.formula))}"
    if v == "S":
        return "S" + ("?" if action.formula is None else format_formula(action.formula)) + str(action.player)
    if v == "B":
        return f"B{action.item}"
    if v == "P":
        where = edge_name(_given(action.edge)) if action.item == "r" else vertex_name(_given(action.vertex))
        return f"P{action.item}({where})"
    if v == "U":
        return f"U{action.item}" + (format_formula(_given(action.formula)) if _given(action.item) in "ym" else "")
    if v == "T":
        return f"T{format_formula(_given(action.formula))}{format_formula(_given(action.formula2))}{action.player}"
    return "E"


# -- SGN -----------------------------------------------------------------------------------------------


class NoMapping(ValueError):
    """An action with no counterpart in the other notation (the message says why)."""


def _corner_json(c: Iterable[Tile]) -> list:
    return [list(t) for t in board.canonical_corner(c)]


def sgn_player(p: int) -> str:
    """A HAN player (0 the bank) as SGN names it ("B" the bank)."""
    return "B" if p == 0 else str(p)


def han_player(p: str) -> int:
    """An SGN player as HAN numbers it."""
    return 0 if p == "B" else int(p)


def to_sgn(action: Action, actor: str) -> list:
    """The SGN message for a HAN action made by `actor` ("1".."6"; HAN names no actor but
    for a discard). Raises NoMapping where SGN cannot say it."""
    v = action.verb
    if v == "R":  # R? (a roll not seen): SGN's hidden result (docs/hidden.md)
        return messages.roll(actor, HIDDEN if action.dice is None else sum(action.dice))
    if v == "M":
        return messages.move_robber(actor, _given(action.tile))
    if v == "D":
        return messages.discard(sgn_player(_given(action.player)), _given(action.formula))
    if v == "S":
        victim = sgn_player(_given(action.player))
        if action.formula is None:  # S? (a card stolen unseen): one card of a hidden kind
            return messages.steal(actor, victim, HIDDEN)
        return messages.steal_cards(actor, victim, action.formula)
    if v == "B":
        if action.item == "d":  # a development card bought, not named: drawn unseen
            return messages.buy_card(actor, HIDDEN)
        raise NoMapping("a purchase alone has no SGN form: SGN records the placement (BS, BC, BR)")
    if v == "P":
        if action.item == "r":
            return messages.build_road(actor, [_corner_json(c) for c in board.canonical_edge(_given(action.edge))])
        build = messages.build_settlement if action.item == "v" else messages.build_city
        return build(actor, _corner_json(_given(action.vertex)))
    if v == "U":
        item = _given(action.item)
        card = CARDS[item]
        chosen: Optional[List[str]] = None  # (Monopoly's and Year of Plenty's resources)
        if item in "ym":
            formula = _given(action.formula)
            chosen = [r for r in RESOURCES for _ in range(formula.get(r, 0))]
        return messages.play_card(actor, card, chosen)
    if v == "T":
        other = sgn_player(_given(action.player))
        mine = {r: -n for r, n in _given(action.formula).items()}
        for r, n in _given(action.formula2).items():
            mine[r] = mine.get(r, 0) + n
        return messages.trade(actor, actor, mine, other, {r: -n for r, n in mine.items()})
    return messages.end_turn(actor)  # E: SGN's end of turn, a record line (sgn/layers/records.py)


def _named(kind: str, place, raw, checked: bool):
    """A place of an SGN message, when HAN can name it (it is on the standard board)."""
    if checked and not on_board(kind, place):
        text = json.dumps(raw, separators=(",", ":"))
        raise NoMapping(
            f"{text} is no place of the standard board, the only board HAN names "
            "(HAN has no map: its coordinates are the places of the published HAN text's default setup, d4 its centre)"
        )
    return place


def from_sgn(message: list, *, board_only: bool = True) -> Action:
    """The HAN action for an SGN message. Raises NoMapping where HAN cannot say it, and for
    a place off the standard board unless `board_only` is False (HSGN, which builds on
    these actions, says that in its own words)."""
    player, code, value = message
    if code == "RD":
        if value["result"] == HIDDEN:
            return Action("R")
        raise NoMapping("HAN records the two dice; SGN's RD only their total")
    if code == "MR":
        return Action("M", tile=_named("tile", tuple(value["tile"]), value["tile"], board_only))
    if code in ("BS", "BC"):
        vertex = _named("vertex", frozenset(tuple(t) for t in value["intersection"]), value["intersection"], board_only)
        return Action("P", item="v" if code == "BS" else "c", vertex=vertex)
    if code == "BR":
        edge = frozenset(frozenset(tuple(t) for t in end) for end in value["path"])
        return Action("P", item="r", edge=_named("edge", edge, value["path"], board_only))
    if code == "PD":
        card = {c: h for h, c in CARDS.items()}.get(value["cCode"])
        if card is None:
            raise NoMapping("HAN, as published, has no Victory Point card")
        formula: Optional[Dict[str, int]] = None
        if card in "ym":
            formula = {}
            for r in value.get("rCodes", []):
                formula[r] = formula.get(r, 0) + 1
        return Action("U", item=card, formula=formula)
    if code == "ST":
        thief = next((s for s in value if s["player"] == player), None)
        victim = next((s for s in value if s["player"] != player), None)
        if thief is None or victim is None:  # a message no valid log holds: no HAN S for it
            raise NoMapping("HAN's S names a victim other than the thief; this steal has none")
        stolen = None if HIDDEN in thief["resources"] else dict(thief["resources"])
        return Action("S", formula=stolen, player=han_player(victim["player"]))
    if code == "TR":
        mine = next((s for s in value if s["player"] == player), value[0])
        other = next((s for s in value if s is not mine), None)
        if other is None:
            raise NoMapping("HAN's T and D name two parties; this trade has one")
        if any(HIDDEN in side["resources"] for side in value):
            raise NoMapping("HAN's T and D name every card; this one hides some (?)")
        gives = {r: -n for r, n in mine["resources"].items() if n < 0}
        gets = {r: n for r, n in mine["resources"].items() if n > 0}
        if not gets and other["player"] == "B":
            return Action("D", player=han_player(mine["player"]), formula=gives)
        return Action("T", formula=gives, formula2=gets, player=han_player(other["player"]))
    if code == "BD":
        if value["cCode"] == HIDDEN:
            return Action("B", item="d")
        raise NoMapping("HAN's Bd, as published, cannot name the card bought, which SGN's BD records")
    if code == END_TURN:
        return Action("E")
    raise NoMapping(f"{code} has no HAN form")
