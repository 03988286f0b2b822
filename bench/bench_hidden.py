#!/usr/bin/env python3
"""Hidden cards (docs/hidden.md): what `sgn` says of a log as a player or a spectator sees
it (`sgn redact`), against what it says of the full log.

- **soundness**: every view (each seat's and the spectator's) of every valid game, the
  recorded engine games of t/data whose full log has no error and generated games of 3 to 6
  players, is valid: 100%.
- **monotony**: hiding never adds an error: every error line of a view is an error line of
  the full log, on faulty logs too (generated games with each fault of GAME_MUTATIONS and
  of `hidden_logs.HAND_MUTATIONS`, and the engine games with their own faults). Reported as
  the share of views where it holds, per fault kind, with the lines that break it: a fault
  in hands may move to a later line (docs/hidden.md, "What a partial log cannot tell"), so
  the target is on the other lines: none may be added after every error line of the full
  log before it was reported in the view.
- **sensitivity**: a fault that no hidden value touches (UNTOUCHED, each with its reason)
  is reported at its line, with its code, in every view: 100%. For faults in hands
  (IN_HANDS, and the engine games' own faults of HAND_CODES), the share still caught at
  their line in the spectator's view and in the view of a seat that is not the faulty
  player's.
- **cost**: the spectator's view of each engine game checked at >= 1/3 the speed of its
  full log (messages a second of processor time, both in one run, best of --rounds rounds
  each, in turn), game by game and over all the games;
  peak memory (tracemalloc) and time on adversarial views: every card hidden (steals and
  draws hidden, every roll `?`) and --steals hidden steals in a row. Their verdict must be
  valid (they are views of legal games) and memory stays within 64 MB, the bound of
  docs/performance.md; whether the replay's bound on worlds was reached is printed
  (`within_bounds_from_line` in `sgn.replay`'s state).

Prints each figure against its target; exit 1 when one is missed.

    python bench/bench_hidden.py [--games N]
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import math
import random
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hidden_logs  # noqa: E402  (puts the checkout's sgn on the path when none is installed)
import sgn  # noqa: E402
from hidden_logs import Log, Named, seats, view  # noqa: E402
from sgn.testing.faults import GAME_MUTATIONS  # noqa: E402

Found = List[Tuple[int, str]]
MEMORY_MB = 64  # docs/performance.md, "Bounded memory"
SPEED_SHARE = 1 / 3
SPEED_SPAN = 0.02  # seconds: the least a timing of one game takes

# faults of GAME_MUTATIONS that no hidden value touches: `sgn redact` hides only the card a
# player draws and the card stolen; what each of these breaks is shown in every view
UNTOUCHED = {
    "drop_map": "the map is shown",
    "roll_twice": "rolls are shown",
    "roll_out_of_turn": "who rolls is shown: turn order",
    "robber_without_seven": "the robber's moves and the rolls are shown",
    "lost_roll": "the turn's moves are shown: a roll missing",
    "late_discard": "a discard missing: how many cards each holds is known in every view (a steal moves "
    "one card, a draw is paid in sight), but after a Monopoly of cards in doubt, where every count owes one",
    "setup_swapped": "placements are shown",
    "before_own_roll": "the order of moves is shown: a build or trade before the roll",
    "roll_out_of_range": "a roll's number is shown (a schema error)",
    "special_trade": "the Special Build Phase's moves are shown: a trade in it",
    "special_card": "the Special Build Phase's moves are shown: a card played in it",
    "special_turn_player": "the Special Build Phase's moves are shown: its order",
    "special_order": "the Special Build Phase's moves are shown: its order",
}
# faults in hands: what a player holds may be hidden from a view
IN_HANDS = {
    "city_without_ore": "a build without its cards (cannot-afford)",
    "card_not_held": "a development card played that is not held (card-not-held)",
    "trade_not_held": "a trade of cards not held (not-held)",
}
# touched by hidden values, neither of the above: who won may rest on Victory Point cards
# drawn unseen (docs/hidden.md, "What a partial log cannot tell")
OTHER = {"after_the_end": "who won may rest on Victory Point cards drawn unseen"}
HAND_CODES = ("cannot-afford", "not-held", "card-not-held", "card-bought-this-turn")
ENGINE = "engine games, their own faults"


def kind_of(mutation) -> str:
    return mutation.__name__.strip("_")


def error_lines(game: Log) -> Found:
    lines = [json.dumps(m, separators=(",", ":")) for m in game]
    return [(d.line or 0, d.code) for d in sgn.iter_diagnostics(lines, level="rules") if d.is_error]


class Case(NamedTuple):
    kind: str  # "valid", a fault's kind, or ENGINE
    name: str
    game: Log
    fault: Optional[Tuple[int, str]]  # the line and code of the fault put in
    full: Found  # the errors of the full log
    views: Dict[Optional[str], Found]  # the errors of each view (None: the spectator's)


def judge(kind: str, name: str, game: Log, fault: Optional[Tuple[int, str]] = None) -> Case:
    return Case(
        kind, name, game, fault, error_lines(game), {seat: error_lines(view(game, seat)) for seat in seats(game)}
    )


def cases(engine: List[Named], generated: List[Named], seed: int = 0) -> List[Case]:
    """Every log judged, full and in each view: the valid engine games and generated games,
    the generated games with each fault, and the engine games with their own."""
    rng = random.Random(seed)
    out = []
    for name, game in engine:
        case = judge("valid", name, game)
        out.append(case if not case.full else case._replace(kind=ENGINE))
    for name, game in generated:
        out.append(judge("valid", name, game))
        for mutation in GAME_MUTATIONS + hidden_logs.HAND_MUTATIONS:
            made = mutation(copy.deepcopy(game), rng.randrange(10_000))
            if made is not None:
                faulty, code, line = made
                out.append(judge(kind_of(mutation), name, faulty, (line, code)))
    return out


def where(seat: Optional[str]) -> str:
    return "spectator" if seat is None else f"seat {seat}"


def soundness(found: List[Case]) -> Tuple[int, List[str]]:
    """The views of valid logs, and each one with an error (name, view, first error)."""
    count, failing = 0, []
    for case in found:
        if case.kind == "valid":
            for seat, errors in case.views.items():
                count += 1
                if errors:
                    failing.append(f"{case.name}, {where(seat)}: line {errors[0][0]} [{errors[0][1]}]")
    return count, failing


class Monotony(NamedTuple):
    views: int
    holding: int  # views whose error lines are all error lines of the full log
    moved: List[str]  # lines added where a fault moved later (one the full log has before is not there)
    added: List[str]  # lines added otherwise: hiding added an error
    worst: int  # the most lines one view added


def moved(case: Case, seat: Optional[str], line: int) -> bool:
    """Whether an error line of a view that the full log does not have is a fault moved
    later: an error line of the full log before it is not one of the view's."""
    seen = {n for n, _ in case.views[seat]}
    return any(n < line and n not in seen for n, _ in case.full)


def monotony(found: List[Case]) -> Dict[str, Monotony]:
    """Per kind of log: whether each view's error lines are error lines of the full log,
    and each line that is not (name, view, line and code, the full log's first errors)."""
    out: Dict[str, Monotony] = {}
    for case in found:
        views, holding, shifted, added, worst = out.get(case.kind, Monotony(0, 0, [], [], 0))
        full = {line for line, _ in case.full}
        for seat, errors in case.views.items():
            extra = sorted({line for line, _ in errors} - full)
            views, holding, worst = views + 1, holding + (not extra), max(worst, len(extra))
            for line in extra:
                codes = ", ".join(code for n, code in errors if n == line)
                said = f"{case.name}, {where(seat)}: line {line} [{codes}]; the full log {case.full[:4]}"
                (shifted if moved(case, seat, line) else added).append(said)
        out[case.kind] = Monotony(views, holding, shifted, added, worst)
    return out


def _other_seat(game: Log, faulty: str) -> str:
    """The seat after the faulty player's: a view that does not see the faulty player's hand."""
    names = hidden_logs.players(game)
    return names[(names.index(faulty) + 1) % len(names)] if faulty in names else names[0]


def sensitivity(found: List[Case]) -> Dict[str, Dict[str, Tuple[int, int, List[str]]]]:
    """Per kind of fault, per view ("every view"; for faults in hands "spectator" and
    "another seat"): the faults the full log reports at their line, those each view reports
    there with the same code, and those it misses."""
    out: Dict[str, Dict[str, Tuple[int, int, List[str]]]] = {}

    def count(kind: str, label: str, case: Case, seat: Optional[str], fault: Tuple[int, str]) -> None:
        total, caught, missed = out.setdefault(kind, {}).get(label, (0, 0, []))
        ok = fault in case.views[seat]
        if not ok:
            missed.append(f"{case.name}, {where(seat)}: {fault[1]} at {fault[0]}; the view {case.views[seat][:3]}")
        out[kind][label] = (total + 1, caught + ok, missed)

    for case in found:
        faults: List[Tuple[str, Tuple[int, str]]] = []
        if case.kind == ENGINE:
            faults = [(f"engine: {code}", (line, code)) for line, code in case.full if code in HAND_CODES]
        elif case.fault is not None and case.fault in case.full:
            faults = [(case.kind, case.fault)]
        for kind, fault in faults:
            if kind in UNTOUCHED:
                for seat in case.views:
                    count(kind, "every view", case, seat, fault)
            else:
                faulty = case.game[fault[0] - 1][0]
                count(kind, "spectator", case, None, fault)
                count(kind, "another seat", case, _other_seat(case.game, faulty), fault)
    return out


# -- cost -----------------------------------------------------------------------------------------------


def _encoded(game: Log) -> bytes:
    return "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in game).encode()


def _timed(data: bytes, times: int = 1) -> float:
    """Seconds of this process's processor time to check the log `times` times over, at the
    rules level (processor time: on a busy machine, a check of a few milliseconds waits for a
    core longer than it runs, and the wall clock would time the wait)."""
    started = time.process_time()
    for _ in range(times):
        for _ in sgn.iter_diagnostics(io.BytesIO(data), level="rules"):
            pass
    return (time.process_time() - started) / times


class Speed(NamedTuple):
    full: float  # messages a second through the full logs
    seen: float  # through their spectator's views
    ratios: List[Tuple[float, str, bool]]  # each game's: view / full, its name, whether it has a fault


def speed(games: List[Named], rounds: int) -> Speed:
    """The full logs and their spectator's views checked at the rules level, each game's best
    of `rounds` (the full log and its view in turn, so that the machine's moods fall on both
    alike; each checked over and over for at least SPEED_SPAN seconds, so that a game of a
    few milliseconds is not at the mercy of one); the slowest games first."""
    pairs = [(_encoded(g.game), _encoded(view(g.game, None))) for g in games]
    times = [max(1, math.ceil(SPEED_SPAN / _timed(full))) for full, _ in pairs]  # (it warms the memory too)
    best = [[float("inf"), float("inf")] for _ in pairs]
    for _ in range(rounds):
        for k, (full, seen) in enumerate(pairs):
            best[k][0] = min(best[k][0], _timed(full, times[k]))
            best[k][1] = min(best[k][1], _timed(seen, times[k]))
    messages = sum(len(g.game) for g in games)
    faulty = [bool(error_lines(g.game)) for g in games]
    ratios = sorted((full / seen, g.name, f) for (full, seen), g, f in zip(best, games, faulty))
    return Speed(messages / sum(b[0] for b in best), messages / sum(b[1] for b in best), ratios)


class Adversarial(NamedTuple):
    name: str
    messages: int
    seconds: float  # processor seconds of sgn.replay of the whole view, untraced
    peak_mb: float  # the peak of memory allocated while checking it (tracemalloc)
    errors: Found
    bound_from: Optional[int]  # the line where the worlds were merged into ranges, if they were


def adversarial(name: str, game: Log) -> Adversarial:
    """The view checked twice: timed, with `sgn.replay` (its verdict and its state: whether
    the bound on worlds was reached), then under tracemalloc (its peak). The tables `sgn`
    keeps between lines, each bounded on its own (docs/performance.md, "Bounded memory"),
    are filled by the first check: the peak is what checking this log holds."""
    lines = [json.dumps(m, separators=(",", ":")) for m in game]
    started = time.process_time()
    state, found = sgn.replay(lines)
    seconds = time.process_time() - started
    unseen = (state or {}).get("unseen", {})
    del state
    tracemalloc.start()
    for _ in sgn.iter_diagnostics(lines, level="rules"):
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    errors = [(d.line or 0, d.code) for d in found if d.is_error]
    return Adversarial(name, len(lines), seconds, peak / 1e6, errors, unseen.get("within_bounds_from_line"))


# -- the report ------------------------------------------------------------------------------------------

Row = Tuple[str, str, str, bool]  # figure, measured, target ("reported": none), met


def _listed(items: List[str], verbose: bool, indent: str = "    ") -> None:
    for item in items if verbose else items[:5]:
        print(f"{indent}{item}")
    if not verbose and len(items) > 5:
        print(f"{indent}... and {len(items) - 5} more (-v lists them)")


def report_judged(found: List[Case], verbose: bool) -> List[Row]:
    """Soundness, monotony and sensitivity, printed; their rows."""
    views, failing = soundness(found)
    valid = [c for c in found if c.kind == "valid"]
    print(f"\nsoundness: {views:,} views of {len(valid)} valid games; {len(failing)} with an error")
    _listed(failing, verbose)
    rows = [
        (
            "soundness: views of valid games without an error",
            f"{(views - len(failing)) / views:.1%}",
            "100%",
            not failing,
        )
    ]

    print("\nmonotony: every error line of a view is an error line of the full log (moved: lines added after")
    print("  an error line of the full log that the view does not report, a fault moved later; added: other")
    print("  lines added; worst: the most lines one view added)")
    print(f"  {'kind of log':32} {'views':>7} {'holds':>8} {'moved':>6} {'added':>6} {'worst':>6}")
    table = monotony(found)
    for kind, m in table.items():
        print(f"  {kind:32} {m.views:7,} {m.holding / m.views:8.1%} {len(m.moved):6} {len(m.added):6} {m.worst:6}")
        if verbose:
            _listed(m.moved + m.added, True)
    moving = [kind for kind, m in table.items() if m.moved]
    added = [line for m in table.values() for line in m.added]
    print(f"  a fault moved to a later line (docs/hidden.md), in: {', '.join(moving) or 'none'}")
    _listed(added, verbose)
    views = sum(m.views for m in table.values())
    rows += [
        (
            "monotony: views adding no error line",
            f"{sum(m.holding for m in table.values()) / views:.2%}",
            "reported",
            True,
        ),
        ("monotony: error lines added, not a fault moved later", str(len(added)), "0", not added),
        ("monotony: the most error lines one view added", str(max(m.worst for m in table.values())), "reported", True),
    ]

    print("\nsensitivity: the fault at its line, with its code, in the views")
    print(f"  {'fault':32} {'view':14} {'faults':>7} {'caught':>8}")
    table2 = sensitivity(found)
    engine = sorted(k for k in table2 if k.startswith("engine"))
    total = caught = 0
    shares: List[Row] = []
    for kind in [*UNTOUCHED, *IN_HANDS, *OTHER, *engine]:
        for label, (count, hit, missed) in table2.get(kind, {}).items():
            print(f"  {kind:32} {label:14} {count:7,} {hit / count:8.1%}")
            if kind in UNTOUCHED:
                total, caught = total + count, caught + hit
            if kind in UNTOUCHED or verbose:
                _listed(missed, verbose)
            if kind not in UNTOUCHED:
                shares.append((f"sensitivity: {kind}, {label}", f"{hit / count:.1%} of {count}", "reported", True))
    untouched = f"{caught / max(total, 1):.1%} of {total}"
    rows.append(("sensitivity: faults no hidden value touches, every view", untouched, "100%", caught == total))
    return rows + shares


def report_cost(engine: List[Named], found: List[Case], generated: List[Named], args) -> List[Row]:
    """The speed of the spectator's views and the adversarial views, printed; their rows."""
    rounds, steals, verbose = args.rounds, args.steals, args.verbose
    measured = speed(engine, rounds)
    ratio = measured.seen / measured.full
    slow = [
        f"{r:.2f} x: {name}{' (with faults)' if faulty else ''}"
        for r, name, faulty in measured.ratios
        if r < SPEED_SHARE
    ]
    print(
        f"\ncost: {len(engine)} engine games, best of {rounds} rounds: full logs {measured.full:,.0f} messages/s, "
        f"the spectator's views {measured.seen:,.0f} ({ratio:.2f} x); {len(slow)} games under 1/3, the slowest first:"
    )
    _listed(slow, verbose)
    rows = [
        ("cost: spectator's views / full logs, all engine games", f"{ratio:.2f} x", "≥ 0.33 x", ratio >= SPEED_SHARE),
        (
            "cost: the same, game by game: the slowest",
            f"{measured.ratios[0][0]:.2f} x ({len(slow)} of {len(engine)} under)",
            "≥ 0.33 x",
            not slow,
        ),
    ]
    print(f"  {'adversarial view':60} {'messages':>8} {'cpu s':>8} {'peak MB':>8}  {'bound reached':13}  errors")
    valid = [Named(c.name, c.game) for c in found if c.kind == "valid" and not c.name.startswith("generated")]
    for label, log in hidden_logs.adversarial_logs(valid, generated, steals):
        a = adversarial(label, log)
        bound = f"at line {a.bound_from}" if a.bound_from else "no"
        print(f"  {label:60} {a.messages:8,} {a.seconds:8.1f} {a.peak_mb:8.1f}  {bound:13}  {a.errors[:3] or 'none'}")
        rows.append(
            (
                f"cost: {label}: peak memory, errors",
                f"{a.peak_mb:.1f} MB, {len(a.errors)}",
                f"≤ {MEMORY_MB} MB, 0",
                a.peak_mb <= MEMORY_MB and not a.errors,
            )
        )
    return rows


def report(rows: List[Row]) -> int:
    print("\n| figure | measured | target |\n|---|---:|---|")
    for label, measured, target, ok in rows:
        verdict = "" if target == "reported" else " met" if ok else " MISSED"
        print(f"| {label} | {measured} | {target}{verdict} |")
    return 0 if all(ok for *_, ok in rows) else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="generated games, 3 to 6 players (default 100)")
    parser.add_argument("--engine-games", type=int, default=None, help="at most this many of each recording")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the speed figure, its best (default 5)")
    parser.add_argument("--steals", type=int, default=1000, help="hidden steals in a row (default 1,000)")
    parser.add_argument("--only", choices=("judged", "cost"), help="soundness, monotony and sensitivity; or the cost")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every case that is off")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    engine = hidden_logs.engine_games(args.engine_games)
    generated = hidden_logs.generated_games(args.games, args.seed)
    print(f"sgn {sgn.__version__}: {len(engine)} engine games, {len(generated)} generated games, seed {args.seed}")
    found = cases(engine, generated if args.only != "cost" else [], args.seed)
    rows = report_judged(found, args.verbose) if args.only != "cost" else []
    rows += report_cost(engine, found, generated, args) if args.only != "judged" else []
    print(f"\n({time.perf_counter() - started:.0f} s)")
    return report(rows)


if __name__ == "__main__":
    sys.exit(main())
