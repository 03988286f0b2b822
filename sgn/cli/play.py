"""`sgn play`: bots play matches under the referee (docs/play.md), as cutechess-cli and
fastchess run chess engines: `--bot NAME=COMMAND` for each, balanced seats, every game
checked by the rules replay, a summary with intervals, ratings and an SPRT; `--check BOT`
drives one bot through every kind of request and names what it does wrong."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any, Dict, List, Optional

from ..game.rule_profiles import STANDARD
from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE, job_count, positive_int
from .options import add_rules_option


def add_parser(commands: Any) -> None:
    play = commands.add_parser(
        "play",
        help="play matches between bots, in any language, under a fair referee",
        description="Play games between bots under the rules replay: each bot a builtin "
        "(random, greedy), a Python class (python:module:Class) or a program speaking the "
        "JSON-lines protocol of docs/protocol.md. Seats are balanced: each board, with its "
        "dice and deck, is played in every rotation of the seats. Every game is checked at the "
        "rules level. The same --seed gives the same games, whatever --jobs.",
    )
    play.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="a bot: NAME=builtin:random|builtin:greedy, NAME=python:module:Class, "
        "or NAME=COMMAND LINE (a program); 'random' or 'greedy' alone name a builtin. "
        "Give it once for each bot; the seats are filled by cycling through them",
    )
    play.add_argument(
        "--bot-option",
        action="append",
        default=[],
        metavar="NAME:KEY=VALUE",
        help="an option of the bot NAME, as cutechess-cli's option.KEY=VALUE: in a program's hello "
        "(options), a Python class's keyword; the value read as JSON where it is (64, true), else as text",
    )
    play.add_argument(
        "--games",
        type=positive_int,
        default=None,
        metavar="N",
        help="at least N games, in whole boards (default: one board, each seating once)",
    )
    play.add_argument(
        "--players",
        type=int,
        choices=(3, 4, 5, 6),
        default=4,
        help="seats at each game (default 4; 5 and 6 on the extension's board)",
    )
    play.add_argument(
        "--seed", type=int, default=0, metavar="S", help="the seed of the boards, dice, deck and steals (default 0)"
    )
    play.add_argument(
        "-j",
        "--jobs",
        type=job_count,
        default=1,
        metavar="J",
        help="processes to play in (0 or auto: one per core); the games are the same for any J",
    )
    play.add_argument(
        "--dask",
        metavar="ADDRESS|local[:N]",
        help="play the games on a Dask cluster: a scheduler's address, or local[:N] workers on this machine "
        "(the extra dask); the games are the same as in one process",
    )
    play.add_argument(
        "--move-time",
        type=positive_int,
        default=1000,
        metavar="MS",
        help="milliseconds a bot has for each reply (default 1000)",
    )
    play.add_argument(
        "--on-fault",
        choices=("forfeit", "replace"),
        default="forfeit",
        help="a bot's illegal reply, timeout, crash, garbage or flood: forfeit its game (default), or "
        "replace its reply by a random legal move and go on (the fault is counted either way)",
    )
    play.add_argument(
        "--openings",
        metavar="FILE",
        help="start the games from recorded positions: an SGN log of one or more games, each cut "
        "after its setup (or --opening-lines); board d of the match starts from game d of the file, in turn",
    )
    play.add_argument(
        "--opening-lines", type=positive_int, metavar="N", help="with --openings: the first N lines of each game"
    )
    play.add_argument(
        "--ask-forced",
        action="store_true",
        help="ask a bot even a decision it has one legal move for (by default the referee makes it: a roll "
        "with no card to play, a turn's end with no card in hand, the one victim of a steal)",
    )
    play.add_argument(
        "--max-turns",
        type=positive_int,
        default=1000,
        metavar="N",
        help="a game not won after N turns stops, with no winner (default 1000)",
    )
    add_rules_option(play, STANDARD)
    play.add_argument(
        "--out",
        metavar="DIR",
        help="write each game to DIR/game-NNNNN.sgn and each result to DIR/results.jsonl; a match run again on DIR with the same settings plays only the games it lacks",
    )
    play.add_argument(
        "--results", metavar="FILE", help="the results table, one row per seat of each game: .json, .csv or .parquet"
    )
    play.add_argument("--page", metavar="FILE.html", help="the summary and the games as one self-contained page")
    play.add_argument(
        "--sprt", metavar="A,B", help="a sequential test of 'bot A is stronger than bot B' (docs/play.md)"
    )
    play.add_argument("--elo0", type=float, default=0.0, help="the SPRT's H0, in Elo (default 0)")
    play.add_argument("--elo1", type=float, default=10.0, help="the SPRT's H1, in Elo (default 10)")
    play.add_argument(
        "-o", "--output", choices=("text", "json"), default="text", help="the summary: text (default) or json"
    )
    play.add_argument(
        "--check",
        metavar="BOT",
        help="compliance: drive this bot (NAME=COMMAND) through every kind of request and name each fault; exit 1 if any",
    )
    play.set_defaults(run=run_play)


def _with_options(given: List[str], bots: List[Any], checked: Any) -> Any:
    """The bots with their `--bot-option NAME:KEY=VALUE`s (ValueError for a name no bot has)."""
    by_name = {b.name: b for b in bots + ([checked] if checked is not None else [])}
    for text in given:
        name, sep, option = text.partition(":")
        if not sep or name not in by_name:
            raise ValueError(f"--bot-option {text!r}: NAME:KEY=VALUE, NAME one of the bots ({', '.join(by_name)})")
        by_name[name] = by_name[name].with_option(option)
    return [by_name[b.name] for b in bots], by_name[checked.name] if checked is not None else None


def _fail(message: str) -> int:
    sys.stderr.write(f"sgn play: {message}\n")
    return EXIT_USAGE


def run_play(args: argparse.Namespace, out) -> int:
    from ..referee.match import BotSpec, is_program, make_seat

    try:
        bots = [BotSpec.parse(text) for text in args.bot]
        checked = BotSpec.parse(args.check) if args.check else None
        bots, checked = _with_options(args.bot_option, bots, checked)
        for spec in bots + ([checked] if checked is not None else []):
            if not is_program(spec):
                make_seat(spec)  # (a class that cannot be loaded, or an option it does not take: said now)
    except ValueError as error:
        return _fail(str(error))
    if checked is not None:
        from ..referee.compliance import check_bot

        report = check_bot(checked, move_ms=args.move_time, seed=args.seed)
        out.write(json.dumps(report, indent=2) + "\n" if args.output == "json" else _compliance_text(report))
        return EXIT_OK if report["compliant"] else EXIT_INVALID
    if not bots:
        return _fail("name the bots with --bot NAME=COMMAND (or --check BOT)")
    names = [b.name for b in bots]
    if len(set(names)) != len(names):
        return _fail(
            f"two bots are named {next(n for n in names if names.count(n) > 1)!r}: each needs a name of its own"
        )
    sprt = None
    if args.sprt:
        sprt = tuple(args.sprt.split(","))
        if len(sprt) != 2 or not set(sprt) <= set(names) or sprt[0] == sprt[1]:
            return _fail(f"--sprt takes two of the bots, A,B: {', '.join(names)}")
    if args.results and not args.results.endswith((".json", ".csv", ".parquet")):
        return _fail("--results names a .json, .csv or .parquet file")
    over = _over_an_input(args)
    if over:
        return _fail(over)
    return _match(args, bots, sprt, out)


def _over_an_input(args: argparse.Namespace) -> str:
    """Why an output would write over the openings read ('' when none would): --results,
    --page, or a file --out writes."""
    import os
    import re

    from .output_file import OutputError, refuse_inputs

    if not args.openings:
        return ""
    try:
        for output in (args.results, args.page):
            if output:
                refuse_inputs(output, [args.openings])
    except OutputError as error:
        return str(error)
    book = os.path.realpath(args.openings)
    name = os.path.basename(book)
    if args.out and os.path.dirname(book) == os.path.realpath(args.out):
        if name == "results.jsonl" or re.fullmatch(r"game-\d+\.sgn", name):
            return f"--out {args.out} would write over the openings {args.openings}: name another folder"
    return ""


def _match(args: argparse.Namespace, bots: List[Any], sprt: Optional[tuple], out) -> int:
    from ..cluster.dask_run import ClusterError
    from ..referee.match import Settings, run, schedule
    from ..referee.referee import RefereeError
    from ..referee.store import Store, StoreError
    from ..referee.summary import rows, summarise

    openings: tuple = ()
    if args.openings:
        from ..referee.openings import OpeningError, read_openings

        try:
            openings = tuple(read_openings(args.openings, args.players, args.rules, args.opening_lines))
        except OpeningError as error:
            return _fail(str(error))
    elif args.opening_lines:
        return _fail("--opening-lines cuts the games of --openings FILE: name the file")
    settings = Settings(
        args.players, args.seed, args.rules, args.move_time, args.on_fault, args.max_turns, args.ask_forced, openings
    )
    jobs = schedule(bots, args.players, args.games or args.players)
    if args.games and len(jobs) != args.games:  # (whole boards: each in every seating)
        sys.stderr.write(
            f"sgn play: {len(jobs)} games, not {args.games}: {len(jobs) // args.players} boards, "
            f"each played in all {args.players} seatings\n"
        )
    store = None
    records: Dict[int, Any] = {}
    if args.out:
        match = {"bots": [list(b) for b in bots], "games": len(jobs), **settings._asdict()}
        match["openings"] = (
            hashlib.sha256("\n".join(map("\n".join, openings)).encode()).hexdigest() if openings else None
        )
        store = Store(args.out, match)
        try:
            records = dict(store.open())
        except StoreError as error:
            return _fail(str(error))
        if records:
            sys.stderr.write(f"sgn play: {len(records)} of {len(jobs)} games already in {args.out}: playing the rest\n")
    todo = [job for job in jobs if job.number not in records]
    progress = sys.stderr.isatty()
    try:
        for n, record in enumerate(run(bots, todo, settings, args.jobs, args.dask), 1):
            job = todo[n - 1]
            records[job.number] = record
            if store is not None:
                store.add(job.number, record)
            if progress:
                sys.stderr.write(f"\r{len(records)}/{len(jobs)} games")
    except RefereeError as error:  # a bug of ours, said as one
        sys.stderr.write(f"\nsgn play: internal error: {error}\n")
        return EXIT_USAGE
    except (StoreError, ClusterError) as error:
        return _fail(str(error))
    finally:
        if progress:
            sys.stderr.write("\n")
        if store is not None:
            store.close()
    ordered = [records[i] for i in sorted(records)]
    summary = summarise(ordered, sprt=sprt, elo0=args.elo0, elo1=args.elo1)
    if args.results:
        failed = _write_results(args.results, rows(ordered))
        if failed:
            return _fail(failed)
    if args.page:
        failed = _write_page(args, summary, ordered)
        if failed:
            return _fail(failed)
    out.write(json.dumps(summary, indent=2) + "\n" if args.output == "json" else _text(summary))
    return EXIT_OK


def _write_page(args: argparse.Namespace, summary: Dict[str, Any], records: List[Any]) -> str:
    import os

    from ..referee.page import page
    from .output_file import OutputError, written

    folder = os.path.relpath(args.out, os.path.dirname(os.path.abspath(args.page))) if args.out else None
    try:
        os.makedirs(os.path.dirname(os.path.abspath(args.page)), exist_ok=True)
        with written(args.page) as handle:
            handle.write(page(summary, records, folder))
    except OutputError as error:
        return str(error)
    except OSError as error:
        return f"cannot write {args.page}: {error.strerror}"
    return ""


def _write_results(path: str, table: List[Dict[str, Any]]) -> str:
    """The table to `path` by its suffix; the error in a sentence, or ''."""
    from .output_file import OutputError, written

    try:
        import os

        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        if path.endswith(".parquet"):
            try:
                import pyarrow as pa
                import pyarrow.parquet as pq
            except ImportError:
                return "--results FILE.parquet needs pyarrow: pip install 'settlers-game-notation[parquet]'"
            with written(path, binary=True) as handle:
                pq.write_table(pa.Table.from_pylist(table), handle)
            return ""
        with written(path) as handle:
            if path.endswith(".json"):
                handle.write(json.dumps(table, indent=1) + "\n")
            else:
                import csv

                writer = csv.DictWriter(handle, fieldnames=list(table[0]) if table else ["game"], lineterminator="\n")
                writer.writeheader()
                writer.writerows(table)
    except OutputError as error:
        return str(error)
    except OSError as error:
        return f"cannot write {path}: {error.strerror}"
    return ""


def _interval(pair) -> str:
    return f"[{pair[0]:.3f}, {pair[1]:.3f}]"


def _text(summary: Dict[str, Any]) -> str:
    how = ", ".join(f"{n} {k}" for k, n in sorted(summary["how"].items()))
    lines = [f"{summary['games']} games ({how})", ""]
    lines.append(
        f"{'bot':<16} {'seats':>6} {'wins':>6} {'win rate':>9} {'95% interval':>17} {'points':>7} {'ms/move':>8}  faults"
    )
    for name, b in summary["bots"].items():
        faults = ", ".join(f"{n} {k}" for k, n in sorted(b["faults"].items())) or "none"
        lines.append(
            f"{name:<16} {b['seats']:>6} {b['wins']:>6} {b['win_rate']:>9.3f} {_interval(b['win_interval']):>17} "
            f"{b['points']:>7.2f} {b['ms_per_move']:>8.2f}  {faults}"
        )
    for name, b in summary["bots"].items():
        lines.append(
            f"{name} by seat: "
            + "; ".join(f"{s}: {v['wins']}/{v['games']} won, {v['points']:.2f} points" for s, v in b["by_seat"].items())
        )
    lines += [
        "",
        "by seat: "
        + "; ".join(
            f"{s}: {v['wins']}/{v['games']} won {_interval(v['win_interval'])}" for s, v in summary["seats"].items()
        ),
    ]
    ratings = summary.get("ratings")
    if ratings is None:
        lines.append(
            "ratings: install openskill (pip install 'settlers-game-notation[play]') for Plackett-Luce ratings"
        )
    elif ratings:
        lines.append(
            "ratings (Plackett-Luce): " + "; ".join(f"{n} {r['mu']:.1f} ± {r['sigma']:.1f}" for n, r in ratings.items())
        )
    test = summary.get("sprt")
    if test:
        lines.append(
            f"SPRT {test['a']} vs {test['b']} (elo0 {test['elo0']:g}, elo1 {test['elo1']:g}): {test['games']} games, "
            f"score {test['score'] if test['score'] is None else round(test['score'], 3)}, LLR {test['llr']:.2f} "
            f"({test['bounds'][0]:.2f}, {test['bounds'][1]:.2f}): {test['verdict']}"
        )
    return "\n".join(lines) + "\n"


def _compliance_text(report: Dict[str, Any]) -> str:
    lines = [f"{report['bot']}: {'compliant' if report['compliant'] else 'NOT compliant'} ({report['games']} games)"]
    for kind, seen in report["requests"].items():
        lines.append(f"  {kind:<15} {seen['asked']:>5} asked, {seen['faults']:>3} faults")
    for fault in report["faults"][:20]:
        lines.append(f"  fault: {fault['kind']} on a {fault['request']} request: {fault['detail']}")
    lines += [f"  not met: {kind}" for kind in report["unmet"]]
    return "\n".join(lines) + "\n"
