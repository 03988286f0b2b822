"""Where things are drawn: SGN's axial coordinates on the page.

Hexes stand on a point (SGN's rows run east-west: tile (q + 1, r) is east of (q, r), and
(q, r + 1) is south-east). A tile's centre is at x = √3·(q + r/2), y = 3/2·r, in units of
the hex's radius; an intersection is the middle of its three tiles' centres (a corner of
each), a path the segment between its two intersections. Any map SGN accepts, in any
rotation or position, lands on the page by the same rule.
"""

from __future__ import annotations

import math
from typing import Iterable, List, Tuple

from ..board import Corner, Edge, Tile

Point = Tuple[float, float]
SQRT3 = math.sqrt(3.0)


def is_tile(tile) -> bool:
    """Two whole numbers: what can be placed (the Python API accepts anything)."""
    return (
        isinstance(tile, tuple)
        and len(tile) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and abs(n) < 10_000 for n in tile)
    )


def is_corner(corner) -> bool:
    return isinstance(corner, frozenset) and len(corner) == 3 and all(is_tile(t) for t in corner)


def is_edge(edge) -> bool:
    return isinstance(edge, frozenset) and len(edge) == 2 and all(is_corner(c) for c in edge)


def center(tile: Tile, radius: float) -> Point:
    q, r = tile
    return (radius * SQRT3 * (q + r / 2.0), radius * 1.5 * r)


def hex_points(tile: Tile, radius: float) -> List[Point]:
    """The six corners of a tile, clockwise from the top."""
    x, y = center(tile, radius)
    return [
        (x + radius * math.cos(math.radians(a)), y + radius * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    ]


def corner_point(corner: Corner, radius: float) -> Point:
    xs, ys = zip(*(center(t, radius) for t in corner))
    return (sum(xs) / 3.0, sum(ys) / 3.0)


def edge_points(edge: Edge, radius: float) -> Tuple[Point, Point]:
    a, b = sorted(edge, key=sorted)
    return corner_point(a, radius), corner_point(b, radius)


def between(a: Point, b: Point, share: float) -> Point:
    """The point `share` of the way from a to b."""
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)


def bounds(tiles: Iterable[Tile], radius: float) -> Tuple[float, float, float, float]:
    """min x, min y, max x, max y of the hexes of `tiles`."""
    points = [p for t in tiles for p in hex_points(t, radius)]
    if not points:
        return (-radius, -radius, radius, radius)
    xs, ys = zip(*points)
    return (min(xs), min(ys), max(xs), max(ys))
