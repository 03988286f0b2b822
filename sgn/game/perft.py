"""Perft: the count of the sequences of legal moves of a given length from a position, as
chess engines count them to check their move generators against each other, and `divide`,
the count under each first move, which shows where two generators part (docs/moves.md)."""

from __future__ import annotations

from typing import Iterator, Optional, Tuple, cast

from .discard_moves import expanded, ways
from .move_forms import Message
from .moves import Position, legal_moves
from .state import State


def _child(g: State, message: Message) -> State:
    child = cast(Position, g).clone()
    child.apply(message, g.line + 1)
    return cast(State, child)


def perft(
    g: State, depth: int, players: Optional[int] = None, hidden_outcomes: str = "auto", discards: str = "each"
) -> int:
    """The number of sequences of `depth` legal moves from here, chance moves included (a
    sequence that ends early, the game over, is not counted). 1 at depth 0. `discards`:
    as `legal_moves` lists them; the count is the same in either form (a compact discard
    counts as every discard it stands for, and below it each is played)."""
    if depth <= 0:
        return 1
    found = legal_moves(g, players, hidden_outcomes, discards)
    if depth == 1:
        return len(found) if discards == "each" else sum(ways(g, m) for m in found)
    return sum(_below(g, m, depth - 1, players, hidden_outcomes, discards) for m in found)


def _below(g: State, message: Message, depth: int, players: Optional[int], hidden_outcomes: str, discards: str) -> int:
    """Perft of `depth` after `message`: after each discard it stands for, if compact."""
    each = expanded(g, message) if discards == "compact" else [message]
    return sum(perft(_child(g, m), depth, players, hidden_outcomes, discards) for m in each)


def divide(
    g: State, depth: int, players: Optional[int] = None, hidden_outcomes: str = "auto", discards: str = "each"
) -> Iterator[Tuple[Message, int]]:
    """Each legal move from here with the perft count of `depth - 1` after it (`depth` at
    least 1), one at a time: where two generators part, as chess engines' `divide` shows it.
    A compact discard's count is the sum over the discards it stands for."""
    for m in legal_moves(g, players, hidden_outcomes, discards):
        if depth == 1:
            yield m, ways(g, m) if discards == "compact" else 1
        else:
            yield m, _below(g, m, depth - 1, players, hidden_outcomes, discards)


__all__ = ["divide", "perft"]
