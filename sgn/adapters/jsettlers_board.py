"""JSettlers' classic boards in SGN's coordinates: hexes, nodes, edges, and the map.

JSettlers names every place of its classic boards (the 4-player board, encoding 1,
and the 6-player board, encoding 2) by one number of two hexadecimal digits (a, b),
hexes, nodes and edges alike. Its hexes are pointy-topped, in rows from west to
east, as SGN's are; a hex's centre has two odd digits, and its neighbours are
(a + 2, b + 2) to the east, (a, b + 2) to the north-east and (a + 2, b) to the
south-east. So a hex (a, b) is SGN's tile

    q = (b - 7) / 2,  r = (a - b) / 2

(the centre hex 0x77 is [0, 0]; JSettlers' north-east (0, +2) is SGN's (q + 1, r - 1)).
A hex's six corners, from the north clockwise, are the nodes (a, b + 1), (a + 1, b + 2),
(a + 2, b + 1), (a + 1, b), (a, b - 1), (a - 1, b); so a node touches three hexes, which
its parity tells: (x - 1, y), (x + 1, y), (x - 1, y - 2) when x is even, (x - 2, y - 1),
(x, y + 1), (x, y - 1) when it is odd. An edge e = (x, y) joins the nodes (x, y + 1) and
(x + 1, y) when x + y is even (an edge running north to south), else (x, y) and
(x + 1, y + 1). These follow from JSettlers' own description of its coordinates (its
`SOCBoard` javadoc and Robert S. Thomas' dissertation, appendix A); the tests check them
against the engine's games: every roll's production, every harbor trade.

The 6-player board's land (30 hexes) lies in the same grid in another place and turn
than SGN's 5-6 player board (`sgn.board.EXTENDED`); it is turned and moved onto it,
so that a converted game is drawn as every other game of that board is. Its sea is
not in JSettlers' layout: the ring around the land is added, as SGN's map needs it.
The harbors of the 4-player board are among its hexes (each port hex's value says its
kind and the side facing land); those of the 6-player board stand at 11 fixed places,
listed below in the order of the layout's `PL` (its harbor kinds), clockwise from the
north-west: each is a land hex and the side of it that faces the harbor.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, List, Optional, Tuple

from .. import board
from .writer import Unreadable, listing

Hex = Tuple[int, int]  # JSettlers' (a, b): the two hexadecimal digits
Tile = Tuple[int, int]

# Land kinds as the layout sends them (0 desert, 6 water: the values JSettlers sends for
# compatibility), with SGN's tile codes.
TERRAIN = {0: "D", 1: "H", 2: "M", 3: "P", 4: "F", 5: "FO"}
WATER = 6
# Harbor kinds (0: 3 for 1, then clay, ore, sheep, wheat, wood), as SGN's hCodes.
HARBOR = {0: "HR", 1: "HRB", 2: "HRO", 3: "HRW", 4: "HRG", 5: "HRL"}
# A port's facing, 1..6, from the port hex towards land: NE, E, SE, SW, W, NW.
FACING = {1: "NE", 2: "E", 3: "SE", 4: "SW", 5: "W", 6: "NW"}
# The 37 hexes of the layout's HL and NL arrays, row by row, west to east, from the north.
LAYOUT_HEXES: Tuple[int, ...] = tuple(
    start + 0x22 * k
    for start, count in ((0x17, 4), (0x15, 5), (0x13, 6), (0x11, 7), (0x31, 6), (0x51, 5), (0x71, 4))
    for k in range(count)
)
# The layout's numbers, when it sends an index (the 4-player SOCBoardLayout) rather than the roll.
NUMBER_INDEX = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
# The 6-player board's harbors, in the order of PL: a land hex and the side of it on the harbor.
HARBORS_6P: Tuple[Tuple[int, str], ...] = (
    (0x17, "NW"),
    (0x39, "NE"),
    (0x7B, "NE"),
    (0x9B, "E"),
    (0xB9, "E"),
    (0xB7, "SE"),
    (0x93, "SE"),
    (0x71, "SW"),
    (0x31, "SW"),
    (0x11, "W"),
    (0x13, "NW"),
)


def digits(coordinate: int) -> Hex:
    return (coordinate >> 4, coordinate & 0x0F)


def raw_tile(h: Hex) -> Tile:
    a, b = h
    return ((b - 7) // 2, (a - b) // 2)


def node_hexes(node: int) -> FrozenSet[Hex]:
    x, y = digits(node)
    if x % 2 == 0:
        return frozenset(((x - 1, y), (x + 1, y), (x - 1, y - 2)))
    return frozenset(((x - 2, y - 1), (x, y + 1), (x, y - 1)))


def edge_nodes(edge: int) -> Tuple[int, int]:
    x, y = digits(edge)
    if (x + y) % 2 == 0:
        return ((x << 4) + y + 1, ((x + 1) << 4) + y)
    return (edge, edge + 0x11)


def is_node(node: int) -> bool:
    x, y = digits(node)
    return (x + y) % 2 == 1


class JSettlersBoard:
    """One classic board of a JSettlers game: its tiles as SGN's, and its places."""

    def __init__(
        self,
        encoding: int,
        kinds: List[int],
        numbers: List[int],
        robber: int,
        ports: Optional[List[int]],
        numbers_indexed: bool,
    ) -> None:
        if len(kinds) != len(LAYOUT_HEXES) or len(numbers) != len(LAYOUT_HEXES):
            raise Unreadable(
                f"a board of {len(kinds)} hexes and {len(numbers)} numbers: the classic boards "
                f"have {len(LAYOUT_HEXES)} of each",
                "HL",
            )
        land: Dict[Hex, Tuple[str, Optional[int]]] = {}
        port_sides: List[Tuple[Hex, str, int]] = []  # (sea hex, side, kind)
        for h, kind, number in zip(LAYOUT_HEXES, kinds, numbers):
            here = digits(h)
            if kind in TERRAIN:
                if number != -1 and not (0 <= number < len(NUMBER_INDEX) if numbers_indexed else 2 <= number <= 12):
                    raise Unreadable(f"hex 0x{h:02x} has the number {number}", "NL")
                value = None if number == -1 else NUMBER_INDEX[number] if numbers_indexed else number
                land[here] = (TERRAIN[kind], value)
            elif kind == WATER:
                continue
            elif encoding == 1 and 7 <= kind <= 12:  # a 3:1 port, facing kind - 6
                port_sides.append((here, FACING[kind - 6], 0))
            elif encoding == 1 and (kind >> 4) in FACING and (kind & 0x0F) in HARBOR and kind & 0x0F:
                port_sides.append((here, FACING[kind >> 4], kind & 0x0F))
            else:
                raise Unreadable(f"hex 0x{h:02x} is of kind {kind}, which the classic boards do not have", "HL")
        if not land:
            raise Unreadable("the layout has no land hex: no game is played on it", "HL")
        self.turn = self._placing(frozenset(raw_tile(h) for h in land), encoding)
        self.land = {self.tile_of(h): value for h, value in land.items()}
        self.harbors: List[dict] = []
        if encoding == 1:
            for sea, side, kind in port_sides:
                self._harbor(board.add(raw_tile(sea), board.DIRECTIONS[side]), raw_tile(sea), kind)
        else:
            if ports is None or len(ports) != len(HARBORS_6P):
                raise Unreadable(
                    f"the 6-player board has {len(HARBORS_6P)} harbors; the layout's PL lists "
                    f"{'none' if ports is None else len(ports)}",
                    "PL",
                )
            for (h, side), kind in zip(HARBORS_6P, ports):
                if kind not in HARBOR:
                    raise Unreadable(f"a harbor of kind {kind}, which the classic boards do not have", "PL")
                land_tile = raw_tile(digits(h))
                self._harbor(land_tile, board.add(land_tile, board.DIRECTIONS[side]), kind)
        self.robber = self.tile(robber) if robber > 0 else None

    def _harbor(self, land_tile: Tile, sea_tile: Tile, kind: int) -> None:
        side = board.edge_between(self._turned(land_tile), self._turned(sea_tile))
        self.harbors.append(
            {"path": listing(listing(end) for end in board.canonical_edge(side)), "hCode": HARBOR[kind]}
        )

    @staticmethod
    def _placing(land: FrozenSet[Tile], encoding: int) -> Tuple[int, Tile]:
        """How to turn (a number of 60-degree steps) and then move the land onto SGN's board of
        its shape, when it has one; else as it is."""
        spec = board.EXTENDED if encoding == 2 else board.STANDARD
        target_low = min(spec.land, key=lambda t: (t[1], t[0]))
        turned = land
        for steps in range(6):
            low = min(turned, key=lambda t: (t[1], t[0]))
            shift = (target_low[0] - low[0], target_low[1] - low[1])
            if frozenset(board.add(t, shift) for t in turned) == spec.land:
                return steps, shift
            turned = frozenset(board.rotate(t) for t in turned)
        return 0, (0, 0)

    def _turned(self, tile: Tile) -> Tile:
        steps, shift = self.turn
        for _ in range(steps):
            tile = board.rotate(tile)
        return board.add(tile, shift)

    def tile_of(self, h: Hex) -> Tile:
        return self._turned(raw_tile(h))

    # the places of the log's messages
    def tile(self, coordinate: int) -> Tile:
        a, b = digits(coordinate)
        if coordinate < 0 or coordinate > 0xFF or a % 2 == 0 or b % 2 == 0:
            raise Unreadable(f"0x{coordinate:x} is no hex of a classic board", "coord")
        return self.tile_of((a, b))

    def corner(self, node: int) -> board.Corner:
        if not 0 <= node <= 0xFF or not is_node(node):
            raise Unreadable(f"0x{node:x} is no node of a classic board", "coord")
        found = frozenset(self.tile_of(h) for h in node_hexes(node))
        if not any(t in self.land for t in found):
            raise Unreadable(f"node 0x{node:02x} touches no land", "coord")
        return found

    def intersection(self, node: int) -> list:
        return listing(board.canonical_corner(self.corner(node)))

    def path(self, edge: int) -> list:
        if not 0 <= edge <= 0xFF:
            raise Unreadable(f"0x{edge:x} is no edge of a classic board", "coord")
        a, b = (self.corner(n) for n in edge_nodes(edge))
        if not board.is_edge(a, b):
            raise Unreadable(f"0x{edge:02x} is no edge of a classic board (it is a hex)", "coord")
        return [listing(end) for end in board.canonical_edge(board.edge(a, b))]

    def map(self) -> dict:
        """The SGN map: the land, the ring of sea around it, the harbors; rows (r, then q)."""
        sea = board.ring(frozenset(self.land))
        tiles = [
            {
                "tile": list(t),
                "tCode": self.land[t][0] if t in self.land else "S",
                "rNumber": self.land[t][1] if t in self.land else None,
            }
            for t in sorted(set(self.land) | sea, key=lambda t: (t[1], t[0]))
        ]
        return {"tiles": tiles, "harbors": self.harbors}

    def deserts(self) -> List[Tile]:
        return sorted(t for t, (kind, _) in self.land.items() if kind == "D")
