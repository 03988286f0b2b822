"""Words a person reads at once: plurals, JSON errors in SGN terms, and the text output's
location, hint and limit."""

import json
import re

import pytest

import sgn
from conftest import run_cli
from sgn.game import Game, placing
from sgn.layers.jsonline import parse_line
from sgn.play import random_game
from sgn.words import count


def test_counts_have_the_right_number():
    assert [count(n, w) for n, w in ((1, "city"), (4, "city"), (1, "game"), (0, "error"))] == [
        "1 city",
        "4 cities",
        "1 game",
        "0 errors",
    ]


def test_no_message_of_the_replay_says_citys_or_1_settlements():
    game = Game()
    for n, message in enumerate(random_game(1, 4), 1):
        game.apply(message, n)
    p = game.players["1"]
    p.cities |= {object() for _ in range(4)}  # all four cities placed
    found = placing.pieces_left(game, p, "city", len(p.cities), "/2")
    assert found and "all 4 cities" in found[0].message and "citys" not in found[0].message
    early = Game()
    setup = random_game(1, 4)[:3]
    for n, message in enumerate(setup, 1):
        early.apply(message, n)
    problems = early.apply(["1", "RD", {"result": 8}], 4)
    assert any("after 1 settlement;" in p.message for p in problems)


@pytest.mark.parametrize(
    "line, words",
    [
        ('["1","RD",{"result":8}] ["2","RD",{"result":6}]', "two JSON values on one line"),
        ('["1","RD",{"result":8}', "the line ends before the message is closed"),
        ('["1","RD",{"result":8', "the line ends before the message is closed"),
        ('["1","R', "the line ends inside a string"),
        ('["1" "RD"]', "a ',' is missing before '\"'"),
        ("['1','RD']", "double quotes, not single quotes"),
        ('["1","RD",{"result":8,}]', "no trailing comma"),
        ('["1","RD",{"result":08}]', "may not start with 0"),
    ],
)
def test_json_errors_are_told_in_sgn_terms(line, words):
    found = parse_line(line)
    assert found.code == "invalid-json" and words in found.message
    assert "Expecting" not in found.message and "Extra data" not in found.message


def test_text_output_puts_the_column_in_the_location_and_the_hint_below(tmp_path):
    path = tmp_path / "g.sgn"
    path.write_text(
        '["1","RD",{"result":8}\n["1","TR",[{"player":"1","resources":{"B":-1}},'
        '{"player":"2","resources":{"B":1}}]]\n["1","RD",{"result":8},1]\n'
    )
    result = run_cli("validate", "--level", "semantic", path)
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith(f"{path}:1:23: invalid JSON:")
    hinted = [i for i, text in enumerate(lines) if text.startswith("    hint: ")]
    gutter = re.compile(r"^ *\d* \|")  # the line of the log under its diagnostic, and its carets
    assert hinted and all(
        lines[i - 4].startswith(f"{path}:") and all(gutter.match(text) for text in lines[i - 3 : i]) for i in hinted
    )
    concise = run_cli("validate", "-o", "concise", "--level", "semantic", path).stdout.decode().splitlines()
    assert not any(text.startswith("    hint: ") for text in concise)  # (one line a diagnostic, as ruff's)


def test_max_errors_stops_a_file_and_says_so(tmp_path):
    path = tmp_path / "bad.sgn"
    path.write_text('["1","RD",{"result":13}]\n' * 10)
    other = tmp_path / "other.sgn"
    other.write_text('["1","RD",{"result":13}]\n' * 2)
    result = run_cli("validate", "--max-errors", "3", "-o", "json", path, other)
    report = json.loads(result.stdout)
    codes = [(d["file"], d["code"]) for d in report["diagnostics"]]
    assert codes.count((str(path), "schema-maximum")) == 3
    assert (str(path), "max-errors-reached") in codes
    assert codes.count((str(other), "schema-maximum")) == 2  # the next file is checked whole
    assert result.returncode == 1


def test_max_errors_with_jobs_gives_the_same_report(tmp_path):
    paths = []
    for i in range(4):
        path = tmp_path / f"f{i}.sgn"
        path.write_text('["1","RD",{"result":13}]\n' * (5 + i))
        paths.append(path)
    one = run_cli("validate", "--max-errors", "2", *paths).stdout
    two = run_cli("validate", "--max-errors", "2", "-j", "2", *paths).stdout
    assert one == two and one.count(b"max-errors-reached") == 4


def test_the_api_says_nothing_of_max_errors():
    lines = ['["1","RD",{"result":13}]'] * 5
    assert len(list(sgn.iter_diagnostics(lines))) == 5


def _diagnostics(text):
    return [(d.line, d.code, d.severity) for d in sgn.iter_diagnostics(text.splitlines(keepends=True))]


def test_a_pretty_printed_log_is_one_error_not_one_per_line():
    game = random_game(3, 4)
    pretty = "".join(json.dumps(m, indent=2) + "\n" for m in game)
    found = _diagnostics(pretty)
    errors = [(line, code) for line, code, severity in found if severity == "error"]
    assert errors == [(1, "json-multiline")]
    infos = [code for _, code, severity in found if severity == "info"]
    assert infos == ["json-multiline-rest", "json-multiline-rest"]  # the first value, then all the others
    assert len(pretty.splitlines()) > 10 * len(game)


def test_a_whole_log_as_one_array_is_one_error_whether_on_one_line_or_many():
    game = random_game(3, 4)
    assert [c for _, c, s in _diagnostics(json.dumps(game) + "\n") if s == "error"] == ["log-as-array"]
    spread = "[\n" + ",\n".join(json.dumps(m) for m in game) + "\n]\n"
    errors = [(line, c) for line, c, s in _diagnostics(spread) if s == "error"]
    assert errors == [(1, "json-multiline")]  # the last message stands alone: it is checked, and legal


@pytest.mark.parametrize(
    "layout, hint",
    [("array", "jq -c '.[]'"), ("array-compact-start", "jq -c '.[]'"), ("each", "jq -c ."), ("spread", "jq -c '.[]'")],
)
def test_a_multi_line_log_gets_the_one_hint_that_works(layout, hint):
    game = random_game(3, 4)
    text = {
        "array": json.dumps(game, indent=2) + "\n",
        "array-compact-start": json.dumps(game, indent=2).replace("[\n  [", "[[", 1) + "\n",
        "each": "".join(json.dumps(m, indent=2) + "\n" for m in game),
        "spread": "[\n" + ",\n".join(json.dumps(m) for m in game) + "\n]\n",
    }[layout]
    errors = [d for d in sgn.iter_diagnostics(text.encode().splitlines(keepends=True)) if d.severity == "error"]
    assert [(d.line, d.code) for d in errors] == [(1, "json-multiline")]
    assert hint in errors[0].hint and "jq -c" not in errors[0].hint.replace(hint, "")
    # what the hint's command writes is a valid log: no second error with another hint
    values = json.loads(text) if hint.endswith("'.[]'") else [json.loads(m) for m in _values(text)]
    assert sgn.check("".join(json.dumps(m, separators=(",", ":")) + "\n" for m in values).encode()).valid


def _values(text):
    decoder, at, found = json.JSONDecoder(), 0, []
    while at < len(text.rstrip()):
        value, end = decoder.raw_decode(text, at)
        found.append(json.dumps(value))
        at = end + 1
    return found


def test_a_stray_bracket_hides_no_later_fault():
    game = random_game(3, 4)
    lines = ["[\n"] + [json.dumps(m) + "\n" for m in game]
    lines[40] = '["1","RD",{"result":13}]\n'
    found = [(line, code) for line, code, severity in _diagnostics("".join(lines)) if severity == "error"]
    assert found[0] == (1, "json-multiline") and (41, "schema-maximum") in found


def test_a_line_that_merely_ends_unclosed_is_invalid_json_and_the_next_lines_are_checked():
    text = '["1","RD",{"result":8}\n["1","RD",{"result":13}]\n'
    assert [(line, code) for line, code, _ in _diagnostics(text)] == [(1, "invalid-json"), (2, "schema-maximum")]
