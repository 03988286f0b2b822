"""What `Game.apply` raises for a message it cannot apply (sgn/game/core.py).

The replay checks the rules only: it takes messages that the schema and semantic checks
have passed, as `sgn validate` gives it. Checking each message's shape on every call
would slow the replay, the hot path, so a malformed message is noticed when applying it
fails, and only then is it described, by the checks it skipped. Not compiled, so that
the class keeps its documentation in every build.
"""

from __future__ import annotations

from typing import Any, List

from ..diagnostic import Diagnostic

_SHOWN = 200  # characters of the message quoted in the error


class MessageError(ValueError):
    """A message `Game.apply` cannot apply: no SGN message, or one the schema or the
    semantic checks refuse (`sgn.validate_message` says what they find).

    `message` is the message given; `diagnostics` what `sgn.validate_message` finds in it
    (empty when it finds nothing, the replay's own failure then being the cause). The
    game's state may be part-changed by the message: check messages first, or replay
    with `sgn.iter_diagnostics`, which does.
    """

    def __init__(self, message: Any, diagnostics: List[Diagnostic], cause: BaseException):
        self.message = message
        self.diagnostics = diagnostics
        shown = repr(message)
        if len(shown) > _SHOWN:
            shown = shown[:_SHOWN] + "..."
        if diagnostics:
            first = diagnostics[0]
            reason = f"{first.pointer + ': ' if first.pointer else ''}{first.message} [{first.code}]"
            if len(diagnostics) > 1:
                reason += f" (and {len(diagnostics) - 1} more)"
        else:
            reason = f"applying it failed: {type(cause).__name__}: {cause}"
        super().__init__(
            f"the replay cannot apply {shown}: {reason} "
            "(Game checks the rules only: check messages with sgn.validate_message)"
        )


def message_error(message: Any, cause: BaseException) -> MessageError:
    """The error for a message whose applying raised `cause`, saying what is wrong with it."""
    from ..layers.stages import validate_message

    # the replay takes any sequence; the checks know JSON's arrays only
    value = list(message) if isinstance(message, tuple) else message
    return MessageError(message, [d for d in validate_message(value) if d.is_error], cause)


class IllegalMove(ValueError):
    """A move `Game.push` refused: the game is as it was before it.

    `move` is the move given; `problems` why it was refused: the `Diagnostic`s of its shape
    and meaning, or the rules' `Problem`s (each has `code` and `message`); `line` the line of
    a log it is at, where one was replayed (`sgn.game.position.from_messages`), else 0."""

    def __init__(self, move: Any, problems: List[Any], reason: str = "", line: int = 0):
        self.move = move
        self.line = line
        self.problems = problems
        shown = repr(move)
        if len(shown) > _SHOWN:
            shown = shown[:_SHOWN] + "..."
        reasons = "; ".join(f"{p.message} [{p.code}]" for p in problems[:3]) or reason
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        super().__init__(f"illegal move {shown}: {reasons}{more}")


class TooManyMoves(ValueError):
    """The legal moves are too many to list (a bound: docs/moves.md, "Bounds"): not a
    verdict on the position, which has them all."""
