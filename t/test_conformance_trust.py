"""What the conformance harness promises whatever the implementation does: a crash is never
scored as a verdict, however it is reported (in colour included); nothing an implementation
says of itself or prints, nor a case id of a bundle, reaches the terminal or a report raw;
the HTML page runs nothing but its own script; and a time-out that no time can be is a usage
error. Each in every output format and both modes."""

import json
import math
import sys

import pytest

from conftest import CORPUS, run_cli
from sgn import conformance, corpus

PY = sys.executable
CASES = [c for c in corpus.load_cases(CORPUS / corpus.BUNDLE) if c["kind"] not in corpus.NOTATIONS]
VALID = [c for c in CASES if c["valid"] and c.get("profile", "strict") == "strict"]
INVALID = [c for c in CASES if not c["valid"] and c.get("profile", "strict") == "strict"]
FEW = ["--run", "schema-rd-result-1*", "--run", "valid-rd*"]  # a handful of cases, valid and invalid
GUARD = 60  # a time-out that only guards against a deadlock: every case ends long before it


# -- a time-out is a finite number of seconds greater than 0 -----------------------------------------------


@pytest.mark.parametrize("command", ["conformance", "smoke"])
@pytest.mark.parametrize("mode", ["simple", "persistent"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400", "0", "-5", "-0.0", "abc", ""])
def test_a_time_out_no_time_can_be_is_a_usage_error(command, mode, value):
    result = run_cli(command, "--impl", "true", "--mode", mode, f"--timeout={value}")
    said = result.stderr.decode()
    assert result.returncode == 2 and result.stdout == b"" and "internal error" not in said
    assert said.splitlines()[-1].startswith(f"sgn {command}: error: argument --timeout: ")
    assert "seconds" in said.splitlines()[-1]


@pytest.mark.parametrize("value", [math.nan, math.inf, 0, -5.0])
def test_run_cases_refuses_a_time_out_no_time_can_be(value):
    with pytest.raises(ValueError, match="finite number of seconds greater than 0"):
        conformance.run_cases("true", VALID[:1], timeout=value)


@pytest.mark.parametrize("mode", ["simple", "persistent"])
def test_a_time_out_of_any_finite_length_is_taken(mode):
    impl = "true" if mode == "simple" else f"{PY} -m sgn.harness"
    code, report = conformance_json("--impl", impl, "--mode", mode, *FEW, "--timeout", "1e300")
    assert report["totals"]["errored"] == 0 and report["totals"]["passed"] > 0


def conformance_json(*args):
    result = run_cli("conformance", "-o", "json", *args)
    return result.returncode, json.loads(result.stdout)
