"""The Python API: `sgn.check` gives what `sgn validate` says of one file, from any source;
every public callable keeps its docstring, in the compiled build too."""

import gzip
import inspect
import io
import json
import pathlib
import re
import subprocess
import sys

import pytest

import sgn
from conftest import json_report, run_cli
from sgn.packaged import example_games

GAMES = example_games()
INVALID = b'["1","RD",{"result":13}]\n'


@pytest.mark.parametrize("name", sorted(GAMES))
def test_check_agrees_with_sgn_validate(name):
    """Verdict, counts, level and diagnostics, for each bundled game, faulty ones included."""
    path = GAMES[name]
    report = json_report(run_cli("validate", "-o", "json", path))
    (summary,) = report["files"]
    result = sgn.check(path)
    assert (result.file, result.valid, result.errors, result.warnings, result.messages, result.exit_code) == (
        summary["file"],
        summary["valid"],
        summary["errors"],
        summary["warnings"],
        summary["messages"],
        report["exit_code"],
    )
    assert result.level == (summary["level"] or None)
    assert [d.to_dict() for d in result.diagnostics] == report["diagnostics"]
    assert result.verdict == ("valid" if summary["valid"] else "invalid")


def test_a_valid_game_and_its_level():
    result = sgn.check(GAMES["game"])
    assert (result.verdict, result.valid, result.level, result.errors, result.warnings, result.infos) == (
        "valid",
        True,
        "rules",
        0,
        0,
        0,
    )
    assert result.messages == len(GAMES["game"].read_bytes().splitlines()) and result.diagnostics == []


def test_bytes_are_the_log_itself_plain_or_gzip():
    for data in (INVALID, gzip.compress(INVALID)):
        result = sgn.check(data)
        assert (result.verdict, result.valid, result.level, result.errors, result.file, result.exit_code) == (
            "invalid",
            False,
            "semantic",
            1,
            "<input>",
            1,
        )
        assert [(d.code, d.line, d.pointer) for d in result.diagnostics] == [("schema-maximum", 1, "/2/result")]


@pytest.mark.parametrize(
    "make",
    [
        io.BytesIO,
        lambda data: io.StringIO(data.decode()),
        lambda data: data.decode().splitlines(keepends=True),
        bytearray,
        memoryview,
    ],
    ids=["binary file", "text file", "lines", "bytearray", "memoryview"],
)
def test_every_kind_of_source(make):
    result = sgn.check(make(b'["1","RD",{"result":8}]\n' + INVALID), name="mine.sgn")
    assert (result.verdict, result.errors, result.messages, result.file) == ("invalid", 1, 2, "mine.sgn")
    assert result.diagnostics[0].file == "mine.sgn" and result.diagnostics[0].line == 2


def test_warnings_and_infos_are_counted_and_do_not_invalidate():
    result = sgn.check(b'["1","RD",{"result":8}]\n\n["1","RD",{"result":8}]')
    assert (result.verdict, result.errors, result.warnings, result.infos) == ("valid", 0, 1, 1)
    assert sorted(d.code for d in result.diagnostics) == ["blank-line", "no-final-newline"]


def test_a_file_that_cannot_be_read_is_unreadable(tmp_path):
    for path, code in (
        (tmp_path / "missing.sgn", "file-not-found"),
        (tmp_path, "is-a-directory"),
        (str(tmp_path / "[draft].sgn"), "file-not-found"),
    ):
        result = sgn.check(path)
        assert (result.verdict, result.valid, result.level, result.exit_code, result.messages) == (
            "unreadable",
            False,
            None,
            2,
            0,
        )
        assert [d.code for d in result.diagnostics] == [code]


@pytest.mark.parametrize("source", ["a\0b.sgn", "games/\0.sgn.gz", pathlib.Path("a\0b.sgn")])
def test_a_name_the_system_refuses_is_a_read_error_not_a_bug(source):
    """A NUL byte in a path: open() raises ValueError, which was reported as internal-error
    ("a bug in sgn"); it is a name that cannot be read, like any other."""
    result = sgn.check(source)
    assert (result.verdict, result.exit_code, result.messages) == ("unreadable", 2, 0)
    assert [d.code for d in result.diagnostics] == ["read-error"], result.diagnostics
    assert "the system refuses this name" in result.diagnostics[0].message


def test_an_empty_log_is_invalid_with_no_level():
    result = sgn.check(b"")
    assert (result.verdict, result.level, [d.code for d in result.diagnostics]) == ("invalid", None, ["empty-file"])


def test_level_and_profile_are_those_of_validate():
    assert sgn.check(INVALID, level="syntax").verdict == "valid"
    assert sgn.check(INVALID, level="syntax").level == "syntax"
    legacy = b'["1","MR",{"tile":["0","0"]}]\n'
    assert sgn.check(legacy).valid is False
    assert (sgn.check(legacy, profile="compat").verdict, sgn.check(legacy, profile="compat").warnings) == ("valid", 1)
    long_line = b'["1","RD",{"result":8}]' + b" " * 100 + b"\n"
    assert [d.code for d in sgn.check(long_line, max_line_bytes=64).diagnostics] == ["line-too-long"]


@pytest.mark.parametrize("options", [{"level": "everything"}, {"profile": "lenient"}])
def test_unknown_options_raise(options):
    with pytest.raises(ValueError, match="unknown"):
        sgn.check(INVALID, **options)


@pytest.mark.parametrize("text", ['["1","RD",{"result":8}]', '["1","RD",{"result":8}]\n["1","RD",{"result":8}]\n'])
def test_a_str_of_log_text_is_checked_as_text(text):
    assert sgn.check(text).valid and sgn.check(text).messages == text.count("RD")
    assert [d.code for d in sgn.iter_diagnostics(text) if d.severity == "error"] == []


def test_a_game_as_python_messages_is_checked():
    from sgn.play import random_game

    game = random_game(3, 4)
    result = sgn.check(game)
    assert (result.verdict, result.level, result.messages) == ("valid", "rules", len(game))
    assert sgn.check(tuple(tuple(m) for m in game)).valid
    assert sgn.check(iter(game)).valid
    assert list(sgn.iter_diagnostics(game)) == []


def test_messages_and_lines_may_be_mixed():
    assert sgn.check([["1", "RD", {"result": 8}], '["1","RD",{"result":8}]', b'["1","RD",{"result":8}]']).messages == 3
    assert [d.code for d in sgn.check([["1", "RD", {"result": 1}]]).diagnostics] != []
    assert not sgn.check([{"not": "a message"}]).valid  # a JSON value, refused by the checks


@pytest.mark.parametrize(
    "source, words",
    [
        (42, "got int"),
        (None, "got NoneType"),
        ({"a": 1}, "got dict"),
        (3.5, "got float"),
        ([["1", "RD", {"result": 8}], 7], "item 2 of the iterable is a int"),
        (["1", "RD", {"result": 8}], r"this is one message: pass \[message\]"),
    ],
)
def test_a_wrong_type_is_a_type_error_in_our_words(source, words):
    with pytest.raises(TypeError, match=words) as caught:
        sgn.check(source)
    assert "union[" not in str(caught.value)
    with pytest.raises(TypeError, match="sgn.iter_diagnostics"):
        list(sgn.iter_diagnostics(source))


def test_the_result_reads_briefly():
    text = repr(sgn.check(INVALID))
    assert text.startswith("Result(verdict='invalid', file='<input>', level='semantic'") and "diagnostics" not in text


def _public_callables():
    for name in sgn.__all__:
        value = getattr(sgn, name)
        if callable(value):
            yield f"sgn.{name}", value
            if inspect.isclass(value):
                for attribute, member in vars(value).items():
                    if not attribute.startswith("_") and (callable(member) or isinstance(member, property)):
                        yield f"sgn.{name}.{attribute}", member


def test_every_public_callable_has_a_docstring():
    """In the compiled build too (tox's env py): mypyc drops the docstrings of what it compiles."""
    documented = {name: (inspect.getdoc(value) or "").strip() for name, value in _public_callables()}
    assert {"sgn.check", "sgn.iter_diagnostics", "sgn.validate_message", "sgn.Result.valid"} <= set(documented)
    assert [name for name, doc in documented.items() if not doc] == []


def test_the_public_functions_are_those_of_validate():
    """The documented functions give what the engine does (they are thin)."""
    from sgn.layers import stages
    from sgn.pipeline import engine

    assert list(sgn.iter_diagnostics([INVALID])) == list(engine.FileCheck([INVALID]))
    assert sgn.validate_message(["1", "RD", {"result": 13}], file="f", line=3) == stages.validate_message(
        ["1", "RD", {"result": 13}], file="f", line=3
    )


def test_the_game_is_documented_in_every_build():
    """A compiled class keeps no docstring: sgn.game gives them back (sgn/game/documented.py)."""
    import pydoc

    from sgn.game import Game
    from sgn.play import random_game

    doc = inspect.getdoc(Game)
    assert "replayed message by message" in doc and "field by field" in doc
    assert '    robber_due: Optional[str]  -- "seven" or "knight"' in doc
    for name in ("apply", "clone"):
        assert len(inspect.getdoc(getattr(Game, name)) or "") > 40, name
    assert list(inspect.signature(Game.apply).parameters)[:3] == ["self", "message", "line"]
    assert "Check one message against the state" in pydoc.render_doc(Game)
    game = Game()
    for line, message in enumerate(random_game(3, 4), 1):
        assert game.apply(message, line) == []
    assert isinstance(game.clone(), Game) and game.clone().ended_at == game.ended_at


def test_a_check_does_not_pay_for_the_games_documentation():
    """The docstrings are read from the sources when `sgn.game.Game` is first asked for, not
    when a check runs (a parse of the sources at every start of `sgn validate`)."""
    code = (
        "import sys, sgn; from sgn.play import random_game; "
        "assert sgn.check(random_game(3, 4)).valid; "
        "assert 'sgn.game.documented' not in sys.modules, 'documented'; "
        "from sgn.game import Game; import inspect; "
        "assert 'field by field' in inspect.getdoc(Game) and 'sgn.game.documented' in sys.modules; "
        "import sgn.game; assert 'Game' in dir(sgn.game) and sgn.game.Game is Game"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_problem_of_the_replay_has_its_severity_and_layer():
    from sgn.game import Game

    problem = Game().apply(["1", "RD", {"result": 8}])[0]  # no map yet
    assert (problem.code, problem.severity, problem.layer) == ("game-without-map", "error", "rules")
    code, pointer, message, hint = problem  # still the four fields
    made = problem.diagnostic("g.sgn", 7)
    assert (made.code, made.severity, made.layer, made.file, made.line, made.message) == (
        code,
        "error",
        "rules",
        "g.sgn",
        7,
        message,
    )


def test_replay_gives_the_state_at_a_line_and_the_diagnostics_up_to_it():
    """`sgn.replay` is `sgn replay --at`: the same state, the diagnostics of the lines up to it."""
    from sgn.pipeline.replay import replay as command_replay
    from sgn.play import random_game

    game = random_game(5, 4)
    lines = [json.dumps(m) for m in game]
    lines[40] = '["1","RD",{"result":13}]'
    data = ("\n".join(lines) + "\n").encode()
    for at in (10, 41, None):
        state, found = sgn.replay(data, at=at)
        expected, _ = command_replay(io.BytesIO(data), name="<input>", at=at)
        assert state["line"] == (at or len(lines)) and state["game"] is not None
        assert {k: v for k, v in state.items() if k != "game"} == expected.snapshot()
        assert [(d.line, d.code) for d in found] == [
            (d.line, d.code) for d in sgn.check(data).diagnostics if (d.line or 0) <= (at or len(lines))
        ]
    assert "schema-maximum" in [d.code for d in sgn.replay(data, at=41)[1]] and not sgn.replay(data, at=40)[1]
    assert sgn.replay(game)[0]["phase"] == "over"
    assert sgn.replay(b"not json\n")[0]["line"] == 1
    with pytest.raises(TypeError):
        sgn.replay(42)


# -- what no log could make wrong is a ValueError or TypeError at the call, in our words ----------------------

LOG = b'["1","RD",{"result":8}]\n'


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: sgn.replay(LOG, at=-5), ValueError, "sgn.replay: at is a line number, at least 1; got -5"),
        (lambda: sgn.replay(LOG, at=0), ValueError, "at least 1; got 0"),
        (lambda: sgn.replay(LOG, at=1.5), TypeError, "at is a line number, a whole number; got float"),
        (lambda: sgn.replay(LOG, at="3"), TypeError, "got str '3'"),
        (lambda: sgn.replay(LOG, at=True), TypeError, "got bool"),
        (lambda: sgn.check(LOG, max_line_bytes=-1), ValueError, "sgn.check: max_line_bytes is a number of bytes"),
        (lambda: sgn.check(LOG, max_line_bytes=0), ValueError, "at least 1; got 0"),
        (lambda: sgn.check(LOG, max_line_bytes=None), TypeError, "got NoneType"),
        (lambda: sgn.iter_diagnostics(LOG, max_line_bytes=0), ValueError, "sgn.iter_diagnostics: max_line_bytes"),
    ],
    ids=["at-5", "at0", "at1.5", "at-str", "at-bool", "check-1", "check0", "check-none", "iter0"],
)
def test_a_line_number_or_a_limit_under_1_is_refused_at_the_call(call, error, words):
    with pytest.raises(error, match=re.escape(words)):
        call()


def test_the_least_line_number_and_limit_are_taken():
    assert sgn.replay(LOG, at=1)[0]["line"] == 1
    assert [d.code for d in sgn.check(LOG, max_line_bytes=1).diagnostics][:1] == ["line-too-long"]


@pytest.mark.parametrize("call", [sgn.check, sgn.replay, lambda f: list(sgn.iter_diagnostics(f))])
def test_a_closed_file_or_one_not_open_for_reading_is_a_value_error(tmp_path, call):
    (tmp_path / "g.sgn").write_bytes(LOG)
    with open(tmp_path / "g.sgn", "rb") as closed:
        pass
    with pytest.raises(ValueError, match=r"the file object '.*g.sgn' is closed"):
        call(closed)
    with open(tmp_path / "w.sgn", "w") as writing:
        with pytest.raises(ValueError, match=r"the file object '.*w.sgn' is not open for reading"):
            call(writing)
    with open(tmp_path / "g.sgn", "rb") as reading:
        assert call(reading) is not None  # an open one is read


@pytest.mark.parametrize(
    "value, where",
    [
        (b'["1","RD",{"result":8}]', "the message is of type bytes"),
        ({"1", "RD"}, "the message is of type set"),
        (["1", "RD", {"result": {1}}], "the value at /2/result is of type set"),
        (["1", "RD", {"result": 8j}], "the value at /2/result is of type complex"),
        (["1", "RD", {"result": b"8"}], "the value at /2/result is of type bytes"),
        (["1", "RD", {1: 8}], "the object at /2 has a key of type int (1), where JSON has a string"),
        (object(), "the message is of type object"),
    ],
)
def test_a_value_json_never_gives_is_a_type_error_naming_it(value, where):
    with pytest.raises(TypeError, match=re.escape(where)) as caught:
        sgn.validate_message(value)
    assert "null" not in str(caught.value)


def test_a_tuple_is_read_as_a_list_as_check_reads_it():
    message = ("1", "RD", {"result": 8})
    assert sgn.validate_message(message) == sgn.validate_message(list(message)) == []
    assert sgn.check([message]).valid
    bad = ("1", "RD", {"result": (1, 2)})
    assert [(d.code, d.message) for d in sgn.validate_message(bad)] == [
        (d.code, d.message) for d in sgn.validate_message(["1", "RD", {"result": [1, 2]}])
    ]
    assert "null" not in sgn.validate_message(bad)[0].message


def test_a_value_holding_itself_is_nested_too_deep_not_an_error():
    looped: list = ["1", "RD"]
    looped.append(looped)
    looped_tuple = ("1", "RD", [])
    looped_tuple[2].append(looped_tuple)
    for value in (looped, looped_tuple):
        assert [d.code for d in sgn.validate_message(value)] == ["json-too-deep"]
