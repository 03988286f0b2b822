"""The writing side of the JSettlers converter (`sgn/adapters/jsettlers.py`): the seats of
a game as SGN's players, the SGN messages written so far, what an action leaves open
until the next (a Road Building card's roads, a robbery's resource), and a move taken
back when JSettlers undoes it.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from ..notation.reading import Item, Lines, Source
from . import jsettlers_log as log
from .common import Unreadable, problem
from .jsettlers_board import JSettlersBoard


class Writer:
    """The players of a log and the SGN messages written so far, with what an action left
    open (a Road Building card whose roads are to come, a robbery whose resource is to be
    told): the converter (`sgn.adapters.jsettlers`) reads the log's messages into it."""

    def __init__(self, name: str, lines: Lines) -> None:
        self.name = name
        self.lines = lines
        self.out: List[Item] = []
        self.written: List[int] = []  # where in `out` each message is, in order (diagnostics between)
        self.names: Dict[int, str] = {}
        self.board: Optional[JSettlersBoard] = None
        self.current: Optional[int] = None
        self.rolled = False  # a roll was read: the setup is over
        self.robbery: Optional[List] = None  # [perp seat, Source, an unknown result seen]
        self.road_card: Optional[Source] = None  # a Road Building card played, its roads to come
        self.road_card_player = ""
        self.drawn: Dict[str, int] = {}  # cards whose draw was read, per player, until bought
        self.unknown: Dict[str, List[int]] = {}  # classes not known: their lines
        self.view = False  # a client's view: the cards others drew, stole or discarded not in it

    # -- the players ----------------------------------------------------------------------
    def seat_names(self, entries) -> None:
        seats, first = set(), None
        for e in entries:
            if e.audience != "all":
                continue
            if e.kind == "SitDown":
                seat = log.number(log.fields(e.text).get("playerNumber"))
                if seat is not None and 0 <= seat < 6:
                    seats.add(seat)
            elif e.kind == "PutPiece" and first is None:
                first = log.number(log.fields(e.text).get("playerNumber"))
        if first is None or not 0 <= first < 6:
            return
        seats.add(first)
        order = sorted(seats, key=lambda s: (s - first) % 6)
        self.names = {seat: str(i + 1) for i, seat in enumerate(order)}

    def player(self, value: Optional[str], what: str = "playerNumber") -> str:
        seat = log.number(value)
        if seat is None or seat not in self.names:
            raise Unreadable(f"seat {value} is no seat of a player of this game", what)
        return self.names[seat]

    # -- writing ---------------------------------------------------------------------------
    def report(self, where: Source, code: str, message: str) -> None:
        """A problem of the log at `where`, in the output with no message."""
        self.out.append((where, None, [problem(where, code, message)]))

    def emit(self, where: Source, message: list) -> None:
        self.flush(where, keep_robbery=message[1] == "ST")
        self._write(where, message)

    def _write(self, where: Source, message: list) -> None:
        self.written.append(len(self.out))
        self.out.append((where, message, []))

    def flush(self, where: Source, keep_robbery: bool = False) -> None:
        """What an action left open, closed before the next: a Road Building card whose roads
        did not come (it was played all the same), a robbery whose resource was not said."""
        if self.road_card is not None:
            at, self.road_card = self.road_card, None
            self._write(at, [self.road_card_player, "PD", {"cCode": "RB"}])
        if self.robbery is not None and not keep_robbery:
            _, at, unknown_seen = self.robbery
            self.robbery = None
            if unknown_seen:
                self.report(at, "engine-input", "the resource stolen is not in the log (only `unknown`): SGN names it")

    def last(self) -> Optional[list]:
        return self.out[self.written[-1]][1] if self.written else None

    def take_back(self, where: Source, message: list, what: str) -> None:
        """An action undone: its message taken out when it is the last one written (its place
        left empty: found at once, however many diagnostics follow it)."""
        if self.written and self.last() == message:
            at = self.written.pop()
            self.out[at] = (self.out[at][0], None, [])
            return
        self.report(
            where,
            "no-counterpart",
            f"{what} undoes a move that is not the last one written: SGN has no undo, so the undo is "
            "left out and the move stays",
        )
