"""The variant a replay follows is chosen by its map: the base game's numbers on a board of
19 land tiles, the 5-6 player extension's on one of 30 (sgn/rules.py VARIANTS)."""
import io
import json

import pytest

from sgn import rules
from sgn.game import Game
from sgn.replay import replay
from conftest import CORPUS

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


@pytest.mark.parametrize("tile, legal", [([-1, -1], True), ([0, 1], True), ([0, 0], False)])
def test_the_robber_starts_on_either_desert_of_the_extension(tile, legal):
    game = started("extension")
    problems = game.apply(["1", "MR", {"tile": tile}], 2)
    assert [p.code for p in problems] == ([] if legal else ["robber-start-not-desert"])
    assert not problems or "a desert" in problems[0].message


def test_replay_says_which_rules_it_followed():
    text = MAPS["extension"].read_bytes()
    state, _ = replay(io.BytesIO(text), name="m")
    assert state["variant"] == "5-6 player extension"
