"""The settings in force for a run of `sgn validate`: the merge of the defaults, the
configuration file and the command line, in that order, each later one winning, into one
frozen `Settings` that keeps where each value came from ("default", the file, "command
line"), which `--show-settings` prints. Nothing is written back into the parsed arguments:
the run reads the settings. The options themselves are the table's (sgn/cli/options.py);
the file is found and read by sgn/cli/config.py. Ruff's names and meanings (`--select`,
`--ignore`, `--extend-select`, `--per-file-ignores`, `--config`, `--isolated`,
`--show-settings`, `--exclude`, `--extend-include`), plus `--fail-on warning`
(check-jsonschema's warnings-as-errors)."""

from __future__ import annotations

import argparse
import os
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, List, Mapping, NamedTuple, Optional

from ..game.rule_profiles import DEFAULT as DEFAULT_RULES
from ..pipeline.checking import Checking
from ..pipeline.policy import Policy, check_selectors
from . import options
from .config import ConfigError, find_config, load_file, named

if TYPE_CHECKING:
    from pathlib import Path

DEFAULT = "default"
COMMAND_LINE = "command line"


class Settings(NamedTuple):
    """What is in force, and where each value came from: "default", a file's path, or
    "command line". Frozen, as are its mappings: what the run reads is what was merged."""

    values: Mapping[str, Any]
    sources: Mapping[str, str]
    file: Optional[Path] = None

    def get(self, key: str) -> Any:
        return self.values.get(key)

    def source(self, key: str) -> str:
        return self.sources.get(key, DEFAULT)

    def show(self) -> str:
        """The settings as `--show-settings` prints them: one per line, with their source."""
        lines = [f"configuration file: {self.file if self.file else 'none'}"]
        for key in sorted(self.values):
            lines.append(f"{key} = {options.toml(self.values[key])}    # {self.source(key)}")
        return "\n".join(lines) + "\n"


def merge(
    defaults: Mapping[str, Any],
    command_line: Mapping[str, Any],
    *,
    config: Optional[str] = None,
    isolated: bool = False,
    cwd: Optional[Path] = None,
) -> Settings:
    """Defaults, then the file's settings, then the command line's (the options given, not
    None): the file is the one `config` names, or the first found upwards from `cwd` unless
    `isolated` (ConfigError when it is bad)."""
    values = dict(defaults)
    sources = dict.fromkeys(defaults, DEFAULT)
    path: Optional[Path] = None
    if config is not None:
        path = named(config)
    elif not isolated:
        path = find_config(os.path.realpath(cwd if cwd is not None else os.getcwd()))
    if path is not None:
        for key, value in load_file(path).items():
            values[key], sources[key] = value, str(path)
    for key, value in command_line.items():
        if value is not None:
            values[key], sources[key] = value, COMMAND_LINE
    return Settings(MappingProxyType(values), MappingProxyType(sources), path)


def resolve(args: argparse.Namespace) -> Settings:
    """The settings in force for this run (ConfigError when the file is bad, or a
    code it or the command line names selects nothing)."""
    settings = merge(options.defaults(), options.given(args), config=args.config, isolated=args.isolated)
    problems = _selector_problems(settings)
    if problems:
        raise ConfigError("; ".join(problems))
    checking(settings)  # (ConfigError for a value the files' checks would refuse)
    return settings


_CODE_KEYS = ("select", "extend-select", "ignore", "extend-ignore")


def _selector_problems(settings: Settings) -> List[str]:
    """Each code or glob of the settings that selects nothing, named where it was given: a
    typo must not pass every file (ruff refuses an unknown rule selector too)."""
    problems: List[str] = []
    for key in _CODE_KEYS + ("per-file-ignores",):
        value = settings.get(key)
        source = settings.source(key)
        if value is None or source == DEFAULT:
            continue
        on_line = source == COMMAND_LINE
        table = "[tool.sgn] " if source.endswith("pyproject.toml") else ""
        where = f"--{key}" if on_line else f"{source}: {table}{key}"
        lists = value.items() if key == "per-file-ignores" else [(None, value)]
        for glob, codes in lists:
            here = where if glob is None else f"{where} {glob!r}"
            # an empty list in a file is a choice (ignore nothing); on the command line, a slip
            problems += check_selectors(codes, here, may_be_empty=not on_line and key != "select")
    if not problems:
        problems += _nothing_left(settings)
    return problems


def _nothing_left(settings: Settings) -> List[str]:
    """An empty selection once the ignores are applied (`--ignore '*'`): every file would
    pass, whatever it holds; refused as an empty `--select` is."""
    if not policy(settings).reports_nothing():
        return []
    return [
        "the selected codes less the ignored ones leave none to report: every file would pass; "
        "name fewer in --ignore (or ignore), or more in --select (or select)"
    ]


def nothing_left_in(settings: Settings, names: List[str]) -> Optional[str]:
    """Why the run is refused when the per-file ignores leave no code to report in any file
    it checks (`names`, as their diagnostics name them): every file would pass, whatever
    it holds, however the patterns are spelt (`*`, `?*`, `*.sgn`), from the file or the
    command line alike (`Policy.reports_nothing`). None when some file has a code left."""
    run = policy(settings)
    if not run.reports_nothing(names):
        return None
    source = settings.source("per-file-ignores")
    table = "[tool.sgn] " if source.endswith("pyproject.toml") else ""
    where = "--per-file-ignores" if source == COMMAND_LINE else f"{source}: {table}per-file-ignores"
    globs = ", ".join(repr(glob) for glob, _ in run.per_file_of(names[0]))
    return (
        f"{where} leave no code to report in any file checked ({names[0]} matches {globs}): "
        "every file would pass, whatever it holds; ignore fewer codes there, or check other files too"
    )


def policy(settings: Settings, *, quiet: bool = False) -> Policy:
    """The policy of the run (sgn/pipeline/policy.py): what is reported, from the settings in
    force, what is shown (`quiet`: -q, an option of one run) and what fails the run."""

    def codes(key: str) -> List[str]:
        return list(settings.get(key) or []) + list(settings.get("extend-" + key) or [])

    per_file = tuple((glob, tuple(found)) for glob, found in (settings.get("per-file-ignores") or {}).items())
    base = str(settings.file.parent) if settings.file is not None else None
    return Policy(
        select=tuple(codes("select")),
        ignore=tuple(codes("ignore")),
        per_file=per_file,
        max_errors=settings.get("max-errors"),
        base=base,
        quiet=quiet,
        fail_on=settings.get("fail-on") or "error",
    )


def checking(settings: Settings, **chosen: Any) -> Checking:
    """How each file of the run is checked (sgn/pipeline/checking.py): the level, profile,
    hidden values, longest line and rule profiles in force, the per-file rules matched as
    the per-file ignores are; what a command fixes itself (`chosen`: a replay's level)
    wins. ConfigError for a value no table row refused but the value does."""
    per_file = tuple((settings.get("per-file-rules") or {}).items())
    values = {
        "level": settings.get("level"),
        "profile": settings.get("profile"),
        "hidden": settings.get("hidden"),
        "rules": settings.get("rules") or DEFAULT_RULES,
        "max_line_bytes": settings.get("max-line-bytes"),
        "per_file_rules": per_file,
        "base": str(settings.file.parent) if settings.file is not None else None,
    }
    values.update(chosen)
    try:
        return Checking(**values)
    except ValueError as error:
        raise ConfigError(str(error)) from None


def include(settings: Settings) -> List[str]:
    return list(settings.get("include") or []) + list(settings.get("extend-include") or [])


def exclude(settings: Settings) -> List[str]:
    return list(settings.get("exclude") or []) + list(settings.get("extend-exclude") or [])


def for_file(args: argparse.Namespace, path: str) -> Checking:
    """How the one log a command replays (`replay`, `moves`, `perft`, `render`, `report`) is
    read, as `sgn validate` would check it at the rules level: the command line's `rules`
    and `profile`, else the configuration's settings (found as `validate` finds them, its
    `per-file-rules` matched against the file), else the defaults. ConfigError when the
    configuration is bad."""
    given = {"rules": getattr(args, "rules", None), "profile": getattr(args, "profile", None)}
    chosen: dict = {"level": "rules"}
    if given["rules"] is not None:  # (the command line's profile before any per-file one)
        chosen["per_file_rules"] = ()
    return checking(merge(options.defaults(), given), **chosen).for_path(path)


def for_file_or_say(args: argparse.Namespace, path: str, command: str) -> Optional[Checking]:
    """`for_file`, or None with the configuration's fault said on standard error (exit 2)."""
    import sys

    try:
        return for_file(args, path)
    except ConfigError as error:
        sys.stderr.write(f"sgn {command}: {error}\n")
        return None
