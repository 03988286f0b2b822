"""Shared helpers for the tests: where the checkout's corpus is, and running the CLI."""

import functools
import io
import json
import os
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

import pytest
from hypothesis import settings, strategies as st

import sgn
from chromium import browser  # noqa: F401 (the fixture of the tests that drive Chromium)

# Hypothesis profiles: "ci" (the default) keeps the run bounded and the same from one run to
# the next (derandomized: a change is judged on the examples its parent passed; the search
# for new ones is the fuzz environment's); "thorough" is for long random runs:
# HYPOTHESIS_PROFILE=thorough tox (or pytest), and tox -e fuzz. No health check is disabled.
settings.register_profile("ci", max_examples=100, deadline=None, print_blob=True, derandomize=True)
settings.register_profile("thorough", max_examples=5_000, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def scaled(examples: int) -> int:
    """A test's own number of examples under the "ci" profile, scaled up with the profile
    (50 times under "thorough"), for a property slower than most."""
    return max(1, examples * settings.default.max_examples // 100)


CHECKOUT = Path(__file__).resolve().parent.parent


def any_message():
    """A valid message, or one broken in one known way (its label dropped)."""
    from sgn import strategies as sgs

    return st.one_of(sgs.messages(), sgs.invalid_messages().map(lambda case: case[0]))


CORPUS = CHECKOUT / "test-corpus"


@functools.lru_cache(maxsize=None)
def corpus_cases() -> list:
    """The cases of the checkout's bundle, read once in each test process and shared by the
    test modules, which only read them (`the_shared_cases_are_left_as_read` makes sure)."""
    from sgn import corpus

    return corpus.load_cases(CORPUS / corpus.BUNDLE)


@functools.lru_cache(maxsize=None)
def _packaged_fields() -> dict:
    from sgn import corpus

    bundle = json.loads((CORPUS / corpus.BUNDLE).read_text(encoding="utf-8"))
    return {key: value for key, value in bundle.items() if key != "cases"}


def bundle_of(cases) -> str:
    """A bundle of these cases (`--cases FILE`), with the packaged bundle's other fields (its
    format, its version): a run of a few cases that reads just them, where reading the 800-odd
    of the packaged bundle would take some 0.4 s a run and their outcomes do not depend on it."""
    return json.dumps(dict(_packaged_fields(), cases=list(cases)))


@pytest.fixture(scope="session", autouse=True)
def the_shared_cases_are_left_as_read():
    """After the last test of a process: the shared cases are still those of the bundle (a
    test that changed one would change what the tests after it read)."""
    yield
    if corpus_cases.cache_info().currsize:
        from sgn import corpus

        assert corpus_cases() == corpus.load_cases(CORPUS / corpus.BUNDLE), "a test changed the shared corpus cases"


def sgn_in_process(*args, stdin=None, cwd=None):
    """`sgn ARGS` run by `sgn.cli.main` in this process, with standard streams of its own:
    what `run_cli` gives (exit status, output and errors as bytes), without the start-up of
    a process, for the tests of what sgn says rather than of the process saying it."""
    from sgn.cli import main

    streams = sys.stdin, sys.stdout, sys.stderr
    out, err = io.BytesIO(), io.BytesIO()
    before = os.getcwd()
    own = (
        io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8"),
        io.TextIOWrapper(out, encoding="utf-8", write_through=True),
        io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True),
    )
    sys.stdin, sys.stdout, sys.stderr = own
    os.chdir(cwd or tempfile.gettempdir())
    try:
        code = main([str(a) for a in args])
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
        os.chdir(before)
    for stream in own[1:]:
        if not stream.closed:
            stream.flush()
    result = subprocess.CompletedProcess(["sgn", *map(str, args)], code, out.getvalue(), err.getvalue())
    for stream in own:
        if not stream.closed:
            stream.detach()
    return result


# `run_cli` runs sgn in this process unless SGN_TESTS_IN_PROCESS=0 (t/test_in_process.py
# checks that both say the same, byte for byte)
IN_PROCESS = os.environ.get("SGN_TESTS_IN_PROCESS", "1") != "0"
# options that start worker processes by forking: a test process of pytest-xdist has threads,
# and a fork of it may deadlock, so these run in a process of their own
FORKING = ("-j", "--jobs", "--dask")


def run_cli(*args, stdin=None, cwd=None):
    """`sgn ARGS` as a user runs it, with `stdin` as its standard input (bytes), from `cwd`
    (a temporary folder by default): the CompletedProcess, with bytes output. It runs in this
    process (`sgn_in_process`: a test takes a tenth of the time), or in a process of its own
    (`run_process`) where SGN_TESTS_IN_PROCESS=0 or an option starts workers."""
    if IN_PROCESS and not any(str(a).split("=")[0].startswith(FORKING) for a in args):
        return sgn_in_process(*args, stdin=stdin, cwd=cwd)
    return run_process(*args, stdin=stdin, cwd=cwd)


def run_process(*args, stdin=None, cwd=None):
    """Run `python -m sgn` as a user would, from outside the checkout, with the same
    `sgn` package the tests import (installed by tox, or the checkout's own);
    returns the CompletedProcess with bytes output. The time-out guards against a
    deadlock only: some runs (a conformance run starting a process for each of 94 cases)
    take half a minute on an idle machine, several on a loaded one."""
    env = dict(os.environ, PYTHONPATH=str(Path(sgn.__file__).resolve().parent.parent))
    return subprocess.run(
        [sys.executable, "-m", "sgn", *map(str, args)],
        input=stdin,
        env=env,
        capture_output=True,
        cwd=cwd or tempfile.gettempdir(),
        timeout=600,
    )


@pytest.fixture
def write(tmp_path):
    """Write bytes or text to a file in a temporary folder and return its path."""

    def _write(content, name="game.sgn"):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return path

    return _write


def json_report(result):
    assert result.stderr == b"" or b"Traceback" not in result.stderr
    return json.loads(result.stdout)


def canonical(message):
    """An SGN message in a form that compares equal whatever the order SGN leaves free:
    the tiles of an intersection, the ends of a path, the sides of a trade, the rCodes."""
    player, code, value = message
    if code in ("BS", "BC"):
        return player, code, frozenset(map(tuple, value["intersection"]))
    if code == "BR":
        return player, code, frozenset(frozenset(map(tuple, end)) for end in value["path"])
    if code in ("TR", "ST"):
        return player, code, frozenset((s["player"], tuple(sorted(s["resources"].items()))) for s in value)
    if code == "PD":
        return player, code, value["cCode"], tuple(sorted(value.get("rCodes", [])))
    return player, code, json.dumps(value, sort_keys=True)
