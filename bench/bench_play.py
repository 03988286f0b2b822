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


def _rate(bots, games, jobs=1):
    jobs_list = schedule(bots, 4, games)
    start = time.perf_counter()
    records = list(run(bots, jobs_list, Settings(seed=7), jobs))
    return len(records) / (time.perf_counter() - start), records


def _catanatron(games):
    try:
        from catanatron import Color, Game, RandomPlayer
    except ImportError:
        return None
    colors = [Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE]
    start = time.perf_counter()
    for i in range(games):
        Game([RandomPlayer(c) for c in colors], seed=i).play()
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    random4 = [BotSpec.parse("random")]
    ours, records = _rate(random4, args.games)
    theirs = _catanatron(args.games)
    lines = sum(len(r.log) for r in records) / len(records)
    print(f"random bots in one process: {ours:.1f} games/s ({lines:.0f} lines a game, each game checked)")
    if theirs is None:
        print("catanatron's random players: not installed (pip install '.[test-engines]')")
    else:
        print(
            f"catanatron's random players, its own games: {theirs:.1f} games/s; ratio {ours / theirs:.2f}x (target >= 1)"
        )
    program = [BotSpec("py", f"{sys.executable} {HERE / 'examples' / 'bots' / 'random_bot.py'}")]
    stdio, _ = _rate(program, max(8, args.games // 2))
    print(f"four random bots as programs: {stdio:.1f} games/s (target >= 10)")
    one, _ = _rate(random4, args.games, 1)
    two, _ = _rate(random4, args.games, 2)
    print(f"-j 2 against -j 1: {two:.1f} / {one:.1f} games/s = {two / one:.2f}x (target >= 1.8)")


if __name__ == "__main__":
    main()
