"""Recovery after a fault: one fault, one error, whatever the log does next."""

import copy
import json

import pytest
from hypothesis import given, settings, strategies as st

import sgn
from conftest import any_message, run_cli, scaled
from sgn.game import Game, games_seen, recovery
from sgn.play import random_game
from sgn.testing import faults as game_faults

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


def extra_roll(game, after=20):
    """The game with a second roll in its first turn after message `after`, of another total
    (a copy of the line would be a line sent twice): (log, faulty line)."""
    i = next(i for i, _ in turn_starts(game) if i > after)
    again = [game[i][0], "RD", {"result": 9 if game[i][2]["result"] != 9 else 8}]
    return game[: i + 1] + [again] + game[i + 1 :], i + 2


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
    assert not named - {"1", "2", "3", "4"}  # no player 5, 6, 7 or 8


def test_a_swap_in_the_setup_is_one_error_naming_the_players():
    swapped = GAME[:3] + GAME[5:7] + GAME[3:5] + GAME[7:]
    found = [d for d in sgn.iter_diagnostics([json.dumps(m) for m in swapped], level="rules") if d.is_error]
    assert [(d.line, d.code) for d in found] == [(4, "setup-order")]
    assert "player 3 places a setup settlement, but it is player 2's turn" in found[0].message


def test_a_discard_after_the_robber_moved_is_one_error_at_the_move():
    game = random_game(0, 3)
    seven = next(i for i, m in enumerate(game) if m[1] == "RD" and m[2]["result"] == 7 and game[i + 1][1] == "TR")
    move = next(j for j in range(seven + 1, len(game)) if game[j][1] == "MR")
    late = game[: seven + 1] + [game[move]] + game[seven + 1 : move] + game[move + 1 :]
    found = [d for d in sgn.iter_diagnostics([json.dumps(m) for m in late], level="rules") if d.is_error]
    assert [(d.line, d.code) for d in found] == [(seven + 2, "discard-missing")]


def test_an_action_before_the_own_roll_is_roll_first_not_someone_elses_turn():
    # a build or bank trade the player could already pay for, moved before their own roll
    cases = (game_faults._before_own_roll(random_game(seed, 4), 0) for seed in range(40))
    moved, code, line = next(c for c in cases if c is not None)
    assert code == "roll-first"
    found = [d for d in sgn.iter_diagnostics([json.dumps(m) for m in moved], level="rules") if d.is_error]
    assert [(d.line, d.code) for d in found] == [(line, "roll-first")]
    assert "during player" not in found[0].message  # not someone else's turn


def test_a_lost_roll_is_reported_once_and_its_unknown_payout_is_never_an_error():
    for i, state in turn_starts(GAME):
        if GAME[i + 1][0] == GAME[i][0] and GAME[i + 1][1] in ("BS", "BC", "BR") and GAME[i][2]["result"] != 7:
            break
    lost = GAME[:i] + GAME[i + 1 :]
    assert errors(lost) == [(i + 1, "roll-missing")]


def test_what_other_layers_find_while_a_verdict_is_held_back_comes_in_line_order():
    broken, fault = extra_roll(GAME)
    lines = [json.dumps(m) for m in broken]
    lines[fault + 1] = '["1","RD",{"result":13}]'  # a schema error two lines after it
    found = [(d.line, d.code) for d in sgn.iter_diagnostics(lines, level="rules")]
    assert found[:2] == [(fault, "already-rolled"), (fault + 2, "schema-maximum")]
    assert [d.line for d in sgn.iter_diagnostics(lines, level="rules")] == sorted(
        d.line for d in sgn.iter_diagnostics(lines, level="rules")
    )


def test_a_fault_near_the_end_is_decided_with_what_the_log_has_left():
    broken = GAME[:-1] + [["1", "RD", {"result": 8}], GAME[-1]]
    found = errors(broken)
    assert len(found) == 1 and found[0][0] == len(GAME)


def test_the_state_at_a_line_within_the_look_ahead_is_the_chosen_reading(tmp_path):
    broken, fault = extra_roll(GAME)
    path = tmp_path / "g.sgn"
    path.write_text("".join(json.dumps(m) + "\n" for m in broken))
    before, at = (json.loads(run_cli("replay", path, "--at", str(n), "-o", "json").stdout) for n in (fault - 1, fault))
    assert at["line"] == fault and before["line"] == fault - 1
    # the extra roll changed nothing but, if it was made, the hands: they are in doubt, and
    # the hands before it (the roll refused) are among the ways they may lie
    public = ("phase", "turn", "current", "rolled", "robber", "deck", "owed", "longest_road", "largest_army")
    assert {k: at[k] for k in public} == {k: before[k] for k in public}
    for name, player in before["players"].items():
        for r, n in player["hand"].items():
            held = at["players"][name]["hand"][r]
            assert held == n or (isinstance(held, list) and held[0] <= n <= held[1]), (name, r)


def test_readings_are_tried_from_a_copy_and_the_log_is_not_changed():
    game = copy.deepcopy(GAME)
    errors(game[:40] + [game[30]] + game[40:])
    assert game == GAME


@settings(max_examples=scaled(30), deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 4))
def test_faults_close_together_are_each_found_and_never_crash(pick, faults):
    """Several inserted faults within one look-ahead: each is reported on its own line."""
    game = copy.deepcopy(GAME)
    spots = sorted({pick % 50 + 60 + 3 * k for k in range(faults)}, reverse=True)
    for spot in spots:
        game.insert(spot, ["1", "MR", {"tile": [9, 9]}])  # a robber off the board: semantic error
    found = errors(game)
    assert {line for line, _ in found} == {s + 1 + sum(1 for t in spots if t < s) for s in spots}


def test_a_checkpoint_is_taken_every_so_many_messages():
    replay = recovery.Replay()
    game = random_game(2, 4)
    for n, message in enumerate(game, 1):
        replay(message, "f", n)
    assert len(replay._since) == len(game) % recovery.CHECKPOINT_EVERY


def test_several_games_in_one_stream_each_from_its_map(tmp_path):
    stream = run_cli("generate", "--games", "3", "--seed", "4").stdout
    result = run_cli("validate", "-", stdin=stream)
    text = result.stdout.decode()
    assert result.returncode == 0 and "valid (rules, 3 games)" in text
    lines = text.splitlines()
    assert lines[0].startswith("<stdin>: game 1 (from line 2): valid: 0 errors, 0 warnings; player ")  # (its map)
    assert [line.split(" (from")[0] for line in lines[1:3]] == ["<stdin>: game 2", "<stdin>: game 3"]
    report = json.loads(run_cli("validate", "-o", "json", "-", stdin=stream).stdout)
    games = report["files"][0]["games"]
    assert [g["game"] for g in games] == [1, 2, 3] and all(g["winner"] for g in games)
    assert games[0]["line"] == 2 and games[1]["line"] > 2 and all(g["result"] == "won" for g in games)


def test_a_fault_is_counted_in_its_own_game_and_a_map_mid_game_is_redefined(tmp_path):
    first, second = random_game(1, 3), random_game(2, 4)
    broken, fault = extra_roll(second)  # an extra roll in game 2
    path = tmp_path / "two.sgn"
    path.write_text("".join(json.dumps(m) + "\n" for m in first + broken))
    report = json.loads(run_cli("validate", "-o", "json", path).stdout)
    assert [(g["errors"], g["line"]) for g in report["files"][0]["games"]] == [(0, 1), (1, len(first) + 1)]
    assert [(d["line"], d["code"]) for d in report["diagnostics"]] == [(len(first) + fault, "already-rolled")]
    midway = first[:50] + [first[0]] + first[50:]
    assert errors(midway) == [(51, "map-redefined")]


def test_games_are_reported_the_same_with_jobs(tmp_path):
    paths = []
    for k in range(4):
        path = tmp_path / f"s{k}.sgn"
        path.write_bytes(run_cli("generate", "--games", "2", "--seed", str(k)).stdout)
        paths.append(path)
    assert run_cli("validate", *paths).stdout == run_cli("validate", "-j", "2", *paths).stdout
    assert (
        run_cli("validate", "-o", "json", *paths).stdout == run_cli("validate", "-o", "json", "-j", "2", *paths).stdout
    )


def test_a_roll_refused_by_the_schema_is_one_error_not_a_broken_turn_too():
    """The replay cannot read a roll of 13, but it was a roll: its turn began, with an unknown
    result (a lost 7 is tried too), and nothing after it is an error."""
    game = random_game(8, 4)
    rolls = [i for i, _ in turn_starts(game)]
    for i in rolls[3 : len(rolls) : max(1, len(rolls) // 25)]:
        broken = copy.deepcopy(game)
        broken[i][2]["result"] = 13
        found = [
            (d.line, d.code) for d in sgn.iter_diagnostics([json.dumps(m) for m in broken], level="rules") if d.is_error
        ]
        assert found == [(i + 1, "schema-maximum")], (i, game[i])


def test_the_games_listed_are_bounded_and_the_rest_are_counted(monkeypatch):
    monkeypatch.setattr(games_seen, "MAX_GAMES_LISTED", 2)
    games = [random_game(seed, 3) for seed in range(4)]
    broken, fault = extra_roll(games[3])
    lines = [json.dumps(m) for g in games[:3] + [broken] for m in g]
    check = sgn.pipeline.engine.FileCheck(lines)
    found = [(d.line, d.code) for d in check]
    assert found == [(sum(map(len, games[:3])) + fault, "already-rolled")]
    assert check.game_count == 4 and [g["game"] for g in check.games] == [1, 2]
    assert [g["errors"] for g in check.games] == [0, 0]  # the fault is in an unlisted game


@settings(max_examples=scaled(40), deadline=None)
@given(st.data())
def test_any_messages_inserted_anywhere_give_diagnostics_in_line_order(data):
    """Faults close together, at the end, inside the look-ahead of others, refused by other
    layers or not: the report never crashes and stays in line order."""
    game = copy.deepcopy(random_game(data.draw(st.integers(0, 30)), 3))
    for _ in range(data.draw(st.integers(1, 8))):
        where = data.draw(st.integers(1, len(game)))
        game.insert(where, data.draw(any_message()))
    lines = [json.dumps(m) for m in game]
    found = [d.line for d in sgn.iter_diagnostics(lines, level="rules")]
    assert found == sorted(found)


def test_a_damaged_gzip_log_reports_in_line_order(tmp_path):
    import gzip

    broken, fault = extra_roll(GAME)
    data = gzip.compress("".join(json.dumps(m) + "\n" for m in broken).encode())
    for cut in range(len(data) // 2, len(data), max(1, len(data) // 40)):
        path = tmp_path / "cut.sgn.gz"
        path.write_bytes(data[:cut])
        found = [d.line or 0 for d in sgn.iter_diagnostics(str(path))]
        assert found == sorted(found), cut


def test_dense_faults_are_each_reported_once_as_the_log_has_them():
    i = next(i for i, _ in turn_starts(GAME) if i > 50 and GAME[i][2]["result"] != 7)
    lines = [json.dumps(m) for m in GAME[: i + 1] + [GAME[i]] * 30]
    found = [(d.line, d.code) for d in sgn.iter_diagnostics(lines, level="rules") if d.is_error]
    # (each copy is the line before sent again: one error each, the copy changing nothing)
    assert found == [(n, "message-repeated") for n in range(i + 2, i + 32)]
    assert recovery.DENSE_FAULTS < 30


SETUP_FAULTS = {
    "a number for the player": (lambda line: line.replace('["1"', "[1", 1), "unknown-player"),
    "an action code in lower case": (lambda line: line.replace('"BS"', '"bs"'), "unknown-action"),
    "a misspelt key": (lambda line: line.replace('"intersection"', '"intersections"'), "schema-unknown-property"),
    "a settlement on no corner": (
        lambda line: line[: line.index("[[")] + "[[0,0],[0,1],[5,5]]}]",
        "intersection-not-adjacent",
    ),
}


@pytest.mark.parametrize("fault", SETUP_FAULTS)
@pytest.mark.parametrize("players", [3, 4, 6])
def test_a_schema_or_semantic_fault_in_the_setup_is_one_error(fault, players):
    """The first setup settlement refused by an earlier layer: the replay reads its evident
    repair, or reads it as lost, and reports nothing that the refused line explains."""
    from sgn.play import random_game

    edit, code = SETUP_FAULTS[fault]
    lines = [json.dumps(m, separators=(",", ":")) for m in random_game(players + 10, players)]
    lines[1] = edit(lines[1])
    result = sgn.check(("\n".join(lines) + "\n").encode())
    assert [(d.line, d.code) for d in result.diagnostics if d.is_error] == [(2, code)]


def test_a_misspelt_key_is_one_error_that_names_the_key_meant():
    from sgn.play import random_game

    lines = [json.dumps(m, separators=(",", ":")) for m in random_game(4, 3)]
    i = next(i for i, line in enumerate(lines) if '"TR"' in line)
    lines[i] = lines[i].replace('"resources"', '"resource"', 1)
    errors = [d for d in sgn.check(("\n".join(lines) + "\n").encode()).diagnostics if d.is_error]
    assert [(d.line, d.code) for d in errors] == [(i + 1, "schema-unknown-property")]
    assert 'did you mean "resources"' in errors[0].message and errors[0].pointer.endswith("/resource")
