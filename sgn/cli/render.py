"""`sgn render FILE [--at LINE] [-o OUT.svg|OUT.png] [--highlight auto|none] [--coordinates]
[--corners]`: the board
after a line, as `sgn replay --at` replays it, with the place a diagnostic of that line
names marked and the diagnostic written under the board."""

from __future__ import annotations

import argparse
import sys
from typing import Any, List, Optional

from ..diagnostic import Diagnostic
from ..layers.reader import describe
from ..layers.schema import PROFILES
from ..output.reporters import TextReporter
from ..packaged import DISTRIBUTION
from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE, positive_int
from .options import add_rules_option
from .streams import open_input

PNG_MISSING = (
    "sgn render: PNG needs cairosvg: pip install cairosvg (or install the package with its extra: "
    f"pip install '{DISTRIBUTION}[png]'); SVG needs nothing: use -o OUT.svg"
)


def add_render_parser(commands) -> None:
    render = commands.add_parser(
        "render",
        help="draw the board after a line as SVG (or PNG)",
        description="Draw the board after a line of an SGN log, as `sgn replay --at` replays it: "
        "tiles, number tokens, harbors, pieces, the robber and a legend. Problems found "
        "on the way go to standard error. See docs/pictures.md.",
    )
    render.add_argument("file", metavar="FILE", help="the log ('-' reads standard input)")
    render.add_argument("--at", type=positive_int, metavar="LINE", help="the board after this line (default: the end)")
    render.add_argument(
        "-o",
        "--output",
        metavar="OUT.svg|OUT.png",
        default="-",
        help="where to write the picture: .png is PNG (needs the extra 'png'), "
        "anything else SVG; '-' (default) writes SVG to standard output",
    )
    render.add_argument(
        "--highlight",
        choices=("auto", "none"),
        default="auto",
        help="auto (default): mark the place a diagnostic of that line names, and write "
        "the diagnostic under the board; none: no mark",
    )
    render.add_argument(
        "--coordinates",
        action="store_true",
        help="write each tile's coordinates q,r on it (python-chess's coordinates=True)",
    )
    render.add_argument(
        "--corners",
        action="store_true",
        help="also name every intersection of a land tile by its three tiles, "
        "clockwise from the top (implies --coordinates)",
    )
    render.add_argument(
        "--size", type=_size, default=600, metavar="PX", help=f"width in pixels (default 600, at most {MAX_SIZE})"
    )
    render.add_argument(
        "--profile", choices=PROFILES, help="strict, compat or v1.0 (default: the configuration's, or strict)"
    )
    add_rules_option(render)
    render.set_defaults(run=run_render)


MAX_SIZE = 16384  # pixels: a PNG library refuses much larger pictures (cairo: 32767)


def _size(text: str) -> int:
    value = positive_int(text)
    if value > MAX_SIZE:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_SIZE}")
    return value


def highlight_of(found: List[Diagnostic], message: Any) -> Optional[tuple]:
    """(place, sentence) for the diagnostics of one line: the first whose pointer leads to a
    place, else the first whose move is made on one, else the first with no place."""
    from ..pictures.places import named_by

    if not found:
        return None
    for direct in (True, False):
        for d in found:
            place = named_by(message, d.pointer or "", fall_back=not direct) if message is not None else None
            if place is not None:
                return place, f"line {d.line}: {d.message} [{d.code}]"
    d = found[0]
    return None, f"line {d.line}: {d.message} [{d.code}]"


def run_render(args: argparse.Namespace, out) -> int:
    from ..pipeline.replay import replay
    from ..svg import board
    from .output_file import OutputError, written
    from .settings import for_file_or_say

    chosen = for_file_or_say(args, args.file, "render")
    if chosen is None:
        return EXIT_USAGE
    try:
        source, name = open_input(args.file, output=args.output)
    except OutputError as error:
        sys.stderr.write(f"sgn render: {error}\n")
        return EXIT_USAGE
    errors = TextReporter(sys.stderr)
    seen: List[Diagnostic] = []

    def note(d: Diagnostic) -> None:
        seen.append(d)
        errors.diagnostic(d)

    state, found = replay(source, name=name, at=args.at, checking=chosen, report=note, possible=False)
    if state is None:
        return EXIT_USAGE
    line = state.line
    mark = None
    if args.highlight == "auto":
        here = [d for d in seen if d.line == line and not d.is_io]
        mark = highlight_of(here, state.message) if here else None
    from ..layers.records import player_colors, player_names
    from .players import known_names

    svg = board(
        state.game,
        names={**known_names(args.file, "render"), **player_names(state.game.header)},  # (the header first)
        colors=player_colors(state.game.header),
        highlight=mark[0] if mark else None,
        caption=mark[1] if mark else None,
        size=args.size,
        coordinates="corners" if args.corners else bool(args.coordinates),
    )
    status = EXIT_INVALID if found else EXIT_OK
    if args.output == "-":
        out.write(svg + "\n")
        return status
    picture: Any = svg + "\n"
    if args.output.lower().endswith(".png"):
        try:
            import cairosvg
        except (ImportError, OSError):  # OSError: the library is there, its cairo is not
            sys.stderr.write(PNG_MISSING + "\n")
            return EXIT_USAGE
        try:  # drawn whole before the file is opened: a failure leaves the earlier picture
            picture = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
        except Exception as error:  # the PNG library's own (cairo refuses a size, say)
            sys.stderr.write(f"sgn render: cannot draw {describe(args.output)}: {type(error).__name__}: {error}\n")
            return EXIT_USAGE
    try:
        with written(args.output, binary=isinstance(picture, bytes)) as handle:
            handle.write(picture)
    except OutputError as error:
        sys.stderr.write(f"sgn render: {error}\n")
        return EXIT_USAGE
    return status
