#!/usr/bin/env python3
"""Records catanatron games as catanatron's own JSON: the test data of
`sgn convert --from catanatron` (t/data/catanatron-json.tar.xz; README.md beside this).

Each game is played by catanatron's random bots under its default rules (10 points, the
standard board), seeded, and written as `json.dumps(game, cls=GameEncoder)` writes it,
which is also what catanatron's web server returns. catanatron's games are not the same
from one process to the next for a seed (its bots draw from the order of sets), so the
recordings are data: re-recording gives other games of the same kind.

    python tools/catanatron/record.py --games 20 --players 4 --seed 1 -o four.tar.xz

`--trading` (catanatron 3.3 and later, whose log is `action_records` and which has domestic
trades) has the bots offer a one-for-one trade now and then, so that the games hold
offers, acceptances and trades between players. Run it with the catanatron you want
recorded on the path (a checkout: PYTHONPATH=CHECKOUT/catanatron).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import tarfile
from pathlib import Path


def bots(count: int, trading: bool):
    from catanatron import Color, RandomPlayer

    colors = list(Color)[:count]
    if not trading:
        return [RandomPlayer(c) for c in colors]
    from catanatron.models.enums import Action, ActionType

    class TradingPlayer(RandomPlayer):
        """A random bot that, once in a turn after its roll, may offer one card it holds
        most of for one it holds none of (catanatron lets a bot offer any trade then)."""

        offered_in = -1

        def decide(self, game, playable_actions):
            state = game.state
            rolled = any(a.action_type == ActionType.END_TURN for a in playable_actions)
            if rolled and self.offered_in != state.num_turns and random.random() < 0.3:
                self.offered_in = state.num_turns
                key = f"P{state.color_to_index[self.color]}_"
                held = [state.player_state[f"{key}{r}_IN_HAND"] for r in ("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE")]
                most, none = max(range(5), key=held.__getitem__), [i for i in range(5) if not held[i]]
                if held[most] and none:
                    offer = [0] * 10
                    offer[most], offer[5 + random.choice(none)] = 1, 1
                    return Action(self.color, ActionType.OFFER_TRADE, tuple(offer))
            return super().decide(game, playable_actions)

    return [TradingPlayer(c) for c in colors]


def record(games: int, players: int, seed: int, trading: bool):
    """(file name, JSON text) of each game."""
    from catanatron import Game
    from catanatron.json import GameEncoder

    for s in range(seed, seed + games):
        random.seed(s)
        game = Game(bots(players, trading), seed=s)
        game.play()
        yield f"catanatron-{players}p-{s:03d}.json", json.dumps(game, cls=GameEncoder)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="how many games (default 20)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="players a game (default 4)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1; 0 is no seed)")
    parser.add_argument("--trading", action="store_true", help="bots that offer domestic trades (catanatron 3.3+)")
    parser.add_argument(
        "-o", "--output", type=Path, required=True, help="a .tar.xz of the games, or a folder for one .json file each"
    )
    args = parser.parse_args(argv)
    try:
        import catanatron  # noqa: F401
    except ImportError:
        print("record.py: catanatron is not installed (pip install catanatron)", file=sys.stderr)
        return 2
    made = record(args.games, args.players, args.seed, args.trading)
    if args.output.name.endswith(".tar.xz"):
        with tarfile.open(args.output, "w:xz") as archive:
            for name, text in made:
                data = text.encode("utf-8")
                info = tarfile.TarInfo(name)
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
        return 0
    args.output.mkdir(parents=True, exist_ok=True)
    for name, text in made:
        (args.output / name).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
