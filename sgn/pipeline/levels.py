"""The stages a level runs, fresh for each file: the layers of one message (`sgn/layers/stages.py`),
then the rules replay; and the level `auto` stands for, from a log's first message."""

from __future__ import annotations

from typing import Any, List

from ..game.profiles import DEFAULT, departures
from ..layers.hidden import ALLOW
from ..layers.stages import LEVELS, MESSAGE_STAGES, Stage, check_options


def _rules_stage(profile: str, hidden: str, rules: str) -> Stage:
    from ..game.recovery import Replay

    return Replay(rules)


def auto_level(first_message: Any) -> str:
    """The level `auto` stands for, given the first message of a log: a map or a header starts a game."""
    starts_game = isinstance(first_message, list) and len(first_message) > 1 and first_message[1] in ("DM", "HD")
    return "rules" if starts_game else "semantic"


def build_stages(level: str, profile: str, hidden: str = ALLOW, rules: str = DEFAULT) -> List[Stage]:
    """The stages that run at `level` (not `auto`), fresh for one file: the layers of one
    message, then the rules replay, under the rule profile `rules`."""
    check_options(level, profile, hidden)
    departures(rules)  # (a ValueError naming the profiles for another)
    layers = LEVELS[1 : LEVELS.index(level) + 1]
    return [
        _rules_stage(profile, hidden, rules) if layer == "rules" else MESSAGE_STAGES[layer](profile, hidden)
        for layer in layers
    ]
