"""Trades: between players in a turn, with the bank at the rates the player's harbors give."""

from __future__ import annotations

from typing import List

from ..diagnostic import Problem
from ..rules import show_cost
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
    gives = [(name, {r: -n for r, n in side.items() if n < 0}) for name, side in ((a, ra), (b, rb))]
    if not ledger.can_give(g, gives):
        for name, given in gives:
            if not ledger.could_give(g, name, given):
                problems.append(
                    Problem(
                        "bank-empty" if name == ledger.BANK else "not-held",
                        "/2",
                        f"{ledger.holds(g, name)}; the trade takes {show_cost(given)}",
                    )
                )
    ledger.shift(g, a, ra)
    ledger.shift(g, b, rb)
    return problems
