"""The command line: `sgn validate`, `sgn example`, `sgn replay`; the other commands add
their parsers from their own modules (`sgn.cli`, `sgn.cli.render`, `sgn.cli.conformance`).

Exit codes: 0 valid, 1 the data has errors, 2 usage error or a file that
cannot be read. No traceback reaches the user: an unexpected failure prints
one line (set SGN_DEBUG=1 to see the traceback).
"""
from __future__ import annotations

import argparse
import io
import os
import sys
from typing import List, Optional, Sequence

from ..layers.reader import DEFAULT_MAX_LINE_BYTES, STDIN_NAME, describe
from ..layers.schema import PROFILES, STRICT
from ..output import REPORTERS, colour
from ..output.report import ReportError, Tally
from ..packaged import VERSION as __version__
from ..pipeline.engine import LEVEL_CHOICES
from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE, job_count, nonempty, positive_int as _positive_int
from .streams import ClosedOutput, open_input, standard_input


class _Version(argparse.Action):
    """--version, with the build: worked out only when asked (it imports the fast path)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from ..layers.fastpath import COMPILED, compiled_modules
        compiled = compiled_modules()
        build = f"compiled: {', '.join(compiled)}" if compiled else "pure Python"
        libraries = "in use" if COMPILED else "not in use"
        print(f"sgn {__version__} ({build}; orjson and jsonschema-rs {libraries})")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sgn", description="Validate, test and convert SGN (Settlers Game Notation) game logs.")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the version, and which compiled code is in use, and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    validate = commands.add_parser(
        "validate", help="check SGN logs and report every problem, line by line",
        description="Check SGN logs (newline-delimited JSON, plain or gzip) and report every "
                    "problem with its line and JSON pointer. Exit 0 when valid, 1 when any "
                    "error is found, 2 on a usage error or a file that cannot be read.")
    validate.add_argument("files", nargs="*", metavar="PATH",
                          help="log files, folders (walked for *.sgn, *.sgn.gz, *.jsonl, *.ndjson) or "
                               "quoted globs; '-' or nothing reads standard input")
    validate.add_argument("--level", choices=LEVEL_CHOICES, default=None,
                          help="the last layer of checks to run; auto (the default) is rules for a log "
                               "that starts with a map (DM), semantic for any other")
    validate.add_argument("--profile", choices=PROFILES, default=None,
                          help="strict: the schema as written (default); compat: also read the "
                               "published SGN text's legacy encodings, with a warning each")
    validate.add_argument("-o", "--output", "--output-format", choices=sorted(REPORTERS), default=None,
                          help="output format (default: text); jsonl: one diagnostic a line; "
                               "junit, sarif: for CI test reports and code scanning")
    validate.add_argument("-q", "--quiet", action="store_true",
                          help="print errors only: no warnings, no summary")
    validate.add_argument("--color", choices=colour.CHOICES, default="auto",
                          help="colour the text output: auto (the default) on a terminal, unless "
                               "NO_COLOR is set or TERM is dumb; always; never")
    validate.add_argument("--stdin-filename", type=nonempty, metavar="NAME", default=STDIN_NAME,
                          help=f"the name of standard input in diagnostics (default: {STDIN_NAME})")
    validate.add_argument("-j", "--jobs", type=job_count, default=1, metavar="N",
                          help="check files in N processes (the output keeps the files' order); "
                               "0 or auto: one per core")
    validate.add_argument("--max-line-bytes", type=_positive_int, default=None,
                          metavar="N", help=f"skip longer lines with an error (default: {DEFAULT_MAX_LINE_BYTES})")
    validate.add_argument("--max-errors", type=_positive_int, default=None, metavar="N",
                          help="stop checking a file after N errors, and say so (default: no limit)")
    validate.add_argument("--output-file", metavar="FILE",
                          help="write the report to FILE instead of standard output (-o parquet needs one)")
    validate.add_argument("--dask", metavar="ADDRESS|local[:N]",
                          help="check the files on a Dask cluster: a scheduler's address (tcp://host:8786), "
                               "or local[:N] for N workers on this machine (needs the extra 'dask')")
    from .settings import add_options
    add_options(validate)
    validate.set_defaults(run=run_validate)

    example = commands.add_parser("example", help="print a bundled example game",
                                  description="Print a bundled example SGN log, or list them.")
    example.add_argument("name", nargs="?", help="the example's name; none lists them")
    example.add_argument("--path", action="store_true", help="print the file's path instead")
    example.set_defaults(run=run_example)

    replay = commands.add_parser(
        "replay", help="replay a game under the rules and print its state",
        description="Replay an SGN log under the rules of the base game and print the state: "
                    "hands, pieces, robber, cards, points, longest road, largest army, whose turn. "
                    "Problems found on the way go to standard error.")
    replay.add_argument("file", metavar="FILE", help="the log ('-' reads standard input)")
    replay.add_argument("--at", type=_positive_int, metavar="LINE",
                        help="the state after this line (default: the end)")
    replay.add_argument("-o", "--output", choices=("text", "json", "hsn"), default="text",
                        help="text (default), json, or hsn: the Hexil State Notation (seed 000)")
    replay.add_argument("--hsn-version", choices=("000", "002"), default="000",
                        help="with -o hsn: the bracketed version (000, default) or the earlier one (002)")
    replay.add_argument("--profile", choices=PROFILES, default=STRICT)
    replay.set_defaults(run=run_replay)

    from . import generate
    generate.add_parser(commands)

    from .render import add_render_parser
    add_render_parser(commands)
    from .conformance import add_parsers
    add_parsers(commands)
    from .report import add_report_parser
    add_report_parser(commands)

    from . import codes, completion, corpus, notation
    notation.add_parsers(commands)
    codes.add_parser(commands)
    corpus.add_parser(commands)
    completion.add_parser(commands, parser)
    return parser


def run_validate(args: argparse.Namespace, out) -> int:
    """Every usage check first, the output file opened last (sgn/cli/output_file.py): a usage
    error writes nothing, and an output that is an input is refused before it is opened."""
    from .. import cluster
    from ..packaged import SetupError
    from ..pipeline import files
    from . import settings as validate_settings
    from .config import ConfigError
    from .output_file import OutputError, open_output, refuse_inputs

    try:
        settings = validate_settings.resolve(args)
    except ConfigError as error:
        sys.stderr.write(f"sgn validate: {error}\n")
        return EXIT_USAGE
    if args.show_settings:
        return _show_settings(args, settings, out)
    if (args.files or []).count("-") > 1:
        sys.stderr.write("sgn validate: standard input ('-') is named twice: it can be read once\n")
        return EXIT_USAGE
    if args.output not in REPORTERS:
        sys.stderr.write(f"sgn validate: output format {args.output!r} is not known here "
                         f"(known: {', '.join(sorted(REPORTERS))})\n")
        return EXIT_USAGE
    if not args.files and sys.stdin is not None and sys.stdin.isatty():
        sys.stderr.write("sgn validate: no input: give log files, or pipe a log into `sgn validate -`\n")
        return EXIT_USAGE
    binary = args.output == "parquet"
    if binary and args.output_file is None and not isinstance(out, (io.RawIOBase, io.BufferedIOBase)):
        sys.stderr.write("sgn validate: -o parquet writes a binary table: name its file with --output-file FILE\n")
        return EXIT_USAGE
    if args.dask is not None and args.jobs != 1:
        sys.stderr.write("sgn validate: --jobs and --dask cannot be used together: the cluster's workers are the jobs\n")
        return EXIT_USAGE
    paths = files.collect(args.files or ["-"], include=validate_settings.include(settings),
                          exclude=validate_settings.exclude(settings),
                          respect_gitignore=bool(settings.get("respect-gitignore")))
    if not paths:
        sys.stderr.write("sgn validate: no log files found in " + ", ".join(args.files) + "\n")
        return EXIT_USAGE
    try:
        if args.output == "parquet":            # its extra, before anything is checked
            from ..output.parquet import require
            require()
        paths = cluster.expand(paths)       # URLs' globs too, before the output is judged
        if args.output_file is not None:     # (the configuration file is an input too)
            read = paths + ([str(settings.file)] if settings.file is not None else [])
            refuse_inputs(args.output_file, read, urls=True)
        runner = cluster.connect(args.dask, stdin=standard_input(), stdin_name=describe(args.stdin_filename))
    except (OutputError, SetupError) as error:
        sys.stderr.write(f"sgn validate: {error}\n")
        return EXIT_USAGE
    if args.output_file is None:
        return _validate(args, settings, paths, runner, out)
    try:
        target = open_output(args.output_file, binary=binary)
    except OutputError as error:
        if runner is not None:
            runner.close()
        sys.stderr.write(f"sgn validate: {error}\n")
        return EXIT_USAGE
    with target:
        return _validate(args, settings, paths, runner, target)


def _show_settings(args: argparse.Namespace, settings, out) -> int:
    """--show-settings: to standard output, or to --output-file (never over the configuration)."""
    from .output_file import OutputError, open_output, refuse_inputs
    if args.output_file is None:
        out.write(settings.show())
        return EXIT_OK
    try:
        refuse_inputs(args.output_file, [str(settings.file)] if settings.file is not None else [])
        with open_output(args.output_file) as target:
            target.write(settings.show())
    except OutputError as error:
        sys.stderr.write(f"sgn validate: {error}\n")
        return EXIT_USAGE
    return EXIT_OK


def _validate(args: argparse.Namespace, settings, paths: List[str], runner, out) -> int:
    """Check the files and report them on `out`; the exit status."""
    from ..output.report import Progress
    from ..pipeline import executors as jobs
    from . import settings as validate_settings

    color = colour.wanted(args.color, out, os.environ)
    fail_on_warnings = settings.get("fail-on") == "warning"
    reporter = REPORTERS[args.output](out, quiet=args.quiet, color=color, fail_on_warnings=fail_on_warnings)
    progress = Progress.for_terminal(sys.stderr, len(paths))
    tally = Tally(fail_on_warnings=fail_on_warnings)
    reporter.start()
    options = jobs.Options(args.level, args.profile, args.max_line_bytes, validate_settings.policy(settings))
    executor: jobs.Executor = runner if runner is not None else jobs.Pool(
        args.jobs, stdin=standard_input(), stdin_name=describe(args.stdin_filename))
    results = executor.results(paths, options)
    try:
        for result in results:
            tally.start(result)
            for diagnostic in result.diagnostics:      # (what the policy reports: sgn/pipeline/policy.py)
                if reporter.wants(diagnostic):
                    progress.clear()
                    reporter.diagnostic(diagnostic)
            tally.done(result)
            reporter.file_done(result)
            progress.advance(tally)
    except (jobs.JobsError, ReportError) as error:
        progress.clear()
        sys.stderr.write(f"sgn validate: {error}\n")
        return EXIT_USAGE
    finally:
        results.close()             # the workers and their spools go now, whatever happened
    progress.clear()
    reporter.finish(tally)
    return tally.exit_code


def run_example(args: argparse.Namespace, out) -> int:
    from ..packaged import example_games

    games = example_games()
    if not args.name:
        for name in games:
            out.write(name + "\n")
        return EXIT_OK
    if args.name not in games:
        sys.stderr.write(f"sgn example: no example named {args.name!r}; "
                         f"there are: {', '.join(games) or 'none'}\n")
        return EXIT_USAGE
    path = games[args.name]
    out.write(str(path) + "\n" if args.path else path.read_text(encoding="utf-8"))
    return EXIT_OK


def run_replay(args: argparse.Namespace, out) -> int:
    import json

    from ..output.report import TextReporter
    from ..pipeline.replay import render_state, replay

    source, name = open_input(args.file)
    errors = TextReporter(sys.stderr)
    state, found = replay(source, name=name, at=args.at, profile=args.profile, report=errors.diagnostic)
    if state is None:
        return EXIT_USAGE
    if args.output == "hsn":
        from ..notation import hsn
        try:
            text = hsn.format_state(state["game"])
            out.write(text if args.hsn_version == "000" else hsn.render_002(hsn.parse(text)))
        except ValueError as error:
            sys.stderr.write(f"sgn replay: {error}\n")
            return EXIT_USAGE
    else:
        state.pop("game")
        out.write(json.dumps(state, indent=1) + "\n" if args.output == "json" else render_state(state))
    return EXIT_INVALID if found else EXIT_OK


def main(argv: Optional[Sequence[str]] = None, out=None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    if sys.stderr is None:      # closed (`2>&-`): messages are lost, the exit status still tells
        sys.stderr = open(os.devnull, "w")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    if out is None:
        out = sys.stdout if sys.stdout is not None else ClosedOutput()
        if hasattr(out, "reconfigure"):
            out.reconfigure(errors="backslashreplace")
    try:
        return args.run(args, out)
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
    except Exception as error:  # the last line of defence: never a traceback
        if os.environ.get("SGN_DEBUG"):
            raise
        sys.stderr.write(f"sgn: internal error: {type(error).__name__}: {error} "
                         "(set SGN_DEBUG=1 for details, and please report it)\n")
        return EXIT_USAGE


__all__: List[str] = ["main", "build_parser"]
