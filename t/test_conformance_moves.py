"""The harness scores rules engines (docs/conformance.md, "Rules engines"): sgn's own
generator scores every position in both modes, and an engine with one fault loses the
positions it shows in, whichever way it tries to game the score (nothing, everything,
moves twice, items that are no moves, counts off), the difference shown as --divide would."""

import json
import sys

import pytest

from conftest import CHECKOUT, json_report, run_cli
from sgn import conformance
from sgn.cli.conformance import MOVE_CLASSES
from sgn.conformance import moves

PY = sys.executable
BROKEN = str(CHECKOUT / "t" / "impls" / "broken_engine.py")
POSITIONS = moves.positions()
BY_ID = {c["id"]: c for c in POSITIONS}
TABLE = [c for c in POSITIONS if c["id"].startswith("perft/")]
FEW = TABLE + [BY_ID[i] for i in ("short-3p/36", "short-3p/57", "random-5p/12", "random-6p/1")]


def engine(fault, cases, mode="persistent", **options):
    argv = [PY, BROKEN, fault] + (["--simple"] if mode == "simple" else [])
    return conformance.run_cases(argv, cases, mode=mode, timeout=60, **options)


def statuses(run):
    return {o.case["id"]: o.status for o in run.outcomes}


def test_positions_are_the_perft_tables_and_along_the_corpus_games():
    assert {c["id"] for c in TABLE} == {
        f"perft/{p}"
        for p in (
            "standard-3p-before-setup",
            "standard-4p-before-setup",
            "after-setup-4p",
            "robber-and-discards-4p",
            "special-building-phase-6p",
            "every-card-6p",
        )
    }
    assert len(POSITIONS) > 200 and all(c["kind"] == "moves" and c["level"] == "rules" for c in POSITIONS)
    assert all(c["expected"] for c in POSITIONS)  # (every position has a move: answering none passes nothing)


def test_moves_mode_sgn_scores_every_position_persistent():
    run = conformance.run_cases([PY, "-m", "sgn.harness"], POSITIONS, mode="persistent", timeout=60)
    assert run.ok, run.problem
    assert set(statuses(run).values()) == {"passed"}


def test_moves_mode_sgn_scores_in_simple_mode_and_perft_counts_to_the_table():
    run = conformance.run_cases([PY, "-m", "sgn.harness", "--simple"], FEW[-3:], mode="simple", timeout=60)
    assert run.ok, run.problem
    run = conformance.run_cases([PY, "-m", "sgn.harness"], TABLE, mode="persistent", timeout=60, depth=3)
    assert run.ok, run.problem
    run = engine("none", FEW[:2], mode="simple", depth=2)
    assert run.ok, run.problem


@pytest.mark.parametrize("fault", ["nothing", "everything", "twice", "garbage"])
def test_moves_mode_score_cannot_be_gamed(fault):
    run = engine(fault, FEW)
    assert set(statuses(run).values()) == {"failed"} and not run.ok
    assert run.baselines == {"accept_everything": 0, "reject_everything": 0}


def test_moves_mode_a_fault_loses_the_positions_it_shows_in_with_the_moves_named():
    run = engine("no-city", FEW)
    failed = {o.case["id"]: o.detail for o in run.outcomes if o.status == "failed"}
    assert set(failed) == {"short-3p/36", "short-3p/57"}
    assert failed["short-3p/36"] == 'missing 1 of 20: ["3","BC",{"intersection":[[2,-1],[3,-1],[2,0]]}]'
    extra = engine("extra-roll", [BY_ID["random-6p/1"], BY_ID["perft/after-setup-4p"]], mode="simple")
    assert statuses(extra) == {"random-6p/1": "passed", "perft/after-setup-4p": "failed"}
    assert '1 not legal: ["1","RD",{"result":13}]' in extra.outcomes[1].detail


def test_moves_mode_a_perft_count_off_is_divided_down_to_the_move():
    run = engine("count-plus-one", [BY_ID["perft/robber-and-discards-4p"]], depth=2)
    (outcome,) = run.outcomes
    assert outcome.status == "failed"
    assert outcome.detail.startswith('perft(2): expected 684, got 685; under ["2","TR"')
    assert "expected 18, got 19" in outcome.detail
    deep = engine("no-city", [BY_ID["short-3p/36"]], mode="simple", depth=2)
    assert deep.outcomes[0].detail.endswith('missing 1 of 20: ["3","BC",{"intersection":[[2,-1],[3,-1],[2,0]]}]')


def test_moves_mode_numbers_are_written_one_way():
    """Every count in a detail is written with its thousands separated, expected and got alike."""
    import re

    run = engine("count-plus-one", [BY_ID["perft/special-building-phase-6p"]], depth=4)
    (outcome,) = run.outcomes
    assert outcome.status == "failed" and "got" in outcome.detail
    assert re.findall(r"\d{4,}", outcome.detail) == [], outcome.detail
    assert len(re.findall(r"expected \d{1,3}(?:,\d{3})+, got \d{1,3}(?:,\d{3})+", outcome.detail)) >= 2, outcome.detail


def test_moves_mode_departures_are_left_out_and_declared():
    run = engine("no-city", FEW, departures=["city"])
    assert run.ok and set(statuses(run).values()) == {"passed"}
    assert moves.departures_of({"moves": {"departures": [{"moves": "knight", "rule": "r"}]}}, ["city", "bogus"]) == [
        "city",
        "knight",
    ]
    assert tuple(MOVE_CLASSES) == moves.CLASSES


def test_moves_mode_an_engine_that_departs_from_almost_everything_cannot_conform():
    """13 classes of 14 declared departures, rolls alone answered: each position passes on
    what is compared, and the run does not conform; no class it departs in is credited."""
    from sgn.conformance.scorecard import render_text, summary

    run = engine("rolls-only", FEW)
    assert "failed" not in statuses(run).values() and "passed" in statuses(run).values()
    assert not run.ok and "were compared on" in run.problem and "too little to judge" in run.problem
    assert set(summary(run)["by_action"]) <= {"roll", "(none)"}
    text = render_text(run)
    assert "class of moves" in text and "DOES NOT CONFORM" in text
    fine = engine("none", FEW)
    assert fine.ok and {"settlement", "road", "roll"} <= set(summary(fine)["by_action"])
    assert all(o.compared[0] == o.compared[1] > 0 for o in fine.outcomes if o.case["kind"] == "moves")


@pytest.mark.parametrize("mode", ["persistent", "simple"])
def test_moves_mode_a_failed_position_keeps_the_engine_s_standard_error(mode):
    run = engine("noisy-nothing", FEW[:2], mode=mode)
    assert all(o.status == "failed" for o in run.outcomes)
    assert all("looking for the moves of the position" in o.stderr for o in run.outcomes)
    passed = engine("none", FEW[:2], mode=mode)
    assert all(o.status == "passed" and not o.stderr for o in passed.outcomes)


def test_moves_mode_a_validator_that_does_not_declare_moves_is_not_asked():
    impl = [PY, str(CHECKOUT / "examples" / "python" / "sgn_jsonschema.py")]
    run = conformance.run_cases(impl, FEW[:3], mode="persistent", timeout=60)
    assert set(statuses(run).values()) == {"undeclared"}
    assert run.problem.startswith("no case passed")


def test_moves_mode_on_the_command_line_reports_and_exits():
    result = run_cli(
        "conformance",
        "--moves",
        "--run",
        "perft/*",
        "--mode",
        "persistent",
        "--impl",
        f"{PY} {BROKEN} no-city",
        "--departure",
        "city",
        "-o",
        "json",
    )
    assert result.returncode == 0, result.stderr
    report = json_report(result)
    assert report["metadata"]["options"]["moves"] is True
    assert report["metadata"]["options"]["departures"] == [{"moves": "city", "rule": "named on the command line"}]
    text = run_cli("conformance", "--moves", "--run", "short-3p/36", "--impl", f"{PY} {BROKEN} no-city --simple")
    assert text.returncode == 1
    assert b"missing 1 of 20" in text.stdout and b"answering none passes 0" in text.stdout
    for wrong in (["--perft", "2"], ["--departure", "city"], ["--moves", "--codes", "--mode", "persistent"]):
        refused = run_cli("conformance", *wrong, "--impl", f"{PY} -m sgn.harness")
        assert refused.returncode == 2 and b"Traceback" not in refused.stderr, wrong


def test_moves_mode_a_reply_out_of_protocol_is_errored(tmp_path):
    script = tmp_path / "both.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if r['cmd'] == 'stop': break\n"
        "    out = {'ready': True, 'version': 1, 'implementation': {'name': 'x', 'language': 'python', 'moves': {}}}\n"
        "    if r['cmd'] == 'moves': out = {'seq': r['seq'], 'moves': [], 'count': 3}\n"
        "    print(json.dumps(out), flush=True)\n",
        encoding="utf-8",
    )
    run = conformance.run_cases([PY, str(script)], FEW[:1], mode="persistent", timeout=60)
    assert run.outcomes[0].status == "errored"
    assert "moves or a count" in run.outcomes[0].detail
    assert json.loads(json.dumps(run.outcomes[0].to_dict()))["status"] == "errored"


def test_moves_mode_no_item_of_an_answer_breaks_the_comparison():
    """Whatever an engine answers, each item is a move, or one that is not: never an
    exception (a list where a number should be is unhashable)."""
    good = ["1", "RD", {"result": 2}]
    odd = [
        ["1", "RD", {"result": [1]}],
        ["1", "MR", {"tile": [[1]]}],
        ["1", "BS", {"intersection": [[0]]}],
        ["1", "BD", {"cCode": {}}],
        ["1", "TR", [{"player": "1", "resources": {"B": "x"}}, {"player": "B", "resources": {}}]],
        [1, 2, 3],
        "x",
        None,
    ]
    for item in odd:
        problem, compared = moves.compare([good], [good, item])
        assert problem.startswith("1 not an SGN move: "), item
        assert compared == 1


def test_moves_mode_an_engine_that_never_answers_is_given_up_in_simple_mode():
    hanging = [PY, str(CHECKOUT / "t" / "impls" / "misbehaving.py"), "hang", "--simple"]
    run = conformance.run_cases(hanging, FEW[:5], mode="simple", timeout=0.5)
    assert [o.status for o in run.outcomes] == ["errored"] * 5
    assert run.outcomes[3].detail.startswith("gave up after 3 requests in a row")


def test_moves_mode_a_long_answer_of_odd_items_is_read_item_by_item(tmp_path):
    """The items of a reply's moves are read by the comparison, not by the protocol's schema
    (which checks a megabyte of items slowly): each odd one is a move that is not."""
    script = tmp_path / "numbers.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if r['cmd'] == 'stop': break\n"
        "    out = {'ready': True, 'version': 1, 'implementation': {'name': 'x', 'language': 'python', 'moves': {}}}\n"
        "    if r['cmd'] == 'moves': out = {'seq': r['seq'], 'moves': [0] * 300000}\n"
        "    print(json.dumps(out), flush=True)\n",
        encoding="utf-8",
    )
    run = conformance.run_cases([PY, str(script)], FEW[:1], mode="persistent", timeout=60)
    assert run.outcomes[0].status == "failed"
    assert "300000 not an SGN move: 0, 0, 0 (and 299997 more)" in run.outcomes[0].detail


def test_a_count_or_moves_no_engine_writes_are_errored_answers_never_a_crash():
    """Simple mode: a count written `²` (a digit to Python, which int() refuses), one of
    5,000 digits (past int()'s limit) or moves nested 5,000 deep: each an errored answer."""
    from sgn.conformance.runners import _answer

    for said, depth in (("²".encode(), 2), (b"1" * 5000, 2), (b"[" * 5000 + b"]" * 5000, None), (b"12x", 1)):
        answer = _answer(said, depth)
        assert answer.kind == "errored" and answer.text, said[:20]
    assert _answer(b" 123\n", 2).count == 123


def test_the_divide_follow_up_takes_the_timeout_for_the_whole_position(monkeypatch):
    """perft's --divide follow-up asked each child with the whole --timeout (69 s for one
    position at --timeout 3): it now stops once the position's time is spent. The clock is
    the test's: one second a look."""
    import itertools

    from sgn.game.perft import perft

    clock = itertools.count()
    monkeypatch.setattr(moves.time, "monotonic", lambda: next(clock))
    case = next(c for c in moves.positions() if c["id"].startswith("perft/"))
    position = case["position"]
    ours = moves._replayed(position["data"]).legal_moves(position["players"], position["hidden"])
    asked = []

    def ask(where, depth):  # the right moves, and the right count for every child: all agree
        asked.append(depth)
        if depth is None:
            return moves.Answer("moves", moves=ours)
        child = moves._replayed(where["data"])
        return moves.Answer("count", count=perft(child, depth, position["players"], position["hidden"]))

    where = moves.divide(ask, position, 2, budget=3)
    assert "the follow-up stopped at --timeout (3 s for the position)" in where
    assert len(asked) < 6 < len(ours)
