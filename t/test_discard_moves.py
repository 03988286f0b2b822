"""A discard in one message (docs/moves.md, "A discard in one message"): `discards="compact"`
lists a known hand's discard owed once, its cards `?`; it stands for exactly the discards
the full list gives, `apply` reads it, and perft counts the same in either form."""

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import sgn
from conftest import run_cli, scaled
from sgn.diagnostic import ERROR
from sgn.game.discard_moves import expanded, is_compact, ways
from sgn.game.errors import TooManyMoves
from sgn.game.perft import divide, perft
from sgn.notation.redact import hide
from sgn.play import random_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from hoard import hoarded  # noqa: E402


def _owed_positions(messages):
    """The positions of a game where a discard is owed, each a copy."""
    state = sgn.game.Game()
    for n, message in enumerate(messages, 1):
        state.apply(message, n)
        if state.discards_owed:
            yield state.clone()


def _assert_stands_for_the_full_list(state):
    listed = state.legal_moves()
    compact = state.legal_moves(discards="compact")
    assert [m for m in compact if is_compact(m)], "a discard owed by a known hand is one message"
    again = [each for m in compact for each in expanded(state, m)]
    assert again == listed  # the same moves, in the same order
    assert sum(ways(state, m) for m in compact) == len(listed)
    for m in compact:
        if is_compact(m):  # apply reads it: the discard of cards not shown
            trial = state.clone()
            assert not [p for p in trial.apply(m, state.line + 1) if p.severity == ERROR]
            assert m[0] not in trial.discards_owed
            assert trial.card_count(m[0]) == state.card_count(m[0]) + m[2][0]["resources"]["?"]


@settings(max_examples=scaled(12), deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4, 5, 6]))
def test_a_compact_discard_stands_for_every_discard_the_list_gives(seed, players):
    messages = random_game(seed, players)
    for state in _owed_positions(messages):
        _assert_stands_for_the_full_list(state)


@pytest.mark.parametrize("seed,cards", [(0, 20), (0, 30), (2, 30), (3, 30)])
def test_a_large_hand_s_discard_is_one_message_standing_for_its_ways(seed, cards):
    state, _ = hoarded(seed, 4, cards)
    _assert_stands_for_the_full_list(state)
    assert perft(state, 1, discards="compact") == perft(state, 1) == len(state.legal_moves())
    assert len(state.legal_moves(discards="compact")) == len(state.discards_owed)


def test_perft_and_divide_count_the_same_in_either_form():
    state, _ = hoarded(0, 4, 20)
    for depth in (1, 2):
        split = list(divide(state, depth, discards="compact"))
        assert sum(n for _, n in split) == perft(state, depth, discards="compact") == perft(state, depth)
        assert [m for m, _ in split] == state.legal_moves(discards="compact")
    listed = dict((json.dumps(m), n) for m, n in divide(state, 2))
    for m, n in divide(state, 2, discards="compact"):
        assert n == sum(listed[json.dumps(each)] for each in expanded(state, m))


def test_a_hand_in_doubt_is_listed_move_by_move_in_either_form():
    """Where the hand or the amount is in doubt, the discards are tried one by one on copies,
    as before: the compact form changes nothing there."""
    met = 0
    for seed in range(40):
        view = [hide(m, None) for m in random_game(seed, 4)]
        state = sgn.game.Game()
        for n, message in enumerate(view, 1):
            state.apply(message, n)
            if state.discards_owed and state.unseen.doubt is not None:
                owed = [name for name in state.discards_owed if state.hand_range(name)[0] != state.hand_range(name)[1]]
                if owed:
                    compact = state.legal_moves(discards="compact")
                    assert not [m for m in compact if is_compact(m) and m[0] in owed]
                    met += 1
        if met >= 3:
            break
    assert met, "no discard owed by a hand in doubt in 40 spectators' views"


def test_a_large_hand_past_the_bound_is_counted_compact_and_not_listed_in_full():
    state, _ = hoarded(0, 4, 30)
    name = next(iter(state.discards_owed))
    from sgn.game import move_forms

    bound = move_forms.MAX_DISCARD_WAYS
    try:
        move_forms.MAX_DISCARD_WAYS = 10
        with pytest.raises(TooManyMoves):
            state.legal_moves()
        compact = state.legal_moves(discards="compact")
        assert perft(state, 1, discards="compact") == sum(ways(state, m) for m in compact) > 10
        with pytest.raises(TooManyMoves):  # (below a compact discard, each is played)
            perft(state, 2, discards="compact")
    finally:
        move_forms.MAX_DISCARD_WAYS = bound
    assert name in state.discards_owed


def test_an_unknown_form_is_a_value_error():
    state, log = hoarded(0, 4, 12)
    with pytest.raises(ValueError, match="discards is one of each, compact"):
        state.legal_moves(discards="some")
    with pytest.raises(ValueError, match="discards is one of each, compact"):
        sgn.moves(log, discards="some")
    assert sgn.moves(log, discards="compact") == state.legal_moves(discards="compact")


def test_the_commands_read_the_form(write):
    state, log = hoarded(0, 4, 30)
    path = write("".join(json.dumps(m) + "\n" for m in log))
    done = run_cli("moves", path, "--discards", "compact")
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.decode().splitlines()] == state.legal_moves(discards="compact")
    counts = {form: run_cli("moves", path, "--discards", form, "--count").stdout for form in ("each", "compact")}
    assert counts["each"] == counts["compact"] == f"{len(state.legal_moves())}\n".encode()
    perfts = {form: run_cli("perft", path, "--depth", 2, "--discards", form).stdout for form in ("each", "compact")}
    assert perfts["each"] == perfts["compact"] == f"{perft(state, 2)}\n".encode()
    split = run_cli("perft", path, "--depth", 1, "--divide", "--discards", "compact")
    assert split.returncode == 0 and split.stdout.decode().splitlines()[-1] == f"total\t{len(state.legal_moves())}"
    piped = run_cli("moves", "-", "--discards", "compact", stdin=path.read_bytes())
    assert piped.stdout == done.stdout
    bad = run_cli("moves", path, "--discards", "some")
    assert bad.returncode == 2 and b"Traceback" not in bad.stderr and b"--discards" in bad.stderr


@pytest.mark.parametrize("outcomes", ["auto", "always", "never"])
@pytest.mark.parametrize("rules", ["standard", "jsettlers", "catanatron"])
def test_the_compact_form_crossed_with_the_outcomes_and_the_rules(write, outcomes, rules):
    """Each way of listing the `?` outcomes, under each rule profile, on the command line:
    the compact list expands to the full one, and the counts agree."""
    state, log = hoarded(2, 4, 20)
    path = write("".join(json.dumps(m) + "\n" for m in log))
    common = ("--hidden-outcomes", outcomes, "--rules", rules)
    full = run_cli("moves", path, *common)
    compact = run_cli("moves", path, *common, "--discards", "compact")
    assert full.returncode == compact.returncode == 0, (full.stderr, compact.stderr)
    listed = [json.loads(line) for line in full.stdout.decode().splitlines()]
    short = [json.loads(line) for line in compact.stdout.decode().splitlines()]
    assert len(short) < len(listed)
    assert [each for m in short for each in expanded(state, m)] == listed
    counted = {
        form: run_cli("perft", path, *common, "--depth", 1, "--discards", form).stdout for form in ("each", "compact")
    }
    assert counted["each"] == counted["compact"] == f"{len(listed)}\n".encode()
