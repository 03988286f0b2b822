"""`sgn validate` with a configuration file and ruff's options: select, ignore, per-file
ignores, fail-on, show-settings, folders; the command line wins over the file."""

import io
import json

import pytest

from sgn.cli import main
from sgn.play import random_game

GOOD = "".join(json.dumps(m) + "\n" for m in random_game(seed=1))
# a settlement built twice on one corner: site-occupied (and what follows from it)
_moves = random_game(seed=1)[:12]
BAD = "".join(json.dumps(m) + "\n" for m in _moves + [_moves[1]])
WARNED = GOOD + "\n"  # a blank line: a warning only


def _run(tmp_path, monkeypatch, *args):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    status = main(["validate", *args], out=out)
    return status, out.getvalue()


@pytest.fixture
def games(tmp_path):
    (tmp_path / "games" / "old").mkdir(parents=True)
    (tmp_path / "games" / "good.sgn").write_text(GOOD)
    (tmp_path / "games" / "old" / "bad.sgn").write_text(BAD)
    (tmp_path / "games" / "notes.txt").write_text("not a log")
    return tmp_path


def test_a_folder_is_walked_for_logs(games, monkeypatch):
    status, out = _run(games, monkeypatch, "games", "-o", "json")
    report = json.loads(out)
    assert status == 1
    assert [f["file"] for f in report["files"]] == ["games/good.sgn", "games/old/bad.sgn"]


def test_a_folder_with_no_logs_is_a_usage_error(tmp_path, monkeypatch, capsys):
    (tmp_path / "empty").mkdir()
    status, _ = _run(tmp_path, monkeypatch, "empty")
    assert status == 2 and "no log files found in empty" in capsys.readouterr().err


def test_per_file_ignores_from_the_file_make_a_file_pass(games, monkeypatch):
    status, out = _run(games, monkeypatch, "games", "-o", "json")
    codes = {d["code"] for d in json.loads(out)["diagnostics"]}
    (games / "pyproject.toml").write_text(
        "[tool.sgn]\n[tool.sgn.per-file-ignores]\n" + f'"games/old/*" = {json.dumps(sorted(codes))}\n'
    )
    status, out = _run(games, monkeypatch, "games", "-o", "json")
    assert status == 0 and json.loads(out)["diagnostics"] == []
    status, _ = _run(games, monkeypatch, "games", "--isolated")  # the file read no more
    assert status == 1


def test_select_and_ignore_on_the_command_line(games, monkeypatch):
    status, out = _run(games, monkeypatch, "games/old/bad.sgn", "-o", "json")
    codes = sorted({d["code"] for d in json.loads(out)["diagnostics"]})
    assert "site-occupied" in codes
    status, out = _run(games, monkeypatch, "games/old/bad.sgn", "-o", "json", "--select", "site-*")
    assert {d["code"] for d in json.loads(out)["diagnostics"]} == {"site-occupied"} and status == 1
    status, out = _run(games, monkeypatch, "games/old/bad.sgn", "-o", "json", "--ignore", ",".join(codes))
    assert status == 0 and json.loads(out)["valid"] is True


def test_fail_on_warning(tmp_path, monkeypatch):
    (tmp_path / "w.sgn").write_text(WARNED)
    assert _run(tmp_path, monkeypatch, "w.sgn")[0] == 0
    assert _run(tmp_path, monkeypatch, "w.sgn", "--fail-on", "warning")[0] == 1
    (tmp_path / "sgn.toml").write_text('fail-on = "warning"\n')
    assert _run(tmp_path, monkeypatch, "w.sgn")[0] == 1
    assert _run(tmp_path, monkeypatch, "w.sgn", "--fail-on", "error")[0] == 0  # the command line wins


def test_an_unreadable_file_counts_whatever_is_ignored(tmp_path, monkeypatch):
    status, out = _run(tmp_path, monkeypatch, "missing.sgn", "--select", "blank-line", "-o", "json")
    assert status == 2 and json.loads(out)["diagnostics"]


def test_show_settings_says_where_each_came_from(tmp_path, monkeypatch):
    (tmp_path / "sgn.toml").write_text('level = "schema"\n')
    status, out = _run(tmp_path, monkeypatch, "--show-settings", "--profile", "compat")
    assert status == 0
    assert f'level = "schema"    # {tmp_path / "sgn.toml"}' in out
    assert 'profile = "compat"    # command line' in out and 'fail-on = "error"    # default' in out


def test_the_file_sets_the_level(tmp_path, monkeypatch):
    (tmp_path / "g.sgn").write_text(BAD)
    (tmp_path / "sgn.toml").write_text('level = "schema"\n')
    assert _run(tmp_path, monkeypatch, "g.sgn")[0] == 0  # the replay's faults are not looked for
    assert _run(tmp_path, monkeypatch, "g.sgn", "--level", "rules")[0] == 1


@pytest.mark.parametrize("text", ["level = 3\n", "[oops\n", 'select = "x"\n'])
def test_a_bad_configuration_is_exit_2_with_one_line(tmp_path, monkeypatch, capsys, text):
    (tmp_path / "g.sgn").write_text(GOOD)
    (tmp_path / "sgn.toml").write_text(text)
    status, out = _run(tmp_path, monkeypatch, "g.sgn")
    err = capsys.readouterr().err
    assert status == 2 and out == "" and err.count("\n") == 1 and "sgn.toml" in err


def test_a_bad_per_file_option_is_a_usage_error(tmp_path, monkeypatch, capsys):
    with pytest.raises(SystemExit) as caught:
        _run(tmp_path, monkeypatch, "--per-file-ignores", "no-colon")
    assert caught.value.code == 2 and "GLOB:CODE" in capsys.readouterr().err
