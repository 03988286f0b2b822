"""The rules replay: a game's state, and `Game.apply(message)`, which checks one move against it
(`core`), with the rules by concern (`setup`, `turns`, `robber`, `building`, `cards`,
`trades`, on the state of `state` and `pieces`), and the recovery after a fault (`recovery`,
`readings`). It imports nothing of the pipeline that runs it (`sgn.check`)."""
from .core import OVER, SETUP, TURNS, Board, Game, Income, MessageError, Player
from .documented import document

document(Game)      # its docstrings, which a compiled class loses, and the state's fields

__all__ = ["Board", "Game", "Income", "MessageError", "OVER", "Player", "SETUP", "TURNS"]
