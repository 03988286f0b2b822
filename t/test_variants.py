"""The variant a replay follows is chosen by its map: the base game's numbers on a board of
19 land tiles, the 5-6 player extension's on one of 30 (sgn/rules.py VARIANTS)."""

import io
import json

import pytest

from conftest import CORPUS
from sgn import rules
from sgn.game import Game
from sgn.pipeline.replay import replay

MAPS = {"base": CORPUS / "maps" / "standard.sgn", "extension": CORPUS / "maps" / "extended.sgn"}


def started(which):
    game = Game()
    assert game.apply(json.loads(MAPS[which].read_text().splitlines()[0]), 1) == []
    return game


def test_the_map_names_the_variant_and_its_numbers():
    base, extension = started("base"), started("extension")
    assert base.variant is rules.BASE_GAME and extension.variant is rules.FIVE_SIX
    assert set(base.bank.values()) == {19} and set(extension.bank.values()) == {24}
    assert sum(base.deck.values()) == 25 and sum(extension.deck.values()) == 34
    assert extension.deck == {"KN": 20, "VP": 5, "RB": 3, "YP": 3, "MO": 3}
    assert extension.snapshot()["variant"] == "5-6 player extension"
    assert extension.clone().variant is rules.FIVE_SIX


def test_every_variant_is_complete_and_told_apart_by_its_board():
    assert len({v.land_tiles for v in rules.VARIANTS}) == len(rules.VARIANTS)
    for variant in rules.VARIANTS:
        assert rules.variant_for(variant.land_tiles) is variant
        assert set(variant.deck) == set(rules.DECK) and variant.bank > 0
    assert rules.variant_for(36) is rules.BASE_GAME
    from sgn import board

    for spec, variant in ((board.STANDARD, rules.BASE_GAME), (board.EXTENDED, rules.FIVE_SIX)):
        assert sum(spec.kinds.values()) == len(spec.land) == variant.land_tiles


@pytest.mark.parametrize("tile, legal", [([-1, -1], True), ([0, 1], True), ([0, 0], False)])
def test_the_robber_starts_on_either_desert_of_the_extension(tile, legal):
    game = started("extension")
    problems = game.apply(["1", "MR", {"tile": tile}], 2)
    assert [p.code for p in problems] == ([] if legal else ["robber-start-not-desert"])
    assert not problems or "a desert" in problems[0].message


def test_replay_says_which_rules_it_followed():
    text = MAPS["extension"].read_bytes()
    position, _ = replay(io.BytesIO(text), name="m")
    assert position.snapshot()["variant"] == "5-6 player extension"


# -- the Special Build Phase ---------------------------------------------------------------------

from sgn import iter_diagnostics  # noqa: E402
from sgn.play import random_game  # noqa: E402
from sgn.testing.faults import _special_builds as special_builds  # noqa: E402

BUILDS = ("BS", "BC", "BR", "BD")


def codes_of(messages):
    text = "".join(json.dumps(m) + "\n" for m in messages).encode()
    return [d.code for d in iter_diagnostics(io.BytesIO(text), level="rules") if d.severity != "info"]


@pytest.mark.parametrize("players", [5, 6])
def test_generated_games_of_the_extension_are_legal_and_build_in_the_special_phase(players):
    for seed in range(4):
        game = random_game(seed, players)
        assert game[0][1] == "DM" and len([t for t in game[0][2]["tiles"] if t["tCode"] != "S"]) == 30
        assert codes_of(game) == [] and special_builds(game)


def a_game_with_special_builds(players=5):
    for seed in range(50):
        game = random_game(seed, players)
        found = special_builds(game)
        if len(found) > 5:
            return game, found
    raise AssertionError("no generated game builds in a Special Build Phase")


def test_a_trade_or_a_card_in_the_special_phase_is_one_error_each():
    game, found = a_game_with_special_builds()
    i, turn = found[0]
    builder = game[i][0]
    trade = [
        builder,
        "TR",
        [{"player": builder, "resources": {"W": -4, "O": 1}}, {"player": "B", "resources": {"W": 4, "O": -1}}],
    ]
    assert codes_of(game[: i + 1] + [trade] + game[i + 1 :]) == ["special-build-trade"]
    outsider = next(p for p in "12345" if p not in (turn, builder, str(int(turn) % 5 + 1)))
    card = [outsider, "PD", {"cCode": "MO", "rCodes": ["O"]}]
    assert codes_of(game[: i + 1] + [card] + game[i + 1 :]) == ["special-build-card"]


def test_the_turn_s_player_cannot_act_once_the_special_phase_began():
    """The turn's last build moved after the first build of the phase: it stands, once reported."""
    for seed in range(30):
        game = random_game(seed, 5)
        for i, turn in special_builds(game):
            if game[i - 1][0] == turn and game[i - 1][1] in BUILDS:
                swapped = game[: i - 1] + [game[i], game[i - 1]] + game[i + 1 :]
                if codes_of(swapped) == ["special-build-turn-player"]:
                    return
    raise AssertionError("no turn ends with a build right before the Special Build Phase")


def test_building_out_of_turn_order_in_the_special_phase():
    for players, seed in ((5, s) for s in range(20)):
        game = random_game(seed, players)
        found = special_builds(game)
        for (i, turn), (j, turn2) in zip(found, found[1:]):
            if j == i + 1 and turn == turn2 and game[i][0] != game[j][0]:
                swapped = game[:i] + [game[j], game[i]] + game[j + 1 :]
                assert codes_of(swapped) == ["special-build-order"]
                return
    raise AssertionError("no two players built one after the other in a Special Build Phase")


def test_in_the_base_game_a_build_by_another_player_is_not_your_turn():
    game = random_game(1, 4)
    roll = next(i for i, m in enumerate(game) if m[1] == "RD")
    other = "2" if game[roll][0] != "2" else "3"
    extra = [other, "BD", {"cCode": "KN"}]
    assert "not-your-turn" in codes_of(game[: roll + 1] + [extra] + game[roll + 1 :])


def test_the_examples_of_docs_rules_md_replay_as_it_says():
    import re

    from conftest import CHECKOUT

    doc = (CHECKOUT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = doc[doc.index("### Examples") : doc.index("### The table in")]
    setup = re.findall(r'^(\[".*)$', section.split("The second settlements")[0], re.M)
    turn = [line.split(" ", 1)[1] for line in re.findall(r"^\d+ \[.*$", section, re.M)]
    base = [json.loads(MAPS["extension"].read_text().splitlines()[0])] + [json.loads(x) for x in setup + turn]
    assert len(base) == 27 and codes_of(base) == []

    def inserted(after, message):
        return codes_of(base[:after] + [json.loads(message)] + base[after:])

    def swapped(a, b):
        return codes_of(base[: a - 1] + [base[b - 1], base[a - 1]] + base[b:])

    other_trade = '["5","TR",[{"player":"5","resources":{"G":-1,"O":1}},{"player":"3","resources":{"G":1,"O":-1}}]]'
    own_trade = '["1","TR",[{"player":"1","resources":{"G":-1,"B":1}},{"player":"3","resources":{"G":1,"B":-1}}]]'
    assert inserted(25, other_trade) == ["special-build-trade"]
    assert inserted(26, '["4","PD",{"cCode":"KN"}]') == ["special-build-card"]
    assert swapped(25, 26) == ["special-build-order"]
    assert swapped(24, 25) == ["special-build-turn-player"]
    assert inserted(25, own_trade) == ["special-build-trade"]
    assert inserted(25, '["3","MR",{"tile":[0,1]}]') == ["robber-not-allowed"]


def test_nobody_wins_in_the_special_phase_but_at_the_start_of_their_own_turn():
    """A roll gives no points: a game that ends at a roll ends there because its player came
    to 10 points in a Special Build Phase, and won only when their turn began."""
    ended_at_roll = 0
    for seed in range(40):
        game = random_game(seed, 5)
        if game[-1][1] != "RD":
            continue
        ended_at_roll += 1
        replayed = Game()
        for line, message in enumerate(game[:-1], 1):
            replayed.apply(message, line)
        winner = game[-1][0]
        assert replayed.points(winner) >= 10 and replayed.phase != "over"
        replayed.apply(game[-1], len(game))
        assert replayed.phase == "over" and replayed.current == winner
    assert ended_at_roll


def test_validate_names_the_rules_of_each_game():
    from conftest import run_cli

    result = run_cli("validate", CORPUS / "logs" / "random-5p.sgn", "-o", "json")
    [game] = json.loads(result.stdout)["files"][0]["games"]
    assert game["rules"] == "5-6 player extension" and game["winner"]
    text = run_cli("validate", CORPUS / "logs" / "random-5p.sgn").stdout.decode()
    assert "valid (rules, 5-6 player extension)" in text
    base = json.loads(run_cli("validate", CORPUS / "games" / "random-3p.sgn", "-o", "json").stdout)
    assert base["files"][0]["games"][0]["rules"] == "base game"


def test_each_game_of_a_stream_names_its_own_rules():
    from conftest import run_cli

    stream = (
        (CORPUS / "games" / "random-3p.sgn").read_bytes()
        + (CORPUS / "logs" / "random-5p.sgn").read_bytes()
        + (CORPUS / "games" / "random-4p.sgn").read_bytes()
    )
    result = run_cli("validate", "-", "-o", "json", stdin=stream)
    games = json.loads(result.stdout)["files"][0]["games"]
    assert [g["rules"] for g in games] == ["base game", "5-6 player extension", "base game"]
    assert all(g["winner"] for g in games) and result.returncode == 0
