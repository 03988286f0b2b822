"""Board geometry: pointy-top hexes in axial coordinates. No I/O, no messages.

A tile is `(q, r)`: q grows to the east, r grows downwards, and row r+1 is
drawn half a hex to the left of row r (the SGN hex diagram). A corner (an SGN
intersection) is the frozenset of the 3 tiles that meet there; an edge (an SGN
path) is the frozenset of its 2 end corners, which share exactly 2 tiles.

Canonical forms, used whenever sgn writes coordinates:
- a corner lists its tiles clockwise (as seen on the SGN diagram), starting
  from the topmost tile, and of two topmost tiles the western one;
- an edge lists its upper end first (every edge has one: none is horizontal).
"""

from __future__ import annotations

from functools import lru_cache
from typing import (
    Any,
    Dict,
    Final,
    FrozenSet,
    Iterable,
    Iterator,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Set,
    Tuple,
    TypeVar,
)

K = TypeVar("K")
Tile = Tuple[int, int]
Corner = FrozenSet[Tile]
Edge = FrozenSet[Corner]

# The six neighbours, by compass direction.
DIRECTIONS: Dict[str, Tile] = {
    "E": (1, 0),
    "NE": (1, -1),
    "NW": (0, -1),
    "W": (-1, 0),
    "SW": (-1, 1),
    "SE": (0, 1),
}
# The six corners of a tile, each between two neighbour directions.
CORNER_DIRECTIONS: Dict[str, Tuple[str, str]] = {
    "N": ("NW", "NE"),
    "NE": ("NE", "E"),
    "SE": ("E", "SE"),
    "S": ("SE", "SW"),
    "SW": ("SW", "W"),
    "NW": ("W", "NW"),
}
_OFFSETS: Final = tuple(DIRECTIONS.values())


def add(tile: Tile, offset: Tile) -> Tile:
    return (tile[0] + offset[0], tile[1] + offset[1])


def neighbours(tile: Tile) -> List[Tile]:
    """The six tiles around `tile`."""
    return [add(tile, d) for d in _OFFSETS]


def adjacent(a: Tile, b: Tile) -> bool:
    """Whether two tiles share a side."""
    return (b[0] - a[0], b[1] - a[1]) in _OFFSETS


def distance(a: Tile, b: Tile) -> int:
    """The number of steps between two tiles."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def rotate(tile: Tile) -> Tile:
    """The tile turned 60 degrees clockwise about the origin."""
    q, r = tile
    return (-r, q + r)


def corner(tile: Tile, direction: str) -> Corner:
    """The corner of `tile` in a compass direction (N, NE, SE, S, SW, NW)."""
    first, second = CORNER_DIRECTIONS[direction]
    return frozenset((tile, add(tile, DIRECTIONS[first]), add(tile, DIRECTIONS[second])))


@lru_cache(maxsize=1024)
def corners_of(tile: Tile) -> Tuple[Corner, ...]:
    """The six corners of a tile (cached), each the object a listing of it gives (`one`)."""
    return tuple(one(corner(tile, d)) for d in CORNER_DIRECTIONS)


def is_corner(tiles: Iterable[Tile]) -> bool:
    """Three distinct tiles, pairwise adjacent: they meet at one corner."""
    tiles = list(tiles)
    if len(tiles) != 3 or len(set(tiles)) != 3:
        return False
    a, b, c = tiles
    return adjacent(a, b) and adjacent(b, c) and adjacent(a, c)


def _screen(tile: Tile) -> Tile:
    """Screen position scaled to integers: x*2/sqrt(3), y*2/3 (y down)."""
    return (2 * tile[0] + tile[1], tile[1])


def is_clockwise(a: Tile, b: Tile, c: Tile) -> bool:
    """Whether a, b, c turn clockwise on the SGN diagram (y grows downwards)."""
    (ax, ay), (bx, by), (cx, cy) = _screen(a), _screen(b), _screen(c)
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0


def canonical_corner(tiles: Iterable[Tile]) -> Tuple[Tile, Tile, Tile]:
    """The tiles of a corner clockwise, starting from the top (then western) tile."""
    a, b, c = sorted(tiles, key=lambda t: (t[1], t[0]))
    return (a, b, c) if is_clockwise(a, b, c) else (a, c, b)


def corner_height(c: Corner) -> int:
    """Three times the corner's height on the diagram, downwards: the sum of its rows."""
    return sum(t[1] for t in c)


def edge(a: Corner, b: Corner) -> Edge:
    return frozenset((a, b))


def edge_between(a: Tile, b: Tile) -> Edge:
    """The edge that two adjacent tiles share."""
    common = [t for t in neighbours(a) if adjacent(t, b)]
    return frozenset(frozenset((a, b, t)) for t in common)


def edge_tiles(e: Edge) -> FrozenSet[Tile]:
    """The two tiles on either side of an edge."""
    a, b = e
    return a & b


def is_edge(a: Corner, b: Corner) -> bool:
    """Two corners joined by an edge: both real corners, sharing exactly 2 tiles."""
    return is_corner(a) and is_corner(b) and len(a & b) == 2


def canonical_edge(e: Edge) -> Tuple[Tuple[Tile, Tile, Tile], Tuple[Tile, Tile, Tile]]:
    """An edge as two canonical corners, the upper end first."""
    a, b = sorted(e, key=corner_height)
    return (canonical_corner(a), canonical_corner(b))


# Corners and edges read from messages, shared: every listing of one corner gives the same
# frozenset, whose hash is then computed once, and a lookup by listing skips building it.
_SHARED_LIMIT = 1 << 12  # listings kept (a board has a few hundred corners)
_CORNER_LISTINGS: Final[Dict[Tuple[int, int, int, int, int, int], Corner]] = {}
_EDGE_LISTINGS: Final[Dict[Tuple[Corner, Corner], Edge]] = {}
_SHARED: Final[Dict[FrozenSet, FrozenSet]] = {}


def one(found: FrozenSet) -> FrozenSet:
    """The one object for a corner or an edge, whoever made it: the replay's tables, keyed by
    corners and edges read from messages, then find the board's own by identity, without
    comparing their tiles (a corner's robber, a road's neighbours). Bounded: past four times
    the listings kept, every table starts afresh."""
    if len(_SHARED) >= 4 * _SHARED_LIMIT:
        _CORNER_LISTINGS.clear()
        _EDGE_LISTINGS.clear()
        _SHARED.clear()
    return _SHARED.setdefault(found, found)


def _share(found, table: dict, key):
    if len(table) >= _SHARED_LIMIT:
        table.clear()
        _SHARED.clear()
    found = table[key] = one(found)
    return found


def corner_from_json(raw) -> Corner:
    """The corner an SGN intersection lists (three `[q, r]`, in any order)."""
    if type(raw) is list and len(raw) == 3:  # (the common case, read by index: a listing seen before)
        a, b, c = raw[0], raw[1], raw[2]
        if type(a) is list and type(b) is list and type(c) is list and len(a) > 1 and len(b) > 1 and len(c) > 1:
            found = _CORNER_LISTINGS.get((a[0], a[1], b[0], b[1], c[0], c[1]))
            if found is not None:
                return found
    a, b, c = raw
    key = (a[0], a[1], b[0], b[1], c[0], c[1])
    found = _CORNER_LISTINGS.get(key)
    if found is None:
        found = _share(frozenset(((a[0], a[1]), (b[0], b[1]), (c[0], c[1]))), _CORNER_LISTINGS, key)
    return found


def edge_from_json(raw) -> Edge:
    """The edge an SGN path lists (two intersections, in any order)."""
    key = (corner_from_json(raw[0]), corner_from_json(raw[1]))
    found = _EDGE_LISTINGS.get(key)
    if found is None:
        found = _share(frozenset(key), _EDGE_LISTINGS, key)
    return found


def tiles_named(value: Any) -> Set[Tile]:
    """The tiles a line names, as far as it can be read: every list whose first two items are
    whole numbers (or the text of whole numbers), read as the pair they begin."""
    found: Set[Tile] = set()
    if isinstance(value, list):
        pair = [_whole(n) for n in value[:2]]
        if len(value) >= 2 and None not in pair and not any(isinstance(n, (list, dict)) for n in value):
            found.add((pair[0], pair[1]))  # type: ignore[arg-type]
        else:
            for item in value:
                found |= tiles_named(item)
    elif isinstance(value, dict):
        for item in value.values():
            found |= tiles_named(item)
    return found


def _whole(n: Any) -> Optional[int]:
    if type(n) is int:
        return n
    if isinstance(n, str) and n.lstrip("-").isdigit() and len(n) < 4:
        return int(n)
    return None


@lru_cache(maxsize=1 << 11)
def corner_neighbours(c: Corner) -> Tuple[Corner, ...]:
    """The three corners one edge away from `c` (cached: the replay asks often)."""
    out = []
    tiles = list(c)
    for i in range(3):
        pair = [t for j, t in enumerate(tiles) if j != i]
        for t in neighbours(pair[0]):
            if t not in c and adjacent(t, pair[1]):
                out.append(one(frozenset((pair[0], pair[1], t))))
    return tuple(out)


@lru_cache(maxsize=1 << 11)
def edges_of_corner(c: Corner) -> Tuple[Edge, ...]:
    """The three edges that end at `c` (cached), each the object a listing of it gives (`one`)."""
    return tuple(one(frozenset((c, n))) for n in corner_neighbours(c))


# -- shapes ----------------------------------------------------------------------


def hexagon(radius: int, centre: Tile = (0, 0)) -> FrozenSet[Tile]:
    """All tiles within `radius` steps of `centre`."""
    return frozenset(
        (centre[0] + q, centre[1] + r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if abs(q + r) <= radius
    )


def rows(lengths: Iterable[int], first_row: int, starts: Iterable[int]) -> FrozenSet[Tile]:
    """Tiles in horizontal rows: row first_row + i holds lengths[i] tiles from q = starts[i]."""
    return frozenset((q0 + k, first_row + i) for i, (n, q0) in enumerate(zip(lengths, starts)) for k in range(n))


def ring(tiles: FrozenSet[Tile]) -> FrozenSet[Tile]:
    """The tiles next to a set of tiles but not in it (the sea around an island); cached
    for sets no larger than a known board's land, so that the cache stays small."""
    return _ring(tiles) if len(tiles) <= _LARGEST_LAND else _around(tiles)


def _around(tiles: FrozenSet[Tile]) -> FrozenSet[Tile]:
    return frozenset(n for t in tiles for n in neighbours(t)) - tiles


_ring = lru_cache(maxsize=64)(_around)


def normal_forms(tiles: FrozenSet[Tile]) -> FrozenSet[FrozenSet[Tile]]:
    """The shape of a set of tiles in each of its six rotations, moved to a common origin,
    so that two sets have the same shape exactly when these share a member."""
    forms = set()
    current = tiles
    for _ in range(6):
        lo = min(current, key=lambda t: (t[1], t[0]))
        forms.add(frozenset((q - lo[0], r - lo[1]) for q, r in current))
        current = frozenset(rotate(t) for t in current)
    return frozenset(forms)


def coast_edges(land: FrozenSet[Tile]) -> FrozenSet[Edge]:
    """The edges between a land tile and a tile that is not land."""
    return frozenset(edge_between(t, n) for t in land for n in neighbours(t) if n not in land)


# -- the known boards --------------------------------------------------------------

SEA = "S"
PRODUCING = {"FO": "L", "P": "W", "F": "G", "H": "B", "M": "O"}  # tCode -> the resource it yields
HARBOR_RESOURCE = {"HR": None, "HRB": "B", "HRG": "G", "HRL": "L", "HRO": "O", "HRW": "W"}


class BoardSpec(NamedTuple):
    """A known board: the shape of its land, and its tiles, number tokens and harbors."""

    name: str
    land: FrozenSet[Tile]
    kinds: Mapping[str, int]
    numbers: Tuple[int, ...]
    harbors: Mapping[str, int]


STANDARD = BoardSpec(
    name="standard (3-4 players)",
    land=hexagon(2),
    kinds={"FO": 4, "P": 4, "F": 4, "H": 3, "M": 3, "D": 1},
    numbers=(2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12),
    harbors={"HR": 4, "HRB": 1, "HRG": 1, "HRL": 1, "HRO": 1, "HRW": 1},
)

EXTENDED = BoardSpec(
    name="5-6 player extension",
    # rows of 3-4-5-6-5-4-3 land tiles
    land=rows((3, 4, 5, 6, 5, 4, 3), -3, (0, -1, -2, -3, -3, -3, -3)),
    kinds={"FO": 6, "P": 6, "F": 6, "H": 5, "M": 5, "D": 2},
    numbers=(2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12),
    harbors={"HR": 5, "HRB": 1, "HRG": 1, "HRL": 1, "HRO": 1, "HRW": 2},
)

BOARDS: Tuple[BoardSpec, ...] = (STANDARD, EXTENDED)
_LARGEST_LAND = max(len(spec.land) for spec in BOARDS)


@lru_cache(maxsize=None)
def _known_shapes() -> Tuple[Tuple[BoardSpec, FrozenSet[FrozenSet[Tile]]], ...]:
    return tuple((spec, normal_forms(spec.land)) for spec in BOARDS)


def identify(land: FrozenSet[Tile]) -> Optional[BoardSpec]:
    """The known board whose land has this shape (in any position and rotation), or None
    (cached, for land of a known board's size only: every map of a board has the same land)."""
    if len(land) not in {len(spec.land) for spec in BOARDS}:
        return None
    return _identify(land)


@lru_cache(maxsize=64)
def _identify(land: FrozenSet[Tile]) -> Optional[BoardSpec]:
    forms = normal_forms(land)
    for spec, shape in _known_shapes():
        if forms & shape:
            return spec
    return None


def tally(items: Iterable[K]) -> Dict[K, int]:
    """How many times each item occurs (a plain dict: cheaper to build than a Counter)."""
    counts: Dict[K, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def counts_differ(actual: Mapping, expected: Mapping) -> List[str]:
    """Human-readable differences between two tallies, e.g. ['FO: 3, expected 4']."""
    if actual == expected:
        return []
    keys = sorted(set(actual) | set(expected), key=str)
    return [
        f"{k}: {actual.get(k, 0)}, expected {expected.get(k, 0)}"
        for k in keys
        if actual.get(k, 0) != expected.get(k, 0)
    ]


@lru_cache(maxsize=None)
def corners_near_origin(radius: int = 6) -> Dict[Corner, Tuple[Tile, Tile, Tile]]:
    """Every corner among the tiles within `radius` of the origin, with its canonical listing:
    a lookup table so that checking an intersection costs one dictionary access."""
    area = hexagon(radius)
    return {c: canonical_corner(c) for t in area for c in corners_of(t) if c <= area}


def iter_corners(tiles: Iterable[Tile]) -> Iterator[Corner]:
    """Every corner touching any of the tiles, once."""
    seen = set()
    for t in tiles:
        for c in corners_of(t):
            if c not in seen:
                seen.add(c)
                yield c
