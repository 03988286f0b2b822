"""The command line of the pictures: `sgn report` (a game as one HTML page)."""

from __future__ import annotations

import argparse
import sys

from ..layers.reader import describe
from ..layers.schema import PROFILES
from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from .options import add_rules_option
from .streams import open_input


def add_report_parser(commands) -> None:
    """`sgn report`, on the subcommands of `sgn`."""
    report = commands.add_parser(
        "report",
        help="write a game as one self-contained HTML page",
        description="Write the log as one HTML page that needs nothing else (no network, nothing to "
        "install): the moves, the board at any move (click a move, or step with the arrow "
        "keys, Home, End and the slider), each player's points and cards, and the "
        "diagnostics, each marking its place on the board. Exit 0 when the log has no "
        "errors, 1 when it has some (the page is still written), 2 when it cannot be read.",
    )
    report.add_argument("file", metavar="FILE", help="the log ('-' reads standard input)")
    report.add_argument(
        "-o", "--output", required=True, metavar="OUT.html", help="the page to write ('-': standard output)"
    )
    report.add_argument(
        "--profile",
        choices=PROFILES,
        help="strict: the schema as written (default, unless the configuration says otherwise); compat: "
        "also read the published SGN text's legacy encodings, with a warning each",
    )
    add_rules_option(report)
    report.set_defaults(run=run_report)


def run_report(args: argparse.Namespace, out) -> int:
    from ..page import PageError, collect, page_parts
    from .output_file import OutputError, written
    from .settings import for_file_or_say

    chosen = for_file_or_say(args, args.file, "report")
    if chosen is None:
        return EXIT_USAGE
    try:
        source, name = open_input(args.file, output=args.output)  # read once, in one pass
    except OutputError as error:
        sys.stderr.write(f"sgn report: {error}\n")
        return EXIT_USAGE
    try:
        collected = collect(source, name, chosen)  # the log read whole before the page is opened
    except PageError as error:
        sys.stderr.write(f"sgn report: {error}\n")
        return EXIT_USAGE
    from .players import known_names

    names = {**known_names(args.file, "report"), **collected.names}  # (the log's header first)
    if args.output == "-":
        for part in page_parts(collected, names):
            out.write(part)
    else:
        try:
            with written(args.output) as page:  # the earlier page stays if this one fails
                for part in page_parts(collected, names):
                    page.write(part)
        except OutputError as error:
            sys.stderr.write(f"sgn report: {error}\n")
            return EXIT_USAGE
        errors = collected.errors
        found = f"{errors} error{'s' if errors != 1 else ''}" if errors else "no errors"
        sys.stderr.write(f"wrote {describe(args.output)}: {len(collected.moves)} messages, {found}\n")
    return EXIT_INVALID if collected.errors else EXIT_OK
