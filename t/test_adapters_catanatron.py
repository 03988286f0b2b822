"""catanatron's games as SGN (sgn/adapters/catanatron.py): the JSON of a game converts, the
replay ends where catanatron ended, and the rulebook's verdict has errors only at
catanatron's known departures from the rulebook (docs/engines.md).

The recorded games (t/data/catanatron-json.tar.xz: catanatron 3.2.1, its random bots and
default rules, 20 games of 4 players and 20 of 3; t/data/catanatron-3.3-json.tar.xz: its
unreleased 3.3.0, whose log is `action_records`, with bots that trade with each other)
need no catanatron; the tests of a live game do."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import sgn
from sgn.adapters import catanatron
from sgn.testing.as_it_stands import early_plays

sys.path.insert(0, str(Path(__file__).resolve().parent))
import catanatron_games as games  # noqa: E402

RELEASED = games.recorded(games.RELEASED)
LATER = games.recorded(games.LATER)


def _errors(messages):
    lines = [json.dumps(m, separators=(",", ":")) for m in messages]
    return [(d.line, d.code) for d in sgn.iter_diagnostics(lines, level="rules") if d.is_error]


def test_the_recordings_are_what_the_data_readme_says():
    assert len(RELEASED) == 40 and len(LATER) == 10
    assert sorted({len(data["colors"]) for _, data in RELEASED}) == [3, 4]
    assert sum(len(data["colors"]) == 4 for _, data in RELEASED) == 20
    assert all("actions" in data for _, data in RELEASED) and all("action_records" in data for _, data in LATER)
    kinds = {record[0][1] for _, data in LATER for record in data["action_records"]}
    assert {"CONFIRM_TRADE", "OFFER_TRADE", "DISCARD_RESOURCE"} <= kinds


@pytest.mark.parametrize("recording", ["released", "later"])
def test_every_recorded_game_converts_without_a_word(recording):
    for name, data in RELEASED if recording == "released" else LATER:
        found = [d for _, _, seen in catanatron.convert(data, name) for d in seen]
        assert found == [], (name, found[:3])
        messages = games.messages(data)
        assert messages[0][1] == "DM" and sum(m[1] == "RD" for m in messages) > 20, name
        names = {m[0] for m in messages} - {"B"}
        assert names == {str(i + 1) for i in range(len(data["colors"]))}, name


@pytest.mark.parametrize("recording", ["released", "later"])
def test_the_replay_ends_where_catanatron_ended(recording):
    """Played with catanatron's production, the replay ends with catanatron's hands, bank,
    Knights, cards, points and awards; where they differ, the cause is catanatron's count
    of the longest road: the holder and its 2 points, or a game the rulebook's longest
    road had already ended (`after-game-end`, its winner holding that award)."""
    compared, longest = 0, 0
    for name, data in RELEASED if recording == "released" else LATER:
        messages = games.messages(data)
        replay, _ = games.replay_as_catanatron(messages)
        differences = games.end_differences(data, replay)
        if not differences:
            compared += 1
            continue
        longest += 1
        if games.only_the_longest_road(differences):
            continue
        assert "after-game-end" in {code for _, code in _errors(messages)}, (name, differences[:4])
        winner = replay.current
        assert replay.longest_road == winner and replay.points(winner) - 2 < 10, (name, differences[:4])
    assert longest <= compared // 4, (compared, longest)


def test_the_rulebooks_verdict_has_errors_only_at_catanatrons_departures():
    """catanatron 3.2.1: a card played on the turn it was bought (`card-bought-this-turn`, at
    each such play), and the end of a game the longest road decides otherwise
    (`after-game-end`); a production the rulebook pays and catanatron does not shows later,
    as a hand the replay finds other than the log spends it (none in these games)."""
    codes = set()
    for name, data in RELEASED:
        messages = games.messages(data)
        errors = _errors(messages)
        plays = set(early_plays(messages))
        _, differing = games.replay_as_catanatron(messages)
        for line, code in errors:
            codes.add(code)
            if code == "card-bought-this-turn":
                assert line in plays, (name, line)
            elif code != "after-game-end":
                assert differing and line > min(differing), (name, line, code)
        end = min([line for line, code in errors if code == "after-game-end"], default=len(messages) + 1)
        assert {line for line in plays if line < end} <= {line for line, _ in errors}, name  # (none is checked after)
    assert "card-bought-this-turn" in codes


def test_catanatron_3_3_departs_otherwise():
    """catanatron 3.3.0 keeps a card bought this turn in the hand; it lets a road continue
    through another player's building (`road-not-connected`), and its production, as
    3.2.1's, pays nobody a resource short in the bank (a discard then shows it)."""
    codes = set()
    for name, data in LATER:
        messages = games.messages(data)
        _, differing = games.replay_as_catanatron(messages)
        for line, code in _errors(messages):
            codes.add(code)
            assert code in ("road-not-connected", "after-game-end") or (differing and line > min(differing)), (
                name,
                line,
                code,
            )
    assert "card-bought-this-turn" not in codes and "road-not-connected" in codes


def test_domestic_trades_are_trades_between_the_two_players():
    name, data = LATER[0]
    records = [r for r in data["action_records"] if r[0][1] == "CONFIRM_TRADE"]
    trades = [m for m in games.messages(data) if m[1] == "TR" and m[2][1]["player"] != "B"]
    assert len(trades) == len(records) > 0
    colors = {c: str(i + 1) for i, c in enumerate(data["colors"])}
    (color, _, value), _ = records[0]
    first = trades[0]
    assert first[0] == colors[color] and first[2][0]["player"] == colors[color]
    assert first[2][1]["player"] == colors[value[10]]


def test_discards_of_one_card_a_record_are_one_discard():
    for _, data in LATER:
        records = data["action_records"]
        runs, previous = 0, None
        for (color, kind, _), _ in records:
            if kind == "DISCARD_RESOURCE" and previous != (color, kind):
                runs += 1
            previous = (color, kind)
        discards = [
            m
            for m in games.messages(data)
            if m[1] == "TR" and m[2][1]["player"] == "B" and all(n < 0 for n in m[2][0]["resources"].values())
        ]
        assert len(discards) == runs > 0


def test_the_command_line_converts_a_game_file_and_detects_it(tmp_path):
    name, data = RELEASED[0]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for args in (["--from", "catanatron"], []):
        result = subprocess.run(
            [sys.executable, "-m", "sgn", "convert", str(path), "--to", "sgn", *args], capture_output=True
        )
        assert result.returncode == 0 and said(result.stderr), result.stderr
        written = [json.loads(line) for line in result.stdout.decode().splitlines()]
        assert written[0][1] == "HD" and written[1:] == _canonical(games.messages(data))


# What `sgn convert` says of every catanatron game (docs/engines.md, "Rule profiles").
NOTE = (
    "sgn convert: games from catanatron follow the rules catanatron, which their header names "
    "(its departures from the rulebook, docs/engines.md)\n"
)


def said(stderr):
    """What `sgn convert` says of an engine's game that converts without a word: the rules
    its games need, and its players' names (docs/format.md, "Players' names")."""
    lines = stderr.decode().splitlines(keepends=True)
    return len(lines) == 2 and lines[0] == NOTE and lines[1].startswith("sgn convert: players: 1 = ")


def _canonical(messages):
    from sgn.notation.canonical import canonical_line

    return [json.loads(canonical_line(m)) for m in messages]


def test_converting_a_file_never_imports_catanatron(tmp_path):
    _, data = RELEASED[1]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = (
        "import sys; from sgn.cli import main\n"
        "try:\n    main(['convert', sys.argv[1], '--to', 'sgn'])\nexcept SystemExit:\n    pass\n"
        "assert 'catanatron' not in sys.modules, 'imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True)
    assert result.returncode == 0, result.stderr


def test_a_live_game_converts_as_its_json_does_and_nothing_is_patched():
    engine = pytest.importorskip("catanatron", reason="catanatron is not installed (the extra 'test-engines')")
    import catanatron.models.board as board_module
    import catanatron.state as state_module
    from catanatron.json import GameEncoder

    before = (state_module.yield_resources, board_module.longest_acyclic_path)
    for players in (3, 4):
        game = engine.Game([engine.RandomPlayer(c) for c in list(engine.Color)[:players]], seed=7)
        game.play()
        live = catanatron.to_sgn(game)
        assert live[0][1] == "HD" and live[1:] == games.messages(json.loads(json.dumps(game, cls=GameEncoder)))
        assert len({m[0] for m in live} - {"B"}) == players
    assert (state_module.yield_resources, board_module.longest_acyclic_path) == before


def test_the_benchmark_translates_with_the_adapter():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    pytest.importorskip("catanatron", reason="catanatron is not installed (the extra 'test-engines')")
    import engine_games

    assert engine_games.translate is catanatron.translate is catanatron.to_sgn
