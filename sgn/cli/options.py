"""The table of the settings of `sgn validate`: each option once, after ruff's
`crates/ruff_workspace/src/options.rs`, with its key in a configuration file, its
command-line flags, its kind (how a value is read and checked), its default, a line of
documentation and an example.

Everything else is derived from `OPTIONS`: the arguments of the parser (`add`, in the
order a command lists them, their `--help` lines as written here), the checks of a
configuration file's keys (`check`, used by sgn/cli/config.py), the defaults the merge
starts from (`defaults`, sgn/cli/settings.py) and the table of docs/configuration.md
(`markdown`, which t/test_options.py keeps the page equal to). Options a file cannot set (`-q`, `--jobs`, `--config`...) are not here:
they belong to one run, and their command keeps them.

The option syntax of ruff holds for the lists: `--select a,b --select c` (commas and
repeats), `--per-file-ignores 'GLOB:CODES'`.

Longer than 400 lines: the table is one list, read from top to bottom, each row the one
place of its option, with the kinds its rows name just above it.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..game.rule_profiles import CHOICES as RULES_CHOICES
from ..layers.hidden import CHOICES as HIDDEN_CHOICES
from ..layers.reader import DEFAULT_MAX_LINE_BYTES
from ..layers.schema import PROFILES, STRICT, V1
from ..layers.stages import LEVEL_CHOICES
from ..output import REPORTERS
from ..pipeline.files import DEFAULT_EXCLUDE, DEFAULT_INCLUDE
from ..pipeline.policy import FAIL_ON
from .exits import positive_int

# -- the syntax of a value on the command line ------------------------------------------


def split_codes(text: str) -> List[str]:
    """`--select a,b --select c` as ruff reads it: commas and repeats."""
    return [c.strip() for c in text.split(",") if c.strip()]


def per_file_option(text: str) -> Tuple[str, List[str]]:
    """`--per-file-ignores 'GLOB:code,code'`."""
    glob, sep, codes = text.rpartition(":")
    if not sep or not glob:
        raise ValueError("expected GLOB:CODE[,CODE...]")
    return glob, split_codes(codes)


def per_file_rules_option(text: str) -> Tuple[str, str]:
    """`--per-file-rules 'GLOB:RULES'`."""
    glob, sep, name = text.rpartition(":")
    if not sep or not glob:
        raise ValueError("expected GLOB:RULES")
    _choice(RULES_CHOICES)(name)
    return glob, name


class _Codes(argparse.Action):
    """`--select a,b --select c`: commas and repeats, as ruff reads them."""

    def __call__(self, parser, namespace, values, option_string=None):
        got = getattr(namespace, self.dest) or []
        setattr(namespace, self.dest, got + split_codes(values))


class _PerFile(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        try:
            glob, codes = per_file_option(values)
        except ValueError as error:
            parser.error(f"{option_string} {values!r}: {error}")
        got = dict(getattr(namespace, self.dest) or {})
        got[glob] = got.get(glob, []) + codes
        setattr(namespace, self.dest, got)


class _PerFileRules(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        try:
            glob, name = per_file_rules_option(values)
        except ValueError as error:
            parser.error(f"{option_string} {values!r}: {error}")
        setattr(namespace, self.dest, dict(getattr(namespace, self.dest) or {}, **{glob: name}))


# -- the checks of a value in a configuration file (ValueError: what it must be) --------


def _choice(options: Sequence[str]) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value not in options:
            raise ValueError(f"must be one of {', '.join(options)}")
        return value

    return check


def _positive(value: Any) -> int:
    if type(value) is not int or value < 1:
        raise ValueError("must be a whole number of at least 1")
    return value


def _codes(value: Any) -> List[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError('must be a list of codes or patterns ("schema-*")')
    return list(value)


def _globs(value: Any) -> List[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError("must be a list of glob patterns")
    return list(value)


def _per_file(value: Any) -> Dict[str, List[str]]:
    if not isinstance(value, dict):
        raise ValueError("must be a table of glob = [codes]")
    return {str(k): _codes(v) for k, v in value.items()}


def _per_file_rules(value: Any) -> Dict[str, str]:
    if not isinstance(value, dict):
        raise ValueError("must be a table of glob = rules")
    check = _choice(RULES_CHOICES)
    out = {}
    for glob, name in value.items():
        try:
            out[str(glob)] = check(name)
        except ValueError as error:
            raise ValueError(f"{str(glob)!r} {error}") from None
    return out


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("must be true or false")
    return value


# -- the kinds of option: how the file checks a value, how the command line reads one ---


class Kind(NamedTuple):
    """How a value of an option is read: `check` in a file, `argument` on the command line
    (argparse's keywords, `action` and `metavar` among them); `name` says what it is, in
    the docs' table."""

    name: str
    check: Callable[[Any], Any]
    argument: Tuple[Tuple[str, Any], ...] = ()


CHOICE = Kind("one of", _choice(()))  # (its check made with the option's choices)
COUNT = Kind("a whole number, at least 1", _positive, (("type", positive_int), ("metavar", "N")))
CODES = Kind("a list of codes", _codes, (("action", _Codes), ("metavar", "CODES")))
GLOBS = Kind("a list of globs", _globs, (("action", "append"), ("metavar", "GLOB")))
PER_FILE_IGNORES = Kind("a table of glob = codes", _per_file, (("action", _PerFile), ("metavar", "GLOB:CODES")))
PER_FILE_RULES = Kind(
    "a table of glob = rules", _per_file_rules, (("action", _PerFileRules), ("metavar", "GLOB:RULES"))
)
SWITCH = Kind("true or false", _bool)  # --name and --no-name


class Option(NamedTuple):
    """One setting: its key in the file, its flags (none: the file only), its kind, its
    default (None: unset, and not shown), its line in docs/configuration.md (`doc`), an
    example value (TOML), and its `--help` line (`help`, `help_off` for `--no-...`)."""

    name: str
    kind: Kind
    default: Any
    doc: str
    example: str
    flags: Tuple[str, ...] = ()
    help: str = ""
    help_off: str = ""
    choices: Tuple[str, ...] = ()
    dest: str = ""  # (the name with _ for -, unless said)
    shown_default: str = ""  # how the doc shows the default, when not as TOML

    @property
    def attribute(self) -> str:
        """Where argparse puts the value given on the command line."""
        return self.dest or self.name.replace("-", "_")

    def check(self, value: Any) -> Any:
        """The value of a file, checked (ValueError: what it must be)."""
        return _choice(self.choices)(value) if self.kind is CHOICE else self.kind.check(value)

    def add_to(self, parser: Any, default: Any = None) -> None:
        """This option's arguments on `parser` (a parser or a group); its value None unless
        given, so that the merge knows what the command line said."""
        if self.kind is SWITCH:
            on, off = self.flags
            parser.add_argument(on, dest=self.attribute, action="store_true", default=default, help=self.help)
            parser.add_argument(off, dest=self.attribute, action="store_false", help=self.help_off)
            return
        keywords: Dict[str, Any] = dict(self.kind.argument)
        if self.choices:
            keywords["choices"] = self.choices
        if self.dest:
            keywords["dest"] = self.dest
        parser.add_argument(*self.flags, default=default, help=self.help, **keywords)


OPTIONS: Tuple[Option, ...] = (
    Option(
        "level",
        CHOICE,
        "auto",
        "the last layer of checks: syntax, schema, semantic, rules (auto: rules for a log that starts with a map)",
        '"rules"',
        ("--level",),
        "the last layer of checks to run; auto (the default) is rules for a log "
        "that starts with a map (DM), semantic for any other",
        choices=LEVEL_CHOICES,
    ),
    Option(
        "profile",
        CHOICE,
        "strict",
        "`compat` also reads the published text's legacy encodings, with a warning each; `v1.0` reads "
        "SGN v1.0 alone: each extension (a hidden value, a record line) is an error",
        '"compat"',
        ("--profile",),
        "strict: the schema as written, with its extensions (default); compat: also read the "
        "published SGN text's legacy encodings, with a warning each; v1.0: SGN v1.0 alone, each "
        "extension (a hidden value ?, a header, an end of turn) an error",
        choices=PROFILES,
    ),
    Option(
        "hidden",
        CHOICE,
        "allow",
        "`refuse`: a card or roll the log does not show (`?`, docs/hidden.md) is an error, `hidden-value`, "
        "for logs that must show every card; the message is still read, as hidden",
        '"refuse"',
        ("--hidden",),
        "allow (default): a card or roll the log does not show, written ?, is judged "
        "as docs/hidden.md says; refuse: each is an error (hidden-value), for logs that "
        "must show every card",
        choices=HIDDEN_CHOICES,
    ),
    Option(
        "rules",
        CHOICE,
        "auto",
        "the rules the games are replayed under: `auto`, the profile each game's header names (docs/format.md, "
        '"Records"), else the rulebook\'s; `standard` (the rulebook), `catanatron` or `jsettlers` '
        '(the engine\'s own, a set of departures from the rulebook: docs/engines.md, "Rule profiles")',
        '"catanatron"',
        ("--rules",),
        "the rules a game is replayed under: auto (default: the profile its header names, else "
        "standard), standard (the rulebook), or an engine's own, catanatron or jsettlers, each a set "
        "of departures from the rulebook (docs/engines.md)",
        choices=RULES_CHOICES,
    ),
    Option(
        "per-file-rules",
        PER_FILE_RULES,
        None,
        "a table of glob = rules: the files matching the glob are replayed under those rules "
        "(the first glob that matches, in order, wins; matched as `per-file-ignores` are)",
        '{ "bots/catanatron/**" = "catanatron" }',
        ("--per-file-rules",),
        "replay the files matching GLOB under these rules (repeatable; the first that matches wins)",
    ),
    Option(
        "select",
        CODES,
        ["ALL"],
        'report only these codes: exact codes or globs (`"schema-*"`), `ALL` for every code',
        '["schema-*", "site-occupied"]',
        ("--select",),
        "report only these codes (comma-separated; globs such as 'schema-*'; ALL)",
    ),
    Option(
        "extend-select",
        CODES,
        None,
        "more codes, beside `select`",
        '["map-*"]',
        ("--extend-select",),
        "report these too, beside what is selected",
    ),
    Option(
        "ignore",
        CODES,
        [],
        "never report these codes (globs too)",
        '["map-nonstandard-numbers"]',
        ("--ignore",),
        "never report these codes",
    ),
    Option(
        "extend-ignore",
        CODES,
        None,
        "more, beside `ignore`",
        '["trade-rate"]',
        ("--extend-ignore",),
        "ignore these too, beside what is ignored",
    ),
    Option(
        "per-file-ignores",
        PER_FILE_IGNORES,
        None,
        "a table of glob = codes: codes ignored in the files matching the glob",
        '{ "archive/2019/*.sgn" = ["special-build-*"] }',
        ("--per-file-ignores",),
        "ignore codes in the files matching GLOB (repeatable)",
    ),
    Option(
        "fail-on",
        CHOICE,
        "error",
        "`warning`: warnings fail the run too (exit 1), as errors do",
        '"warning"',
        ("--fail-on",),
        "what fails the run: error (default), or warning too (warnings as errors)",
        choices=FAIL_ON,
    ),
    Option(
        "max-line-bytes",
        COUNT,
        DEFAULT_MAX_LINE_BYTES,
        "longer lines are skipped with an error",
        "1048576",
        ("--max-line-bytes",),
        f"skip longer lines with an error (default: {DEFAULT_MAX_LINE_BYTES})",
    ),
    Option(
        "max-errors",
        COUNT,
        None,
        "stop checking a file at its N-th error",
        "10",
        ("--max-errors",),
        "stop checking a file after N errors, and say so (default: no limit)",
        shown_default="none",
    ),
    Option(
        "output-format",
        CHOICE,
        "text",
        "the report's format (" + ", ".join(f"`{name}`" for name in REPORTERS) + ")",
        '"github"',
        ("-o", "--output", "--output-format"),
        "output format (default: text); jsonl: one diagnostic a line; "
        "junit, sarif: for CI test reports and code scanning",
        choices=tuple(sorted(REPORTERS)),
        dest="output",
    ),
    Option(
        "include",
        GLOBS,
        list(DEFAULT_INCLUDE),
        "the files a folder is searched for",
        '["*.sgn", "*.log"]',
    ),
    Option(
        "extend-include",
        GLOBS,
        None,
        "more patterns, beside `include`",
        '["*.log"]',
        ("--extend-include",),
        "in folders, also check files matching GLOB (beside *.sgn, *.sgn.gz, *.jsonl, *.ndjson)",
    ),
    Option(
        "exclude",
        GLOBS,
        list(DEFAULT_EXCLUDE),
        "files and folders passed over in folders",
        '["old"]',
        ("--exclude",),
        "in folders, pass over these files and folders (replaces the default list)",
        shown_default="".join(f"`{glob}`, " for glob in DEFAULT_EXCLUDE[:5]) + "...",
    ),
    Option(
        "extend-exclude",
        GLOBS,
        None,
        "more, beside `exclude`",
        '["drafts"]',
        ("--extend-exclude",),
        "in folders, pass over these too",
    ),
    Option(
        "respect-gitignore",
        SWITCH,
        True,
        "in folders, leave out what git ignores",
        "false",
        ("--respect-gitignore", "--no-respect-gitignore"),
        "in folders, leave out what git ignores (the default)",
        help_off="in folders, check what git ignores too",
    ),
)

BY_NAME: Dict[str, Option] = {option.name: option for option in OPTIONS}


def defaults() -> Dict[str, Any]:
    """What is in force when neither a file nor the command line says otherwise (a fresh
    copy: a list of it may be extended by the caller)."""
    return {
        o.name: list(o.default) if isinstance(o.default, list) else o.default for o in OPTIONS if o.default is not None
    }


def add(parser: Any, *names: str) -> None:
    """The arguments of the options `names` on `parser`, in that order (the order of `--help`)."""
    for name in names:
        BY_NAME[name].add_to(parser)


def add_rules_option(parser: argparse.ArgumentParser, default: Optional[str] = None) -> None:
    """`--rules`: the rule profile a game is replayed under (sgn/game/rule_profiles.py), on the
    commands that replay without the settings of `sgn validate` (their own default)."""
    BY_NAME["rules"].add_to(parser, default)


def add_written_profile(parser: argparse.ArgumentParser) -> None:
    """`--profile` of a command that writes SGN: `strict` writes the record lines (a header,
    the end of a turn: docs/format.md, "Records"), `v1.0` leaves them out, for readers that
    know only SGN v1.0."""
    parser.add_argument(
        "--profile",
        choices=(STRICT, V1),
        default=STRICT,
        help="strict (default): write the record lines (a game's header, the end of a turn; "
        "docs/format.md); v1.0: leave them out, for readers that know only SGN v1.0",
    )


def given(args: argparse.Namespace) -> Dict[str, Any]:
    """What the command line set of each option, by key (None: not given)."""
    return {option.name: getattr(args, option.attribute, None) for option in OPTIONS}


def toml(value: Any) -> str:
    """A value as TOML writes it (inline), as `--show-settings` prints it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml(k)} = {toml(v)}" for k, v in value.items()) + " }"
    return str(value)


def markdown() -> str:
    """The table of docs/configuration.md, "Settings": a row an option."""

    def default(option: Option) -> str:
        if option.shown_default or option.default is None:
            return option.shown_default
        return f"`{toml(option.default)}`"

    def kind(option: Option) -> str:
        return "one of " + ", ".join(f"`{c}`" for c in option.choices) if option.choices else option.kind.name

    rows = ["| key | option | kind | default | what it does | example |", "|---|---|---|---|---|---|"]
    for option in OPTIONS:
        flags = ", ".join(f"`{flag}`" for flag in option.flags)
        if option.kind in (PER_FILE_IGNORES, PER_FILE_RULES):
            flags = f"`{option.flags[0]} {dict(option.kind.argument)['metavar']}`"
        elif option.kind is SWITCH:
            flags = f"`--[no-]{option.name}`"
        example = f"`{option.name} = {option.example}`"
        rows.append(f"| `{option.name}` | {flags} | {kind(option)} | {default(option)} | {option.doc} | {example} |")
    return "\n".join(rows) + "\n"
