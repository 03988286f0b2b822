"""Settings from sgn.toml / .sgn.toml / pyproject.toml [tool.sgn], found upwards from the
current folder as ruff finds its own; the command line wins; bad files are named clearly."""

import contextlib
import datetime
import io
import json
import os
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from sgn.cli import main
from sgn.cli.config import ConfigError, find_config, load_file
from sgn.cli.options import BY_NAME, per_file_option, split_codes
from sgn.cli.settings import merge, policy

DEFAULTS = {"level": "auto", "profile": "strict", "select": ["ALL"], "fail-on": "error"}


def test_the_nearest_file_upwards_is_found(tmp_path):
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    (tmp_path / "sgn.toml").write_text('level = "rules"\n')
    (tmp_path / "a" / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no [tool.sgn]: passed over
    assert find_config(deep) == tmp_path / "sgn.toml"
    (tmp_path / "a" / "pyproject.toml").write_text("[tool.sgn]\nprofile = 'compat'\n")
    assert find_config(deep) == tmp_path / "a" / "pyproject.toml"
    (deep / ".sgn.toml").write_text("")
    assert find_config(deep) == deep / ".sgn.toml"


def test_the_command_line_wins_and_each_setting_says_where_it_came_from(tmp_path):
    (tmp_path / "sgn.toml").write_text('level = "rules"\nprofile = "compat"\nignore = ["blank-line"]\n')
    settings = merge(DEFAULTS, {"level": "schema", "profile": None}, cwd=tmp_path)
    assert settings.get("level") == "schema" and settings.sources["level"] == "command line"
    assert settings.get("profile") == "compat" and settings.sources["profile"] == str(tmp_path / "sgn.toml")
    assert settings.sources["fail-on"] == "default"
    shown = settings.show()
    assert 'level = "schema"    # command line' in shown and 'ignore = ["blank-line"]' in shown
    assert merge(DEFAULTS, {}, cwd=tmp_path, isolated=True).get("level") == "auto"


@pytest.mark.parametrize(
    "text,message",
    [
        ('levle = "rules"\n', "unknown setting 'levle'"),
        ('level = "all"\n', "level must be one of"),
        ("max-line-bytes = 0\n", "max-line-bytes must be a whole number"),
        ('select = "schema-*"\n', "select must be a list"),
        ("level = \n", "not valid TOML"),
        ('per-file-ignores = ["x"]\n', "per-file-ignores must be a table"),
        ("respect-gitignore = 1\n", "must be true or false"),
    ],
)
def test_a_bad_file_is_named_with_its_key(tmp_path, text, message):
    (tmp_path / "sgn.toml").write_text(text)
    with pytest.raises(ConfigError, match=message) as caught:
        merge(DEFAULTS, {}, cwd=tmp_path)
    assert str(tmp_path / "sgn.toml") in str(caught.value)


def test_a_file_that_is_not_utf8_is_named_not_an_internal_error(tmp_path):
    (tmp_path / "pyproject.toml").write_bytes(b"\xff\xfe[tool.sgn]\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        merge(DEFAULTS, {}, cwd=tmp_path)


def test_a_pyproject_table_is_read_and_checked(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.sgn]\nfail-on = 'warning'\nbogus = 1\n")
    with pytest.raises(ConfigError, match=r"\[tool.sgn\] 'bogus'"):
        load_file(tmp_path / "pyproject.toml")


def test_a_named_config_that_is_missing_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        merge(DEFAULTS, {}, config=str(tmp_path / "none.toml"))


@pytest.mark.parametrize(
    "make, says",
    [
        (lambda path: path.mkdir(), "is a folder, not a configuration file"),
        (lambda path: os.mkfifo(path), "is a FIFO (named pipe), not a configuration file"),
        (lambda path: path.symlink_to("nowhere"), "is a dangling symlink, not a configuration file"),
    ],
    ids=["folder", "fifo", "dangling-symlink"],
)
def test_a_named_config_that_is_no_file_says_what_it_is(tmp_path, make, says):
    """Nothing is opened (a FIFO would wait for a writer): what is there is said, in one line."""
    if not hasattr(os, "mkfifo") and "FIFO" in says:
        pytest.skip("no FIFO here")
    make(tmp_path / "odd.toml")
    with pytest.raises(ConfigError, match=re.escape(f"odd.toml {says}") + "$"):
        merge(DEFAULTS, {}, config=str(tmp_path / "odd.toml"))
    assert _validate("--config", str(tmp_path / "odd.toml")) == (2, f"sgn validate: {tmp_path / 'odd.toml'} {says}\n")


def test_a_config_error_shows_a_name_s_control_characters_escaped(tmp_path):
    code, said = _validate("--config", str(tmp_path / "a\x1b]0;x\x07\u2028.toml"))
    assert code == 2 and said == f"sgn validate: {tmp_path}/a\\x1b]0;x\\x07\\u2028.toml: no such configuration file\n"


def _validate(*args):
    """`sgn validate ARGS -` in this process: (exit status, standard error)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["validate", *args, "-"], out=io.StringIO())
    return code, err.getvalue()


def test_select_ignore_and_per_file_ignores(tmp_path):
    (tmp_path / "sgn.toml").write_text(
        'select = ["schema-*", "site-occupied"]\nignore = ["schema-maximum"]\n'
        '[per-file-ignores]\n"old/*.sgn" = ["site-occupied"]\n'
    )
    settings = policy(merge(DEFAULTS, {}, cwd=tmp_path))
    assert settings.keeps("game.sgn", "schema-type")
    assert not settings.keeps("game.sgn", "schema-maximum")
    assert not settings.keeps("game.sgn", "distance-rule")  # not selected
    assert settings.keeps("game.sgn", "site-occupied")
    assert not settings.keeps(str(tmp_path / "old" / "a.sgn"), "site-occupied")
    assert not settings.keeps("old/a.sgn", "site-occupied")
    assert settings.keeps("new/a.sgn", "site-occupied")


def test_option_syntax():
    assert split_codes("a, b,,c") == ["a", "b", "c"]
    assert per_file_option("games/*.sgn:a,b") == ("games/*.sgn", ["a", "b"])
    with pytest.raises(ValueError):
        per_file_option("no-colon")


def test_the_project_itself_has_a_valid_configuration_or_none():
    root = Path(__file__).resolve().parent.parent
    found = find_config(root)
    if found is not None and found.parent == root:
        load_file(found)


# Any shape of `tool` in a pyproject.toml, and any TOML at all, is read without an internal
# error: a `tool` that is not a table is no [tool.sgn] (another tool's business: the file is
# passed over, as one without the table is); a `tool.sgn` that is not a table is ours, and a
# usage error naming the file and the key.

NOT_OURS = ['tool = "sgn"', "tool = 1", 'tool = ["sgn"]', "[[tool]]\nsgn = 1", "tool = 2020-01-01", "tool = true"]
BAD_TABLE = [
    "[tool]\nsgn = 3",
    "tool.sgn = [1]",
    '[[tool.sgn]]\nlevel = "rules"',
    'tool = { sgn = "x" }',
    "[tool]\nsgn = []",
]


@pytest.mark.parametrize("text", NOT_OURS)
def test_a_tool_that_is_not_a_table_is_no_tool_sgn(tmp_path, text):
    deep = tmp_path / "project"
    deep.mkdir()
    (deep / "pyproject.toml").write_text(text + "\n")
    assert find_config(deep) is None
    (tmp_path / "sgn.toml").write_text('level = "rules"\n')
    assert find_config(deep) == tmp_path / "sgn.toml"  # the search goes on upwards
    assert load_file(deep / "pyproject.toml") == {}  # named by --config: no settings
    settings = merge(DEFAULTS, {}, config=str(deep / "pyproject.toml"))
    assert settings.values == DEFAULTS and settings.file == deep / "pyproject.toml"


@pytest.mark.parametrize("text", BAD_TABLE)
def test_a_tool_sgn_that_is_not_a_table_is_named(tmp_path, text):
    (tmp_path / "sgn.toml").write_text('level = "rules"\n')
    deep = tmp_path / "project"
    deep.mkdir()
    (deep / "pyproject.toml").write_text(text + "\n")
    assert find_config(deep) == deep / "pyproject.toml"  # ours, found, and wrong
    for config in [None, str(deep / "pyproject.toml")]:
        with pytest.raises(ConfigError, match=r"pyproject.toml: \[tool.sgn\] must be a table"):
            merge(DEFAULTS, {}, config=config, cwd=deep)


@pytest.mark.parametrize("text", ["a = " + "[" * 5000 + "]" * 5000, "a = " + "{b=" * 3000 + "1" + "}" * 3000])
def test_a_file_nested_too_deeply_is_named_not_an_internal_error(tmp_path, text):
    (tmp_path / "pyproject.toml").write_text(text + "\n")
    with pytest.raises(ConfigError, match="nested too deeply") as caught:
        merge(DEFAULTS, {}, cwd=tmp_path)
    assert str(tmp_path / "pyproject.toml") in str(caught.value)


def _show_settings(folder, *options):
    """`sgn validate --show-settings OPTIONS` in `folder`, in this process: (code, stderr)."""
    err = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stderr(err):
        patch.chdir(folder)
        patch.delenv("SGN_DEBUG", raising=False)
        code = main(["validate", *options, "--show-settings"], out=io.StringIO())
    return code, err.getvalue()


@pytest.mark.parametrize("text", NOT_OURS + BAD_TABLE)
def test_every_command_reading_the_configuration_says_what_is_wrong_or_passes_over_it(tmp_path, text):
    (tmp_path / "pyproject.toml").write_text(text + "\n")
    for options in [(), ("--config", "pyproject.toml")]:
        code, err = _show_settings(tmp_path, *options)
        if text in NOT_OURS:
            assert (code, err) == (0, "")
        else:
            assert (
                code == 2 and err.startswith("sgn validate: ") and "pyproject.toml: [tool.sgn] must be a table" in err
            )


# Random TOML-ish documents: values of every kind, nested, under `tool`, `tool.sgn`, and at
# the top of sgn.toml, and lines of TOML (valid or not) shuffled together.

KEY = st.one_of(st.sampled_from(sorted(BY_NAME) + ["sgn", "tool", "x"]), st.text(min_size=1, max_size=4))
SCALAR = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.integers(),
    st.floats(),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=6),
    st.sampled_from(["rules", "strict", "ALL", "schema-*", "error", "text", "*.sgn"]),
    st.just(datetime.date(2020, 1, 1)),
)
VALUE = st.recursive(
    SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEY, inner, max_size=3)), max_leaves=8
)
TABLE = st.dictionaries(KEY, VALUE, max_size=4)
LINES = st.lists(
    st.sampled_from(
        [
            "[tool]",
            "[tool.sgn]",
            "[[tool]]",
            "[[tool.sgn]]",
            "[tool.sgn.per-file-ignores]",
            "[per-file-ignores]",
            'tool = "sgn"',
            "tool = 1",
            "sgn = 3",
            "tool.sgn = [1]",
            'tool.sgn.level = "rules"',
            'level = "rules"',
            'select = ["ALL"]',
            'ignore = "x"',
            '"*.sgn" = ["x"]',
            '"*.sgn" = 1',
            "per-file-ignores = 1",
            "max-errors = 0",
            "max-errors = 99999999999999999999",
            "include = []",
            "respect-gitignore = 1",
            "a = [",
            "}",
            "= 1",
            "x = 1979-02-30",
            "x = nan",
            'x = """',
            "[tool.sgn",
            "\x00",
            "x = [[1], {a = 1}]",
        ]
    ),
    max_size=8,
)


def _toml(value):
    """A value written as TOML (inline tables and arrays)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, datetime.date)):
        return str(value)
    if isinstance(value, float):
        return (
            "nan"
            if value != value
            else "inf"
            if value == float("inf")
            else "-inf"
            if value == -float("inf")
            else repr(value)
        )
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml, value)) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"


DOCUMENTS = st.one_of(
    st.tuples(st.just("pyproject.toml"), VALUE.map(lambda v: f"tool = {_toml(v)}\n")),
    st.tuples(st.just("pyproject.toml"), VALUE.map(lambda v: f"[tool]\nsgn = {_toml(v)}\n")),
    st.tuples(
        st.just("pyproject.toml"),
        TABLE.map(lambda t: "[tool.sgn]\n" + "".join(f"{json.dumps(k)} = {_toml(v)}\n" for k, v in t.items())),
    ),
    st.tuples(
        st.sampled_from(["sgn.toml", ".sgn.toml"]),
        TABLE.map(lambda t: "".join(f"{json.dumps(k)} = {_toml(v)}\n" for k, v in t.items())),
    ),
    st.tuples(st.sampled_from(["pyproject.toml", "sgn.toml"]), LINES.map(lambda lines: "\n".join(lines) + "\n")),
)


@given(DOCUMENTS)
def test_no_toml_document_gives_an_internal_error(document):
    name, text = document
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        (folder / name).write_text(text, encoding="utf-8")
        for options in [(), ("--config", name)]:
            code, err = _show_settings(folder, *options)
            assert code in (0, 2), (code, err)
            assert "internal error" not in err, err
            assert code == 0 or err.startswith("sgn validate: ") and name in err, err
