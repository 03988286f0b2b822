"""The public Hypothesis strategies, and the properties they let us check of sgn itself."""

import functools
import json
import random

import pytest
from hypothesis import given, settings, strategies as st
from jsonschema import Draft4Validator

import sgn
from conftest import CHECKOUT, any_message, run_cli, scaled
from sgn import board, strategies as sgs
from sgn.layers.jsonline import parse_line
from sgn.play import RandomPlayer, game_seed, random_game

WHOLE_SCHEMA = Draft4Validator(json.loads((CHECKOUT / "schema" / "v1.0" / "message.json").read_text()))


def errors(diagnostics):
    return sorted({d.code for d in diagnostics if d.is_error})


@given(sgs.messages())
def test_every_generated_message_is_valid_without_any_diagnostic(message):
    assert sgn.validate_message(message) == []


@given(sgs.messages(action_codes=st.just("TR")))
def test_action_codes_narrow_the_messages(message):
    assert message[1] == "TR"


@given(sgs.invalid_messages())
def test_every_mutant_message_raises_exactly_its_code(case):
    message, code = case
    assert errors(sgn.validate_message(message)) == [code]


@given(any_message())
def test_dispatched_schema_and_plain_jsonschema_agree(message):
    """Differential: the verdict at the schema level is jsonschema's on the whole schema file."""
    ours = not errors(sgn.validate_message(message, level="schema"))
    assert ours == WHOLE_SCHEMA.is_valid(message)


@given(sgs.messages())
def test_parse_serialize_parse_is_the_identity(message):
    text = json.dumps(message)
    [value] = parse_line(text)
    assert value == message and json.dumps(value) == text


@given(sgs.intersections(), sgs.paths())
def test_geometry_strategies_build_real_corners_and_edges(intersection, path):
    assert board.is_corner(tuple(t) for t in intersection)
    a, b = ({tuple(t) for t in end} for end in path)
    assert board.is_edge(frozenset(a), frozenset(b))


@given(sgs.maps())
def test_generated_maps_are_valid_standard_boards(value):
    assert list(sgn.validate_message(["B", "DM", value])) == []


@settings(max_examples=10)
@given(sgs.games())
def test_every_generated_game_is_legal_and_ends_with_a_winner(game):
    lines = [json.dumps(m) for m in game]
    assert [d for d in sgn.iter_diagnostics(lines, level="rules") if d.severity != "info"] == []
    found = list(sgn.iter_diagnostics(lines + [lines[-1]], level="rules"))
    # the game is over at its last line: its last move again is one error, after the end (or,
    # where it won with Road Building's first road, a second road where the first is)
    won_with_road_building = game[-1][1] == "BR" and game[-2][1] == "PD" and game[-2][2]["cCode"] == "RB"
    expected = "road-occupied" if won_with_road_building else "after-game-end"
    assert [(d.line, d.code) for d in found] == [(len(lines) + 1, expected)]


@settings(max_examples=scaled(25))
@given(sgs.invalid_games())
def test_every_mutant_game_raises_exactly_its_code_on_its_line(case):
    game, code, line = case
    found = {(d.code, d.line) for d in sgn.iter_diagnostics([json.dumps(m) for m in game], level="rules") if d.is_error}
    assert found == {(code, line)}


def test_every_game_mutation_is_exercised_and_keeps_the_rest_of_the_game():
    """Each mutation on the first of 40 games (3 to 6 players) it applies to: the games are
    made, and the mutation tried, only as far as that first one (the rest were never read)."""
    game = functools.lru_cache(maxsize=None)(lambda seed: random_game(seed, 3 + seed % 4))
    for mutation in sgs.GAME_MUTATIONS:
        tried = ((game(seed), mutation(json.loads(json.dumps(game(seed))), 7)) for seed in range(40))
        first = next(((g, r) for g, r in tried if r is not None), None)
        assert first, f"{mutation.__name__} applies to none of the games"
        original, (faulty, code, line) = first
        assert abs(len(faulty) - len(original)) <= 1  # one message in, out or moved
        assert faulty[line:][-3:] == original[-3:] or faulty[-1] == original[-1]  # the rest is kept
        found = [
            (d.line, d.code) for d in sgn.iter_diagnostics([json.dumps(m) for m in faulty], level="rules") if d.is_error
        ]
        assert found == [(line, code)], mutation.__name__


@settings(max_examples=scaled(10))
@given(sgs.invalid_games(games=sgs.games(players=st.sampled_from((5, 6)))))
def test_every_mutant_game_of_the_extension_raises_exactly_its_code_on_its_line(case):
    game, code, line = case
    found = {(d.code, d.line) for d in sgn.iter_diagnostics([json.dumps(m) for m in game], level="rules") if d.is_error}
    assert found == {(code, line)}


@settings(max_examples=10)
@given(sgs.invalid_games(cut=True))
def test_a_cut_mutant_game_ends_at_its_faulty_line(case):
    game, code, line = case
    assert len(game) == line
    found = {(d.code, d.line) for d in sgn.iter_diagnostics([json.dumps(m) for m in game], level="rules") if d.is_error}
    assert found == {(code, line)}


def test_cards_played_on_the_turn_they_were_bought_are_each_reported_once():
    plays = 0
    for seed in range(8):
        player = RandomPlayer(random.Random(seed), 3 + seed % 2, early_cards=0.5)
        game = player.play()
        plays += len(player.early_plays)
        found = [
            (d.line, d.code) for d in sgn.iter_diagnostics([json.dumps(m) for m in game], level="rules") if d.is_error
        ]
        assert found == [(n, "card-bought-this-turn") for n in player.early_plays]
    assert plays >= 5  # the property is not empty


def test_generate_is_deterministic_and_independent_of_jobs(tmp_path):
    one = run_cli("generate", "--games", "3", "--players", "3", "--seed", "9").stdout
    again = run_cli("generate", "--games", "3", "--players", "3", "--seed", "9", "--jobs", "2").stdout
    assert one == again and one.count(b'"DM"') == 3
    result = run_cli("generate", "--games", "2", "--seed", "9", "-o", tmp_path / "out")
    files = sorted((tmp_path / "out").iterdir())
    assert result.returncode == 0 and [f.name for f in files] == ["game-00001.sgn", "game-00002.sgn"]
    expected = "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in random_game(game_seed(9, 1), 4))
    header, rest = files[1].read_text().split("\n", 1)
    assert rest == expected and json.loads(header)[2]["seed"] == "9:1"  # (the header first: docs/format.md)
    assert run_cli("validate", "-q", *files).returncode == 0
    bare = run_cli("generate", "--games", "2", "--seed", "9", "--profile", "v1.0").stdout
    first = "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in random_game(game_seed(9, 0), 4))
    assert bare == (first + expected).encode()  # (SGN v1.0 alone: no header)


@settings(max_examples=scaled(25))
@given(st.sampled_from(sgs.GAME_LEVELS).flatmap(lambda level: sgs.invalid_games(level=level)))
def test_an_invalid_game_names_the_level_its_label_holds_at(case):
    game, code, line = case
    assert (case.messages, case.code, case.line) == (game, code, line) and case.level in sgs.GAME_LEVELS
    found = {(d.code, d.line) for d in sgn.iter_diagnostics(game, level=case.level) if d.is_error}
    assert found == {(code, line)}


@settings(max_examples=5)
@given(sgs.invalid_games(level="semantic", cut=True))
def test_a_cut_semantic_mutant_ends_at_its_line(case):
    assert len(case.messages) == case.line and case.level == "semantic"


@pytest.mark.parametrize("level", ["syntax", "schema", "auto", "everything"])
def test_invalid_games_refuses_a_level_its_labels_do_not_hold_at(level):
    with pytest.raises(ValueError, match="invalid_messages"):
        sgs.invalid_games(level=level)
