"""The conformance harness: sgn scores 100%, bad implementations are scored as such, and
misbehaving ones cannot stop the run."""

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
import xml.etree.ElementTree as ElementTree

import pytest
from jsonschema import Draft4Validator

from conftest import CHECKOUT, bundle_of, corpus_cases, run_cli
from sgn import conformance, corpus, packaged
from sgn.conformance import reply as impl_reply
from sgn.conformance.process import MAX_OUTPUT_BYTES, TimedOut
from sgn.harness import check, serve

PY = sys.executable
CASES = [c for c in corpus_cases() if c["kind"] not in corpus.NOTATIONS]  # SGN logs only
MISBEHAVING = str(CHECKOUT / "t" / "impls" / "misbehaving.py")
JS = CHECKOUT / "examples" / "js"
VALID = [c for c in CASES if c["valid"] and c.get("profile", "strict") == "strict"]
PIPE_BUFFER_MAX = 1 << 20  # the most a Linux pipe holds (fs.pipe-max-size by default)
# Time-outs of the harness in these tests. GUARD only guards against a deadlock: a case ends
# long before it, by an event (an answer, a crash, a limit), however slow the machine. HANG
# is meant to expire, on an implementation that hangs; in persistent mode the process must
# start and answer `start` within it too (a fifth of a second, pinned to a core kept busy).
GUARD = 60
HANG = 5


def conformance_json(*args):
    result = run_cli("conformance", "-o", "json", *args)
    return result.returncode, json.loads(result.stdout)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    """`bundle(cases)`: a file of these cases (conftest.bundle_of), written once a module. (The
    tests of sgn's own score, of levels and profiles, of baselines, and test_smoke read the
    packaged bundle.)"""
    folder, paths = tmp_path_factory.mktemp("bundles"), {}

    def bundle(cases):
        key = tuple(c["id"] for c in cases)
        if key not in paths:
            paths[key] = folder / f"cases-{len(paths)}.json"
            paths[key].write_text(bundle_of(cases), encoding="utf-8")
        return paths[key]

    return bundle


@pytest.fixture(scope="module")
def cases_of(bundle):
    """`cases_of(*globs)`: `--cases FILE --run GLOB...`, FILE a bundle of the packaged cases the
    globs select: the run selects the same cases as `--run GLOB...` alone."""
    return lambda *globs: [
        "--cases",
        bundle(conformance.select(corpus_cases(), run=globs)),
        *(arg for glob in globs for arg in ("--run", glob)),
    ]


@pytest.fixture(scope="module")
def smoke_bundle(bundle):
    """`--cases FILE` of the cases sgn smoke picks from the packaged bundle: it picks the same."""
    return ["--cases", bundle(conformance.smoke_cases(corpus_cases()))]


def big_case(case_id="big-log"):
    """A valid log of 4 MB, more than any pipe buffer holds."""
    text = '["1","RD",{"result":8}]\n' * (4 * PIPE_BUFFER_MAX // 24)
    return {
        "id": case_id,
        "description": "a long log",
        "kind": "raw",
        "level": "schema",
        "valid": True,
        "errors": [],
        "tags": [],
        "spec": "-",
        "input": text,
        "input_encoding": "text",
    }


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


def left_running(pids, wait=GUARD):
    """The pids still running once the killed ones are gone (a killed process takes a moment
    to go), or after `wait` seconds."""
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
    Draft4Validator.check_schema(packaged.load_json(impl_reply.PROTOCOL_FILE))


def test_sgn_itself_scores_100_percent_in_persistent_mode_with_codes_and_state():
    code, report = conformance_json("--impl", f"{PY} -m sgn.harness", "--mode", "persistent", "--codes", "--state")
    assert code == 0 and report["ok"] is True
    assert report["totals"] == {"passed": len(CASES), "failed": 0, "errored": 0, "skipped": 0, "undeclared": 0}
    assert report["implementation"]["name"] == "sgn"


# Syntax cases valid and invalid, compressed and not: a process each in the simple protocol
# (every case is asked of the same harness in persistent mode, and by tox -e matrix).
SIMPLE_SAMPLE = ("syntax-gzip-*", "syntax-utf8-*", "syntax-number-*")


def asked_cases(report):
    return [c for c in report["cases"] if c["status"] != "skipped"]


def test_sgn_itself_in_simple_mode(cases_of):
    code, report = conformance_json(
        "--impl", f"{PY} -m sgn.harness --simple", "--level", "syntax", *cases_of(*SIMPLE_SAMPLE)
    )
    asked = asked_cases(report)
    assert code == 0 and len(asked) >= 20 and report["totals"]["passed"] == len(asked)
    assert {c["expected_valid"] for c in asked} == {True, False}


def test_an_accept_everything_implementation_fails(cases_of):
    code, report = conformance_json(
        "--impl", f'{PY} -c "import sys; sys.stdin.buffer.read()"', *cases_of("schema-rd-*")
    )
    assert code == 1 and report["ok"] is False
    invalid = [c for c in report["cases"] if not c["expected_valid"]]
    assert invalid and all(c["status"] == "failed" for c in invalid)


def test_the_harness_replies_follow_the_protocol():
    protocol = packaged.load_json(impl_reply.PROTOCOL_FILE)
    definitions = protocol["definitions"]
    requests = [
        json.dumps({"cmd": "start", "version": 1}),
        json.dumps(
            {
                "cmd": "run",
                "seq": 1,
                "case": {
                    "id": "x",
                    "level": "schema",
                    "profile": "strict",
                    "data": "WyIxIiwiUkQiLHsicmVzdWx0IjoxM31dCg==",
                },
            }
        ),
        "not json",
        json.dumps({"cmd": "stop"}),
    ]
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


@pytest.mark.parametrize("behaviour", ["crash", "hang", "garbage", "out-of-order", "invalid-reply"])
def test_misbehaving_persistent_implementations_are_errored_and_the_run_finishes(cases_of, behaviour):
    """The run finishes: a harness that waited for a hanging process (600 s a case) would run
    into run_cli's guard. (Two cases where each is meant to time out: the second is asked of
    the process started again after the first.)"""
    code, report = conformance_json(
        "--impl",
        f"{PY} {MISBEHAVING} {behaviour}",
        "--mode",
        "persistent",
        "--timeout",
        str(HANG if behaviour == "hang" else GUARD),
        *cases_of("schema-rd-result-13*" if behaviour == "hang" else "schema-rd-result-1*"),
    )
    chosen = [c for c in report["cases"] if c["status"] != "skipped"]
    assert code == 1 and chosen and all(c["status"] == "errored" for c in chosen)
    assert behaviour != "hang" or len(chosen) == 2


@pytest.mark.parametrize("behaviour", ["crash", "hang"])
def test_misbehaving_simple_implementations_are_errored(cases_of, behaviour):
    code, report = conformance_json(
        "--impl", f"{PY} {MISBEHAVING} {behaviour} --simple", "--timeout", "1", *cases_of("schema-rd-result-1*")
    )
    assert code == 1 and all(c["status"] == "errored" for c in report["cases"])


def test_an_implementation_that_stops_reading_cannot_hang_the_run(tmp_path, pids):
    bundle = tmp_path / "cases.json"
    bundle.write_text(json.dumps({"format": 1, "cases": [big_case(), VALID[0]]}))
    code, report = conformance_json(
        "--impl", f"{PY} {MISBEHAVING} deaf", "--mode", "persistent", "--timeout", str(HANG), "--cases", bundle
    )
    big, small = report["cases"]
    assert code == 1 and big["status"] == small["status"] == "errored"
    assert (
        big["detail"] == f"the request was not read within {HANG} s" and small["detail"] == f"no answer within {HANG} s"
    )
    assert len(pids()) == 3 and left_running(pids()) == []  # the first and its two restarts


def test_a_reply_nested_too_deep_is_a_protocol_error_not_a_crash(pids):
    run = conformance.run_cases([PY, MISBEHAVING, "deep"], VALID[:2], mode="persistent", timeout=GUARD)
    assert [o.status for o in run.outcomes] == ["errored", "errored"]
    assert all(o.detail.startswith("a reply nested more than 64 deep") for o in run.outcomes)
    assert left_running(pids()) == []


@pytest.mark.parametrize("mode", ["simple", "persistent"])
def test_output_is_read_in_bounded_memory(mode, pids):
    argv = [PY, MISBEHAVING, "flood"] + (["--simple"] if mode == "simple" else [])
    tracemalloc.start()
    try:
        run = conformance.run_cases(argv, VALID[:2], mode=mode, timeout=GUARD)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * MAX_OUTPUT_BYTES  # it printed 50 MB a case
    assert [o.status for o in run.outcomes] == ["errored", "errored"]
    assert all(f"{MAX_OUTPUT_BYTES} bytes" in o.detail for o in run.outcomes)
    assert left_running(pids()) == []


def test_a_run_keeps_a_bounded_summary_of_each_reply(pids):
    """Each reply is almost 1 MiB, some 6 MB once parsed: a run that kept them grew by as much a
    case, to some 144 MB after these 24, over twice the bound (the run's peak is some 8 MB)."""
    tracemalloc.start()
    try:
        run = conformance.run_cases([PY, MISBEHAVING, "bulky"], VALID[:24], mode="persistent", timeout=GUARD)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20
    assert [o.status for o in run.outcomes] == ["failed"] * 24
    assert all(o.got_codes == ("x",) and o.got_errors == (("x", None, None, None),) for o in run.outcomes)
    assert left_running(pids()) == []


def test_what_is_kept_of_a_reply_s_errors_is_bounded():
    errors = [{"code": f"code-{i % 50}", "line": 10**30, "pointer": "/" * 10_000} for i in range(1000)]
    errors.insert(0, {"code": "c" * 10_000, "line": 3})
    codes, first = impl_reply.kept_errors(errors)
    assert len(codes) == impl_reply.MAX_CODES + 1 and codes[-1] == impl_reply.MORE_CODES
    assert codes[:-1] == tuple(sorted(codes[:-1])) and "c" * impl_reply.MAX_CHARS + "..." in codes
    assert len(first) == impl_reply.MAX_ERRORS and first[0] == ("c" * impl_reply.MAX_CHARS + "...", 3, None, None)
    assert first[1] == ("code-0", impl_reply.MAX_LINE, "/" * impl_reply.MAX_CHARS + "...", None)
    assert impl_reply.kept_errors([{"code": "b"}, {"code": "a", "line": 2, "column": 4}, {"code": "b"}]) == (
        ("a", "b"),
        (("b", None, None, None), ("a", 2, None, 4), ("b", None, None, None)),
    )


REPLIES = [
    ("reply", r)
    for r in (
        {"seq": 1, "valid": False, "errors": [{"code": "x", "line": 1}, {"code": 2}]},
        {"seq": 1, "valid": False, "errors": {"code": "x"}},
        {"seq": 1, "valid": False, "errors": [{"code": "x", "z": [1, 2]}]},
        {"seq": 1, "skipped": True, "errors": [{"code": 2}]},
        {"seq": 1, "errored": True, "valid": "no", "errors": [{}]},
        {"seq": 1, "valid": True, "skipped": 1, "errors": [{"code": 2}]},
        {"seq": 1, "errors": []},
        {"seq": 1, "valid": 1},
        [1],
        "x",
    )
] + [
    ("started", r)
    for r in (
        {"ready": True, "version": 1, "implementation": {"name": "a", "language": "b", "levels": ["rules"] * 3}},
        {"ready": True, "version": 1, "implementation": {"name": "a", "language": "b", "profiles": ["strict", 1]}},
        {"ready": True, "version": 1, "implementation": {"name": "a", "language": "b", "levels": "rules"}},
        {"ready": True, "version": 1, "implementation": {"name": "", "language": "b", "profiles": ["strict"]}},
        {"ready": True, "version": 1, "implementation": ["a"]},
        {"ready": True, "version": 1},
    )
]


@pytest.mark.parametrize("definition, reply", REPLIES)
def test_replies_are_checked_as_the_schema_says(definition, reply):
    definitions = packaged.load_json(impl_reply.PROTOCOL_FILE)["definitions"]
    schema = Draft4Validator(dict(definitions[definition], definitions=definitions))
    replies, line, deadline = impl_reply.Replies(), json.dumps(reply).encode(), time.monotonic() + 5
    read = (
        (lambda: replies.run(line, 1, deadline)) if definition == "reply" else (lambda: replies.started(line, deadline))
    )
    if schema.is_valid(reply):
        assert read()
    else:
        with pytest.raises(impl_reply.ProtocolError, match="^bad (reply|answer to start): "):
            read()


def test_a_reply_of_many_bad_errors_is_checked_in_bounded_memory_and_time():
    """50,000 errors: checked by the schema alone (anyOf), they take 174 MB (330 MB at 95,000)."""
    line = b'{"seq":1,"valid":false,"errors":[' + b",".join([b'{"code":1}'] * 50_000) + b"]}"
    assert len(line) < MAX_OUTPUT_BYTES
    replies = impl_reply.Replies()
    tracemalloc.start()
    try:
        with pytest.raises(impl_reply.ProtocolError) as bad:
            replies.run(line, 1, time.monotonic() + 5)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20  # the schema's anyOf, gathering every problem, took 350 MB at 95,000
    assert str(bad.value) == "bad reply: errors[0]: 1 is not of type 'string'"
    good = line.replace(b'{"code":1}', b'{"code":"x"}')
    began = time.monotonic()
    with pytest.raises(TimedOut, match="the 50000 items of errors were not checked"):
        replies.run(good, 1, began)  # half a second's work, stopped at the first look at the clock
    assert replies.run(good, 1, time.monotonic() + 60).codes == ("x",)


def test_simple_mode_does_not_wait_for_a_child_holding_the_pipes(pids):
    """The child holds the pipes for 300 s: waiting for it would time out (GUARD)."""
    run = conformance.run_cases([PY, MISBEHAVING, "fork", "--simple"], VALID[:3], timeout=GUARD)
    assert [o.status for o in run.outcomes] == ["passed"] * 3
    assert len(pids()) == 6 and left_running(pids()) == []  # the children too


def test_simple_mode_gives_up_on_an_implementation_that_keeps_hanging(pids):
    run = conformance.run_cases([PY, MISBEHAVING, "hang", "--simple"], VALID[:6], timeout=0.5)
    tried, untried = run.outcomes[:3], run.outcomes[3:]
    assert all(o.status == "errored" and o.detail == "no verdict within 0.5 s" for o in tried)
    assert all(o.status == "errored" and o.detail.startswith("gave up after 3 cases in a row") for o in untried)
    assert run.untried == 3
    assert "gave up on the implementation (gave up after 3 cases in a row" in conformance.render_text(run)
    assert len(pids()) == 3 and left_running(pids()) == []  # no process for the cases not tried


def test_simple_mode_input_larger_than_the_pipe_buffer_is_no_deadlock(pids):
    cases = [big_case("big-unread"), big_case("big-read")]
    unread = conformance.run_cases([PY, MISBEHAVING, "ignore-input", "--simple"], cases[:1], timeout=GUARD)
    read = conformance.run_cases([PY, "-m", "sgn.harness", "--simple"], cases[1:], timeout=30)
    assert unread.outcomes[0].status == "passed" and read.outcomes[0].status == "passed"


@pytest.fixture
def runs(tmp_path, monkeypatch):
    """How many cases the misbehaving implementation has been given (its processes note each)."""
    path = tmp_path / "runs"
    monkeypatch.setenv("SGN_TEST_RUNFILE", str(path))
    return lambda: len(path.read_text().split()) if path.exists() else 0


@pytest.fixture
def interrupt_when():
    """`interrupt_when(event)`: Ctrl-C, SIGINT to the main thread (waking it from any wait), as
    soon as `event()` is true (looked at from another thread, for GUARD seconds at most: then
    no Ctrl-C, and the test fails for want of it); the thread, to join after. SIGINT raises
    KeyboardInterrupt meanwhile, as in a terminal, even where the tests were started with it
    ignored (as a shell starts a job in the background)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield _interrupt_when
    signal.signal(signal.SIGINT, before)


def _interrupt_when(event):
    main = threading.main_thread().ident

    def watch():
        deadline = time.monotonic() + GUARD
        while time.monotonic() < deadline:
            if event():
                signal.pthread_kill(main, signal.SIGINT)
                return
            time.sleep(0.01)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    return watcher


def test_an_interrupted_run_leaves_no_process(pids):
    """Interrupted when a case errored (the process crashed) and a new process started."""

    def interrupt(outcome):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        conformance.run_cases(
            [PY, MISBEHAVING, "crash"], VALID[:2], mode="persistent", timeout=GUARD, progress=interrupt
        )
    assert len(pids()) == 2 and left_running(pids()) == []  # the first and its restart


@pytest.mark.parametrize("mode", ["simple", "persistent"])
def test_a_run_interrupted_in_the_middle_of_a_case_leaves_no_process(pids, runs, mode, interrupt_when):
    argv = [PY, MISBEHAVING, "hang"] + (["--simple"] if mode == "simple" else [])
    watcher = interrupt_when(lambda: runs() == 1)  # the process has its case, and hangs
    with pytest.raises(KeyboardInterrupt):
        conformance.run_cases(argv, VALID[:2], mode=mode, timeout=GUARD)
    watcher.join()
    assert len(pids()) == 1 and left_running(pids()) == []


@pytest.mark.parametrize("mode", ["simple", "persistent"])
def test_an_interrupted_run_of_several_jobs_leaves_no_process(pids, runs, mode, interrupt_when):
    """Interrupted when each of 3 processes has a case and hangs: the cases end then, killed,
    none by its time-out."""
    argv = [PY, MISBEHAVING, "hang"] + (["--simple"] if mode == "simple" else [])
    ended = []
    watcher = interrupt_when(lambda: runs() == 3)
    with pytest.raises(KeyboardInterrupt):
        conformance.run_cases(argv, VALID[:8], mode=mode, timeout=GUARD, progress=ended.append, jobs=3)
    watcher.join()
    assert len(pids()) == 3 and left_running(pids()) == []  # none started again once interrupted
    assert not any("within" in o.detail for o in ended)


@pytest.mark.parametrize("mode", ["simple", "persistent"])
def test_a_command_that_does_not_exist_is_one_clear_message_and_exit_2(cases_of, mode):
    result = run_cli(
        "conformance", "--impl", "no-such-sgn-implementation", "--mode", mode, *cases_of("schema-rd-result-1*")
    )
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr == b"sgn conformance: cannot run no-such-sgn-implementation: No such file or directory\n"


def test_an_implementation_that_does_not_answer_start_is_one_clear_message_and_exit_2(cases_of):
    result = run_cli(
        "conformance",
        "--impl",
        f"{PY} {MISBEHAVING} silent",
        "--mode",
        "persistent",
        "--timeout",
        "1",
        *cases_of("schema-rd-result-1*"),
    )
    assert result.returncode == 2 and result.stdout == b"" and b"did not start: no answer within 1 s" in result.stderr


def test_a_selection_of_no_case_is_exit_2(cases_of):
    bundle = cases_of("schema-rd-result-1*")[:2]  # (cases, none of which the glob selects)
    result = run_cli("conformance", "--impl", f"{PY} -m sgn.harness --simple", *bundle, "--run", "no-such-case*")
    assert result.returncode == 2 and b"no case is selected" in result.stderr and result.stdout == b""


def test_smoke_fails_a_program_that_says_the_same_of_everything(smoke_bundle):
    result = run_cli("smoke", "--impl", "true", *smoke_bundle)
    assert result.returncode == 1 and b"answered every case valid" in result.stderr


def test_no_shell_is_involved(cases_of):
    # the ';' would start a second command in a shell; here it is one more argument
    code, report = conformance_json("--impl", f"{PY} -m sgn.harness --simple ; false", *cases_of("valid-bd"))
    assert report["cases"][0]["status"] == "passed"


def test_run_skip_level_and_skip_file(tmp_path, cases_of):
    skip_file = tmp_path / "skip"
    skip_file.write_text("# known\nvalid-b*  # builds\n")
    code, report = conformance_json(
        "--impl",
        f"{PY} -m sgn.harness",
        "--mode",
        "persistent",
        *cases_of("valid-*"),
        "--skip",
        "valid-bc",
        "--skip-file",
        str(skip_file),
        "--level",
        "schema",
    )
    statuses = {c["id"]: c["status"] for c in report["cases"]}
    assert statuses["valid-bc"] == statuses["valid-bd"] == "skipped"
    assert all(s in ("passed", "skipped") for s in statuses.values()) and code == 0
    assert {c["level"] for c in report["cases"]} <= {"syntax", "schema"}


def test_text_and_junit_reports(tmp_path, cases_of):
    report_file = tmp_path / "report.xml"
    result = run_cli(
        "conformance",
        "--impl",
        f'{PY} -c "import sys; sys.stdin.buffer.read()"',
        *cases_of("schema-rd-result-1*"),
        "-o",
        "junit",
        "--report",
        report_file,
    )
    assert result.returncode == 1 and result.stdout.decode() == report_file.read_text()
    root = ElementTree.fromstring(report_file.read_bytes())
    assert root.tag == "testsuites" and root.find(".//failure") is not None
    text = run_cli(
        "conformance", "--impl", f'{PY} -c "import sys; sys.stdin.buffer.read()"', *cases_of("schema-rd-result-1*")
    ).stdout.decode()
    assert "level" in text and "FAILED schema-rd-result-13" in text and "DOES NOT CONFORM" in text


def test_smoke():
    good = run_cli("smoke", "--impl", f"{PY} -m sgn.harness", "--mode", "persistent")
    assert good.returncode == 0 and b"wiring OK" in good.stderr
    bad = run_cli("smoke", "--impl", f"{PY} {MISBEHAVING} crash", "--mode", "persistent", "--timeout", str(GUARD))
    assert bad.returncode == 1 and b"check the wiring" in bad.stderr


def test_check_is_the_validator():
    assert check(b'["1","RD",{"result":8}]\n', "schema", "strict") == {"valid": True, "errors": [], "warnings": []}
    bad = check(b'["1","RD",{"result":13}]\n', "schema", "strict")
    assert bad["errors"][0]["code"] == "schema-maximum" and bad["errors"][0]["pointer"] == "/2/result"
    assert "state" not in bad and "state" in check(b'["1","RD",{"result":8}]\n', "rules", "strict")


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
    code, report = conformance_json(
        "--impl", javascript_example, "--mode", "persistent", "--skip-file", str(JS / "conformance.skip")
    )
    levels = report["by_level"]
    assert code == 1 and report["implementation"]["language"] == "javascript"
    assert levels["schema"]["failed"] == 0 and levels["schema"]["errored"] == 0 and levels["schema"]["passed"] > 150
    # it declares the levels syntax and schema: the others are not asked, and counted apart
    assert levels["semantic"]["undeclared"] > 0 and levels["rules"]["undeclared"] > 0
    assert levels["semantic"]["failed"] == levels["rules"]["failed"] == 0 and levels["syntax"]["failed"] > 0


def test_the_javascript_example_in_simple_mode(javascript_example, cases_of):
    """Its simple mode's wiring, on logs valid and invalid: its verdict is its persistent
    mode's (one check), asked every case above (a case here is a node process, 0.4 s)."""
    code, report = conformance_json(
        "--impl",
        javascript_example + " --simple",
        *cases_of("schema-rd-result-1*", "valid-rd"),
        "--skip-file",
        str(JS / "conformance.skip"),
    )
    asked = asked_cases(report)
    assert code == 0 and report["totals"]["failed"] == 0 and report["totals"]["passed"] == len(asked)
    assert {c["expected_valid"] for c in asked} == {True, False}


# -- a crash is not a verdict (sgn/conformance/crash.py) ----------------------------------------------------


def _crashing_python(tmp_path):
    script = tmp_path / "crash.py"
    script.write_text("import sys\nsys.stdin.buffer.read()\nraise RuntimeError('no parser yet')\n")
    return f"{PY} {script}"


def test_a_python_program_that_crashes_on_every_case_scores_nothing(tmp_path, cases_of):
    """On the sample of test_sgn_itself_in_simple_mode: the crash does not depend on the case
    (test_a_shell_program_that_fails_is_errored_with_another_invalid_exit_code scores all of them)."""
    code, report = conformance_json(
        "--impl", _crashing_python(tmp_path), "--level", "syntax", *cases_of(*SIMPLE_SAMPLE)
    )
    asked = asked_cases(report)
    assert code == 1 and report["totals"]["passed"] == 0 and report["totals"]["failed"] == 0 and len(asked) >= 20
    assert all(c["status"] == "errored" and "uncaught Python exception" in c["detail"] for c in asked)


@pytest.mark.skipif(
    shutil.which("node") is None, reason="needs Node.js (node) on the PATH to run a crashing Node program"
)
def test_a_node_program_that_crashes_on_every_case_scores_nothing(cases_of):
    program = 'node -e \'require("fs").readFileSync(0); throw new Error("no parser yet")\''
    code, report = conformance_json("--impl", program, "--level", "syntax", *cases_of(*SIMPLE_SAMPLE))
    assert code == 1 and report["totals"]["passed"] == 0 and len(asked_cases(report)) >= 20
    assert all("uncaught Node.js exception" in c["detail"] for c in asked_cases(report))


def test_a_shell_program_that_fails_is_errored_with_another_invalid_exit_code():
    failing = "sh -c 'cat >/dev/null; exit 1'"  # set -e and a failing command: exit 1, no report
    _, report = conformance_json("--impl", failing, "--level", "syntax", "--invalid-exit", "3")
    assert report["totals"]["passed"] == 0 and report["totals"]["errored"] == len(report["cases"])
    rejecting = "sh -c 'cat >/dev/null; exit 3'"
    _, report = conformance_json("--impl", rejecting, "--level", "syntax", "--invalid-exit", "3")
    assert report["totals"]["passed"] == report["baselines"]["reject_everything"] > 0


def test_every_report_shows_the_baselines_of_its_selection(tmp_path, cases_of):
    """The JSON report of the packaged bundle's cases up to schema, and the text one of a sample."""
    accepting = "sh -c 'cat >/dev/null; exit 0'"
    code, report = conformance_json("--impl", accepting, "--level", "schema")
    assert report["totals"]["passed"] == report["baselines"]["accept_everything"]
    by_id = {c["id"]: c for c in CASES}
    valid = sum(by_id[c["id"]]["valid"] for c in report["cases"])
    assert report["baselines"] == {"accept_everything": valid, "reject_everything": report["totals"]["failed"]}
    sample = ("schema-rd-*", *SIMPLE_SAMPLE)
    valid = sum(c["valid"] for c in conformance.select(CASES, run=sample, level="schema"))
    text = run_cli("conformance", "--impl", accepting, "--level", "schema", *cases_of(*sample)).stdout.decode()
    assert 0 < valid and f"accepting everything passes {valid}, rejecting everything passes" in text.splitlines()[1]


@pytest.mark.parametrize(
    "stderr, runtime",
    [
        ('Traceback (most recent call last):\n  File "x.py", line 3, in <module>\nRuntimeError: boom\n', "Python"),
        (
            "[eval]:1\nthrow new Error('boom')\n^\n\nError: boom\n    at [eval]:1:7\n    at node:internal/vm:209:10\n\n"
            "Node.js v20.20.2\n",
            "Node.js",
        ),
        (
            "TypeError: Cannot read properties of null (reading 'x')\n    at Object.<anonymous> (/a/b.js:3:5)\n",
            "Node.js",
        ),
        ("x.rb:3:in `parse': bad line (RuntimeError)\n", "Ruby"),
        ('Exception in thread "main" java.lang.IllegalStateException: boom\n\tat Main.main(Main.java:3)\n', "Java"),
        ("panic: runtime error: index out of range\n\ngoroutine 1 [running]:\nmain.main()\n", "Go"),
        ("thread 'main' panicked at src/main.rs:3:5:\nboom\n", "Rust"),
        ("Unhandled exception. System.Exception: boom\n", ".NET"),
        ("PHP Fatal error:  Uncaught Exception: boom in /a.php:3\n", "PHP"),
        ("impl.sh: line 4: jq: command not found\n", "shell"),
        # Python's crashes that do not start a line with `Traceback`, or have no such line
        (
            '  + Exception Group Traceback (most recent call last):\n  |   File "x.py", line 1, in <module>\n'
            "  | ExceptionGroup: boom (1 sub-exception)\n  +-+---------------- 1 ----------------\n    | ValueError: x\n",
            "Python",
        ),
        (
            'checking... Traceback (most recent call last):\n  File "x.py", line 3, in <module>\nRuntimeError: boom\n',
            "Python",
        ),
        (
            '10%\r50%\rTraceback (most recent call last):\r\n  File "x.py", line 3, in <module>\r\nRuntimeError: boom\r\n',
            "Python",
        ),
        ('  File "/a/impl.py", line 3\n    def f(:\n          ^\nSyntaxError: invalid syntax\n', "Python"),
        ('  File "/a/impl.py", line 2\n    x = 1\nIndentationError: unexpected indent\n', "Python"),
        (
            "SyntaxError: Non-UTF-8 code starting with '\\xff' in file /a/impl.py on line 1, but no encoding declared\n",
            "Python",
        ),
        ("/usr/bin/python3: No module named no_such_impl_mod\n", "Python"),
        (
            "python3: Error while finding module specification for 'a.b' (ModuleNotFoundError: No module named 'a')\n",
            "Python",
        ),
        (
            "reading... Fatal Python error: _PyMem_DebugMalloc: Python memory allocator called without holding the GIL\n",
            "Python",
        ),
        # Node.js: a thrown value that is no Error has no stack
        (
            '\n/a/impl.js:1\nrequire("fs").readFileSync(0); throw "boom";\n                               ^\nboom\n'
            "(Use `node --trace-uncaught ...` to show where the exception was thrown)\n\nNode.js v20.20.2\n",
            "Node.js",
        ),
        ("/a/impl.js:1\nthrow {a: 1};\n^\n{ a: 1 }\n\nNode.js v20.20.2\n", "Node.js"),
        ("progress 10%\rthread 'main' panicked at src/main.rs:3:5:\n", "Rust"),
        # verdicts, however they look
        ("bad log\n", None),  # sys.exit("bad log")
        ('  File "game.sgn", line 3\n    ["1","RD",{"result":13}]\n', None),  # a frame, and no exception after it
        ("checking... 10%\r50%\rinvalid: line 3: no Traceback here\n", None),
        ('/a/game.sgn:3\n["1","RD"]\n^\nschema: 13 is greater than 12\nchecked with Node.js v20.20.2\n', None),
        ("line 1: /2/result: 13 is greater than the maximum 12\n", None),
        ("invalid: the line is not JSON (at column 3)\nError count: 1\n", None),
        ("", None),
    ],
)
def test_crash_signatures(stderr, runtime):
    from sgn.conformance.crash import crash_signature

    assert crash_signature(stderr) == runtime


def test_cases_at_levels_or_profiles_not_declared_are_counted_apart():
    code, report = conformance_json(
        "--impl", f"{PY} -m sgn.harness --levels syntax,schema --profiles strict", "--mode", "persistent"
    )
    undeclared = [c for c in report["cases"] if c["status"] == "undeclared"]
    by_id = {c["id"]: c for c in CASES}
    assert code == 0 and report["ok"] is True and undeclared
    assert all(
        by_id[c["id"]]["level"] in ("semantic", "rules") or by_id[c["id"]].get("profile") == "compat"
        for c in undeclared
    )
    assert report["totals"]["passed"] == len(CASES) - len(undeclared) and report["totals"]["failed"] == 0


def test_the_profile_option_selects_cases_and_compat_cases_carry_their_tag():
    compat = [c for c in CASES if c.get("profile") == "compat"]
    assert compat and all("compat" in c["tags"] for c in compat)
    _, report = conformance_json("--impl", f"{PY} -m sgn.harness", "--mode", "persistent", "--profile", "compat")
    assert len(report["cases"]) == len(compat) and report["totals"]["passed"] == len(compat)


def test_undeclared_cases_are_skipped_in_junit():
    result = run_cli(
        "conformance", "--impl", f"{PY} -m sgn.harness --levels syntax", "--mode", "persistent", "-o", "junit"
    )
    suites = {s.get("name"): s for s in ElementTree.fromstring(result.stdout).iter("testsuite")}
    assert result.returncode == 0 and suites["rules"].get("skipped") == suites["rules"].get("tests") != "0"


# -- a crash is a crash however much it printed, and wherever (sgn/conformance/crash.py) -------------------

LONG_CRASH = 'raise ValueError("cannot read the log: " + "x" * 5000)\n'  # its Traceback line is 5 KB from the end


def _script(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return f"{PY} {path}"


def _persistent(tmp_path, name, on_run):
    """A persistent implementation that answers start, then runs `on_run` (Python lines, with
    `request` and `reply`) on each case."""
    body = "".join(f"        {line}\n" for line in on_run.splitlines())
    return _script(
        tmp_path,
        name,
        (
            "import json, sys\n"
            "for line in sys.stdin:\n"
            "    request = json.loads(line)\n"
            "    if request['cmd'] == 'start':\n"
            "        reply = {'ready': True, 'version': 1, 'implementation': {'name': 'x', 'language': 'python'}}\n"
            "    elif request['cmd'] == 'run':\n"
            f"{body}"
            "    else:\n"
            "        break\n"
            "    print(json.dumps(reply), flush=True)\n"
        ),
    )


def test_a_crash_with_a_long_message_is_a_crash_in_simple_mode(tmp_path, cases_of):
    impl = _script(tmp_path, "long.py", "import sys\nsys.stdin.buffer.read()\n" + LONG_CRASH)
    code, report = conformance_json("--impl", impl, "--level", "syntax", *cases_of(*SIMPLE_SAMPLE))
    asked = asked_cases(report)
    assert code == 1 and report["ok"] is False and report["totals"]["passed"] == 0 and len(asked) >= 20
    assert all(
        c["status"] == "errored" and c["detail"].startswith("crashed: an uncaught Python exception x") for c in asked
    )
    assert "Traceback" not in asked[0]["stderr"]  # the tail kept does not hold it: the scan found it


def test_a_crash_with_a_long_message_is_a_crash_in_persistent_mode(tmp_path, cases_of):
    impl = _persistent(tmp_path, "long.py", LONG_CRASH)
    code, report = conformance_json(
        "--impl", impl, "--mode", "persistent", "--level", "syntax", *cases_of(*SIMPLE_SAMPLE)
    )
    tried = report["cases"][:4]  # the first process and its 3 restarts; then the harness gives up
    assert code == 1 and report["totals"]["passed"] == 0 and report["totals"]["errored"] == len(report["cases"])
    assert all(
        c["detail"] == "the process ended (exit code 1); its standard error shows an uncaught Python exception"
        for c in tried
    )


@pytest.mark.parametrize("where", ["stdout", "stderr"])
def test_a_crash_is_seen_after_a_megabyte_of_output_in_simple_mode(tmp_path, where):
    """The traceback, then most of the megabyte a case may print, on either stream: a shell's
    `2>&1` puts the report of a crash on standard output."""
    impl = _script(
        tmp_path,
        "loud.py",
        (
            "import sys, traceback\nsys.stdin.buffer.read()\n"
            "try:\n    raise ValueError('cannot read the log')\nexcept ValueError:\n"
            f"    traceback.print_exc(file=sys.{where})\n"
            f"sys.{where}.write(('log line ' * 10 + '\\n') * 9000)\nsys.exit(1)\n"
        ),
    )
    run = conformance.run_cases(impl, VALID[:1] + [c for c in CASES if not c["valid"]][:1])
    assert [o.status for o in run.outcomes] == ["errored", "errored"]
    assert all(o.detail.startswith("crashed: an uncaught Python exception") for o in run.outcomes)


def test_a_fatal_signal_is_a_crash(tmp_path):
    segv = tmp_path / "segv.py"
    segv.write_text("import os, signal, sys\nsys.stdin.buffer.read()\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    cases = [c for c in CASES if not c["valid"]][:2]
    itself = conformance.run_cases([PY, str(segv)], cases)
    assert [o.detail for o in itself.outcomes] == ["crashed: killed by SIGSEGV"] * 2
    wrapped = conformance.run_cases(["sh", "-c", f"{PY} {segv} || exit 1"], cases)  # the shell says so, exits 1
    assert all(o.status == "errored" and o.detail.startswith("crashed: a fatal signal") for o in wrapped.outcomes)


SPLIT = [
    'Traceback (most recent call last):\n  File "x.py", line 3, in <module>\nValueError: boom\n',
    'checking... 10%\r50%\rTraceback (most recent call last):\r\n  File "x.py", line 3, in <module>\r\nValueError: x\r\n',
    '  File "/a/impl.py", line 3\n    def f(:\n          ^\nSyntaxError: invalid syntax\n',
    "/a/b.js:1\nthrow 'boom';\n^\nboom\n(Use `node --trace-uncaught ...` to show where the exception was thrown)\n"
    "\nNode.js v20.20.2\n",
    "panic: boom\r\n\r\ngoroutine 1 [running]:\r\n",  # a CR and its LF apart must not make a line
    "Error: boom\n    at Object.<anonymous> (/a/b.js:3:5)\n",
    "/a/b.js:3\nthrow e\n^\n\nError: x\n" + "    at f (/a/b.js:1:2)\n" * 10 + "\nNode.js v20.20.2\n",
    "panic: boom\n\ngoroutine 1 [running]:\n",
    "thread 'main' panicked at src/main.rs:3:5:\nboom\n",
]


@pytest.mark.parametrize("text", SPLIT)
def test_a_signature_is_found_wherever_the_reads_cut_it(text):
    from sgn.conformance.crash import CrashScanner, find_crash

    data = ("é log line\n" * 5000 + text + "x" * 100_000 + "\nthe end\n").encode()
    found = find_crash(data.decode()).name
    start = data.index(text.encode())
    for cut in range(start - 3, start + len(text) + 3):
        scanner = CrashScanner()
        for piece in (data[:cut], data[cut:]):
            scanner.feed(piece)
        assert scanner.finish().name == found, cut
    scanner = CrashScanner()
    for index in range(start - 100, start + len(text) + 100):
        scanner.feed(data[index : index + 1])  # a byte at a time, a character's two bytes apart
    assert scanner.found is None or scanner.found.name == found
    scanner.feed(data[start + len(text) + 100 :])
    assert scanner.finish().name == found


def test_the_scan_holds_a_bounded_part_of_what_it_reads():
    """Fed as the harness reads (chunks of 64 KiB at most), whatever the lines' length."""
    from sgn.conformance.crash import CrashScanner

    scanner, chunk = CrashScanner(), 1 << 16
    tracemalloc.start()
    try:
        scanner.feed(b"Traceback (most recent call last):")  # a line that is not over...
        for _ in range(50 << 20 >> 16):
            scanner.feed(b"x" * chunk)  # ...for 50 MB, then short ones
        for _ in range(5 << 20 >> 16):
            scanner.feed(b"\nline" * (chunk // 5))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20
    assert scanner.finish() is None  # the long line is not the signature's line


def test_no_case_of_the_corpus_looks_like_a_crash():
    """Simple mode scans standard output too: an implementation that echoes its input is no crash."""
    from sgn.conformance.crash import CrashScanner

    for case in corpus_cases():
        scanner = CrashScanner()
        scanner.feed(corpus.case_bytes(case))
        assert scanner.finish() is None, case["id"]


# -- crashes whose report is not the usual one (sgn/conformance/crash.py) --------------------------------------

NODE = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js (node) on the PATH")
PYTHON_CRASHES = {  # what a Python implementation does after reading its input, and what the crash is called
    "exception-group": ('raise ExceptionGroup("boom", [ValueError("x")])', "an uncaught Python exception"),
    "after-a-partial-line": (
        'sys.stderr.write("checking... "); sys.stderr.flush(); raise RuntimeError("boom")',
        "an uncaught Python exception",
    ),
    "after-progress": (
        r'sys.stderr.write("10%\r50%\r"); sys.stderr.flush(); raise RuntimeError("boom")',
        "an uncaught Python exception",
    ),
    "after-a-partial-line-on-stdout": (
        'print("checking... ", end="", flush=True); import traceback\ntry:\n    raise RuntimeError("boom")\n'
        "except RuntimeError:\n    traceback.print_exc(file=sys.stdout)\n    sys.exit(1)",
        "an uncaught Python exception",
    ),
}


def _simple_crash(tmp_path, name):
    """A program that crashes on every case in simple mode (after reading its input), and what
    the crash is called."""
    if name in PYTHON_CRASHES:
        body, what = PYTHON_CRASHES[name]
        return _script(tmp_path, f"{name}.py", f"import sys\nsys.stdin.buffer.read()\n{body}\n"), what
    if name == "syntax-error":
        return _script(
            tmp_path, "syntax.py", "import sys\nsys.stdin.buffer.read()\ndef f(:\n    pass\n"
        ), "a Python syntax error"
    if name == "indentation-error":
        return _script(tmp_path, "indent.py", "import sys\n  sys.stdin.buffer.read()\n"), "a Python syntax error"
    if name == "no-such-module":
        return f"{PY} -m no_such_impl_mod", "a missing Python module"
    thrown = {"node-throws-a-string": '"boom"', "node-throws-an-object": "{code: 3}"}[name]
    (tmp_path / "impl.js").write_text(f'require("fs").readFileSync(0);\nthrow {thrown};\n')
    return f"node {tmp_path / 'impl.js'}", "an uncaught Node.js exception"


INVALID = [c for c in CASES if not c["valid"] and c.get("profile", "strict") == "strict"]


@pytest.mark.parametrize(
    "name",
    [
        *PYTHON_CRASHES,
        "syntax-error",
        "indentation-error",
        "no-such-module",
        pytest.param("node-throws-a-string", marks=NODE),
        pytest.param("node-throws-an-object", marks=NODE),
    ],
)
def test_a_crash_however_reported_is_errored_in_simple_mode(tmp_path, name):
    """None of these passes an invalid case: each exits with 1, as a verdict invalid would."""
    impl, what = _simple_crash(tmp_path, name)
    run = conformance.run_cases(impl, VALID[:1] + INVALID[:3], timeout=GUARD)
    assert [o.status for o in run.outcomes] == ["errored"] * 4
    assert all(o.detail.startswith(f"crashed: {what}") for o in run.outcomes), run.outcomes[0].detail


def test_a_python_program_with_a_syntax_error_scores_nothing_at_the_syntax_level(tmp_path, cases_of):
    impl, _ = _simple_crash(tmp_path, "syntax-error")
    code, report = conformance_json("--impl", impl, "--level", "syntax", *cases_of(*SIMPLE_SAMPLE))
    assert code == 1 and report["totals"]["passed"] == report["totals"]["failed"] == 0
    assert report["totals"]["errored"] == len(asked_cases(report)) >= 20


def test_an_explicit_exit_with_a_message_is_a_verdict(tmp_path):
    """`sys.exit("...")` prints its message and exits with 1: a verdict invalid, like any exit
    whose output shows no crash, progress output and all."""
    impl = _script(
        tmp_path,
        "exits.py",
        (
            "import sys\nsys.stdin.buffer.read()\nsys.stderr.write('checking... 10%\\r50%\\r')\n"
            "sys.exit('invalid: no Traceback (most recent call last) here, line 3')\n"
        ),
    )
    run = conformance.run_cases(impl, VALID[:1] + INVALID[:2], timeout=GUARD)
    assert [o.status for o in run.outcomes] == ["failed", "passed", "passed"]


def _persistent_node(tmp_path, on_run):
    (tmp_path / "impl.js").write_text(
        'require("readline").createInterface({input: process.stdin}).on("line", (line) => {\n'
        "  const request = JSON.parse(line);\n"
        '  if (request.cmd === "start") console.log(JSON.stringify('
        '{ready: true, version: 1, implementation: {name: "x", language: "javascript"}}));\n'
        f'  else if (request.cmd === "run") {{ {on_run} }}\n'
        "  else process.exit(0);\n"
        "});\n"
    )
    return f"node {tmp_path / 'impl.js'}"


@pytest.mark.parametrize(
    "name",
    [
        *(n for n in PYTHON_CRASHES if not n.endswith("-on-stdout")),  # stdout: replies
        pytest.param("node-throws-a-string", marks=NODE),
    ],
)
def test_a_crash_however_reported_is_named_in_persistent_mode(tmp_path, name):
    if name in PYTHON_CRASHES:
        impl, what = _persistent(tmp_path, f"{name}.py", PYTHON_CRASHES[name][0]), PYTHON_CRASHES[name][1]
    else:
        impl, what = _persistent_node(tmp_path, 'throw "boom";'), "an uncaught Node.js exception"
    run = conformance.run_cases(impl, VALID[:1] + INVALID[:1], mode="persistent", timeout=GUARD)
    assert [o.status for o in run.outcomes] == ["errored"] * 2
    assert all(o.detail == f"the process ended (exit code 1); its standard error shows {what}" for o in run.outcomes), (
        run.outcomes[0].detail
    )


@pytest.mark.parametrize("name", ["syntax-error", "no-such-module"])
def test_a_persistent_implementation_that_cannot_start_names_its_crash(tmp_path, cases_of, name):
    impl, what = _simple_crash(tmp_path, name)
    result = run_cli(
        "conformance",
        "--impl",
        impl,
        "--mode",
        "persistent",
        "--level",
        "syntax",
        "--timeout",
        str(GUARD),
        *cases_of(*SIMPLE_SAMPLE),
    )
    assert result.returncode == 2 and result.stdout == b""
    assert f"did not start: the process ended (exit code 1); its standard error shows {what}" in result.stderr.decode()


# -- a run that passes nothing does not conform ---------------------------------------------------------------


def test_an_implementation_that_skips_every_case_does_not_conform(tmp_path, cases_of):
    impl = _persistent(tmp_path, "skipper.py", "reply = {'seq': request['seq'], 'skipped': True, 'reason': 'later'}")
    sample = cases_of(*SIMPLE_SAMPLE)
    code, report = conformance_json("--impl", impl, "--mode", "persistent", "--level", "syntax", *sample)
    assert code == 1 and report["ok"] is False and report["totals"]["skipped"] == len(report["cases"])
    assert (
        report["problem"]
        == f"no case passed: of {len(report['cases'])} cases, {len(report['cases'])} skipped and 0 undeclared"
    )
    text = run_cli("conformance", "--impl", impl, "--mode", "persistent", "--level", "syntax", *sample)
    assert text.returncode == 1 and text.stdout.decode().endswith(f"DOES NOT CONFORM: {report['problem']}\n")


def test_an_implementation_that_declares_none_of_the_cases_does_not_conform(cases_of):
    code, report = conformance_json(
        "--impl",
        f"{PY} -m sgn.harness --levels rules",
        "--mode",
        "persistent",
        "--level",
        "syntax",
        *cases_of(*SIMPLE_SAMPLE),
    )
    assert code == 1 and report["ok"] is False and report["totals"]["undeclared"] == len(report["cases"]) > 0
    assert report["problem"].startswith("no case passed")


@pytest.mark.parametrize(
    "statuses, ok",
    [
        (["skipped"], False),
        (["undeclared", "skipped"], False),
        ([], False),
        (["passed", "skipped"], True),
        (["passed", "failed"], False),
    ],
)
def test_a_run_conforms_when_something_passed_and_nothing_failed(statuses, ok):
    from sgn.conformance.outcome import Outcome
    from sgn.conformance.run import Run

    run = Run({}, "simple", [Outcome(VALID[0], s) for s in statuses], 0.0)
    assert run.ok is ok and bool(run.problem) is not ok
    assert conformance.render_text(run).endswith("CONFORMS\n" if ok else f"DOES NOT CONFORM: {run.problem}\n")


def test_smoke_of_an_implementation_that_skips_every_case_says_check_the_wiring(tmp_path, smoke_bundle):
    impl = _persistent(tmp_path, "skipper.py", "reply = {'seq': request['seq'], 'skipped': True, 'reason': 'later'}")
    result = run_cli("smoke", "--impl", impl, "--mode", "persistent", *smoke_bundle)
    out, err = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 1 and "CONFORMS" not in out
    assert out.endswith("CHECK THE WIRING: answered none of 8 cases (it declined them all): is it wired to run them?\n")
    assert err.endswith("- check the wiring\n")


# A validator of the syntax level, as sgn's (`check(data, "syntax", "strict")`, of which it says
# what sgn says of each of smoke's cases) but with the standard library alone: a program that
# imports sgn takes some 0.2 s to start, in each of smoke's processes.
SYNTAX_ONLY = """import json, sys

def once(pairs):
    if len({key for key, _ in pairs}) < len(pairs):
        raise ValueError("a key twice")
    return dict(pairs)

def syntax_valid(data):
    try:
        lines = [json.loads(line, object_pairs_hook=once) for line in data.decode("utf-8").splitlines()]
    except ValueError:
        return False
    return bool(lines)
"""


def test_a_syntax_only_validator_says_what_sgn_does_of_smoke_s_cases():
    namespace = {}
    exec(SYNTAX_ONLY, namespace)
    for case in conformance.smoke_cases(corpus_cases()):
        data = corpus.case_bytes(case)
        assert namespace["syntax_valid"](data) == check(data, "syntax", "strict")["valid"], case["id"]


def test_smoke_s_last_word_and_exit_status_are_its_verdict(tmp_path, smoke_bundle):
    """A program wired right that gets cases wrong: smoke says wiring OK (exit 0), and does not
    print the score's verdict, which is sgn conformance's."""
    impl = _script(
        tmp_path,
        "syntax-only.py",
        SYNTAX_ONLY + "sys.exit(0 if syntax_valid(sys.stdin.buffer.read()) else 1)\n",
    )
    result = run_cli("smoke", "--impl", impl, *smoke_bundle)
    out = result.stdout.decode()
    assert result.returncode == 0 and " failed or errored:" in out and "CONFORM" not in out
    assert out.endswith("WIRING OK: answered all 8 cases, some valid and some invalid\n")
    assert result.stderr.decode().endswith("- wiring OK\n")
    report = json.loads(run_cli("smoke", "--impl", impl, "-o", "json", *smoke_bundle).stdout)
    assert report["wiring"] == {"ok": True, "detail": out.splitlines()[-1][len("WIRING OK: ") :]}
    # the report's verdict is smoke's, as the exit status is; the score's is kept apart
    assert (report["ok"], report["problem"]) == (True, "") and report["score"]["ok"] is False
    assert report["score"]["problem"]


def test_smoke_s_junit_fails_when_and_only_when_its_exit_does(tmp_path, smoke_bundle):
    """sgn smoke -o junit: the cases answered wrongly pass (the wiring is smoke's verdict,
    the score sgn conformance's) and say so; a program that is wired wrong fails the wiring."""
    import xml.etree.ElementTree as ET

    wrong = _script(
        tmp_path,
        "syntax-only.py",
        SYNTAX_ONLY + "sys.exit(0 if syntax_valid(sys.stdin.buffer.read()) else 1)\n",
    )
    crashing = _script(tmp_path, "crashing.py", "raise SystemExit('no such option --level')\n")
    half = _script(
        tmp_path,
        "half.py",
        SYNTAX_ONLY + "data = sys.stdin.buffer.read()\n"
        "if len(data) % 2: raise RuntimeError('odd')\n"
        "sys.exit(0 if syntax_valid(data) else 1)\n",
    )
    for impl, exit_code in ((wrong, 0), ("true", 1), (crashing, 1), (half, 1)):
        result = run_cli("smoke", "--impl", impl, "-o", "junit", *smoke_bundle)
        assert result.returncode == exit_code, result.stderr
        root = ET.fromstring(result.stdout)
        suite = root.find("testsuite")
        failed = int(suite.get("failures")) + int(suite.get("errors"))
        cases = suite.findall("testcase")
        assert (failed == 0) == (exit_code == 0) and len(cases) == int(suite.get("tests")) == 9
        wiring = cases[0]
        assert wiring.get("name") == "wiring" and (wiring.find("failure") is None) == (exit_code == 0)
        if exit_code == 0:
            assert any("answered; expected" in (c.findtext("system-out") or "") for c in cases[1:])


@pytest.mark.parametrize(
    "info, said",
    [
        ({}, "(language and version unknown)"),
        ({"language": "python"}, "(python version unknown)"),
        ({"language": "rust", "version": "1.2"}, "(rust 1.2)"),
    ],
)
def test_what_an_implementation_does_not_say_of_itself_is_unknown_in_words(info, said):
    from sgn.conformance import matrix
    from sgn.conformance.outcome import Outcome
    from sgn.conformance.run import Run

    run = Run(dict(info, name="x"), "simple", [Outcome(VALID[0], "passed")], 0.0)
    assert f"conformance of x {said}, simple mode" in conformance.render_text(run)
    assert f"x {said}" in matrix.render_matrix_text([run, run]) and "(?)" not in matrix.render_matrix_text([run, run])
