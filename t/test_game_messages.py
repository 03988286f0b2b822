"""`Game.apply` on a message it cannot apply: a `MessageError` (a ValueError) that says what
is wrong, never a bare unpacking or lookup error; whatever the message and the state."""

import ast
import json

import pytest
from hypothesis import given, settings, strategies as st

from conftest import CHECKOUT, scaled
from sgn import strategies as sgs
from sgn.game import Game, MessageError
from sgn.play import random_game

GAME = random_game(1, 4)
# the states to apply at: new, the map only, the setup under way, the turns (after a 7), late
STATES = {"new": 0, "map": 1, "setup": 9, "turns": 41, "late": 120}


def _game_at(messages: int) -> Game:
    game = Game()
    for number, message in enumerate(GAME[:messages], 1):
        game.apply(message, number)
    return game


MALFORMED = [
    (["1", "RD"], "message-length", "this one has 2"),
    ("x", "message-not-array", "this is a string"),
    ("abc", "message-not-array", "this is a string"),  # three letters: it would unpack
    (None, "message-not-array", "this is null"),
    (5, "message-not-array", "this is an integer"),
    (["1", "RD", {}], "schema-required", '"result" is missing'),
    (["1", "RD", []], "schema-type", "expected an object"),
    (["1", "BS", {"intersection": 5}], "schema-type", "/2/intersection"),
    (("1", "PD", {}), "schema-required", '"cCode" is missing'),  # a tuple is read as the array it stands for
]
# in the turns only: in the setup, any action but BS and BR breaks a rule (setup-order) first
MALFORMED_IN_TURNS = [(["1", "ZZ", {}], "unknown-action", '"ZZ" is not an SGN action code')]
CASES = [(*case, state) for case in MALFORMED for state in ("map", "turns")] + [
    (*case, "turns") for case in MALFORMED_IN_TURNS
]


@pytest.mark.parametrize("message, code, words, state", CASES, ids=[f"{c[0]!r}-{c[3]}" for c in CASES])
def test_a_malformed_message_raises_what_is_wrong(message, code, words, state):
    with pytest.raises(MessageError) as raised:
        _game_at(STATES[state]).apply(message)
    error = raised.value
    assert isinstance(error, ValueError) and error.message is message
    assert [d.code for d in error.diagnostics][:1] == [code]
    text = str(error)
    assert text.startswith(f"the replay cannot apply {message!r}: ") and words in text and f"[{code}]" in text
    assert text.endswith("(Game checks the rules only: check messages with sgn.validate_message)")


def test_a_message_the_semantic_checks_refuse_is_named_by_them():
    """An intersection of one tile three times passes the schema; the replay cannot place it."""
    message = ["1", "BS", {"intersection": [[0, 0], [0, 0], [0, 0]]}]
    with pytest.raises(
        MessageError,
        match=r"/2/intersection/1: tile \[0,0\] appears twice .*"
        r"\[intersection-repeated-tile\]",
    ):
        _game_at(STATES["turns"]).apply(message)


def test_a_long_message_is_quoted_in_part():
    message = ["1", "RD", {"x" * 1000: 1}]
    with pytest.raises(MessageError) as raised:
        _game_at(STATES["turns"]).apply(message)
    assert len(str(raised.value)) < 600 and "..." in str(raised.value)


def test_legal_games_still_replay_without_a_word():
    for seed, players in ((2, 3), (3, 4), (4, 5)):
        game = Game()
        assert [p for n, m in enumerate(random_game(seed, players), 1) for p in game.apply(m, n)] == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
# SGN-like messages broken anywhere: a known code with any value, any value for a known key
BROKEN = st.tuples(sgs.players(bank=True), st.sampled_from(sgs.ACTION_CODES), JSON).map(list) | sgs.messages().flatmap(
    lambda m: (
        st.just(m)
        if not isinstance(m[2], dict) or not m[2]
        else st.sampled_from(sorted(m[2])).flatmap(lambda key: JSON.map(lambda v: [m[0], m[1], {**m[2], key: v}]))
    )
)


@settings(max_examples=scaled(300), deadline=None)
@given(
    message=st.one_of(JSON, BROKEN, sgs.invalid_messages().map(lambda case: case[0])),
    state=st.sampled_from(sorted(STATES.values())),
)
def test_any_message_in_any_state_gives_rules_or_a_message_error(message, state):
    game = _game_at(state)
    try:
        problems = game.apply(json.loads(json.dumps(message)), state + 1)
    except MessageError as error:
        assert str(error).startswith("the replay cannot apply ")
    else:
        assert isinstance(problems, list)


def test_game_says_it_checks_the_rules_only():
    """In the source: the compiled build keeps no docstring of a compiled class."""
    tree = ast.parse((CHECKOUT / "sgn" / "game" / "core.py").read_text(encoding="utf-8"))
    (game,) = [node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Game"]
    doc = ast.get_docstring(game)
    assert "checks the rules only" in doc and "sgn.validate_message" in doc and "MessageError" in doc
    assert "sgn.validate_message" in (MessageError.__doc__ or "")
