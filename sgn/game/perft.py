"""Perft: the count of the sequences of legal moves of a given length from a position, as
chess engines count them to check their move generators against each other, and `divide`,
the count under each first move, which shows where two generators part (docs/moves.md)."""

from __future__ import annotations

from typing import Iterator, Optional, Tuple, cast

from .move_forms import Message
from .moves import Position, legal_moves
from .state import State


def _child(g: State, message: Message) -> State:
    child = cast(Position, g).clone()
    child.apply(message, g.line + 1)
    return cast(State, child)


def perft(g: State, depth: int, players: Optional[int] = None, hidden_outcomes: str = "auto") -> int:
    """The number of sequences of `depth` legal moves from here, chance moves included (a
    sequence that ends early, the game over, is not counted). 1 at depth 0."""
    if depth <= 0:
        return 1
    found = legal_moves(g, players, hidden_outcomes)
    if depth == 1:
        return len(found)
    return sum(perft(_child(g, m), depth - 1, players, hidden_outcomes) for m in found)


def divide(
    g: State, depth: int, players: Optional[int] = None, hidden_outcomes: str = "auto"
) -> Iterator[Tuple[Message, int]]:
    """Each legal move from here with the perft count of `depth - 1` after it (`depth` at
    least 1), one at a time: where two generators part, as chess engines' `divide` shows it."""
    for m in legal_moves(g, players, hidden_outcomes):
        yield m, perft(_child(g, m), depth - 1, players, hidden_outcomes)


__all__ = ["divide", "perft"]
