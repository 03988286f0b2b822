"""Past a bound, no verdict (docs/hidden.md, "The model"): a log whose hidden cards may lie in
more ways than the replay lists is never called valid. Without an error it is undecided
(`bound-reached`, where the bound was reached; exit status 3), in every output and
executor; an error stays an error (the replay past the bound never calls a legal move
illegal), and a file that fails otherwise makes the run fail as it did."""

import json

import pytest

import sgn
from conftest import run_cli
from sgn.layers.semantic import is_discard
from sgn.play import random_game


def hidden_discards(seed=49, seven=295, players=6):
    """A generated 6-player game whose discards after one 7 (five players) are hidden: the
    ways their cards may lie grow past the bound at one of them."""
    game = random_game(seed, players)
    log = [list(m) for m in game[: seven + 1]]
    i = seven + 1
    while game[i][1] == "TR" and is_discard(game[i][2]):
        player = next(s for s in game[i][2] if s["player"] != "B")["player"]
        n = -sum(next(s for s in game[i][2] if s["player"] != "B")["resources"].values())
        log.append([player, "TR", [{"player": player, "resources": {"?": -n}}, {"player": "B", "resources": {"?": n}}]])
        i += 1
    return log, [list(m) for m in game[i:]], (seven + 2, i)  # (the lines of the hidden discards)


def text(messages):
    return "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in messages)


@pytest.fixture(scope="module")
def undecided(tmp_path_factory):
    head, rest, discards = hidden_discards()
    path = tmp_path_factory.mktemp("bound") / "view.sgn"
    path.write_text(text(head + rest), encoding="utf-8")
    (line,) = [d.line for d in sgn.iter_diagnostics(str(path)) if d.code == "bound-reached"]
    assert discards[0] < line <= discards[1]  # (at one of the hidden discards)
    return path, line


def test_a_log_past_the_bound_without_an_error_is_undecided_never_valid(undecided):
    path, line = undecided
    result = sgn.check(str(path))
    assert result.verdict == "undecided" and not result.valid and result.exit_code == 3
    assert [(d.line, d.code) for d in result.diagnostics] == [(line, "bound-reached")]
    assert result.errors == 0 and result.warnings == 1


@pytest.mark.parametrize("cut", [0, 1, 5, 40])
def test_whatever_follows_the_bound_the_verdict_is_never_valid(undecided, cut):
    """A log that no filling makes legal may pass the replay past its bound: the class of
    the false `valid`. Whatever the log holds after the bound, cut there or with a move no
    hand can pay added, the verdict is undecided or invalid, never valid."""
    head, rest, _ = hidden_discards()
    for tail in (rest[:cut], rest[:cut] + [[rest[0][0], "BC", {"intersection": [[0, 0], [1, 0], [0, 1]]}]]):
        result = sgn.check(head + tail)
        assert result.verdict in ("undecided", "invalid"), (cut, tail[-1:])


def test_the_command_line_says_not_decided_and_exits_3(undecided, tmp_path):
    path, line = undecided
    valid = tmp_path / "valid.sgn"
    valid.write_text(text(random_game(3, 4)), encoding="utf-8")
    broken = tmp_path / "broken.sgn"
    broken.write_text('["1","RD",{"result":13}]\n', encoding="utf-8")
    alone = run_cli("validate", str(path))
    assert alone.returncode == 3
    out = alone.stdout.decode()
    assert f":{line}:" in out and "[bound-reached]" in out and "NOT DECIDED" in out
    assert run_cli("validate", str(valid), str(path)).returncode == 3
    assert run_cli("validate", str(broken), str(path)).returncode == 1
    assert run_cli("validate", str(path), "missing.sgn").returncode == 2
    report = json.loads(run_cli("validate", "-o", "json", str(valid), str(path)).stdout)
    assert [f["verdict"] for f in report["files"]] == ["valid", "undecided"] and report["exit_code"] == 3
    junit = run_cli("validate", "-o", "junit", str(path)).stdout.decode()
    assert "<failure" in junit and "NOT DECIDED" in junit
    assert run_cli("validate", "-j", "2", str(valid), str(path)).returncode == 3


def test_an_error_past_the_bound_is_still_an_error(undecided):
    head, rest, _ = hidden_discards()
    result = sgn.check(head + rest + [["1", "RD", {"result": 13}]])
    assert result.verdict == "invalid" and result.exit_code == 1
