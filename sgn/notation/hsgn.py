"""HSGN (seed 004), the pen-and-paper notation: its hex letters, crossroads and edges.

Orientation, stated once: the text orientation of the seed, with `a` the bottom-left
land hex and the letters running counter-clockwise along the outer ring (a..l),
then the inner ring (m..r), then the centre (s). In SGN coordinates `s` is [0,0]
and `a` is [-2,2] (docs/notations.md has the whole table). A sea hex is `z` and
the letters of the land hexes it touches; we write those letters in alphabetical
order (`zal`, where the seed also writes `zla`, and `zjk` for its `zkj`) and read
them in any order. A crossroad is its three hex names written one after another,
an edge its two; we write them sorted, land letters first, and read them in any
order, finding the one way to cut the string into hex names that meet at a corner
(or along a side) touching land. As the seed allows, a sea hex may be abbreviated to
a bare `z` where only one sea hex fits (`zab` for the crossroad `zabab`, `fgz`); a
`z` that fits several (`zkz`) is an error, never a guess. We write names in full.

The turns (`p3: 6, Tp2(LO, W2).`) are read and written by `hsgn_turns`, and
converted to and from SGN by `hsgn_sgn`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Dict, FrozenSet, List, Optional, Set, Tuple

from .. import board
from ..board import Corner, Edge, Tile
from .scan import quoted

LAND: Dict[str, Tile] = {
    "a": (-2, 2),
    "b": (-1, 2),
    "c": (0, 2),
    "d": (1, 1),
    "e": (2, 0),
    "f": (2, -1),
    "g": (2, -2),
    "h": (1, -2),
    "i": (0, -2),
    "j": (-1, -1),
    "k": (-2, 0),
    "l": (-2, 1),
    "m": (-1, 1),
    "n": (0, 1),
    "o": (1, 0),
    "p": (1, -1),
    "q": (0, -1),
    "r": (-1, 0),
    "s": (0, 0),
}
_LETTER = {tile: letter for letter, tile in LAND.items()}


class HsgnError(ValueError):
    """A name that is no hex, crossroad or edge of the standard board (or more than one)."""


@lru_cache(maxsize=None)
def names() -> Dict[str, Tile]:
    """Every hex name of the standard board, sea hexes in every letter order."""
    table = dict(LAND)
    for sea in board.ring(board.STANDARD.land):
        touched = sorted(_LETTER[t] for t in board.neighbours(sea) if t in _LETTER)
        for order in permutations(touched):
            table["z" + "".join(order)] = sea
    return table


def hex_name(tile: Tile) -> str:
    """The canonical name of a hex of the standard board."""
    if tile in _LETTER:
        return _LETTER[tile]
    touched = sorted(_LETTER[t] for t in board.neighbours(tile) if t in _LETTER)
    if not touched or tile not in board.ring(board.STANDARD.land):
        raise HsgnError(f"[{tile[0]},{tile[1]}] is not a hex of the standard board")
    return "z" + "".join(touched)


def _key(name: str) -> Tuple[int, str]:
    return (name.startswith("z"), name)


def place_name(tiles) -> str:
    """The canonical name of a crossroad (3 tiles) or an edge (2 tiles)."""
    return "".join(sorted((hex_name(t) for t in tiles), key=_key))


def corner_name(c: Corner) -> str:
    return place_name(c)


def edge_name(e: Edge) -> str:
    return place_name(board.edge_tiles(e))


@lru_cache(maxsize=None)
def places() -> Dict[int, FrozenSet[FrozenSet[Tile]]]:
    """The places of the standard board that touch land, by their number of hexes:
    3, the crossroads (54), and 2, the edges (72)."""
    land = board.STANDARD.land
    return {
        3: frozenset(board.iter_corners(land)),
        2: frozenset(frozenset((t, n)) for t in land for n in board.neighbours(t)),
    }


def _cuts(text: str, pieces: int = 3) -> List[List[Optional[Tile]]]:
    """Every way to cut `text` into at most `pieces` hex names (a place has 3 at most: more
    would only cost time, which grows exponentially with the length of `zazaza...`);
    a bare `z` is None, some sea hex."""
    if not text:
        return [[]]
    out = []
    table = names()
    for size in (1, 2, 3):
        head = text[:size]
        if pieces and (head in table or head == "z"):
            out += [[table.get(head)] + rest for rest in _cuts(text[size:], pieces - 1)]
    return out


def _fits(cut: List[Optional[Tile]], place: FrozenSet[Tile], sea: FrozenSet[Tile]) -> bool:
    """Whether the hexes of a cut are exactly the place's, each bare z one of its sea hexes."""
    fixed = {t for t in cut if t is not None}
    if len(fixed) != len(cut) - cut.count(None) or not fixed <= place:
        return False
    rest = place - fixed
    return len(rest) == cut.count(None) and rest <= sea


@lru_cache(maxsize=4096)
def parse_place(text: str, size: Optional[int] = None) -> FrozenSet[Tile]:
    """The tiles of a crossroad (size 3), an edge (size 2), or either (None), from its HSGN
    name: hex names in any order, a sea hex possibly abbreviated to a bare `z` where only
    one fits. Raises HsgnError when the name fits no place of the board, or several."""
    what = {3: "crossroad", 2: "edge", None: "crossroad or edge"}[size]
    sea = board.ring(board.STANDARD.land)
    found: Set[FrozenSet[Tile]] = set()
    for cut in _cuts(text):
        if len(cut) in (size or 2, size or 3):
            found.update(p for p in places()[len(cut)] if _fits(cut, p, sea))
    if not found:
        raise HsgnError(f"{quoted(text)} names no {what} of the standard board")
    if len(found) > 1:
        readings = ", ".join(sorted(place_name(p) for p in found))
        raise HsgnError(f"{quoted(text)} can be read {len(found)} ways ({readings}): write the sea hexes in full")
    return found.pop()
