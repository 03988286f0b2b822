"""The converters' promises (docs/promises.md): whatever an engine's record holds, converting
it gives diagnostics or a one-line refusal, never an exception; in time and memory bounded
by the input, with output bounded by it too; and nothing the engine records is dropped
without a word (docs/engines.md).

The property tests build records from their structure (t/engine_records.py) and run both
APIs on each: the Python one (`sgn.adapters.catanatron.convert` and `read`,
`sgn.adapters.jsettlers.read`) and the command line (`sgn convert`, in this process, with
SGN_DEBUG set so that an internal error raises). The tests after them are the faults
found so far, each at the line it is at."""

import contextlib
import io
import json
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, strategies as st

from sgn.adapters import catanatron, jsettlers
from sgn.cli import main
from sgn.diagnostic import make
from sgn.notation.reading import in_line_order

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine_records  # noqa: E402
import jsettlers_games  # noqa: E402

CODES = {"engine-input", "engine-unknown", "no-counterpart", "invalid-json"}
REAL_LAYOUTS = [
    next(line for line in lines if line.startswith("all:SOCBoardLayout"))
    for _, lines in jsettlers_games.recorded("4p")[:1] + jsettlers_games.recorded("6p")[:1]
]
# Bounds, each far above what a conversion of these small records needs (milliseconds, a few
# megabytes, the input's size in output), and far below what an expanded count takes.
SECONDS = 30
MEMORY = 64 * 2**20
OUTPUT_PER_BYTE, OUTPUT_BASE = 20, 64 * 1024
HEADER = "SOC game event log: type=F, version=2700"


def _bounded(run, size: int):
    """run(), which must end within the time and memory bounds; what it returns."""
    tracemalloc.start()
    start = time.process_time()
    try:
        result = run()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert time.process_time() - start < SECONDS
    assert peak < MEMORY + 100 * size, peak
    return result


def _api(reader, size: int):
    """The items of a converter, checked: each message is one SGN can write (within the
    output bound), each diagnostic one of the converters' codes."""
    items = _bounded(lambda: list(reader()), size)
    written = 0
    for _, message, found in items:
        if message is not None:
            assert isinstance(message, list) and len(message) == 3, message
            written += len(json.dumps(message))
        for d in found:
            assert d.code in CODES, d
            written += len(d.message)
    assert written < OUTPUT_BASE + OUTPUT_PER_BYTE * size, written
    return items


def _cli(data: bytes, *args: str):
    """`sgn convert FILE --to ...` run in this process: (exit status, output, errors)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.in"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with mock.patch.dict(os.environ, {"SGN_DEBUG": "1"}), contextlib.redirect_stderr(err):
            status = _bounded(lambda: main(["convert", str(path), *args], out=out), len(data))
    return status, out.getvalue(), err.getvalue()


def _cli_checked(data: bytes, *args: str):
    status, out, err = _cli(data, *args)
    assert status in (0, 1, 2), (status, err)
    assert "internal error" not in err and "Traceback" not in err, err
    if status == 2:
        assert out == "" and err.count("\n") == 1 and err.startswith("sgn convert: "), err
    assert len(out) + len(err) < OUTPUT_BASE + OUTPUT_PER_BYTE * len(data)
    return status, out, err


TARGETS = st.sampled_from([["--to", "sgn"], ["--to", "han"], ["--to", "hsgn"]])


@given(engine_records.catanatron_records(), TARGETS, st.booleans())
def test_any_catanatron_record_gives_diagnostics_in_bounded_time_memory_and_output(record, target, named):
    size = len(record.text)
    _api(lambda: catanatron.convert(record.data, "game.json"), size)
    _api(lambda: catanatron.read(record.text.split("\n"), "game.json"), size)
    _cli_checked(record.text.encode(), *target, *(["--from", "catanatron"] if named else []))


@given(engine_records.jsettlers_records(REAL_LAYOUTS), TARGETS, st.booleans())
def test_any_jsettlers_log_gives_diagnostics_in_bounded_time_memory_and_output(text, target, named):
    _api(lambda: jsettlers.read(text.split("\n"), "game.soclog"), len(text))
    _cli_checked(text.encode(), *target, *(["--from", "jsettlers"] if named else []))


# -- the faults found so far: each is engine-input at its line, exit 1 ----------------------


def _errors(items):
    return [(d.code, d.line) for _, _, found in items for d in found if d.is_error]


def _log(*lines: str) -> str:
    return "\n".join((HEADER,) + lines) + "\n"


WATER = "all:SOCBoardLayout:game=g|hexLayout={ " + "6 " * 37 + "}|numberLayout={ " + "-1 " * 37 + "}"
WATER_6P = "all:SOCBoardLayout2:game=g|bef=2|HL={ " + "6 " * 37 + "}|NL={ " + "-1 " * 37 + "}|PL={ 0 }|RH=-1"
BIG = "1" * 5000
DISCARD = "p0:SOCDiscard:game=g|playerNum=0|resources=clay={}|ore=0|sheep=0|wheat=0|wood=0|unknown=0"


@pytest.mark.parametrize(
    "line",
    [
        "all:SOCBoardLayout:game=g|hexLayout={ - }|numberLayout={ 1 }",
        "all:SOCNewGameWithOptions:game=g|param1=-1|param2=VP=t\u00b2",
        "all:SOCBoardLayout2:game=g|bef=2|HL={ 1 }|NL={ 1 }|RH=\u00b2",
        "all:SOCBoardLayout2:game=g|bef=2|HL={ 1 }|NL={ 1 }|RH=" + BIG,
        "all:SOCNewGameWithOptions:game=g|param1=-1|param2=VP=t" + BIG,
        DISCARD.format(BIG),
        "all:SOCBoardLayout:game=g|hexLayout={ " + BIG + " }|numberLayout={ 1 }",
        "all:SOCBankTrade:game=g|give=clay=" + BIG + "|ore=0|sheep=0|wheat=0|wood=0|unknown=0|"
        "get=clay=0|ore=1|sheep=0|wheat=0|wood=0|unknown=0|pn=0",
        WATER,
        WATER_6P,
    ],
    ids=[
        "bare-minus",
        "VP-superscript",
        "RH-superscript",
        "RH-5000-digits",
        "VP-5000-digits",
        "discard-5000-digits",
        "layout-5000-digits",
        "give-5000-digits",
        "water-4p",
        "water-6p",
    ],
)
def test_a_jsettlers_value_the_engine_never_writes_is_engine_input_at_its_line(line):
    text = _log(line, "all:SOCPutPiece:game=g|playerNumber=0|pieceType=1|coord=67")
    errors = _errors(jsettlers.read(text.split("\n"), "game.soclog"))
    assert errors and errors[0] == ("engine-input", 1 if "VP=" in line else 2), errors
    status, _, err = _cli_checked(text.encode(), "--to", "sgn")
    assert status == 1 and "[engine-input]" in err


@pytest.mark.parametrize("key", ["\u00b2", "\u0663", "-2", "1" * 12])
def test_a_catanatron_node_id_that_is_no_number_is_engine_input(key):
    data = {
        "tiles": [{"coordinate": [0, 0, 0], "tile": {"type": "DESERT"}}],
        "nodes": {key: {"tile_coordinate": [0, 0, 0], "direction": "NORTH"}},
        "colors": ["RED"],
        "actions": [],
    }
    found = [d for _, _, seen in catanatron.convert(data) for d in seen]
    assert [(d.code, d.pointer) for d in found] == [("engine-input", f"/nodes/{key}")]
    status, _, err = _cli_checked(json.dumps(data).encode(), "--to", "sgn")
    assert status == 1 and "no number" in err


def test_a_catanatron_number_too_long_for_python_is_engine_input_where_it_stands():
    text = '{\n  "tiles": [],\n  "nodes": {"1": ' + BIG + "}\n}\n"
    status, _, err = _cli_checked(text.encode(), "--from", "catanatron", "--to", "sgn")
    assert status == 1 and "game.in:3:18: a number of 5000 characters" in err, err[:200]
    assert "set_int_max_str_digits" not in err
    data = {"tiles": [], "nodes": {}, "colors": ["RED"], "actions": [["RED", "ROLL", [10**5000, 1]]]}
    found = [d.message for _, _, seen in catanatron.convert(data) for d in seen]
    assert found == ["/actions/0/2/0: a die is <an integer of about 5001 digits>, beyond any number catanatron writes"]


# -- nothing expanded, nothing dropped -------------------------------------------------------

FOUR = jsettlers_games.recorded("4p")


def _replaced(lines, start: str, new: str):
    """The lines with the first that starts with `start` replaced; its index."""
    at = next(i for i, line in enumerate(lines) if line.startswith(start))
    return lines[:at] + [new] + lines[at + 1 :], at


@pytest.mark.parametrize("clay", ["10000000", "3", "0"])
def test_a_year_of_plenty_takes_two_cards_and_no_count_is_expanded(clay):
    """A count is a number, never a list of that many letters: 205 bytes of a Year of Plenty of
    10,000,000 clay once took seconds, hundreds of megabytes and wrote 40 MB."""
    name, lines = next((n, ls) for n, ls in FOUR if any(x.startswith("all:SOCPickResources:") for x in ls))
    pick = next(x for x in lines if x.startswith("all:SOCPickResources:"))
    changed = pick.split("|resources=")[0] + f"|resources=clay={clay}|ore=0|sheep=0|wheat=0|wood=0|unknown=0|pn="
    edited, at = _replaced(lines, "all:SOCPickResources:", changed + pick.split("|pn=")[1])
    text = "\n".join(edited)
    items = _api(lambda: jsettlers.read(edited, name), len(text))
    assert _errors(items) == [("engine-input", at + 1)]
    status, out, err = _cli_checked(text.encode(), "--to", "sgn")
    assert status == 1 and "a Year of Plenty picks 2 resources, not" in err
    assert len(out) < 2 * len(text)


@pytest.mark.parametrize("param", ["13", "1", "0", "seven", "", "99999999999"])
def test_a_roll_out_of_range_is_engine_input_never_dropped(param):
    name, lines = FOUR[0]
    roll = next(x for x in lines if x.startswith("all:SOCDiceResult:") and not x.endswith("=-1"))
    edited, at = _replaced(lines, roll, roll.rsplit("=", 1)[0] + "=" + param)
    assert _errors(jsettlers.read(edited, name)) == [("engine-input", at + 1)]
    status, _, err = _cli_checked("\n".join(edited).encode(), "--to", "sgn")
    assert status == 1 and f":{at + 1}: SOCDiceResult: a roll of" in err


def test_a_roll_of_minus_one_before_any_roll_is_passed_over():
    """-1 is what JSettlers sends a player who joins before any roll (the recorded games hold
    it in what observers are sent)."""
    name, lines = FOUR[0]
    at = next(i for i, x in enumerate(lines) if x.startswith("all:SOCTurn:"))
    none_yet = lines[: at + 1] + ["all:SOCDiceResult:game=g|param=-1"] + lines[at + 1 :]
    after = jsettlers_games.converted(name, none_yet)
    assert after.found == [] and after.messages == jsettlers_games.converted(name, lines).messages


def _mid_game_settlement(lines):
    rolled = next(i for i, x in enumerate(lines) if x.startswith("all:SOCDiceResult:") and not x.endswith("=-1"))
    at = next(i for i, x in enumerate(lines) if i > rolled and x.startswith("all:SOCPutPiece:") and "pieceType=1|" in x)
    return at, lines[at].split("playerNumber=")[1].split("|")[0]


def test_a_cancel_sent_to_one_player_takes_back_nothing():
    """JSettlers answers a declined request to build a settlement with a cancel to that player
    alone: the settlement built before it is the player's, and stays."""
    name, lines = FOUR[0]
    at, seat = _mid_game_settlement(lines)
    declined = [f"p{seat}:SOCCancelBuildRequest:game=g|pieceType=1", "all:SOCGameState:game=g|state=20"]
    after = jsettlers_games.converted(name, lines[: at + 1] + declined + lines[at + 1 :])
    assert after.found == [] and after.messages == jsettlers_games.converted(name, lines).messages


def test_the_game_wide_cancel_in_the_setup_takes_the_settlement_back():
    name, lines = FOUR[0]
    at = next(i for i, x in enumerate(lines) if x.startswith("all:SOCPutPiece:") and "pieceType=1|" in x)
    before = jsettlers_games.converted(name, lines)
    cancel = ["all:SOCCancelBuildRequest:game=g|pieceType=1"]
    after = jsettlers_games.converted(name, lines[: at + 1] + cancel + lines[at + 1 :])
    built = before.lines.index(at + 1)
    assert after.found == [] and after.messages == before.messages[:built] + before.messages[built + 1 :]
    mid, _ = _mid_game_settlement(lines)  # after the setup, the same cancel takes nothing back
    assert jsettlers_games.converted(name, lines[: mid + 1] + cancel + lines[mid + 1 :]).messages == before.messages


# -- in time linear in the input -------------------------------------------------------------


def test_reading_diagnostics_and_a_converters_are_merged_in_linear_time():
    """Each line both unreadable (bad UTF-8) and faulty once took time quadratic in the lines."""
    count = 30_000  # quadratic: about a minute; linear: a tenth of a second
    found = [make("invalid-utf8", "x", file="f", line=2 * n + 1) for n in range(count)]
    items = [(None, [make("engine-input", "y", file="f", line=2 * n + 2)]) for n in range(count)]
    start = time.process_time()
    merged = [d.line for _, seen in in_line_order(found, items) for d in seen]
    assert time.process_time() - start < SECONDS and merged == list(range(1, 2 * count + 1))


def test_undoes_that_undo_nothing_cost_time_linear_in_the_lines():
    """Each undo once looked back over every diagnostic written before it for the last move."""
    count = 60_000  # quadratic: over a minute; linear: a second or two
    undo = "all:SOCUndoPutPiece:game=g|playerNumber=0|pieceType=0|coord=67"
    lines = [HEADER, REAL_LAYOUTS[0], "all:SOCPutPiece:game=g|playerNumber=0|pieceType=1|coord=96"] + [undo] * count
    start = time.process_time()
    items = list(jsettlers.read(lines, "game.soclog"))
    assert time.process_time() - start < SECONDS
    assert sum(d.code == "no-counterpart" for _, _, found in items for d in found) == count


# -- what the command line says ---------------------------------------------------------------


def test_a_catanatron_game_laid_out_on_many_lines_is_detected():
    import catanatron_games

    _, data = catanatron_games.recorded(catanatron_games.RELEASED)[0]
    one_line = _cli_checked(json.dumps(data).encode(), "--to", "sgn")
    laid_out = _cli_checked(json.dumps(data, indent=2).encode(), "--to", "sgn")
    assert laid_out == one_line and one_line[0] == 0 and one_line[1].count("\n") > 100


def test_only_actions_left_out_are_counted_not_notes():
    name, lines = FOUR[0]
    options = next(x for x in lines if x.startswith("all:SOCNewGameWithOptions:"))
    edited, _ = _replaced(lines, options, options + ",VP=t12")
    status, _, err = _cli_checked("\n".join(edited).encode(), "--to", "sgn")
    assert status == 0 and "info: the game is played to 12 points" in err and "left out" not in err
    at, _ = _mid_game_settlement(lines)
    later = next(i for i, x in enumerate(lines) if i > at and x.startswith("all:SOCDiceResult:"))
    undo = lines[at].replace("SOCPutPiece", "SOCUndoPutPiece")
    status, _, err = _cli_checked("\n".join(edited[: later + 1] + [undo] + edited[later + 1 :]).encode(), "--to", "sgn")
    assert status == 0 and "so the undo is left out" in err and "left out 1 action with no SGN form" in err
