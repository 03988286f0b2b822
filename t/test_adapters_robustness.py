"""The engine converters on bad input: whatever an engine's record holds, converting gives
diagnostics (`engine-input`, `engine-unknown`, or the reader's own), never an exception,
and the command line a clear line and a non-zero exit, never a traceback.

Inputs are real recordings (t/data) broken the ways files break: cut short, a value of
the wrong type, a key missing, an action or message of a kind never seen, lines lost,
repeated or mangled; plus a client's log and the sea board, which are refused. The number
of examples is the Hypothesis profile's (conftest.py)."""

import json
import sys
import tarfile
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from sgn.adapters import catanatron, jsettlers
from sgn.notation.convert import read_input

sys.path.insert(0, str(Path(__file__).resolve().parent))
import catanatron_games  # noqa: E402
import jsettlers_games  # noqa: E402
from conftest import run_cli  # noqa: E402

CATANATRON = (
    catanatron_games.recorded(catanatron_games.RELEASED)[:3] + catanatron_games.recorded(catanatron_games.LATER)[:2]
)
JSETTLERS = jsettlers_games.recorded("4p")[:2] + jsettlers_games.recorded("6p")[:2]
CODES = {"engine-input", "engine-unknown", "no-counterpart", "invalid-json"}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _converted(reader, lines, name="game"):
    """Every item of a converter, checked: a message is an SGN message, a diagnostic is one
    of the converters' codes at a line of the input."""
    out = []
    for where, message, found in reader(lines, name):
        assert message is None or (isinstance(message, list) and len(message) == 3), message
        for d in found:
            assert d.code in CODES, d
            assert 0 <= d.line <= max(len(lines), 1), d
        out.append((message, found))
    return out


# -- catanatron ----------------------------------------------------------------------------


def _paths(value, prefix=()):
    """Every place in a JSON value (a tuple of keys and indexes), but not inside the long
    lists of places a game repeats (a few of each is enough)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in list(value.items())[:6]:
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value[:3]):
            yield from _paths(item, prefix + (i,))


def _set(value, path, new):
    if not path:
        return new
    copy = list(value) if isinstance(value, list) else dict(value)
    copy[path[0]] = _set(copy[path[0]], path[1:], new)
    return copy


def _delete(value, path):
    if len(path) == 1:
        copy = list(value) if isinstance(value, list) else dict(value)
        del copy[path[0]]
        return copy
    return _set(value, path[:1], _delete(value[path[0]], path[1:]))


@st.composite
def broken_games(draw):
    _, data = draw(st.sampled_from(CATANATRON))
    if draw(st.booleans()):  # an action of a kind, colour or value never seen
        key = "action_records" if "action_records" in data else "actions"
        action = [
            draw(st.sampled_from(data["colors"] + ["PURPLE", 3])),
            draw(
                st.sampled_from(
                    ["FLY", "ROLL", "MOVE_ROBBER", "BUILD_ROAD", "DISCARD_RESOURCE", "CONFIRM_TRADE", "", None]
                )
            ),
            draw(JSON_VALUES),
        ]
        at = draw(st.integers(0, len(data[key])))
        record = [action, draw(JSON_VALUES)] if key == "action_records" else action
        data = dict(data, **{key: data[key][:at] + [record] + data[key][at:]})
    for _ in range(draw(st.integers(0, 3))):  # a value replaced, or a key or item deleted
        path = draw(st.sampled_from(list(_paths(data))))
        if draw(st.booleans()) and path:
            data = _delete(data, path)
        else:
            data = _set(data, path, draw(JSON_VALUES))
    return data


@given(broken_games())
def test_a_broken_catanatron_game_gives_diagnostics_never_an_exception(data):
    _converted(catanatron.read, [json.dumps(data)])


@given(st.integers(0, 10**6), st.sampled_from(range(len(CATANATRON))))
def test_a_catanatron_game_cut_short_is_invalid_json_at_its_end(cut, which):
    text = json.dumps(CATANATRON[which][1])
    cut = cut % len(text)
    items = _converted(catanatron.read, [text[:cut]])
    codes = [d.code for _, found in items for d in found]
    assert codes in (["invalid-json"], ["engine-input"]), codes  # (nothing at all is engine-input)


def test_an_unknown_action_is_a_warning_and_the_rest_is_converted():
    _, data = CATANATRON[0]
    data = dict(data, actions=data["actions"][:20] + [["RED", "BUILD_BRIDGE", 12]] + data["actions"][20:])
    items = _converted(catanatron.read, [json.dumps(data)])
    found = [d for _, seen in items for d in seen]
    assert [(d.code, d.severity, d.pointer) for d in found] == [("engine-unknown", "warning", "/actions/20")]
    assert "BUILD_BRIDGE" in found[0].message
    written = [m for m, _ in items if m is not None]
    assert written[0][1] == "HD" and len(written) - 1 == len(catanatron_games.messages(CATANATRON[0][1]))


@pytest.mark.parametrize(
    "text, says",
    [
        ("[]", "no `tiles`"),
        ('{"tiles": 3}', "`tiles` is 3, not a list"),
        ('"a game"', "no `tiles`"),
        ("{", "not JSON"),
    ],
)
def test_json_that_is_no_catanatron_game_says_what_is_wrong(text, says):
    found = [d for _, seen in _converted(catanatron.read, [text]) for d in seen]
    assert len(found) == 1 and found[0].is_error and says in found[0].message, found


# -- JSettlers -----------------------------------------------------------------------------

JSETTLERS_LINE = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda audience, kind, fields: f"{audience}:SOC{kind}:game=g|{fields}",
        st.sampled_from(["all", "p0", "p9", "!p1", "ob", "f2"]),
        st.sampled_from(
            [
                "PutPiece",
                "DiceResult",
                "MoveRobber",
                "RobberyResult",
                "DevCardAction",
                "Discard",
                "BankTrade",
                "AcceptOffer",
                "BoardLayout",
                "BoardLayout2",
                "PickResources",
                "SimpleAction",
                "UndoPutPiece",
                "MovePiece",
                "Turn",
                "Teleport",
                "CancelBuildRequest",
            ]
        ),
        st.text(
            st.sampled_from("=|,{}- 0123456789abcdefxplayerNumcodtTyperesclayorewheatsheepwoodunknown"), max_size=60
        ),
    ),
)


BAD_VALUES = st.one_of(
    st.sampled_from(
        [
            "",
            "-1",
            "6",
            "9",
            "255",
            "999",
            "0x",
            "zz",
            "{ 1 2 3 }",
            "{ }",
            "-0x1f",
            "true",
            "clay=9",
            "1,2",
            "100",
            "1000",
            "0x77",
            "77",
        ]
    ),
    st.text(max_size=6),
)


@st.composite
def broken_logs(draw):
    _, lines = draw(st.sampled_from(JSETTLERS))
    lines = list(lines)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(1, len(lines) - 1))
        edit = draw(st.sampled_from(("delete", "repeat", "insert", "mangle", "cut", "swap", "field", "field")))
        if edit == "field" and "|" in lines[at]:  # one field's value replaced by a bad one
            tokens = lines[at].split("|")
            i = draw(st.integers(1, len(tokens) - 1))
            key = tokens[i].split("=", 1)[0]
            tokens[i] = key + "=" + draw(BAD_VALUES)
            lines[at] = "|".join(tokens)
        elif edit == "delete":
            del lines[at]
        elif edit == "repeat":
            lines.insert(at, lines[at])
        elif edit == "insert":
            lines.insert(at, draw(JSETTLERS_LINE))
        elif edit == "mangle" and lines[at]:
            i = draw(st.integers(0, len(lines[at]) - 1))
            lines[at] = lines[at][:i] + draw(st.text(max_size=3)) + lines[at][i + 1 :]
        elif edit == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], lines[at]
        else:
            lines = lines[:at]
            break
    return lines


@given(broken_logs())
def test_a_broken_jsettlers_log_gives_diagnostics_never_an_exception(lines):
    _converted(jsettlers.read, lines)


def test_a_log_with_an_unknown_message_warns_once_and_converts_the_rest():
    name, lines = JSETTLERS[0]
    at = next(i for i, line in enumerate(lines) if "SOCDiceResult:" in line and line.startswith("all:"))
    edited = lines[:at] + ["all:SOCTeleport:game=g|playerNumber=1|coord=77"] * 2 + lines[at:]
    items = _converted(jsettlers.read, edited)
    found = [d for _, seen in items for d in seen]
    assert [(d.code, d.line) for d in found] == [("engine-unknown", at + 1)]
    assert "SOCTeleport" in found[0].message and "1 more" in found[0].message
    messages = [m for m, _ in items if m is not None]
    assert messages[0][1] == "HD" and messages[1:] == jsettlers_games.converted(name, lines).messages


def test_a_robbery_whose_resource_is_unknown_is_an_error_at_the_move():
    name, lines = JSETTLERS[0]
    known = [i for i, line in enumerate(lines) if line.startswith("p") and "SOCRobberyResult:" in line]
    edited = [line for i, line in enumerate(lines) if i not in known]
    items = _converted(jsettlers.read, edited)
    errors = [d for _, seen in items for d in seen if d.is_error]
    assert errors and all(d.code == "engine-input" and "stolen" in d.message for d in errors)


@pytest.mark.parametrize(
    "first, says",
    [
        ("", "not a JSettlers game event log"),
        ("SOC game event log: type=F, version=2700", "no board"),
        ('["1","RD",{"result":8}]', "not a JSettlers game event log"),
    ],
)
def test_what_is_no_game_log_says_so(first, says):
    found = [d for _, seen in _converted(jsettlers.read, [first]) for d in seen]
    assert len(found) == 1 and found[0].is_error and says in found[0].message, found


# -- the command line, end to end ------------------------------------------------------------


def _run(*args):
    """`sgn ARGS` (conftest.run_cli: in this process, its exit status and streams those of a
    process of its own, as t/test_in_process.py checks; a traceback is still written out)."""
    return run_cli(*args)


@pytest.mark.parametrize(
    "engine, content",
    [
        ("catanatron", b'{"tiles": [], "nodes": {}, "actions": [["RED", "ROLL", [3, 4]]], "colors": ["RED"]'),
        ("catanatron", b'{"tiles": "many"}'),
        ("catanatron", b"\xff\xfe not even text"),
        ("catanatron", b""),
        ("jsettlers", b"SOC game event log: type=F, version=2700\nall:SOCDiceResult:game=g|param=x\n"),
        ("jsettlers", b"hello\n"),
        ("jsettlers", b""),
    ],
)
def test_the_command_line_says_what_is_wrong_and_exits_1(tmp_path, engine, content):
    path = tmp_path / "game.in"
    path.write_bytes(content)
    result = _run("convert", "--from", engine, str(path), "--to", "sgn")
    assert result.returncode == 1, result
    assert b"Traceback" not in result.stderr and b"internal error" not in result.stderr
    assert str(path).encode() in result.stderr


def test_the_command_line_refuses_what_cannot_be_converted_with_exit_2(tmp_path):
    with tarfile.open(jsettlers_games.DATA / "jsettlers-refused.tar.xz") as archive:
        files = {m.name: archive.extractfile(m).read() for m in archive.getmembers() if m.isfile()}
    for name, data in files.items():
        if "client" in name:
            continue  # (a client's log converts, with hidden values: t/test_adapters_jsettlers.py)
        path = tmp_path / name
        path.write_bytes(data)
        result = _run("convert", "--from", "jsettlers", str(path), "--to", "sgn")
        assert result.returncode == 2 and result.stdout == b"" and b"Traceback" not in result.stderr, name


def test_a_missing_file_is_exit_2(tmp_path):
    result = _run("convert", "--from", "catanatron", str(tmp_path / "nothing.json"), "--to", "sgn")
    assert result.returncode == 2 and b"Traceback" not in result.stderr


def test_reading_an_engine_record_allows_long_lines(tmp_path):
    """catanatron writes a game on one line, which may pass the log reader's 256 KiB."""
    _, data = CATANATRON[0]
    data = dict(data, padding="x" * 300_000)
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert read_input(str(path)).found  # too long for a log line
    result = _run("convert", "--from", "catanatron", str(path), "--to", "sgn")
    assert result.returncode == 0, result.stderr
