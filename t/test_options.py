"""The table of options (sgn/cli/options.py) is the one spelling of each setting: the options
of `sgn validate`, the checks of a configuration file, `--show-settings` and the table of
docs/configuration.md are made from it; the merged settings are frozen, keep where each
value came from, and are never written back into the parsed arguments."""

import argparse
import contextlib
import io
import sys

import pytest
from hypothesis import HealthCheck, given, settings as hypothesis_settings, strategies as st

from conftest import CHECKOUT
from sgn.cli import build_parser, main
from sgn.cli.config import ConfigError, load_file
from sgn.cli.options import BY_NAME, OPTIONS, SWITCH, defaults, markdown
from sgn.cli.settings import merge, resolve

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.9 and 3.10
    import tomli as tomllib


def _validate_parser() -> argparse.ArgumentParser:
    commands = next(a for a in build_parser("validate")._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices["validate"]


def test_docs_configuration_md_holds_the_table_of_options():
    text = (CHECKOUT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert markdown() in text, (
        "the table of docs/configuration.md is stale: paste in the output of "
        "`python -c \"from sgn.cli.options import markdown; print(markdown(), end='')\"`"
    )


def test_every_option_of_the_table_is_an_option_of_validate_and_no_other_is_a_setting():
    parser = _validate_parser()
    flags = {flag: action.dest for action in parser._actions for flag in action.option_strings}
    for option in OPTIONS:
        for flag in option.flags:
            assert flags.get(flag) == option.attribute, (option.name, flag)
        if option.kind is SWITCH:
            assert option.flags == (f"--{option.name}", f"--no-{option.name}")
    settable = {option.attribute for option in OPTIONS if option.flags}
    given = {action.dest for action in parser._actions if action.dest in settable}
    assert given == settable


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.name)
def test_each_example_of_the_table_is_a_valid_setting(tmp_path, option):
    """The example the docs show is TOML that the file's check takes (in sgn.toml and in
    pyproject.toml alike), and its default, when it has one, passes the check too."""
    line = f"{option.name} = {option.example}\n"
    (tmp_path / "sgn.toml").write_text(line)
    (tmp_path / "pyproject.toml").write_text("[tool.sgn]\n" + line)
    expected = tomllib.loads(line)
    assert load_file(tmp_path / "sgn.toml") == expected == load_file(tmp_path / "pyproject.toml")
    if option.default is not None:
        assert option.check(option.default) == option.default


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.name)
def test_a_value_of_the_wrong_kind_names_the_file_and_the_key(tmp_path, option):
    (tmp_path / "sgn.toml").write_text(f"{option.name} = 1979-05-27\n")  # a date: no option takes one
    with pytest.raises(ConfigError, match=f"sgn.toml: {option.name} must be "):
        load_file(tmp_path / "sgn.toml")


def test_an_unknown_key_lists_the_keys_of_the_table(tmp_path):
    (tmp_path / "sgn.toml").write_text("levle = 'rules'\n")
    with pytest.raises(ConfigError) as caught:
        load_file(tmp_path / "sgn.toml")
    assert str(caught.value).endswith(f"(known: {', '.join(sorted(BY_NAME))})")


def _show(folder, monkeypatch, *options):
    monkeypatch.chdir(folder)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["validate", *options, "--show-settings"], out=out)
    assert (code, err.getvalue()) == (0, "")
    return out.getvalue()


def test_show_settings_prints_each_default_of_the_table_and_says_where_each_value_came_from(tmp_path, monkeypatch):
    shown = _show(tmp_path, monkeypatch, "--isolated")
    assert shown.splitlines()[0] == "configuration file: none"
    assert len(shown.splitlines()) == 1 + len(defaults())
    for key in defaults():
        assert f"\n{key} = " in shown and shown.split(f"\n{key} = ", 1)[1].split("\n")[0].endswith("    # default")
    (tmp_path / "sgn.toml").write_text('level = "schema"\nmax-errors = 3\n')
    shown = _show(tmp_path, monkeypatch, "--max-errors", "5", "--no-respect-gitignore")
    where = str(tmp_path / "sgn.toml")
    assert f'level = "schema"    # {where}\n' in shown
    assert "max-errors = 5    # command line\n" in shown
    assert "respect-gitignore = false    # command line\n" in shown
    assert 'fail-on = "error"    # default\n' in shown


def test_the_settings_are_frozen_and_the_arguments_are_left_as_parsed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sgn.toml").write_text('level = "schema"\noutput-format = "json"\nmax-errors = 2\n')
    args = _validate_parser().parse_args(["--profile", "compat", "g.sgn"])
    before = dict(vars(args))
    settings = resolve(args)
    assert vars(args) == before  # nothing written back: the run reads the settings
    assert (args.level, args.output, args.max_errors) == (None, None, None)
    assert (settings.get("level"), settings.get("output-format"), settings.get("max-errors")) == ("schema", "json", 2)
    assert settings.get("profile") == "compat" and settings.source("profile") == "command line"
    with pytest.raises(AttributeError):
        settings.file = None  # type: ignore[misc]
    with pytest.raises(TypeError):
        settings.values["level"] = "rules"  # type: ignore[index]
    with pytest.raises(TypeError):
        settings.sources["level"] = "default"  # type: ignore[index]


def test_the_defaults_are_a_fresh_copy_each_time():
    first = defaults()
    first["select"].append("x")
    assert defaults()["select"] == ["ALL"]


NAMES = [option.name for option in OPTIONS]


@hypothesis_settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(in_file=st.sets(st.sampled_from(NAMES)), on_line=st.sets(st.sampled_from(NAMES)))
def test_each_value_comes_from_the_last_that_gives_it_and_says_so(tmp_path, in_file, on_line):
    """The command line over the file over the defaults, key by key, and each value's source
    is the one it came from; a key nobody gives, with no default, is not in force."""
    path = tmp_path / "sgn.toml"
    path.write_text("".join(f"{name} = {BY_NAME[name].example}\n" for name in sorted(in_file)))
    from_file = load_file(path)
    line = {name: ("line", name) for name in on_line}
    merged = merge(defaults(), {**dict.fromkeys(NAMES), **line}, cwd=tmp_path)
    assert merged.file == path
    for name in NAMES:
        if name in on_line:
            expected = (line[name], "command line")
        elif name in in_file:
            expected = (from_file[name], str(path))
        elif BY_NAME[name].default is not None:
            expected = (BY_NAME[name].default, "default")
        else:
            assert name not in merged.values and merged.source(name) == "default"
            continue
        assert (merged.get(name), merged.source(name)) == expected, name
