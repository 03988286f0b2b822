"""What the harness compares beyond the verdict (--codes: errors and warnings, where they
are; --state: the end state), and how a run is shared out and cut short (--jobs,
--max-fail), and what it keeps of an implementation's standard error."""

import json
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from conftest import CHECKOUT, corpus_cases, run_cli
from sgn import conformance, corpus
from sgn.corpus.expectations import difference, unmatched
from sgn.game.endstate import difference as state_difference

PY = sys.executable
TWISTED = str(CHECKOUT / "t" / "impls" / "twisted.py")
CASES = [c for c in corpus_cases() if c["kind"] not in corpus.NOTATIONS]


def twisted(twist, cases, **options):
    return conformance.run_cases([PY, TWISTED, twist], cases, mode="persistent", timeout=30, **options)


def statuses(run):
    return {o.case["id"]: o.status for o in run.outcomes}


# -- pairing expected and reported diagnostics -------------------------------------------------


def test_pairing_does_not_depend_on_order():
    expected = [{"code": "a"}, {"code": "a", "line": 1}]
    reported = [{"code": "a", "line": 1}, {"code": "a", "line": 2}]  # a greedy pairing takes line 1 for {a}
    assert unmatched(expected, reported) == ([], [])
    assert unmatched(expected[::-1], reported[::-1]) == ([], [])


def test_a_code_reported_more_often_than_expected_fails():
    assert unmatched([{"code": "a"}], [{"code": "a"}, {"code": "a"}]) == ([], [{"code": "a"}])
    assert difference("error", [{"code": "a"}], [{"code": "a"}], total=30) == "30 errors reported, 1 expected"
    assert "expected error b at line 2, /2 not reported" in difference(
        "error", [{"code": "b", "line": 2, "pointer": "/2"}], [{"code": "b", "line": 2}]
    )


def test_fields_an_expectation_leaves_out_match_anything_but_the_ones_it_gives_must_be_there():
    assert unmatched([{"code": "a"}], [{"code": "a", "line": 9, "pointer": "/x", "column": 3}]) == ([], [])
    assert unmatched([{"code": "a", "column": 3}], [{"code": "a"}])[0] == [{"code": "a", "column": 3}]


# -- --codes against implementations that differ in one way ----------------------------------------

INVALID = [c for c in CASES if not c["valid"] and c.get("profile", "strict") == "strict"]
WARNED = [c for c in CASES if c.get("warnings")]


@pytest.mark.parametrize(
    "twist,fails",
    [
        ("repeat", lambda c: not c["valid"]),
        ("no-pointer", lambda c: any("pointer" in e for e in c["errors"])),
        ("shifted", lambda c: any("line" in e for e in c["errors"])),
        ("no-warnings", lambda c: bool(c.get("warnings"))),
        ("drop-warnings", lambda c: False),
    ],
)
def test_codes_compares_each_error_and_the_warnings_given(twist, fails):
    chosen = INVALID[::7] + WARNED
    run = twisted(twist, chosen, codes=True)
    expected = {c["id"]: "failed" if fails(c) else "passed" for c in chosen}
    assert statuses(run) == expected
    assert any(s == "failed" for s in expected.values()) or twist == "drop-warnings"


def test_without_codes_only_the_verdict_counts():
    assert set(statuses(twisted("shifted", INVALID[::7])).values()) == {"passed"}


def test_codes_and_state_are_refused_in_simple_mode():
    with pytest.raises(ValueError, match="need --mode persistent"):
        conformance.run_cases([PY, "-m", "sgn.harness", "--simple"], CASES[:1], codes=True)
    for option in ("--codes", "--state"):
        result = run_cli("conformance", "--impl", f"{PY} -m sgn.harness --simple", option)
        assert result.returncode == 2 and result.stdout == b""
        assert f"{option} needs --mode persistent" in result.stderr.decode()


# -- --state ------------------------------------------------------------------------------------

STATED = [c for c in CASES if "state" in c]


def test_every_valid_rules_case_and_only_they_carry_the_end_state():
    """(but those of an extension: a hand in doubt has no one state to compare)"""
    assert STATED and all(c["level"] == "rules" and c["valid"] and "extension" not in c for c in STATED)
    assert len(STATED) == sum(c["level"] == "rules" and c["valid"] and "extension" not in c for c in CASES)
    game = next(c for c in STATED if c["id"] == "rules-random-game-3-players")
    assert game["state"]["players"]["3"]["points"] >= 10 and game["state"]["robber"]


@pytest.mark.parametrize(
    "twist,status,detail",
    [
        ("wrong-hand", "failed", "end state: /players/1/hand/B: expected "),
        ("no-state", "failed", "end state: none reported"),
        ("shuffled", "passed", ""),
    ],
)
def test_state_compares_the_end_state_of_valid_rules_cases(twist, status, detail):
    chosen = [c for c in STATED if "1" in c["state"]["players"]][:6]
    run = twisted(twist, chosen, state=True)
    assert {o.status for o in run.outcomes} == {status}
    assert all(o.detail.startswith(detail) for o in run.outcomes)
    assert set(statuses(twisted(twist, chosen)).values()) == {"passed"}  # without --state


def test_state_differences_are_named_by_their_path():
    want = {
        "robber": [0, 1],
        "players": {"1": {"points": 2, "roads": [[[[0, 0], [1, 0], [0, 1]], [[1, 0], [0, 1], [1, 1]]]]}},
    }
    same = json.loads(json.dumps(want))
    same["players"]["1"]["roads"][0].reverse()
    same["players"]["1"]["extra"] = 1
    assert state_difference(want, same) == ""
    assert state_difference(want, dict(same, robber=None)) == "/robber: expected [0,1], got null"
    assert state_difference(want, {"robber": [0, 1]}).startswith("/players: missing")
    assert state_difference(want, "x") == 'the state: expected an object, got "x"'
    bad = json.loads(json.dumps(same))
    bad["players"]["1"]["roads"] = [7]
    assert state_difference(want, bad).startswith("/players/1/roads: expected a list of roads")
    bad["players"]["1"]["points"] = True
    assert state_difference(want, bad) == "/players/1/points: expected 2, got true"


def test_a_state_too_large_is_not_kept():
    import time

    from sgn.conformance.reply import MAX_STATE_CHARS, Replies

    line = json.dumps({"seq": 1, "valid": True, "state": {"x": "y" * MAX_STATE_CHARS}}).encode()
    reply = Replies().run(line, 1, time.monotonic() + 5)
    assert reply.state is None and "the limit is" in reply.state_problem


# -- standard error ---------------------------------------------------------------------------


def test_the_standard_error_of_a_failed_case_is_kept_in_every_report(tmp_path):
    chosen = [c for c in INVALID if c["level"] == "schema"][:3] + [c for c in CASES if c["valid"]][:2]
    run = twisted("chatty", chosen)
    failed = [o for o in run.outcomes if o.status == "failed"]
    assert len(failed) == 3 and all(o.stderr == f"case {o.case['id']}: looked at it\nand said valid" for o in failed)
    assert all(o.stderr == "" for o in run.outcomes if o.status == "passed")
    assert f"| case {failed[0].case['id']}: looked at it" in conformance.render_text(run)
    cases = json.loads(conformance.render_json(run))["cases"]
    assert [c.get("stderr", "") for c in cases] == [o.stderr for o in run.outcomes]
    suites = ElementTree.fromstring(conformance.render_junit(run))
    assert [e.text for e in suites.iter("system-err")] == [o.stderr for o in failed]


def test_simple_mode_keeps_standard_error_too():
    case = next(c for c in INVALID if c["level"] == "schema")
    run = conformance.run_cases(["sh", "-c", "cat >/dev/null; echo 'read it, liked it' >&2; exit 0"], [case])
    assert run.outcomes[0].status == "failed" and run.outcomes[0].stderr == "read it, liked it"


# -- --jobs and --max-fail ---------------------------------------------------------------------


# In simple mode, a verdict that depends on all a case gives the program (its bytes, and its id,
# level and profile in the environment), valid for some cases and invalid for others: an outcome
# given to another case, or a case given another's input, shows. (A process of sgn's own harness,
# asked in test_conformance.py, takes 0.3 s to start and check, a tenth of that here.)
HASHING = [
    PY,
    "-c",
    "import os, sys, zlib\n"
    "said = [os.environ.get(name, '') for name in ('SGN_CASE_ID', 'SGN_LEVEL', 'SGN_PROFILE')]\n"
    "sys.exit(zlib.crc32(sys.stdin.buffer.read() + ' '.join(said).encode()) % 2)\n",
]


@pytest.mark.parametrize("mode,argv", [("simple", HASHING), ("persistent", [PY, TWISTED, "chatty"])])
def test_jobs_give_the_same_report_in_the_same_order(mode, argv):
    chosen = [c for c in CASES if "extension" not in c][::60]  # a dozen cases of every level, four a job
    one = conformance.run_cases(argv, chosen, mode=mode, timeout=30)
    two = conformance.run_cases(argv, chosen, mode=mode, timeout=30, jobs=3)
    assert {o.status for o in one.outcomes} == {"passed", "failed"}
    assert [(o.case["id"], o.status, o.detail) for o in one.outcomes] == [
        (o.case["id"], o.status, o.detail) for o in two.outcomes
    ]
    assert [o.case["id"] for o in two.outcomes] == [c["id"] for c in chosen]


@pytest.mark.parametrize("jobs", [1, 2])
def test_max_fail_stops_the_run_and_says_so(jobs):
    run = twisted("chatty", INVALID[:40], max_fail=3, jobs=jobs)
    failed = sum(o.status == "failed" for o in run.outcomes)
    assert 3 <= failed <= 3 + jobs - 1 and run.not_run == 40 - len(run.outcomes) > 0 and not run.ok
    assert f"{run.not_run} cases not run" in conformance.render_text(run)


def test_fail_fast_on_the_command_line():
    result = run_cli(
        "conformance",
        "--impl",
        f"{PY} {TWISTED} chatty",
        "--mode",
        "persistent",
        "--fail-fast",
        "-o",
        "json",
        "--run",
        "schema-*",
    )
    report = json.loads(result.stdout)
    assert result.returncode == 1 and report["totals"]["failed"] == 1 and report["not_run"] > 0
