"""Settings from sgn.toml / .sgn.toml / pyproject.toml [tool.sgn], found upwards from the
current folder as ruff finds its own; the command line wins; bad files are named clearly."""
from pathlib import Path

import pytest

from sgn.config import ConfigError, find_config, load_file, per_file_option, resolve, split_codes
from sgn.validate_settings import policy

DEFAULTS = {"level": "auto", "profile": "strict", "select": ["ALL"], "fail-on": "error"}


def test_the_nearest_file_upwards_is_found(tmp_path):
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    (tmp_path / "sgn.toml").write_text('level = "rules"\n')
    (tmp_path / "a" / "pyproject.toml").write_text("[project]\nname = 'x'\n")   # no [tool.sgn]: passed over
    assert find_config(deep) == tmp_path / "sgn.toml"
    (tmp_path / "a" / "pyproject.toml").write_text("[tool.sgn]\nprofile = 'compat'\n")
    assert find_config(deep) == tmp_path / "a" / "pyproject.toml"
    (deep / ".sgn.toml").write_text("")
    assert find_config(deep) == deep / ".sgn.toml"


def test_the_command_line_wins_and_each_setting_says_where_it_came_from(tmp_path):
    (tmp_path / "sgn.toml").write_text('level = "rules"\nprofile = "compat"\nignore = ["blank-line"]\n')
    settings = resolve(DEFAULTS, {"level": "schema", "profile": None}, cwd=tmp_path)
    assert settings.get("level") == "schema" and settings.sources["level"] == "command line"
    assert settings.get("profile") == "compat" and settings.sources["profile"] == str(tmp_path / "sgn.toml")
    assert settings.sources["fail-on"] == "default"
    shown = settings.show()
    assert 'level = "schema"    # command line' in shown and 'ignore = ["blank-line"]' in shown
    assert resolve(DEFAULTS, {}, cwd=tmp_path, isolated=True).get("level") == "auto"


@pytest.mark.parametrize("text,message", [
    ('levle = "rules"\n', "unknown setting 'levle'"),
    ('level = "all"\n', "level must be one of"),
    ("max-line-bytes = 0\n", "max-line-bytes must be a whole number"),
    ("select = \"schema-*\"\n", "select must be a list"),
    ("level = \n", "not valid TOML"),
    ('per-file-ignores = ["x"]\n', "per-file-ignores must be a table"),
    ("respect-gitignore = 1\n", "must be true or false"),
])
def test_a_bad_file_is_named_with_its_key(tmp_path, text, message):
    (tmp_path / "sgn.toml").write_text(text)
    with pytest.raises(ConfigError, match=message) as caught:
        resolve(DEFAULTS, {}, cwd=tmp_path)
    assert str(tmp_path / "sgn.toml") in str(caught.value)


def test_a_file_that_is_not_utf8_is_named_not_an_internal_error(tmp_path):
    (tmp_path / "pyproject.toml").write_bytes(b"\xff\xfe[tool.sgn]\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        resolve(DEFAULTS, {}, cwd=tmp_path)


def test_a_pyproject_table_is_read_and_checked(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.sgn]\nfail-on = 'warning'\nbogus = 1\n")
    with pytest.raises(ConfigError, match=r"\[tool.sgn\] 'bogus'"):
        load_file(tmp_path / "pyproject.toml")


def test_a_named_config_that_is_missing_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        resolve(DEFAULTS, {}, config=str(tmp_path / "none.toml"))


def test_select_ignore_and_per_file_ignores(tmp_path):
    (tmp_path / "sgn.toml").write_text(
        'select = ["schema-*", "site-occupied"]\nignore = ["schema-maximum"]\n'
        '[per-file-ignores]\n"old/*.sgn" = ["site-occupied"]\n')
    settings = policy(resolve(DEFAULTS, {}, cwd=tmp_path))
    assert settings.keeps("game.sgn", "schema-type")
    assert not settings.keeps("game.sgn", "schema-maximum")
    assert not settings.keeps("game.sgn", "distance-rule")           # not selected
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
