"""An end of the game that an engine's rules and the rulebook's do not agree on, under a
profile whose count of points or whose moment of winning is the engine's (catanatron's
`longest-road-as-catanatron` and `win-in-any-turn`, sgn/game/rule_profiles.py).

A profile only removes errors (docs/engines.md, "Rule profiles"): a game of the rulebook is
a game of every profile. So where only one of the two rules ends the game (catanatron's
count of the longest road gives a player the tenth point that the rulebook's does not, or
the other way round; a player reaches 10 in another's turn), the game ends there as that
rule says, and a message that follows does not come after its end: the game went on, as
the other rule says (`went_on`). Where both end it, it ended. The rulebook's holder of the
longest road is kept beside the engine's for this (`State.rulebook_road`, `placing.py`).
"""

from __future__ import annotations

from typing import Callable, List, Optional

from .. import rules
from ..diagnostic import ERROR, Problem
from .rule_profiles import LONGEST_ROAD_AS_CATANATRON, WIN_ANY_TURN
from .state import OVER, TURNS, State

_POINTS_LONGEST = rules.POINTS["longest road"]


def rulebook_points(g: State, name: str) -> int:
    """`name`'s points with the longest road the rulebook awards."""
    points = g.points(name)
    if not g.departs(LONGEST_ROAD_AS_CATANATRON):
        return points
    return points - _POINTS_LONGEST * (g.longest_road == name) + _POINTS_LONGEST * (g.rulebook_road == name)


def winning_points(g: State) -> int:
    """The points of the winner of a game over (`g.current`), as the rule that ended it counts."""
    name = g.current
    assert name is not None
    if not g.ends_otherwise:
        return g.points(name)
    return max(g.points(name), rulebook_points(g, name))


def check(g: State, line: int) -> None:
    """After a message in the turn of `g.current` (not in a Special Building Phase): end the
    game where either rule ends it, and note an end only one of them makes."""
    current = g.current
    assert current is not None
    engine: Optional[str] = current if g.points(current) >= rules.POINTS_TO_WIN else None
    if engine is None and g.departs(WIN_ANY_TURN):
        engine = next((n for n in g.players if g.points(n) >= rules.POINTS_TO_WIN), None)
    if g.as_played:  # (a game being played ends as its profile says, and only there)
        if engine is not None:
            g.phase, g.ended_at, g.current = OVER, line, engine
        return
    rulebook = rulebook_points(g, current) >= rules.POINTS_TO_WIN
    if engine is None and not rulebook:
        return
    g.phase, g.ended_at = OVER, line
    if engine != current or not rulebook:  # one rule ends it: the game may go on
        g.end_departs = current
    if engine is not None:
        g.current = engine  # (the engine's winner, in another's turn too: the summary says so)


def went_on(g: State, move: Callable[[], List[Problem]]) -> Optional[List[Problem]]:
    """A message after an end only one rule makes: the game went on, in the turn it was, as
    the other rule says, and the message is `move`d there; None (the state as it was) where
    it breaks a rule there too, so that it is read as after the end."""
    assert g.end_departs is not None
    ended = type(g)(g.rules)
    g.copy_into(ended)
    g.phase, g.current, g.ended_at, g.end_departs = TURNS, g.end_departs, None, None
    try:
        problems: Optional[List[Problem]] = move()
    except (LookupError, TypeError, ValueError, AttributeError):
        problems = None  # (a move it cannot make: read as after the end)
    if problems is not None and not any(p.severity == ERROR for p in problems):
        return problems
    ended.copy_into(g)
    return None


__all__ = ["check", "rulebook_points", "went_on", "winning_points"]
