"""Standard input, output or error closed (`<&-`, `>&-`, `2>&-`): a clear diagnostic or a
quiet stop with a non-zero status, never an internal error or a traceback."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import sgn
from conftest import run_cli

GOOD = '["1","RD",{"result":8}]\n'
BAD = '["1","RD",{"result":13}]\n'


def run_closed(fds, *args, cwd=None):
    """`python -m sgn ARGS` with the descriptors `fds` closed, as the shell's `<&-` does."""
    env = dict(os.environ, PYTHONPATH=str(Path(sgn.__file__).resolve().parent.parent))
    return subprocess.run(
        [sys.executable, "-m", "sgn", *map(str, args)],
        env=env,
        capture_output=True,
        cwd=cwd or tempfile.gettempdir(),
        timeout=120,
        preexec_fn=lambda: [os.close(fd) for fd in fds],
    )


@pytest.fixture
def game(tmp_path):
    """The example game, made in this process (conftest.run_cli): an input, not under test."""
    path = tmp_path / "game.sgn"
    made = run_cli("example", "game")
    assert made.returncode == 0
    path.write_bytes(made.stdout)
    return path


@pytest.mark.parametrize(
    "args", [["validate", "-"], ["validate"], ["validate", "-o", "json", "-"], ["validate", "-q", "-"]]
)
def test_validate_of_a_closed_standard_input_is_a_read_error(args):
    result = run_closed([0], *args)
    assert result.returncode == 2 and result.stderr == b""
    assert b"cannot read <stdin>: standard input is closed" in result.stdout
    assert b'"read-error"' in result.stdout if "json" in args else b"[read-error]" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "-"],
        ["parse", "-"],
        ["parse", "--notation", "hsn", "-"],
        ["convert", "--to", "han", "-"],
        ["convert", "--to", "sgn", "-"],
    ],
)
def test_other_commands_on_a_closed_standard_input_report_a_read_error(args):
    result = run_closed([0], *args)
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr == b"<stdin>: cannot read <stdin>: standard input is closed [read-error]\n"


def test_files_with_several_jobs_and_standard_input_closed(game):
    normal = run_closed([], "validate", "-j", "2", game, game, game)
    closed = run_closed([0], "validate", "-j", "2", game, game, game)
    assert (closed.returncode, closed.stdout, closed.stderr) == (normal.returncode, normal.stdout, b"")
    assert normal.returncode == 0


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "{game}"],
        ["validate", "-o", "json", "{game}"],
        ["validate", "-j", "2", "{game}", "{game}", "{game}"],
        ["example", "game"],
        ["codes"],
        ["replay", "{game}"],
        ["convert", "--to", "hsgn", "{game}"],
    ],
)
def test_a_closed_standard_output_stops_the_command_with_a_message(game, args):
    result = run_closed([1], *[a.format(game=game) for a in args])
    assert result.returncode == 2
    assert result.stderr.decode().endswith("sgn: cannot write standard output: it is closed\n")
    assert b"Traceback" not in result.stderr and b"internal error" not in result.stderr


def test_nothing_to_write_to_a_closed_standard_output_is_no_failure(game):
    assert run_closed([1], "validate", "-q", game).returncode == 0
    assert run_closed([1], "validate", "-q", game.parent / "missing.sgn").returncode == 2


def test_a_closed_standard_error_loses_only_what_goes_there(game, tmp_path):
    result = run_closed([2], "validate", tmp_path / "missing.sgn", game)
    assert result.returncode == 2 and b"[file-not-found]" in result.stdout
    broken = tmp_path / "broken.sgn"
    broken.write_text(game.read_text().replace('"result":', '"result":1', 1))  # a roll of 1x
    result = run_closed([2], "replay", broken)
    assert result.returncode == 1 and result.stdout.startswith(b"after line ")
    assert run_closed([2], "validate", "--level", "nope", game).returncode == 2  # a usage error


@pytest.mark.parametrize(
    "args",
    [
        ["example", "game"],
        ["validate", "{game}"],
        ["replay", "-"],
        ["validate", "-j", "2", "{game}", "{game}", "{game}"],
    ],
)
def test_every_stream_closed_is_a_handled_failure(game, args):
    """An unhandled exception would exit 1: 2 is the command's own verdict."""
    assert run_closed([0, 1, 2], *[a.format(game=game) for a in args]).returncode == 2
