"""The stages a level runs, fresh for each file: the layers of one message (`sgn/layers/stages.py`),
then the rules replay; and the level `auto` stands for, from a log's first message."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

from ..layers.stages import LEVELS, MESSAGE_STAGES, Stage
from .checking import Checking


def _rules_stage(checking: Checking, on_state: Optional[Callable]) -> Stage:
    from ..game.recovery import Replay

    return Replay(checking.rules, on_state)


def auto_level(first_message: Any) -> str:
    """The level `auto` stands for, given the first message of a log: a map or a header starts a game."""
    starts_game = isinstance(first_message, list) and len(first_message) > 1 and first_message[1] in ("DM", "HD")
    return "rules" if starts_game else "semantic"


def build_stages(checking: Checking, level: str, on_state: Optional[Callable] = None) -> List[Stage]:
    """The stages that run at `level` (`checking`'s, or the one `auto` stands for), fresh
    for one file: the layers of one message, then the rules replay, under its rule profile,
    telling `on_state` each state (`Visitor.visit_state`). (`checking` was checked when it
    was made.)"""
    layers = LEVELS[1 : LEVELS.index(level) + 1]
    return [
        _rules_stage(checking, on_state)
        if layer == "rules"
        else MESSAGE_STAGES[layer](checking.profile, checking.hidden)
        for layer in layers
    ]
