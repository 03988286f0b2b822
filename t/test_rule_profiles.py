"""Rule profiles (`--rules standard|catanatron|jsettlers`, sgn/game/rule_profiles.py): an engine's
games replay under its own profile to the engine's own end with no error, a profile
removes only the diagnostics of its departures, and a rule outside it is still checked
(docs/engines.md, "Rule profiles")."""

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import sgn
from sgn.game import Game
from sgn.game.rule_profiles import CHOICES, PROFILES
from sgn.play import random_game
from sgn.testing import faults

sys.path.insert(0, str(Path(__file__).resolve().parent))
import catanatron_games  # noqa: E402
import jsettlers_games  # noqa: E402
from conftest import run_cli, scaled  # noqa: E402
from test_adapters_jsettlers import converted  # noqa: E402 (each game converted once in a process)


@functools.lru_cache(maxsize=None)
def catanatron_recorded():
    """(name, messages, record) of each recorded catanatron game, read when a test first asks."""
    return [
        (name, catanatron_games.messages(data), data)
        for path in (catanatron_games.RELEASED, catanatron_games.LATER)
        for name, data in catanatron_games.recorded(path)
    ]


@functools.lru_cache(maxsize=None)
def jsettlers_recorded():
    """(name, lines) of each recorded JSettlers game, read when a test first asks."""
    return [(name, lines) for kind in ("4p", "6p") for name, lines in jsettlers_games.recorded(kind)]


def errors(messages, rules="standard"):
    lines = [json.dumps(m, separators=(",", ":")) for m in messages]
    return [(d.line, d.code) for d in sgn.iter_diagnostics(lines, level="rules", rules=rules) if d.is_error]


def diagnostics(messages, rules="standard"):
    return [tuple(d)[:6] for d in sgn.check(messages, level="rules", rules=rules).diagnostics]


def replayed(messages, rules):
    game = Game(rules)
    for n, message in enumerate(messages, 1):
        game.apply(message, n)
    return game


# -- each engine's games under its own profile ----------------------------------------------


def test_jsettlers_games_are_valid_under_jsettlers_rules_and_end_where_jsettlers_ended():
    """All 70, the games whose bank ran short and the Special Building Phases out of order
    included: no error, every hand JSettlers sends after a roll, its points, awards and deck."""
    short = 0
    for name, lines in jsettlers_recorded():
        game = converted(name)
        assert errors(game.messages, "jsettlers") == [], name
        found = jsettlers_games.differences(lines, game, "jsettlers")
        assert found.hands == [] and found.end == [], (name, found.hands[:3], found.end)
        short += jsettlers_games.first_short_roll(game) is not None
    assert short >= 5  # (the bank games are among them)


def test_catanatron_games_are_valid_under_catanatron_rules():
    """All 50 recorded games and the 300 of the benchmark's stream, those whose bank ran
    short and whose longest road catanatron counts otherwise included: no error."""
    import test_engine_faults

    games = [(name, messages) for name, messages, _ in catanatron_recorded()]
    games += [(f"stream:{i}", g) for i, g in enumerate(test_engine_faults.recorded_games())]
    assert len(games) == 350
    for name, messages in games:
        assert errors(messages, "catanatron") == [], name


def test_under_catanatron_rules_the_replay_ends_where_catanatron_ended():
    """Every hand, the bank, each player's cards, Knights and points, and the holders of the
    longest road and the largest army, as catanatron's own end, in all 50 games; the hands
    and the bank those of the test's own imitation of catanatron's production (where the
    rulebook's longest road did not end the game earlier)."""
    longest = 0
    for name, messages, data in catanatron_recorded():
        replay = replayed(messages, "catanatron")
        assert catanatron_games.end_differences(data, replay) == [], name
        imitated, _ = catanatron_games.replay_as_catanatron(messages)
        if catanatron_games.end_differences(data, imitated):  # (its longest road ended the game before)
            longest += 1
            continue
        ours, theirs = replay.snapshot(), imitated.snapshot()
        assert ours["bank"] == theirs["bank"], name
        assert {n: p["hand"] for n, p in ours["players"].items()} == {
            n: p["hand"] for n, p in theirs["players"].items()
        }, name
    assert longest >= 4  # (the games whose longest road the rulebook counts otherwise)


def test_under_standard_rules_the_engine_games_give_their_departures_as_before():
    """The default is the rulebook: the departures are still reported."""
    codes = {code for _, messages, _ in catanatron_recorded()[:5] for _, code in errors(messages)}
    assert "card-bought-this-turn" in codes
    assert errors(catanatron_recorded()[0][1]) == errors(catanatron_recorded()[0][1], "standard")
    sbp = next(g for name, lines in jsettlers_recorded() for g in [converted(name)] if errors(g.messages))
    assert errors(sbp.messages) != []


# -- a departure is not a blanket ------------------------------------------------------------


def test_a_rule_outside_the_profile_is_still_checked():
    """catanatron's card played the turn it was bought is an error under JSettlers' rules;
    JSettlers' Special Building Phase out of order under catanatron's; catanatron 3.3's road
    through another player's building under JSettlers'."""
    released = next(m for name, m, data in catanatron_recorded() if "actions" in data)
    assert "card-bought-this-turn" in {code for _, code in errors(released, "jsettlers")}
    later = [m for name, m, data in catanatron_recorded() if "action_records" in data]
    assert any("road-not-connected" in {code for _, code in errors(m, "jsettlers")} for m in later)
    six = [converted(name).messages for name, lines in jsettlers_recorded() if "6p" in name]
    sbp = {"special-build-order", "special-build-turn-player"}
    assert any(sbp & {code for _, code in errors(m, "catanatron")} for m in six)


# Codes a profile may take away: its departures' own, and for a bank other than the
# rulebook's, those of the counts of cards (a hand the other bank paid, or did not).
_COUNTS = {"cannot-afford", "not-held", "discard-not-owed", "discard-wrong-amount", "discard-missing", "bank-empty"}
REMOVED = {
    "standard": set(),
    "catanatron": {"card-bought-this-turn", "road-not-connected", "after-game-end", "log-ends-unfinished"} | _COUNTS,
    "jsettlers": {"special-build-order", "special-build-turn-player"} | _COUNTS,
}


@settings(max_examples=scaled(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([3, 4, 5, 6]),
    mutation=st.sampled_from(faults.GAME_MUTATIONS),
    pick=st.integers(0, 100),
    rules=st.sampled_from(sorted(PROFILES)),
)
def test_a_profile_removes_only_its_departures_diagnostics(seed, players, mutation, pick, rules):
    """A rulebook game with one fault put in (sgn.testing.faults): under any profile it gives
    the diagnostics it gives under `standard`, but for those of the profile's departures,
    which may go; no other is removed, and none is added. Games whose bank runs short, or
    whose longest road the engine counts otherwise, included: where the profile's rule and
    the rulebook's part, both are followed (sgn/game/bank_pays.py, engine_end.py)."""
    game = random_game(seed, players)
    made = mutation(game, pick)
    assume(made is not None)
    mutant = made[0]
    standard = diagnostics(mutant)
    profiled = diagnostics(mutant, rules) if rules != "standard" else standard
    removed = set(standard) - set(profiled)
    assert set(profiled) <= set(standard), (rules, set(profiled) - set(standard))
    assert {d[0] for d in removed} <= REMOVED[rules], (rules, removed)
    if made[1] not in REMOVED[rules]:
        assert profiled == standard


def test_the_profiles_are_data_and_standard_departs_from_nothing():
    assert PROFILES["standard"] == frozenset() and set(PROFILES) == {"standard", "catanatron", "jsettlers"}
    assert CHOICES == ("auto", *PROFILES)  # (auto: the profile a game's header names, else standard)
    with pytest.raises(ValueError, match="standard, catanatron, jsettlers"):
        sgn.check([], rules="house")


# -- the command line and the configuration ---------------------------------------------------


def sgn_cli(*args, cwd=None, stdin=None):
    """`sgn ARGS` from `cwd` (this one by default), its output as text: in this process
    (conftest.run_cli; what sgn says is tested, not its start-up), -j in a process of its own."""
    result = run_cli(*args, cwd=cwd or os.getcwd(), stdin=None if stdin is None else stdin.encode())
    return subprocess.CompletedProcess(result.args, result.returncode, result.stdout.decode(), result.stderr.decode())


@pytest.fixture(scope="module")
def catanatron_log(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rules")
    path = folder / "cat.sgn"
    path.write_text("".join(json.dumps(m) + "\n" for m in catanatron_recorded()[1][1]), encoding="utf-8")
    assert errors(catanatron_recorded()[1][1]) and not errors(catanatron_recorded()[1][1], "catanatron")
    return path


def test_rules_on_the_command_line(catanatron_log):
    assert sgn_cli("validate", "--isolated", str(catanatron_log)).returncode == 1
    assert sgn_cli("validate", "--isolated", "--rules", "catanatron", str(catanatron_log)).returncode == 0
    for command in (["replay"], ["render", "-o", "-"], ["report", "-o", "-"]):
        assert sgn_cli(*command, "--rules", "catanatron", str(catanatron_log)).returncode == 0, command
        assert sgn_cli(*command, str(catanatron_log)).returncode == 1, command


def test_unknown_rules_are_a_usage_error_listing_the_choices(catanatron_log, tmp_path):
    for args in (["--rules", "house"], ["--per-file-rules", "*.sgn:house"], ["--per-file-rules", "house"]):
        result = sgn_cli("validate", "--isolated", *args, str(catanatron_log))
        assert result.returncode == 2 and "Traceback" not in result.stderr, (args, result.stderr)
    said = sgn_cli("validate", "--rules", "house", str(catanatron_log)).stderr
    assert "house" in said and all(f"'{name}'" in said for name in CHOICES), said
    for text in ('rules = "house"\n', '[per-file-rules]\n"*.sgn" = "house"\n', "per-file-rules = 3\n"):
        (tmp_path / "sgn.toml").write_text(text, encoding="utf-8")
        result = sgn_cli("validate", str(catanatron_log), cwd=tmp_path)
        assert result.returncode == 2 and "sgn.toml" in result.stderr and "Traceback" not in result.stderr, text


def test_rules_in_the_configuration_and_per_file(catanatron_log, tmp_path):
    other = tmp_path / "plain.sgn"
    other.write_text(catanatron_log.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "cat.sgn").write_text(catanatron_log.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "sgn.toml").write_text('rules = "catanatron"\n', encoding="utf-8")
    assert sgn_cli("validate", "cat.sgn", "plain.sgn", cwd=tmp_path).returncode == 0
    shown = sgn_cli("validate", "--show-settings", cwd=tmp_path).stdout
    assert 'rules = "catanatron"' in shown
    (tmp_path / "sgn.toml").write_text('[per-file-rules]\n"cat*.sgn" = "catanatron"\n', encoding="utf-8")
    result = sgn_cli("validate", "-o", "json", "cat.sgn", "plain.sgn", cwd=tmp_path)
    files = {f["file"]: f["verdict"] for f in json.loads(result.stdout)["files"]}
    assert files == {"cat.sgn": "valid", "plain.sgn": "invalid"}, files
    jobs = sgn_cli("validate", "-j", "2", "-o", "json", "cat.sgn", "plain.sgn", cwd=tmp_path)
    assert {f["file"]: f["verdict"] for f in json.loads(jobs.stdout)["files"]} == files
    given = sgn_cli("validate", "--isolated", "--per-file-rules", "plain*:catanatron", "plain.sgn", cwd=tmp_path)
    assert given.returncode == 0, given.stdout


def test_convert_names_the_rules_its_games_need(tmp_path):
    name, _, data = catanatron_recorded()[0]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = sgn_cli("convert", str(path), "--to", "sgn")
    assert result.returncode == 0
    assert "games from catanatron follow the rules catanatron, which their header names" in result.stderr
    name, lines = jsettlers_recorded()[0]
    path = tmp_path / "game.soclog"
    path.write_text("\n".join(lines), encoding="utf-8")
    assert "follow the rules jsettlers" in sgn_cli("convert", str(path), "--to", "sgn").stderr
    assert "need --rules jsettlers" in sgn_cli("convert", str(path), "--to", "sgn", "--profile", "v1.0").stderr


def test_catanatron_s_stream_validates_whole_under_its_profile_a_win_in_another_s_turn_included():
    """catanatron ends a game the moment any player has 10 points (`win-in-any-turn`): the
    recorded stream of 300 games, read as one file, has no error and counts its 300 games."""
    result = sgn.check(str(catanatron_games.DATA / "catanatron-games.sgn.gz"), rules="catanatron")
    assert (result.verdict, result.errors, result.game_count) == ("valid", 0, 300)


def test_one_game_cut_short_in_a_stream_is_one_error():
    import gzip

    lines = gzip.decompress((catanatron_games.DATA / "catanatron-games.sgn.gz").read_bytes()).splitlines()
    maps = [i for i, line in enumerate(lines) if line.startswith(b'["B","DM"')]
    cut = lines[: maps[2] - 40] + lines[maps[2] : maps[5]]  # game 2 loses its last 40 lines
    result = sgn.check(cut, rules="catanatron")
    assert [(d.line, d.code) for d in result.diagnostics if d.is_error] == [(maps[2] - 40 + 1, "map-redefined")]
    assert result.game_count == 5


# -- a game of the rulebook is a game of every profile ---------------------------------------
# (seed, players) of generated games where a profile's rule and the rulebook's part: a bank
# short of a roll (JSettlers' pays in full, catanatron's pays nobody), catanatron's count of
# the longest road giving the tenth point where the rulebook's does not, and the other way
# round. Each gave errors under a profile before both rules were followed where they part.
PARTING = [(35, 3), (97, 3), (279, 4), (123, 3), (133, 3), (215, 4), (41, 4), (72, 4)]


@settings(max_examples=scaled(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4, 5, 6]))
def test_a_game_of_the_rulebook_is_a_game_of_every_profile(seed, players):
    """A profile only removes errors: a generated game, which follows the rulebook, is valid
    under every profile, and ends there (docs/engines.md, "Rule profiles")."""
    for seed, players in PARTING + [(seed, players)]:
        game = random_game(seed, players)
        for rules in sorted(PROFILES):
            assert errors(game, rules) == [], (seed, players, rules)
            assert replayed(game, rules).phase == "over", (seed, players, rules)


def _first_end(game, rules):
    replay = Game(rules)
    for n, message in enumerate(game, 1):
        replay.apply(message, n)
        if replay.phase == "over":
            return n, replay
    raise AssertionError("the game does not end")


def test_an_end_only_the_engine_s_count_makes_is_one_the_game_may_go_on_from():
    """Generated game 35 (3 players): catanatron's count of the longest road gives player 2
    the tenth point at line 351, the rulebook's at 382. Under catanatron's profile the game
    ends at 351 (cut there, player 2 won), goes on from it as the rulebook's game does, and
    ends for good at 382, after which a message is `after-game-end` as under the rulebook."""
    game = random_game(35, 3)
    line, at_end = _first_end(game, "catanatron")
    assert (line, at_end.current) == (351, "2")
    assert _first_end(game, "standard")[0] == len(game) == 382
    assert errors(game[:line], "catanatron") == []  # (a game catanatron ended there)
    whole = replayed(game, "catanatron")
    assert (whole.phase, whole.ended_at, whole.current) == ("over", 382, "2")
    assert errors(game + [game[-1]], "catanatron") == errors(game + [game[-1]]) == [(383, "after-game-end")]


def test_an_end_both_rules_make_is_an_end_under_the_profile():
    """catanatron's own games end where catanatron ended them; a move after that end is an
    error under its profile as under the rulebook, whichever rule's count ended it."""
    for name, messages, data in catanatron_recorded()[:12]:
        after = messages + [messages[-1]]
        found = errors(after, "catanatron")
        assert (len(messages) + 1, "after-game-end") in found, (name, found)


def test_a_roll_a_profile_s_bank_pays_otherwise_is_two_ways_the_cards_may_lie():
    """Generated game 41 (4 players): a roll the rulebook's bank cannot pay in full. Under
    JSettlers' profile (its bank pays in full) both hands are possible until a move tells
    them apart; under the rulebook only the rulebook's."""
    game = random_game(41, 4)
    standard = Game("standard")
    for n, message in enumerate(game, 1):
        before = standard.clone()
        standard.apply(message, n)
        if message[1] != "RD" or before.phase != "turns":
            continue
        full = before.clone()
        full.bank = {r: 10**3 for r in full.bank}  # (a bank that pays in full)
        full.apply(message, n)
        differs = [name for name in standard.players if full.player(name).hand != standard.player(name).hand]
        if differs:
            break
    else:
        raise AssertionError("no roll of game 41 finds the rulebook's bank short")
    profiled = Game("jsettlers")
    for i, message in enumerate(game[:n], 1):
        profiled.apply(message, i)
    for name in differs:
        assert profiled.may_hold(name, standard.player(name).hand)
        assert profiled.may_hold(name, full.player(name).hand)
        assert not standard.may_hold(name, full.player(name).hand)


def test_a_game_of_the_rulebook_under_a_profile_on_the_command_line(tmp_path):
    """The games whose bank or end parts the profiles from the rulebook, crossed with what
    reads them: files and standard input, each output, two jobs, and the commands that
    replay (the state at the line where only the engine's count ended the game, too)."""
    paths = []
    for seed, players in [(35, 3), (41, 4), (123, 3)]:
        path = tmp_path / f"g{seed}.sgn"
        path.write_text("".join(json.dumps(m) + "\n" for m in random_game(seed, players)), encoding="utf-8")
        paths.append(str(path))
    for rules in ("jsettlers", "catanatron"):
        for output in ("text", "concise", "json", "jsonl", "github", "sarif", "junit"):
            result = sgn_cli("validate", "--isolated", "--rules", rules, "-o", output, "-j", "2", *paths)
            assert result.returncode == 0, (rules, output, result.stdout[-500:], result.stderr[-500:])
        for path in paths:
            piped = sgn_cli(
                "validate", "--isolated", "--rules", rules, "-", stdin=Path(path).read_text(encoding="utf-8")
            )
            assert piped.returncode == 0, (rules, path, piped.stdout[-300:])
            for command in (["replay"], ["report", "-o", "-"], ["render", "-o", "-"]):
                assert sgn_cli(*command, "--rules", rules, path).returncode == 0, (rules, command, path)
    at_end = sgn_cli("replay", "--rules", "catanatron", "--at", "351", "-o", "json", paths[0])
    assert at_end.returncode == 0, at_end.stderr
    assert '"phase": "over"' in at_end.stdout.replace('":"', '": "'), at_end.stdout[:300]


def _profiled_game(seed, rules):
    """A game of random bots refereed under `rules`: its log, and whether the rulebook's bank
    would have paid one of its rolls otherwise (JSettlers' paid past the rulebook's stock;
    catanatron's paid nobody a resource one player alone was owed)."""
    from sgn.game.rule_profiles import UNLIMITED_EXTRA
    from sgn.referee.bots import RandomBot
    from sgn.referee.referee import Referee
    from sgn.referee.seats import InProcess

    seats = [InProcess(f"b{i}", RandomBot(seed=i)) for i in range(4)]
    record = Referee(seats, game=f"g{seed}", seed=f"s{seed}", rules=rules).play()
    replay, parted = Game(rules, as_played=True), False
    for n, message in enumerate(record.log, 1):
        if message[1] == "HD":
            continue
        before = dict(replay.bank)
        owed = catanatron_games.shortages(replay, message[2]["result"]) if message[1] == "RD" and replay.board else {}
        replay.apply(message, n)
        parted |= (
            min(replay.bank.values(), default=UNLIMITED_EXTRA) < UNLIMITED_EXTRA if rules == "jsettlers" else False
        )
        parted |= rules == "catanatron" and any(before[r] > 0 for r, (_, left) in owed.items() if left)
    return record, parted


@pytest.mark.parametrize("rules", ["jsettlers", "catanatron"])
def test_a_game_played_under_a_profile_follows_its_rules_alone(rules):
    """The referee is the engine: under a profile its bank pays the profile's way alone (a
    hand is never in doubt for it, nor for a bot's own view) and its game ends where the
    profile ends it. Games whose rulebook's bank would have paid a roll otherwise among
    them, each is played to its end and valid under the profile, as judged."""
    parted = 0
    for seed in range(40):
        record, differs = _profiled_game(seed, rules)
        parted += differs
        assert record.how in ("won", "turn-limit") and not record.faults, (seed, record.how, record.faults)
        result = sgn.check([json.dumps(m) for m in record.log], level="rules", rules=rules)
        assert result.verdict == "valid", (seed, [(d.line, d.code) for d in result.diagnostics][:3])
        if parted >= 2 and seed >= 10:
            break
    if rules == "jsettlers":  # (catanatron's bank that pays nobody is rarer: the test below)
        assert parted, "no game of the 40 finds the rulebook's bank paying otherwise"


@pytest.mark.parametrize("rules, seed, players", [("catanatron", 123, 3), ("jsettlers", 41, 4)])
def test_a_game_being_played_pays_a_short_roll_the_profile_s_way_alone(rules, seed, players):
    """The rolls of generated games that the rulebook's bank and the profile's pay otherwise:
    judged, two ways the cards may lie; played (`as_played`, the referee's and a bot's
    state), the profile's way alone, every hand known."""
    game = random_game(seed, players)
    judged, played = Game(rules), Game(rules, as_played=True)
    for n, message in enumerate(game, 1):
        if message[1] == "RD" and played.board is not None:
            owed = catanatron_games.shortages(played, message[2]["result"])
        else:
            owed = {}
        before = {name: dict(p.hand) for name, p in played.players.items()}
        judged.apply(message, n)
        played.apply(message, n)
        assert played.unseen.doubt is None, n
        if judged.unseen.doubt is not None:
            break
    else:
        raise AssertionError("no roll of the game is paid otherwise")
    for name, p in played.players.items():
        assert judged.may_hold(name, p.hand)
        if rules == "catanatron":  # (nobody paid the resource the bank could not pay in full)
            for r, (owner, _) in owed.items():
                assert p.hand[r] == before[owner][r] or name != owner


def test_a_game_being_played_ends_where_its_profile_ends_it():
    """Generated game 35 (3 players) under catanatron's profile, played: it ends at line 351,
    where catanatron's count of the longest road gives player 2 the tenth point, for good
    (judged, the game may go on from there: the test above)."""
    game = random_game(35, 3)
    played = Game("catanatron", as_played=True)
    for n, message in enumerate(game[:351], 1):
        assert played.apply(message, n) == [], n
    assert (played.phase, played.ended_at, played.current) == ("over", 351, "2")
    assert [p.code for p in played.apply(game[351], 352)] == ["after-game-end"]
