"""The rules replay: a game state, and `apply(message)` that checks one move against it.

SGN leaves out what can be inferred: production, the end of a turn, who holds
the longest road. The replay infers them, following the rules of the variant
the map calls for (the numbers are the tables of `sgn/rules.py`), and reports
each move that breaks a rule as a `Problem`. Each concern is a module, and a
class that adds it to the state, in this order: `state` (the state and the
bookkeeping every move shares: paying, placing, production, the awards, the
end), `robber` (a 7: discards, the robber, the steal), `building`, `cards`,
`trades`, `turns` (whose turn, the roll, the Special Build Phase), `game_setup`,
and here `Game`: the map, and `apply`, which sends each message to its concern
and ends the game at 10 points.

`apply` applies a message as far as it can be, even an illegal one (the log's
reading: a hand never goes below zero, an obligation left unmet is dropped);
`sgn/recovery.py` decides, after a fault, whether that or another reading of
the log explains what follows, so that one fault gives one error.
"""
from __future__ import annotations

from typing import Any, List, Sequence

from . import rules
from .game_errors import MessageError, message_error
from .game_setup import Setup
from .pieces import Board, Income, Player
from .semantic import Problem
from .state import OVER, SETUP, TURNS

# Actions that cannot change anyone's points (so the win needs no checking after them).
_NO_POINTS = frozenset({"TR", "ST", "MR"})


class Game(Setup):
    """The state of one game, replayed message by message: the map, the setup and the turns.

    It checks the rules only. The shape of a message (the schema: `RD 13`, a missing
    property) and its meaning (the semantic checks: an intersection that is no corner, a
    place off the map) are `sgn.validate_message`'s and `sgn validate`'s to check, which
    run before the replay; a message they refuse may be applied here without a word, or
    raise `MessageError` when it cannot be applied at all.
    """

    def clone(self) -> "Game":
        """A copy of the state that changes apart from this one, for trying several readings
        of a log after a fault (`sgn/recovery.py`)."""
        other = Game()
        self._copy_into(other)
        return other

    def _repr_svg_(self) -> str:
        """The board as a picture, as Jupyter shows it (`sgn.svg.board`)."""
        from .pictures.draw import board
        return board(self)

    def apply(self, message: Sequence[Any], line: int = 0) -> List[Problem]:
        """Check one message against the state, then change the state as the message says:
        the rules it breaks, as `Problem`s. The message must be one the schema and semantic
        checks pass (see the class); one that cannot be applied raises `MessageError`."""
        self.line = line
        if isinstance(message, str):      # it would unpack, one letter an item
            raise message_error(message, TypeError("a message is a sequence [player, aCode, value], not a str"))
        try:
            return self._apply(message, line)
        except (LookupError, TypeError, ValueError, AttributeError) as error:   # no message it can apply
            raise message_error(message, error) from error

    def _apply(self, message: Sequence[Any], line: int) -> List[Problem]:
        player, action, value = message
        if self.without_map_reported:
            return []
        if action == "DM":
            return self._define_map(value)
        if self.board is None:
            self.without_map_reported = True
            return [Problem("game-without-map", "/1",
                            "the replay needs the map: the log must start with a valid DM "
                            "(later messages are not replayed)")]
        if self.phase == OVER:
            if (action == "PD" and player == self.current and value["cCode"] == "VP"
                    and not self.after_end_reported and not self._reveal_point(self.player(player), value)):
                return []               # the winner shows the Victory Point cards that won
            if (player == self.current and not self.after_end_reported
                    and (self.robber_due == "knight" if action == "MR" else action == "ST" and self.steal_from)):
                return self._turn(player, action, value)    # the robber move and steal of the Knight that won
            if self.after_end_reported:
                return []
            self.after_end_reported = True
            return [Problem("after-game-end", "",
                            f"the game ended at line {self.ended_at}, when player {self.current} "
                            f"reached {self.points(self.current) if self.current else 0} points; "
                            "nothing may follow "
                            "(later messages are not checked)")]
        if self.phase == SETUP:
            problems = self._setup(player, action, value)
        else:
            problems = self._turn(player, action, value)
        if (self.phase == TURNS and self.current and action not in _NO_POINTS and not self.special_built
                and self.points(self.current) >= rules.POINTS_TO_WIN):     # nobody wins in a Special Build Phase
            self.phase, self.ended_at = OVER, line
        return problems

    def _define_map(self, value) -> List[Problem]:
        if self.board is not None:
            return [Problem("map-redefined", "/1", "the map is defined once, at the start of the game")]
        self.board = Board.from_value(value)
        # on one of two deserts, as the players like (docs/rules.md): unknown until it is placed or moves
        self.robber = self.board.desert if len(self.board.deserts) == 1 else None
        self.variant = rules.variant_for(self.board.land)
        self.bank = dict.fromkeys(rules.RESOURCES, self.variant.bank)
        self.deck = dict(self.variant.deck)
        return []


__all__ = ["Board", "Game", "Income", "MessageError", "OVER", "Player", "SETUP", "TURNS"]
