"""One fault, one error, on a real engine's games: what the replay reports of catanatron's
games, with the engine's own faults, with a fault put in, and with a line lost or repeated.

- **engine faults**: catanatron's random bots, under the engine's default rules, play
  development cards on the turn they bought them (and, about once in 300 games, play on
  after the rulebook's winner: a tie for the longest road), and the engine pays nobody from
  a short bank where the rulebook pays the one player owed (what the replay counts of that
  hand is off from then on). Each line that breaks a rule when the log is replayed as it
  stands must be reported, once, and no other line; a line that breaks one only through a
  count an earlier line showed off (a later discard of that hand) is the same fault again,
  and may be reported or not (`sgn.testing.as_it_stands.faults_within_bounds`).
- **inserted faults**: each mutation of `sgn.strategies.GAME_MUTATIONS`, put into
  catanatron games whose bots follow the rulebook: exactly the fault's line, none more than 3.
- **a line lost or repeated** (a message lost or sent twice in transit): the first error
  must be the first line that breaks a rule when the log is replayed as it stands, at most 2
  error lines in 95% of logs, none more than 5.

- **speed**: the rules level on the games with faults, against the same engine's games
  without, in one run (faults must cost little: at least 0.9 times).

Prints each share against its target (docs/rules.md, "After an error"); exit 1 when one
is missed. Needs catanatron (`tox -e bench` installs it).

    python bench/bench_engine_faults.py --games 300
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine_games  # noqa: E402
import sgn  # noqa: E402
from sgn import strategies  # noqa: E402
from sgn.game import OVER, Game  # noqa: E402
from sgn.layers.records import ACTIONS as RECORD_ACTIONS  # noqa: E402
from sgn.testing.as_it_stands import early_plays, faults_as_it_stands, faults_within_bounds, first_fault  # noqa: E402

Found = List[Tuple[int, str]]


def error_lines(game: List[list]) -> Found:
    """The error lines of a game checked under the rulebook (`rules="standard"`: the engine's
    departures are the faults counted here, whatever the game's header names)."""
    lines = [json.dumps(m, separators=(",", ":")) for m in game]
    return [(d.line or 0, d.code) for d in sgn.iter_diagnostics(lines, level="rules", rules="standard") if d.is_error]


def plain(game: List[list]) -> List[list]:
    """The game without its record lines (the header the converter writes, each end of a
    turn): the faults put in and the lines lost are placed among SGN v1.0's messages, as the
    truths of `sgn.testing.as_it_stands` and the mutations of `sgn.strategies` count them."""
    return [m for m in game if m[1] not in RECORD_ACTIONS]


def complete(game: List[list]) -> bool:
    """A game replayed to its winner (catanatron stops some at its turn limit)."""
    replay = Game()
    for n, message in enumerate(game, 1):
        replay.apply(message, n)
    return replay.phase == OVER


def speed(faulty: List[List[list]], clean: List[List[list]], rounds: int = 7) -> Tuple[float, float]:
    """Messages a second at the rules level through the games with faults and those without,
    rounds of each in turn (so that the machine's moods fall on both alike); the medians."""
    sets = [
        [("".join(json.dumps(m, separators=(",", ":")) + "\n" for m in g)).encode() for g in games]
        for games in (faulty, clean)
    ]
    rates: List[List[float]] = [[], []]
    for _ in range(rounds):
        for i, data in enumerate(sets):
            started = time.perf_counter()
            for log in data:
                for _ in sgn.iter_diagnostics(io.BytesIO(log), level="rules", rules="standard"):
                    pass
            rates[i].append(sum(log.count(b"\n") for log in data) / (time.perf_counter() - started))
    return statistics.median(rates[0]), statistics.median(rates[1])


def share(values: List[bool]) -> float:
    return sum(values) / len(values) if values else 1.0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="catanatron games of each kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-v", "--verbose", action="store_true", help="show each report that is off")
    args = parser.parse_args(argv)
    if not engine_games.available():
        print("bench_engine_faults: catanatron is not installed (tox -e bench installs it)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    started = time.perf_counter()

    # the engine's own faults
    faulty = [plain(g) for g in engine_games.games_with_faults(args.games, 4, args.seed)] + [
        plain(g) for g in engine_games.games_with_faults(args.games // 3, 3, args.seed + 10_000)
    ]
    truth_total = missed = false = wrong_games = early = again = 0
    for i, game in enumerate(faulty):
        as_it_stands = set(faults_as_it_stands(game))  # no line outside it is reported
        truth = set(faults_within_bounds(game))  # every line of it is reported
        early += len(set(early_plays(game)) & truth)  # (a play after the rulebook's end is none)
        found = error_lines(game)
        lines = {line for line, _ in found}
        truth_total += len(truth)
        again += len(as_it_stands - truth)
        missed += len(truth - lines)
        false += len(lines - as_it_stands)
        if not truth <= lines <= as_it_stands:
            wrong_games += 1
            if args.verbose:
                print(f"engine game {i}: missed {sorted(truth - lines)}, false {sorted(lines - as_it_stands)[:8]}")

    # faults put into games that follow the rulebook
    clean = [plain(g) for g in engine_games.games(args.games, 4, args.seed) if complete(plain(g))]
    per_kind: Dict[str, List[int]] = {m.__name__.strip("_"): [] for m in strategies.GAME_MUTATIONS}
    for i, game in enumerate(clean):
        for mutation in strategies.GAME_MUTATIONS:
            result = mutation(copy.deepcopy(game), rng.randrange(10_000))
            if result is None:
                continue
            mutated, code, line = result
            found = error_lines(mutated)
            d = len(set(found) ^ {(line, code)}) + len(found) - len(set(found))
            per_kind[mutation.__name__.strip("_")].append(d)
            if d and args.verbose:
                print(f"engine game {i}, {mutation.__name__}: expected {code} at {line}; found {found[:6]}")

    # a line lost, a line repeated
    edits: Dict[str, List[Tuple[bool, int]]] = {"line lost": [], "line repeated": []}
    for i, game in enumerate(clean):
        for kind in edits:
            at = rng.randrange(1, len(game))
            edited = game[:at] + game[at + 1 :] if kind == "line lost" else game[: at + 1] + game[at:]
            expected = first_fault(edited)
            found = error_lines(edited)
            lines = sorted({line for line, _ in found})
            first_right = (lines[0] if lines else 0) == expected
            edits[kind].append((first_right, len(lines)))
            if (not first_right or len(lines) > 2) and args.verbose:
                print(f"engine game {i}, {kind} at {at + 1}: first fault {expected}; found {found[:6]}")

    print(f"sgn {sgn.__version__}: catanatron games, seed {args.seed} ({time.perf_counter() - started:.0f} s)")
    print(
        f"engine faults: {len(faulty)} games, {truth_total} lines break a rule as the log stands ({early} cards "
        f"played the turn they were bought), {again} more only through a count an earlier line showed off (the "
        f"same fault again, reported or not); missed {missed}, false lines {false}, games not exact {wrong_games}"
    )
    every: List[int] = []
    print(f"{'inserted fault':28} {'logs':>6} {'exact':>8} {'worst':>6}")
    for kind, distances in per_kind.items():
        if distances:
            every += distances
            print(f"{kind:28} {len(distances):6} {share([d == 0 for d in distances]):8.1%} {max(distances):6}")
    print(f"{'line lost or repeated':28} {'logs':>6} {'first ok':>8} {'<= 2':>8} {'worst':>6}")
    rows = [
        ("engine faults reported", f"{truth_total - missed}/{truth_total}", missed == 0),
        ("engine games: false lines", str(false), false == 0),
        (
            "inserted fault: exactly its line >= 99%",
            f"{share([d == 0 for d in every]):.1%}",
            share([d == 0 for d in every]) >= 0.99,
        ),
        ("inserted fault: none more than 3 lines off", str(max(every, default=0)), max(every, default=0) <= 3),
    ]
    for kind, results in edits.items():
        first = share([ok for ok, _ in results])
        within = share([n <= 2 for _, n in results])
        worst = max((n for _, n in results), default=0)
        print(f"{kind:28} {len(results):6} {first:8.1%} {within:8.1%} {worst:6}")
        rows += [
            (f"{kind}: first error is the first fault (100%)", f"{first:.1%}", first == 1.0),
            (f"{kind}: at most 2 error lines >= 95%", f"{within:.1%}", within >= 0.95),
            (f"{kind}: none more than 5", str(worst), worst <= 5),
        ]
    fast, slow = speed(faulty, clean)
    print(
        f"rules level: {fast:,.0f} messages/s on the games with faults, {slow:,.0f} on those without "
        f"(medians of 7 rounds each, in turn): {fast / slow:.2f} x"
    )
    rows.append(("faults cost little: with faults >= 0.9 x without", f"{fast / slow:.2f} x", fast / slow >= 0.9))
    print()
    print(f"{'target':52} {'measured':>9}  result")
    for label, measured, ok in rows:
        print(f"{label:52} {measured:>9}  {'ok' if ok else 'MISSED'}")
    return 0 if all(ok for *_, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
