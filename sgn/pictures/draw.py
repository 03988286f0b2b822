"""The board as SVG: tiles, number tokens, harbors, pieces, the robber, a legend, and a
highlighted place with the sentence that names it. No dependency: the text is written here.

Every drawn thing carries a class and the place it stands on (`data-tile`, `data-corner`,
`data-edge`, `data-player`), so that a test, a script or the report page can find it.
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Tuple
from xml.sax.saxutils import escape, quoteattr

from .. import board as geo
from ..board import Corner, Edge, Tile
from ..words import count
from . import style
from .geometry import (Point, between, bounds, center, corner_point, edge_points, hex_points, is_corner,
                       is_edge, is_tile)
from .places import Place, corner_key, edge_key, tile_key

RADIUS = 50.0                   # a hex's radius, in the picture's own units
LEGEND_ROW = 22.0


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def tile_svg(tile: Tile, kind: str, number: Optional[int]) -> str:
    fill = style.TERRAIN.get(kind, style.UNKNOWN_TERRAIN)
    out = [f'<polygon class="tile" data-tile="{tile_key(tile)}" data-kind={quoteattr(kind)} '
           f'fill="{fill}" stroke="{style.HEX_EDGE}" stroke-width="2" points="{_points(hex_points(tile, RADIUS))}">'
           f'<title>{escape(style.TERRAIN_NAMES.get(kind, kind))} {tile_key(tile)}</title></polygon>']
    if number is not None:
        x, y = center(tile, RADIUS)
        hot = number in (6, 8)
        color = style.HOT_NUMBER if hot else style.NUMBER
        out.append(f'<g class="token" data-tile="{tile_key(tile)}">'
                   f'<circle cx="{_f(x)}" cy="{_f(y)}" r="17" fill="{style.TOKEN}" stroke="{style.HEX_EDGE}"/>'
                   f'<text x="{_f(x)}" y="{_f(y + 4)}" text-anchor="middle" font-family="sans-serif" '
                   f'font-size="{17 if hot else 15}" font-weight="{"bold" if hot else "normal"}" '
                   f'fill="{color}">{number}</text>')
        dots = style.pips(number)
        for i in range(max(dots, 0)):
            out.append(f'<circle cx="{_f(x + (i - (dots - 1) / 2) * 4.2)}" cy="{_f(y + 10)}" r="1.5" fill="{color}"/>')
        out.append("</g>")
    return "".join(out)


def harbor_svg(edge: Edge, code: str, kinds: Dict[Tile, str]) -> str:
    a, b = edge_points(edge, RADIUS)
    shared = sorted(set.intersection(*(set(c) for c in edge)))
    sea = [t for t in shared if kinds.get(t) == geo.SEA] or shared[:1]
    sx, sy = center(sea[0], RADIUS) if sea else between(a, b, 0.5)
    mid = between(a, b, 0.5)
    spot = between(mid, (sx, sy), 0.55)
    label = style.HARBOR_LABELS.get(code, code)
    return (f'<g class="harbor" data-edge="{edge_key(edge)}" data-code={quoteattr(code)}>'
            f'<line x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(spot[0])}" y2="{_f(spot[1])}" stroke="#f5f5f5" stroke-width="3"/>'
            f'<line x1="{_f(b[0])}" y1="{_f(b[1])}" x2="{_f(spot[0])}" y2="{_f(spot[1])}" stroke="#f5f5f5" stroke-width="3"/>'
            f'<circle cx="{_f(spot[0])}" cy="{_f(spot[1])}" r="15" fill="#fdf6e3" stroke="#5d4a2e"/>'
            f'<text x="{_f(spot[0])}" y="{_f(spot[1] + 4)}" text-anchor="middle" font-family="sans-serif" '
            f'font-size="{11 if len(label) <= 3 else 9}">{escape(label)}</text></g>')


def road_svg(edge: Edge, player: str) -> str:
    a, b = edge_points(edge, RADIUS)
    a, b = between(a, b, 0.12), between(a, b, 0.88)
    return (f'<line class="road" data-edge="{edge_key(edge)}" data-player="{escape(player)}" '
            f'x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}" '
            f'stroke="{style.player_color(player)}" stroke-width="9" stroke-linecap="round" '
            f'style="paint-order:stroke"/>'
            f'<line class="road-edge" x1="{_f(a[0])}" y1="{_f(a[1])}" x2="{_f(b[0])}" y2="{_f(b[1])}" '
            f'stroke="{style.PIECE_EDGE}" stroke-width="1" stroke-opacity="0.5"/>')


def building_svg(corner: Corner, player: str, kind: str) -> str:
    x, y = corner_point(corner, RADIUS)
    if kind == "city":
        shape = [(-13, 9), (-13, -4), (-4, -4), (-4, -11), (4, -17), (12, -11), (12, 9)]
    else:
        shape = [(-9, 8), (-9, -3), (0, -12), (9, -3), (9, 8)]
    return (f'<polygon class="{kind}" data-corner="{corner_key(corner)}" data-player="{escape(player)}" '
            f'fill="{style.player_color(player)}" stroke="{style.PIECE_EDGE}" stroke-width="1.5" '
            f'points="{_points((x + dx, y + dy) for dx, dy in shape)}"/>')


def robber_svg(tile: Tile) -> str:
    x, y = center(tile, RADIUS)
    x -= 24
    return (f'<g class="robber" data-tile="{tile_key(tile)}"><ellipse cx="{_f(x)}" cy="{_f(y + 8)}" rx="7" ry="10" '
            f'fill="{style.ROBBER}"/><circle cx="{_f(x)}" cy="{_f(y - 6)}" r="5.5" fill="{style.ROBBER}"/></g>')


def highlight_svg(place: Place) -> str:
    kind, where = place
    color = style.HIGHLIGHT
    if kind == "tile":
        tile: Tile = where        # type: ignore[assignment]
        return (f'<polygon class="highlight" data-tile="{tile_key(tile)}" fill="none" stroke="{color}" '
                f'stroke-width="6" points="{_points(hex_points(tile, RADIUS * 0.92))}"/>')
    if kind == "corner":
        corner: Corner = where    # type: ignore[assignment]
        x, y = corner_point(corner, RADIUS)
        return (f'<circle class="highlight" data-corner="{corner_key(corner)}" cx="{_f(x)}" cy="{_f(y)}" r="16" '
                f'fill="none" stroke="{color}" stroke-width="5"/>')
    edge: Edge = where            # type: ignore[assignment]
    a, b = edge_points(edge, RADIUS)
    return (f'<line class="highlight" data-edge="{edge_key(edge)}" x1="{_f(a[0])}" y1="{_f(a[1])}" '
            f'x2="{_f(b[0])}" y2="{_f(b[1])}" stroke="{color}" stroke-width="15" stroke-opacity="0.6" '
            f'stroke-linecap="round"/>')


def board_layer(board) -> str:
    """The map: tiles, tokens, harbors (what never changes in a game)."""
    out = ['<g class="tiles">']
    out += [tile_svg(t, str(k), _number(board.numbers.get(t)))
            for t, k in sorted(_drawable_tiles(board.kinds), key=_row_order)]
    out.append('</g><g class="harbors">')
    out += [harbor_svg(e, str(code), board.kinds) for e, code in board.harbors if is_edge(e)]
    out.append("</g>")
    return "".join(out)


def pieces_layer(players: Dict[str, object], robber: Optional[Tile]) -> str:
    """Roads, then buildings, then the robber, so that each is seen over the one before."""
    out = ['<g class="roads">']
    for name, p in _by_name(players):
        roads = p.roads  # type: ignore[attr-defined]
        out += [road_svg(e, name) for e in sorted((e for e in roads if is_edge(e)), key=edge_key)]
    out.append('</g><g class="buildings">')
    for name, p in _by_name(players):
        for kind, corners in (("settlement", p.settlements), ("city", p.cities)):  # type: ignore[attr-defined]
            out += [building_svg(c, name, kind) for c in sorted(filter(is_corner, corners), key=corner_key)]
    out.append("</g>")
    if robber is not None and is_tile(robber):
        out.append(robber_svg(robber))
    return "".join(out)


def legend_rows(game) -> List[Tuple[str, str]]:
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


def _number(n) -> Optional[int]:
    return n if isinstance(n, int) and not isinstance(n, bool) else None


def _by_name(players: Dict[str, object]) -> List[Tuple[str, object]]:
    """The players in order, their names as text (the API may be given any name)."""
    return sorted(((str(n), p) for n, p in players.items()), key=lambda item: item[0])


def _row_order(item) -> Tuple[int, int]:
    (q, r) = item[0]
    return (r, q)


def board(game, *, highlight: Optional[Place] = None, caption: Optional[str] = None,
          size: Optional[int] = 600, legend: bool = True) -> str:
    """The SVG text of the board of `game` (a `sgn.game.Game`), python-chess's `svg.board`
    for Settlers: `highlight` marks a place (`sgn.pictures.places.place`), `caption` is
    written under the board, `size` is the width in pixels (None: scale freely)."""
    if game.board is None:
        body = ('<text x="0" y="20" font-family="sans-serif" font-size="16">no map yet: '
                'the log has no valid DM before this line</text>')
        x0, y0, x1, y1 = (0.0, 0.0, 400.0, 30.0)
    else:
        body = board_layer(game.board) + pieces_layer(game.players, game.robber)
        if highlight is not None:
            body += f'<g class="highlights">{highlight_svg(highlight)}</g>'
        x0, y0, x1, y1 = bounds([t for t, _ in _drawable_tiles(game.board.kinds)], RADIUS)
    margin = 10.0
    x0, y0, x1 = x0 - margin, y0 - margin, x1 + margin
    y = y1 + margin
    extra = []
    if legend and game.board is not None:
        extra.append('<g class="legend" font-family="sans-serif" font-size="14">')
        for name, text in legend_rows(game):
            y += LEGEND_ROW
            extra.append(f'<g class="legend-row" data-player="{escape(name)}">'
                         f'<rect x="{_f(x0 + margin)}" y="{_f(y - 12)}" width="14" height="14" '
                         f'fill="{style.player_color(name)}" stroke="{style.PIECE_EDGE}"/>'
                         f'<text x="{_f(x0 + margin + 22)}" y="{_f(y)}">{escape(text)}</text></g>')
        extra.append("</g>")
    if caption:
        lines = _wrap(caption, max(30, int((x1 - x0) / 8)))
        extra.append(f'<g class="caption" font-family="sans-serif" font-size="14" fill="{style.HIGHLIGHT}">')
        for line in lines:
            y += LEGEND_ROW
            extra.append(f'<text x="{_f(x0 + margin)}" y="{_f(y)}">{escape(line)}</text>')
        extra.append("</g>")
    height = y + margin - y0
    width = x1 - x0
    sized = f' width="{size}" height="{int(round(size * height / width))}"' if size else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="sgn-board" viewBox="{_f(x0)} {_f(y0)} '
            f'{_f(width)} {_f(height)}"{sized}>'
            f'<rect class="background" x="{_f(x0)}" y="{_f(y0)}" width="{_f(width)}" height="{_f(height)}" fill="#ffffff"/>'
            + body + "".join(extra) + "</svg>")


def _wrap(text: str, width: int) -> List[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])
