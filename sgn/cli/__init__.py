"""The command line: `sgn example`, `sgn replay`, and `main`; the other commands add
their parsers from their own modules (`sgn.cli.validate`, `sgn.cli.render`, `sgn.cli.conformance`).

Exit codes: 0 valid, 1 the data has errors, 2 usage error or a file that
cannot be read. No traceback reaches the user: an unexpected failure prints
one line (set SGN_DEBUG=1 to see the traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, List, Optional, Sequence

from ..layers.schema import PROFILES
from ..packaged import VERSION as __version__
from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE, positive_int as _positive_int
from .options import add_rules_option
from .output_file import OutputError
from .streams import ClosedOutput, StandardOutput, open_input


class _Version(argparse.Action):
    """--version, with the build: worked out only when asked (it imports the fast path)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from ..layers.fastpath import COMPILED, compiled_modules

        compiled = compiled_modules()
        build = f"compiled: {', '.join(compiled)}" if compiled else "pure Python"
        libraries = "in use" if COMPILED else "not in use"
        print(f"sgn {__version__} ({build}; orjson and jsonschema-rs {libraries})")
        parser.exit()


class _Skipped:
    """What `add_parser` gives for a command the run does not ask for: it takes any call and
    keeps nothing, so that its arguments cost nothing to declare."""

    def __getattr__(self, name: str) -> Any:
        return self._ignore

    def _ignore(self, *args: Any, **kwargs: Any) -> "_Skipped":
        return self


class _Formatter(argparse.HelpFormatter):
    """argparse's help, as wide as the terminal, its width read as `shutil` reads it but
    without importing it (argparse does, with bz2 and lzma, for every argument declared:
    2 ms of every run's start, asked for help or not)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: Any = None):
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


def _columns() -> int:
    try:
        return max(int(os.environ["COLUMNS"]), 1)
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """An argument parser whose help is `_Formatter`'s, its commands' parsers too."""

    def __init__(self, *args: Any, **options: Any):
        options.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **options)


class _Commands:
    """The subparsers action, declaring only the command named `only` (None: all)."""

    def __init__(self, action: Any, only: Optional[str]):
        self.action, self.only = action, only
        self.declared = False

    def add_parser(self, name: str, **options: Any) -> Any:
        if self.only is None or name == self.only or self.only in options.get("aliases", ()):
            self.declared = True
            return self.action.add_parser(name, **options)
        return _Skipped()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.action, name)


# The commands, by the names each declaration gives, in the order `sgn --help` lists them.
_COMMANDS = (
    ("validate",),
    ("example", "replay"),
    ("moves", "perft"),
    ("generate",),
    ("play",),
    ("render",),
    ("conformance", "smoke"),
    ("report",),
    ("parse", "convert"),
    ("redact",),
    ("codes",),
    ("corpus",),
    ("completion",),
)


def _declare(first: str, commands: Any, parser: argparse.ArgumentParser) -> None:
    """Declare the commands whose first name is `first`, importing their module (only when
    a run needs them)."""
    if first == "validate":
        from .validate import add_validate_parser

        add_validate_parser(commands)
    elif first == "example":
        _add_here(commands)
    elif first == "moves":
        from . import moves

        moves.add_parsers(commands)
    elif first == "generate":
        from . import generate

        generate.add_parser(commands)
    elif first == "play":
        from . import play

        play.add_parser(commands)
    elif first == "render":
        from .render import add_render_parser

        add_render_parser(commands)
    elif first == "conformance":
        from .conformance import add_parsers

        add_parsers(commands)
    elif first == "report":
        from .report import add_report_parser

        add_report_parser(commands)
    elif first == "parse":
        from . import notation

        notation.add_parsers(commands)
    elif first == "redact":
        from . import redact

        redact.add_parser(commands)
    elif first == "codes":
        from . import codes

        codes.add_parser(commands)
    elif first == "corpus":
        from . import corpus

        corpus.add_parser(commands)
    elif first == "completion":
        from . import completion

        completion.add_parser(commands, parser)


def _add_here(commands: Any) -> None:
    """`sgn example` and `sgn replay`."""
    example = commands.add_parser(
        "example", help="print a bundled example game", description="Print a bundled example SGN log, or list them."
    )
    example.add_argument("name", nargs="?", help="the example's name; none lists them")
    example.add_argument("--path", action="store_true", help="print the file's path instead")
    example.set_defaults(run=run_example)

    replay = commands.add_parser(
        "replay",
        help="replay a game under the rules and print its state",
        description="Replay an SGN log under the rules of the base game and print the state: "
        "hands, pieces, robber, cards, points, longest road, largest army, whose turn. "
        "Problems found on the way go to standard error.",
    )
    replay.add_argument("file", metavar="FILE", help="the log ('-' reads standard input)")
    replay.add_argument("--at", type=_positive_int, metavar="LINE", help="the state after this line (default: the end)")
    replay.add_argument(
        "-o",
        "--output",
        choices=("text", "json", "hsn"),
        default="text",
        help="text (default), json, or hsn: the Hexil State Notation (seed 000)",
    )
    replay.add_argument(
        "--hsn-version",
        choices=("000", "002"),
        default="000",
        help="with -o hsn: the bracketed version (000, default) or the earlier one (002)",
    )
    replay.add_argument(
        "--profile", choices=PROFILES, help="strict, compat or v1.0 (default: the configuration's, or strict)"
    )
    add_rules_option(replay)
    replay.set_defaults(run=run_replay)


def build_parser(only: Optional[str] = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only`, the parser of that command alone is declared
    (a run needs no other: declaring all of them costs a fifth of a short run's time)."""
    parser = _Parser(prog="sgn", description="Validate, test and convert SGN (Settlers Game Notation) game logs.")
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="show the version, and which compiled code is in use, and exit"
    )
    commands: Any = _Commands(parser.add_subparsers(dest="command", metavar="COMMAND"), only)

    for names in _COMMANDS:
        if only is None or only in names:
            _declare(names[0], commands, parser)
    if only is not None and not commands.declared:  # no such command: argparse says so, with all
        return build_parser()
    return parser


def _parser_for(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser for a run: the command's alone when the first argument names one (the
    completion script describes every command, so it declares them all)."""
    first = argv[0] if argv else ""
    named = first and not first.startswith("-") and first != "completion"
    return build_parser(first if named else None)


def run_example(args: argparse.Namespace, out) -> int:
    from ..packaged import example_games

    games = example_games()
    if not args.name:
        for name in games:
            out.write(name + "\n")
        return EXIT_OK
    if args.name not in games:
        sys.stderr.write(f"sgn example: no example named {args.name!r}; there are: {', '.join(games) or 'none'}\n")
        return EXIT_USAGE
    path = games[args.name]
    out.write(str(path) + "\n" if args.path else path.read_text(encoding="utf-8"))
    return EXIT_OK


def run_replay(args: argparse.Namespace, out) -> int:
    import json

    from ..output.reporters import TextReporter
    from ..pipeline.replay import render_state, replay
    from .settings import for_file_or_say

    chosen = for_file_or_say(args, args.file, "replay")
    if chosen is None:
        return EXIT_USAGE
    source, name = open_input(args.file)
    errors = TextReporter(sys.stderr)
    position, found = replay(source, name=name, at=args.at, checking=chosen, report=errors.diagnostic)
    if position is None:
        return EXIT_USAGE
    if args.output == "hsn":
        from ..notation import hsn

        try:
            text = hsn.format_state(position.game)
            out.write(text if args.hsn_version == "000" else hsn.render_002(hsn.parse(text)))
        except ValueError as error:
            sys.stderr.write(f"sgn replay: {error}\n")
            return EXIT_USAGE
    else:
        state = position.snapshot()
        from ..layers.records import player_names
        from .players import known_names

        names = {**known_names(args.file, "replay"), **player_names(state.get("header"))}  # (the header first)
        if names:
            state["names"] = names  # (the engine's, kept beside the log: docs/format.md)
        out.write(json.dumps(state, indent=1) + "\n" if args.output == "json" else render_state(state))
    return EXIT_INVALID if found else EXIT_OK


def main(argv: Optional[Sequence[str]] = None, out=None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    if sys.stderr is None:  # closed (`2>&-`): messages are lost, the exit status still tells
        sys.stderr = open(os.devnull, "w")
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser_for(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if out is None:
        out = sys.stdout if sys.stdout is not None else ClosedOutput()
        if hasattr(out, "reconfigure"):
            out.reconfigure(errors="backslashreplace")
        if sys.stdout is not None:
            out = StandardOutput(out)
    try:
        status = args.run(args, out)
        out.flush()  # here, not at exit: a full disk is said as any other failure to write
        return status
    except KeyboardInterrupt:
        sys.stderr.write("sgn: interrupted\n")
        return 130
    except BrokenPipeError:
        # the reader of our output went away (`| head`): stop quietly
        if sys.stdout is not None:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_INVALID
    except ClosedOutput.Closed:
        sys.stderr.write("sgn: cannot write standard output: it is closed\n")
        return EXIT_USAGE
    except OutputError as error:  # standard output (or a file a command did not catch for) failed
        sys.stderr.write(f"sgn: {error}\n")
        return EXIT_USAGE
    except Exception as error:  # the last line of defence: never a traceback
        if os.environ.get("SGN_DEBUG"):
            raise
        sys.stderr.write(
            f"sgn: internal error: {type(error).__name__}: {error} "
            "(set SGN_DEBUG=1 for details, and please report it)\n"
        )
        return EXIT_USAGE


__all__: List[str] = ["main", "build_parser"]
