"""`sgn redact`: a log as one seat, or a spectator, sees it (`sgn/notation/redact.py`)."""

from __future__ import annotations

import argparse
import gzip
import sys
import zlib
from typing import IO, Iterator

from ..words import printable
from .exits import EXIT_OK, EXIT_USAGE
from .streams import describe

PLAYERS = ("1", "2", "3", "4", "5", "6")


def add_parser(commands) -> None:
    redact = commands.add_parser(
        "redact",
        help="write a log as one seat, or a spectator, sees it: the cards they cannot see as ?",
        description="Write the SGN log FILE (plain or gzip) to standard output as one player sees "
        "it at the table (--seat N: the development cards others draw, and the cards "
        "stolen between two others, written as hidden values, ?) or as a spectator sees it "
        "(--public: every draw and steal hidden). Rolls, builds, trades, discards, "
        "Monopolies and Years of Plenty stay as they are, and every other line is written "
        "byte for byte as it was, faults and all (docs/hidden.md). `sgn validate` checks "
        "the view: the views of a valid game are valid.",
    )
    redact.add_argument("file", nargs="?", default="-", metavar="FILE", help="the log ('-' or nothing: standard input)")
    who = redact.add_mutually_exclusive_group(required=True)
    who.add_argument("--seat", choices=PLAYERS, help="the player whose view it is")
    who.add_argument("--public", action="store_true", help="a spectator's view: every draw and steal hidden")
    redact.set_defaults(run=run_redact)


def _lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of a stream, plain or gzip, each without its newline."""
    head = stream.peek(2)[:2] if hasattr(stream, "peek") else b""
    if head == b"\x1f\x8b":
        stream = gzip.GzipFile(fileobj=stream)  # type: ignore[assignment]
    pending = b""
    while True:
        chunk = stream.read(1 << 16)
        if not chunk:
            break
        *whole, pending = (pending + chunk).split(b"\n")
        yield from whole
    if pending:
        yield pending


def run_redact(args: argparse.Namespace, out) -> int:
    from ..notation.redact import NotASeat, redact

    seat = None if args.public else args.seat
    from .output_file import OutputError, refuse_standard_output

    name = "<stdin>" if args.file == "-" else describe(args.file)
    try:
        refuse_standard_output(sys.stdout, [args.file])
    except OutputError as error:
        sys.stderr.write(printable(f"sgn redact: {error}\n"))
        return EXIT_USAGE
    try:
        stream = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")
    except OSError as error:
        sys.stderr.write(printable(f"sgn redact: cannot read {name}: {error.strerror or error}\n"))
        return EXIT_USAGE
    sink = getattr(out, "buffer", None)
    try:
        with stream:
            for line in redact(_lines(stream), seat):
                try:
                    if sink is not None:
                        sink.write(line + b"\n")
                    else:
                        out.write(line.decode("utf-8", "replace") + "\n")
                except OSError as error:
                    sys.stderr.write(
                        printable(f"sgn redact: cannot write standard output: {error.strerror or error}\n")
                    )
                    return EXIT_USAGE
    except (OSError, EOFError, zlib.error) as error:
        sys.stderr.write(printable(f"sgn redact: cannot read {name}: {error}\n"))
        return EXIT_USAGE
    except NotASeat as error:
        sys.stderr.write(printable(f"sgn redact: {name}: {error} (--public writes a spectator's view)\n"))
        return EXIT_USAGE
    return EXIT_OK
