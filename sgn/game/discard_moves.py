"""The discards owed after a 7, as legal moves: each multiset of the hand, or one message.

Where a hand must give half of many cards, its ways are thousands (a hand of 30 cards of
five kinds gives 15 in 1,451 ways), and listing each costs more than every other move of
the position. `legal_moves(discards="compact")` lists each owed discard of a known hand
once, as the discard whose cards are not shown (`?`, the form a partial log writes it in,
docs/hidden.md), which `apply` reads; perft counts it as the ways it stands for, so that
its counts are the same in either form (docs/moves.md, "A discard in one message")."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from .. import messages, rules
from ..messages import HIDDEN
from ..rules import RESOURCES
from . import move_forms as forms
from .state import State

DISCARD_FORMS = ("each", "compact")  # how legal_moves lists a discard owed: each multiset, or one message


def listed(g: State, name: str, amount: Optional[int], compact_form: bool) -> List[List[Any]]:
    """Every multiset of `amount` cards the player may hold (one message, `compact`, if
    `compact_form` and the hand is known); where the hand is in doubt or the amount is (a
    hand whose count differs between the ways the cards lie), every one within the bounds
    of the hand, for `moves._accepted` to try."""
    least, most = g.hand_range(name)
    if compact_form and amount is not None and least == most:
        return [compact(name, amount)]
    if amount is not None:
        amounts = [amount]
    else:
        low, high = sum(least.values()), sum(most.values())
        amounts = list(range(max(low // 2, (rules.DISCARD_ABOVE + 1) // 2), high // 2 + 1))
    held = [most[r] for r in RESOURCES]
    return [
        messages.discard(name, {r: n for r, n in zip(RESOURCES, counts) if n})
        for counts in forms.discard_counts(name, held, amounts, least != most)
    ]


def compact(name: str, amount: int) -> List[Any]:
    """The discard of `amount` cards of player `name`, which not said."""
    return messages.discard(name, {HIDDEN: amount})


def is_compact(message: Sequence[Any]) -> bool:
    """Whether `message` is a discard whose cards are all unsaid, as `compact` writes it."""
    if len(message) != 3 or message[1] != "TR" or not isinstance(message[2], list) or len(message[2]) != 2:
        return False
    mine, bank = message[2]
    return (
        isinstance(mine, dict)
        and isinstance(bank, dict)
        and mine.get("player") == message[0]
        and bank.get("player") == "B"
        and isinstance(mine.get("resources"), dict)
        and list(mine["resources"]) == [HIDDEN]
    )


def _hand(g: State, message: Sequence[Any]) -> List[int]:
    hand = g.players[message[0]].hand
    return [hand[r] for r in RESOURCES]


def ways(g: State, message: Sequence[Any]) -> int:
    """How many discards `message` stands for: 1 unless it is compact."""
    if not is_compact(message):
        return 1
    return forms.ways(_hand(g, message), -message[2][0]["resources"][HIDDEN])


def expanded(g: State, message: Sequence[Any]) -> List[List[Any]]:
    """The discards `message` stands for, each multiset in the order `legal_moves` lists them
    (itself where it is not compact); `TooManyMoves` past `move_forms.MAX_DISCARD_WAYS`."""
    if not is_compact(message):
        return [list(message)]
    return listed(g, message[0], -message[2][0]["resources"][HIDDEN], False)


__all__ = ["DISCARD_FORMS", "compact", "expanded", "is_compact", "listed", "ways"]
