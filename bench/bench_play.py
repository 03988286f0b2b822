"""How fast `sgn play` plays (docs/performance.md, "Playing"): side by side in one run,

- random bots in one process, 4 seats, every game checked by the rules replay, against
  `catanatron`'s own random players playing its own games (`Game(...).play()`), in games a
  second, and their ratio (target: at least 1x);
- four random bots as programs speaking the protocol (examples/bots/random_bot.py), in
  games a second (target: at least 10);
- the same match with `-j 2` against `-j 1` (target: at least 1.8x).

Run: python bench/bench_play.py [--games N]. catanatron is the `test-engines` extra; without
it that line says so.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sgn.referee.match import BotSpec, Settings, run, schedule

HERE = Path(__file__).resolve().parent.parent


ROUNDS = 4  # each pair of figures is measured in turns, A B A B ..., and summed


def _ours(bots, games, jobs=1, seed=7):
    """Seconds to play `games` (whole boards), and the records."""
    jobs_list = schedule(bots, 4, games)
    start = time.perf_counter()
    records = list(run(bots, jobs_list, Settings(seed=seed), jobs))
    return time.perf_counter() - start, records


def _catanatron(games, first):
    from catanatron import Color, Game, RandomPlayer

    colors = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
    start = time.perf_counter()
    for i in range(first, first + games):
        Game([RandomPlayer(c) for c in colors], seed=i).play()
    return time.perf_counter() - start


def _side_by_side(a, b):
    """Games a second of two workloads, measured in turns: (a's rate, b's rate)."""
    time_a = time_b = 0.0
    games_a = games_b = 0
    for r in range(ROUNDS):
        n, t = a(r)
        games_a, time_a = games_a + n, time_a + t
        n, t = b(r)
        games_b, time_b = games_b + n, time_b + t
    return games_a / time_a, games_b / time_b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80, help="games of each workload (in 4 turns)")
    args = parser.parse_args()
    per = max(4, args.games // ROUNDS)
    random4 = [BotSpec.parse("random")]

    def ours(r, jobs=1):
        seconds, records = _ours(random4, per, jobs, seed=r)
        return len(records), seconds

    try:
        import catanatron  # noqa: F401
    except ImportError:
        print("catanatron's random players: not installed (pip install '.[test-engines]')")
    else:
        mine, theirs = _side_by_side(ours, lambda r: (per, _catanatron(per, r * per)))
        print(
            f"random bots in one process, each game checked: {mine:.1f} games/s; catanatron's random "
            f"players in its own games: {theirs:.1f} games/s; ratio {mine / theirs:.2f}x (target >= 1)"
        )
    program = [BotSpec("py", f"{sys.executable} {HERE / 'examples' / 'bots' / 'random_bot.py'}")]
    seconds, records = _ours(program, per * 2)
    asked = sum(sum(r.requests.values()) for r in records) / len(records)
    print(
        f"four random bots as programs: {len(records) / seconds:.1f} games/s (target >= 10), {asked:.0f} requests a game"
    )

    def longer(r, jobs):  # (rounds three times as long: a pool's start weighs less)
        seconds, records = _ours(random4, 3 * per, jobs, seed=r)
        return len(records), seconds

    one, two = _side_by_side(lambda r: longer(r, 1), lambda r: longer(r, 2))
    print(f"-j 2 against -j 1: {two:.1f} / {one:.1f} games/s = {two / one:.2f}x (target >= 1.8)")


if __name__ == "__main__":
    main()
