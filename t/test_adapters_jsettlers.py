"""JSettlers2's games as SGN (sgn/adapters/jsettlers.py): every recorded game converts,
replays to JSettlers' own account of it, and the rulebook's verdict has errors only where
JSettlers departs from the rulebook (docs/engines.md).

The games (t/data/jsettlers-4p.tar.xz, jsettlers-6p.tar.xz) are robot-only games on
JSettlers2's recording server (tools/jsettlers/; t/data/README.md): CI needs no Java."""

import functools
import gzip
import json
import re
import sys
import tarfile
from pathlib import Path

import pytest

import sgn
from sgn import board
from sgn.adapters import jsettlers_board as places, jsettlers_log as log
from sgn.adapters.writer import Unreadable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jsettlers_games as games  # noqa: E402
from conftest import run_cli  # noqa: E402

FOUR = games.recorded("4p")
SIX = games.recorded("6p")
LINES = dict(FOUR + SIX)
SBP_CODES = {"special-build-order", "special-build-turn-player"}
REFUSED = games.DATA / "jsettlers-refused.tar.xz"


@functools.lru_cache(maxsize=None)
def converted(name):
    """The conversion of the recorded game `name`, made once in a process (several tests
    read each game's; none changes it)."""
    return games.converted(name, LINES[name])


def _errors(messages):
    lines = [json.dumps(m, separators=(",", ":")) for m in messages]
    return [(d.line, d.code) for d in sgn.iter_diagnostics(lines, level="rules") if d.is_error]


@functools.lru_cache(maxsize=None)
def rule_errors(name):
    """The rulebook's errors in the recorded game `name`, (line, code) each, found once."""
    return tuple(_errors(converted(name).messages))


def test_at_least_thirty_games_of_each_board_are_recorded():
    assert len(FOUR) >= 30 and len(SIX) >= 30
    for name, lines in FOUR + SIX:
        assert log.header(lines)["type"] == "F", name


@pytest.mark.parametrize("kind", ["4p", "6p"])
def test_every_recorded_game_converts_without_a_word(kind):
    for name, lines in FOUR if kind == "4p" else SIX:
        game = converted(name)
        assert game.found == [], (name, [d.message for d in game.found][:3])
        players = {m[0] for m in game.messages} - {"B"}
        assert len(players) == (4 if kind == "4p" else 6), name


@pytest.mark.parametrize("kind", ["4p", "6p"])
def test_the_replay_follows_jsettlers_to_its_end(kind):
    """With JSettlers' bank (it has no limit), the replay holds every hand JSettlers sends a
    player after a roll, and ends with JSettlers' points, longest road, largest army and
    deck: production, steals, discards, trades, cards and awards all agree, and the
    coordinates with them (a corner on the wrong tiles produces the wrong resources)."""
    for name, lines in FOUR if kind == "4p" else SIX:
        found = games.differences(lines, converted(name))
        assert found.hands == [] and found.end == [], (name, found.hands[:3], found.end)


@pytest.mark.parametrize("kind", ["4p", "6p"])
def test_the_rulebooks_errors_are_jsettlers_departures(kind):
    """Every error of `sgn validate` is one of JSettlers' two departures: a build in its
    Special Building Phase out of the rulebook's order (a player who asked once the phase
    had begun, the player whose turn ended among them), or a hand that only JSettlers'
    unlimited bank could have paid (after the first roll the rulebook's bank could not pay
    in full)."""
    departed, seen = 0, set()
    for name, lines in FOUR if kind == "4p" else SIX:
        game = converted(name)
        special = set(games.special_builds(lines))
        short = games.first_short_roll(game)
        errors = rule_errors(name)
        departed += bool(errors)
        for line, code in errors:
            seen.add(code)
            if code in SBP_CODES:
                assert kind == "6p" and game.lines[line - 1] in special, (name, line, code)
            elif code == "end-turn-misplaced":  # (a place in the phase ended after a later seat's)
                assert kind == "6p" and game.messages[line - 1][1] == "ET", (name, line, code)
            else:
                assert short is not None and line > short, (name, line, code, short)
    assert departed < len(FOUR if kind == "4p" else SIX)
    if kind == "6p":
        assert "special-build-order" in seen


def test_a_game_won_by_a_knight_ends_with_its_robber_move_and_steal():
    """JSettlers completes the winning Knight's robber move and steal before it declares the
    win; the replay takes them as part of the winning move (docs/rules.md, "The end")."""
    from sgn.game import OVER, Game

    ended = 0
    for name, lines in FOUR + SIX:
        messages = converted(name).messages
        knight = max(i for i, m in enumerate(messages) if m[1] == "PD" and m[2]["cCode"] == "KN")
        if [m[1] for m in messages[knight:]] not in (["PD", "MR"], ["PD", "MR", "ST"]):
            continue
        replay = Game()
        for n, message in enumerate(messages[: knight + 1], 1):
            replay.apply(message, n)
        if replay.phase != OVER:
            continue  # the Knight did not win it
        ended += 1
        assert "after-game-end" not in {code for _, code in rule_errors(name)}, name
    assert ended >= 1


# -- the coordinates, checked against places whose tiles are known ---------------------------


def test_the_centre_hex_and_its_corners():
    layout = FOUR[0][1]
    entry = next(
        e for e in log.entries(layout) if isinstance(e, log.Entry) and e.kind == "BoardLayout" and e.audience == "all"
    )
    lists = log.int_lists(entry.text)
    b = places.JSettlersBoard(1, lists["hexLayout"], lists["numberLayout"], -1, None, numbers_indexed=True)
    assert b.tile(0x77) == (0, 0) and b.tile(0x17) == (0, -3) and b.tile(0xDD) == (3, 0)
    assert b.corner(0x78) == board.corner((0, 0), "N")  # the node above hex 0x77
    assert b.corner(0x87) == board.corner((0, 0), "S")
    assert b.corner(0x89) == board.corner((0, 0), "NE") and b.corner(0x98) == board.corner((0, 0), "SE")
    assert b.corner(0x76) == board.corner((0, 0), "SW") and b.corner(0x67) == board.corner((0, 0), "NW")
    assert frozenset(b.land) == board.STANDARD.land
    assert b.path(0x66) == [list(map(list, c)) for c in board.canonical_edge(board.edge_between((0, 0), (-1, 0)))]
    assert b.path(0x67) == [list(map(list, c)) for c in board.canonical_edge(board.edge_between((0, 0), (0, -1)))]
    with pytest.raises(Unreadable):
        b.path(0x77)  # a hex, not an edge


@pytest.mark.parametrize("kind", ["4p", "6p"])
def test_every_map_is_a_known_board_with_its_harbors(kind):
    for name, lines in (FOUR if kind == "4p" else SIX)[:10]:
        dm = converted(name).messages[0]
        assert dm[1] == "DM"
        assert [(d.code) for d in sgn.validate_message(dm, level="semantic") if d.severity != "info"] == [], name
        land = frozenset(tuple(t["tile"]) for t in dm[2]["tiles"] if t["tCode"] != "S")
        assert land == (board.STANDARD if kind == "4p" else board.EXTENDED).land, name
        assert len(dm[2]["harbors"]) == (9 if kind == "4p" else 11), name


def test_the_six_player_robber_starts_where_jsettlers_put_it():
    for name, lines in SIX[:5]:
        messages = converted(name).messages
        assert messages[1][1] == "MR" and messages[2][1] == "BS", name
        deserts = [t["tile"] for t in messages[0][2]["tiles"] if t["tCode"] == "D"]
        assert messages[1][2]["tile"] in deserts, name


def test_seats_become_players_in_play_order():
    for name, lines in FOUR[:5] + SIX[:5]:
        seats = games.seats(lines)
        first = next(
            log.number(log.fields(e.text)["playerNumber"])
            for e in log.entries(lines)
            if isinstance(e, log.Entry) and e.kind == "PutPiece" and e.audience == "all"
        )
        assert seats[first] == "1"
        order = sorted(seats, key=lambda s: int(seats[s]))
        assert order == sorted(seats, key=lambda s: (s - first) % 6), name


# -- the command line ----------------------------------------------------------------------


def _run(*args, stdin=None):
    """`sgn ARGS` (in this process: what is tested is what it says, not its start-up)."""
    return run_cli(*args, stdin=stdin)


# What `sgn convert` says of every JSettlers game (docs/engines.md, "Rule profiles").
NOTE = (
    "sgn convert: games from jsettlers follow the rules jsettlers, which their header names "
    "(its departures from the rulebook, docs/engines.md)\n"
)


def said(stderr):
    """What `sgn convert` says of an engine's game that converts without a word: the rules
    its games need, and its players' names (docs/format.md, "Players' names")."""
    lines = stderr.decode().splitlines(keepends=True)
    return len(lines) == 2 and lines[0] == NOTE and lines[1].startswith("sgn convert: players: 1 = ")


def test_a_gzipped_log_converts_detected_and_validates(tmp_path):
    name, lines = SIX[0]
    path = tmp_path / "game.soclog.gz"
    path.write_bytes(gzip.compress("\n".join(lines).encode()))
    converted = _run("convert", str(path), "--to", "sgn")
    assert converted.returncode == 0 and said(converted.stderr), converted.stderr
    sgn_path = tmp_path / "game.sgn"
    sgn_path.write_bytes(converted.stdout)
    assert (
        _run("convert", "--from", "jsettlers", "-", "--to", "sgn", stdin=path.read_bytes()).stdout == converted.stdout
    )
    checked = _run("validate", str(sgn_path), "-o", "json")
    report = json.loads(checked.stdout)
    assert report["files"][0]["level"] == "rules"
    assert {d["code"] for d in report["diagnostics"] if d["severity"] == "error"} <= SBP_CODES | {
        "not-held",
        "discard-not-owed",
        "discard-wrong-amount",
        "cannot-afford",
        "discard-missing",
        "bank-empty",
    }


def _refused():
    with tarfile.open(REFUSED) as archive:
        return {m.name: archive.extractfile(m).read() for m in archive.getmembers() if m.isfile()}


def test_the_sea_board_is_refused_saying_why(tmp_path):
    data = next(v for k, v in _refused().items() if "sea" in k)
    path = tmp_path / "game.soclog"
    path.write_bytes(data)
    for args in (["--from", "jsettlers"], []):
        result = _run("convert", str(path), "--to", "sgn", *args)
        assert result.returncode == 2 and result.stdout == b"", result
        assert b"sea board" in result.stderr and b"Traceback" not in result.stderr
        assert result.stderr.count(b"\n") == 1


UNLIMITED_BANK = {
    "not-held",
    "discard-not-owed",
    "discard-wrong-amount",
    "cannot-afford",
    "discard-missing",
    "bank-empty",
}


def test_a_clients_log_converts_with_what_the_client_did_not_see_hidden(tmp_path):
    """A client's log (type=C) holds another player's card drawn, stolen or discarded as
    `unknown`: those are SGN's hidden values (docs/hidden.md), and the game is judged so."""
    data = next(v for k, v in _refused().items() if "client" in k)
    path = tmp_path / "client.soclog"
    path.write_bytes(data)
    result = _run("convert", str(path), "--to", "sgn")
    assert result.returncode == 0 and said(result.stderr), result.stderr
    messages = [json.loads(line) for line in result.stdout.splitlines()]
    hidden = {m[1] for m in messages if '"?"' in json.dumps(m)}
    assert hidden == {"BD", "ST", "TR"}  # draws, steals and discards of others
    (tmp_path / "client.sgn").write_bytes(result.stdout)
    report = json.loads(_run("validate", str(tmp_path / "client.sgn"), "-o", "json").stdout)
    # (JSettlers' bank is unlimited: what the rulebook's bank cannot pay, it pays)
    assert {d["code"] for d in report["diagnostics"] if d["severity"] == "error"} <= SBP_CODES | UNLIMITED_BANK


def _client_view(lines, seat):
    """A full log (type=F) as the client at `seat` records it: what all were told, what it
    was told alone, and the views of those not told that it was among."""
    kept = [lines[0].replace("type=F", "type=C")]
    for line in lines[1:]:
        entry = next(iter(log.entries([lines[0], line])), None)
        if not isinstance(entry, log.Entry):
            kept.append(line)
            continue
        audience = entry.audience
        if audience == "all" or audience == f"p{seat}":
            kept.append(line)
        elif audience.startswith("!p"):
            excluded = {int(n) for n in re.findall(r"\d", audience[2:])}
            if seat not in excluded:
                kept.append(line)
    return kept


@pytest.mark.parametrize("index", range(3))
def test_a_clients_view_of_a_game_is_the_game_as_that_seat_sees_it(index):
    """The client's view of a recorded game converts to the game as its seat sees it: the
    others' draws and steals hidden (`sgn redact --seat`), and, as JSettlers hides them, the
    others' discards; every view is as valid as the game."""
    from sgn.notation.redact import hide

    name, lines = FOUR[index]
    full = converted(name)
    names = games.seats(lines)
    for seat, player in sorted(names.items()):
        view = games.converted(name, _client_view(lines, seat))
        assert not [d for d in view.found if d.is_error], (seat, view.found[:3])
        expected = [hide(m, player) for m in full.messages]
        assert len(view.messages) == len(expected)
        for got, want in zip(view.messages, expected):
            if want[1] == "TR" and want[0] != player and all(n < 0 for n in want[2][0]["resources"].values()):
                continue  # another's discard: JSettlers tells its count, not its cards
            assert got == want, (seat, got, want)
        errors = lambda ms: {(d.line, d.code) for d in sgn.iter_diagnostics(ms, level="rules") if d.is_error}  # noqa: E731
        assert errors(view.messages) <= errors(full.messages)


def test_the_archives_hold_what_t_data_readme_says():
    text = (games.DATA / "README.md").read_text(encoding="utf-8")
    assert f"{len(FOUR)} four-player" in text and f"{len(SIX)} six-player" in text
    names = tarfile.open(REFUSED).getnames()
    assert any("client" in n for n in names) and any("sea" in n for n in names)


def test_a_servers_log_without_the_clients_messages_converts():
    """`type=C` only says that clients' messages are left out: the server writes such a log
    too (`*savelog* -c`), with every player's private messages, and that one converts."""
    name, lines = FOUR[0]
    edited = [lines[0].replace("type=F", "type=C")] + lines[1:]
    assert log.header(edited)["type"] == "C" and log.refusal(edited) == ""
    assert games.converted(name, edited).messages == converted(name).messages


# -- moves undone ------------------------------------------------------------------------------


def _first_after_the_setup(lines, start):
    """The index of the first line after the first roll that starts with `start`."""
    rolled = next(i for i, line in enumerate(lines) if line.startswith("all:SOCDiceResult:") and "param=-1" not in line)
    return next(i for i, line in enumerate(lines) if i > rolled and line.startswith(start))


def test_an_undone_build_is_taken_out_when_it_is_the_last_move_written():
    name, lines = FOUR[0]
    at = _first_after_the_setup(lines, "all:SOCPutPiece:")
    assert log.fields(lines[at].split(":", 2)[2])["pieceType"] in ("0", "1", "2")  # a road, settlement, city
    before = converted(name)
    built = before.lines.index(at + 1)
    undo = lines[at].replace("SOCPutPiece", "SOCUndoPutPiece")
    after = games.converted(name, lines[: at + 1] + [undo] + lines[at + 1 :])
    assert after.found == []
    assert after.messages == before.messages[:built] + before.messages[built + 1 :]


def test_an_undone_build_that_is_not_the_last_move_stays_with_a_warning():
    name, lines = FOUR[0]
    at = _first_after_the_setup(lines, "all:SOCPutPiece:")
    later = next(i for i, line in enumerate(lines) if i > at and line.startswith("all:SOCDiceResult:"))
    undo = lines[at].replace("SOCPutPiece", "SOCUndoPutPiece")
    after = games.converted(name, lines[: later + 1] + [undo] + lines[later + 1 :])
    assert after.messages == converted(name).messages
    assert [(d.code, d.line) for d in after.found] == [("no-counterpart", later + 2)]
    assert "SGN has no undo" in after.found[0].message


def test_a_bank_trade_undone_by_its_reverse_is_taken_out():
    name, lines = FOUR[0]
    at = _first_after_the_setup(lines, "all:SOCBankTrade:")
    give, get = lines[at].split("|give=")[1].split("|get=")[0], lines[at].split("|get=")[1].split("|pn=")[0]
    reverse = lines[at].replace(f"give={give}|get={get}", f"give={get}|get={give}")
    assert reverse != lines[at]
    before = converted(name)
    traded = before.lines.index(at + 1)
    after = games.converted(name, lines[: at + 1] + [reverse] + lines[at + 1 :])
    assert after.found == []
    assert after.messages == before.messages[:traded] + before.messages[traded + 1 :]
