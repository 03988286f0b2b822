"""Recovery after a fault: one fault, one error, whatever the log does next."""
import copy
import json

from hypothesis import given, settings, strategies as st

import sgn
from sgn import recovery, strategies as sgs
from sgn.game import Game
from sgn.play import random_game
from conftest import run_cli

GAME = random_game(5, 4)


def errors(messages, **options):
    lines = [m if isinstance(m, str) else json.dumps(m) for m in messages]
    return [(d.line, d.code) for d in sgn.iter_diagnostics(lines, level="rules", **options) if d.is_error]


def turn_starts(game):
    """The index of each roll that starts a turn, with the state before it."""
    state = Game()
    for i, message in enumerate(game):
        if message[1] == "RD" and message[0] != state.current and state.phase == "turns":
            yield i, state.clone()
        state.apply(message, i + 1)


def test_a_copy_of_the_state_goes_on_as_the_original_does():
    game = random_game(11, 3)
    state = Game()
    for cut in range(0, len(game), 17):
        for n, message in enumerate(game[:cut], 1):
            state = Game() if n == 1 else state
            state.apply(message, n)
        twin = state.clone()
        for n, message in enumerate(game[cut:], cut + 1):
            assert twin.apply(message, n) == state.apply(message, n)
        assert twin.snapshot() == state.snapshot()
        state = Game()


def test_the_setup_count_comes_from_the_first_round_however_the_second_is_ordered():
    setup = [m for m in GAME if m[1] in ("BS", "BR")][:16]
    # the second round in the first round's order: 1 2 3 4 1 2 3 4
    reordered = [GAME[0]] + setup[:8] + setup[14:16] + setup[12:14] + setup[10:12] + setup[8:10]
    found = list(sgn.iter_diagnostics([json.dumps(m) for m in reordered], level="rules"))
    named = {word for d in found for word in d.message.split() if word.isdigit()}
    assert {d.code for d in found if d.is_error} == {"setup-order"}
    assert not named - {"1", "2", "3", "4"}            # no player 5, 6, 7 or 8


def test_a_swap_in_the_setup_is_one_error_naming_the_players():
    swapped = GAME[:3] + GAME[5:7] + GAME[3:5] + GAME[7:]
    found = [d for d in sgn.iter_diagnostics([json.dumps(m) for m in swapped], level="rules") if d.is_error]
    assert [(d.line, d.code) for d in found] == [(4, "setup-order")]
    assert "player 3 places a setup settlement, but it is player 2's turn" in found[0].message


def test_a_discard_after_the_robber_moved_is_one_error_at_the_move():
    game = random_game(0, 3)
    seven = next(i for i, m in enumerate(game) if m[1] == "RD" and m[2]["result"] == 7 and game[i + 1][1] == "TR")
    move = next(j for j in range(seven + 1, len(game)) if game[j][1] == "MR")
    late = game[:seven + 1] + [game[move]] + game[seven + 1:move] + game[move + 1:]
    found = [d for d in sgn.iter_diagnostics([json.dumps(m) for m in late], level="rules") if d.is_error]
    assert [(d.line, d.code) for d in found] == [(seven + 2, "discard-missing")]


def test_an_action_before_the_own_roll_is_roll_first_not_someone_elses_turn():
    # a build or bank trade the player could already pay for, moved before their own roll
    cases = (sgs.GAME_MUTATIONS[-1](random_game(seed, 4), 0) for seed in range(40))
    moved, code, line = next(c for c in cases if c is not None)
    assert code == "roll-first"
    found = [d for d in sgn.iter_diagnostics([json.dumps(m) for m in moved], level="rules") if d.is_error]
    assert [(d.line, d.code) for d in found] == [(line, "roll-first")]
    assert "during player" not in found[0].message           # not someone else's turn


def test_a_lost_roll_is_reported_once_and_its_unknown_payout_is_never_an_error():
    for i, state in turn_starts(GAME):
        if GAME[i + 1][0] == GAME[i][0] and GAME[i + 1][1] in ("BS", "BC", "BR") and GAME[i][2]["result"] != 7:
            break
    lost = GAME[:i] + GAME[i + 1:]
    assert errors(lost) == [(i + 1, "roll-missing")]


def test_what_other_layers_find_while_a_verdict_is_held_back_comes_in_line_order():
    i = next(i for i, _ in turn_starts(GAME) if i > 20)
    broken = GAME[:i] + [GAME[i - 1]] + GAME[i:]             # an extra roll: a fault
    lines = [json.dumps(m) for m in broken]
    lines[i + 2] = '["1","RD",{"result":13}]'               # a schema error right after it
    found = [(d.line, d.code) for d in sgn.iter_diagnostics(lines, level="rules")]
    assert found[:2] == [(i + 1, "already-rolled"), (i + 3, "schema-maximum")]
    assert [d.line for d in sgn.iter_diagnostics(lines, level="rules")] == sorted(
        d.line for d in sgn.iter_diagnostics(lines, level="rules"))


def test_a_fault_near_the_end_is_decided_with_what_the_log_has_left():
    broken = GAME[:-1] + [["1", "RD", {"result": 8}], GAME[-1]]
    found = errors(broken)
    assert len(found) == 1 and found[0][0] == len(GAME)


def test_the_state_at_a_line_within_the_look_ahead_is_the_chosen_reading(tmp_path):
    i = next(i for i, _ in turn_starts(GAME) if i > 20)
    broken = GAME[:i] + [GAME[i - 1]] + GAME[i:]
    path = tmp_path / "g.sgn"
    path.write_text("".join(json.dumps(m) + "\n" for m in broken))
    result = run_cli("replay", path, "--at", str(i + 1), "-o", "json")
    state = json.loads(result.stdout)
    assert result.returncode == 1 and state["line"] == i + 1


def test_readings_are_tried_from_a_copy_and_the_log_is_not_changed():
    game = copy.deepcopy(GAME)
    errors(game[:40] + [game[30]] + game[40:])
    assert game == GAME


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 4))
def test_faults_close_together_are_each_found_and_never_crash(pick, faults):
    """Several inserted faults within one look-ahead: each is reported on its own line."""
    game = copy.deepcopy(GAME)
    spots = sorted({pick % 50 + 60 + 3 * k for k in range(faults)}, reverse=True)
    for spot in spots:
        game.insert(spot, ["1", "MR", {"tile": [9, 9]}])     # a robber off the board: semantic error
    found = errors(game)
    assert {line for line, _ in found} == {s + 1 + sum(1 for t in spots if t < s) for s in spots}


def test_a_checkpoint_is_taken_every_so_many_messages():
    replay = recovery.Replay()
    game = random_game(2, 4)
    for n, message in enumerate(game, 1):
        replay(message, "f", n)
    assert len(replay._since) == len(game) % recovery.CHECKPOINT_EVERY
