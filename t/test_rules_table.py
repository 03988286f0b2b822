"""The rules are data (docs/architecture.md, "Rules as data"; sgn/rules.py): a number of the
rulebook is written once, in `sgn.rules`, and what checks or lists a move reads it there,
so that changing the number changes the game checked. Each test changes a number and sees
each reader follow it."""

import gzip
import json
from pathlib import Path

import pytest

from sgn import rules
from sgn.api import validate_message
from sgn.game import Game

RECORDED = Path(__file__).resolve().parent / "data" / "catanatron-games.sgn.gz"


def _before_a_year_of_plenty() -> Game:
    """The replay of a recorded game (catanatron's, under its rules) just before a Year of
    Plenty is played."""
    game = Game("catanatron")
    with gzip.open(RECORDED, "rt", encoding="utf-8") as stream:
        for n, line in enumerate(stream, 1):
            message = json.loads(line)
            if message[1] == "DM" and n > 1:
                game = Game("catanatron")
            if message[1] == "PD" and message[2]["cCode"] == "YP":
                return game
            game.apply(message, n)
    raise AssertionError("no Year of Plenty in the recorded games")


def _count_faults(value) -> int:
    found = validate_message(["1", "PD", value], level="semantic")
    return sum(d.code == "card-resources-count" for d in found)


@pytest.mark.parametrize("takes", [1, 2, 3])
def test_the_year_of_plenty_takes_the_number_of_cards_the_rules_table_says(takes, monkeypatch):
    monkeypatch.setattr(rules, "YEAR_OF_PLENTY_TAKES", takes)
    # the semantic check of one message (the schema allows one or two)
    for named in (["B"], ["B", "G"]):
        assert _count_faults({"cCode": "YP", "rCodes": named}) == (len(named) != takes), named
    # the legal moves of a position where one is played
    plays = [m for m in _before_a_year_of_plenty().legal_moves() if m[1] == "PD" and m[2]["cCode"] == "YP"]
    assert plays and {len(m[2]["rCodes"]) for m in plays} == {takes}
