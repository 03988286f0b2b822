"""The compiled build (mypyc, setup.py) says exactly what the interpreted source says.

`interpreted.load()` gives the same installed sources run as plain Python; every
check below runs both and compares. In a pure-Python install both sides are the
same code, and the tests still hold.
"""

import importlib
import io
import json
import os

import pytest
from hypothesis import given, settings, strategies as st

import interpreted
import sgn
from conftest import CORPUS, any_message, corpus_cases, scaled
from sgn import corpus, game as compiled_game, strategies as sgs
from sgn.layers import fastpath

PURE = interpreted.load()
PURE_GAME = importlib.import_module(f"{interpreted.NAME}.game")
PURE_ENGINE = importlib.import_module(f"{interpreted.NAME}.pipeline.engine")
CASES = [c for c in corpus_cases() if c["kind"] not in corpus.NOTATIONS]
EXAMPLE = (CORPUS / "games" / "game.sgn").read_text().splitlines()
# The modules that must be compiled when a compiled build is expected (setup.py compiles them).
HOT = {
    "board",
    "rules",
    "game.building",
    "game.cards",
    "game.core",
    "game.setup",
    "game.pieces",
    "game.readings",
    "game.recovery",
    "game.robber",
    "game.state",
    "game.trades",
    "game.turns",
    "pipeline.engine",
    "pipeline.held",
    "layers.fastpath",
    "layers.multiline",
    "layers.reader",
    "layers.semantic",
}


def test_the_build_is_the_one_asked_for():
    """tox sets SGN_EXPECT_COMPILED: 1 for the compiled build (env py), 0 for the pure one."""
    compiled = set(fastpath.compiled_modules())
    expected = os.environ.get("SGN_EXPECT_COMPILED")
    if expected == "1":
        assert compiled >= HOT, f"not compiled: {sorted(HOT - compiled)}"
    elif expected == "0":
        assert compiled == set()
    sources = {
        ".".join(p.relative_to(interpreted.FOLDER).with_suffix("").parts) for p in interpreted.FOLDER.rglob("*.py")
    }
    assert compiled <= sources  # each has its source


def test_the_interpreted_package_runs_from_source():
    assert PURE_ENGINE.__file__.endswith(".py") and PURE_GAME.__file__.endswith(".py")
    assert PURE_GAME.Game is not compiled_game.Game


def both(data, **options):
    """The diagnostics of the package under test and of the interpreted source, as dicts."""

    def run(package):
        source = io.BytesIO(data) if isinstance(data, bytes) else data
        return [d.to_dict() for d in package.iter_diagnostics(source, **options)]

    return run(sgn), run(PURE)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_corpus_cases(case):
    compiled, pure = both(corpus.case_bytes(case), level=case["level"], profile=case.get("profile", "strict"))
    assert compiled == pure


@given(sgs.games())
def test_whole_games_with_a_gap(game):
    lines = [json.dumps(m, separators=(",", ":")) for m in game]
    cut = lines[: len(lines) // 2] + lines[len(lines) // 2 + 3 :]
    compiled, pure = both(cut, level="rules")
    assert compiled == pure


@given(sgs.invalid_games())
def test_games_that_break_one_rule(case):
    messages, code, line = case
    compiled, pure = both([json.dumps(m) for m in messages], level="rules")
    assert compiled == pure and (code, line) in [(d["code"], d["line"]) for d in compiled]


@settings(max_examples=scaled(40))  # each replays up to the whole example game, twice
@given(st.lists(any_message(), max_size=30), st.integers(0, len(EXAMPLE)), st.sampled_from(["strict", "compat"]))
def test_any_messages_after_part_of_a_game(messages, cut, profile):
    lines = EXAMPLE[:cut] + [json.dumps(m) for m in messages]
    compiled, pure = both(lines, level="rules", profile=profile)
    assert compiled == pure


@given(st.binary(max_size=300))
def test_arbitrary_bytes(data):
    compiled, pure = both(data + b"\n" + data)
    assert compiled == pure


@given(sgs.games())
def test_the_replayed_state_is_the_same(game):
    compiled, pure = compiled_game.Game(), PURE_GAME.Game()
    for number, message in enumerate(game, 1):
        assert compiled.apply(message, number) == pure.apply(message, number)
    assert compiled.snapshot() == pure.snapshot()
