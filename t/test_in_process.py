"""The tests run `sgn` in their own process (conftest.run_cli, a tenth of the time of
starting Python for each command): what it says there is what `python -m sgn` says in a
process of its own, byte for byte, exit status, output and errors, for every command and
output format, from files and from standard input, valid and invalid, usage errors too."""

import pytest

from conftest import CORPUS, corpus_cases, run_process, sgn_in_process
from sgn import corpus

GAMES = CORPUS / "games"
FORMATS = ["text", "concise", "json", "jsonl", "github", "sarif", "junit"]
HAN = next(c for c in corpus_cases() if c["kind"] == "han" and not c["valid"])
BROKEN = b'["1","RD",{"result":13}]\n[1,2\n["9","XX"]\n'


def commands(folder):
    (folder / "broken.sgn").write_bytes(BROKEN)
    game, faulty = str(GAMES / "game.sgn"), str(GAMES / "faulty-cards-played-when-bought.sgn")
    for name in FORMATS:
        yield ("validate", "-o", name, game, faulty, "broken.sgn"), None
        yield ("validate", "-o", name, "-"), BROKEN
    yield ("validate", "--statistics", faulty, "broken.sgn"), None
    yield ("validate", "-q", "--select", "schema-maximum", "broken.sgn", "missing.sgn"), None
    yield ("validate", "--level", "nonsense", game), None  # a usage error
    yield ("validate",), None
    yield ("--version",), None
    yield ("nonsense",), None
    yield ("parse", "--notation", "han"), corpus.case_bytes(HAN)
    yield ("validate", "-o", "gitlab", game), None  # no such format: a usage error
    yield ("replay", "--at", "40", game), None
    yield ("replay", "--at", "40", "-o", "json", faulty), None
    yield ("render", "--at", "30", game), None
    yield ("convert", "--to", "hsgn", game), None
    yield ("codes",), None
    yield ("codes", "cannot-afford"), None
    yield ("corpus", "show", corpus_cases()[0]["id"]), None
    yield ("moves", "--at", "30", "--count", game), None


def test_in_this_process_sgn_says_what_its_own_process_says(tmp_path):
    differ = []
    for args, stdin in commands(tmp_path):
        apart, here = run_process(*args, stdin=stdin, cwd=tmp_path), sgn_in_process(*args, stdin=stdin, cwd=tmp_path)
        if (apart.returncode, apart.stdout, apart.stderr) != (here.returncode, here.stdout, here.stderr):
            differ.append((args, apart.returncode, here.returncode, apart.stderr[-300:], here.stderr[-300:]))
    assert differ == []


def test_a_command_in_this_process_leaves_the_test_s_streams_and_folder_as_they_were(tmp_path):
    import os
    import sys

    before = sys.stdin, sys.stdout, sys.stderr, os.getcwd()
    (tmp_path / "broken.sgn").write_bytes(BROKEN)
    result = sgn_in_process("validate", "broken.sgn", "-", stdin=BROKEN, cwd=tmp_path)
    assert result.returncode == 1 and result.stdout.count(b"[schema-maximum]") == 2
    assert (sys.stdin, sys.stdout, sys.stderr, os.getcwd()) == before


@pytest.mark.parametrize(
    "args", [("validate", "-j", "2", "x.sgn"), ("validate", "--jobs=2", "x.sgn"), ("validate", "--dask", "local:1")]
)
def test_options_that_fork_workers_run_in_a_process_of_their_own(args, monkeypatch):
    """A test process of pytest-xdist has threads: a fork of it may deadlock."""
    import conftest

    seen = []
    monkeypatch.setattr(conftest, "run_process", lambda *a, **k: seen.append(a))
    monkeypatch.setattr(conftest, "sgn_in_process", lambda *a, **k: pytest.fail("run in this process"))
    conftest.run_cli(*args)
    assert seen == [args]
