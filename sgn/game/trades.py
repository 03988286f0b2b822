"""Trades: between players in a turn, with the bank at the rates the player's harbors give."""

from __future__ import annotations

from typing import List

from ..diagnostic import Problem
from ..rules import show_cost, show_hand
from . import ledger
from .pieces import bank_rate_problems
from .state import State


def trade(g: State, player: str, value, discard: bool) -> List[Problem]:
    first, second = value
    a, ra, b, rb = first["player"], first["resources"], second["player"], second["resources"]
    problems = []
    if discard:
        problems.append(
            Problem("discard-not-owed", "/2", "a one-sided trade to the bank is a discard, and no discard is owed")
        )
    current = g.current
    if current != a and current != b:
        problems.append(
            Problem(
                "not-your-turn",
                "/0",
                f"player {current} is not part of this trade, during their own turn",
                "players trade only with the player whose turn it is",
            )
        )
    if not g.rolled:
        problems.append(Problem("roll-first", "/1", "a trade before the dice are rolled"))
    if (a == "B" or b == "B") and not discard:
        me, mine = (a, ra) if b == "B" else (b, rb)
        problems += bank_rate_problems(g.player(me), mine)
    _check_side(g, a, ra, problems)
    _check_side(g, b, rb, problems)
    _move(g, a, ra)
    _move(g, b, rb)
    return problems


def _check_side(g: State, name: str, resources, problems: List[Problem]) -> None:
    """What one side of a trade gives that it does not hold (the bank's, unless unknown)."""
    if name == "B":
        if g.uncertain or g.bank_unsure:
            return  # after a lost roll or message, the bank is not known
        holder = g.bank
    else:
        party = g.player(name)
        if party.unsure:
            ledger.reveal(g, party, {r: -n for r, n in resources.items() if n < 0})
        holder = party.hand
    for r, n in resources.items():
        if holder[r] + n < 0:
            given = {r: -n for r, n in resources.items() if n < 0}
            who = f"the bank holds {show_hand(g.bank)}" if name == "B" else g.players[name].holds()
            problems.append(
                Problem("bank-empty" if name == "B" else "not-held", "/2", f"{who}; the trade takes {show_cost(given)}")
            )
            return


def _move(g: State, name: str, resources) -> None:
    holder = g.bank if name == "B" else g.player(name).hand
    for r, n in resources.items():
        holder[r] = max(0, holder[r] + n)
