"""The parts of a replayed game's state: the map as the replay reads it, each player's
hand, pieces and cards, what a building earns, the longest-trail search, and the
bank's trade rates. `sgn/game/state.py` holds them together; `sgn/game/core.py` plays the moves.
"""

from __future__ import annotations

from typing import Dict, Final, List, Optional, Set, Tuple

from .. import board, rules
from ..board import Corner, Edge, Tile, edge_from_json
from ..diagnostic import Problem
from ..rules import RESOURCES, show_hand
from ..words import count

# The harbor that trades each resource 2:1, and the generic one (3:1).
HARBOR_FOR: Final = {r: code for code, r in board.HARBOR_RESOURCE.items() if r is not None}
GENERIC_HARBOR: Final = next(code for code, r in board.HARBOR_RESOURCE.items() if r is None)


def tile_from_json(raw) -> Tile:
    return (raw[0], raw[1])


def cards(n: int) -> str:
    """`1 card`, `2 cards`."""
    return count(n, "card")


def show_corner(c: Corner) -> str:
    return "[" + ",".join(f"[{q},{r}]" for q, r in board.canonical_corner(c)) + "]"


class Map:
    """The map as the replay needs it: kinds, numbers, harbors, and lookups worked out once."""

    __slots__ = ("kinds", "numbers", "harbor_at", "desert", "deserts", "land", "harbors", "yields")

    def __init__(
        self,
        kinds: Dict[Tile, str],
        numbers: Dict[Tile, int],
        harbor_at: Dict[Corner, Set[str]],
        desert: Optional[Tile],
        harbors: List[Tuple[Edge, str]],
    ):
        self.kinds = kinds
        self.numbers = numbers
        self.harbor_at = harbor_at  # corner -> harbor codes reachable from it
        self.desert = desert  # the first desert the map lists: the robber's start
        self.deserts = [t for t, k in kinds.items() if k == "D"]  # where the robber may start
        self.land = sum(k != board.SEA for k in kinds.values())  # land tiles, which name the variant
        self.harbors = harbors  # each harbor's edge and hCode, as the map lists them
        # tile -> (number, resource) for each tile that produces
        self.yields: Dict[Tile, Tuple[int, str]] = {
            t: (numbers[t], board.PRODUCING[k]) for t, k in kinds.items() if t in numbers and k in board.PRODUCING
        }

    @classmethod
    def from_value(cls, value: dict) -> "Map":
        kinds: Dict[Tile, str] = {}
        numbers: Dict[Tile, int] = {}
        for t in value["tiles"]:
            tile = tile_from_json(t["tile"])
            kinds[tile] = t["tCode"]
            if t["rNumber"] is not None:
                numbers[tile] = t["rNumber"]
        harbor_at: Dict[Corner, Set[str]] = {}
        harbors = []
        for h in value["harbors"]:
            e = edge_from_json(h["path"])
            harbors.append((e, h["hCode"]))
            for end in e:
                harbor_at.setdefault(end, set()).add(h["hCode"])
        desert = next((t for t, k in kinds.items() if k == "D"), None)
        return cls(kinds, numbers, harbor_at, desert, harbors)


# The roads of a player that end at one corner: (bit, other end) each.
Links = Tuple[Tuple[int, Corner], ...]


class Player:
    """One player's hand, pieces and cards."""

    def __init__(self, name: str, source: Optional["Player"] = None):
        self.name = name
        if source is not None:  # a copy of `source` (`clone`): nothing made to be replaced
            self._copy(source)
            return
        # plain dicts with every key present from the start (what the compiled replay reads fastest)
        self.hand: Dict[str, int] = dict.fromkeys(RESOURCES, 0)
        self.settlements: Set[Corner] = set()
        self.cities: Set[Corner] = set()
        self.roads: Set[Edge] = set()
        # corner -> (bit, other end) for each of the player's roads ending there; each road
        # has its own bit, so that the longest-trail search marks roads used in one integer
        self.links: Dict[Corner, Links] = {}
        self.cards: Dict[str, int] = dict.fromkeys(rules.DECK, 0)  # held, playable
        self.new_cards: Dict[str, int] = dict.fromkeys(rules.DECK, 0)  # bought this turn
        # development cards drawn unseen (`BD` of `?`), before this turn and in it, and the
        # most Victory Point cards they may hold (sgn/game/unseen_cards.py)
        self.unseen_cards, self.unseen_new, self.unseen_points = 0, 0, 0
        self.harbors: Set[str] = set()  # harbor codes at the player's buildings
        self.knights = 0
        self.revealed_points = 0  # Victory Point cards played (shown)
        self.road_length = 0
        # a building placed or taken over where the player's roads end may have changed
        # their longest trail, not counted since: the next road counts it all afresh
        self.trail_stale = False
        self.building_points = 0  # from settlements and cities, kept as they are placed

    def _copy(self, source: "Player") -> None:
        self.hand, self.cards, self.new_cards = dict(source.hand), dict(source.cards), dict(source.new_cards)
        self.unseen_cards, self.unseen_new = source.unseen_cards, source.unseen_new
        self.unseen_points = source.unseen_points
        self.settlements, self.cities, self.roads = set(source.settlements), set(source.cities), set(source.roads)
        self.links = dict(source.links)  # (each corner's roads a tuple: replaced, never changed)
        self.harbors = set(source.harbors)
        self.knights, self.revealed_points = source.knights, source.revealed_points
        self.road_length, self.building_points = source.road_length, source.building_points
        self.trail_stale = source.trail_stale

    def clone(self) -> "Player":
        """A copy that shares nothing that changes (corners and edges are immutable)."""
        return Player(self.name, self)

    def add_road(self, e: Edge) -> bool:
        """Note a road of this player; False if it was already theirs."""
        if e in self.roads:
            return False
        bit = 1 << len(self.roads)
        self.roads.add(e)
        a, b = e
        links = self.links
        links[a] = links.get(a, ()) + ((bit, b),)
        links[b] = links.get(b, ()) + ((bit, a),)
        return True

    def count_buildings(self) -> None:
        self.building_points = (
            len(self.settlements) * rules.POINTS["settlement"] + len(self.cities) * rules.POINTS["city"]
        )

    def has_unseen_cards(self) -> bool:
        return self.unseen_cards + self.unseen_new > 0

    @property
    def buildings(self) -> Set[Corner]:
        return self.settlements | self.cities

    def holds(self) -> str:
        return f"player {self.name} holds {show_hand(self.hand)}"


def trail_from(c: Corner, used: int, links: Dict[Corner, Links], blocked: Set[Corner], seen: Set[Corner]) -> int:
    """The longest trail that starts at `c` and uses none of the roads in `used`, stopping
    at a blocked corner (another player's building), which it may reach but not pass."""
    seen.add(c)
    best = 0
    for bit, other in links[c]:
        if not used & bit:
            if other in blocked:
                seen.add(other)
                length = 1
            else:
                length = 1 + trail_from(other, used | bit, links, blocked, seen)
            if length > best:
                best = length
    return best


class Income:
    """What one building earns from one tile when its number is rolled."""

    __slots__ = ("tile", "resource", "owner", "cards")

    def __init__(self, tile: Tile, resource: str, owner: Player, cards: int):
        self.tile = tile
        self.resource = resource
        self.owner = owner
        self.cards = cards


def best_rate(p: Player, resource: str) -> int:
    """The best rate at which `p` gives `resource` to the bank."""
    harbors = p.harbors
    if HARBOR_FOR[resource] in harbors:
        return rules.RATE_RESOURCE_HARBOR
    if GENERIC_HARBOR in harbors:
        return rules.RATE_GENERIC_HARBOR
    return rules.RATE_DEFAULT


def rates_of(p: Player, resource: str) -> List[int]:
    """Every rate at which `p` may give `resource` to the bank: 4:1 always, 3:1 with a
    generic harbor, 2:1 with that resource's harbor (each lot at any of them), the lowest first."""
    found = [rules.RATE_RESOURCE_HARBOR] if HARBOR_FOR[resource] in p.harbors else []
    if GENERIC_HARBOR in p.harbors:
        found.append(rules.RATE_GENERIC_HARBOR)
    found.append(rules.RATE_DEFAULT)  # (in order: the rates are 2 < 3 < 4, `rules`)
    return found


def bank_rate_problems(p: Player, resources: Dict[str, int]) -> List[Problem]:
    """A bank trade gives each resource in whole lots, each lot at any rate the player
    has, and gets one card a lot. Giving n of a resource whose rates run from a to b buys
    from n/b to n/a cards (the rates a player can have are 4; 3 and 4; 2 and 4; or 2, 3
    and 4: with 2 and 4 only, n must be even)."""
    gets = least = most = 0
    whole = True
    for r, n in resources.items():
        if n > 0:
            gets += n
            continue
        options = rates_of(p, r)
        low, high, step = options[0], options[-1], (options[1] - options[0] if len(options) > 1 else 1)
        fewest, many = -(n // high), -n // low  # ceil(-n / high), floor(-n / low)
        if fewest > many or (-n - fewest * low) % step:
            whole = False
        least += fewest
        most += many
    if whole and least <= gets <= most:
        return []
    gives = {r: -n for r, n in resources.items() if n < 0}
    offered = ", ".join(
        f"{cards(n)} of {rules.RESOURCE_NAMES[r]} (at " + " or ".join(f"{rate}:1" for rate in rates_of(p, r)) + ")"
        for r, n in gives.items()
    )
    buys = (
        "no whole number of lots"
        if not whole
        else f"{cards(least)}"
        if least == most
        else f"from {least} to {most} cards"
    )
    return [
        Problem(
            "trade-rate",
            "/2",
            f"player {p.name} gives the bank {offered} and gets {cards(gets)}; that buys {buys}",
            "the bank trades 4:1, 3:1 with a generic harbor, 2:1 with that resource's harbor; "
            "lots at different rates may be mixed",
        )
    ]


class RoadBook:
    """catanatron's bookkeeping of the roads, for its rule profile (sgn/game/catanatron_road.py):
    each player's connected parts, its best counts, the holder and its count."""

    def __init__(self) -> None:
        self.parts: Dict[str, List[Set[Corner]]] = {}
        self.lengths: Dict[str, int] = {}  # in the order the players first built a road
        self.holder: Optional[str] = None
        self.length = 0

    def copy(self) -> "RoadBook":
        other = RoadBook()
        other.parts = {name: [set(part) for part in parts] for name, parts in self.parts.items()}
        other.lengths, other.holder, other.length = dict(self.lengths), self.holder, self.length
        return other
