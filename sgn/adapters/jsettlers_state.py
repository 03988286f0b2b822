"""A JSettlers game under conversion (`sgn/adapters/jsettlers.py`): the seats of the game as
SGN's players, the board once laid out, whose turn it is, what an action leaves open until
the next (a Road Building card's roads, a robbery's resource), and the `Writer` the
handlers write SGN to.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .. import messages
from ..notation.reading import Lines, Where
from . import jsettlers_log as log
from .jsettlers_board import JSettlersBoard
from .writer import Unreadable, Writer


class Conversion:
    """The players of a log and what the messages read so far left, with the messages written
    (`writer`): each handler of `sgn.adapters.jsettlers.HANDLERS` reads one message into it."""

    def __init__(self, name: str, lines: Lines) -> None:
        self.name = name
        self.lines = lines
        self.writer = Writer()
        self.names: Dict[int, str] = {}
        self.board: Optional[JSettlersBoard] = None
        self.current: Optional[int] = None
        self.rolled = False  # a roll was read: the setup is over
        # the seat whose turn, or place in the Special Building Phase, runs, with its game state;
        # and whether the turn was rolled
        self.slot: Optional[Tuple[int, int]] = None
        self.slot_rolled = False
        self.winner: Optional[int] = None  # the seat whose turn it was when the game was over (SOCGameState 1000)
        self.scores: Dict[int, int] = {}  # each seat's points at the end (SOCGameStats)
        self.robbery: Optional[List] = None  # [perp seat, Where, an unknown result seen]
        self.road_card: Optional[Where] = None  # a Road Building card played, its roads to come
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

    def need_board(self) -> JSettlersBoard:
        if self.board is None:
            raise Unreadable("a move before the board is laid out (SOCBoardLayout)", "game")
        return self.board

    # -- writing ---------------------------------------------------------------------------
    def emit(self, where: Where, message: list) -> None:
        """A message written, once what the action before left open is closed (a steal closes
        no robbery: it is the robbery's)."""
        self.flush(where, keep_robbery=message[1] == "ST")
        self.writer.write(where, message)

    def flush(self, where: Where, keep_robbery: bool = False) -> None:
        """What an action left open, closed before the next: a Road Building card whose roads
        did not come (it was played all the same), a robbery whose resource was not said."""
        if self.road_card is not None:
            at, self.road_card = self.road_card, None
            self.writer.write(at, messages.play_road_building(self.road_card_player))
        if self.robbery is not None and not keep_robbery:
            _, at, unknown_seen = self.robbery
            self.robbery = None
            if unknown_seen:
                self.writer.report(
                    at, "engine-input", "the resource stolen is not in the log (only `unknown`): SGN names it"
                )
