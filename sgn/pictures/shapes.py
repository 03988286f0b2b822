"""One drawn thing each, in SVG (`tree.py`'s elements): a hex and its number token, a harbor,
a road, a building, the robber, and the highlight of a place a diagnostic names. Each
carries its class and the place it stands on (`data-tile`, `data-corner`, `data-edge`,
`data-player`). `sgn/svg.py` lays them out as a board.
"""

from __future__ import annotations

from typing import Dict, Iterable, Optional

from .. import board as geo
from ..board import Corner, Edge, Tile
from ..rules import TILE_NAMES
from . import style
from .geometry import Point, between, center, corner_point, edge_points, hex_points
from .places import Place, corner_key, edge_key, tile_key
from .tree import Element, el

RADIUS = 50.0  # a hex's radius, in the picture's own units


def f(x: float) -> str:
    """A coordinate as SVG writes it: one decimal at most, no trailing zero."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def points(points: Iterable[Point]) -> str:
    """A polygon's points, as its `points` attribute."""
    return " ".join(f"{f(x)},{f(y)}" for x, y in points)


def tile(parent: Element, at: Tile, kind: str, number: Optional[int]) -> None:
    """A hex, and its number token with the number's pips."""
    polygon = el(
        "polygon",
        {
            "class": "tile",
            "data-tile": tile_key(at),
            "data-kind": kind,
            "fill": style.TERRAIN.get(kind, style.UNKNOWN_TERRAIN),
            "stroke": style.HEX_EDGE,
            "stroke-width": 2,
            "points": points(hex_points(at, RADIUS)),
        },
        parent=parent,
    )
    el("title", text=f"{TILE_NAMES.get(kind, kind)} {tile_key(at)}", parent=polygon)
    if number is None:
        return
    x, y = center(at, RADIUS)
    hot = number in (6, 8)
    color = style.HOT_NUMBER if hot else style.NUMBER
    token = el("g", {"class": "token", "data-tile": tile_key(at)}, parent=parent)
    el("circle", {"cx": f(x), "cy": f(y), "r": 17, "fill": style.TOKEN, "stroke": style.HEX_EDGE}, parent=token)
    el(
        "text",
        {
            "x": f(x),
            "y": f(y + 4),
            "text-anchor": "middle",
            "font-family": "sans-serif",
            "font-size": 17 if hot else 15,
            "font-weight": "bold" if hot else "normal",
            "fill": color,
        },
        number,
        parent=token,
    )
    dots = style.pips(number)
    for i in range(max(dots, 0)):
        el("circle", {"cx": f(x + (i - (dots - 1) / 2) * 4.2), "cy": f(y + 10), "r": 1.5, "fill": color}, parent=token)


def harbor(parent: Element, edge: Edge, code: str, kinds: Dict[Tile, str]) -> None:
    a, b = edge_points(edge, RADIUS)
    shared = sorted(set.intersection(*(set(c) for c in edge)))
    sea = [t for t in shared if kinds.get(t) == geo.SEA] or shared[:1]
    sx, sy = center(sea[0], RADIUS) if sea else between(a, b, 0.5)
    spot = between(between(a, b, 0.5), (sx, sy), 0.55)
    label = style.HARBOR_LABELS.get(code, code)
    group = el("g", {"class": "harbor", "data-edge": edge_key(edge), "data-code": code}, parent=parent)
    for end in (a, b):
        el(
            "line",
            {
                "x1": f(end[0]),
                "y1": f(end[1]),
                "x2": f(spot[0]),
                "y2": f(spot[1]),
                "stroke": "#f5f5f5",
                "stroke-width": 3,
            },
            parent=group,
        )
    el("circle", {"cx": f(spot[0]), "cy": f(spot[1]), "r": 15, "fill": "#fdf6e3", "stroke": "#5d4a2e"}, parent=group)
    el(
        "text",
        {
            "x": f(spot[0]),
            "y": f(spot[1] + 4),
            "text-anchor": "middle",
            "font-family": "sans-serif",
            "font-size": 11 if len(label) <= 3 else 9,
        },
        label,
        parent=group,
    )


def road(parent: Element, edge: Edge, player: str, palette: Optional[Dict[str, str]] = None) -> None:
    a, b = edge_points(edge, RADIUS)
    a, b = between(a, b, 0.12), between(a, b, 0.88)
    ends = {"x1": f(a[0]), "y1": f(a[1]), "x2": f(b[0]), "y2": f(b[1])}
    el(
        "line",
        {
            "class": "road",
            "data-edge": edge_key(edge),
            "data-player": player,
            **ends,
            "stroke": style.player_color(player, palette),
            "stroke-width": 9,
            "stroke-linecap": "round",
            "paint-order": "stroke",
        },
        parent=parent,
    )
    el(
        "line",
        {"class": "road-edge", **ends, "stroke": style.PIECE_EDGE, "stroke-width": 1, "stroke-opacity": 0.5},
        parent=parent,
    )


def building(parent: Element, corner: Corner, player: str, kind: str, palette: Optional[Dict[str, str]] = None) -> None:
    x, y = corner_point(corner, RADIUS)
    if kind == "city":
        shape = [(-13, 9), (-13, -4), (-4, -4), (-4, -11), (4, -17), (12, -11), (12, 9)]
    else:
        shape = [(-9, 8), (-9, -3), (0, -12), (9, -3), (9, 8)]
    el(
        "polygon",
        {
            "class": kind,
            "data-corner": corner_key(corner),
            "data-player": player,
            "fill": style.player_color(player, palette),
            "stroke": style.PIECE_EDGE,
            "stroke-width": 1.5,
            "points": points((x + dx, y + dy) for dx, dy in shape),
        },
        parent=parent,
    )


def robber(parent: Element, at: Tile, palette: Optional[Dict[str, str]] = None) -> None:
    x, y = center(at, RADIUS)
    x -= 24
    group = el("g", {"class": "robber", "data-tile": tile_key(at)}, parent=parent)
    el("ellipse", {"cx": f(x), "cy": f(y + 8), "rx": 7, "ry": 10, "fill": style.ROBBER}, parent=group)
    el("circle", {"cx": f(x), "cy": f(y - 6), "r": 5.5, "fill": style.ROBBER}, parent=group)


def mark(parent: Element, place: Place) -> None:
    """The highlight of a place a diagnostic names."""
    kind, where = place
    color = style.HIGHLIGHT
    if kind == "tile":
        at: Tile = where  # type: ignore[assignment]
        el(
            "polygon",
            {
                "class": "highlight",
                "data-tile": tile_key(at),
                "fill": "none",
                "stroke": color,
                "stroke-width": 6,
                "points": points(hex_points(at, RADIUS * 0.92)),
            },
            parent=parent,
        )
    elif kind == "corner":
        corner: Corner = where  # type: ignore[assignment]
        x, y = corner_point(corner, RADIUS)
        el(
            "circle",
            {
                "class": "highlight",
                "data-corner": corner_key(corner),
                "cx": f(x),
                "cy": f(y),
                "r": 16,
                "fill": "none",
                "stroke": color,
                "stroke-width": 5,
            },
            parent=parent,
        )
    else:
        edge: Edge = where  # type: ignore[assignment]
        a, b = edge_points(edge, RADIUS)
        el(
            "line",
            {
                "class": "highlight",
                "data-edge": edge_key(edge),
                "x1": f(a[0]),
                "y1": f(a[1]),
                "x2": f(b[0]),
                "y2": f(b[1]),
                "stroke": color,
                "stroke-width": 15,
                "stroke-opacity": 0.6,
                "stroke-linecap": "round",
            },
            parent=parent,
        )
