"""HSGN turns (seed 004), such as `p3: 6, Tp2(LO, W2).`: parsed with errors at the column
at fault, and written in one standard form.

A line holds whole turns (`4.p2: 6.8.` is three). A turn is an optional player and a
colon, then actions separated by commas, then a period. Whitespace may stand between
tokens, never inside one. The actions, each a code and what follows it (`_ARGUMENTS`):

    8            the roll, the total of the dice (2..12)
    MRx          the robber moves to hex x
    Dx(y)        player x discards the cards y
    Sx           a card is stolen from player x
    BVx  BCx     a village, a city, at crossroad x
    BRx          a road on edge x
    BD           a development card bought
    PK  PY(y)    a knight played; year of plenty for the two cards y
    PM(r)        monopoly on resource r
    PR(x, y)     the road card, and the roads it builds (none, one or two)
    Tx(y, z)     a trade with player x, who gets y and gives z

A player is `p` and a number, `b` the bank, or a name of two lower-case letters (`al`);
a bare number (the seed's own `T2`) is read as `p2` with a warning. Cards are counted
like a chemical formula (`B2O3W`, a count of 1 optional). Places are the names of
`sgn.notation.hsgn`, abbreviations included.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from .. import board
from ..board import Corner, Edge, Tile
from . import hsgn
from .scan import RESOURCES, Cursor, NotationError, format_counts, is_digit, quoted


class TurnError(NotationError):
    """A line of HSGN turns that does not follow the notation."""

    code = "hsgn-syntax"


class PlaceError(TurnError):
    """A name that is no hex, crossroad or edge of the standard board, or fits several."""

    code = "hsgn-name"


class Action(NamedTuple):
    """One HSGN action. `code` is "roll" or the action's letters; the other fields as it needs."""

    code: str
    roll: Optional[int] = None
    player: Optional[str] = None  # D: who discards; S, T: the other player ("p2", "b", "al")
    formula: Optional[Dict[str, int]] = None  # D, PY, PM (its one resource), T: what the turn's player gives
    formula2: Optional[Dict[str, int]] = None  # T: what the turn's player gets
    tile: Optional[Tile] = None  # MR
    vertex: Optional[Corner] = None  # BV, BC
    edges: Tuple[Edge, ...] = ()  # BR (one), PR (up to two)


class Turn(NamedTuple):
    """A turn: its player (None when not written), its actions, and the 1-based columns
    where the turn and each action start."""

    player: Optional[str]
    actions: Tuple[Action, ...]
    column: int = 1
    columns: Tuple[int, ...] = ()


# What follows each code: literals, and pieces read into the action's fields.
_ARGUMENTS: Dict[str, Tuple[str, ...]] = {
    "MR": ("tile",),
    "D": ("player", "(", "formula", ")"),
    "S": ("player",),
    "BV": ("vertex",),
    "BC": ("vertex",),
    "BR": ("edge",),
    "BD": (),
    "PK": (),
    "PY": ("(", "formula", ")"),
    "PM": ("(", "resource", ")"),
    "PR": ("(", "edges", ")"),
    "T": ("player", "(", "formula", ",", "formula2", ")"),
}
_CODES = sorted(_ARGUMENTS, key=len, reverse=True)  # two letters before one
_FIELD = {"formula2": "formula2", "resource": "formula", "edge": "edges"}
_SPACE = " \t"
_PREFIX = re.compile(r"[0-9a-z]+[ \t]*:")
YEAR_OF_PLENTY = 2


def _lower(ch: str) -> bool:
    return "a" <= ch <= "z"


class _Parser(Cursor):
    error = TurnError

    def space(self) -> None:
        self.run(lambda ch: ch in _SPACE)

    def literal(self, ch: str) -> None:
        if ch != "(":
            self.space()
        self.expect(ch)
        self.space()

    def number(self, what: str) -> int:
        at = self.at
        digits = self.bounded(is_digit, what)
        if not digits:
            self.fail(f"expected {what}, found {self.found()}")
        if digits.startswith("0") and len(digits) > 1:
            self.fail(f"{what} has no leading zero", at)
        return int(digits)

    def player(self) -> str:
        at = self.at
        bare = is_digit(self.peek())  # the seed's own T2
        if bare or (self.peek() == "p" and is_digit(self.text[at + 1 : at + 2])):
            self.at += not bare
            n = self.number("a player number")
            if n == 0:
                self.fail("players count from p1", self.at - 1)
            if bare:
                self.warn(at, f"a player is written p{n}: {n} is read as p{n}")
            return f"p{n}"
        name = self.run(_lower)
        if name == "b" or len(name) == 2:
            return name
        self.fail("expected a player: p and a number, b (the bank) or a two-letter name", at)

    def formula(self) -> Dict[str, int]:
        return self.counts(one_is_style=False)[0]

    def resource(self) -> Dict[str, int]:
        return {self.take(RESOURCES, "a resource (B G L O W)"): 1}

    def _name(self, what: str) -> Tuple[str, int]:
        at = self.at
        name = self.run(_lower)
        if not name:
            self.fail(f"expected {what} (hex letters a-s, z for the sea), found {self.found()}")
        return name, at

    def tile(self) -> Tile:
        name, at = self._name("a hex")
        if name not in hsgn.names():
            raise PlaceError(f"{quoted(name)} is no hex of the standard board", at + 1)
        return hsgn.names()[name]

    def _place(self, size: int, what: str):
        name, at = self._name(what)
        try:
            return hsgn.parse_place(name, size)
        except hsgn.HsgnError as error:
            raise PlaceError(str(error), at + 1) from None

    def vertex(self) -> Corner:
        return self._place(3, "a crossroad")

    def edge(self) -> Tuple[Edge, ...]:
        return (board.edge_between(*self._place(2, "an edge")),)

    def edges(self) -> Tuple[Edge, ...]:
        if self.peek() == ")":
            return ()
        found = self.edge()
        self.space()
        if self.peek() == ",":
            self.literal(",")
            found += self.edge()
        return found

    def action(self) -> Action:
        at = self.at
        if is_digit(self.peek()):
            roll = self.number("a roll")
            if not 2 <= roll <= 12:
                self.fail(f"a roll of two dice is 2 to 12, not {roll}", at)
            return Action("roll", roll=roll)
        code = next((c for c in _CODES if self.text.startswith(c, at)), None)
        if code is None:
            self.fail(
                f"expected an action: a roll, MR, D, S, BV, BC, BR, BD, PK, PY, PM, PR or T, found {self.found()}"
            )
        self.at += len(code)
        fields: dict = {}
        for piece in _ARGUMENTS[code]:
            if piece in "(,)":
                self.literal(piece)
                continue
            start = self.at
            fields[_FIELD.get(piece, piece)] = getattr(self, "formula" if piece == "formula2" else piece)()
            if code == "PY" and sum(fields["formula"].values()) != YEAR_OF_PLENTY:
                self.fail(f"year of plenty takes {YEAR_OF_PLENTY} cards, not {sum(fields['formula'].values())}", start)
        return Action(code, **fields)

    def prefix(self) -> Optional[str]:
        """The turn's player and its colon, or None when the turn does not start with one."""
        if not _PREFIX.match(self.text, self.at):
            return None
        player = self.player()
        self.literal(":")
        return player

    def turn(self) -> Turn:
        start = self.at
        player = self.prefix()
        actions, columns = [], []
        while True:
            self.space()
            columns.append(self.at + 1)
            actions.append(self.action())
            self.space()
            if self.peek() == ".":
                self.at += 1
                return Turn(player, tuple(actions), start + 1, tuple(columns))
            if self.peek() != ",":
                self.fail(f"expected ',' and another action, or '.' to end the turn, found {self.found()}")
            self.at += 1


def parse_line(text: str) -> Tuple[List[Turn], List[Tuple[int, str]]]:
    """The turns of one line, and the warnings (column, message) it earns.
    Raises TurnError (or PlaceError, for a name) with the column at fault."""
    parser = _Parser(text)
    turns = []
    parser.space()
    while parser.peek():
        turns.append(parser.turn())
        parser.space()
    return turns, parser.warnings


# -- formatting ---------------------------------------------------------------------------------


def _edge_names(edges: Tuple[Edge, ...]) -> str:
    return ", ".join(hsgn.edge_name(e) for e in edges)


_LITERAL = {"(": "(", ",": ", ", ")": ")"}
_WRITE: Dict[str, Callable[[Any], str]] = {
    "player": str,
    "formula": format_counts,
    "formula2": format_counts,
    "resource": format_counts,
    "tile": hsgn.hex_name,
    "vertex": hsgn.corner_name,
    "edge": _edge_names,
    "edges": _edge_names,
}


def _piece(piece: str, action: Action) -> str:
    if piece in _LITERAL:
        return _LITERAL[piece]
    return _WRITE[piece](getattr(action, _FIELD.get(piece, piece)))


def format_action(action: Action) -> str:
    """The standard form: counts of 1 left out, resources in the order B G L O W, names
    in full (`sgn.notation.hsgn`), a space after each comma."""
    if action.code == "roll":
        return str(action.roll)
    return action.code + "".join(_piece(p, action) for p in _ARGUMENTS[action.code])


def format_turn(turn: Turn) -> str:
    """`p3: 6, Tp2(LO, W2).`: the player when known, the actions, the period."""
    head = f"{turn.player}: " if turn.player else ""
    return head + ", ".join(format_action(a) for a in turn.actions) + "."
