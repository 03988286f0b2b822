"""The options of `sgn validate` that a configuration file may set too (sgn/cli/config.py), and
how the two are merged: ruff's names and meanings (`--select`, `--ignore`, `--extend-select`,
`--per-file-ignores`, `--config`, `--isolated`, `--show-settings`, `--exclude`,
`--extend-include`), plus `--fail-on warning` (check-jsonschema's warnings-as-errors)."""

from __future__ import annotations

import argparse
from typing import Any, Dict, List, Optional

from ..game.profiles import CHOICES
from ..layers.reader import DEFAULT_MAX_LINE_BYTES
from ..pipeline.files import DEFAULT_EXCLUDE, DEFAULT_INCLUDE
from ..pipeline.policy import Policy, RuleChoice, check_selectors
from . import config

# What is in force when neither the file nor the command line says otherwise.
DEFAULTS: Dict[str, Any] = {
    "level": "auto",
    "profile": "strict",
    "hidden": "allow",
    "rules": "standard",
    "output-format": "text",
    "max-line-bytes": DEFAULT_MAX_LINE_BYTES,
    "select": ["ALL"],
    "ignore": [],
    "fail-on": "error",
    "include": list(DEFAULT_INCLUDE),
    "exclude": list(DEFAULT_EXCLUDE),
    "respect-gitignore": True,
}
# option dest -> setting key, for the options a file may also set
_FROM_OPTIONS = {
    "level": "level",
    "profile": "profile",
    "hidden": "hidden",
    "rules": "rules",
    "output": "output-format",
    "max_line_bytes": "max-line-bytes",
    "max_errors": "max-errors",
    "select": "select",
    "ignore": "ignore",
    "extend_select": "extend-select",
    "extend_ignore": "extend-ignore",
    "fail_on": "fail-on",
    "exclude": "exclude",
    "extend_exclude": "extend-exclude",
    "extend_include": "extend-include",
    "respect_gitignore": "respect-gitignore",
}


class _Codes(argparse.Action):
    """`--select a,b --select c`: commas and repeats, as ruff reads them."""

    def __call__(self, parser, namespace, values, option_string=None):
        got = getattr(namespace, self.dest) or []
        setattr(namespace, self.dest, got + config.split_codes(values))


class _PerFile(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        try:
            glob, codes = config.per_file_option(values)
        except ValueError as error:
            parser.error(f"{option_string} {values!r}: {error}")
        got = dict(getattr(namespace, self.dest) or {})
        got[glob] = got.get(glob, []) + codes
        setattr(namespace, self.dest, got)


def add_rules_option(parser: argparse.ArgumentParser, default: Optional[str] = None) -> None:
    """`--rules`: the rule profile a game is replayed under (sgn/game/profiles.py)."""
    parser.add_argument(
        "--rules",
        choices=CHOICES,
        default=default,
        help="the rules a game is replayed under: standard (the rulebook, default), or an engine's own, "
        "catanatron or jsettlers, each a set of departures from the rulebook (docs/engines.md)",
    )


class _PerFileRules(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        try:
            glob, name = config.per_file_rules_option(values)
        except ValueError as error:
            parser.error(f"{option_string} {values!r}: {error}")
        setattr(namespace, self.dest, dict(getattr(namespace, self.dest) or {}, **{glob: name}))


def add_options(validate: argparse.ArgumentParser) -> None:
    group = validate.add_argument_group(
        "settings (also in sgn.toml or pyproject.toml [tool.sgn]; docs/configuration.md)"
    )
    group.add_argument("--config", metavar="FILE", help="read the settings from FILE, not the one found upwards")
    group.add_argument("--isolated", action="store_true", help="read no configuration file")
    group.add_argument(
        "--show-settings", action="store_true", help="print the settings in force, and where each comes from, and exit"
    )
    for name, about in (
        ("select", "report only these codes (comma-separated; globs such as 'schema-*'; ALL)"),
        ("ignore", "never report these codes"),
        ("extend-select", "report these too, beside what is selected"),
        ("extend-ignore", "ignore these too, beside what is ignored"),
    ):
        group.add_argument(f"--{name}", action=_Codes, default=None, metavar="CODES", help=about)
    group.add_argument(
        "--per-file-ignores",
        action=_PerFile,
        default=None,
        metavar="GLOB:CODES",
        help="ignore codes in the files matching GLOB (repeatable)",
    )
    group.add_argument(
        "--per-file-rules",
        action=_PerFileRules,
        default=None,
        metavar="GLOB:RULES",
        help="replay the files matching GLOB under these rules (repeatable; the first that matches wins)",
    )
    group.add_argument(
        "--fail-on",
        choices=config.FAIL_ON,
        default=None,
        help="what fails the run: error (default), or warning too (warnings as errors)",
    )
    group.add_argument(
        "--extend-include",
        action="append",
        default=None,
        metavar="GLOB",
        help="in folders, also check files matching GLOB (beside *.sgn, *.sgn.gz, *.jsonl, *.ndjson)",
    )
    group.add_argument(
        "--exclude",
        action="append",
        default=None,
        metavar="GLOB",
        help="in folders, pass over these files and folders (replaces the default list)",
    )
    group.add_argument(
        "--extend-exclude", action="append", default=None, metavar="GLOB", help="in folders, pass over these too"
    )
    group.add_argument(
        "--respect-gitignore",
        dest="respect_gitignore",
        action="store_true",
        default=None,
        help="in folders, leave out what git ignores (the default)",
    )
    group.add_argument(
        "--no-respect-gitignore",
        dest="respect_gitignore",
        action="store_false",
        help="in folders, check what git ignores too",
    )


def resolve(args: argparse.Namespace) -> config.Settings:
    """The settings in force for this run (config.ConfigError when the file is bad)."""
    given = {key: getattr(args, dest, None) for dest, key in _FROM_OPTIONS.items()}
    if getattr(args, "per_file_ignores", None):
        given["per-file-ignores"] = args.per_file_ignores
    if getattr(args, "per_file_rules", None):
        given["per-file-rules"] = args.per_file_rules
    settings = config.resolve(DEFAULTS, given, config=args.config, isolated=args.isolated)
    problems = _selector_problems(settings)
    if problems:
        raise config.ConfigError("; ".join(problems))
    args.level, args.profile, args.hidden = settings.get("level"), settings.get("profile"), settings.get("hidden")
    args.output, args.max_line_bytes = settings.get("output-format"), settings.get("max-line-bytes")
    args.max_errors = settings.get("max-errors")
    return settings


_CODE_KEYS = ("select", "extend-select", "ignore", "extend-ignore")


def _selector_problems(settings: config.Settings) -> List[str]:
    """Each code or glob of the settings that selects nothing, named where it was given: a
    typo must not pass every file (ruff refuses an unknown rule selector too)."""
    problems: List[str] = []
    for key in _CODE_KEYS + ("per-file-ignores",):
        value = settings.get(key)
        source = settings.sources.get(key, "default")
        if value is None or source == "default":
            continue
        on_line = source == "command line"
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


def _nothing_left(settings: config.Settings) -> List[str]:
    """An empty selection once the ignores are applied (`--ignore '*'`): every file would
    pass, whatever it holds; refused as an empty `--select` is."""
    if not policy(settings).reports_nothing():
        return []
    return [
        "the selected codes less the ignored ones leave none to report: every file would pass; "
        "name fewer in --ignore (or ignore), or more in --select (or select)"
    ]


def nothing_left_in(settings: config.Settings, names: List[str]) -> Optional[str]:
    """Why the run is refused when the per-file ignores leave no code to report in any file
    it checks (`names`, as their diagnostics name them): every file would pass, whatever
    it holds, however the patterns are spelt (`*`, `?*`, `*.sgn`), from the file or the
    command line alike (`Policy.reports_nothing`). None when some file has a code left."""
    run = policy(settings)
    if not run.reports_nothing(names):
        return None
    source = settings.sources.get("per-file-ignores", "default")
    table = "[tool.sgn] " if source.endswith("pyproject.toml") else ""
    where = "--per-file-ignores" if source == "command line" else f"{source}: {table}per-file-ignores"
    globs = ", ".join(repr(glob) for glob, _ in run.per_file_of(names[0]))
    return (
        f"{where} leave no code to report in any file checked ({names[0]} matches {globs}): "
        "every file would pass, whatever it holds; ignore fewer codes there, or check other files too"
    )


def policy(settings: config.Settings) -> Policy:
    """The reporting policy of the run (sgn/pipeline/policy.py), from the settings in force."""

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
    )


def rule_choice(settings: config.Settings) -> RuleChoice:
    """The rule profile of each file of the run (`rules`, `per-file-rules`), its patterns
    matched as the per-file ignores are."""
    per_file = tuple((settings.get("per-file-rules") or {}).items())
    base = str(settings.file.parent) if settings.file is not None else None
    return RuleChoice(settings.get("rules") or "standard", per_file, base)


def include(settings: config.Settings) -> List[str]:
    return list(settings.get("include") or []) + list(settings.get("extend-include") or [])


def exclude(settings: config.Settings) -> List[str]:
    return list(settings.get("exclude") or []) + list(settings.get("extend-exclude") or [])
