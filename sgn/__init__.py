"""sgn: validate, test and convert SGN (Settlers Game Notation) game logs.

The public API (`sgn/api.py`):

- `check(source, level=..., profile=...)`: one log's verdict, counts, level and diagnostics.
- `iter_diagnostics(source, level=..., profile=...)`: every problem in a log, streamed.
- `validate_message(value, level=..., profile=...)`: the problems of one parsed message.
- `replay(source, at=LINE)`: the game's state after a line, and the diagnostics up to it.
- `moves(source, at=LINE)`: the legal moves after a line, as SGN messages (docs/moves.md).
- `Diagnostic`: the record they give; `Result`: what `check` returns.

The rules replay alone is `sgn.game.Game`.
"""

from .api import Result, check, iter_diagnostics, moves, replay, validate_message
from .diagnostic import Diagnostic
from .layers.stages import LEVELS
from .packaged import VERSION

__version__ = VERSION
__all__ = [
    "Diagnostic",
    "LEVELS",
    "Result",
    "check",
    "iter_diagnostics",
    "moves",
    "replay",
    "validate_message",
    "__version__",
]
