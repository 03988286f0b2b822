"""The writer's slips that `sgn.testing.edits` makes: each writes one line of a game again
with one fault that the syntax, schema or semantic layer refuses (a byte that is no UTF-8,
a key misspelt, a sign flipped, a seat not in the game, a tile off the map), or returns
None where the line has no place for it. `edits.EDITS` is their table, a code a row.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, Callable, FrozenSet, NamedTuple, Optional, Sequence, Tuple

Tile = Tuple[int, int]
Edit = Callable[[list, "Board", random.Random], Optional[bytes]]


class Board(NamedTuple):
    """What an edit needs of the game's map: its tiles, land and sea, and its seats."""

    land: FrozenSet[Tile]
    sea: FrozenSet[Tile]
    seats: Tuple[str, ...]

    @property
    def tiles(self) -> FrozenSet[Tile]:
        return self.land | self.sea


def _text(message: Any) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


def _copy(message: list) -> list:
    return json.loads(json.dumps(message))


def far(tile: Sequence[int]) -> Tile:
    """A tile far off any map."""
    return (tile[0] + 10, tile[1] + 10)


# -- syntax: the bytes of the line ---------------------------------------------------------


def number_as(literal: str) -> Edit:
    """The first number of the line's value written as `literal`."""

    def edit(message: list, b: Board, rng: random.Random) -> Optional[bytes]:
        value = _text(message[2]).decode()
        found = re.search(r"(?<=[:\[,])-?\d+(?=[,\]}])", value)
        if found is None:
            return None
        head = _text(message[:2])[:-1] + b","
        return head + (value[: found.start()] + literal + value[found.end() :]).encode() + b"]"

    return edit


def invalid_utf8(message: list, b: Board, rng: random.Random) -> bytes:
    raw = _text(message)
    return raw[:2] + b"\xff" + raw[2:]


def invalid_json(message: list, b: Board, rng: random.Random) -> bytes:
    return _text(message)[:-1]


def duplicate_key(message: list, b: Board, rng: random.Random) -> Optional[bytes]:
    text = _text(message).decode()
    found = re.search(r'\{"(\w+)":("[^"]*"|-?\d+|null)', text)
    if found is None:
        return None
    return (text[: found.end()] + f',"{found.group(1)}":{found.group(2)}' + text[found.end() :]).encode()


def too_deep(message: list, b: Board, rng: random.Random) -> bytes:
    return _text([message[0], message[1], json.loads("[" * 70 + "]" * 70)])


# -- the schema ---------------------------------------------------------------------------


def not_array(message: list, b: Board, rng: random.Random) -> bytes:
    return _text({"message": message})


def shortened(message: list, b: Board, rng: random.Random) -> bytes:
    return _text(message[:2])


def player_is(name: Any) -> Edit:
    def edit(message: list, b: Board, rng: random.Random) -> bytes:
        return _text([name] + message[1:])

    return edit


def action_unknown(message: list, b: Board, rng: random.Random) -> bytes:
    return _text([message[0], "XX", message[2]])


def value_edit(change: Callable[[Any], Any]) -> Edit:
    """An edit of the line's value (a copy), or None where `change` finds no place."""

    def edit(message: list, b: Board, rng: random.Random) -> Optional[bytes]:
        value = change(_copy(message)[2])
        return None if value is None else _text([message[0], message[1], value])

    return edit


def first_key(value: Any, to: Callable[[Any], Any]) -> Any:
    if isinstance(value, dict) and value:
        key = next(iter(value))
        value[key] = to(value[key])
        return value
    return None


def resource_key(rename: str) -> Callable[[Any], Any]:
    """A trade's or steal's resource renamed on both sides (`"Ore"` for `"O"`)."""

    def change(value: Any) -> Any:
        kinds = [r for r in value[0]["resources"] if r in value[1]["resources"]]
        if not kinds:
            return None
        for side in value:
            side["resources"][rename] = side["resources"].pop(kinds[0])
        return value

    return change


# -- the semantic checks --------------------------------------------------------------------


def place_edit(key: str) -> Callable[[Callable[[list, Board], Optional[list]]], Edit]:
    """An edit of the place a build names (`key`: "intersection" or "path"), by `change`."""

    def made(change: Callable[[list, Board], Optional[list]]) -> Edit:
        def edit(message: list, b: Board, rng: random.Random) -> Optional[bytes]:
            value = _copy(message)[2]
            place = change(value[key], b)
            if place is None:
                return None
            value[key] = place
            return _text([message[0], message[1], value])

        return edit

    return made


intersection_edit, path_edit = place_edit("intersection"), place_edit("path")


def far_corner(path: list) -> list:
    return [path[0], [list(far(tuple(t))) for t in path[1]]]


def robber_edit(tile: Callable[[Board], Optional[Tile]]) -> Edit:
    def edit(message: list, b: Board, rng: random.Random) -> Optional[bytes]:
        where = tile(b)
        return None if where is None else _text([message[0], "MR", {"tile": list(where)}])

    return edit


def card_edit(change: Callable[[dict], Optional[dict]], cards: Sequence[str]) -> Edit:
    def edit(message: list, b: Board, rng: random.Random) -> Optional[bytes]:
        value = _copy(message)[2]
        if value.get("cCode") not in cards:
            return None
        value = change(value)
        return None if value is None else _text([message[0], "PD", value])

    return edit


def without_key(key: str) -> Callable[[dict], dict]:
    def change(value: dict) -> dict:
        value.pop(key, None)
        return value

    return change


def with_key(key: str, item: Any) -> Callable[[dict], dict]:
    def change(value: dict) -> dict:
        value[key] = item
        return value

    return change


def _other_seat(message: list, b: Board, rng: random.Random, besides: Sequence[str]) -> Optional[str]:
    others = [s for s in b.seats if s not in besides]
    return rng.choice(others) if others else None


def trade_actor(message: list, b: Board, rng: random.Random) -> Optional[bytes]:
    seat = _other_seat(message, b, rng, [s["player"] for s in message[2]])
    return None if seat is None else _text([seat] + message[1:])


def trade_with_self(message: list, b: Board, rng: random.Random) -> Optional[bytes]:
    value = _copy(message)[2]
    if value[1]["player"] == "B" or value[0]["player"] == "B":
        return None
    value[1]["player"] = value[0]["player"]
    return _text([message[0], "TR", value])


def zero(value: Any) -> Any:
    kinds = [r for r in value[0]["resources"] if r in value[1]["resources"]]
    if not kinds:
        return None
    for side in value:
        side["resources"][kinds[0]] = 0
    return value


def unbalanced(value: Any) -> Any:
    resources = value[1]["resources"]
    kind = next(iter(resources))
    resources[kind] += 1 if resources[kind] > 0 else -1
    return value


def one_sided(value: Any) -> Any:
    """A bank trade whose player gives nothing: only what they take is kept."""
    mine, bank = (value[0], value[1]) if value[1]["player"] == "B" else (value[1], value[0])
    if bank["player"] != "B":
        return None
    taken = {r: n for r, n in mine["resources"].items() if n > 0}
    if not taken or len(taken) == len(mine["resources"]):
        return None
    mine["resources"] = taken
    bank["resources"] = {r: -n for r, n in taken.items()}
    return value


def victim_is(name: Optional[str]) -> Callable[[Any], Any]:
    def change(value: Any) -> Any:
        value[1]["player"] = name if name is not None else value[0]["player"]
        return value

    return change


def flip_victim(value: Any) -> Any:
    value[1]["resources"] = {r: -n for r, n in value[1]["resources"].items()}
    return value


def steal_actor(message: list, b: Board, rng: random.Random) -> Optional[bytes]:
    return _text([message[2][1]["player"]] + message[1:])


# -- the map ----------------------------------------------------------------------------------


def map_edit(change: Callable[[dict], Optional[dict]]) -> Edit:
    def edit(message: list, b: Board, rng: random.Random) -> Optional[bytes]:
        value = change(_copy(message)[2])
        return None if value is None else _text([message[0], "DM", value])

    return edit


def duplicate_tile(value: dict) -> dict:
    value["tiles"][1]["tile"] = value["tiles"][0]["tile"]
    return value


def _land_entry(value: dict, kind: Optional[str] = None) -> Optional[dict]:
    return next(
        (t for t in value["tiles"] if t["tCode"] not in ("S", "D") and (kind is None or t["tCode"] == kind)), None
    )


def no_number(value: dict) -> Optional[dict]:
    entry = _land_entry(value)
    if entry is None:
        return None
    entry["rNumber"] = None
    return value


def number_on_desert(value: dict) -> Optional[dict]:
    entry = next((t for t in value["tiles"] if t["tCode"] == "D"), None)
    if entry is None:
        return None
    entry["rNumber"] = 6
    return value


def no_sea_tile(value: dict) -> Optional[dict]:
    sea = [i for i, t in enumerate(value["tiles"]) if t["tCode"] == "S"]
    if not sea:
        return None
    del value["tiles"][sea[0]]
    return value


def harbor_inland(value: dict) -> Optional[dict]:
    if not value.get("harbors"):
        return None
    value["harbors"][0]["path"] = [[[0, 0], [1, 0], [0, 1]], [[0, 0], [0, 1], [-1, 1]]]
    return value


def harbors_touch(value: dict) -> Optional[dict]:
    harbors = value.get("harbors") or []
    if len(harbors) < 2:
        return None
    path = harbors[0]["path"]
    harbors[1]["path"] = json.loads(json.dumps(path))
    return value
