"""The board as SVG, as python-chess's `chess.svg` draws a chess position:

    import sgn.svg
    sgn.svg.board(game, highlight=("corner", corner), size=600)   # the SVG text
    sgn.svg.board(game, coordinates=True)     # q,r on each tile ("corners": intersections too)

`game` is a replayed `sgn.game.Game` (which also shows itself as this picture in Jupyter).
The drawing lives in `sgn/pictures/`.
"""

from __future__ import annotations

from .pictures.draw import board
from .pictures.places import Place, named_by, place

__all__ = ["Place", "board", "named_by", "place"]
