"""The evident repair of a message the schema refuses: what its writer plainly meant.

A player written as a number (`[1,"BS",...]`), an action code in the wrong case
(`["1","bs",...]`), a key misspelt where the key the schema wants is missing
(`"intersections"` for `"intersection"`, `"resource"` for `"resources"`). The schema
still reports the message, once, at its line; the replay reads the repaired message as
one reading of the line (`sgn/game/recovery.py`), so that what follows it is not reported too.
Nothing else is guessed: a message with no evident repair is read as lost.
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from typing import Any, FrozenSet, Optional

from ..packaged import load_json

ACTIONS = ("BC", "BD", "BR", "BS", "DM", "MR", "PD", "RD", "ST", "TR")


@lru_cache(maxsize=1)
def _keys() -> FrozenSet[str]:
    """Every property name the message schema defines, anywhere."""
    found: set = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            properties = node.get("properties")
            if isinstance(properties, dict):
                found.update(properties)
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(load_json("v1.0/message.json"))
    return frozenset(found)


def close_key(key: str, present) -> Optional[str]:
    """The schema's key that `key` evidently misspells, when that key is not there too."""
    if not isinstance(key, str) or key in _keys():
        return None
    near = difflib.get_close_matches(key, sorted(_keys()), n=1, cutoff=0.8)
    return near[0] if near and near[0] not in present else None


def _keys_repaired(value: Any) -> Any:
    if isinstance(value, list):
        return [_keys_repaired(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        out[close_key(key, value) or key] = _keys_repaired(item)
    return out


def evident_repair(message: Any) -> Optional[list]:
    """The message `message` evidently means, or None when there is no evident repair (or
    nothing to repair)."""
    if not (isinstance(message, list) and len(message) == 3):
        return None
    player, action, value = message
    if type(player) is int and 1 <= player <= 6:
        player = str(player)
    elif player == "b":
        player = "B"
    if isinstance(action, str) and action.upper() in ACTIONS:
        action = action.upper()
    repaired = [player, action, _keys_repaired(value)]
    return repaired if repaired != message else None
