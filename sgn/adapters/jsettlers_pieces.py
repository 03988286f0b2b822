"""The board and the pieces of a JSettlers game (`sgn/adapters/jsettlers.py`): the layout
as SGN's map (`DM`), each road, settlement and city placed, and each build undone, in
SGN's places (`sgn/adapters/jsettlers_board.py`). Ships and the pirate, of the sea board,
have no SGN form: they are refused.
"""

from __future__ import annotations

from ..notation.reading import Source
from . import jsettlers_log as log
from .common import Unreadable
from .jsettlers_board import JSettlersBoard
from .jsettlers_writer import Writer

PIECE = {0: "BR", 1: "BS", 2: "BC"}


class Pieces(Writer):
    """The messages of the board and the pieces, each by the method of its class's name."""

    def _BoardLayout(self, e, f, where) -> None:
        lists = log.int_lists(e.text)
        for key in ("hexLayout", "numberLayout"):
            if key not in lists:
                raise Unreadable(f"the layout has no {key}", key)
        robber = log.number(f.get("robberHex", "-1"))
        if robber is None:
            raise Unreadable(f"the robber's hex robberHex={log.cut(f['robberHex'])!r} is no number", "robberHex")
        self._board(
            JSettlersBoard(
                1,
                lists["hexLayout"],
                lists["numberLayout"],
                robber or -1,
                None,
                numbers_indexed=True,
            ),
            where,
        )

    def _BoardLayout2(self, e, f, where) -> None:
        lists = log.int_lists(e.text)
        encoding = log.number(f.get("bef"))
        if encoding not in (1, 2):
            raise Unreadable(f"board encoding {f.get('bef')}: the classic boards are 1 and 2", "bef")
        for key in ("HL", "NL"):
            if key not in lists:
                raise Unreadable(f"the layout has no {key}", key)
        robber = log.number(f.get("RH", "-1"))
        if robber is None:
            raise Unreadable(f"the robber's hex RH={log.cut(f['RH'])!r} is no number", "RH")
        self._board(
            JSettlersBoard(
                encoding,
                lists["HL"],
                lists["NL"],
                robber,
                lists.get("PL"),
                numbers_indexed=False,
            ),
            where,
        )

    def _board(self, laid: JSettlersBoard, where: Source) -> None:
        if self.board is not None:
            if laid.map() != self.board.map():
                raise Unreadable(
                    "the board is laid out again, differently (a reset of the game?): one game, one map", "HL"
                )
            return
        self.board = laid
        self.emit(where, ["B", "DM", laid.map()])
        if len(laid.deserts()) > 1 and laid.robber is not None and self.names:
            first = min(self.names.values(), key=int)
            self.emit(where, [first, "MR", {"tile": list(laid.robber)}])

    def _need_board(self) -> JSettlersBoard:
        if self.board is None:
            raise Unreadable("a move before the board is laid out (SOCBoardLayout)", "game")
        return self.board

    def _PutPiece(self, e, f, where) -> None:
        piece = log.number(f.get("pieceType"))
        name = self.player(f.get("playerNumber"))
        coord = self._coord(f)
        if piece == 3:
            raise Unreadable("a ship: ships are of the sea board, which SGN has no form for", "pieceType")
        if piece not in PIECE:
            self.unknown.setdefault(f"PutPiece (pieceType={f.get('pieceType')})", []).append(e.line)
            return
        places = self._need_board()
        value = {"path": places.path(coord)} if piece == 0 else {"intersection": places.intersection(coord)}
        self.emit(where, [name, PIECE[piece], value])

    def _coord(self, f, key: str = "coord") -> int:
        found = log.coordinate(f.get(key, ""))
        if found is None:
            raise Unreadable(f"the coordinate {log.cut(f.get(key, ''))!r} is no hexadecimal number", key)
        return found

    def _UndoPutPiece(self, e, f, where) -> None:
        piece = log.number(f.get("pieceType"))
        if piece not in PIECE or "movedFromCoord" in f:
            raise Unreadable("a ship moved back: ships are of the sea board", "pieceType")
        places = self._need_board()
        coord = self._coord(f)
        value = {"path": places.path(coord)} if piece == 0 else {"intersection": places.intersection(coord)}
        self.take_back(where, [self.player(f.get("playerNumber")), PIECE[piece], value], "an undone build")

    def _CancelBuildRequest(self, e, f, where) -> None:
        """The game-wide cancel of a settlement in the setup takes it back; one sent to a player
        alone is JSettlers' answer to a request it declined (a robot's, to build), and takes
        nothing back: the settlement before it stays."""
        last = self.last()
        if (
            e.audience == "all"
            and not self.rolled
            and log.number(f.get("pieceType")) == 1
            and last is not None
            and last[1] == "BS"
            and self.current in self.names
            and last[0] == self.names[self.current]
        ):
            self.take_back(where, last, "a settlement taken back")

    def _MovePiece(self, e, f, where) -> None:
        raise Unreadable("a ship moved: ships are of the sea board, which SGN has no form for", "pieceType")
