"""A line lost, by the kind of line: how many error lines each kind of lost message gives
in catanatron's games that keep to the rules (one fault, one error: at most 2 error lines
in 95% of logs, none more than 5; docs/rules.md, "After an error").

`bench_engine_faults.py` loses one line at a random place in each game; this loses many in
each, and counts by the action code of the line lost, so that the kinds of loss the
recovery reads worst stand out. Prints a table and the worst logs; exit 1 when a log gave
more than 5 error lines. Needs catanatron (`tox -e bench` installs it).

    python bench/bench_lost_lines.py --games 60 --per-game 40 --seed 5

catanatron's games differ a little from run to run (the engine's own randomness), and so
do the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine_games  # noqa: E402
from bench_engine_faults import complete, error_lines  # noqa: E402

WORST = 5  # error lines a log with one line lost may give, at most


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="catanatron games played")
    parser.add_argument("--per-game", type=int, default=40, help="lines lost, each in its own copy of a game")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--show", type=int, default=12, help="the worst logs shown")
    args = parser.parse_args(argv)
    if not engine_games.available():
        print("bench_lost_lines: catanatron is not installed (tox -e bench installs it)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    counts: Dict[str, List[int]] = defaultdict(list)
    worst: List[Tuple[int, int, int, list, list]] = []
    games = [g for g in engine_games.games(args.games, 4, args.seed) if complete(g)]
    for i, game in enumerate(games):
        for at in rng.sample(range(1, len(game)), min(args.per_game, len(game) - 1)):
            found = error_lines(game[:at] + game[at + 1 :])
            lines = len({line for line, _ in found})
            counts[game[at][1]].append(lines)
            worst.append((lines, i, at + 1, game[at], found[:6]))
    print(f"catanatron games kept to the rules: {len(games)}, seed {args.seed}, {args.per_game} lines lost in each")
    print(f"{'line lost':10} {'logs':>6} {'> 2 lines':>10} {'> 5 lines':>10} {'worst':>6}")
    for kind, found in sorted(counts.items()):
        print(
            f"{kind:10} {len(found):6} {sum(n > 2 for n in found):10} {sum(n > WORST for n in found):10} {max(found):6}"
        )
    worst.sort(key=lambda w: -w[0])
    for lines, i, line, message, found in worst[: args.show]:
        print(f"{lines:3} error lines: game {i}, line {line} lost, {json.dumps(message)[:70]}; {found}")
    return 1 if worst and worst[0][0] > WORST else 0


if __name__ == "__main__":
    sys.exit(main())
