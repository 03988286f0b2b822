"""What no option may change, as properties over real and broken logs and random option
sets, run through `sgn validate` in this process (its `-j 2` workers forked from it):

- the verdict and the diagnostics (file, line, code, severity, in order) do not depend on
  the output format, `-j`, `--color`, `--output-file`, or standard input versus a path;
- `--ignore C` removes exactly the diagnostics with code C, `--select S` keeps exactly S,
  `--max-errors N` shows the first N selected errors of each file in line order, and a file
  with an error stays INVALID;
- a file that breaks the checker changes no other file's verdict.

The Dask executor is crossed with the same options in t/test_dask.py's cluster tests and in
`test_dask_reports_what_one_process_reports` below (a cluster costs seconds to start)."""

import fnmatch
import functools
import gzip
import importlib.util
import io
import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import scaled
from outputs_read import read
from sgn.cli import main
from sgn.codes import CODES
from sgn.layers import schema
from sgn.pipeline.policy import Policy
from sgn.play import random_game
from test_file_faults import CRASH_LINE, last_roll_lost_then

# -o parquet where pyarrow is (the extra 'parquet'; test_parquet_is_among_the_formats says when it is not)
PYARROW = importlib.util.find_spec("pyarrow") is not None
FORMATS = ["text", "json", "jsonl", "github", "junit", "sarif"] + (["parquet"] if PYARROW else [])
THREE = '["1","RD",{"result":13}]\n["1","RD",{"result":14}]\n["1","XX",{}]\n'


def _text(messages):
    return "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in messages)


def _engine_game():
    """A game of catanatron's own random bots, with the engine's faults (a card played on
    the turn it was bought), or None without catanatron."""
    try:
        from catanatron import Color, Game, RandomPlayer
    except ImportError:
        return None
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import engine_games

    for seed in range(1, 50):
        game = Game([RandomPlayer(getattr(Color, c)) for c in engine_games.COLORS], seed=seed)
        game.play()
        text = _text(engine_games.translate(game))
        if '"PD"' in text:
            return text
    return None


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    """Logs of every kind, in a folder: valid games (4 and 6 players), a game with a line
    lost, a lost roll then a line that is no message, schema errors, warnings, gzip, a real
    engine's game with its faults, a missing file; and the reports of `-o json` on each."""
    folder = tmp_path_factory.mktemp("pool")
    game = _text(random_game(0, 4))
    lines = game.splitlines(keepends=True)
    logs = {
        "game.sgn": game,
        "six.sgn": _text(random_game(1, 6)),
        "line-lost.sgn": "".join(lines[:30] + lines[31:]),
        "lost-roll.sgn": last_roll_lost_then("7"),
        "three.sgn": THREE * 2,
        "warned.sgn": '["1","RD",{"result":8}]\r\n\r\n["1","RD",{"result":8}]\r\n',
        "packed.sgn.gz": gzip.compress((game.replace('{"result":8}', '{"result":13}', 2)).encode()),
        "engine.sgn": _engine_game(),
    }
    names = []
    for name, content in logs.items():
        if content is None:
            continue
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())
        names.append(name)
    names.append("missing.sgn")
    return folder, names


def run(folder, args, stdin=None):
    """`sgn validate ARGS` in `folder`, in this process: (exit status, the report's bytes)."""
    out = io.StringIO()
    here, saved = os.getcwd(), sys.stdin
    os.chdir(folder)
    try:
        if stdin is not None:
            sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
        code = main(["validate", "--isolated", *map(str, args)], out=out)
        target = next((args[i + 1] for i, a in enumerate(args) if a == "--output-file"), None)
        data = Path(target).read_bytes() if target else out.getvalue().encode("utf-8")
    finally:
        os.chdir(here)
        sys.stdin = saved
    return code, data


def baseline(folder, files, options=()):
    """The exit status and `-o json` report of one process on `files`: the reference the
    properties compare with, the same for the same arguments (the pool's logs do not change),
    so made once for each (about half of the examples ask for one already made). The tests
    only compare it (a tuple of lists they never change)."""
    return _baseline(folder, tuple(files), tuple(map(str, options)))


@functools.lru_cache(maxsize=None)
def _baseline(folder, files, options):
    code, data = run(folder, ["-o", "json", *options, *files])
    return code, read("json", data, list(files))


files_of = st.lists(st.integers(0, 100), min_size=1, max_size=4)


def chosen(pool_names, picks):
    return [pool_names[i % len(pool_names)] for i in picks]


def test_parquet_is_among_the_formats():
    """Without pyarrow the invariant below holds for every output but -o parquet, and says so here."""
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (the extra 'parquet'): -o parquet is not compared")
    assert "parquet" in FORMATS


@settings(max_examples=scaled(40), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    picks=files_of,
    output=st.sampled_from(FORMATS),
    jobs=st.sampled_from([1, 2]),
    color=st.sampled_from(["auto", "always", "never"]),
    to_file=st.booleans(),
    stdin=st.booleans(),
    quiet=st.booleans(),
    data=st.data(),
)
def test_the_verdict_and_diagnostics_do_not_depend_on_the_output(
    pool, tmp_path, picks, output, jobs, color, to_file, stdin, quiet, data
):
    folder, names = pool
    files = chosen(names, picks)
    code, expected = baseline(folder, files, ["-q"] if quiet else [])
    args = ["-o", output, "-j", jobs, "--color", color] + (["-q"] if quiet else [])
    if to_file or output == "parquet":
        args += ["--output-file", tmp_path / f"report.{output}"]
    given_stdin = None
    if stdin and len(files) == 1 and files[0] != "missing.sgn":
        given_stdin = (folder / files[0]).read_bytes()
        args += ["--stdin-filename", files[0], "-"]
    else:
        args += files
    got_code, report = run(folder, args, stdin=given_stdin)
    seen = read(output, report, files)
    assert got_code == code
    assert seen.found == expected.found
    if seen.verdicts is not None and not (quiet and output == "text"):
        assert seen.verdicts == expected.verdicts


def _codes_in(found):
    return sorted({code for _, _, code, _ in found})


def expected_under(found, files, *, select=None, ignore=(), max_errors=None):
    """What the policy must leave of an unfiltered report: per file, in order."""
    out, verdicts = [], []
    by_file = {}
    for d in found:
        by_file.setdefault(d[0], []).append(d)
    for name in dict.fromkeys(files):
        kept, errors = [], 0
        for d in by_file.get(name, []):
            code = d[2]
            io_layer = CODES[code].layer == "io"
            if not io_layer and (
                (select is not None and not any(fnmatch.fnmatchcase(code, s) for s in select))
                or any(fnmatch.fnmatchcase(code, i) for i in ignore)
            ):
                continue
            kept.append(d)
            if d[3] == "error" and max_errors is not None:
                errors += 1
                if errors == max_errors:
                    kept.append((name, d[1], "max-errors-reached", "info"))
                    break
        unreadable = any(CODES[d[2]].layer == "io" for d in kept)
        invalid = any(d[3] == "error" for d in kept)
        verdicts.append((name, "unreadable" if unreadable else "invalid" if invalid else "valid"))
        out.append(kept)
    return out, verdicts


@settings(max_examples=scaled(40), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picks=st.lists(st.integers(0, 100), min_size=1, max_size=3, unique=True), data=st.data())
def test_select_ignore_and_max_errors_do_exactly_what_they_say(pool, picks, data):
    folder, names = pool
    files = chosen(names, picks)
    files = list(dict.fromkeys(files))
    _, everything = baseline(folder, files)
    present = _codes_in(everything.found)
    assume_codes = [c for c in present if CODES[c].layer != "io"]
    options, select, ignore = [], None, []
    if assume_codes and data.draw(st.booleans(), label="select"):
        select = data.draw(st.lists(st.sampled_from(assume_codes), min_size=1, max_size=3), label="codes")
        if data.draw(st.booleans(), label="as a glob"):
            select = [select[0].split("-")[0] + "-*"] + select[1:]
        options += ["--select", ",".join(select)]
    if assume_codes and data.draw(st.booleans(), label="ignore"):
        ignore = data.draw(st.lists(st.sampled_from(assume_codes), min_size=1, max_size=2), label="ignored")
        options += ["--ignore", ",".join(ignore)]
    max_errors = data.draw(st.one_of(st.none(), st.integers(1, 4)), label="max errors")
    if max_errors is not None:
        options += ["--max-errors", max_errors]
    if Policy(select=tuple(select or ["ALL"]), ignore=tuple(ignore)).reports_nothing():
        assert run(folder, ["-o", "json", *options, *files])[0] == 2  # nothing left to report: refused
        return
    code, got = baseline(folder, files, options)
    per_file, verdicts = expected_under(everything.found, files, select=select, ignore=ignore, max_errors=max_errors)
    assert got.found == [d for kept in per_file for d in kept]
    assert got.verdicts == verdicts
    worst = max(({"valid": 0, "invalid": 1, "unreadable": 2}[v] for _, v in verdicts), default=0)
    assert code == worst


@pytest.fixture
def crashing(monkeypatch):
    """sgn fails inside the check of any line holding the planted marker (a bug's stand-in);
    `-j 2`'s workers, forked, inherit the failure."""
    original = schema.MessageSchema.check

    def check(self, message, *args, **kwargs):
        if "sgn-test-crash" in repr(message):
            raise RuntimeError("planted")
        return original(self, message, *args, **kwargs)

    monkeypatch.setattr(schema.MessageSchema, "check", check)
    monkeypatch.delenv("SGN_DEBUG", raising=False)


@settings(max_examples=scaled(25), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(picks=files_of, where=st.integers(0, 4), crash_at=st.integers(0, 40), jobs=st.sampled_from([1, 2]))
def test_a_file_that_breaks_the_checker_changes_no_other_verdict(pool, crashing, picks, where, crash_at, jobs):
    folder, names = pool
    files = chosen(names, picks)
    _, alone = baseline(folder, files)
    lines = (folder / "game.sgn").read_text().splitlines(keepends=True)
    (folder / "crash.sgn").write_text("".join(lines[:crash_at] + [CRASH_LINE] + lines[crash_at:]))
    with_crash = files[:where] + ["crash.sgn"] + files[where:]
    code, report = run(folder, ["-o", "json", "-j", jobs, *with_crash])
    got = read("json", report, with_crash)
    assert code == 2
    assert [v for v in got.verdicts if v[0] != "crash.sgn"] == alone.verdicts
    assert [d for d in got.found if d[0] != "crash.sgn"] == alone.found
    crashed = [d for d in got.found if d[0] == "crash.sgn"]
    assert crashed[-1][2] == "internal-error" and crashed[-1][1] == crash_at + 1
    assert ("crash.sgn", "unreadable") in got.verdicts


@pytest.mark.parametrize(
    "options", [[], ["--ignore", "schema-maximum", "--max-errors", "1"], ["--select", "schema-*,blank-line", "-q"]]
)
def test_dask_reports_what_one_process_reports(pool, options):
    pytest.importorskip("distributed", reason="dask[distributed] is not installed (the extra 'dask')")
    folder, names = pool
    files = names + names[:2]
    one = run(folder, ["-o", "json", *options, *files])
    on_dask = run(folder, ["-o", "json", "--dask", "local:1", *options, *files])
    assert on_dask == one
