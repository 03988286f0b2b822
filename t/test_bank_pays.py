"""The short bank is one rule (sgn/game/bank_pays.py), the same whether the hands and the
bank are known, the hands in doubt with the bank known, or the bank itself in doubt."""

import json

import pytest

import sgn
from sgn.game.bank_pays import paid, ways
from sgn.game.position import from_messages
from sgn.game.rule_profiles import SHORT_BANK_PAYS_NOBODY, UNLIMITED_BANK, UNLIMITED_EXTRA
from sgn.notation.redact import hide
from sgn.play import random_game


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
