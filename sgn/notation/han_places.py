"""HAN's names of places (seed 001): a tile is column letters and a row, spreadsheet-style
(a = 1), SGN `[q, r]` being (column - 4, row - 4), so that `d4` is `[0,0]`; a corner is a
tile and `n` or `s`, an edge a tile and `ne`, `nw` or `w`. HAN has no map: its names are
the places of the standard board (`on_board`). `sgn/notation/han.py` reads and writes
them; HSN names its places so too.
"""

from __future__ import annotations

from .. import board
from ..board import Corner, Edge, Tile

OFFSET = 4  # HAN column/row of SGN [0, 0]


def column_number(letters: str) -> int:
    """Spreadsheet-style column letters to a number: a = 1, z = 26, aa = 27."""
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n


def column_letters(n: int) -> str:
    out = ""
    while n > 0:
        n, rest = divmod(n - 1, 26)
        out = chr(ord("a") + rest) + out
    return out


def tile_name(tile: Tile) -> str:
    q, r = tile[0] + OFFSET, tile[1] + OFFSET
    if q < 1 or r < 1:
        raise ValueError(f"tile [{tile[0]},{tile[1]}] has no HAN name (HAN counts columns and rows from 1)")
    return f"{column_letters(q)}{r}"


# HAN has no map: its coordinates name the places of the seed's "default game setup",
# the standard board with d4 ([0,0]) its centre. Its hexes are the land and the sea ring
# (within 3 of d4); its corners and sides are those touching land, where a building or
# a road can stand (and a harbor lies), as the semantic rules of SGN say.
BOARD_RADIUS = 3


def on_board(kind: str, place) -> bool:
    """Whether a tile, corner or edge (`kind` "tile", "vertex", "edge") is a place of the
    standard board, the one HAN names."""
    land = board.STANDARD.land
    if kind == "tile":
        return board.distance(place, (0, 0)) <= BOARD_RADIUS
    tiles = board.edge_tiles(place) if kind == "edge" else place
    return any(t in land for t in tiles)


def vertex_of(tile: Tile, corner: str) -> Corner:
    return board.corner(tile, {"n": "N", "s": "S"}[corner])


def edge_of(tile: Tile, border: str) -> Edge:
    direction = {"ne": "NE", "nw": "NW", "w": "W"}[border]
    return board.edge_between(tile, board.add(tile, board.DIRECTIONS[direction]))


def vertex_name(c: Corner) -> str:
    """The HAN name of a corner: the tile it is the north or south corner of."""
    for tile in c:
        for corner in "ns":
            if vertex_of(tile, corner) == c:
                return tile_name(tile) + corner
    raise ValueError("three tiles that meet at no corner have no HAN name")


def edge_name(e: Edge) -> str:
    a, b = sorted(board.edge_tiles(e))
    for tile, other in ((a, b), (b, a)):
        for border, direction in (("ne", "NE"), ("nw", "NW"), ("w", "W")):
            if board.add(tile, board.DIRECTIONS[direction]) == other:
                return tile_name(tile) + border
    raise ValueError("not an edge")
