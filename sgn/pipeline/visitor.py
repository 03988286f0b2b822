"""What a reading of a log does beside finding its diagnostics, after python-chess's
`pgn.BaseVisitor`: the reading loop (`FileCheck`, `engine.py`) owns reading, the layers and
the order of what it reports; a visitor is told each line once checked and each state of
the game once final, says where reading may stop, and gives its `result()`.

`sgn validate` reads with none; `replay --at` and `render` with `StateAt`, `moves` and
`perft` with `StateAt` too (the moves are the state's), the report page with its pass
(`sgn/page/steps.py`). A new capability that reads a log is a new visitor, not a new
loop: `engine.visit(source, visitor)` reads with one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from ..game.core import Game, Message


class Visitor:
    """Told of one reading of a log; each method may be left as it is (nothing to do)."""

    # the last line to read (None: all). The loop reads past it only while a fault of a
    # line up to it is undecided, so that what it tells of those lines is the whole log's
    # reading of them.
    until: Optional[int] = None

    def begin(self, check: Any) -> None:
        """The reading starts: `check` (an `engine.FileCheck`) has, at any time, the last line
        it read as `check.line`."""

    def visit_line(self, line: int, value: Any) -> None:
        """Line `line` is checked: its JSON value (None if it holds none)."""

    def visit_state(self, line: int, game: "Game", message: Optional[Message]) -> None:
        """The state of the game after line `line` is final (at the rules level): in line
        order, a fault's lines once its reading is chosen, with the message applied (None: a
        reading of the line). `game` is only to be read, then and there."""

    def result(self) -> Any:
        """What the reading gave, once it is over."""
        return None

    def tells_lines(self) -> bool:
        return type(self).visit_line is not Visitor.visit_line

    def tells_states(self) -> bool:
        return type(self).visit_state is not Visitor.visit_state


__all__ = ["Visitor"]
