"""catanatron's JSON of a game, read: its values, each checked as it is read (a fault is
an `Unreadable` at its JSON pointer, never a traceback), and its board in SGN's places
(`Translation`): tiles in cube coordinates, nodes, edges and ports, and the map.
`sgn/adapters/catanatron.py` converts the actions with them.
"""

from __future__ import annotations

import json
from typing import Dict, List, Optional, Tuple

from .. import board
from .writer import Unreadable, listing

RESOURCE = {"WOOD": "L", "BRICK": "B", "SHEEP": "W", "WHEAT": "G", "ORE": "O"}
TERRAIN = {"WOOD": "FO", "BRICK": "H", "SHEEP": "P", "WHEAT": "F", "ORE": "M"}
CORNER = {"NORTH": "N", "NORTHEAST": "NE", "SOUTHEAST": "SE", "SOUTH": "S", "SOUTHWEST": "SW", "NORTHWEST": "NW"}
SIDE = {"EAST": "E", "SOUTHEAST": "SE", "SOUTHWEST": "SW", "WEST": "W", "NORTHWEST": "NW", "NORTHEAST": "NE"}

Tile = Tuple[int, int]
# No number catanatron writes comes near this (dice, counts, coordinates, node ids): past it a
# value is refused, which keeps huge integers (the Python API takes any) out of the messages.
LARGEST = 10**9


# -- values, each checked as it is read -------------------------------------------------------


def field(data, key, pointer: str):
    if not isinstance(data, dict) or key not in data:
        raise Unreadable(
            f"the game has no `{key}`: not catanatron's JSON of a game "
            "(json.dumps(game, cls=catanatron.json.GameEncoder))",
            pointer,
        )
    return data[key]


def integer(value, pointer: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unreadable(f"{what} is {shown(value)}, not an integer", pointer)
    if not -LARGEST < value < LARGEST:
        raise Unreadable(f"{what} is {shown(value)}, beyond any number catanatron writes", pointer)
    return value


def a_list(value, pointer: str, what: str, length: Optional[int] = None) -> list:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = f" of {length}" if length is not None else ""
        raise Unreadable(f"{what} is {shown(value)}, not a list{size}", pointer)
    return value


def named(value, table, pointer: str, what: str):
    if not isinstance(value, str) or value not in table:
        raise Unreadable(f"{what} is {shown(value)}, not one of {', '.join(table)}", pointer)
    return table[value]


def shown(value) -> str:
    """A value as JSON, cut at 40 characters. It is written no further than that, so a value
    however large or deep costs no more than a small one, and one of no JSON type (the
    Python API takes any) is named by its type: showing a value never raises."""
    text = _json(value, 41)
    return text if len(text) <= 40 else text[:39] + "\u2026"


def _json(value, room: int) -> str:
    """`value` as json.dumps writes it, as far as `room` characters (then cut by `shown`)."""
    if isinstance(value, float) and value != value:
        return "NaN"
    if value is None or isinstance(value, (bool, float)):
        return json.dumps(value)
    if isinstance(value, int):  # (str() of a huge integer is slow, and refused past 4,300 digits)
        return (
            str(value)
            if -LARGEST < value < LARGEST
            else f"<an integer of about {int(value.bit_length() * 0.30103) + 1} digits>"
        )
    if isinstance(value, str):
        return json.dumps(value[:room])
    if isinstance(value, (list, tuple, dict)):
        text = "{" if isinstance(value, dict) else "["
        for i, item in enumerate(value.items() if isinstance(value, dict) else value):
            if len(text) >= room:
                break
            text += ", " if i else ""
            if isinstance(value, dict):
                text += _json(item[0], room - len(text)) + ": "
                item = item[1]
            text += _json(item, room - len(text))
        return text + ("}" if isinstance(value, dict) else "]")
    return f"<{type(value).__name__}>"


def cube(value, pointer: str) -> Tile:
    x, y, z = (
        integer(c, f"{pointer}/{i}", "a cube coordinate")
        for i, c in enumerate(a_list(value, pointer, "a tile's coordinate", 3))
    )
    if x + y + z != 0:
        raise Unreadable(f"{shown(value)} is no cube coordinate (x + y + z is not 0)", pointer)
    return (x, z)


# -- the board -------------------------------------------------------------------------------


class Translation:
    """catanatron's places as SGN's, read from the JSON of a game: its tiles (cube
    coordinates), its corners (node ids) and edges (pairs of node ids), and the map."""

    def __init__(self, data: dict) -> None:
        tiles = a_list(field(data, "tiles", ""), "/tiles", "`tiles`")
        rows: List[Tuple[Tile, dict]] = []
        for i, entry in enumerate(tiles):
            where = f"/tiles/{i}"
            rows.append(
                (
                    cube(field(entry, "coordinate", where), where + "/coordinate"),
                    self._tile(field(entry, "tile", where), where + "/tile"),
                )
            )
        harbors, listed = [], []
        for (q, r), tile in sorted(rows, key=lambda row: (row[0][1], row[0][0])):
            listed.append({"tile": [q, r], "tCode": tile["tCode"], "rNumber": tile["rNumber"]})
            if "harbor" in tile:
                side = board.edge_between((q, r), board.add((q, r), board.DIRECTIONS[tile["side"]]))
                harbors.append(
                    {"path": listing(listing(end) for end in board.canonical_edge(side)), "hCode": tile["harbor"]}
                )
        if len({tuple(t["tile"]) for t in listed}) != len(listed):
            raise Unreadable("a tile is listed twice", "/tiles")
        self.map = {"tiles": listed, "harbors": harbors}
        self.land = {tuple(t["tile"]): t["tCode"] for t in listed if t["tCode"] != "S"}
        self.nodes = self._nodes(field(data, "nodes", ""))

    @staticmethod
    def _tile(tile, where: str) -> dict:
        kind = field(tile, "type", where)
        if kind == "RESOURCE_TILE":
            resource = named(field(tile, "resource", where), TERRAIN, where + "/resource", "a tile's resource")
            number = integer(field(tile, "number", where), where + "/number", "a tile's number")
            return {"tCode": resource, "rNumber": number}
        if kind == "DESERT":
            return {"tCode": "D", "rNumber": None}
        if kind == "WATER":
            return {"tCode": "S", "rNumber": None}
        if kind == "PORT":
            side = named(field(tile, "direction", where), SIDE, where + "/direction", "a port's direction")
            resource = field(tile, "resource", where)
            code = (
                "HR" if resource is None else "HR" + named(resource, RESOURCE, where + "/resource", "a port's resource")
            )
            return {"tCode": "S", "rNumber": None, "harbor": code, "side": side}
        raise Unreadable(
            f"a tile of type {shown(kind)}: catanatron's are RESOURCE_TILE, DESERT, WATER and PORT", where + "/type"
        )

    @staticmethod
    def _nodes(nodes) -> Dict[int, board.Corner]:
        if not isinstance(nodes, dict):
            raise Unreadable(f"`nodes` is {shown(nodes)}, not an object of node ids", "/nodes")
        out: Dict[int, board.Corner] = {}
        for key, node in nodes.items():
            where = f"/nodes/{key}"
            if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 10):
                raise Unreadable(f"a node id {shown(key)} is no number", where)
            tile = cube(field(node, "tile_coordinate", where), where + "/tile_coordinate")
            corner = named(field(node, "direction", where), CORNER, where + "/direction", "a node's direction")
            out[int(key)] = board.corner(tile, corner)
        return out

    def corner(self, node, pointer: str) -> list:
        return listing(board.canonical_corner(self._corner(node, pointer)))

    def _corner(self, node, pointer: str) -> board.Corner:
        found = self.nodes.get(node) if isinstance(node, int) and not isinstance(node, bool) else None
        if found is None:
            raise Unreadable(f"node {shown(node)} is not among the game's `nodes`", pointer)
        if not any(t in self.land for t in found):
            raise Unreadable(f"node {node} touches no land", pointer)
        return found

    def edge(self, nodes, pointer: str) -> list:
        a, b = (self._corner(n, f"{pointer}/{i}") for i, n in enumerate(a_list(nodes, pointer, "an edge", 2)))
        if not board.is_edge(a, b):
            raise Unreadable(f"nodes {nodes[0]} and {nodes[1]} are not the two ends of an edge", pointer)
        return [listing(end) for end in board.canonical_edge(board.edge(a, b))]
