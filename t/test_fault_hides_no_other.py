"""One bad line never hides the others: what a fault leaves in doubt is exactly what its
readings disagree on (docs/hidden.md, "After a fault"), so a later move that is illegal
whatever the fault was is reported at its line; and a line an earlier layer refused is
one error, not two."""

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import sgn
from sgn.game import Game
from sgn.play import random_game


def errors(lines):
    lines = [m if isinstance(m, str) else json.dumps(m) for m in lines]
    return [(d.line, d.code) for d in sgn.iter_diagnostics(lines, level="rules") if d.is_error]


def _states(game):
    state = Game()
    for i, m in enumerate(game):
        yield i, state
        state.apply(m, i + 1)


def _unbalanced_trade(game, after):
    """The first trade after `after` made unbalanced (a card more given than the other side
    gets): (index, the faulty message, the player giving)."""
    for i, m in enumerate(game):
        if i > after and m[1] == "TR" and len(m[2]) == 2 and all(s["player"] != "B" or True for s in m[2]):
            side = m[2][0]
            gives = [r for r, n in side["resources"].items() if n < 0]
            if gives and any(s["player"] == "B" for s in m[2]) and side["player"] != "B":
                bad = json.loads(json.dumps(m))
                bad[2][0]["resources"][gives[0]] -= 1
                return i, bad, side["player"]
    return None


def _city_nobody_can_pay(game, start, avoid):
    """A place after `start` for a city that its player cannot pay for in any reading of a
    fault before it touching player `avoid` only: (index, message), a player other than
    `avoid` whose turn it is, holding fewer than 3 ore, with a settlement."""
    for i, state in _states(game):
        if i <= start or state.phase != "turns" or not state.rolled or state.robber_due or state.discards_owed:
            continue
        if state.steal_from or state.current in (None, avoid):
            continue
        p = state.players[state.current]
        if p.hand["O"] < 3 and p.settlements and game[i][0] == state.current:
            corner = sorted(p.settlements)[0]
            return i, [state.current, "BC", {"intersection": [list(t) for t in corner]}]
    return None


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 5000), st.sampled_from([3, 4]), st.integers(15, 60))
def test_a_move_illegal_whatever_a_fault_was_is_reported_after_it(seed, players, after):
    game = random_game(seed, players)
    first = _unbalanced_trade(game, after)
    if first is None:
        return
    i, bad, giver = first
    # the trade moves no ore: whatever it was, nobody's ore is in doubt after it
    second = _city_nobody_can_pay(game, i + 1, None if "O" not in bad[2][0]["resources"] else giver)
    if second is None:
        return
    j, city = second
    log = game[:i] + [bad] + game[i + 1 : j] + [city] + game[j:]
    found = errors(log)
    assert (i + 1, "trade-unbalanced") in found
    assert (j + 1, "cannot-afford") in found, found


def test_the_issue_example_a_trade_fault_then_a_city_without_ore():
    """A trade made unbalanced, and some lines later a city its player cannot pay: two
    errors (the trade's readings differ only in what it moved; nothing about ore is in doubt)."""
    found = 0
    for seed in range(40):
        game = random_game(seed, 3)
        first = _unbalanced_trade(game, 15)
        if first is None:
            continue
        i, bad, giver = first
        if "O" in bad[2][0]["resources"]:
            continue
        second = _city_nobody_can_pay(game, i + 10, None)
        if second is None:
            continue
        j, city = second
        log = game[:i] + [bad] + game[i + 1 : j] + [city] + game[j:]
        assert errors(log)[:2] == [(i + 1, "trade-unbalanced"), (j + 1, "cannot-afford")]
        found += 1
    assert found >= 5


@pytest.mark.parametrize(
    "spoil",
    [
        lambda line: "garbage",
        lambda line: line[:-1] + ",]",
        lambda line: line[:-1],
        lambda line: line.replace('"RD"', '"RL"'),
        lambda line: line.replace('"RD"', '"XX"'),
        lambda line: line.replace('"result"', '"resul"'),
    ],
    ids=["garbage", "trailing-comma", "missing-bracket", "code-RL", "code-XX", "misspelt-key"],
)
@pytest.mark.parametrize("seven", [False, True])
def test_a_refused_roll_line_is_one_error(spoil, seven):
    for seed in range(6):
        game = random_game(seed, 4)
        lines = [json.dumps(m) for m in game]
        rolls = [
            i
            for i, m in enumerate(game)
            if m[1] == "RD" and i > 30 and (m[2]["result"] == 7) == seven and game[i - 1][0] != m[0]
        ]
        for i in rolls[:3]:
            log = lines[:i] + [spoil(lines[i])] + lines[i + 1 :]
            found = errors(log)
            assert [line for line, _ in found] == [i + 1], (seed, i, found)
