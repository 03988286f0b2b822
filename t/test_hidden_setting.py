"""The setting `hidden` (docs/configuration.md): hidden values are allowed by default, and
`refuse` makes each an error, one a message, the message still read as hidden; a log
without them gets the same diagnostics either way, in every output and executor."""

import json

import pytest
from hypothesis import given, settings, strategies as st

import sgn
from conftest import run_cli, scaled
from sgn.notation.redact import hide
from sgn.play import random_game
from sgn.testing import faults


def codes(found):
    return [(d.line, d.code) for d in found if d.is_error]


def _view(seed, players=4):
    return [json.dumps(hide(m, None)) for m in random_game(seed, players)]


def test_hidden_values_are_allowed_by_default_and_refused_one_a_message():
    view = _view(1)
    assert codes(sgn.check(view).diagnostics) == []
    refused = codes(sgn.check(view, hidden="refuse").diagnostics)
    hidden_lines = [n for n, line in enumerate(view, 1) if '"?"' in line]
    assert refused == [(n, "hidden-value") for n in hidden_lines]


def test_a_refused_hidden_value_is_still_read_as_hidden():
    """Refusing the ? adds its error and nothing else: the replay still reads the move."""
    game = random_game(2, 3)
    view = [hide(m, None) for m in game]
    i = next(i for i, m in enumerate(game) if m[1] == "BC" and i > 30)
    broken = [json.dumps(m) for m in view[:i] + [view[i], view[i]] + view[i + 1 :]]
    allowed = codes(sgn.check(broken).diagnostics)
    refused = [c for c in codes(sgn.check(broken, hidden="refuse").diagnostics) if c[1] != "hidden-value"]
    assert allowed and refused == allowed


@settings(max_examples=scaled(6), deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([3, 4, 5, 6]), st.integers(0, 50))
def test_a_log_without_hidden_values_is_judged_the_same_either_way(seed, players, pick):
    game = random_game(seed, players)
    mutants = [mutate(game, pick) for mutate in faults.GAME_MUTATIONS]
    assert any(m is not None for m in mutants)
    for log in [game] + [m[0] for m in mutants if m is not None]:
        lines = [json.dumps(x) for x in log]
        assert list(sgn.iter_diagnostics(lines)) == list(sgn.iter_diagnostics(lines, hidden="refuse"))


def test_the_setting_is_checked():
    with pytest.raises(ValueError, match="hidden"):
        sgn.check(["[]"], hidden="maybe")
    assert [d.code for d in sgn.validate_message(["1", "BD", {"cCode": "?"}], hidden="refuse")] == ["hidden-value"]
    assert sgn.validate_message(["1", "BD", {"cCode": "?"}]) == []
    assert [d.code for d in sgn.validate_message(["1", "PD", {"cCode": "?"}])] == ["schema-enum"]


@pytest.fixture
def logs(tmp_path):
    (tmp_path / "view.sgn").write_text("\n".join(_view(3)) + "\n")
    (tmp_path / "full.sgn").write_text("\n".join(json.dumps(m) for m in random_game(3, 4)) + "\n")
    return tmp_path


@pytest.mark.parametrize("output", ["text", "json", "junit", "sarif", "github"])
def test_the_command_line_and_configuration_agree_in_every_output(logs, output):
    files = ("view.sgn", "full.sgn")
    default = run_cli("validate", "-o", output, *files, cwd=logs)
    refused = run_cli("validate", "-o", output, "--hidden", "refuse", *files, cwd=logs)
    assert default.returncode == 0, default.stdout + default.stderr
    assert refused.returncode == 1 and b"hidden-value" in refused.stdout
    (logs / "sgn.toml").write_text('hidden = "refuse"\n')
    configured = run_cli("validate", "-o", output, *files, cwd=logs)
    assert configured.returncode == 1 and configured.stdout == refused.stdout


def test_the_command_line_overrides_the_configuration_with_jobs_and_standard_input(logs):
    files = ("view.sgn", "full.sgn")
    alone = run_cli("validate", "-o", "json", "--hidden", "refuse", *files, cwd=logs)
    jobs = run_cli("validate", "-o", "json", "-j", "2", "--hidden", "refuse", *files, cwd=logs)
    assert jobs.returncode == alone.returncode == 1 and jobs.stdout == alone.stdout
    (logs / "sgn.toml").write_text('hidden = "refuse"\n')
    overridden = run_cli("validate", "-j", "2", "--hidden", "allow", *files, cwd=logs)
    assert overridden.returncode == 0, overridden.stdout
    stdin = run_cli("validate", "-o", "json", "--hidden", "refuse", "-", stdin=(logs / "view.sgn").read_bytes())
    assert stdin.returncode == 1
    assert json.loads(stdin.stdout)["diagnostics"] == [
        dict(d, file="<stdin>") for d in json.loads(alone.stdout)["diagnostics"] if d["file"] == "view.sgn"
    ]


def test_a_bad_value_in_the_configuration_is_one_line(tmp_path):
    (tmp_path / "sgn.toml").write_text('hidden = "sometimes"\n')
    (tmp_path / "view.sgn").write_text("\n".join(_view(3)) + "\n")
    result = run_cli("validate", "view.sgn", cwd=tmp_path)
    assert result.returncode == 2 and b"hidden" in result.stderr and b"Traceback" not in result.stderr
