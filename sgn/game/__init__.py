"""The rules replay: a game's state, and `Game.apply(message)`, which checks one move against it
(`core`), with the rules by concern (`setup`, `turns`, `robber`, `building`, `cards`,
`trades`, on the state of `state` and `pieces`), and the recovery after a fault (`recovery`,
`readings`). It imports nothing of the pipeline that runs it (`sgn.check`)."""

from typing import TYPE_CHECKING, Any, List

if TYPE_CHECKING:
    from .core import OVER, SETUP, TURNS, Game, Income, Map, MessageError, Player

__all__ = ["Map", "Game", "Income", "MessageError", "OVER", "Player", "SETUP", "TURNS"]


def __getattr__(name: str) -> Any:
    """`Game`, documented on first use (`documented.py`: its docstrings, which a compiled
    class loses, and the state's fields): reading them costs a parse of the sources, which
    a run of `sgn validate` does not pay."""
    if name == "Game":
        from .core import Game
        from .documented import document

        document(Game)
        globals()["Game"] = Game
        return Game
    if name in __all__:  # (the replay is loaded when asked for: a check below the rules level needs none of it)
        from . import core

        globals()[name] = value = getattr(core, name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
