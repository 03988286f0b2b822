"""Cards and the bank: paying, taking, production, and what is known of hands the log does
not show whole. A hand is either known (`Player.hand`, `State.bank`: the fast path of a
log that shows everything) or in doubt (`State.unseen.doubt`, `sgn/game/doubt.py`); every move
of cards goes through here, so that the rules never ask which.

Longer than 400 lines for that reason: the one door every card passes (t/test_unseen.py
fails if another module moves one), with the fast paths of hands all known beside the
general ones, so that a log that shows every card pays for no doubt."""

from __future__ import annotations

from typing import Callable, Dict, Final, Iterable, List, Mapping, Optional, Sequence, Tuple

from .. import rules
from ..board import Tile
from ..diagnostic import Problem
from ..layers.hidden import HIDDEN
from ..rules import RESOURCES, show_cost, show_hand
from . import doubt as doubts
from .bank_pays import ways
from .doubt import Doubt, Taken
from .pieces import Income, Player
from .state import State

BANK: Final = "B"


def cards_of(g: State, name: str) -> Dict[str, int]:
    """The cards of a holder not in doubt (for one in doubt, what it held when it went in)."""
    return g.bank if name == BANK else g.player(name).hand


def in_doubt(g: State, *names: str) -> bool:
    d = g.unseen.doubt
    if d is None:  # (the common case: a log that shows every card)
        return False
    for name in names:
        if name in d:
            return True
    return False


def involve(g: State, names: Iterable[str]) -> Doubt:
    """The doubt, with `names` in it (as they are known now, if they were not)."""
    d = g.unseen.doubt
    if d is None:
        d = g.unseen.doubt = Doubt([], {()})
    for name in names:
        if name not in d:
            d.add(name, cards_of(g, name), g.line)
    return d


def settle(g: State) -> None:
    """After a move of cards in doubt: holders known again leave the doubt (their cards
    kept as known again), and worlds past the bound are merged (said once). The known
    cards of a holder in doubt are not kept up to date: `State.hand_range` tells them."""
    d = g.unseen.doubt
    if d is None:
        return
    if doubts.bound(d) and g.unseen.widened_at is None:
        g.unseen.widened_at = g.line
    for name, hand in d.settled().items():
        cards_of(g, name).update(hand)
    if not d.holding():
        g.unseen.doubt = None


def join(g: State, other: State) -> None:
    """Make the hands of `g` every way they lie in `g` or in `other`, a state alike but for
    the hands (`State.public_key`): two readings of a log as one (`other` is spent)."""
    names = [BANK] + sorted(set(g.players) | set(other.players))
    holders = [
        name
        for name in names
        if in_doubt(g, name) or in_doubt(other, name) or cards_of(g, name) != cards_of(other, name)
    ]
    if not holders:
        return
    mine, theirs = involve(g, holders), involve(other, holders)
    mine.union(theirs)
    settle(g)


def holds(g: State, name: str) -> str:
    """What a holder holds, in words: its cards, or the least and most of each in doubt."""
    who = "the bank" if name == BANK else f"player {name}"
    d = g.unseen.doubt
    if d is None or name not in d:
        return f"{who} holds {show_hand(cards_of(g, name))}"
    least, most = d.bounds(name)
    shown = " ".join(f"{r}{least[r]}" if least[r] == most[r] else f"{r}{least[r]}-{most[r]}" for r in RESOURCES)
    return f"{who} holds {shown} here ({_since(g, d, name)})"


def holds_now(g: State, name: str) -> Callable[[], str]:
    """`holds` as it is now, put in words only when asked: a move of cards that may fail
    says what was held before it, and it seldom fails (the words cost more than the move)."""
    d = g.unseen.doubt
    if d is not None and name in d:
        said = holds(g, name)
        return lambda: said
    who = "the bank" if name == BANK else f"player {name}"
    held = dict(cards_of(g, name))
    return lambda: f"{who} holds {show_hand(held)}"


def _since(g: State, d: Doubt, name: str) -> str:
    line = d.since.get(name)
    return "not all of it shown" + (f" since line {line}" if line else "")


def total_range(g: State, name: str) -> Tuple[int, int]:
    """The least and most cards a player may hold in all."""
    if in_doubt(g, name):
        assert g.unseen.doubt is not None
        return g.unseen.doubt.totals(name)
    n = rules.total(g.player(name).hand)
    return n, n


def can_give(g: State, needs: Sequence[Tuple[str, Dict[str, int]]]) -> bool:
    """Whether each holder of `needs` holds what it names, at once (in some world: the
    worlds where they do not are dropped)."""
    d = g.unseen.doubt
    doubted = []
    for name, need in needs:
        if d is not None and name in d:
            doubted.append((name, need))
            continue
        held = cards_of(g, name)  # (a holder known: its counts alone, as in every world)
        for r, n in need.items():
            if held.get(r, 0) < n:
                return False
    return d.keep(doubted) if d is not None and doubted else True


def could_give(g: State, name: str, need: Mapping[str, int]) -> bool:
    """Whether a holder may hold `need` (in some world), changing nothing."""
    d = g.unseen.doubt
    if d is None or name not in d:
        return not rules.lacks(cards_of(g, name), need)
    return d.admits([(name, need)])


def could_give_all(g: State, needs: Sequence[Tuple[str, Mapping[str, int]]]) -> bool:
    """Whether each holder of `needs` may hold what it names at once (in one world), changing
    nothing: `can_give` without keeping the worlds (the move generator's question)."""
    d = g.unseen.doubt
    known = all(could_give(g, name, need) for name, need in needs if d is None or name not in d)
    doubted = [(name, need) for name, need in needs if d is not None and name in d]
    return known and (not doubted or (d is not None and d.admits(doubted)))


def could_hold(g: State, name: str, count: int) -> bool:
    """Whether a holder may hold `count` cards in all (in some world)."""
    return total_range(g, name)[1] >= count if name != BANK else True


def transfer(g: State, src: str, dst: str, amounts: Dict[str, int]) -> None:
    """`src` gives `dst` the cards `amounts` names, as far as it holds them."""
    d = g.unseen.doubt
    if d is None or (src not in d and dst not in d):
        give, take = cards_of(g, src), cards_of(g, dst)
        for r, n in amounts.items():
            moved = min(n, give[r])
            give[r] -= moved
            take[r] += moved
        return
    if src in d and dst not in d and d.holds_everywhere(src, amounts):
        d.shift(src, {r: -n for r, n in amounts.items()})
        take = cards_of(g, dst)
        for r, n in amounts.items():
            take[r] += n
    elif src not in d:
        give = cards_of(g, src)
        paid = {r: min(n, give[r]) for r, n in amounts.items()}
        for r, k in paid.items():
            give[r] -= k
        d.shift(dst, paid)
    else:
        involve(g, [dst]).move(src, dst, amounts)
    settle(g)


def swap_known(g: State, a: str, ra: Dict[str, int], b: str, rb: Dict[str, int]) -> bool:
    """A trade's two sides (`ra` added to `a`'s cards, `rb` to `b`'s), made at once where
    every hand is known, no card is hidden and each side holds what it gives: the common
    case, without the words and worlds of the rest. False, nothing changed, otherwise."""
    if g.unseen.doubt is not None or HIDDEN in ra or HIDDEN in rb:
        return False
    ha, hb = cards_of(g, a), cards_of(g, b)
    if ha is hb:  # (one hand on both sides: each side judged on the hand before either)
        if any(n < 0 and ha[r] + n < 0 for r, n in ra.items()) or any(n < 0 and hb[r] + n < 0 for r, n in rb.items()):
            return False
        _add(ha, ra)
        _add(hb, rb)
        return True
    # made as it is checked, in one pass a side, and undone where a side does not hold what it gives
    if not _add_holding(ha, ra):
        return False
    if not _add_holding(hb, rb):
        _take_back(ha, ra, len(ra))
        return False
    return True


def _add(hand: Dict[str, int], delta: Dict[str, int]) -> None:
    for r, n in delta.items():
        hand[r] += n


def _add_holding(hand: Dict[str, int], delta: Dict[str, int]) -> bool:
    """Add `delta` to `hand`, or nothing (False) if a count given would go below zero (a count
    gained never does)."""
    done = 0
    for r, n in delta.items():
        left = hand[r] + n
        if n < 0 and left < 0:
            _take_back(hand, delta, done)
            return False
        hand[r] = left
        done += 1
    return True


def _take_back(hand: Dict[str, int], delta: Dict[str, int], count: int) -> None:
    """Undo the first `count` counts of `delta` added to `hand`."""
    for r, n in delta.items():
        if count <= 0:
            return
        hand[r] -= n
        count -= 1


def shift(g: State, sides: Sequence[Tuple[str, Mapping[str, int]]]) -> None:
    """Add each side's delta to its holder's cards (never below zero): the sides of a trade,
    those in doubt in one pass over the worlds."""
    d = g.unseen.doubt
    doubted: Dict[str, Mapping[str, int]] = {}
    for name, delta in sides:
        if d is not None and name in d:
            before = doubted.get(name, {})  # (a holder on both sides: the two added)
            doubted[name] = {r: before.get(r, 0) + delta.get(r, 0) for r in {*before, *delta}}
            continue
        holder = cards_of(g, name)
        for r, n in delta.items():
            holder[r] = max(0, holder[r] + n)
    if d is not None and doubted:
        d.shift_all(doubted)
        settle(g)


def pay(g: State, p: Player, cost: Dict[str, int], what: str, pointer: str = "/1") -> List[Problem]:
    """Take a cost from a hand into the bank; a hand never goes below zero."""
    problems = []
    if not can_give(g, [(p.name, cost)]):
        problems.append(
            Problem(
                "cannot-afford",
                pointer,
                f"{holds(g, p.name)}; {what} costs {show_cost(cost)}",
                "production is inferred from the rolls: check the rolls and trades before",
            )
        )
    transfer(g, p.name, BANK, cost)
    return problems


def move_unseen(g: State, src: str, dst: str, count: int, allowed: Optional[Callable[[Taken], bool]] = None) -> bool:
    """`src` gives `dst` `count` cards of kinds not shown (a steal or discard unseen, or
    lost), each way `allowed` admits (given the count of each kind taken); False when
    there is none (nothing moves then)."""
    if count <= 0:
        return True
    d = involve(g, [src, dst])
    moved = d.move_unseen(src, dst, count, allowed)
    settle(g)
    return moved


def hand_over(
    g: State, src: str, dst: str, given: Dict[str, int], allowed: Optional[Callable[[Taken], bool]] = None
) -> bool:
    """`src` gives `dst` the cards `given` names, `?` counting cards of kinds not shown
    (`allowed` judges those, given the count of each kind); False when no way the cards
    lie allows it (then it gives what it can)."""
    unseen = given.get(HIDDEN, 0)
    known = {r: n for r, n in given.items() if r != HIDDEN} if unseen else given
    ok = can_give(g, [(src, known)])
    transfer(g, src, dst, known)
    if unseen and not move_unseen(g, src, dst, unseen, allowed):
        ok = False
        if allowed is not None:  # (as far as it goes: any kinds)
            move_unseen(g, src, dst, unseen)
    return ok


# The worlds a roll not seen gathers (its ten numbers' productions) before they are merged
# to the bound: merging less often is faster (an all-hidden 4-player game checks in a third
# of the time) and never less exact; five times the bound keeps their memory within
# docs/performance.md's 64 MB (bench/bench_hidden.py).
GATHERED_WORLDS: Final = 5 * doubts.MAX_WORLDS


def lose_roll(g: State, player: str) -> None:
    """A roll not seen, not a 7 (hidden, or lost in a reading after a fault): each number's
    production is a way the cards may lie."""
    g.rolled, g.free_roads = True, 0
    owners = sorted({i.owner.name for entries in g.income.values() for i in entries.values()})
    if not owners:
        return
    before = involve(g, owners + [BANK])
    productions = [_wants(_paying(g, number)) for number in range(2, 13) if number != rules.ROBBER_ROLL]
    ways, merged = doubts.any_of(before, productions, g.bank_flags, GATHERED_WORLDS)
    if merged and g.unseen.widened_at is None:
        g.unseen.widened_at = g.line
    g.unseen.doubt = ways
    settle(g)


def lose_cards(g: State, name: str, most: int, spread: int = 0) -> None:
    """A message the log lost changed player `name`'s hand (a reading after a fault): it
    may hold up to `most` fewer cards of each resource, and up to `spread` more, than
    counted; the bank the other way round. Known within those bounds from now on."""
    d = involve(g, [name, BANK])
    d.widen(name, most, spread)
    d.widen(BANK, spread, most)
    settle(g)


def take_from_bank(g: State, p: Player, wanted: Dict[str, int], pointer: str) -> List[Problem]:
    problems = []
    if not in_doubt(g, BANK):
        for r, n in wanted.items():
            if g.bank[r] < n:
                problems.append(
                    Problem("bank-empty", pointer, f"the bank has {g.bank[r]} {rules.RESOURCE_NAMES[r]} left, not {n}")
                )
    elif not can_give(g, [(BANK, wanted)]):
        problems.append(Problem("bank-empty", pointer, f"{holds(g, BANK)}; {show_cost(wanted)} is wanted from it"))
    transfer(g, BANK, p.name, wanted)
    return problems


def produce(g: State, number: int) -> None:
    entries = g.income.get(number)
    if not entries:
        return
    robber, bank = g.robber, g.bank
    # the robber's tile as two numbers: a tile compared whole would be made an object each time
    anywhere = robber is None
    rq, rr = robber if robber is not None else (0, 0)
    d = g.unseen.doubt
    if d is None:  # the common case: every hand known; the bank pays out as it goes
        floor = g.bank_extra if g.bank_departs else 0  # (under a profile, the rulebook's bank's stock)
        lacking = False
        for income in entries.values():
            if _pays(income.tile, anywhere, rq, rr):
                resource, cards = income.resource, income.cards
                left = bank[resource] - cards
                bank[resource] = left
                income.owner.hand[resource] += cards
                if left < floor:
                    lacking = True
        if not lacking:  # (the bank had enough: it pays all, in every way, `ways`)
            return
        for income in entries.values():  # short: the bank and the hands as they were, and the rule below
            if _pays(income.tile, anywhere, rq, rr):
                bank[income.resource] += income.cards
                income.owner.hand[income.resource] -= income.cards
    elif BANK in d:
        _produce_in_doubt(g, _paying(g, number))
        return
    wanted: Dict[str, int] = {}  # resource -> cards owed in all
    for income in entries.values():
        if _pays(income.tile, anywhere, rq, rr):
            wanted[income.resource] = wanted.get(income.resource, 0) + income.cards
    short = [r for r, n in wanted.items() if n > bank[r]]
    if g.bank_departs:  # (under a profile, short where the rulebook's bank is short)
        short = [r for r, n in wanted.items() if n > bank[r] - g.bank_extra]
    if not short and d is not None:  # the bank has enough (and pays all, in every way: `ways`)
        for r, n in wanted.items():
            bank[r] -= n
        _paid_in_full_in_doubt(g, d, _paying(g, number))
        return
    if g.bank_departs or d is not None:  # the engine's bank and the rulebook's may pay otherwise
        _produce_in_doubt(g, _paying(g, number))  # (worlds), or hands in doubt
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
        for p, n in zip(owed, ways(bank[r], list(owed.values()), g.bank_flags)[0]):
            p.hand[r] += n
            bank[r] -= n


def _produce_in_doubt(g: State, paying: list) -> None:
    """Production with a bank short or in doubt and some hands in doubt, or a bank that may
    have paid two ways: with the bank known and paying one way, the same cards go to each
    owner in every world (`produce`'s rule, on the known bank); else world by world
    (`doubt.produce`)."""
    if not paying:
        return
    wants = _wants(paying)
    flags = g.bank_flags
    if (
        g.bank_departs  # (`pays_otherwise` of the flags; else one way, always: `bank_pays.ways`)
        and not (BANK in g.unseen.doubt if g.unseen.doubt is not None else False)
        and any(len(ways(g.bank[r], [n for _, n in owed], flags)) > 1 for r, owed in wants.items())
    ):
        involve(g, [BANK])
    d = g.unseen.doubt
    if d is not None and BANK in d:
        involve(g, [name for owed in wants.values() for name, _ in owed])
        doubts.produce(d, wants, flags)
        settle(g)
        return
    gains: Dict[str, Dict[str, int]] = {}
    for r, owed_list in wants.items():
        owed = dict(owed_list)
        (pay,) = ways(g.bank[r], list(owed.values()), flags)
        for name, n in zip(owed, pay):
            if n:
                gains.setdefault(name, {})[r] = n
                g.bank[r] -= n
    doubted: Dict[str, Dict[str, int]] = {}
    for name, gain in gains.items():
        if d is not None and name in d:
            doubted[name] = gain
        else:
            hand = g.player(name).hand
            for r, n in gain.items():
                hand[r] += n
    if d is not None and doubted:
        d.shift_all(doubted)
    settle(g)


def _paid_in_full_in_doubt(g: State, d: Doubt, paying: List[Income]) -> None:
    """A roll the known bank pays in full, some owners in doubt: the same cards to each in
    every world (one shift), to the others in hand (the bank paid out already)."""
    gains: Dict[str, Dict[str, int]] = {}
    for income in paying:
        owner = income.owner
        if owner.name in d:
            gain = gains.setdefault(owner.name, {})
            gain[income.resource] = gain.get(income.resource, 0) + income.cards
        else:
            owner.hand[income.resource] += income.cards
    if gains:
        d.shift_all(gains)
    settle(g)


def _paying(g: State, number: int) -> List[Income]:
    """The incomes a roll of `number` pays (the robber's tile pays nothing)."""
    return [i for i in g.income.get(number, {}).values() if i.tile != g.robber]


def _wants(paying: List[Income]) -> Dict[str, List[Tuple[str, int]]]:
    """Resource -> (owner, cards) owed, for the incomes paid."""
    wants: Dict[str, Dict[str, int]] = {}
    for i in paying:
        owed = wants.setdefault(i.resource, {})
        owed[i.owner.name] = owed.get(i.owner.name, 0) + i.cards
    return {r: sorted(owed.items()) for r, owed in wants.items()}


def _pays(tile: Tile, anywhere: bool, rq: int, rr: int) -> bool:
    """Whether a tile produces: the robber (at rq, rr, unless `anywhere`) is not on it."""
    return anywhere or tile[0] != rq or tile[1] != rr


__all__ = ["BANK", "show_hand"]
