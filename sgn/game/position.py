"""One way to a position: a game replayed from its messages, as the harness, the conformance
positions, the perft table and the referee's openings build theirs. What `sgn moves` and
`sgn replay` read of a log goes through the whole check instead (`sgn.pipeline.replay`),
faults and all, and gives a `Position`; `from_messages` is for a sequence of messages known
to be SGN."""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, NamedTuple, Tuple

from .core import Game
from .errors import IllegalMove
from .rule_profiles import AUTO, DEFAULT as DEFAULT_RULES, for_game


def from_messages(messages: Iterable[Any], rules: str = DEFAULT_RULES, strict: bool = False) -> Game:
    """The game after `messages` (each a message, or its JSON text; blank texts skipped),
    numbered from line 1. With `strict`, a message the rules refuse raises `IllegalMove`
    (its problems, and `line`, the line it is at); otherwise it is applied as the log's
    reading applies it (`Game.apply`). A header first (docs/format.md, "Records") names the
    rules under `auto` (the default)."""
    game = Game(rules)
    line = 0
    for item in messages:
        if isinstance(item, (str, bytes)):
            if not item.strip():
                continue
            item = json.loads(item)
        line += 1
        if line == 1 and rules == AUTO and isinstance(item, list) and len(item) == 3 and item[1] == "HD":
            named = item[2].get("rules") if isinstance(item[2], dict) else None
            game = Game(for_game(AUTO, named))
        problems = game.apply(item, line)
        if strict:
            errors = [p for p in problems if p.severity == "error"]
            if errors:
                raise IllegalMove(item, errors, line=line)
    return game


class Position(NamedTuple):
    """A game part-way through a log, as a reading of it leaves it: the live game (to read,
    list the moves of, or draw), the line it is after, the JSON value on that line (None if
    it holds none), and what each hidden value may still be (docs/hidden.md). Those who
    print it ask for its `snapshot()`."""

    game: Game
    line: int
    message: Any = None
    hidden_values: Tuple[Dict[str, Any], ...] = ()

    def snapshot(self) -> Dict[str, Any]:
        """The position as plain data, as `sgn replay -o json` prints it (docs/format.md)."""
        state = self.game.snapshot()
        state["line"], state["message"] = self.line, self.message
        if self.hidden_values:
            state["hidden_values"] = list(self.hidden_values)
        return state


__all__ = ["Position", "from_messages"]
