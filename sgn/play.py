"""Whole legal games, played at random: `random_game(seed, players)` (the module is
`sgn.testing.play`; this name is kept for the users of `sgn.play`)."""
from .testing.play import RandomPlayer, game_seed, random_game

__all__ = ["RandomPlayer", "game_seed", "random_game"]
