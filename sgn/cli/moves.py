"""`sgn moves` and `sgn perft`: the legal moves after a line of a log, and the count of the
sequences of legal moves from there (`sgn/game/moves.py`, docs/moves.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Optional, Tuple

from ..layers.schema import PROFILES
from .exits import EXIT_INVALID, EXIT_OK, EXIT_UNDECIDED, EXIT_USAGE, positive_int
from .options import add_rules_option
from .streams import open_input

OUTCOMES = ("auto", "always", "never")  # sgn.game.moves.OUTCOME_CHOICES
DISCARDS = ("each", "compact")  # sgn.game.discard_moves.DISCARD_FORMS
PLAYERS = tuple(range(1, 7))


def _common(command: argparse.ArgumentParser) -> None:
    command.add_argument("file", metavar="FILE", help="the log ('-' reads standard input)")
    command.add_argument(
        "--at", type=positive_int, metavar="LINE", help="the position after this line (default: the end)"
    )
    command.add_argument(
        "--players",
        type=int,
        choices=PLAYERS,
        metavar="N",
        help="during the first round of the setup, the number of players (default: any the map's rules are for)",
    )
    command.add_argument(
        "--hidden-outcomes",
        dest="hidden_outcomes",
        choices=OUTCOMES,
        default="auto",
        help="where a chance move's ? outcome (a roll, card or steal not shown) is listed too: auto (default: "
        "where the position is a partial view), always, never",
    )
    command.add_argument(
        "--discards",
        choices=DISCARDS,
        default="each",
        help="a discard owed listed as each multiset of the hand (each, the default) or as one message whose "
        "cards are ? (compact; perft counts it as every discard it stands for)",
    )
    command.add_argument(
        "--profile", choices=PROFILES, help="strict, compat or v1.0 (default: the configuration's, or strict)"
    )
    add_rules_option(command)


def add_parsers(commands) -> None:
    moves = commands.add_parser(
        "moves",
        help="print the legal moves after a line of a log, one SGN message a line",
        description="Print every SGN message the rules accept after line LINE of the log (default: its end), "
        "one compact JSON message a line, in the order of docs/moves.md: by player, then the roll, discards, "
        "the robber, steals, settlements, cities, roads, cards bought, cards played, trades with the bank. "
        "Chance moves are listed by outcome (the roll's 11 totals, each kind of card the deck may give, each "
        "resource a steal may take); trades between players are not listed. Problems of the log go to "
        "standard error, as with sgn replay.",
    )
    _common(moves)
    moves.add_argument("--count", action="store_true", help="print only how many moves there are (perft to depth 1)")
    moves.set_defaults(run=run_moves)

    perft = commands.add_parser(
        "perft",
        help="count the sequences of legal moves from a line of a log (chance moves included)",
        description="Count the sequences of DEPTH legal moves from the position after line LINE (default: the "
        "end), chance moves included, as chess engines' perft counts them: the number of leaves of the tree "
        "of legal moves DEPTH deep. With --divide, each legal move first, a tab, and the count under it, then "
        "'total', a tab, and the sum: where two move generators part.",
    )
    _common(perft)
    perft.add_argument("--depth", type=positive_int, required=True, metavar="D", help="how many moves deep")
    perft.add_argument("--divide", action="store_true", help="the count under each first move, then the total")
    perft.set_defaults(run=run_perft)


def _position(args: argparse.Namespace) -> Tuple[Optional[Any], int]:
    """The game after the line asked for (None when the log cannot be read), and its status
    so far: the log's problems go to standard error, as `sgn replay` reports them."""
    from ..output.reporters import TextReporter
    from ..pipeline.replay import replay
    from .settings import for_file_or_say

    chosen = for_file_or_say(args, args.file, args.command)
    if chosen is None:
        return None, EXIT_USAGE
    source, name = open_input(args.file)
    errors = TextReporter(sys.stderr)

    def told(d: Any) -> None:  # (a position is a prefix: that the log stops there is no news)
        if d.code != "log-ends-unfinished":
            errors.diagnostic(d)

    state, found = replay(source, name=name, at=args.at, checking=chosen, report=told, possible=False)
    if state is None:
        return None, EXIT_USAGE
    return state.game, EXIT_INVALID if found else EXIT_OK


def _line(message: Any) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def run_moves(args: argparse.Namespace, out) -> int:
    from ..game.discard_moves import ways
    from ..game.errors import TooManyMoves

    game, status = _position(args)
    if game is None:
        return status
    try:
        found = game.legal_moves(args.players, args.hidden_outcomes, args.discards)
    except TooManyMoves as bound:
        sys.stderr.write(f"sgn moves: not listed: {bound}\n")
        return EXIT_UNDECIDED
    if args.count:  # (a compact discard counts as every discard it stands for, as in perft)
        out.write(f"{sum(ways(game, m) for m in found) if args.discards == 'compact' else len(found)}\n")
    else:
        for message in found:
            out.write(_line(message) + "\n")
    return status


def run_perft(args: argparse.Namespace, out) -> int:
    from ..game.errors import TooManyMoves
    from ..game.perft import divide, perft

    game, status = _position(args)
    if game is None:
        return status
    try:
        if not args.divide:
            out.write(f"{perft(game, args.depth, args.players, args.hidden_outcomes, args.discards)}\n")
            return status
        total = 0
        for message, count in divide(game, args.depth, args.players, args.hidden_outcomes, args.discards):
            out.write(f"{_line(message)}\t{count}\n")
            total += count
            out.flush()  # (each count as it is done: a deep count takes long)
    except TooManyMoves as bound:
        sys.stderr.write(f"sgn perft: not counted: {bound}\n")
        return EXIT_UNDECIDED
    out.write(f"total\t{total}\n")
    return status
