"""Does catanatron's AlphaBeta play as well at sgn's table as in catanatron itself? The check
of the bridge (`sgn/referee/catanatron_bots.py`), side by side in one run:

(a) catanatron's own games, `catanatron.Game([...]).play()`: AlphaBeta against three of its
    RandomPlayers (`--against`: or another of its players), AlphaBeta's seat rotated (each
    game's seed chosen so that it sits first, second, ... in turn);
(b) the same line-up through sgn's referee under catanatron's rules (`--rules catanatron`):
    the bridge's `AlphaBeta` against three of its `Random`, in duplicate games (each board
    once in every rotation of the seats), every game checked by the rules replay (the
    referee stops with RefereeError at an illegal line).

It prints each win rate of AlphaBeta with its Wilson 95% interval and whether the two
intervals overlap (they should: the bridge gives AlphaBeta a possible world where the seat
does not see every card, catanatron gives it every card); as AlphaBeta wins nearly every
game against random players, also the turns it took to win (a finer measure of the same
play), each with its interval; the seconds each took, the bridge's fallbacks (decisions it
had to make plainly) and its slowest decision.

Run: python bench/bench_catanatron_bridge.py [--games 40] [--against Random]. Needs
catanatron (3.2.1, the `test-engines` extra) and its AlphaBeta player, which ships with
catanatron's search players (beside 3.2.1: catanatron_experimental, from catanatron's
repository, on PYTHONPATH).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, Dict, List, Tuple

from sgn.referee import catanatron_bots
from sgn.referee.match import BotSpec, Settings, run, schedule
from sgn.referee.summary import wilson

PLAYERS = 4
MADE: List[Any] = []  # the bridge's bots of this run, for their counts


class Counted:
    """A bot of the bridge kept for its counts, each decision timed."""

    def __init__(self) -> None:
        super().__init__()
        self.slowest = 0.0
        MADE.append(self)

    def decide(self, view: Any, request: Dict[str, Any]) -> Any:
        start = time.perf_counter()
        try:
            return super().decide(view, request)  # type: ignore[misc]
        finally:
            self.slowest = max(self.slowest, time.perf_counter() - start)


class AlphaBeta(Counted, catanatron_bots.AlphaBeta):
    pass


class Random(Counted, catanatron_bots.Random):
    pass


class WeightedRandom(Counted, catanatron_bots.WeightedRandom):
    pass


class ValueFunction(Counted, catanatron_bots.ValueFunction):
    pass


OPPONENTS = {"Random": Random, "WeightedRandom": WeightedRandom, "ValueFunction": ValueFunction}


def in_catanatron(games: int, seed: int, against: str) -> Tuple[int, int, int, float, List[int]]:
    """AlphaBeta's wins in catanatron's own games, the games played, those stopped by
    catanatron's turn limit, the seconds, and the turns of each game AlphaBeta won (its rolls)."""
    from catanatron import Color, Game  # type: ignore

    alphabeta = catanatron_bots.player_class("AlphaBeta")
    opponent = catanatron_bots.player_class(against)
    colors = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
    wins = unfinished = 0
    turns: List[int] = []
    start = time.perf_counter()
    for i in range(games):
        players = [alphabeta(colors[0])] + [opponent(c) for c in colors[1:]]
        k = 0
        while True:  # (catanatron seats its players in an order drawn from the seed)
            game = Game(players, seed=seed * 100_003 + i * 1_009 + k + 1)
            if game.state.colors.index(colors[0]) == i % PLAYERS:
                break
            k += 1
        winner = game.play()
        wins += winner == colors[0]
        unfinished += winner is None
        if winner == colors[0]:
            turns.append(sum(a.action_type.value == "ROLL" for a in game.state.actions))
    return wins, games, unfinished, time.perf_counter() - start, turns


def in_sgn(games: int, seed: int, move_ms: int, against: str) -> Tuple[int, int, int, float, List[Any]]:
    """AlphaBeta's wins through sgn's referee (rules "catanatron"), the games played, those
    that did not end in a win, the seconds, and the records."""
    bots = [BotSpec("alphabeta", "python:__main__:AlphaBeta")] + [
        BotSpec(f"{against}-{n}", f"python:__main__:{against}") for n in range(2, PLAYERS + 1)
    ]
    settings = Settings(players=PLAYERS, seed=seed, rules="catanatron", move_ms=move_ms)
    start = time.perf_counter()
    records = list(run(bots, schedule(bots, PLAYERS, games), settings))
    seconds = time.perf_counter() - start
    wins = len(won_in_sgn(records))
    unfinished = sum(r.how != "won" for r in records)
    return wins, len(records), unfinished, seconds, records


def won_in_sgn(records: List[Any]) -> List[Any]:
    return [r for r in records if r.winner is not None and r.bots[int(r.winner) - 1] == "alphabeta"]


def _mean(name: str, values: List[int]) -> Tuple[float, float]:
    """The mean with its 95% interval (normal: the turns of a game are many rolls' sum)."""
    n = len(values)
    mean = sum(values) / n if n else 0.0
    spread = (sum((v - mean) ** 2 for v in values) / (n - 1)) ** 0.5 if n > 1 else 0.0
    half = 1.96 * spread / n**0.5 if n else 0.0
    print(f"{name:<22} {mean:6.1f} turns  [{mean - half:.1f}, {mean + half:.1f}]  ({n} games)")
    return mean - half, mean + half


def _rate(name: str, wins: int, n: int) -> Tuple[float, float]:
    low, high = wilson(wins, n)
    print(f"{name:<22} {wins:>4}/{n:<4} {wins / n if n else 0:6.3f}  [{low:.3f}, {high:.3f}]")
    return low, high


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games of each side (sgn's: rounded up to whole boards)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--move-ms", type=int, default=60_000, help="the referee's deadline per decision")
    parser.add_argument(
        "--against", choices=sorted(OPPONENTS), default="Random", help="catanatron's player in the 3 other seats"
    )
    args = parser.parse_args()
    try:
        catanatron_bots.player_class("AlphaBeta")
        catanatron_bots.player_class(args.against)
    except ImportError as error:
        print(f"cannot run: {error}", file=sys.stderr)
        return 2

    wins_a, n_a, unfinished_a, seconds_a, turns_a = in_catanatron(args.games, args.seed, args.against)
    wins_b, n_b, unfinished_b, seconds_b, records = in_sgn(args.games, args.seed, args.move_ms, args.against)

    print(f"AlphaBeta against 3 of catanatron's {args.against}, {PLAYERS} players, win rate, 95% interval (Wilson)")
    low_a, high_a = _rate("(a) catanatron", wins_a, n_a)
    low_b, high_b = _rate("(b) sgn, the bridge", wins_b, n_b)
    overlap = low_a <= high_b and low_b <= high_a
    print(f"the intervals {'overlap' if overlap else 'do NOT overlap'}")
    print("the turns AlphaBeta took to win (its rolls and the others'), mean with its 95% interval")
    low_a, high_a = _mean("(a) catanatron", turns_a)
    low_b, high_b = _mean("(b) sgn, the bridge", [sum(m[1] == "RD" for m in r.log) for r in won_in_sgn(records)])
    print(f"the intervals {'overlap' if low_a <= high_b and low_b <= high_a else 'do NOT overlap'}")
    print(
        f"seconds: (a) {seconds_a:.1f} ({seconds_a / max(n_a, 1):.2f} a game), (b) {seconds_b:.1f} ({seconds_b / max(n_b, 1):.2f} a game)"
    )
    print(f"games not won by anyone: (a) {unfinished_a} (catanatron's turn limit), (b) {unfinished_b}")
    faults = sum(len(r.faults) for r in records)
    for name, kind in (("AlphaBeta", AlphaBeta), (args.against, OPPONENTS[args.against])):
        bots = [b for b in MADE if isinstance(b, kind)]
        print(
            f"the bridge's {name}: {sum(b.decisions for b in bots)} decisions, "
            f"{sum(b.fallbacks for b in bots)} fallbacks, {sum(b.unlisted for b in bots)} with no catanatron "
            f"action listed, slowest {max((b.slowest for b in bots), default=0.0):.2f} s"
        )
    print(f"faults in sgn's games: {faults}")
    for bot in MADE:
        for error in bot.errors:
            print(f"  fallback: {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
