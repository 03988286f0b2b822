"""The board as SVG: tiles, number tokens, harbors, pieces, the robber, a legend, and a
highlighted place with the sentence that names it. No dependency: an ElementTree is built
(`tree.py`), so that whatever a log names (a player, a terrain, a harbor) is escaped.

Every drawn thing carries a class and the place it stands on (`data-tile`, `data-corner`,
`data-edge`, `data-player`), so that a test, a script or the report page can find it.

The game and its board are those of `sgn.game` (`Game`, `sgn.game.pieces.Board`), read by
their attributes and typed `Any` here: the drawing sits in a layer below the game's.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from .. import board as geo
from ..board import Corner, Edge, Tile
from ..words import count
from . import style
from .geometry import Point, between, bounds, center, corner_point, edge_points, hex_points, is_corner, is_edge, is_tile
from .places import Place, corner_key, edge_key, tile_key
from .tree import Element, el, svg, text_of

RADIUS = 50.0                   # a hex's radius, in the picture's own units
LEGEND_ROW = 22.0
COORDINATES = (False, True, "tiles", "corners")     # what `board(coordinates=...)` takes


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def tile(parent: Element, at: Tile, kind: str, number: Optional[int]) -> None:
    """A hex, and its number token with the number's pips."""
    polygon = el("polygon", {"class": "tile", "data-tile": tile_key(at), "data-kind": kind,
                             "fill": style.TERRAIN.get(kind, style.UNKNOWN_TERRAIN), "stroke": style.HEX_EDGE,
                             "stroke-width": 2, "points": _points(hex_points(at, RADIUS))}, parent=parent)
    el("title", text=f"{style.TERRAIN_NAMES.get(kind, kind)} {tile_key(at)}", parent=polygon)
    if number is None:
        return
    x, y = center(at, RADIUS)
    hot = number in (6, 8)
    color = style.HOT_NUMBER if hot else style.NUMBER
    token = el("g", {"class": "token", "data-tile": tile_key(at)}, parent=parent)
    el("circle", {"cx": _f(x), "cy": _f(y), "r": 17, "fill": style.TOKEN, "stroke": style.HEX_EDGE}, parent=token)
    el("text", {"x": _f(x), "y": _f(y + 4), "text-anchor": "middle", "font-family": "sans-serif",
                "font-size": 17 if hot else 15, "font-weight": "bold" if hot else "normal", "fill": color},
       number, parent=token)
    dots = style.pips(number)
    for i in range(max(dots, 0)):
        el("circle", {"cx": _f(x + (i - (dots - 1) / 2) * 4.2), "cy": _f(y + 10), "r": 1.5, "fill": color},
           parent=token)


def harbor(parent: Element, edge: Edge, code: str, kinds: Dict[Tile, str]) -> None:
    a, b = edge_points(edge, RADIUS)
    shared = sorted(set.intersection(*(set(c) for c in edge)))
    sea = [t for t in shared if kinds.get(t) == geo.SEA] or shared[:1]
    sx, sy = center(sea[0], RADIUS) if sea else between(a, b, 0.5)
    spot = between(between(a, b, 0.5), (sx, sy), 0.55)
    label = style.HARBOR_LABELS.get(code, code)
    group = el("g", {"class": "harbor", "data-edge": edge_key(edge), "data-code": code}, parent=parent)
    for end in (a, b):
        el("line", {"x1": _f(end[0]), "y1": _f(end[1]), "x2": _f(spot[0]), "y2": _f(spot[1]), "stroke": "#f5f5f5",
                    "stroke-width": 3}, parent=group)
    el("circle", {"cx": _f(spot[0]), "cy": _f(spot[1]), "r": 15, "fill": "#fdf6e3", "stroke": "#5d4a2e"}, parent=group)
    el("text", {"x": _f(spot[0]), "y": _f(spot[1] + 4), "text-anchor": "middle", "font-family": "sans-serif",
                "font-size": 11 if len(label) <= 3 else 9}, label, parent=group)


def road(parent: Element, edge: Edge, player: str) -> None:
    a, b = edge_points(edge, RADIUS)
    a, b = between(a, b, 0.12), between(a, b, 0.88)
    ends = {"x1": _f(a[0]), "y1": _f(a[1]), "x2": _f(b[0]), "y2": _f(b[1])}
    el("line", {"class": "road", "data-edge": edge_key(edge), "data-player": player, **ends,
                "stroke": style.player_color(player), "stroke-width": 9, "stroke-linecap": "round",
                "paint-order": "stroke"}, parent=parent)
    el("line", {"class": "road-edge", **ends, "stroke": style.PIECE_EDGE, "stroke-width": 1, "stroke-opacity": 0.5},
       parent=parent)


def building(parent: Element, corner: Corner, player: str, kind: str) -> None:
    x, y = corner_point(corner, RADIUS)
    if kind == "city":
        shape = [(-13, 9), (-13, -4), (-4, -4), (-4, -11), (4, -17), (12, -11), (12, 9)]
    else:
        shape = [(-9, 8), (-9, -3), (0, -12), (9, -3), (9, 8)]
    el("polygon", {"class": kind, "data-corner": corner_key(corner), "data-player": player,
                   "fill": style.player_color(player), "stroke": style.PIECE_EDGE, "stroke-width": 1.5,
                   "points": _points((x + dx, y + dy) for dx, dy in shape)}, parent=parent)


def robber(parent: Element, at: Tile) -> None:
    x, y = center(at, RADIUS)
    x -= 24
    group = el("g", {"class": "robber", "data-tile": tile_key(at)}, parent=parent)
    el("ellipse", {"cx": _f(x), "cy": _f(y + 8), "rx": 7, "ry": 10, "fill": style.ROBBER}, parent=group)
    el("circle", {"cx": _f(x), "cy": _f(y - 6), "r": 5.5, "fill": style.ROBBER}, parent=group)


def mark(parent: Element, place: Place) -> None:
    """The highlight of a place a diagnostic names."""
    kind, where = place
    color = style.HIGHLIGHT
    if kind == "tile":
        at: Tile = where          # type: ignore[assignment]
        el("polygon", {"class": "highlight", "data-tile": tile_key(at), "fill": "none", "stroke": color,
                       "stroke-width": 6, "points": _points(hex_points(at, RADIUS * 0.92))}, parent=parent)
    elif kind == "corner":
        corner: Corner = where    # type: ignore[assignment]
        x, y = corner_point(corner, RADIUS)
        el("circle", {"class": "highlight", "data-corner": corner_key(corner), "cx": _f(x), "cy": _f(y), "r": 16,
                      "fill": "none", "stroke": color, "stroke-width": 5}, parent=parent)
    else:
        edge: Edge = where        # type: ignore[assignment]
        a, b = edge_points(edge, RADIUS)
        el("line", {"class": "highlight", "data-edge": edge_key(edge), "x1": _f(a[0]), "y1": _f(a[1]),
                    "x2": _f(b[0]), "y2": _f(b[1]), "stroke": color, "stroke-width": 15, "stroke-opacity": 0.6,
                    "stroke-linecap": "round"}, parent=parent)


def board_layer(parent: Element, board: Any) -> None:
    """The map: tiles, tokens, harbors (what never changes in a game)."""
    tiles = el("g", {"class": "tiles"}, parent=parent)
    for at, kind in sorted(_drawable_tiles(board.kinds), key=_row_order):
        tile(tiles, at, str(kind), _number(board.numbers.get(at)))
    harbors = el("g", {"class": "harbors"}, parent=parent)
    for edge, code in board.harbors:
        if is_edge(edge):
            harbor(harbors, edge, str(code), board.kinds)


def coordinates_layer(parent: Element, board: Any, corners: bool) -> None:
    """Each tile's `q,r` written above its centre; with `corners`, each intersection of a
    land tile named by its three tiles, clockwise from the top, one tile a line (as SGN
    writes them: `[[q, r], [q, r], [q, r]]`)."""
    group = el("g", {"class": "coordinates", "font-family": "sans-serif", "text-anchor": "middle"}, parent=parent)
    drawn = _drawable_tiles(board.kinds)
    for at, _ in sorted(drawn, key=_row_order):
        x, y = center(at, RADIUS)
        key = tile_key(at)
        label = el("g", {"class": "tile-coordinates", "data-tile": key}, parent=group)
        width = 6.5 * len(key) + 6
        el("rect", {"x": _f(x - width / 2), "y": _f(y - 36), "width": _f(width), "height": 15, "rx": 3,
                    "fill": style.COORDINATES_HALO, "fill-opacity": 0.85}, parent=label)
        el("text", {"x": _f(x), "y": _f(y - 24.5), "font-size": 11, "fill": style.COORDINATES}, key, parent=label)
    if not corners:
        return
    land = {t for t, kind in drawn if kind != geo.SEA}
    named = sorted({c for t in land for c in geo.corners_of(t)}, key=corner_key)
    for corner in named:
        x, y = corner_point(corner, RADIUS)
        label = el("g", {"class": "corner-coordinates", "data-corner": corner_key(corner)}, parent=group)
        el("rect", {"x": _f(x - 11), "y": _f(y - 10.5), "width": 22, "height": 21, "rx": 3,
                    "fill": style.COORDINATES_HALO, "fill-opacity": 0.85}, parent=label)
        for i, t in enumerate(geo.canonical_corner(corner)):
            el("text", {"x": _f(x), "y": _f(y - 4 + 6.5 * i), "font-size": 6.5, "fill": style.COORDINATES},
               tile_key(t), parent=label)


def pieces_layer(parent: Element, players: Dict[str, object], robber_at: Optional[Tile]) -> None:
    """Roads, then buildings, then the robber, so that each is seen over the one before."""
    roads = el("g", {"class": "roads"}, parent=parent)
    for name, p in _by_name(players):
        for edge in sorted((e for e in p.roads if is_edge(e)), key=edge_key):  # type: ignore[attr-defined]
            road(roads, edge, name)
    buildings = el("g", {"class": "buildings"}, parent=parent)
    for name, p in _by_name(players):
        for kind, corners in (("settlement", p.settlements), ("city", p.cities)):  # type: ignore[attr-defined]
            for corner in sorted(filter(is_corner, corners), key=corner_key):
                building(buildings, corner, name, kind)
    if robber_at is not None and is_tile(robber_at):
        robber(parent, robber_at)


def legend_rows(game: Any) -> List[Tuple[str, str]]:
    """One line per player: (player, text), in the players' order."""
    rows = []
    for key, p in sorted(game.players.items(), key=lambda item: str(item[0])):
        name = str(key)
        awards = [w for w, holder in (("longest road", game.longest_road), ("largest army", game.largest_army))
                  if holder == key]
        text = (f"player {name}: {count(game.points(key), 'point')}, {count(sum(p.hand.values()), 'card')} "
                f"in hand, {count(p.knights, 'knight')}" + (", " + " and ".join(awards) if awards else ""))
        rows.append((name, text))
    return rows


def _drawable_tiles(kinds: Dict[Tile, str]) -> List[Tuple[Tile, str]]:
    return [(t, k) for t, k in kinds.items() if is_tile(t)]


def _number(n: object) -> Optional[int]:
    return n if isinstance(n, int) and not isinstance(n, bool) else None


def _by_name(players: Dict[str, object]) -> List[Tuple[str, object]]:
    """The players in order, their names as text (the API may be given any name)."""
    return sorted(((str(n), p) for n, p in players.items()), key=lambda item: item[0])


def _row_order(item: Tuple[Tile, str]) -> Tuple[int, int]:
    (q, r) = item[0]
    return (r, q)


def board(game: Any, *, highlight: Optional[Place] = None, caption: Optional[str] = None,
          size: Optional[int] = 600, legend: bool = True, coordinates: Union[bool, str] = False) -> str:
    """The SVG text of the board of `game` (a `sgn.game.Game`), python-chess's `svg.board`
    for Settlers: `highlight` marks a place (`sgn.pictures.places.place`), `caption` is
    written under the board, `size` is the width in pixels (None: scale freely).
    `coordinates=True` (or "tiles") writes each tile's `q,r` on it; "corners" also names
    every intersection of a land tile by its three tiles."""
    if coordinates not in COORDINATES:
        raise ValueError(f"coordinates: one of {', '.join(map(repr, COORDINATES))}, not {coordinates!r}")
    body: List[Element] = []
    if game.board is None:
        body.append(el("text", {"x": 0, "y": 20, "font-family": "sans-serif", "font-size": 16},
                       "no map yet: the log has no valid DM before this line"))
        x0, y0, x1, y1 = (0.0, 0.0, 400.0, 30.0)
    else:
        layers = el("g")
        board_layer(layers, game.board)
        pieces_layer(layers, game.players, game.robber)
        if coordinates:
            coordinates_layer(layers, game.board, corners=coordinates == "corners")
        body += list(layers)
        if highlight is not None:
            body.append(el("g", {"class": "highlights"}))
            mark(body[-1], highlight)
        x0, y0, x1, y1 = bounds([t for t, _ in _drawable_tiles(game.board.kinds)], RADIUS)
    margin = 10.0
    x0, y0, x1 = x0 - margin, y0 - margin, x1 + margin
    y = y1 + margin
    if legend and game.board is not None:
        rows = el("g", {"class": "legend", "font-family": "sans-serif", "font-size": 14})
        for name, text in legend_rows(game):
            y += LEGEND_ROW
            row = el("g", {"class": "legend-row", "data-player": name}, parent=rows)
            el("rect", {"x": _f(x0 + margin), "y": _f(y - 12), "width": 14, "height": 14,
                        "fill": style.player_color(name), "stroke": style.PIECE_EDGE}, parent=row)
            el("text", {"x": _f(x0 + margin + 22), "y": _f(y)}, text, parent=row)
        body.append(rows)
    if caption:
        under = el("g", {"class": "caption", "font-family": "sans-serif", "font-size": 14, "fill": style.HIGHLIGHT})
        for line in _wrap(caption, max(30, int((x1 - x0) / 8))):
            y += LEGEND_ROW
            el("text", {"x": _f(x0 + margin), "y": _f(y)}, line, parent=under)
        body.append(under)
    height = y + margin - y0
    width = x1 - x0
    root = svg({"class": "sgn-board", "viewBox": f"{_f(x0)} {_f(y0)} {_f(width)} {_f(height)}",
                "width": size, "height": int(round(size * height / width)) if size else None})
    el("rect", {"class": "background", "x": _f(x0), "y": _f(y0), "width": _f(width), "height": _f(height),
                "fill": "#ffffff"}, parent=root)
    root.extend(body)
    return text_of(root)


def _wrap(text: str, width: int) -> List[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])
