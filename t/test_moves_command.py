"""`sgn moves`, `sgn perft` and `sgn.moves` (docs/moves.md, docs/commands.md): the moves of
the position after a line, as the replay reads the log; a count of move sequences; and bad
input said in one line, exit 2, never a traceback."""

import json

import pytest

import sgn
from conftest import run_cli
from sgn.game import Game
from sgn.game.perft import divide, perft
from sgn.play import random_game

GAME = random_game(11, 4)


def _text(messages):
    return "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in messages)


def _state(line):
    state = Game()
    for n, message in enumerate(GAME[:line], 1):
        state.apply(message, n)
    return state


@pytest.fixture
def log(write):
    return write(_text(GAME))


def test_sgn_moves_prints_the_moves_after_the_line_one_message_a_line(log):
    done = run_cli("moves", log, "--at", 40)
    assert done.returncode == 0, done.stderr
    printed = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert printed == _state(40).legal_moves() == sgn.moves(GAME, at=40)
    assert printed and all(line.count(b"\n") == 0 for line in done.stdout.splitlines())
    counted = run_cli("moves", log, "--at", 40, "--count")
    assert counted.stdout.decode() == f"{len(printed)}\n"


def test_after_the_winning_move_only_the_winner_shows_victory_point_cards(log):
    assert sgn.moves(GAME) == [[GAME[-1][0], "PD", {"cCode": "VP"}]]  # (this winner holds one)
    assert run_cli("moves", log, "--count").stdout == b"1\n"
    shown = GAME + [[GAME[-1][0], "PD", {"cCode": "VP"}]]
    assert sgn.moves(shown) == []


def test_sgn_moves_reads_standard_input_and_says_the_logs_problems():
    broken = _text(GAME[:30]) + '["1","BC",{"intersection":[[0,0],[1,0],[0,1]]}]\n'
    done = run_cli("moves", "-", stdin=broken.encode())
    assert done.returncode == 1
    assert b"[city-not-on-settlement]" in done.stderr and b"Traceback" not in done.stderr
    assert [json.loads(line) for line in done.stdout.decode().splitlines()] == sgn.moves(broken)


def test_sgn_perft_counts_and_divides(log):
    state = _state(40)
    done = run_cli("perft", log, "--at", 40, "--depth", 2)
    assert done.returncode == 0 and done.stdout == f"{perft(state, 2)}\n".encode()
    split = run_cli("perft", log, "--at", 40, "--depth", 2, "--divide").stdout.decode().splitlines()
    rows = [line.rsplit("\t", 1) for line in split]
    assert rows[-1] == ["total", str(perft(state, 2))]
    assert [(json.loads(m), int(n)) for m, n in rows[:-1]] == list(divide(state, 2))
    assert sum(int(n) for _, n in rows[:-1]) == perft(state, 2)


@pytest.mark.parametrize(
    "args, said",
    [
        (["moves", "missing.sgn"], b"cannot read"),
        (["perft", "missing.sgn", "--depth", "2"], b"cannot read"),
        (["perft", "{log}"], b"--depth"),
        (["perft", "{log}", "--depth", "0"], b"at least 1"),
        (["perft", "{log}", "--depth", "two"], b"not a whole number"),
        (["moves", "{log}", "--at", "0"], b"at least 1"),
        (["moves", "{log}", "--players", "7"], b"invalid choice"),
        (["moves", "{log}", "--hidden-outcomes", "sometimes"], b"invalid choice"),
        (["moves", "{folder}"], b"is a directory"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, said, log, tmp_path):
    done = run_cli(*(a.format(log=log, folder=tmp_path) for a in args), cwd=tmp_path)
    assert done.returncode == 2, done
    assert said in done.stderr and b"Traceback" not in done.stderr and done.stdout == b""


def test_sgn_moves_is_the_games_own_list():
    assert sgn.moves(GAME, at=17) == _state(17).legal_moves() == [["1", "RD", {"result": n}] for n in range(2, 13)]
    assert sgn.moves(_text(GAME), at=17, hidden_outcomes="always")[-1] == ["1", "RD", {"result": "?"}]
    assert sgn.moves(GAME[:7], players=3) == _state(7).legal_moves(players=3)
    assert sgn.moves([]) == []  # no map, no moves


@pytest.mark.parametrize(
    "options, error",
    [
        ({"at": 0}, ValueError),
        ({"at": "3"}, TypeError),
        ({"at": True}, TypeError),
        ({"players": 0}, ValueError),
        ({"players": 2.5}, ValueError),
        ({"hidden_outcomes": "sometimes"}, ValueError),
        ({"profile": "loose"}, ValueError),
    ],
)
def test_sgn_moves_refuses_what_no_log_could_make_right(options, error):
    with pytest.raises(error, match="sgn.moves"):
        sgn.moves(GAME, **options)


def test_sgn_moves_of_a_file_that_cannot_be_read_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="cannot read"):
        sgn.moves(tmp_path / "missing.sgn")
    with pytest.raises(TypeError):
        sgn.moves(42)


def test_the_perft_table_of_the_docs_holds():
    """docs/moves.md's counts from the standard map, 4 players, as another engine would
    reproduce them."""
    import re

    from conftest import CHECKOUT, CORPUS

    text = (CHECKOUT / "docs" / "moves.md").read_text(encoding="utf-8")
    depths = [int(n) for n in re.search(r"^\| depth \|(.*)\|$", text, re.M).group(1).split("|")]
    counts = [int(n.replace(",", "")) for n in re.search(r"^\| perft \|(.*)\|$", text, re.M).group(1).split("|")]
    start = Game()
    start.apply(json.loads((CORPUS / "maps" / "standard.sgn").read_text(encoding="utf-8")), 1)
    assert [perft(start, d, players=4) for d in depths] == counts


def test_a_discard_past_the_bound_is_not_listed_and_says_so(tmp_path):
    """A hand in doubt past the bound of the ways the cards may lie owes a discard whose every
    count is a candidate (hundreds of thousands): not listed, exit 3, in seconds, not a list
    of millions (docs/moves.md, "Bounds")."""
    import json

    from sgn.game.errors import TooManyMoves
    from sgn.game.move_forms import MAX_DISCARD_WAYS
    from sgn.notation.redact import hide
    from sgn.play import game_seed, random_game

    game = random_game(game_seed(2, 0), 4)
    view = [hide(m, None) if m[1] != "RD" else [m[0], "RD", {"result": "?"}] for m in game]
    owes = next(
        i
        for i, m in enumerate(view)
        if i > 100
        and m[1] == "TR"
        and {s["player"] for s in m[2]} == {m[0], "B"}
        and all(n <= 0 for s in m[2] if s["player"] != "B" for n in s["resources"].values())
    )  # (a discard: the position before it owes one, with the hands in doubt past the bound)
    path = tmp_path / "view.sgn"
    path.write_text("".join(json.dumps(m) + "\n" for m in view[:owes]), encoding="utf-8")
    for command in (["moves"], ["perft", "--depth", "1"]):
        result = run_cli(*command, str(path))
        assert result.returncode == 3 and result.stdout == b"", result.stderr[-300:]
        assert b"not " in result.stderr and f"{MAX_DISCARD_WAYS:,}".encode() in result.stderr
    import sgn

    with pytest.raises(TooManyMoves):
        sgn.moves(view[:owes])
