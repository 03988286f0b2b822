"""`sgn parse` and `sgn convert`: the neighbouring notations read, and converted through SGN
(the work is `sgn.notation.convert`'s; this is the command line around it).

Both detect the input's notation as `convert.detect` does unless told (`--notation`,
`--from`); what a command cannot read is one line and exit 2, not a diagnostic per line.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..adapters import ENGINES
from ..layers.schema import V1
from ..words import printable
from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from .options import add_written_profile
from .streams import open_input

PARSED = ("han", "hsn", "hsn-002", "hsgn")
CONVERTED = ("han", "hsgn", "sgn")
NAMES = {"han": "HAN", "hsn": "HSN", "hsn-002": "HSN (seed 002)", "hsgn": "HSGN", "sgn": "SGN"}
PLAYERS = ("1", "2", "3", "4", "5", "6")


def add_parsers(commands) -> None:
    parse = commands.add_parser(
        "parse",
        help="read HAN actions, HSGN turns or an HSN state and print their meaning",
        description="han: each line is a HAN action (seed 001); hsgn: each line holds HSGN turns "
        "(seed 004); hsn: the whole input is one HSN state (seed 000, bracketed; hsn-002 "
        "the earlier version). The notation is detected from the first line unless "
        "--notation names it; SGN (JSON) is refused: `sgn validate` checks it. Print each "
        "record in its standard form and what it means in words (text), or as JSON (one "
        "object a line), and a "
        "diagnostic with line and column for what does not parse (exit 1).",
    )
    _add_input(parse)
    parse.add_argument(
        "--notation",
        choices=PARSED,
        help="han (seed 001), hsn (seed 000), hsn-002 (seed 002), hsgn (seed 004); "
        "default: detected from the first line, as `sgn convert` does",
    )
    parse.add_argument(
        "-o",
        "--output",
        choices=("text", "json"),
        default="text",
        help="text (default): the standard form and its meaning, a line each; json: one object a line",
    )
    parse.set_defaults(run=run_parse)

    convert = commands.add_parser(
        "convert",
        help="convert between SGN messages, HAN actions and HSGN turns",
        description="Convert through SGN. The input notation, unless --from says it, is detected from "
        "the first non-blank line, as `sgn parse` does: SGN when it is JSON (or starts with "
        "[ or {), HSGN when it starts with a player (p1:) or ends with a period, else HAN "
        "(an HSN state has no conversion); a game of another engine is detected too, or named "
        "with --from: catanatron's JSON of a game, a JSettlers game event log (docs/engines.md). "
        "What has no counterpart in the target notation is left out "
        "with a warning, and the rest is converted (exit 0); an error in the input is "
        "exit 1. SGN to SGN writes each message in its canonical form.",
    )
    _add_input(convert)
    convert.add_argument("--to", choices=CONVERTED, required=True, help="the notation to write")
    convert.add_argument(
        "--from",
        dest="source",
        choices=CONVERTED + ENGINES,
        help="the input notation, or the engine whose game it is (default: detected from the first line)",
    )
    convert.add_argument(
        "--player",
        choices=PLAYERS,
        help="from HAN: the acting player, which HAN does not name but for discards (required when an action needs it)",
    )
    add_written_profile(convert)
    convert.add_argument(
        "--output-file",
        metavar="FILE",
        help="write the conversion to FILE instead of standard output (replaced once whole: "
        "a failed write leaves the earlier FILE as it was)",
    )
    convert.set_defaults(run=run_convert)


def _add_input(command) -> None:
    """The input of `sgn parse` and `sgn convert`: a file, or standard input."""
    command.add_argument(
        "file", nargs="?", default="-", metavar="FILE", help="the input ('-' or nothing reads standard input)"
    )


def _read_input(path: str, output=None, **limits):
    """The input of `sgn parse` and `sgn convert`, read as `sgn validate` reads a log (an
    `output` file that would write over it is an OutputError first)."""
    from ..notation.convert import read_input

    return read_input(*open_input(path, output=output), **limits)


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
    from ..notation.convert import detect, in_line_order, parse

    text = _read_input(args.file)
    if text.unreadable:
        _print_diagnostics(text.found)
        return EXIT_USAGE
    notation = args.notation or detect(text.lines)
    if notation not in PARSED:
        sys.stderr.write(
            printable(
                f"sgn parse: {text.name} holds SGN messages (JSON), which `sgn validate` "
                "checks; parse reads han, hsn, hsn-002 and hsgn (--notation names one)\n"
            )
        )
        return EXIT_USAGE
    errors = False
    for record, found in in_line_order(text.found, parse(notation, text.lines, text.name)):
        errors |= _print_diagnostics(found)
        if record is not None:
            data, shown = record
            out.write((json.dumps(data) if args.output == "json" else shown) + "\n")
    return EXIT_INVALID if errors else EXIT_OK


def run_convert(args: argparse.Namespace, out) -> int:
    from ..adapters import MAX_LINE_BYTES, engine_of
    from ..notation.convert import detect, missing_actor
    from .output_file import OutputError, written

    limits = {"max_line_bytes": MAX_LINE_BYTES} if args.source in ENGINES else {}
    try:
        text = _read_input(args.file, args.output_file, **limits)
    except OutputError as error:
        sys.stderr.write(f"sgn convert: {error}\n")
        return EXIT_USAGE
    if text.unreadable:
        _print_diagnostics(text.found)
        return EXIT_USAGE
    source = args.source or engine_of(text.lines) or detect(text.lines)
    refusal = _refusal(source, args.to, text)
    if refusal:
        sys.stderr.write(printable(f"sgn convert: {refusal}\n"))
        return EXIT_USAGE
    if source == "han" and args.player is None:
        needed = missing_actor(text.lines, text.name)
        if needed:
            sys.stderr.write(
                printable(
                    f"sgn convert: {text.name}:{needed[0]}: {needed[1]} needs the acting player, which HAN "
                    "does not name: give it with --player 1..6\n"
                )
            )
            return EXIT_USAGE
    if args.output_file is None:
        return _converted(args, source, text, out)
    try:
        with written(args.output_file) as target:  # the earlier file stays if this one fails
            return _converted(args, source, text, target)
    except OutputError as error:
        sys.stderr.write(f"sgn convert: {error}\n")
        return EXIT_USAGE


def _converted(args: argparse.Namespace, source: str, text, out) -> int:
    """The conversion written to `out`, its diagnostics to standard error; the exit status."""
    from ..adapters import READERS as ENGINE_READERS
    from ..notation.convert import convert, in_line_order

    errors, left_out = False, 0
    converted = convert(
        text.lines, text.name, source, args.to, args.player, read=ENGINE_READERS.get(source), records=args.profile != V1
    )
    for line, found in in_line_order(text.found, converted):
        errors |= _print_diagnostics(found)
        left_out += sum(d.code == "no-counterpart" and d.severity == "warning" for d in found)  # not a note
        if line is not None:
            out.write(line + "\n")
    if left_out:
        unit = "message" if source == "sgn" else "action"
        sys.stderr.write(
            f"sgn convert: left out {left_out} {unit}{'s' * (left_out != 1)} with no "
            f"{NAMES[args.to]} form (the warnings above); the rest is converted\n"
        )
    if source in ENGINES:
        from ..game.rule_profiles import FOR_ENGINE

        if args.to == "sgn" and args.profile != V1:
            sys.stderr.write(
                f"sgn convert: games from {source} follow the rules {FOR_ENGINE[source]}, which their header names "
                "(its departures from the rulebook, docs/engines.md)\n"
            )
        else:
            sys.stderr.write(
                f"sgn convert: games from {source} need --rules {FOR_ENGINE[source]} "
                "(its departures from the rulebook, docs/engines.md)\n"
            )
        _keep_names(args, source, text)
    return EXIT_INVALID if errors else EXIT_OK


def _keep_names(args: argparse.Namespace, source: str, text) -> None:
    """The engine's names of the players: said on standard error, and kept beside the log
    written (`--output-file LOG`: LOG.players.json; docs/format.md, "Players' names")."""
    from ..adapters import player_names
    from ..game.rule_profiles import FOR_ENGINE
    from . import players

    names = player_names(source, text.lines)
    if not names:
        return
    what = "colours" if source == "catanatron" else "nicknames"
    said = f"sgn convert: players: {players.mapping(names)} ({source}'s {what}, in play order)"
    if args.output_file is None or args.output_file == "-":
        sys.stderr.write(printable(said + "\n"))
        return
    from .output_file import OutputError, refuse_inputs, written

    path = players.beside(args.output_file)
    try:
        refuse_inputs(path, [args.file])
        with written(path) as kept:
            kept.write(players.document(names, source, FOR_ENGINE[source]))
    except OutputError as error:
        sys.stderr.write(printable(f"{said}\nsgn convert: the names are not kept: {error}\n"))
        return
    sys.stderr.write(printable(f"{said}; kept in {path}\n"))


def _refusal(source: str, target: str, text) -> str:
    """Why the input cannot be converted as asked, or "" when it can."""
    if source in ENGINES:
        from ..adapters import refusal

        return refusal(source, text)
    if source not in CONVERTED:
        return (
            f"{text.name} holds {NAMES[source]}, a game state, which has no conversion "
            "(`sgn parse` reads it); --from names the notation if it is another"
        )
    if source == target != "sgn":
        return f"the input is already {NAMES[source]}; `sgn parse` prints it in its standard form"
    return ""
