"""Hidden values (docs/hidden.md): a log with `?` is judged exactly, as every way of filling
in what it hides would be judged one by one: valid when one of them is a legal game, and
else wrong at the first line that none of them makes legal."""

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import sgn
from hidden_fillings import _partial_logs, fillings  # noqa: E402  (t/ is on the path)
from sgn.game import Game
from sgn.notation.redact import hide
from sgn.play import random_game
from sgn.rules import RESOURCES
from sgn.testing.as_it_stands import first_fault


def errors(messages, **options):
    lines = [m if isinstance(m, str) else json.dumps(m) for m in messages]
    return [(d.line, d.code) for d in sgn.iter_diagnostics(lines, level="rules", **options) if d.is_error]


def first_error(messages):
    found = errors(messages)
    return min(line for line, _ in found) if found else 0


def brute_first_error(messages):
    """The first line that no filling of the log makes legal (0: one makes it all legal)."""
    worst = 0
    for log in fillings(messages):
        line = first_fault(log)
        if line == 0:
            return 0
        worst = max(worst, line)
    return worst


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.integers(0, 10_000),
    st.sampled_from([3, 4]),
    st.integers(25, 110),
    st.integers(1, 3),
    st.booleans(),
)
def test_a_log_with_hidden_values_is_judged_as_every_filling_would_be(seed, players, cut, hidden, mutation):
    log = _partial_logs(seed, players, cut, hidden, mutation)
    if fillings(log) is None:
        return
    assert first_error(log) == brute_first_error(log)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_view_of_a_valid_game_is_valid(players):
    for seed in range(4):
        game = random_game(seed, players)
        for seat in (None,) + tuple(str(n) for n in range(1, players + 1)):
            view = [hide(m, seat) for m in game]
            assert errors(view) == [], (seed, seat)


def test_a_roll_not_seen_is_a_seven_when_the_robber_follows():
    game = random_game(3, 4)
    seven = next(i for i, m in enumerate(game) if m[1] == "RD" and m[2]["result"] == 7 and i > 20)
    other = next(i for i, m in enumerate(game) if m[1] == "RD" and m[2]["result"] != 7 and i > 20)
    for i in (seven, other):
        log = game[:i] + [[game[i][0], "RD", {"result": "?"}]] + game[i + 1 :]
        assert errors(log) == []


def test_a_card_drawn_unseen_can_be_played_later_as_any_kind_the_deck_had():
    game = random_game(5, 4)
    view = [hide(m, None) for m in game]
    assert any(m[1] == "BD" for m in game) and errors(view) == []
    # a Knight played by a player who drew nothing is still no card they hold
    state = Game()
    for n, m in enumerate(view, 1):
        state.apply(m, n)
        if state.phase == "turns" and state.rolled and not state.robber_due and n > 30:
            break
    player = state.current
    p = state.players[player]
    if not (p.cards["KN"] or p.new_cards["KN"] or p.unseen_cards or p.unseen_new):
        log = view[:n] + [[player, "PD", {"cCode": "KN"}]]
        assert (n + 1, "card-not-held") in errors(log)


def test_a_steal_not_seen_is_one_card_of_a_kind_the_victim_held():
    game = random_game(7, 3)
    i = next(i for i, m in enumerate(game) if m[1] == "ST")
    victim = next(s["player"] for s in game[i][2] if s["player"] != game[i][0])
    view = game[:i] + [hide(game[i], None)] + game[i + 1 :]
    state = Game()
    for n, m in enumerate(view[: i + 1], 1):
        state.apply(m, n)
    least, most = state.hand_range(victim)
    before = Game()
    for n, m in enumerate(game[:i], 1):
        before.apply(m, n)
    held = before.players[victim].hand
    assert sum(most.values()) == sum(held.values()) - 1 or least != most
    for r in RESOURCES:  # each kind the victim held may be the one taken
        assert least[r] == max(0, held[r] - 1) if held[r] else most[r] == 0


def test_a_discard_made_late_by_a_hand_in_doubt_is_one_error_in_every_view():
    """A hand whose count is in doubt (8 or 9 cards) owes the same discard either way: its
    discard after the robber's move is the fault the full log shows, and nothing more."""
    import copy

    from sgn.testing.faults import _late_discard

    game, code, line = _late_discard(copy.deepcopy(random_game(39, 6)), 6167)
    assert errors(game) == [(line, code)]
    for seat in (None, "1", "6"):
        assert errors([hide(m, seat) for m in game]) == [(line, code)], seat


def test_a_discard_made_late_by_a_hand_whose_half_is_in_doubt_is_taken_where_it_is_half():
    """Hands of 9 or 10 cards (and 11 or 12) owe 4 or 5: the discard of 5 after the robber's
    move keeps the worlds where it is half the hand, as the full log takes it, and the steal
    that follows is no error (it was one, the discard not taken)."""
    import copy

    from sgn.testing.faults import _late_discard

    game, code, line = _late_discard(copy.deepcopy(random_game(15, 6)), 234)
    assert errors(game) == [(line, code)]
    for seat in (None, "2", "3"):
        view = [hide(m, seat) for m in game]
        assert {n for n, _ in errors(view)} == {line}, seat


def test_a_known_hand_that_cannot_pay_its_side_of_a_trade_with_a_hand_in_doubt_is_told_as_known():
    """A trade between a hand in doubt and a known one that lacks what it gives: the known
    hand is said as it is, not as one "not all of it shown" since the trade's line."""
    for seed in range(40):
        game = random_game(seed, 4)
        steals = [i for i, m in enumerate(game) if m[1] == "ST"]
        if not steals:
            continue
        i = steals[0]
        thief = game[i][0]
        view = game[:i] + [hide(game[i], None)]
        state = Game()
        for n, m in enumerate(view, 1):
            state.apply(m, n)
        if state.unseen.doubt is None or thief not in state.unseen.doubt:
            continue
        least, _ = state.hand_range(thief)
        sure = [r for r in RESOURCES if least[r] > 0]
        known = [n for n in state.players if n != thief and (state.unseen.doubt is None or n not in state.unseen.doubt)]
        if not sure or not known:
            continue
        other, r = known[0], sure[0]
        held = state.players[other].hand
        trade = [
            thief,
            "TR",
            [{"player": thief, "resources": {r: -1, "G": 30}}, {"player": other, "resources": {r: 1, "G": -30}}],
        ]
        if r == "G":
            continue
        found = sgn.check(view + [trade], level="rules").diagnostics
        said = [d.message for d in found if d.code == "not-held" and d.line == len(view) + 1]
        assert said == [f"player {other} holds {' '.join(f'{k}{held[k]}' for k in RESOURCES)}; the trade takes G30"]
        return
    pytest.fail("no game of the first 40 seeds has a steal to try")
