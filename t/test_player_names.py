"""Players' names (docs/format.md, "Players' names"): `sgn convert` keeps each engine's
names for the players and says the mapping; in the game's header, and for a log written
for v1.0 alone (`--profile v1.0`) beside it; `sgn replay`, `render` and `report` show
them, the header's first."""

import json
import sys
from pathlib import Path

import pytest

from conftest import run_cli

sys.path.insert(0, str(Path(__file__).resolve().parent))
import catanatron_games  # noqa: E402
import jsettlers_games  # noqa: E402

NAME, DATA = catanatron_games.recorded(catanatron_games.RELEASED)[0]
COLOURS = {str(i + 1): c for i, c in enumerate(DATA["colors"])}


def sgn_cli(*args, cwd=None, stdin=None):
    """`sgn ARGS` (conftest.run_cli: in this process, as no test here is of the process
    itself), its output and errors as text."""
    result = run_cli(*args, cwd=cwd, stdin=None if stdin is None else stdin.encode("utf-8"))
    result.stdout, result.stderr = result.stdout.decode("utf-8"), result.stderr.decode("utf-8")
    return result


@pytest.fixture()
def converted(tmp_path):
    """A catanatron game converted for v1.0 alone with --output-file: the log and its
    players' names beside it."""
    game = tmp_path / "game.json"
    game.write_text(json.dumps(DATA), encoding="utf-8")
    result = sgn_cli(
        "convert", str(game), "--to", "sgn", "--profile", "v1.0", "--output-file", str(tmp_path / "game.sgn")
    )
    assert result.returncode == 0, result.stderr
    return tmp_path / "game.sgn", result.stderr


def test_convert_says_the_mapping_of_catanatrons_colours():
    game = Path(__file__).resolve().parent / "data"  # (any folder: the game goes on standard input)
    result = sgn_cli("convert", "-", "--to", "sgn", stdin=json.dumps(DATA), cwd=game)
    shown = ", ".join(f"{n} = {c}" for n, c in COLOURS.items())
    assert f"sgn convert: players: {shown} (catanatron's colours, in play order)\n" in result.stderr


def test_convert_keeps_the_names_beside_the_log_which_stays_a_v1_log(converted):
    log, said = converted
    kept = json.loads((log.parent / "game.sgn.players.json").read_text(encoding="utf-8"))
    assert kept == {"format": "sgn-players 1", "engine": "catanatron", "rules": "catanatron", "players": COLOURS}
    assert f"kept in {log}.players.json" in said
    assert sgn_cli("validate", "--isolated", "--level", "semantic", "--profile", "v1.0", str(log)).returncode == 0
    assert sgn_cli("validate", "--isolated", "--rules", "catanatron", "--profile", "v1.0", str(log)).returncode == 0


def test_the_header_names_the_players_and_wins_over_the_file_beside(tmp_path):
    game = tmp_path / "game.json"
    game.write_text(json.dumps(DATA), encoding="utf-8")
    log = tmp_path / "game.sgn"
    assert sgn_cli("convert", str(game), "--to", "sgn", "--output-file", str(log)).returncode == 0
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header[:2] == ["B", "HD"] and header[2]["rules"] == "catanatron"
    assert {n: p["color"] for n, p in header[2]["players"].items()} == COLOURS
    (log.parent / "game.sgn.players.json").write_text(
        json.dumps({"format": "sgn-players 1", "players": {"1": "STALE"}}), encoding="utf-8"
    )
    replay = sgn_cli("replay", str(log))  # (no --rules: the header's)
    assert all(f"player {n} ({c}): " in replay.stdout for n, c in COLOURS.items()), replay.stdout
    assert "STALE" not in replay.stdout and "as catanatron plays them" in replay.stdout
    render = sgn_cli("render", str(log), "-o", "-")
    assert all(f"player {n} ({c}): " in render.stdout for n, c in COLOURS.items())
    page = sgn_cli("report", str(log), "-o", "-")
    assert all(f"<td>{n} ({c}) " in page.stdout for n, c in COLOURS.items()) and "STALE" not in page.stdout


def test_jsettlers_nicknames_by_seat():
    from sgn.adapters import player_names

    for name, lines in jsettlers_games.recorded("6p")[:3]:
        seats = jsettlers_games.seats(lines)
        nicknames = {}
        for line in lines:
            if line.startswith("all:SOCSitDown:"):
                fields = dict(f.split("=", 1) for f in line.split(":", 2)[2].split("|") if "=" in f)
                nicknames[int(fields["playerNumber"])] = fields["nickname"]
        assert player_names("jsettlers", lines) == {seats[s]: nicknames[s] for s in seats}, name


def test_replay_and_render_show_the_names(converted):
    log, _ = converted
    replay = sgn_cli("replay", "--rules", "catanatron", str(log))
    assert all(f"player {n} ({c}): " in replay.stdout for n, c in COLOURS.items()), replay.stdout
    state = json.loads(sgn_cli("replay", "--rules", "catanatron", "-o", "json", str(log)).stdout)
    assert state["names"] == COLOURS
    render = sgn_cli("render", "--rules", "catanatron", str(log), "-o", "-")
    assert all(f"player {n} ({c}): " in render.stdout for n, c in COLOURS.items())
    (log.parent / "game.sgn.players.json").unlink()
    assert "player 1: " in sgn_cli("replay", "--rules", "catanatron", str(log)).stdout


def test_the_report_shows_the_names(converted):
    log, _ = converted
    page = sgn_cli("report", "--rules", "catanatron", str(log), "-o", "-")
    assert all(f"<td>{n} ({c}) " in page.stdout for n, c in COLOURS.items())
    (log.parent / "game.sgn.players.json").unlink()
    assert "<td>1 <span" in sgn_cli("report", "--rules", "catanatron", str(log), "-o", "-").stdout


@pytest.mark.parametrize(
    "text", ["{", "[]", '{"format": "sgn-players 1", "players": {"7": "X"}}', '{"players": {"1": "X"}}', "x" * 70000]
)
def test_a_file_beside_the_log_that_is_not_names_is_passed_over_with_a_warning(converted, text):
    log, _ = converted
    (log.parent / "game.sgn.players.json").write_text(text, encoding="utf-8")
    for command in (["replay"], ["render", "-o", "-"], ["report", "-o", "-"]):
        result = sgn_cli(*command, "--rules", "catanatron", str(log))
        assert result.returncode == 0 and "Traceback" not in result.stderr, (command, result.stderr)
        assert "warning:" in result.stderr and "passed over" in result.stderr
        assert "ORANGE" not in result.stdout and "RED)" not in result.stdout


def test_the_names_are_never_written_over_the_input(tmp_path):
    """A game whose name is that of the file of names the output would have: refused, the
    input as it was."""
    game = tmp_path / "g.sgn.players.json"
    game.write_text(json.dumps(DATA), encoding="utf-8")
    before = game.read_bytes()
    result = sgn_cli(
        "convert", str(game), "--from", "catanatron", "--to", "sgn", "--output-file", str(tmp_path / "g.sgn")
    )
    assert game.read_bytes() == before and "the names are not kept" in result.stderr, result.stderr
