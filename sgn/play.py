"""Whole legal games, played at random: `random_game(seed, players)` (the module is
`sgn.testing.play`; this name is kept for the users of `sgn.play`, with every name it had)."""

from .testing.play import (
    HARBOR_EDGES,
    MAX_TURNS,
    SPECIAL_BUILD_CHANCE,
    RandomPlayer,
    game_seed,
    iter_games,
    moved,
    random_game,
    random_map,
)

__all__ = [
    "HARBOR_EDGES",
    "MAX_TURNS",
    "SPECIAL_BUILD_CHANCE",
    "RandomPlayer",
    "game_seed",
    "iter_games",
    "moved",
    "random_game",
    "random_map",
]
