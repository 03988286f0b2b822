"""Places in a message, checked on their own and on the map: an intersection is three tiles
that meet at a corner, listed clockwise; a path is two neighbouring intersections; both lie
on the map's land or its coast (`intersection_problems`, `path_problems`); and how the
messages show places (`show_tile`, `show_listing`)."""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, FrozenSet, Iterable, List, NamedTuple, Optional, Tuple

from .. import board
from ..board import Tile
from ..diagnostic import Problem


class MapContext(NamedTuple):
    """What later messages are checked against: the tile kind of every tile of the map."""

    kinds: Dict[Tile, str]

    @property
    def land(self) -> FrozenSet[Tile]:
        return frozenset(t for t, k in self.kinds.items() if k != board.SEA)

    @classmethod
    def from_value(cls, value: dict) -> "MapContext":
        return cls({tuple(t["tile"]): t["tCode"] for t in value["tiles"]})


def tile_of(raw) -> Tile:
    return (raw[0], raw[1])


def show_tile(tile: Tile) -> str:
    return f"[{tile[0]},{tile[1]}]"


def show_listing(tiles: Iterable[Tile]) -> str:
    return "[" + ",".join(show_tile(t) for t in tiles) + "]"


# -- geometry: intersections and paths -----------------------------------------------


@lru_cache(maxsize=None)
def _clockwise() -> FrozenSet[Tuple[Tile, Tile, Tile]]:
    """Every clockwise listing of every corner near the origin, worked out on first use:
    a valid, clockwise intersection is then one set lookup (the common case, kept fast)."""
    return frozenset(
        listing for a, b, c in board.corners_near_origin(4).values() for listing in ((a, b, c), (b, c, a), (c, a, b))
    )


def warm_up() -> None:
    """Build the table of clockwise corners now (before workers fork, say)."""
    _clockwise()


# The paths looked up so far, by their 12 numbers as listed: what `path_facts` worked out
# (None for a listing that is no valid path near the origin). Bounded: emptied when full.
_PATHS: Dict[Tuple[int, ...], Optional[Tuple[FrozenSet[Tile], FrozenSet[Tile]]]] = {}
_PATHS_KEPT = 4_096


def path_facts(numbers: Tuple[int, ...]) -> Optional[Tuple[FrozenSet[Tile], FrozenSet[Tile]]]:
    """For a listing of a path near the origin whose ends are both listed clockwise (the
    first within the corners of `_clockwise`), the two tiles it runs between and all four
    it touches; None for any other listing. Worked out on first sight of each listing (a
    table of them all cost a tenth of the start of `sgn validate`), then one dict lookup."""
    if numbers in _PATHS:
        return _PATHS[numbers]
    found: Optional[Tuple[FrozenSet[Tile], FrozenSet[Tile]]] = None
    a = ((numbers[0], numbers[1]), (numbers[2], numbers[3]), (numbers[4], numbers[5]))
    b = ((numbers[6], numbers[7]), (numbers[8], numbers[9]), (numbers[10], numbers[11]))
    if a in _clockwise():
        start, end = frozenset(a), frozenset(b)
        if end in board.corner_neighbours(start) and b in _clockwise_listings(end):
            found = (start & end, start | end)
    if len(_PATHS) >= _PATHS_KEPT:
        _PATHS.clear()
    _PATHS[numbers] = found
    return found


def path_numbers(raw: list) -> Tuple[int, ...]:
    """The 12 numbers of a path as listed (its key in `path_facts`)."""
    (a, b, c), (d, e, f) = raw
    return (a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1], e[0], e[1], f[0], f[1])


def _clockwise_listings(c) -> Tuple[Tuple[Tile, Tile, Tile], ...]:
    a, b, d = board.canonical_corner(c)
    return ((a, b, d), (b, d, a), (d, a, b))


def intersection_problems(raw: list, pointer: str, ctx: Optional[MapContext]) -> List[Problem]:
    """The rules of one intersection: 3 distinct tiles, pairwise adjacent, listed
    clockwise; with a map, all on it and at least one on land."""
    tiles = tuple(tile_of(t) for t in raw)
    known = tiles in _clockwise()
    if not known:
        geometry = _intersection_geometry(tiles, pointer)
        if geometry:
            return geometry
    problems = []
    if not known and not board.is_clockwise(*tiles):
        problems.append(
            Problem(
                "intersection-counter-clockwise",
                pointer,
                f"the tiles of {show_listing(tiles)} are listed counter-clockwise",
                f"write {show_listing(board.canonical_corner(tiles))}",
            )
        )
    if ctx is not None:
        problems += _intersection_on_map(tiles, pointer, ctx)
    return problems


def _intersection_geometry(tiles: Tuple[Tile, ...], pointer: str) -> List[Problem]:
    for i, t in enumerate(tiles):
        if t in tiles[:i]:
            return [
                Problem(
                    "intersection-repeated-tile",
                    f"{pointer}/{i}",
                    f"tile {show_tile(t)} appears twice in the intersection {show_listing(tiles)}",
                    "an intersection is the three different tiles that meet at a corner",
                )
            ]
    for i in range(3):
        for j in range(i + 1, 3):
            if not board.adjacent(tiles[i], tiles[j]):
                return [
                    Problem(
                        "intersection-not-adjacent",
                        pointer,
                        f"{show_tile(tiles[i])} and {show_tile(tiles[j])} are not neighbours, so "
                        f"{show_listing(tiles)} is not a corner",
                        "the three tiles of an intersection must each touch the other two",
                    )
                ]
    return []


def _intersection_on_map(tiles: Tuple[Tile, ...], pointer: str, ctx: MapContext) -> List[Problem]:
    off = [i for i, t in enumerate(tiles) if t not in ctx.kinds]
    if all(ctx.kinds.get(t, board.SEA) == board.SEA for t in tiles):
        beyond = f" ({', '.join(show_tile(tiles[i]) for i in off)} not on the map)" if off else ""
        return [
            Problem(
                "intersection-at-sea",
                pointer,
                f"{show_listing(tiles)} touches no land{beyond}",
                "buildings stand on intersections that touch at least one land tile",
            )
        ]
    return [
        Problem("intersection-off-map", f"{pointer}/{i}", f"tile {show_tile(tiles[i])} is not on the map") for i in off
    ]


def path_problems(raw: list, pointer: str, ctx: Optional[MapContext]) -> List[Problem]:
    """The rules of one path: two real intersections, different, sharing exactly two
    tiles; with a map, not between two sea tiles (or beyond the map), ends on the map."""
    found = path_facts(path_numbers(raw))
    if found is not None:
        if ctx is None:
            return []
        kinds = ctx.kinds
        shared, touched = found
        if any(kinds.get(t, board.SEA) != board.SEA for t in shared) and all(t in kinds for t in touched):
            return []  # the common case: a real path, on the map, along land
    problems = []
    for i, end in enumerate(raw):
        problems += intersection_problems(end, f"{pointer}/{i}", None)
    if any(p.code != "intersection-counter-clockwise" for p in problems):
        return problems
    a, b = (frozenset(tile_of(t) for t in end) for end in raw)
    if a == b:
        return problems + [
            Problem(
                "path-same-intersection",
                f"{pointer}/1",
                "both ends of the path are the same intersection",
                "a path joins two neighbouring intersections",
            )
        ]
    shared = a & b
    if len(shared) != 2:
        return problems + [
            Problem(
                "path-not-adjacent",
                pointer,
                f"the intersections share {len(shared)} tile{'s' if len(shared) != 1 else ''}, not 2: "
                "they are not the two ends of one edge",
                "the ends of a path are neighbouring intersections, which share exactly two tiles",
            )
        ]
    if ctx is None:
        return problems
    if all(ctx.kinds.get(t, board.SEA) == board.SEA for t in shared):
        off = [t for t in sorted(shared) if t not in ctx.kinds]
        beyond = f" ({', '.join(map(show_tile, off))} not on the map)" if off else ""
        return problems + [
            Problem(
                "path-at-sea",
                pointer,
                f"the path runs between {' and '.join(show_tile(t) for t in sorted(shared))}"
                f"{beyond}, neither of them land",
                "roads and harbors lie along at least one land tile",
            )
        ]
    for i, end in enumerate(raw):
        problems += _intersection_on_map(tuple(tile_of(t) for t in end), f"{pointer}/{i}", ctx)
    return problems


# -- rules of one action ----------------------------------------------------------------
# Each takes (player, value, ctx) and yields Problems.
