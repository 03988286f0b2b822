"""The rules are data (docs/architecture.md, "Rules as data"; sgn/rules.py): a number of the
rulebook is written once, in `sgn.rules`, and what checks or lists a move reads it there,
so that changing the number changes the game checked. Each test changes a number and sees
each reader follow it."""

import ast
import gzip
import json
from pathlib import Path

import pytest

from sgn import rules
from sgn.api import validate_message
from sgn.game import Game

RECORDED = Path(__file__).resolve().parent / "data" / "catanatron-games.sgn.gz"
PACKAGE = Path(rules.__file__).resolve().parent


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


def _module_level(path: Path):
    """(name, value node) of each module-level assignment and definition of a module."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            yield from ((t.id, node.value) for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            yield node.target.id, node.value
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            yield node.name, node


def test_a_table_of_the_rules_and_the_tally_are_written_once():
    """No module spells a table of `sgn.rules` again (the resources, their names, the costs,
    ...: it imports it), and counting is `board.tally`, not a tally of its own."""
    tables = {name: value for name, value in vars(rules).items() if name.isupper() and isinstance(value, (tuple, dict))}
    copies, tallies = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE.parent)
        for name, node in _module_level(path):
            if name.lstrip("_") == "tally" and where != Path("sgn/board.py"):
                tallies.append(f"{where}: {name}")
            if where == Path("sgn/rules.py") or isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                continue
            try:
                value = ast.literal_eval(node)
            except ValueError:
                continue  # (not a literal: an import or a computed value)
            copies += [f"{where}: {name} is rules.{table}" for table, known in tables.items() if value == known]
    assert copies == [] and tallies == []
