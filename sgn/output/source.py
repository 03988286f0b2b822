"""The line under a text diagnostic, as ruff shows it: a gutter with the line's number, the
line (or, for a long one, its part around the fault, `…` where it is cut), and carets
under the value the pointer names.

    game.sgn:53:20: /2/cCode: player 2 bought this Monopoly card this turn [card-bought-this-turn]
       |
    53 | ["2","PD",{"cCode":"MO","rCodes":["G"]}]
       |                    ^^^^

The excerpt comes with the diagnostic (`Diagnostic.source`, sgn/layers/columns.py); a
control character in it is written as its escape, as the rest of the report writes it
(`words.visible`), and the carets stay under what they mark.
"""

from __future__ import annotations

from ..diagnostic import Diagnostic
from ..words import cells, printable, visible
from .colour import Painter

CUT = "…"


def source_lines(d: Diagnostic, paint: Painter, role: str) -> str:
    """The gutter, the line and its carets (each ending in a newline); "" with no excerpt."""
    if d.source is None or not d.line:
        return ""
    text, start, cut = d.source
    before = CUT if start > 1 else ""
    shown = before + visible(text) + (CUT if cut else "")
    number = str(d.line)
    gutter = " " * len(number) + " |"
    out = f"{paint(gutter, 'dim')}\n{paint(number + ' |', 'dim')} {shown}\n"
    if d.column is not None and d.column >= start:
        offset = d.column - start
        end = d.end_column if d.end_column is not None and d.end_column > d.column else d.column + 1
        marked = text[offset : end - start]
        lead = len(before) + cells(visible(text[:offset]))  # (in cells: wide characters take two)
        carets = "^" * max(1, cells(visible(marked)))
        out += f"{paint(gutter, 'dim')} {' ' * lead}{paint(carets, role)}\n"
    return printable(out)
