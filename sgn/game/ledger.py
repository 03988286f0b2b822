"""Cards and the bank: paying, taking, production, and what a lost message leaves unknown."""

from __future__ import annotations

from typing import Dict, List, Mapping, Tuple

from .. import rules
from ..board import Tile
from ..diagnostic import Problem
from ..rules import show_cost
from .pieces import Player
from .state import State


def pay(g: State, p: Player, cost: Mapping[str, int], what: str, pointer: str = "/1") -> List[Problem]:
    """Take a cost from a hand into the bank; a hand never goes below zero."""
    hand, bank = p.hand, g.bank
    problems = []
    if p.unsure:
        reveal(g, p, cost)
    if any(hand[r] < n for r, n in cost.items()):
        problems.append(
            Problem(
                "cannot-afford",
                pointer,
                f"{p.holds()}; {what} costs {show_cost(cost)}",
                "production is inferred from the rolls: check the rolls and trades before",
            )
        )
    for r, n in cost.items():
        paid = min(n, hand[r])
        hand[r] -= paid
        bank[r] += paid
    return problems


def reveal(g: State, p: Player, cost: Mapping[str, int]) -> None:
    """Cards the hand lacks for `cost` come from those the player may hold unseen: they
    were there (from the bank), as far as the unseen cards go."""
    hand, unseen, bank = p.hand, p.unseen, g.bank
    for r, n in cost.items():
        if n > hand[r] and unseen[r] > 0:
            k = min(n - hand[r], unseen[r])
            hand[r] += k
            unseen[r] -= k
            bank[r] = max(0, bank[r] - k)
    p.unsure = any(unseen.values())


def lose_roll(g: State, player: str) -> None:
    """A roll the log lost, not a 7 (a reading after a fault): what it paid is unknown, so
    each player may hold, unseen, as much of each resource as any number would have paid."""
    g.rolled, g.free_roads = True, 0
    g.uncertain = True
    robber = g.robber
    most: Dict[Tuple[str, str], int] = {}
    for number, entries in g.income.items():
        paid: Dict[Tuple[str, str], int] = {}
        for i in entries.values():
            if i.tile != robber:
                key = (i.owner.name, i.resource)
                paid[key] = paid.get(key, 0) + i.cards
        for key, n in paid.items():
            most[key] = max(most.get(key, 0), n)
    for (name, r), n in most.items():
        p = g.players[name]
        p.unseen[r] += n
        p.unsure = True


def lose_cards(g: State, name: str, most: int, spread: int = 0) -> None:
    """A message the log lost changed player `name`'s hand (a reading after a fault): it
    may hold up to `most` fewer cards of each resource, and up to `spread` more, than
    the replay counts; each is known within those bounds from now on (`unseen`)."""
    p = g.player(name)
    hand, unseen = p.hand, p.unseen
    for r in hand:
        fewer = min(hand[r], most)
        hand[r] -= fewer
        unseen[r] += fewer + spread
    p.unsure = p.unsure or any(unseen.values())
    g.bank_unsure = True


def take_from_bank(g: State, p: Player, wanted: Mapping[str, int], pointer: str) -> List[Problem]:
    problems = []
    for r, n in wanted.items():
        given = min(n, g.bank[r])
        unsure = g.uncertain or g.bank_unsure  # (after a lost message, the bank is not known)
        if given < n and not unsure:
            problems.append(
                Problem("bank-empty", pointer, f"the bank has {g.bank[r]} {rules.RESOURCE_NAMES[r]} left, not {n}")
            )
        g.bank[r] -= given
        p.hand[r] += n if unsure else given
    return problems


def produce(g: State, number: int) -> None:
    entries = g.income.get(number)
    if not entries:
        return
    robber, bank = g.robber, g.bank
    # the robber's tile as two numbers: a tile compared whole would be made an object each time
    anywhere = robber is None
    rq, rr = robber if robber is not None else (0, 0)
    wanted: Dict[str, int] = {}  # resource -> cards owed in all
    for income in entries.values():
        if _pays(income.tile, anywhere, rq, rr):
            wanted[income.resource] = wanted.get(income.resource, 0) + income.cards
    short = [r for r, n in wanted.items() if n > bank[r]]
    if not short:  # the common case: the bank has enough
        for income in entries.values():
            if _pays(income.tile, anywhere, rq, rr):
                income.owner.hand[income.resource] += income.cards
        for r, n in wanted.items():
            bank[r] -= n
        return
    for income in entries.values():
        if _pays(income.tile, anywhere, rq, rr) and income.resource not in short:
            income.owner.hand[income.resource] += income.cards
    for r, n in wanted.items():
        if r not in short:
            bank[r] -= n
    for r in short:
        owed: Dict[Player, int] = {}
        for income in entries.values():
            if _pays(income.tile, anywhere, rq, rr) and income.resource == r:
                owed[income.owner] = owed.get(income.owner, 0) + income.cards
        if g.uncertain or g.bank_unsure:
            # after a lost roll the bank's count is known within bounds only: each owed
            # player may have got their cards (unseen ones), or not
            for p, n in owed.items():
                p.unseen[r] += n
                p.unsure = True
            continue
        if len(owed) == 1:  # one player owed: they get what is left
            for p in owed:
                p.hand[r] += bank[r]
            bank[r] = 0
        # several owed and not enough: nobody gets any


def _pays(tile: Tile, anywhere: bool, rq: int, rr: int) -> bool:
    """Whether a tile produces: the robber (at rq, rr, unless `anywhere`) is not on it."""
    return anywhere or tile[0] != rq or tile[1] != rr
