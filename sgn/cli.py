"""The command line: `sgn validate`, `sgn example`.

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

from . import __version__
from .reader import DEFAULT_MAX_LINE_BYTES, describe
from .report import REPORTERS, Tally, printable
from .schema import PROFILES, STRICT
from .streams import ClosedOutput, standard_input
from .validate import DEFAULT_LEVEL, LEVEL_CHOICES
from .words import count

from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from .exits import positive_int as _positive_int


class _Version(argparse.Action):
    """--version, with the build: worked out only when asked (it imports the fast path)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from .fastpath import COMPILED, compiled_modules
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
    validate.add_argument("files", nargs="*", metavar="FILE",
                          help="log files to check; '-' or nothing reads standard input")
    validate.add_argument("--level", choices=LEVEL_CHOICES, default=DEFAULT_LEVEL,
                          help="the last layer of checks to run; auto (the default) is rules for a log "
                               "that starts with a map (DM), semantic for any other")
    validate.add_argument("--profile", choices=PROFILES, default=STRICT,
                          help="strict: the schema as written (default); compat: also read the "
                               "seed's legacy encodings, with a warning each")
    validate.add_argument("-o", "--output", choices=sorted(REPORTERS), default="text",
                          help="output format (default: text)")
    validate.add_argument("-q", "--quiet", action="store_true",
                          help="print errors only: no warnings, no summary")
    validate.add_argument("-j", "--jobs", type=_positive_int, default=1, metavar="N",
                          help="check files in N processes (the output keeps the files' order)")
    validate.add_argument("--max-line-bytes", type=_positive_int, default=DEFAULT_MAX_LINE_BYTES,
                          metavar="N", help=f"skip longer lines with an error (default: {DEFAULT_MAX_LINE_BYTES})")
    validate.add_argument("--max-errors", type=_positive_int, default=None, metavar="N",
                          help="stop checking a file after N errors, and say so (default: no limit)")
    validate.add_argument("--output-file", metavar="FILE",
                          help="write the report to FILE instead of standard output (-o parquet needs one)")
    validate.add_argument("--dask", metavar="ADDRESS|local[:N]",
                          help="check the files on a Dask cluster: a scheduler's address (tcp://host:8786), "
                               "or local[:N] for N workers on this machine (needs the extra 'dask')")
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

    generate = commands.add_parser(
        "generate", help="make whole legal games, each ending with a winner",
        description="Make whole legal SGN games by playing random legal moves under the rules "
                    "replay. The same seed gives the same games.")
    generate.add_argument("--games", type=_positive_int, default=1, metavar="N")
    generate.add_argument("--players", type=int, choices=(3, 4, 5, 6), default=4,
                          help="3 or 4 on the standard board, 5 or 6 on the 5-6 player extension's "
                               "(with its Special Build Phase); default 4")
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument("-o", "--output", default="-", metavar="DIR|-",
                          help="a folder to write game-00001.sgn, ... into; '-' (the default) "
                               "writes the games one after another to standard output")
    generate.add_argument("--jobs", type=_positive_int, default=1, metavar="J",
                          help="processes to use (the games are the same for any J)")
    generate.set_defaults(run=run_generate)

    from .pictures.render import add_render_parser
    add_render_parser(commands)
    from .conformance.cli import add_parsers
    add_parsers(commands)

    parse = commands.add_parser(
        "parse", help="read HAN actions, HSGN turns or an HSN state and print their meaning",
        description="han: each line is a HAN action (seed 001); hsgn: each line holds HSGN turns "
                    "(seed 004); hsn: the whole input is one HSN state (seed 000, bracketed; hsn-002 "
                    "the earlier version). Print what it means in its standard form (text) or as JSON "
                    "(one object a line), and a diagnostic with line and column for what does not parse "
                    "(exit 1).")
    parse.add_argument("file", nargs="?", default="-", metavar="FILE")
    parse.add_argument("--notation", choices=("han", "hsn", "hsn-002", "hsgn"), default="han",
                       help="han (seed 001, the default), hsn (seed 000), hsn-002 (seed 002), hsgn (seed 004)")
    parse.add_argument("-o", "--output", choices=("text", "json"), default="text")
    parse.set_defaults(run=run_parse)

    convert = commands.add_parser(
        "convert", help="convert between SGN messages, HAN actions and HSGN turns",
        description="Convert through SGN. The input notation, unless --from says it, is detected from "
                    "the first non-blank line: SGN when it starts with [ or {, HSGN when it ends with "
                    "a period, else HAN. Each message or action with no counterpart in the other "
                    "notation gets a diagnostic, the rest is converted, and the exit status is 1.")
    convert.add_argument("file", nargs="?", default="-", metavar="FILE")
    convert.add_argument("--to", choices=("han", "hsgn", "sgn"), required=True)
    convert.add_argument("--from", dest="source", choices=("han", "hsgn", "sgn"),
                         help="the input notation (default: detected from the first line)")
    convert.add_argument("--player", default="1",
                         help="from HAN: the acting player (HAN names none but for discards)")
    convert.set_defaults(run=run_convert)

    codes = commands.add_parser("codes", help="list every diagnostic code",
                                description="List every diagnostic code: layer, severity, what triggers it.")
    codes.add_argument("--markdown", action="store_true",
                       help="print docs/codes.md (with an example from the corpus for each code)")
    codes.set_defaults(run=run_codes)

    corpus = commands.add_parser(
        "corpus", help="build or check the test corpus bundle",
        description="build: write test-corpus/cases.json from the YAML sources in test-corpus/src; "
                    "check: fail when the bundle is stale or the corpus is unsound.")
    corpus.add_argument("action", choices=("build", "check"))
    corpus.add_argument("--root", metavar="DIR", help="the test-corpus folder (default: this checkout's)")
    corpus.set_defaults(run=run_corpus)
    return parser


def run_validate(args: argparse.Namespace, out) -> int:
    from . import cluster, jobs
    from .report import Progress

    if args.output_file is not None:
        return _into_output_file(args, run_validate)
    if not args.files and sys.stdin is not None and sys.stdin.isatty():
        sys.stderr.write("sgn validate: no input: give log files, or pipe a log into `sgn validate -`\n")
        return EXIT_USAGE
    if args.output == "parquet" and not isinstance(out, (io.RawIOBase, io.BufferedIOBase)):
        sys.stderr.write("sgn validate: -o parquet writes a binary table: name its file with --output-file FILE\n")
        return EXIT_USAGE
    if args.dask is not None and args.jobs != 1:
        sys.stderr.write("sgn validate: --jobs and --dask cannot be used together: the cluster's workers are the jobs\n")
        return EXIT_USAGE
    try:        # URLs expanded, extras found, the cluster reached: before the report starts
        paths, runner = cluster.prepare(args.files or ["-"], dask=args.dask, output=args.output)
    except cluster.SetupError as error:
        sys.stderr.write(f"sgn validate: {error}\n")
        return EXIT_USAGE
    reporter = REPORTERS[args.output](out, quiet=args.quiet)
    progress = Progress.for_terminal(sys.stderr, len(paths))
    tally = Tally()
    reporter.start()
    options = (args.level, args.profile, args.max_line_bytes, args.max_errors)
    results = (runner.results(paths, options, stdin=standard_input()) if runner is not None
               else jobs.results(paths, options, jobs=args.jobs, stdin=standard_input()))
    try:
        for name, found, check in results:
            summary = tally.start(name)
            for diagnostic in found:
                tally.count(summary, diagnostic)
                if reporter.wants(diagnostic):
                    progress.clear()
                    reporter.diagnostic(diagnostic)
            summary.messages, summary.level = check.messages, (check.level if check.level != "auto" else "")
            summary.fragment, summary.games, summary.game_count = check.fragment, check.games, check.game_count
            progress.advance(tally)
    except jobs.JobsError as error:
        progress.clear()
        sys.stderr.write(f"sgn validate: {error}\n")
        return EXIT_USAGE
    finally:
        results.close()             # the workers and their spools go now, whatever happened
    progress.clear()
    reporter.finish(tally)
    return tally.exit_code


def _into_output_file(args: argparse.Namespace, run) -> int:
    """--output-file: the report written to a file (binary for -o parquet) instead of standard output."""
    path, args.output_file = args.output_file, None
    try:
        target = (open(path, "wb") if args.output == "parquet"
                  else open(path, "w", encoding="utf-8", errors="backslashreplace"))
    except OSError as error:
        sys.stderr.write(f"sgn validate: cannot write {describe(path)}: {error.strerror or error}\n")
        return EXIT_USAGE
    with target:
        return run(args, target)


def run_example(args: argparse.Namespace, out) -> int:
    from .packaged import example_games

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

    from .replay import replay, render_state
    from .report import TextReporter

    source = standard_input() if args.file == "-" else args.file
    name = "<stdin>" if args.file == "-" else describe(args.file)
    errors = TextReporter(sys.stderr)
    state, found = replay(source, name=name, at=args.at, profile=args.profile, report=errors.diagnostic)
    if state is None:
        return EXIT_USAGE
    if args.output == "hsn":
        from .notation import hsn
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


def _one_game(task) -> str:
    from .play import game_seed, random_game
    seed, index, players = task
    import json
    return "".join(json.dumps(m, separators=(",", ":")) + "\n"
                   for m in random_game(game_seed(seed, index), players))


def run_generate(args: argparse.Namespace, out) -> int:
    from pathlib import Path

    tasks = [(args.seed, i, args.players) for i in range(args.games)]
    folder = None
    if args.output != "-":
        folder = Path(args.output)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            sys.stderr.write(f"sgn generate: cannot create {describe(folder)}: {error.strerror}\n")
            return EXIT_USAGE
    if args.jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(args.jobs)
        texts = pool.imap(_one_game, tasks, chunksize=4)
    else:
        pool, texts = None, map(_one_game, tasks)
    try:
        for i, text in enumerate(texts, 1):
            if folder is None:
                out.write(text)
            else:
                (folder / f"game-{i:05d}.sgn").write_text(text, encoding="utf-8")
    finally:
        if pool is not None:
            pool.close()
    if folder is not None:
        sys.stderr.write(f"wrote {count(args.games, 'game')} to {describe(folder)}\n")
    return EXIT_OK


def _read_input(path: str):
    """The input of `sgn parse` and `sgn convert`, read as `sgn validate` reads a log."""
    from .convert import read_input
    return read_input(standard_input(), "<stdin>") if path == "-" else read_input(path, describe(path))


def _print_diagnostics(found) -> bool:
    """Diagnostics to standard error, like a compiler (with the column when known);
    True when one is an error."""
    errors = False
    for d in found:
        where = d.file + "".join(f":{n}" for n in (d.line, d.column) if n) + ":"
        sys.stderr.write(printable(f"{where} {'' if d.is_error else d.severity + ': '}{d.message} [{d.code}]\n"))
        errors |= d.is_error
    return errors


def run_parse(args: argparse.Namespace, out) -> int:
    import json

    from .convert import in_line_order, parse

    text = _read_input(args.file)
    if text.unreadable:
        _print_diagnostics(text.found)
        return EXIT_USAGE
    errors = False
    for record, found in in_line_order(text.found, parse(args.notation, text.lines, text.name)):
        errors |= _print_diagnostics(found)
        if record is not None:
            data, text = record
            out.write((json.dumps(data) if args.output == "json" else text) + "\n")
    return EXIT_INVALID if errors else EXIT_OK


def run_convert(args: argparse.Namespace, out) -> int:
    from .convert import convert, detect, in_line_order

    text = _read_input(args.file)
    if text.unreadable:
        _print_diagnostics(text.found)
        return EXIT_USAGE
    source = args.source or detect(text.lines)
    if source == args.to:
        sys.stderr.write(f"sgn convert: the input is already {source}\n")
        return EXIT_USAGE
    errors = False
    for line, found in in_line_order(text.found, convert(text.lines, text.name, source, args.to, args.player)):
        errors |= _print_diagnostics(found)
        if line is not None:
            out.write(line + "\n")
    return EXIT_INVALID if errors else EXIT_OK


def run_codes(args: argparse.Namespace, out) -> int:
    from . import codes_doc
    if args.markdown:
        from .corpus import CorpusError, load_cases
        try:
            cases = load_cases()
        except CorpusError as error:
            sys.stderr.write(f"sgn codes: {error}\n")
            return EXIT_USAGE
        out.write(codes_doc.codes_markdown(cases))
    else:
        out.write(codes_doc.codes_text())
    return EXIT_OK


def run_corpus(args: argparse.Namespace, out) -> int:
    from pathlib import Path

    from . import corpus, corpus_source, packaged

    root = Path(args.root) if args.root else packaged.corpus_dir()
    if not (root / corpus.SOURCES).is_dir():
        sys.stderr.write(f"sgn corpus: {describe(root / corpus.SOURCES)} not found; run it in a source checkout\n")
        return EXIT_USAGE
    try:
        bundle = corpus_source.build_bundle(root)
    except corpus.CorpusError as error:
        sys.stderr.write(f"sgn corpus: {error}\n")
        return EXIT_INVALID
    text = corpus_source.dump_bundle(bundle)
    target = root / corpus.BUNDLE
    problems = corpus.self_check(bundle["cases"], root)
    try:
        if args.action == "build":
            target.write_text(text, encoding="utf-8")
            out.write(f"wrote {describe(target)}: {count(len(bundle['cases']), 'case')}\n")
        elif not target.exists() or target.read_text(encoding="utf-8", errors="replace") != text:
            problems.append(f"{describe(target)} is out of date: run `sgn corpus build`")
    except OSError as error:
        sys.stderr.write(f"sgn corpus: cannot {args.action} {describe(target)}: {error.strerror or error}\n")
        return EXIT_USAGE
    for problem in problems:
        sys.stderr.write(f"sgn corpus: {problem}\n")
    return EXIT_INVALID if problems else EXIT_OK


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
