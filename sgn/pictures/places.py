"""Places on the board, and the place a diagnostic names: a tile, an intersection (a
corner) or a path (an edge), found by following the diagnostic's JSON pointer into its
message. Keys (`"0,-1"`, `"0,-1;1,-1;0,0"`, two corner keys joined by `|`) name places in
the SVG and the report page."""

from __future__ import annotations

from typing import Any, Optional, Tuple, Union

from .. import board
from ..board import Corner, Edge, Tile

Place = Tuple[str, Union[Tile, Corner, Edge]]  # ("tile" | "corner" | "edge", where)


def tile_key(tile: Tile) -> str:
    return f"{tile[0]},{tile[1]}"


def corner_key(corner: Corner) -> str:
    return ";".join(tile_key(t) for t in board.canonical_corner(corner))


def edge_key(edge: Edge) -> str:
    return "|".join(corner_key(c) for c in sorted(edge, key=corner_key))


def _is_tile(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in v)


def _is_corner(v: Any) -> bool:
    return (
        isinstance(v, list)
        and len(v) == 3
        and all(_is_tile(t) for t in v)
        and len({tuple(t) for t in v}) == 3
        and board.is_corner(frozenset(tuple(t) for t in v))
    )


def _is_edge(v: Any) -> bool:
    return (
        isinstance(v, list)
        and len(v) == 2
        and all(_is_corner(c) for c in v)
        and len(set.intersection(*(set(map(tuple, c)) for c in v))) == 2
    )


def place(value: Any) -> Optional[Place]:
    """The place a JSON value names, or None: `[q, r]`, an intersection, or a path."""
    if _is_tile(value):
        return ("tile", (value[0], value[1]))
    if _is_corner(value):
        return ("corner", frozenset((t[0], t[1]) for t in value))
    if _is_edge(value):
        return ("edge", frozenset(frozenset((t[0], t[1]) for t in c) for c in value))
    if isinstance(value, dict):
        for key in ("intersection", "path", "tile"):
            if key in value:
                return place(value[key])
    return None


def named_by(message: Any, pointer: str, fall_back: bool = True) -> Optional[Place]:
    """The place at `pointer` in `message`, or at the nearest part above it that is one, or
    else the place the move is made on (a settlement out of turn: its intersection)."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]] if pointer else []
    nodes = [message]
    for part in parts:
        node = nodes[-1]
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            nodes.append(node[int(part)])
        elif isinstance(node, dict) and part in node:
            nodes.append(node[part])
        else:
            break
    for node in reversed(nodes[1:]):
        found = place(node)
        if found is not None:
            return found
    if fall_back and isinstance(message, list) and len(message) == 3:  # the move itself (a move out of turn)
        return place(message[2])
    return None
