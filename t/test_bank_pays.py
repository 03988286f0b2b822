"""The short bank is one rule (sgn/game/bank_pays.py), the same whether the hands and the
bank are known, the hands in doubt with the bank known, or the bank itself in doubt."""

import itertools
import json

import pytest
from hypothesis import given, settings, strategies as st

import sgn
from sgn.game.bank_pays import AS_PLAYED, paid, ways
from sgn.game.doubt import Doubt, produce
from sgn.game.position import from_messages
from sgn.game.rule_profiles import SHORT_BANK_PAYS_NOBODY, UNLIMITED_BANK, UNLIMITED_EXTRA
from sgn.notation.redact import hide
from sgn.play import random_game
from sgn.rules import RESOURCES


def test_the_rule():
    assert paid(5, [2, 3]) == (2, 3)  # enough: everyone
    assert paid(1, [3]) == (1,)  # short, one owed: what is left
    assert paid(1, [3], rest_to_one=False) == (0,)  # a profile's bank that pays nobody
    assert paid(4, [2, 3]) == (0, 0)  # short, several owed: nobody
    assert paid(0, [1]) == (0,)
    assert paid(-3, [1]) == (0,)  # (an unlimited bank's rulebook stock paid below nothing)


def test_the_ways_a_profile_s_bank_may_have_paid():
    """Under a profile whose bank pays otherwise, a roll may have paid the engine's way or
    the rulebook's (a profile only removes errors); one way where they agree."""
    nobody = frozenset({SHORT_BANK_PAYS_NOBODY})
    assert ways(1, [3], nobody) == [(0,), (1,)]
    assert ways(4, [2, 3], nobody) == [(0, 0)]
    assert ways(5, [2, 3], nobody) == [(2, 3)]
    unlimited = frozenset({UNLIMITED_BANK})
    assert ways(UNLIMITED_EXTRA + 4, [2, 3], unlimited) == [(2, 3), (0, 0)]
    assert ways(UNLIMITED_EXTRA + 1, [3], unlimited) == [(3,), (1,)]
    assert ways(UNLIMITED_EXTRA - 2, [3], unlimited) == [(3,), (0,)]
    assert ways(UNLIMITED_EXTRA + 5, [2, 3], unlimited) == [(2, 3)]
    assert ways(1, [3], frozenset()) == [(1,)]
    assert ways(1, [3], nobody | {AS_PLAYED}) == [(0,)]  # (a game being played: the profile's way alone)
    assert ways(UNLIMITED_EXTRA + 1, [3], unlimited | {AS_PLAYED}) == [(3,)]


def _short(game, number) -> bool:
    """Whether a roll of `number` finds the bank short of a resource it owes."""
    wanted = {}
    for income in game.income.get(number, {}).values():
        if income.tile != game.robber:
            wanted[income.resource] = wanted.get(income.resource, 0) + income.cards
    return any(n > game.bank[r] for r, n in wanted.items())


def _games_with_a_short_roll(count):
    """Generated games in which some roll finds the bank short, with that roll's line."""
    found = []
    for seed in range(400):
        log = random_game(seed, 4)
        game = from_messages(log[:1])
        for line, message in enumerate(log[1:], 2):
            result = message[2].get("result") if message[1] == "RD" else None
            if isinstance(result, int) and result != 7 and _short(game, result):
                found.append((log, line))
                break
            game.apply(message, line)
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} of 400 generated games find the bank short")


@pytest.mark.parametrize("rules", ["standard", "jsettlers"])
def test_a_short_bank_pays_alike_whether_the_bank_is_known_or_in_doubt(rules):
    """In the public view, steals and discards hidden put hands, and through them the bank,
    in doubt: the short roll is then paid world by world. The verdict is the whole log's,
    and the bank's range after the roll holds the bank the whole log gives."""
    for log, line in _games_with_a_short_roll(4):
        public = [hide(m, None) for m in log]
        assert public != log
        whole = sgn.check([json.dumps(m) for m in log], rules=rules).verdict
        assert sgn.check([json.dumps(m) for m in public], rules=rules).verdict == whole
        seen = from_messages(log[:line], rules=rules)
        view = from_messages(public[:line], rules=rules)
        least, most = view.hand_range("B")
        seen_least, seen_most = seen.hand_range("B")  # (two ways under a profile whose bank pays otherwise)
        assert all(least[r] <= seen_least[r] and seen_most[r] <= most[r] for r in least), (line, least, most, seen.bank)


def _reference(world, bank, plan, flags):
    """A roll's payment in one world as `bank_pays.ways` defines it (doubt.py's layout: a
    holder's 5 kinds, each lo then hi): each resource's choices of changes to coordinates,
    one world for each pick of a choice of every resource."""
    choices = []
    for j, places, counts in plan:
        lo, hi = world[bank + j], world[bank + j + 1]
        options = ways(lo, counts, flags)
        if lo != hi and ways(hi, counts, flags) != options:  # a range whose ends pay otherwise
            widened = {bank + j: max(0, lo - sum(counts)) - lo}
            widened.update({at + 1: n for at, n in places})
            choices.append([widened])
            continue
        picks = []
        for pay in options:
            change = {bank + j: -sum(pay), bank + j + 1: -sum(pay)}
            for (at, _), n in zip(places, pay):
                change.update({at: n, at + 1: n})
            picks.append(change)
        choices.append(picks)
    made = set()
    for pick in itertools.product(*choices):
        x = list(world)
        for change in pick:
            for at, n in change.items():
                x[at] += n
        made.add(tuple(x))
    return made


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    owners=st.integers(1, 3),
    flags=st.sampled_from(
        [
            frozenset(),
            frozenset({SHORT_BANK_PAYS_NOBODY}),
            frozenset({UNLIMITED_BANK}),
            frozenset({SHORT_BANK_PAYS_NOBODY, AS_PLAYED}),
            frozenset({UNLIMITED_BANK, AS_PLAYED}),
        ]
    ),
)
def test_a_roll_paid_in_doubt_is_the_rule_in_every_world(data, owners, flags):
    """`doubt.produce` (its quick ways: every world's bank paying all, the rulebook's bank
    written out) makes of each world exactly the worlds `bank_pays.ways` says, ranges of
    counts (a bank known within bounds) included, under each profile's bank."""
    names = [str(k) for k in range(1, owners + 1)]
    more = UNLIMITED_EXTRA if UNLIMITED_BANK in flags else 0
    count = st.integers(0, 6)
    worlds = set()
    for _ in range(data.draw(st.integers(1, 4))):
        world = []
        for holder in names + ["B"]:
            for _ in RESOURCES:
                lo = data.draw(count) + (more if holder == "B" else 0)
                world += [lo, lo + data.draw(st.sampled_from([0, 0, 0, 1, 3]))]
        worlds.add(tuple(world))
    doubt = Doubt(names + ["B"], set(worlds))
    wants = {}
    for r in data.draw(st.lists(st.sampled_from(RESOURCES), min_size=1, max_size=3, unique=True)):
        owed = data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=owners, unique=True))
        wants[r] = sorted((name, data.draw(st.integers(1, 3))) for name in owed)
    bank = doubt.base("B")
    plan = [
        (2 * RESOURCES.index(r), [(doubt.base(o) + 2 * RESOURCES.index(r), n) for o, n in owed], [n for _, n in owed])
        for r, owed in wants.items()
    ]
    expected = set().union(*(_reference(w, bank, plan, flags) for w in worlds))
    produce(doubt, wants, flags)
    assert set(doubt.worlds) == expected and len(doubt.worlds) == len(
        expected
    )  # (a test may read the layout: doubt.py's own)
