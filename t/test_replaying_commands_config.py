"""The commands that replay one log (`replay`, `moves`, `perft`, `render`, `report`) take the
rule profile and the reading profile as `sgn validate` does: the command line's, else the
configuration's (its `per-file-rules` matched against the file), else the defaults; a bad
configuration is one line and exit 2, a misspelt setting with its likely name."""

import pytest

from conftest import run_cli
from sgn.play import random_game

CATANATRON = "as catanatron plays them"


@pytest.fixture
def folder(tmp_path):
    import json

    (tmp_path / "g.sgn").write_text("".join(json.dumps(m) + "\n" for m in random_game(4, 4)[:60]))
    (tmp_path / "prefix.sgn").write_text("".join(json.dumps(m) + "\n" for m in random_game(4, 4)[:5]))
    return tmp_path


def _replay(*args):
    out = run_cli("replay", *args, cwd=_replay.folder)
    return out.returncode, out.stdout.decode() + out.stderr.decode()


def test_the_configuration_s_rules_are_used_and_the_command_line_wins(folder):
    _replay.folder = folder
    (folder / "sgn.toml").write_text('rules = "catanatron"\n')
    assert CATANATRON in _replay("g.sgn")[1]
    assert CATANATRON not in _replay("g.sgn", "--rules", "standard")[1]
    (folder / "sgn.toml").write_text('[per-file-rules]\n"g*.sgn" = "catanatron"\n')
    assert CATANATRON in _replay("g.sgn")[1] and CATANATRON not in _replay("prefix.sgn")[1]


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "g.sgn"],
        ["moves", "g.sgn"],
        ["perft", "g.sgn", "--depth", "1"],
        ["render", "g.sgn", "-o", "b.svg"],
        ["report", "g.sgn", "-o", "r.html"],
    ],
)
def test_a_bad_configuration_stops_each_command_with_one_line(folder, command):
    (folder / "sgn.toml").write_text("rulez = 1\n")
    out = run_cli(*command, cwd=folder)
    said = out.stderr.decode()
    assert out.returncode == 2 and "did you mean 'rules'?" in said and len(said.splitlines()) == 1
    assert run_cli(*command, "--rules", "catanatron", cwd=folder).returncode == 2  # (the file is read all the same)


def test_the_moves_of_a_prefix_are_listed_without_a_warning_that_it_ends(folder):
    out = run_cli("moves", "prefix.sgn", cwd=folder)
    assert out.returncode == 0 and out.stdout and "log-ends-unfinished" not in out.stderr.decode()
    assert "log-ends-unfinished" in run_cli("validate", "prefix.sgn", cwd=folder).stdout.decode()


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "h.sgn"],
        ["moves", "h.sgn"],
        ["render", "h.sgn", "-o", "b.svg"],
        ["report", "h.sgn", "-o", "r.html"],
    ],
)
def test_the_configuration_s_hidden_and_longest_line_reach_each_command_as_validate_s(folder, command):
    """One value for how a file is checked (sgn/pipeline/checking.py): what `validate` would
    refuse of this file under the configuration, the replaying commands report too."""
    import json

    log = random_game(4, 4)[:60]
    hidden = next(i for i, m in enumerate(log) if m[1] == "RD")
    log[hidden] = [log[hidden][0], "RD", {"result": "?"}]
    (folder / "h.sgn").write_text("".join(json.dumps(m) + "\n" for m in log))

    def said() -> str:  # (the report page holds its diagnostics; the others print them)
        text = run_cli(*command, cwd=folder).stderr.decode()
        return text + ((folder / "r.html").read_text() if command[0] == "report" else "")

    assert "hidden-value" not in said()
    (folder / "sgn.toml").write_text('hidden = "refuse"\n')
    assert "hidden-value" in run_cli("validate", "h.sgn", cwd=folder).stdout.decode()
    assert "hidden-value" in said()
    (folder / "sgn.toml").write_text("max-line-bytes = 20\n")
    assert "line-too-long" in said()
