"""The command line of the pictures: `sgn report` (a game as one HTML page)."""
from __future__ import annotations

import argparse
import io
import sys

from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from ..layers.reader import describe
from ..layers.schema import PROFILES, STRICT
from .streams import readable_twice, standard_input


def add_report_parser(commands) -> None:
    """`sgn report`, on the subcommands of `sgn`."""
    report = commands.add_parser(
        "report", help="write a game as one self-contained HTML page",
        description="Write the log as one HTML page that needs nothing else (no network, nothing to "
                    "install): the moves, the board at any move (click a move, or step with the arrow "
                    "keys, Home, End and the slider), each player's points and cards, and the "
                    "diagnostics, each marking its place on the board. Exit 0 when the log has no "
                    "errors, 1 when it has some (the page is still written), 2 when it cannot be read.")
    report.add_argument("file", metavar="FILE", help="the log ('-' reads standard input)")
    report.add_argument("-o", "--output", required=True, metavar="OUT.html",
                        help="the page to write ('-': standard output)")
    report.add_argument("--profile", choices=PROFILES, default=STRICT,
                        help="strict: the schema as written (default); compat: also read the seed's "
                             "legacy encodings, with a warning each")
    report.set_defaults(run=run_report)


def run_report(args: argparse.Namespace, out) -> int:
    from .output_file import OutputError, refuse_inputs
    from ..pictures.page import ReportError, build

    try:
        if args.output != "-":
            refuse_inputs(args.output, [args.file])
    except OutputError as error:
        sys.stderr.write(f"sgn report: {error}\n")
        return EXIT_USAGE
    source = standard_input() if args.file == "-" else readable_twice(args.file)
    if isinstance(source, bytes):
        source = io.BytesIO(source)
    name = "<stdin>" if args.file == "-" else describe(args.file)
    try:
        report = build(source, name, args.profile)
    except ReportError as error:
        sys.stderr.write(f"sgn report: {error}\n")
        return EXIT_USAGE
    if args.output == "-":
        out.write(report.html)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as page:
                page.write(report.html)
        except OSError as error:
            sys.stderr.write(f"sgn report: cannot write {describe(args.output)}: {error.strerror or error}\n")
            return EXIT_USAGE
        found = (f"{report.errors} error{'s' if report.errors != 1 else ''}" if report.errors else "no errors")
        sys.stderr.write(f"wrote {describe(args.output)}: {report.messages} messages, {found}\n")
    return EXIT_INVALID if report.errors else EXIT_OK
