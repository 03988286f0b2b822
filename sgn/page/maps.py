"""The maps of a report page: each drawn once, numbered in the order the log defines them,
with the view box that shows it (a log of many games defines many)."""

from __future__ import annotations

import hashlib
from typing import Any, Dict, List, Tuple

from ..pictures.geometry import bounds
from ..pictures.shapes import RADIUS
from ..pictures.tree import el, text_of
from ..svg import board_layer


class Maps:
    """Each map drawn once, numbered in the order the log defines them."""

    def __init__(self) -> None:
        self.nodes: List[str] = []
        self.views: List[str] = []
        self._numbers: Dict[bytes, int] = {}  # a drawing's digest -> its number (not its text again)
        self._last: Tuple[Any, int] = (None, -1)

    def number(self, board) -> int:
        if board is None:
            return -1
        if self._last[0] is not board:  # (a map is shared by the copies of a game)
            node = el("g")
            board_layer(node, board)
            key = hashlib.sha256(text_of(node).encode()).digest()
            if key not in self._numbers:
                self._numbers[key] = len(self.nodes)
                node.set("data-map", str(len(self.nodes)))
                self.nodes.append(text_of(node))
                x0, y0, x1, y1 = bounds(board.kinds, RADIUS)
                m = 10.0
                self.views.append(f"{x0 - m:.1f} {y0 - m:.1f} {x1 - x0 + 2 * m:.1f} {y1 - y0 + 2 * m:.1f}")
            self._last = (board, self._numbers[key])
        return self._last[1]


__all__ = ["Maps"]
