"""A game's end state, as the corpus records it and the harness compares it (`--state`).

toml-test compares what a decoder read, not only that it said yes; for SGN the
equivalent is the state a rules replay ends in. The valid rules cases of the corpus
carry it (`state`): each player's points, resource hand, development cards, knights
played and pieces, the robber's tile and who holds the two awards. It is a part of
`sgn replay -o json`'s summary, in the same form. Pieces are compared as sets (an
intersection is a set of three tiles, a road a set of two intersections), so that any
order an implementation lists them in is the same state.
"""

from __future__ import annotations

import json
from typing import Any, Optional

PLAYER_KEYS = ("points", "hand", "cards", "knights_played", "settlements", "cities", "roads")
PIECES = {"settlements": 1, "cities": 1, "roads": 2}  # how many levels of sets a piece is
TOP_KEYS = ("robber", "longest_road", "largest_army")


def end_state(snapshot: dict) -> dict:
    """The compared part of a replay's snapshot (`Game.snapshot()`)."""
    state = {key: snapshot[key] for key in TOP_KEYS}
    state["players"] = {name: {key: player[key] for key in PLAYER_KEYS} for name, player in snapshot["players"].items()}
    return state


def _as_set(value: Any, depth: int) -> Any:
    """A piece (depth 1: an intersection of tiles; 2: a road of intersections) as a sorted
    tuple, order-free; ValueError when it is not of that shape."""
    if not isinstance(value, list):
        raise ValueError
    if depth == 0:
        return tuple(value)
    return tuple(sorted(_as_set(item, depth - 1) for item in value))


def _pieces(value: Any, depth: int) -> Any:
    if not isinstance(value, list):
        raise ValueError
    return sorted(_as_set(piece, depth) for piece in value)


def difference(expected: dict, reported: Optional[Any], path: str = "") -> str:
    """The first place where a reported state differs from the expected one ('' when it
    does not): every key the expected state has must be there with the same value; others
    are ignored."""
    if not isinstance(reported, dict):
        return f"{path or 'the state'}: expected an object, got {_show(reported)}"
    for key, want in expected.items():
        where = f"{path}/{key}"
        if key not in reported:
            return f"{where}: missing (expected {_show(want)})"
        got = reported[key]
        if key in PIECES and path.startswith("/players/"):
            try:
                same = _pieces(want, PIECES[key]) == _pieces(got, PIECES[key])
            except (ValueError, TypeError):
                return f"{where}: expected a list of {key}, got {_show(got)}"
            if not same:
                return f"{where}: expected {_show(want)}, got {_show(got)}"
        elif isinstance(want, dict):
            problem = difference(want, got, where)
            if problem:
                return problem
        elif want != got or type(want) is not type(got):
            return f"{where}: expected {_show(want)}, got {_show(got)}"
    return ""


def _show(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= 80 else text[:80] + "..."
