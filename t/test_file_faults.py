"""One fault costs one file: whatever happens inside one file's check, a bug of sgn's
included, is that file's diagnostic (`internal-error`, exit 2), and every other file still
gets its verdict, the same report from every executor (`-j 1`, `-j 2`, `--dask local:1`),
the API and the commands that replay a log. And the replay's look-ahead never assumes
that a line an earlier layer refused is a message."""

import importlib.util
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sgn
from conftest import run_cli, sgn_in_process
from sgn.play import random_game

HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = str(Path(sgn.__file__).resolve().parent.parent)
CRASH_LINE = '["1","XX",{"sgn-test-crash":1}]\n'  # t/crashing/sitecustomize.py fails on it
NOT_MESSAGES = ["7", '"x"', "{}", "[1]", "true", "null", "[]", '["1"]', '[1,"RD"]']


def game_text(seed=0, players=4):
    return "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in random_game(seed, players))


def last_roll_lost_then(last: str, seed=0) -> str:
    """A whole game with its last roll removed (a fault the replay reads ahead past), then
    a last line that no earlier layer lets through as a message."""
    lines = game_text(seed).splitlines(keepends=True)
    last_roll = max(i for i, line in enumerate(lines) if '"RD"' in line)
    del lines[last_roll]
    return "".join(lines) + last + "\n"


@pytest.mark.parametrize("last", NOT_MESSAGES)
def test_the_look_ahead_reads_any_refused_line_without_failing(last):
    text = last_roll_lost_then(last)
    result = sgn.check(text.encode())
    assert "internal-error" not in [d.code for d in result.diagnostics] and result.verdict == "invalid"
    # the last line is refused by its own layer, at its own line
    assert any(d.line == text.count("\n") and d.layer in ("syntax", "schema") for d in result.diagnostics)


@pytest.mark.parametrize("seed", [0, 2, 3])
def test_every_command_that_replays_reads_the_lost_roll_log(tmp_path, seed):
    log = tmp_path / "lost.sgn"
    log.write_text(last_roll_lost_then("7", seed))
    good = tmp_path / "good.sgn"
    good.write_text(game_text(seed))
    for args in (
        ["validate", "--isolated", log, good],
        ["validate", "--isolated", "-j", "2", log, good, good],
        ["replay", log],
        ["replay", log, "-o", "hsn"],
        ["render", log, "-o", tmp_path / "b.svg"],
        ["report", log, "-o", tmp_path / "p.html"],
    ):
        result = run_cli(*args)
        assert b"internal error" not in result.stderr + result.stdout
        if "hsn" in args and result.returncode == 2:  # the hands in doubt: HSN writes known hands only
            assert result.stderr.splitlines()[-1].startswith(b"sgn replay: the hands are in doubt"), result.stderr
            continue
        assert result.returncode == 1, (args, result.stderr)


def run_crashing(args, cwd, tmp):
    """`python -m sgn ARGS` with the planted failure (t/crashing) in it and its workers."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(HERE / "crashing"), PACKAGE_ROOT]),
        SGN_TEST_CRASH="1",
        TMPDIR=str(tmp),
    )
    env.pop("SGN_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "sgn", *map(str, args)], env=env, cwd=str(cwd), capture_output=True, timeout=300
    )


@pytest.fixture
def files(tmp_path):
    """Four files: a valid game, one on which sgn fails at line 3, one with an error, one gzip."""
    import gzip

    folder = tmp_path / "logs"
    folder.mkdir()
    game = game_text(1)
    (folder / "a-good.sgn").write_text(game)
    (folder / "b-crash.sgn").write_text(
        '["1","RD",{"result":13}]\n["1","RD",{"result":8}]\n' + CRASH_LINE + '["1","RD",{"result":14}]\n'
    )
    (folder / "c-bad.sgn").write_text('["1","RD",{"result":13}]\n')
    (folder / "d-packed.sgn.gz").write_bytes(gzip.compress(game.encode()))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    return folder, ["a-good.sgn", "b-crash.sgn", "c-bad.sgn", "d-packed.sgn.gz"], tmp


def test_a_failure_inside_one_file_is_that_files_diagnostic(files):
    folder, names, tmp = files
    result = run_crashing(["validate", "--isolated", "-o", "json", *names], folder, tmp)
    assert result.returncode == 2 and b"Traceback" not in result.stderr, result.stderr
    report = json.loads(result.stdout)
    verdicts = {f["file"]: (f["valid"], f["errors"]) for f in report["files"]}
    assert verdicts == {
        "a-good.sgn": (True, 0),
        "b-crash.sgn": (False, 2),
        "c-bad.sgn": (False, 1),
        "d-packed.sgn.gz": (True, 0),
    }
    crashed = [d for d in report["diagnostics"] if d["file"] == "b-crash.sgn"]
    # what was found before the failure is kept; the failure is at its line; the rest is not checked
    assert [(d["code"], d["line"]) for d in crashed] == [("schema-maximum", 1), ("internal-error", 3)]
    assert "RuntimeError" in crashed[1]["message"] and "report" in crashed[1]["hint"]


@pytest.fixture
def planted(monkeypatch):
    """The failure t/crashing/sitecustomize.py plants, planted in this process (and undone)."""
    from sgn.layers import schema

    monkeypatch.setattr(schema.MessageSchema, "check", schema.MessageSchema.check)  # restored after
    monkeypatch.setenv("SGN_TEST_CRASH", "1")
    monkeypatch.delenv("SGN_DEBUG", raising=False)
    spec = importlib.util.spec_from_file_location("planted_crash", HERE / "crashing" / "sitecustomize.py")
    spec.loader.exec_module(importlib.util.module_from_spec(spec))


@pytest.mark.parametrize("output", ["text", "json", "jsonl", "junit", "sarif", "github"])
def test_every_executor_gives_the_same_report_of_a_failing_file(files, planted, output):
    """The reference, one job, runs in this process (as test_jobs.one_job: a process's output,
    byte for byte, t/test_in_process.py); the executors that fork, in processes of their own."""
    folder, names, tmp = files
    one = sgn_in_process("validate", "--isolated", "-o", output, *names, *names, cwd=folder)
    assert one.returncode == 2 and b"internal-error" in one.stdout
    executors = [["-j", "2"]]
    if output in ("text", "json"):
        pytest.importorskip("distributed", reason="dask[distributed] is not installed (the extra 'dask')")
        executors.append(["--dask", "local:1"])
    for executor in executors:
        other = run_crashing(["validate", "--isolated", "-o", output, *executor, *names, *names], folder, tmp)
        assert (other.returncode, other.stdout, other.stderr) == (one.returncode, one.stdout, one.stderr), executor
    assert list(tmp.iterdir()) == []


def test_the_api_reports_a_failure_and_does_not_raise(monkeypatch):
    from sgn.layers import schema

    original = schema.MessageSchema.check

    def fails(self, message, **options):  # (the pure build checks every line here)
        if message[1] == "XX":
            raise RuntimeError("planted")
        return original(self, message, **options)

    monkeypatch.setattr(schema.MessageSchema, "check", fails)
    monkeypatch.delenv("SGN_DEBUG", raising=False)
    result = sgn.check(b'["1","RD",{"result":8}]\n["1","XX",{}]\n')
    assert result.verdict == "unreadable" and result.exit_code == 2
    assert [(d.code, d.line) for d in result.diagnostics] == [("internal-error", 2)]
    found = list(sgn.iter_diagnostics(io.BytesIO(b'["1","XX",{}]\n')))
    assert [d.code for d in found] == ["internal-error"]
    monkeypatch.setenv("SGN_DEBUG", "1")  # for whoever debugs sgn: the traceback
    with pytest.raises(RuntimeError, match="planted"):
        sgn.check(b'["1","XX",{}]\n')


def test_a_failure_is_reported_whatever_the_selection(files):
    folder, names, tmp = files
    result = run_crashing(
        ["validate", "--isolated", "--select", "blank-line", "--ignore", "internal-error", "b-crash.sgn"], folder, tmp
    )
    assert result.returncode == 2 and b"internal-error" in result.stdout and b"UNREADABLE" in result.stdout
