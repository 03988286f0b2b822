#!/usr/bin/env python3
"""Games of a real engine, as SGN: catanatron's bots play, this writes their games down.

The benchmark's own games (`sgn.play`) are made by the replay it measures; a real
engine's games are shaped by other hands: catanatron's random bots hold large hands,
discard often and trade with the bank a great deal (about 500 messages a game, one in
six a bank trade or a discard). catanatron is installed for the benchmark only
(`tox -e bench`); nothing in `sgn` depends on it.

Each game is translated from catanatron's action log, which records what a replay
needs (the dice, the card drawn, the card stolen, the cards discarded), by the
converter `sgn convert --from catanatron` uses (`sgn.adapters.catanatron.translate`:
catanatron's own JSON of the game, converted). The converter only reads a game; the
rulebook's production and longest road that the benchmark's bots play under are set
up here, by replacing catanatron's own functions when this module is imported.

    python bench/engine_games.py --games 200 -o engine-games/   # one .sgn file per game
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Dict, Iterator, List

try:
    from catanatron import Color, Game, RandomPlayer
except ImportError:  # said once, by main()
    Game = None

try:
    from sgn.adapters.catanatron import COLORS, RESOURCE, translate  # noqa: F401 (RESOURCE: for the tests)
except ImportError:  # a checkout without an install: its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from sgn.adapters.catanatron import COLORS, RESOURCE, translate  # noqa: F401


def available() -> bool:
    return Game is not None


PLAYS = {
    "PLAY_KNIGHT_CARD": "KNIGHT",
    "PLAY_ROAD_BUILDING": "ROAD_BUILDING",
    "PLAY_YEAR_OF_PLENTY": "YEAR_OF_PLENTY",
    "PLAY_MONOPOLY": "MONOPOLY",
}


def _bought_this_turn(game, color) -> Dict[str, int]:
    bought: Dict[str, int] = {}
    for who, kind, value in reversed(game.state.actions):
        if kind.value == "END_TURN":
            break
        if who == color and kind.value == "BUY_DEVELOPMENT_CARD":
            bought[value] = bought.get(value, 0) + 1
    return bought


def _held(game, color, card: str) -> int:
    key = f"P{game.state.color_to_index[color]}"
    return game.state.player_state[f"{key}_{card}_IN_HAND"]


def _rulebook_production(board_, bank, number):
    """catanatron's production with the rulebook's shortage rule: when the bank cannot pay
    everyone a resource, nobody gets it, unless one player alone is owed it, who then gets
    what is left (catanatron 3.2.1 pays nobody in both cases)."""
    wanted, _ = _catanatron_production(board_, [10**6] * 5, number)
    payout = {color: [0] * 5 for color in wanted}
    depleted = []
    for i in range(5):
        owed = {color: deck[i] for color, deck in wanted.items() if deck[i]}
        if sum(owed.values()) <= bank[i]:
            for color, n in owed.items():
                payout[color][i] = n
        elif len(owed) == 1:
            (color,) = owed
            payout[color][i] = bank[i]
        else:
            depleted.append(i)
    return payout, depleted


def _rulebook_trail(board_, nodes, color) -> list:
    """The longest trail of `color`'s roads from the corners `nodes`, as its list of edges: a
    trail may end at another player's building but not pass it (catanatron 3.2.1 does not
    let it end there either, and counts one road short)."""
    graph = _catanatron_board.STATIC_GRAPH
    best: list = []

    def walk(node, path):
        nonlocal best
        if len(path) > len(best):
            best = path
        owner = board_.get_node_color(node)
        if path and owner is not None and owner != color:
            return
        for other in graph.neighbors(node):
            edge = (min(node, other), max(node, other))
            if edge not in path and board_.get_edge_color(edge) == color:
                walk(other, path + [edge])

    for node in nodes:
        walk(node, [])
    return best


if Game is not None:
    import catanatron.models.board as _catanatron_board
    import catanatron.state as _catanatron_state

    _catanatron_production = _catanatron_state.yield_resources
    _catanatron_trail = _catanatron_board.longest_acyclic_path
    _catanatron_state.yield_resources = _rulebook_production
    _catanatron_board.longest_acyclic_path = _rulebook_trail

    from catanatron.players.weighted_random import WeightedRandomPlayer

    class _KeepsToBoughtCards:
        """A catanatron bot kept to the rule that a card is not played the turn it was bought:
        catanatron 3.2.1 lets it be (the replay calls that card-bought-this-turn)."""

        def decide(self, game, playable_actions):
            bought = _bought_this_turn(game, self.color)
            if bought:
                allowed = [
                    a
                    for a in playable_actions
                    if a.action_type.value not in PLAYS
                    or _held(game, self.color, PLAYS[a.action_type.value]) > bought.get(PLAYS[a.action_type.value], 0)
                ]
                playable_actions = allowed or playable_actions
            return super().decide(game, playable_actions)  # type: ignore[misc]

    class RulesRandomPlayer(_KeepsToBoughtCards, RandomPlayer):
        """catanatron's random bot, kept to the rule of cards bought."""

    class RulesWeightedPlayer(_KeepsToBoughtCards, WeightedRandomPlayer):
        """catanatron's weighted random bot (cities, settlements and cards before roads), kept
        to the rule of cards bought: games that build up, as bots' games do."""


@contextlib.contextmanager
def engine_rules() -> Iterator[None]:
    """catanatron's own rules while the block runs (its production and longest road, which
    this module otherwise replaces with the rulebook's): games with the engine's faults."""
    production, trail = _catanatron_state.yield_resources, _catanatron_board.longest_acyclic_path
    _catanatron_state.yield_resources, _catanatron_board.longest_acyclic_path = (
        _catanatron_production,
        _catanatron_trail,
    )
    try:
        yield
    finally:
        _catanatron_state.yield_resources, _catanatron_board.longest_acyclic_path = production, trail


def games_with_faults(count: int, players: int = 4, seed: int = 0) -> Iterator[List[list]]:
    """`count` games of catanatron's own random bots under its own rules: cards played on the
    turn they were bought, nobody paid when the bank is short, the longest road counted as
    catanatron counts it. catanatron's games are not the same from one process to the next
    for a seed (t/data/README.md), so a test reads recorded ones."""
    for i in range(seed, seed + count):
        with engine_rules():
            game = Game([RandomPlayer(getattr(Color, c)) for c in COLORS[:players]], seed=i + 1)
            game.play()
        yield translate(game)


def games(count: int, players: int = 4, seed: int = 0) -> Iterator[List[list]]:
    """`count` games of catanatron's random bots that follow the rulebook to the end.

    About one game in three hundred does not: catanatron 3.2.1 gives the longest road, when a
    settlement cuts the holder's road and others tie, to whichever its dict lists first, so it
    may play on after the rulebook's winner won (the replay says `after-game-end`). Such a game
    is left out and the next seed played instead."""
    from sgn.game import Game as Replay

    made, i = 0, seed
    while made < count:
        bots = [RulesRandomPlayer(getattr(Color, c)) for c in COLORS[:players]]
        game = Game(bots, seed=i + 1)  # catanatron takes a seed of 0 as none
        i += 1
        game.play()
        messages = translate(game)
        replay = Replay()
        if any(replay.apply(m, n) for n, m in enumerate(messages, 1)):
            continue
        made += 1
        yield messages


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="how many games (default 200)")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="players a game (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument(
        "--engine-rules",
        action="store_true",
        help="catanatron's own bots and rules, with its faults (default: kept to the rulebook)",
    )
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        help="the folder for the .sgn files, or a .sgn.gz file for all the games in one stream",
    )
    args = parser.parse_args(argv)
    if not available():
        print("engine_games: catanatron is not installed (pip install catanatron, or tox -e bench)", file=sys.stderr)
        return 2
    made = (games_with_faults if args.engine_rules else games)(args.games, args.players, args.seed)
    texts = ("".join(json.dumps(m, separators=(",", ":")) + "\n" for m in game) for game in made)
    if args.output.name.endswith(".sgn.gz"):
        import gzip

        with gzip.open(args.output, "wt", encoding="utf-8", compresslevel=9) as stream:
            for text in texts:
                stream.write(text)
        return 0
    args.output.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(texts):
        (args.output / f"engine-{i + 1:05d}.sgn").write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
