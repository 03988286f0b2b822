"""examples/python/catanatron_engine.py: catanatron's move generator under the harness's
rules engines' mode (docs/engines.md), its departures declared; the score CI holds it to
is examples/engines-matrix.json (tox -e matrix)."""

import json
import sys

import pytest

from conftest import CHECKOUT
from sgn import conformance
from sgn.conformance import moves

pytest.importorskip("catanatron", reason="catanatron is not installed (the extra 'test-engines')")

ENGINE = [sys.executable, str(CHECKOUT / "examples" / "python" / "catanatron_engine.py")]
BY_ID = {c["id"]: c for c in moves.positions()}


def run(ids, mode="persistent"):
    argv = ENGINE + (["--simple"] if mode == "simple" else [])
    departures = ["discard", "knight", "year-of-plenty", "monopoly", "road-building", "victory-point", "bank-trade"]
    extra = {"departures": departures} if mode == "simple" else {}
    return conformance.run_cases(argv, [BY_ID[i] for i in ids], mode=mode, timeout=60, **extra)


def test_catanatron_engine_passes_the_positions_it_can_play_its_departures_declared():
    ids = ["perft/standard-3p-before-setup", "perft/standard-4p-before-setup", "perft/after-setup-4p"]
    ids += ["short-3p/36", "short-3p/57", "jsettlers-knight-win-4p/132", "jsettlers-knight-win-4p/171"]
    result = run(ids)
    assert {o.case["id"]: o.status for o in result.outcomes} == dict.fromkeys(ids, "passed")
    assert [d["moves"] for d in result.info["moves"]["departures"]] == [
        "discard",
        "knight",
        "year-of-plenty",
        "monopoly",
        "road-building",
        "victory-point",
        "bank-trade",
    ]
    simple = run(["short-3p/36", "perft/standard-3p-before-setup"], mode="simple")
    assert simple.ok, simple.problem


def test_catanatron_engine_skips_what_catanatron_cannot_play_and_says_why():
    result = run(["perft/every-card-6p", "random-5p/3"])
    assert [(o.status, o.detail) for o in result.outcomes] == [
        ("skipped", "catanatron plays 2 to 4 players"),
        ("skipped", "a harbor is not where catanatron's template has one"),  # (the 5-6 player map)
    ]


def test_catanatron_engine_score_is_the_recorded_one():
    recorded = json.loads((CHECKOUT / "examples" / "engines-matrix.json").read_text(encoding="utf-8"))
    statuses = [row["results"]["catanatron"]["status"] for row in recorded["matrix"]]
    assert "failed" not in statuses and "errored" not in statuses
    assert statuses.count("passed") >= 100
