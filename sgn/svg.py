"""The board as SVG, as python-chess's `chess.svg` draws a chess position:

    import sgn.svg
    sgn.svg.board(game, highlight=("corner", corner), size=600)   # the SVG text
    sgn.svg.board(game, coordinates=True)     # q,r on each tile ("corners": intersections too)

`game` is a replayed `sgn.game.Game` (which also shows itself as this picture in Jupyter).
Tiles, number tokens, harbors, pieces, the robber, a legend, and a highlighted place with
the sentence that names it (`place`, `named_by`): each thing drawn by `pictures/shapes.py`,
laid out here in layers. No dependency: an ElementTree is built (`pictures/tree.py`), so that
whatever a log names (a player, a terrain, a harbor) is escaped.

Every drawn thing carries a class and the place it stands on (`data-tile`, `data-corner`,
`data-edge`, `data-player`), so that a test, a script or the report page can find it.

The game and its board are those of `sgn.game` (`Game`, `sgn.game.pieces.Map`), read by
their attributes and typed `Any` here: the drawing sits in a layer below the game's.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Union

from . import board as geo
from .board import Tile
from .pictures import style
from .pictures.geometry import bounds, center, corner_point, is_corner, is_edge, is_tile
from .pictures.places import Place, corner_key, edge_key, named_by, place, tile_key
from .pictures.shapes import RADIUS, building, f, harbor, mark, road, robber, tile
from .pictures.tree import Element, el, svg, text_of
from .words import count, player_label

LEGEND_ROW = 22.0
COORDINATES = (False, True, "tiles", "corners")  # what `board(coordinates=...)` takes


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
        el(
            "rect",
            {
                "x": f(x - width / 2),
                "y": f(y - 36),
                "width": f(width),
                "height": 15,
                "rx": 3,
                "fill": style.COORDINATES_HALO,
                "fill-opacity": 0.85,
            },
            parent=label,
        )
        el("text", {"x": f(x), "y": f(y - 24.5), "font-size": 11, "fill": style.COORDINATES}, key, parent=label)
    if not corners:
        return
    land = {t for t, kind in drawn if kind != geo.SEA}
    named = sorted({c for t in land for c in geo.corners_of(t)}, key=corner_key)
    for corner in named:
        x, y = corner_point(corner, RADIUS)
        label = el("g", {"class": "corner-coordinates", "data-corner": corner_key(corner)}, parent=group)
        el(
            "rect",
            {
                "x": f(x - 11),
                "y": f(y - 10.5),
                "width": 22,
                "height": 21,
                "rx": 3,
                "fill": style.COORDINATES_HALO,
                "fill-opacity": 0.85,
            },
            parent=label,
        )
        for i, t in enumerate(geo.canonical_corner(corner)):
            el(
                "text",
                {"x": f(x), "y": f(y - 4 + 6.5 * i), "font-size": 6.5, "fill": style.COORDINATES},
                tile_key(t),
                parent=label,
            )


def pieces_layer(
    parent: Element, players: Dict[str, object], robber_at: Optional[Tile], palette: Optional[Dict[str, str]] = None
) -> None:
    """Roads, then buildings, then the robber, so that each is seen over the one before;
    each player's in its colour of `palette` (`style.palette`)."""
    roads = el("g", {"class": "roads"}, parent=parent)
    for name, p in _by_name(players):
        for edge in sorted((e for e in p.roads if is_edge(e)), key=edge_key):  # type: ignore[attr-defined]
            road(roads, edge, name, palette)
    buildings = el("g", {"class": "buildings"}, parent=parent)
    for name, p in _by_name(players):
        for kind, corners in (("settlement", p.settlements), ("city", p.cities)):  # type: ignore[attr-defined]
            for corner in sorted(filter(is_corner, corners), key=corner_key):
                building(buildings, corner, name, kind, palette)
    if robber_at is not None and is_tile(robber_at):
        robber(parent, robber_at)


def legend_rows(game: Any, names: Optional[Dict[str, str]] = None) -> List[Tuple[str, str]]:
    """One line per player: (player, text), in the players' order; `names`: the engine's
    name of each player, where the log came with them (docs/format.md, "Players' names")."""
    rows = []
    for key, p in sorted(game.players.items(), key=lambda item: str(item[0])):
        name = str(key)
        awards = [
            w
            for w, holder in (("longest road", game.longest_road), ("largest army", game.largest_army))
            if holder == key
        ]
        text = (
            f"player {player_label(name, names)}: {count(game.points(key), 'point')}, {_cards(game.card_counts(key))} "
            f"in hand, {count(p.knights, 'knight')}" + (", " + " and ".join(awards) if awards else "")
        )
        rows.append((name, text))
    return rows


def _cards(counts: Tuple[int, int]) -> str:
    least, most = counts
    return count(least, "card") if least == most else f"{least} to {most} cards"


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


def board(
    game: Any,
    *,
    highlight: Optional[Place] = None,
    caption: Optional[str] = None,
    size: Optional[int] = 600,
    legend: bool = True,
    coordinates: Union[bool, str] = False,
    names: Optional[Dict[str, str]] = None,
    colors: Optional[Dict[str, str]] = None,
) -> str:
    """The SVG text of the board of `game` (a `sgn.game.Game`), python-chess's `svg.board`
    for Settlers: `highlight` marks a place (`place`), `caption` is
    written under the board, `size` is the width in pixels (None: scale freely).
    `coordinates=True` (or "tiles") writes each tile's `q,r` on it; "corners" also names
    every intersection of a land tile by its three tiles. `names` labels the players in
    the legend (`1 (RED)`), where the log came with their names; `colors` are the engine's
    colours of the seats, drawn as the engine drew them (`style.palette`)."""
    palette = style.palette(colors)
    if coordinates not in COORDINATES:
        raise ValueError(f"coordinates: one of {', '.join(map(repr, COORDINATES))}, not {coordinates!r}")
    body: List[Element] = []
    if game.board is None:
        body.append(
            el(
                "text",
                {"x": 0, "y": 20, "font-family": "sans-serif", "font-size": 16},
                "no map yet: the log has no valid DM before this line",
            )
        )
        x0, y0, x1, y1 = (0.0, 0.0, 400.0, 30.0)
    else:
        layers = el("g")
        board_layer(layers, game.board)
        pieces_layer(layers, game.players, game.robber, palette)
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
        for name, text in legend_rows(game, names):
            y += LEGEND_ROW
            row = el("g", {"class": "legend-row", "data-player": name}, parent=rows)
            el(
                "rect",
                {
                    "x": f(x0 + margin),
                    "y": f(y - 12),
                    "width": 14,
                    "height": 14,
                    "fill": style.player_color(name, palette),
                    "stroke": style.PIECE_EDGE,
                },
                parent=row,
            )
            el("text", {"x": f(x0 + margin + 22), "y": f(y)}, text, parent=row)
        body.append(rows)
    if caption:
        under = el("g", {"class": "caption", "font-family": "sans-serif", "font-size": 14, "fill": style.HIGHLIGHT})
        for line in _wrap(caption, max(30, int((x1 - x0) / 8))):
            y += LEGEND_ROW
            el("text", {"x": f(x0 + margin), "y": f(y)}, line, parent=under)
        body.append(under)
    height = y + margin - y0
    width = x1 - x0
    root = svg(
        {
            "class": "sgn-board",
            "viewBox": f"{f(x0)} {f(y0)} {f(width)} {f(height)}",
            "width": size,
            "height": int(round(size * height / width)) if size else None,
        }
    )
    el(
        "rect",
        {"class": "background", "x": f(x0), "y": f(y0), "width": f(width), "height": f(height), "fill": "#ffffff"},
        parent=root,
    )
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


__all__ = ["Place", "board", "board_layer", "named_by", "place"]
