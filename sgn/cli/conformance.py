"""`sgn conformance` and `sgn smoke`: the command line of the harness."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Tuple

from ..layers.reader import describe
from ..layers.schema import PROFILES
from ..layers.stages import LEVELS
from ..words import count, printable, visible
from .exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE, positive_int, positive_seconds

# the classes of moves a rules engine may declare departures in (sgn/conformance/moves.py, kept
# in step by t/test_conformance_moves.py: the harness is not imported to build the parser)
MOVE_CLASSES = (
    "roll discard robber steal settlement city road buy knight road-building year-of-plenty monopoly "
    "victory-point bank-trade"
).split()


def _say(message: str) -> None:
    """A message on standard error, each of its lines shown as `sgn validate` shows a file
    name (`words.visible`): it may quote an implementation's name, its standard error, a
    bundle's case id, a path, and none of their control characters reaches the terminal."""
    sys.stderr.write(printable("\n".join(map(visible, message.split("\n"))) + "\n"))


def add_parsers(commands) -> None:
    """The `conformance` and `smoke` commands, on the subcommands of `sgn`."""
    for name, about in (
        ("conformance", "run another SGN implementation against the corpus and report"),
        ("smoke", "check the wiring of an implementation on a handful of cases"),
    ):
        sub = commands.add_parser(
            name,
            help=about,
            description=about[0].upper() + about[1:] + ". The implementation is a command, run "
            "without a shell. See docs/conformance.md.",
        )
        sub.add_argument(
            "--impl",
            action="append",
            default=[],
            metavar="CMD",
            help="the implementation's command line (split like a shell would)"
            + ("; repeat it to run several side by side" if name == "conformance" else ""),
        )
        sub.add_argument(
            "--mode",
            choices=("simple", "persistent"),
            default="simple",
            help="simple: one process per case, verdict in the exit code (default); "
            "persistent: the JSON protocol of schema/harness/v1",
        )
        sub.add_argument(
            "--timeout", type=positive_seconds, default=10.0, metavar="S", help="seconds per case (default 10)"
        )
        sub.add_argument(
            "--invalid-exit",
            type=positive_int,
            default=1,
            metavar="N",
            help="simple mode: the exit code that means invalid (default 1; an exit with it "
            "whose output shows an uncaught exception is a crash)",
        )
        sub.add_argument(
            "-o",
            "--output",
            choices=("text", "json", "junit", "html"),
            default="text",
            help="the report's format (html: the matrix of implementations as one page)",
        )
        sub.add_argument("--report", metavar="FILE", help="also write the report to FILE")
        sub.add_argument("--cases", metavar="FILE", help="a corpus bundle (default: the packaged one)")
        if name == "conformance":
            sub.add_argument(
                "--run",
                dest="run_globs",
                action="append",
                default=[],
                metavar="GLOB",
                help="only cases whose id or a tag matches (repeatable)",
            )
            sub.add_argument(
                "--skip",
                action="append",
                default=[],
                metavar="GLOB",
                help="skip cases whose id or a tag matches (repeatable)",
            )
            sub.add_argument("--skip-file", metavar="FILE", help="globs to skip, one a line")
            sub.add_argument("--level", choices=LEVELS, help="only cases of this level and below")
            sub.add_argument(
                "--profile", choices=PROFILES, default=None, help="only cases of this profile (default: both)"
            )
            sub.add_argument(
                "--codes",
                action="store_true",
                help="persistent mode: also compare the errors (codes, lines, pointers, columns) "
                "and, when the implementation gives them, the warnings",
            )
            sub.add_argument(
                "--state", action="store_true", help="persistent mode: also compare the end state of valid rules cases"
            )
            sub.add_argument(
                "--moves",
                action="store_true",
                help="score a rules engine: its legal moves at positions of the corpus (the perft table's and "
                "along its games) against sgn's, position by position (docs/conformance.md, Rules engines)",
            )
            sub.add_argument(
                "--perft",
                type=positive_int,
                metavar="D",
                help="with --moves: ask the perft count at depth D (at most the table's) instead of the moves",
            )
            sub.add_argument(
                "--departure",
                action="append",
                default=[],
                choices=MOVE_CLASSES,
                metavar="CLASS",
                help="with --moves: a class of moves the engine is known to generate otherwise, not compared "
                "(repeatable; " + ", ".join(MOVE_CLASSES) + ")",
            )
            sub.add_argument(
                "--jobs",
                "-j",
                type=positive_int,
                default=1,
                metavar="N",
                help="run N cases at a time (N processes; default 1)",
            )
            sub.add_argument("--max-fail", type=positive_int, metavar="N", help="stop after N cases failed or errored")
            sub.add_argument(
                "--fail-fast",
                dest="max_fail",
                action="store_const",
                const=1,
                help="stop at the first case that fails or errors (--max-fail 1)",
            )
            actions = sub.add_subparsers(dest="action", metavar="ACTION")
            diff = actions.add_parser(
                "diff",
                help="the cases whose outcome changed between two JSON reports",
                description="List the cases whose outcome changed between two JSON reports "
                "of sgn conformance (-o json). Exit 0 when none did, 1 when some did.",
            )
            diff.add_argument("old", metavar="OLD.json")
            diff.add_argument("new", metavar="NEW.json")
            diff.add_argument("-o", "--output", dest="diff_output", choices=("text", "json"), default="text")
        sub.set_defaults(run=run, smoke=name == "smoke")


def run_diff(args: argparse.Namespace, out) -> int:
    import json

    from ..conformance.diff import NotAReport, changes, load, render_text

    tables = []
    for path in (args.old, args.new):
        try:
            tables.append(load(path))
        except OSError as error:
            _say(f"sgn conformance diff: cannot read {describe(path)}: {error.strerror or error}")
            return EXIT_USAGE
        except NotAReport as error:
            _say(f"sgn conformance diff: {describe(path)}: {error}")
            return EXIT_USAGE
    found = changes(*tables)
    out.write(json.dumps(found, indent=1) + "\n" if args.diff_output == "json" else render_text(found))
    return EXIT_INVALID if found else EXIT_OK


def smoke_verdict(run) -> Tuple[bool, str]:
    """Whether the wiring is right, and why: every case got an answer (or was declined:
    skipped, or of a level or profile not declared), some were answered, and the answers
    tell valid from invalid (a program that says the same of everything does not read its
    input). The score is not the point: a case may fail."""
    from ..conformance.outcome import ERRORED, FAILED, PASSED

    statuses = [o.status for o in run.outcomes]
    answered = [o for o in run.outcomes if o.status in (PASSED, FAILED)]
    declined = len(statuses) - len(answered) - statuses.count(ERRORED)
    verdicts = {o.got_valid for o in answered}
    of = f"{len(answered)} of {count(len(statuses), 'case')}"
    if statuses.count(ERRORED):
        return False, f"answered {of} ({statuses.count(ERRORED)} errored)"
    if not answered:
        return (
            False,
            f"answered none of {count(len(statuses), 'case')} (it declined them all): is it wired to run them?",
        )
    if len(verdicts) < 2:
        return False, (
            f"answered every case {'valid' if verdicts == {True} else 'invalid'}"
            + (f" ({of} answered, the others declined)" if declined else "")
            + ": does it read its input?"
        )
    return True, (
        f"answered all {count(len(statuses), 'case')}" if not declined else f"answered {of} (the others declined)"
    ) + ", some valid and some invalid"


def _report_over_an_input(args: argparse.Namespace, bundle: Path) -> str:
    """Why `--report FILE` must not be written, or '': it is an input, by any name or link:
    the corpus bundle read (`--cases`, or the packaged one), the skip file, or a file an
    implementation's command names (`selection.command_files`: its program, its script, the
    module of `python -m`)."""
    from ..conformance.selection import command_files
    from .output_file import OutputError, refuse_inputs

    inputs = [str(p) for p in (bundle, getattr(args, "skip_file", None)) if p]
    inputs += [path for impl in args.impl for path in command_files(impl)]
    try:
        refuse_inputs(args.report, inputs)
    except OutputError as error:
        return str(error)
    return ""


def _positions():
    """A rules engine's positions (`conformance.moves`), and what names them in a report:
    the perft table's version and its SHA-256."""
    import hashlib

    from .. import packaged
    from ..conformance.moves import positions
    from ..corpus import perft

    text = (packaged.corpus_dir() / perft.TABLE).read_bytes()
    found = positions(perft.load_table())
    identity = {"version": perft.load_table().get("version"), "sha256": hashlib.sha256(text).hexdigest()}
    return found, dict(identity, cases=len(found))


def _departures(info: dict, named) -> list:
    """The departures of a run: the engine's own (its answer to start), then those named."""
    declared = info.get("moves", {}).get("departures", []) if isinstance(info.get("moves"), dict) else []
    found = {d["moves"]: d["rule"] for d in declared}
    for name in named:
        found.setdefault(name, "named on the command line")
    return [{"moves": k, "rule": v} for k, v in found.items()]


def run(args: argparse.Namespace, out) -> int:
    """`sgn conformance` (one implementation, or several side by side), `sgn smoke`, and
    `sgn conformance diff`."""
    from .. import conformance
    from ..corpus import CorpusError, bundle_path, load_bundle

    if getattr(args, "action", None) == "diff":
        return run_diff(args, out)
    me = f"sgn {'smoke' if args.smoke else 'conformance'}"
    engine = getattr(args, "moves", False)
    if not engine and (getattr(args, "perft", None) or getattr(args, "departure", [])):
        _say(f"{me}: --perft and --departure score a rules engine: add --moves")
        return EXIT_USAGE
    try:
        bundle = bundle_path(Path(args.cases) if args.cases else None)
        cases, identity = _positions() if engine else load_bundle(bundle)
        skip = list(getattr(args, "skip", []))
        if getattr(args, "skip_file", None):
            skip += conformance.read_skip_file(args.skip_file)
    except CorpusError as error:
        _say(f"{me}: {error}")
        return EXIT_USAGE
    except (OSError, ValueError) as error:  # the skip file
        _say(f"{me}: cannot read {describe(args.skip_file)}: {getattr(error, 'strerror', None) or error}")
        return EXIT_USAGE
    problem = (
        "--impl CMD is required (or: sgn conformance diff OLD.json NEW.json)"
        if not args.impl
        else "--impl is empty"
        if not all(conformance.command(i) for i in args.impl)
        else "smoke checks one implementation at a time"
        if args.smoke and len(args.impl) > 1
        else ""
    )
    if not problem and args.report:
        problem = _report_over_an_input(args, bundle)
    if problem:
        _say(f"{me}: {problem}")
        return EXIT_USAGE
    if args.smoke:
        chosen, skipped = conformance.smoke_cases(cases), []
    else:
        chosen = conformance.select(cases, run=args.run_globs, skip=skip, level=args.level, profile=args.profile)
        chosen_ids = {c["id"] for c in chosen}
        skipped = [
            c
            for c in conformance.select(cases, run=args.run_globs, level=args.level, profile=args.profile)
            if c["id"] not in chosen_ids
        ]
    codes, state = getattr(args, "codes", False), getattr(args, "state", False)
    if engine and (codes or state):
        _say(f"{me}: --codes and --state compare validators' answers, not a rules engine's (--moves)")
        return EXIT_USAGE
    if args.mode == "simple" and (codes or state):
        sys.stderr.write(
            f"{me}: {'--codes' if codes else '--state'} needs --mode persistent: in simple mode "
            "the exit code is the only answer\n"
        )
        return EXIT_USAGE
    if not chosen:
        sys.stderr.write(
            f"{me}: no case is selected (--run, --skip and --level leave none of {count(len(cases), 'case')})\n"
        )
        return EXIT_USAGE
    runs = []
    for impl in args.impl:
        try:
            run = conformance.run_cases(
                impl,
                chosen,
                mode=args.mode,
                timeout=args.timeout,
                codes=codes,
                state=state,
                skipped=skipped,
                invalid_exit=args.invalid_exit,
                jobs=getattr(args, "jobs", 1),
                max_fail=getattr(args, "max_fail", None),
                depth=getattr(args, "perft", None),
                departures=getattr(args, "departure", []),
            )
        except conformance.CannotStart as error:
            _say(f"{me}: {error}")
            return EXIT_USAGE
        run.metadata["corpus"] = identity
        run.metadata["options"].update(
            level=getattr(args, "level", None),
            profile=getattr(args, "profile", None),
            run=getattr(args, "run_globs", []),
            skip=skip,
        )
        if engine:
            run.metadata["options"].update(
                moves=True, perft=args.perft, departures=_departures(run.info, args.departure)
            )
        runs.append(run)
    if len(runs) > 1 or args.output == "html":
        from ..conformance import html, matrix

        renderers = {
            "text": matrix.render_matrix_text,
            "json": matrix.render_matrix_json,
            "junit": matrix.render_matrix_junit,
            "html": html.page,
        }
        text = renderers[args.output](runs)
    else:
        text = conformance.RENDERERS[args.output](runs[0])
    if args.smoke:  # the last word is the wiring's, not the score's
        wired, why = smoke_verdict(runs[0])
        if args.output == "text":
            text = text.rstrip("\n").rsplit("\n", 1)[0] + f"\n{'WIRING OK' if wired else 'CHECK THE WIRING'}: {why}\n"
        elif args.output == "json":
            import json

            report = json.loads(text)  # ok and problem are smoke's verdict, as its exit status is
            score = {"ok": report.get("ok"), "problem": report.get("problem")}
            report.update(ok=wired, problem="" if wired else why, score=score, wiring={"ok": wired, "detail": why})
            text = json.dumps(report, indent=1) + "\n"
        elif args.output == "junit":
            from ..conformance.scorecard import render_smoke_junit

            text = render_smoke_junit(runs[0], wired, why)
    out.write(text)
    if args.report:
        from .output_file import OutputError, written

        try:
            with written(args.report) as report:  # the earlier report stays if this one fails
                report.write(printable(text))
        except OutputError as error:
            _say(f"{me}: {error}")
            return EXIT_USAGE
    if args.smoke:
        _say(f"smoke: the implementation {why} - {'wiring OK' if wired else 'check the wiring'}")
        return EXIT_OK if wired else EXIT_INVALID
    return EXIT_OK if all(r.ok for r in runs) else EXIT_INVALID
