"""`sgn parse` and `sgn convert` on what a user gives them: the notation detected as
`convert.detect` says (SGN refused by parse in one line), what has no counterpart left
out with a warning (exit 0), SGN to SGN normalised to its canonical form, and HAN that
needs an actor refused without --player."""

import io
import json
import random

import pytest
from hypothesis import given, strategies as st

from conftest import CORPUS, canonical as same_meaning, corpus_cases, run_cli
from sgn import corpus, strategies as sgs
from sgn.layers.stages import validate_message
from sgn.notation import convert
from sgn.notation.canonical import canonical, canonical_line

GAME = CORPUS / "games" / "game.sgn"
CASES = corpus_cases()


def stderr_lines(result):
    return result.stderr.decode().splitlines()


# -- detection -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first, notation",
    [
        ('["1","RD",{"result":8}]', "sgn"),
        ('["1","RD"', "sgn"),
        ("{", "sgn"),
        ("[]", "sgn"),
        ('"1 RD 8"', "sgn"),
        ("5", "sgn"),
        ("[3SSSS/2SOWLS/1SGBWBS]", "hsn"),
        ("[SDS] [] [] b1", "hsn"),
        ("[1]", "sgn"),
        ("3SSSS/2SOWLS/1SGBWBS/SGLDLOS/SLOGWS1/SBGWS2/SSSS3", "hsn-002"),
        ("SDS 1 O-b1ne b1 | | . .", "hsn-002"),
        ("p1: 8.", "hsgn"),
        ("4.p2: 6.8.", "hsgn"),
        ("p1: 8", "hsgn"),
        ("R(2+3)", "han"),
        ("E", "han"),
        ("S?", "han"),
        ("Bv", "han"),
        ("2D(O2)", "han"),
        ("", "han"),
    ],
)
def test_detect_reads_the_first_line(first, notation):
    assert convert.detect(["", "  ", first, "R(2+3)"]) == notation


def test_every_valid_corpus_input_is_detected_as_its_notation():
    kinds = {"message": "sgn", "log": "sgn", **{kind: kind for kind in corpus.NOTATIONS}}
    checked = 0
    for case in CASES:
        if case["valid"] and case["kind"] in kinds:
            text = convert.read_input(io.BytesIO(corpus.case_bytes(case)), case["id"])
            assert convert.detect(text.lines) == kinds[case["kind"]], case["id"]
            checked += 1
    assert checked > 200


# -- sgn parse -----------------------------------------------------------------------------------


def test_parse_refuses_an_sgn_log_in_one_line():
    result = run_cli("parse", GAME)
    assert result.returncode == 2 and result.stdout == b""
    [line] = stderr_lines(result)
    assert line.startswith(f"sgn parse: {GAME} holds SGN messages") and "`sgn validate`" in line
    assert "han-syntax" not in line


def test_parse_detects_each_notation_without_being_told():
    assert (
        run_cli("parse", stdin=b"R(2+3)\nM(d4)\n").stdout
        == b"1: R(2+3) -- the player rolls 2 and 3: 5\n2: M(d4) -- the robber moves to tile [0,0]\n"
    )
    assert run_cli("parse", stdin=b"p3: 6, T2(LO, W2).\n").stdout.startswith(b"1: p3: 6, ")
    for version in ("000", "002"):
        state = run_cli("replay", CORPUS / "games" / "random-4p.sgn", "-o", "hsn", "--hsn-version", version).stdout
        told = run_cli("parse", "--notation", "hsn" if version == "000" else "hsn-002", stdin=state)
        detected = run_cli("parse", stdin=state)
        assert detected.returncode == 0 and detected.stdout == told.stdout != b""


def test_notation_still_forces_one():
    forced = run_cli("parse", "--notation", "han", GAME)
    assert forced.returncode == 1 and b"[han-syntax]" in forced.stderr
    hsgn = run_cli("parse", "--notation", "hsgn", stdin=b"R(2+3)\n")
    assert hsgn.returncode == 1 and b"[hsgn-syntax]" in hsgn.stderr


# -- sgn convert: what has no counterpart ----------------------------------------------------------


@pytest.mark.parametrize(
    "target, left_out", [("hsgn", "HSGN has no notation for the map"), ("han", "DM has no HAN form")]
)
def test_what_has_no_counterpart_is_left_out_with_a_warning(target, left_out):
    result = run_cli("convert", GAME, "--to", target)
    assert result.returncode == 0 and result.stdout
    lines = stderr_lines(result)
    assert f"{GAME}:1: warning: {left_out} [no-counterpart]" in lines
    warned = sum("[no-counterpart]" in line for line in lines)
    assert lines[-1] == (
        f"sgn convert: left out {warned} message{'s' * (warned > 1)} with no "
        f"{target.upper()} form (the warnings above); the rest is converted"
    )
    assert all(": warning: " in line for line in lines[:-1])


def test_an_error_in_the_input_is_still_exit_1():
    result = run_cli("convert", "--to", "han", stdin=GAME.read_bytes() + b'["1","RD",{"result":13}]\n')
    assert result.returncode == 1 and b":26: 13 is greater than the maximum 12 [schema-maximum]" in result.stderr


def test_every_game_converts_to_hsgn_with_warnings_only():
    for path in sorted((CORPUS / "games").glob("*.sgn")):
        if path.stem.startswith("faulty"):
            continue
        result = run_cli("convert", path, "--to", "hsgn")
        assert result.returncode == 0, (path.name, result.stderr.decode())


# -- sgn convert: SGN to SGN -----------------------------------------------------------------------


def test_sgn_to_sgn_writes_the_canonical_form():
    given_lines = (
        b'["1", "BS", {"intersection": [[0,0],[1,-1],[0,-1]]}]\n'
        b'["1","BR",{"path":[[[0,0],[-1,0],[0,-1]],[[1,-1],[0,-1],[0,0]]]}]\n'
        b'["1","PD",{"rCodes":["O","B"],"cCode":"YP"}]\n'
        b'["2","TR",[{"resources":{"O":-1,"B":1},"player":"2"},{"player":"3","resources":{"O":1,"B":-1}}]]\n'
    )
    result = run_cli("convert", "--to", "sgn", stdin=given_lines)
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.decode().splitlines() == [
        '["1","BS",{"intersection":[[0,-1],[1,-1],[0,0]]}]',
        '["1","BR",{"path":[[[0,-1],[1,-1],[0,0]],[[0,-1],[0,0],[-1,0]]]}]',
        '["1","PD",{"cCode":"YP","rCodes":["O","B"]}]',
        '["2","TR",[{"player":"2","resources":{"B":1,"O":-1}},{"player":"3","resources":{"B":-1,"O":1}}]]',
    ]
    again = run_cli("convert", "--to", "sgn", "--from", "sgn", stdin=result.stdout)
    assert again.stdout == result.stdout  # canonical is a fixed point


def test_sgn_to_sgn_of_a_bundled_game_is_the_game_and_errors_stay_errors():
    result = run_cli("convert", "--to", "sgn", GAME)
    assert result.returncode == 0
    written = [json.loads(line) for line in result.stdout.decode().splitlines()]
    original = [json.loads(line) for line in GAME.read_text().splitlines()]
    assert [same_meaning(m) for m in written[1:]] == [same_meaning(m) for m in original[1:]]
    assert written[0] != original[0] and written[0] == canonical(original[0])  # the map's harbor paths
    assert (
        run_cli("replay", "-", "-o", "json", stdin=result.stdout).stdout == run_cli("replay", GAME, "-o", "json").stdout
    )  # the same game, to its end
    bad = run_cli("convert", "--to", "sgn", stdin=b'["1","RD",{"result":13}]\n')
    assert bad.returncode == 1 and bad.stdout == b"" and b"[schema-maximum]" in bad.stderr


def _shuffled(message, rng):
    """The message as another writer might list it: tiles and path ends in any order, keys
    of every object in any order."""

    def walk(value, key=None):
        if key == "intersection":
            return rng.sample(value, 3)
        if key == "path":
            return [rng.sample(end, 3) for end in rng.sample(value, 2)]
        if isinstance(value, dict):
            items = list(value.items())
            rng.shuffle(items)
            return {k: walk(v, k) for k, v in items}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    return [message[0], message[1], walk(message[2])]


@given(message=sgs.messages(), seed=st.integers(0, 2**32))
def test_canonical_is_the_same_whatever_the_order_sgn_leaves_free(message, seed):
    other = _shuffled(message, random.Random(seed))
    assert canonical(other) == canonical(message)
    assert canonical(canonical(message)) == canonical(message)
    assert same_meaning(canonical(message)) == same_meaning(message)
    assert not [d for d in validate_message(canonical(message), level="semantic") if d.is_error]
    assert " " not in canonical_line(message)


# -- sgn convert: HAN needs its actor --------------------------------------------------------------


@pytest.mark.parametrize("target", ["sgn", "hsgn"])
def test_han_without_player_is_refused_where_an_action_needs_one(target):
    result = run_cli("convert", "--to", target, stdin=b"2D(O2)\nR(2+3)\n")
    assert result.returncode == 2 and result.stdout == b""
    assert stderr_lines(result) == [
        "sgn convert: <stdin>:2: R(2+3) needs the acting player, which HAN does not name: give it with --player 1..6"
    ]
    told = run_cli("convert", "--to", target, "--player", "3", stdin=b"2D(O2)\nR(2+3)\n")
    assert told.returncode == 0 and told.stdout


def test_han_that_names_every_actor_needs_no_player():
    result = run_cli("convert", "--to", "sgn", stdin=b"2D(O2)\n")  # a discard: HAN names who discards
    assert result.returncode == 0 and json.loads(result.stdout.splitlines()[0])[0] == "2"
    ended = run_cli("convert", "--to", "sgn", stdin=b"2D(O2)\nE\n")  # an end of turn needs the acting player
    assert ended.returncode == 2 and b"E needs the acting player" in ended.stderr
    ended = run_cli("convert", "--to", "sgn", "--player", "3", stdin=b"E\n")
    assert ended.returncode == 0 and json.loads(ended.stdout) == ["3", "ET", {}]
    assert run_cli("convert", "--to", "sgn", "--player", "7", stdin=b"R(2+3)\n").returncode == 2


def test_an_hsn_state_has_no_conversion():
    state = run_cli("replay", GAME, "-o", "hsn").stdout
    result = run_cli("convert", "--to", "sgn", stdin=state)
    assert result.returncode == 2 and len(stderr_lines(result)) == 1 and b"holds HSN" in result.stderr
    assert run_cli("convert", "--to", "han", stdin=b"R(2+3)\n").returncode == 2  # already HAN
