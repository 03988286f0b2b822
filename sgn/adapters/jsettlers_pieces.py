"""The board and the pieces of a JSettlers game (`sgn/adapters/jsettlers.py`): the layout
as SGN's map (`DM`), each road, settlement and city placed, and each build undone, in
SGN's places (`sgn/adapters/jsettlers_board.py`). Ships and the pirate, of the sea board,
have no SGN form: they are refused. `PIECE_HANDLERS` is their part of the converter's
table of handlers, each a function of the conversion, the entry, its fields and where it
stands.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List

from .. import messages
from ..notation.reading import Where
from . import jsettlers_log as log
from .jsettlers_board import JSettlersBoard
from .jsettlers_state import Conversion
from .writer import Unreadable

# The build of each JSettlers piece type: 0 a road (on a path), 1 a settlement, 2 a city (on
# an intersection).
PIECE: Dict[int, Callable[[str, Any], List[Any]]] = {
    0: messages.build_road,
    1: messages.build_settlement,
    2: messages.build_city,
}


def coord(f, key: str = "coord") -> int:
    """The place a message names (a hexadecimal number of JSettlers' board)."""
    found = log.coordinate(f.get(key, ""))
    if found is None:
        raise Unreadable(f"the coordinate {log.cut(f.get(key, ''))!r} is no hexadecimal number", key)
    return found


def board_layout(c: Conversion, e: log.Entry, f, where: Where) -> None:
    lists = log.int_lists(e.text)
    for key in ("hexLayout", "numberLayout"):
        if key not in lists:
            raise Unreadable(f"the layout has no {key}", key)
    robber = log.number(f.get("robberHex", "-1"))
    if robber is None:
        raise Unreadable(f"the robber's hex robberHex={log.cut(f['robberHex'])!r} is no number", "robberHex")
    _lay(
        c, JSettlersBoard(1, lists["hexLayout"], lists["numberLayout"], robber or -1, None, numbers_indexed=True), where
    )


def board_layout2(c: Conversion, e: log.Entry, f, where: Where) -> None:
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
    _lay(c, JSettlersBoard(encoding, lists["HL"], lists["NL"], robber, lists.get("PL"), numbers_indexed=False), where)


def _lay(c: Conversion, laid: JSettlersBoard, where: Where) -> None:
    if c.board is not None:
        if laid.map() != c.board.map():
            raise Unreadable("the board is laid out again, differently (a reset of the game?): one game, one map", "HL")
        return
    c.board = laid
    c.emit(where, messages.define_map(laid.map()))
    if len(laid.deserts()) > 1 and laid.robber is not None and c.names:
        first = min(c.names.values(), key=int)
        c.emit(where, messages.move_robber(first, laid.robber))


def put_piece(c: Conversion, e: log.Entry, f, where: Where) -> None:
    piece = log.number(f.get("pieceType"))
    name = c.player(f.get("playerNumber"))
    at = coord(f)
    if piece == 3:
        raise Unreadable("a ship: ships are of the sea board, which SGN has no form for", "pieceType")
    if piece not in PIECE:
        c.unknown.setdefault(f"PutPiece (pieceType={f.get('pieceType')})", []).append(e.line)
        return
    places = c.need_board()
    place = places.path(at) if piece == 0 else places.intersection(at)
    c.emit(where, PIECE[piece](name, place))


def undo_put_piece(c: Conversion, e: log.Entry, f, where: Where) -> None:
    piece = log.number(f.get("pieceType"))
    if piece not in PIECE or "movedFromCoord" in f:
        raise Unreadable("a ship moved back: ships are of the sea board", "pieceType")
    places = c.need_board()
    at = coord(f)
    place = places.path(at) if piece == 0 else places.intersection(at)
    c.writer.take_back(where, PIECE[piece](c.player(f.get("playerNumber")), place), "an undone build")


def cancel_build_request(c: Conversion, e: log.Entry, f, where: Where) -> None:
    """The game-wide cancel of a settlement in the setup takes it back; one sent to a player
    alone is JSettlers' answer to a request it declined (a robot's, to build), and takes
    nothing back: the settlement before it stays."""
    last = c.writer.last()
    if (
        e.audience == "all"
        and not c.rolled
        and log.number(f.get("pieceType")) == 1
        and last is not None
        and last[1] == "BS"
        and c.current in c.names
        and last[0] == c.names[c.current]
    ):
        c.writer.take_back(where, last, "a settlement taken back")


def move_piece(c: Conversion, e: log.Entry, f, where: Where) -> None:
    raise Unreadable("a ship moved: ships are of the sea board, which SGN has no form for", "pieceType")


PIECE_HANDLERS = {
    "BoardLayout": board_layout,
    "BoardLayout2": board_layout2,
    "PutPiece": put_piece,
    "UndoPutPiece": undo_put_piece,
    "CancelBuildRequest": cancel_build_request,
    "MovePiece": move_piece,
}
