"""Inputs once found to break a promise, run through the command line as a user runs it:
each must give its diagnostic and exit status, never an internal error."""

import json

import pytest

import sgn
from conftest import json_report, run_cli

DEEP_MESSAGE = '["1","MR",' + "[" * 990 + "]" * 990 + "]"

# (file content, options, exit status, the codes of the errors)
CASES = {
    "repeated key, space before the colon": ('["1","RD",{"result":13,"result" :8}]\n', [], 1, ["json-duplicate-key"]),
    "repeated key, the same line again": (
        '["1","RD",{"result":13,"result" :8}]\n' * 2,
        [],
        1,
        ["json-duplicate-key"] * 2,
    ),
    "repeated key hiding an unbalanced trade": (
        '["1","TR",[{"player":"1","resources":{"L":-1,"L" :-2}},{"player":"2","resources":{"L":2}}]]\n',
        [],
        1,
        ["json-duplicate-key"],
    ),
    "lone surrogate escape": ('["1","BD",{"cCode":"\\ud800"}]\n', [], 1, ["schema-enum"]),
    "lone surrogate escape in a key": ('["1","BD",{"cCode":"KN","\\ud800":1}]\n', [], 1, ["schema-unknown-property"]),
    "empty array at syntax level": ("[]\n", ["--level", "syntax"], 0, []),
    "one-item arrays at syntax level": ('["1"]\n[1]\n[[]]\n', ["--level", "syntax"], 0, []),
    "nesting 990 deep in a message": (DEEP_MESSAGE + "\n", [], 1, ["json-too-deep"]),
    "nesting 990 deep at syntax level": (DEEP_MESSAGE + "\n", ["--level", "syntax"], 1, ["json-too-deep"]),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("profile", ["strict", "compat"])
def test_validate(name, profile, write):
    content, options, status, codes = CASES[name]
    result = run_cli("validate", "-o", "json", "--profile", profile, *options, write(content))
    report = json_report(result)
    assert result.returncode == status and b"internal error" not in result.stderr
    assert [d["code"] for d in report["diagnostics"] if d["severity"] == "error"] == codes


@pytest.mark.parametrize(
    "content", ['["1","BD",{"cCode":"\\ud800"}]\n', DEEP_MESSAGE + "\n", '["1","RD",{"result":13,"result" :8}]\n']
)
def test_replay_reports_and_goes_on(content, write):
    result = run_cli("replay", write(content))
    assert result.returncode == 1 and b"internal error" not in result.stderr
    assert result.stdout.startswith(b"after line 1:")


def test_a_lone_surrogate_is_shown_as_its_escape(write):
    result = run_cli("validate", write('["1","BD",{"cCode":"KN","\\ud800":1}]\n'))
    text = result.stdout.decode("utf-8")  # strictly UTF-8: no lone surrogate written
    assert '"\\ud800" is not a property of BD value' in text
    report = json.loads(run_cli("validate", "-o", "json", write('["1","BD",{"cCode":"KN","\\ud800":1}]\n')).stdout)
    assert report["diagnostics"][0]["pointer"] == "/2/\ud800"  # the exact pointer, escaped in JSON


def test_a_refused_message_whose_player_is_a_list_is_no_crash(tmp_path):
    """Found by tox -e fuzz's mutations: the replay's note of a refused message read its
    player as a set member, and a list is not hashable."""
    path = tmp_path / "g.sgn"
    path.write_bytes(b'\xef\xbb\xbf[[[["1"]]],"RD",{"result":6}]\n[1,"RD",{"result":8}]\n' + b"1" * 100 + b"\n")
    result = run_cli("validate", "--level", "rules", path)
    assert result.returncode == 1 and b"internal error" not in result.stderr
    found = list(
        sgn.iter_diagnostics(
            ['["B","DM",{}]', '[[1],"RD",{"result":13}]', '[["1","RD",{"result":8}],[[1],"RD",{}]]'], level="rules"
        )
    )
    assert found and all(d.code for d in found)
