"""Trades: between players in a turn, with the bank at the rates the player's harbors give."""

from __future__ import annotations

from typing import Callable, Dict, List

from .. import rules
from ..diagnostic import Problem
from ..layers.hidden import HIDDEN, hidden_count, shown
from ..rules import RESOURCES, show_cost
from . import ledger
from .doubt import Taken
from .pieces import Player, bank_rate_problems, cards
from .state import State


def trade(g: State, player: str, value, discard: bool) -> List[Problem]:
    first, second = value
    a, ra, b, rb = first["player"], first["resources"], second["player"], second["resources"]
    problems = []
    if discard:
        giver = b if a == "B" else a
        held = ledger.total_range(g, giver) if giver in g.players else (0, 0)
        problems.append(
            Problem(
                "discard-not-owed",
                "/2",
                "a one-sided trade to the bank is a discard, and no discard is owed"
                + (
                    f": after a 7, only players holding more than {rules.DISCARD_ABOVE} cards discard, and player "
                    f"{giver} held {held[0] if held[0] == held[1] else f'{held[0]} to {held[1]}'}"
                    if g.robber_due == "seven"
                    else ""
                ),
            )
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
    sides = ((a, ra), (b, rb))
    allowed = None
    if (a == "B" or b == "B") and not discard:
        me, mine = (a, ra) if b == "B" else (b, rb)
        if HIDDEN in mine and hidden_count(mine) > 0:
            allowed = _at_rates(g.player(me), mine)  # (judged for the kinds it may give)
        else:
            problems += bank_rate_problems(g.player(me), mine)
    if ledger.swap_known(g, a, ra, b, rb):
        return problems
    hidden = HIDDEN in ra or HIDDEN in rb
    if hidden:
        ra, rb = shown(ra), shown(rb)
    gives = [(a, {r: -n for r, n in ra.items() if n < 0}), (b, {r: -n for r, n in rb.items() if n < 0})]
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
    ledger.shift(g, [(a, ra), (b, rb)])
    if not hidden:
        return problems
    for (giver, side), (taker, _) in zip(sides, reversed(sides)):
        unseen = hidden_count(side)
        if unseen > 0:
            said = ledger.holds(g, giver)
            if not ledger.move_unseen(g, giver, taker, unseen, allowed):
                problems.append(_unseen_problem(g, giver, unseen, said, allowed is not None))
                ledger.move_unseen(g, giver, taker, unseen)
    return problems


def _at_rates(p: Player, mine: Dict[str, int]) -> Callable[[Taken], bool]:
    """Whether cards of kinds not shown given to the bank (the count of each kind) make the
    trade one at the player's rates."""
    known = shown(mine)

    def allowed(taken: Taken) -> bool:
        side = dict(known)
        for r, n in zip(RESOURCES, taken):
            if n:
                side[r] = side.get(r, 0) - n
        return not bank_rate_problems(p, side)

    return allowed


def _unseen_problem(g: State, giver: str, count: int, said: str, rated: bool) -> Problem:
    if rated and ledger.could_hold(g, giver, count):
        return Problem(
            "trade-rate",
            "/2",
            f"player {giver} gives the bank {cards(count)} not shown, and no kinds they may hold "
            "make that a trade at their rates",
        )
    return Problem("not-held", "/2", f"{said}; the trade takes {cards(count)} not shown")
