"""The one place where SGN messages are written (`sgn/messages.py`): each form as the schema
accepts it, in the bytes docs/format.md shows (the key order of its value included: the
converters', the referee's and `sgn generate`'s outputs depend on it), and no message
written by hand anywhere else in the package."""

import ast
import inspect
import json
from pathlib import Path

import pytest

import sgn
from conftest import CHECKOUT
from sgn import messages
from sgn.game import Game
from sgn.messages import HIDDEN
from sgn.play import random_game

PACKAGE = Path(sgn.__file__).resolve().parent
STANDARD_MAP = (CHECKOUT / "test-corpus" / "maps" / "standard.sgn").read_text(encoding="utf-8").splitlines()[0]

# (the function, its arguments, the line it writes): the lines are docs/format.md's and
# docs/hidden.md's examples where they have one.
FORMS = [
    (messages.define_map, (json.loads(STANDARD_MAP)[2],), STANDARD_MAP),
    (
        messages.header,
        ({"players": {"1": {"name": "ORANGE"}, "2": {"name": "RED"}}, "rules": "catanatron"},),
        '["B","HD",{"players":{"1":{"name":"ORANGE"},"2":{"name":"RED"}},"rules":"catanatron"}]',
    ),
    (messages.end_turn, ("2",), '["2","ET",{}]'),
    (messages.roll, ("1", 8), '["1","RD",{"result":8}]'),
    (messages.roll, ("1", HIDDEN), '["1","RD",{"result":"?"}]'),
    (messages.move_robber, ("1", (-2, 0)), '["1","MR",{"tile":[-2,0]}]'),
    (
        messages.steal,
        ("1", "2", "W"),
        '["1","ST",[{"player":"1","resources":{"W":1}},{"player":"2","resources":{"W":-1}}]]',
    ),
    (
        messages.steal,
        ("2", "4", HIDDEN),
        '["2","ST",[{"player":"2","resources":{"?":1}},{"player":"4","resources":{"?":-1}}]]',
    ),
    (
        messages.steal_cards,
        ("1", "2", {"W": 1}),
        '["1","ST",[{"player":"1","resources":{"W":1}},{"player":"2","resources":{"W":-1}}]]',
    ),
    (
        messages.build_settlement,
        ("1", [[0, 0], [0, 1], [-1, 1]]),
        '["1","BS",{"intersection":[[0,0],[0,1],[-1,1]]}]',
    ),
    (messages.build_city, ("1", [[2, -2], [3, -2], [2, -1]]), '["1","BC",{"intersection":[[2,-2],[3,-2],[2,-1]]}]'),
    (
        messages.build_road,
        ("1", [[[0, 0], [0, 1], [-1, 1]], [[-1, 0], [0, 0], [-1, 1]]]),
        '["1","BR",{"path":[[[0,0],[0,1],[-1,1]],[[-1,0],[0,0],[-1,1]]]}]',
    ),
    (messages.buy_card, ("2", "YP"), '["2","BD",{"cCode":"YP"}]'),
    (messages.buy_card, ("1", HIDDEN), '["1","BD",{"cCode":"?"}]'),
    (messages.play_card, ("2", "MO", ["G"]), '["2","PD",{"cCode":"MO","rCodes":["G"]}]'),
    (messages.play_card, ("1", "RB"), '["1","PD",{"cCode":"RB"}]'),
    (messages.play_knight, ("2",), '["2","PD",{"cCode":"KN"}]'),
    (messages.play_road_building, ("1",), '["1","PD",{"cCode":"RB"}]'),
    (messages.play_monopoly, ("2", "G"), '["2","PD",{"cCode":"MO","rCodes":["G"]}]'),
    (messages.play_year_of_plenty, ("2", ("O", "O")), '["2","PD",{"cCode":"YP","rCodes":["O","O"]}]'),
    (messages.show_victory_point, ("1",), '["1","PD",{"cCode":"VP"}]'),
    (
        messages.trade,
        ("3", "3", {"O": -1, "W": 1}, "1", {"O": 1, "W": -1}),
        '["3","TR",[{"player":"3","resources":{"O":-1,"W":1}},{"player":"1","resources":{"O":1,"W":-1}}]]',
    ),
    (
        messages.trade_with_bank,
        ("1", {"W": -3, "L": 1}, {"W": 3, "L": -1}),
        '["1","TR",[{"player":"1","resources":{"W":-3,"L":1}},{"player":"B","resources":{"W":3,"L":-1}}]]',
    ),
    (
        messages.discard,
        ("2", {"O": 3, "W": 1}),
        '["2","TR",[{"player":"2","resources":{"O":-3,"W":-1}},{"player":"B","resources":{"O":3,"W":1}}]]',
    ),
    (
        messages.discard,
        ("3", {"O": 1, HIDDEN: 3}),
        '["3","TR",[{"player":"3","resources":{"O":-1,"?":-3}},{"player":"B","resources":{"O":1,"?":3}}]]',
    ),
]


def _text(message):
    return json.dumps(message, separators=(",", ":"))


@pytest.mark.parametrize("write, arguments, line", FORMS, ids=lambda x: getattr(x, "__name__", None))
def test_each_form_is_written_as_the_format_shows_it(write, arguments, line):
    assert _text(write(*arguments)) == line


@pytest.mark.parametrize("write, arguments, line", FORMS, ids=lambda x: getattr(x, "__name__", None))
def test_each_form_is_one_the_schema_and_the_semantic_checks_accept(write, arguments, line):
    message = write(*arguments)
    assert [(d.code, d.message) for d in sgn.validate_message(message, level="semantic")] == []
    assert message[1] in messages.CODES


def test_every_function_of_the_module_has_its_form_above():
    # (a routine: the compiled build's functions are builtins)
    written = {name for name in messages.__all__ if inspect.isroutine(getattr(messages, name))}
    assert written == {write.__name__ for write, _, _ in FORMS}
    assert {json.loads(line)[1] for _, _, line in FORMS} == set(messages.CODES)


def test_a_form_is_a_new_list_each_time():
    """A caller may change what it was given (a repair, a mutation) without changing another's."""
    first, second = messages.roll("1", 8), messages.roll("1", 8)
    assert first == second and first is not second and first[2] is not second[2]


def test_the_moves_listed_in_a_game_are_forms_the_checks_accept():
    """The generator writes every kind of move through the module: each listed at positions of
    a game passes the schema and the semantic checks, and the replay takes it without error."""
    game, seen = Game(), set()
    for n, message in enumerate(random_game(3, 4), 1):
        if n % 7 == 0:
            for move in game.legal_moves(hidden_outcomes="always"):
                seen.add(move[1])
                assert [d.code for d in sgn.validate_message(move, level="semantic")] == [], move
        game.apply(message, n)
    assert {"BS", "BR", "RD", "TR", "MR", "BD"} <= seen


def test_one_alias_of_a_message_and_one_hidden_marker():
    from sgn.game import core, move_forms
    from sgn.layers import hidden

    assert core.Message is move_forms.Message is messages.Message
    assert hidden.HIDDEN is messages.HIDDEN


# -- no message written by hand elsewhere ----------------------------------------------------

# The modules that may write a message as a literal list, each with its reason. Every other
# module of the package writes through `sgn/messages.py`.
WRITE_BY_HAND = {
    "messages.py": "the one place where each form is written",
    "testing/slips.py": "a slip keeps the line it changes, its player and its value rewritten as the slip says",
    "strategies.py": "Hypothesis builds any value of a code, valid or not, and puts it into the message of that code",
}
# The constants that name an action code (`sgn/layers/records.py`).
CODE_NAMES = {"HEADER", "END_TURN"}


def _names_a_code(node) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in messages.CODES
    if isinstance(node, ast.Name):
        return node.id in CODE_NAMES
    return isinstance(node, ast.Attribute) and node.attr in CODE_NAMES


def _written_by_hand(path: Path):
    """The lines of `path` with a list display [player, aCode, value], aCode an action code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.List) and len(node.elts) == 3 and _names_a_code(node.elts[1])
    )


def test_no_message_is_written_by_hand_outside_the_module():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        lines = _written_by_hand(path)
        if lines and name not in WRITE_BY_HAND:
            found[name] = lines
    assert found == {}, "write these messages with sgn/messages.py"


@pytest.mark.parametrize("name", sorted(WRITE_BY_HAND))
def test_each_module_allowed_to_write_by_hand_still_does(name):
    """The list of exceptions stays as short as the package needs."""
    assert _written_by_hand(PACKAGE / name), f"{name} writes no message by hand: take it out of WRITE_BY_HAND"


def test_the_scan_finds_a_message_written_by_hand(tmp_path):
    path = tmp_path / "example.py"
    path.write_text(
        'a = [player, "RD", {"result": 8}]\nb = [seat, END_TURN, {}]\nc = ["B", records.HEADER, value]\n'
        'd = ["KN", "VP", "RB"]\ne = (p, "BS", x)\n'
    )
    assert _written_by_hand(path) == [1, 2, 3]
