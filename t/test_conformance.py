"""The conformance harness: sgn scores 100%, bad implementations are scored as such, and
misbehaving ones cannot stop the run."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tracemalloc
import xml.etree.ElementTree as ElementTree

import pytest
from jsonschema import Draft4Validator

from sgn import conformance, corpus, packaged
from sgn.impl_process import MAX_OUTPUT_BYTES
from sgn.harness import check, serve
from conftest import CHECKOUT, CORPUS, run_cli

PY = sys.executable
CASES = [c for c in corpus.load_cases(CORPUS / corpus.BUNDLE) if c["kind"] not in corpus.NOTATIONS]   # SGN logs only
MISBEHAVING = str(CHECKOUT / "t" / "impls" / "misbehaving.py")
JS = CHECKOUT / "examples" / "js"
VALID = [c for c in CASES if c["valid"] and c.get("profile", "strict") == "strict"]
PIPE_BUFFER_MAX = 1 << 20    # the most a Linux pipe holds (fs.pipe-max-size by default)


def conformance_json(*args):
    result = run_cli("conformance", "-o", "json", *args)
    return result.returncode, json.loads(result.stdout)


def big_case(case_id="big-log"):
    """A valid log of 4 MB, more than any pipe buffer holds."""
    text = '["1","RD",{"result":8}]\n' * (4 * PIPE_BUFFER_MAX // 24)
    return {"id": case_id, "description": "a long log", "kind": "raw", "level": "schema", "valid": True,
            "errors": [], "tags": [], "spec": "-", "input": text, "input_encoding": "text"}


def running(pid):
    """Whether a process runs (a zombie left for init to reap does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    if not os.path.isdir("/proc/self"):
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def left_running(pids, wait=5.0):
    """The pids still running after a moment (a killed process takes a moment to go)."""
    end = time.monotonic() + wait
    while any(running(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.05)
    return [p for p in pids if running(p)]


@pytest.fixture
def pids(tmp_path, monkeypatch):
    """The pids the misbehaving implementation writes (its own, its children's); whatever the
    test found, none of them is left running after it."""
    path = tmp_path / "pids"
    monkeypatch.setenv("SGN_TEST_PIDFILE", str(path))

    def read():
        return [int(p) for p in path.read_text().split()] if path.exists() else []
    yield read
    for pid in read():
        if running(pid):
            os.kill(pid, signal.SIGKILL)


def test_protocol_schema_is_valid_draft4():
    Draft4Validator.check_schema(packaged.load_json(conformance.PROTOCOL_FILE))


def test_sgn_itself_scores_100_percent_in_persistent_mode_with_codes():
    code, report = conformance_json("--impl", f"{PY} -m sgn.harness", "--mode", "persistent", "--codes")
    assert code == 0 and report["ok"] is True
    assert report["totals"] == {"passed": len(CASES), "failed": 0, "errored": 0, "skipped": 0}
    assert report["implementation"]["name"] == "sgn"


def test_sgn_itself_in_simple_mode():
    code, report = conformance_json("--impl", f"{PY} -m sgn.harness --simple", "--level", "syntax")
    assert code == 0 and report["totals"]["passed"] == sum(c["level"] == "syntax" for c in CASES)


def test_an_accept_everything_implementation_fails():
    code, report = conformance_json("--impl", f"{PY} -c \"import sys; sys.stdin.buffer.read()\"",
                                    "--run", "schema-rd-*")
    assert code == 1 and report["ok"] is False
    invalid = [c for c in report["cases"] if not c["expected_valid"]]
    assert invalid and all(c["status"] == "failed" for c in invalid)


def test_the_harness_replies_follow_the_protocol():
    protocol = packaged.load_json(conformance.PROTOCOL_FILE)
    definitions = protocol["definitions"]
    requests = [json.dumps({"cmd": "start", "version": 1}),
                json.dumps({"cmd": "run", "seq": 1, "case": {"id": "x", "level": "schema", "profile": "strict",
                                                             "data": "WyIxIiwiUkQiLHsicmVzdWx0IjoxM31dCg=="}}),
                "not json", json.dumps({"cmd": "stop"})]
    replies = []

    class Out:
        def write(self, text):
            replies.append(json.loads(text))

        def flush(self):
            pass
    assert serve(iter(requests), Out()) == 0
    started, result, errored = replies
    Draft4Validator(dict(definitions["started"], definitions=definitions)).validate(started)
    Draft4Validator(dict(definitions["reply"], definitions=definitions)).validate(result)
    assert result["valid"] is False and result["errors"][0]["code"] == "schema-maximum"
    assert errored["errored"] is True


@pytest.mark.parametrize("behaviour", ["crash", "hang", "garbage", "out-of-order", "invalid-reply", "silent"])
def test_misbehaving_persistent_implementations_are_errored_and_the_run_finishes(behaviour):
    began = time.monotonic()
    code, report = conformance_json("--impl", f"{PY} {MISBEHAVING} {behaviour}", "--mode", "persistent",
                                    "--timeout", "1", "--run", "schema-rd-result-1*")
    chosen = [c for c in report["cases"] if c["status"] != "skipped"]
    assert code == 1 and chosen and all(c["status"] == "errored" for c in chosen)
    assert time.monotonic() - began < 30


@pytest.mark.parametrize("behaviour", ["crash", "hang"])
def test_misbehaving_simple_implementations_are_errored(behaviour):
    code, report = conformance_json("--impl", f"{PY} {MISBEHAVING} {behaviour} --simple",
                                    "--timeout", "1", "--run", "schema-rd-result-1*")
    assert code == 1 and all(c["status"] == "errored" for c in report["cases"])


def test_an_implementation_that_stops_reading_cannot_hang_the_run(tmp_path, pids):
    bundle = tmp_path / "cases.json"
    bundle.write_text(json.dumps({"format": 1, "cases": [big_case(), VALID[0]]}))
    began = time.monotonic()
    code, report = conformance_json("--impl", f"{PY} {MISBEHAVING} deaf", "--mode", "persistent",
                                    "--timeout", "1", "--cases", bundle)
    assert time.monotonic() - began < 60
    big, small = report["cases"]
    assert code == 1 and big["status"] == small["status"] == "errored"
    assert big["detail"] == "the request was not read within 1 s" and small["detail"] == "no answer within 1 s"
    assert len(pids()) == 3 and left_running(pids()) == []     # the first and its two restarts


def test_a_reply_nested_too_deep_is_a_protocol_error_not_a_crash(pids):
    run = conformance.run_cases([PY, MISBEHAVING, "deep"], VALID[:2], mode="persistent", timeout=5)
    assert [o.status for o in run.outcomes] == ["errored", "errored"]
    assert all(o.detail.startswith("a reply nested more than 64 deep") for o in run.outcomes)
    assert left_running(pids()) == []


@pytest.mark.parametrize("mode", ["simple", "persistent"])
def test_output_is_read_in_bounded_memory(mode, pids):
    argv = [PY, MISBEHAVING, "flood"] + (["--simple"] if mode == "simple" else [])
    tracemalloc.start()
    try:
        run = conformance.run_cases(argv, VALID[:2], mode=mode, timeout=5)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * MAX_OUTPUT_BYTES      # it printed 50 MB a case
    assert [o.status for o in run.outcomes] == ["errored", "errored"]
    assert all(f"{MAX_OUTPUT_BYTES} bytes" in o.detail for o in run.outcomes)
    assert left_running(pids()) == []


def test_simple_mode_does_not_wait_for_a_child_holding_the_pipes(pids):
    run = conformance.run_cases([PY, MISBEHAVING, "fork", "--simple"], VALID[:3], timeout=5)
    assert [o.status for o in run.outcomes] == ["passed"] * 3
    assert len(pids()) == 6 and left_running(pids()) == []      # the children too


def test_simple_mode_gives_up_on_an_implementation_that_keeps_hanging(pids):
    run = conformance.run_cases([PY, MISBEHAVING, "hang", "--simple"], VALID[:6], timeout=0.5)
    tried, untried = run.outcomes[:3], run.outcomes[3:]
    assert all(o.status == "errored" and o.detail == "no verdict within 0.5 s" for o in tried)
    assert all(o.status == "errored" and o.detail.startswith("gave up after 3 cases in a row") for o in untried)
    assert sum(o.seconds for o in untried) < 0.5 and run.untried == 3
    assert "gave up on the implementation (gave up after 3 cases in a row" in conformance.render_text(run)
    assert len(pids()) == 3 and left_running(pids()) == []


def test_simple_mode_input_larger_than_the_pipe_buffer_is_no_deadlock(pids):
    cases = [big_case("big-unread"), big_case("big-read")]
    unread = conformance.run_cases([PY, MISBEHAVING, "ignore-input", "--simple"], cases[:1], timeout=5)
    read = conformance.run_cases([PY, "-m", "sgn.harness", "--simple"], cases[1:], timeout=30)
    assert unread.outcomes[0].status == "passed" and read.outcomes[0].status == "passed"


def test_an_interrupted_run_leaves_no_process(pids):
    def interrupt(outcome):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        conformance.run_cases([PY, MISBEHAVING, "hang"], VALID[:2], mode="persistent", timeout=0.5, progress=interrupt)
    assert len(pids()) == 2 and left_running(pids()) == []      # the first and its restart


def test_a_command_that_does_not_exist_is_errored_not_a_crash():
    code, report = conformance_json("--impl", "no-such-sgn-implementation", "--run", "valid-bd")
    assert code == 1 and report["cases"][0]["status"] == "errored"


def test_no_shell_is_involved():
    # the ';' would start a second command in a shell; here it is one more argument
    code, report = conformance_json("--impl", f"{PY} -m sgn.harness --simple ; false", "--run", "valid-bd")
    assert report["cases"][0]["status"] == "passed"


def test_run_skip_level_and_skip_file(tmp_path):
    skip_file = tmp_path / "skip"
    skip_file.write_text("# known\nvalid-b*  # builds\n")
    code, report = conformance_json("--impl", f"{PY} -m sgn.harness", "--mode", "persistent",
                                    "--run", "valid-*", "--skip", "valid-bc", "--skip-file", str(skip_file),
                                    "--level", "schema")
    statuses = {c["id"]: c["status"] for c in report["cases"]}
    assert statuses["valid-bc"] == statuses["valid-bd"] == "skipped"
    assert all(s in ("passed", "skipped") for s in statuses.values()) and code == 0
    assert {c["level"] for c in report["cases"]} <= {"syntax", "schema"}


def test_text_and_junit_reports(tmp_path):
    report_file = tmp_path / "report.xml"
    result = run_cli("conformance", "--impl", f"{PY} -c \"import sys; sys.stdin.buffer.read()\"",
                     "--run", "schema-rd-result-1*", "-o", "junit", "--report", report_file)
    root = ElementTree.fromstring(report_file.read_bytes())
    assert root.tag == "testsuites" and root.find(".//failure") is not None
    text = run_cli("conformance", "--impl", f"{PY} -c \"import sys; sys.stdin.buffer.read()\"",
                   "--run", "schema-rd-result-1*").stdout.decode()
    assert "level" in text and "FAILED schema-rd-result-13" in text and "DOES NOT CONFORM" in text


def test_smoke():
    good = run_cli("smoke", "--impl", f"{PY} -m sgn.harness", "--mode", "persistent")
    assert good.returncode == 0 and b"wiring OK" in good.stderr
    bad = run_cli("smoke", "--impl", f"{PY} {MISBEHAVING} crash", "--mode", "persistent", "--timeout", "1")
    assert bad.returncode == 1 and b"check the wiring" in bad.stderr


def test_check_is_the_validator():
    assert check(b'["1","RD",{"result":8}]\n', "schema", "strict") == {"valid": True, "errors": []}


@pytest.fixture(scope="module")
def javascript_example():
    """The JavaScript example, with its npm packages installed (needs node and npm)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        pytest.skip("node and npm are not installed")
    if not (JS / "node_modules" / "ajv-draft-04").is_dir():
        subprocess.run([npm, "install", "--no-audit", "--no-fund", "--silent"], cwd=JS, check=True, timeout=300)
    return f"{node} {JS / 'sgn-ajv.js'}"


def test_the_javascript_example_passes_schema_cases_and_fails_the_rest(javascript_example):
    code, report = conformance_json("--impl", javascript_example, "--mode", "persistent",
                                    "--skip-file", str(JS / "conformance.skip"))
    levels = report["by_level"]
    assert code == 1 and report["implementation"]["language"] == "javascript"
    assert levels["schema"]["failed"] == 0 and levels["schema"]["errored"] == 0 and levels["schema"]["passed"] > 150
    assert levels["semantic"]["failed"] > 0 and levels["rules"]["failed"] > 0
    failed = {c["id"] for c in report["cases"] if c["status"] == "failed"}
    assert "semantic-trade-unbalanced-lumber" in failed or any(i.startswith("semantic-") for i in failed)


def test_the_javascript_example_in_simple_mode(javascript_example):
    code, report = conformance_json("--impl", javascript_example + " --simple", "--run", "schema-rd-*",
                                    "--skip-file", str(JS / "conformance.skip"))
    assert code == 0 and report["totals"]["failed"] == 0
