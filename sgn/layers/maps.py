"""The semantic checks of a map (DM): that it is a real Settlers board, of a known shape,
with its sea ring, number tokens and harbors as the known boards have them (the table
`MAP_RULES`; `sgn/layers/semantic.py` runs them on each map)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar, Dict, FrozenSet, Iterator, List, Mapping, Optional, Set, Tuple

from .. import board
from ..board import Tile
from ..diagnostic import Problem
from .places import MapContext, path_numbers, path_problems, show_listing, show_tile, tile_of


class MapFacts:
    """What the map rules need to know about one DM value, worked out in one pass over its
    tiles (a log of engine games holds a new map every few hundred lines)."""

    _last: ClassVar[Optional["MapFacts"]] = None

    @classmethod
    def of(cls, value: dict) -> "MapFacts":
        """The facts of a DM value; the last ones are kept while its message is checked, for
        the map rules and then the checker that takes the map as context ask in turn."""
        last = cls._last
        if last is None or last.value is not value:
            last = cls._last = cls(value)
        return last

    def __init__(self, value: dict):
        self.value = value
        kinds: Dict[Tile, str] = {}
        land: Set[Tile] = set()
        sea: Dict[Tile, int] = {}
        kind_counts: Dict[str, int] = {}
        number_counts: Dict[int, int] = {}
        producing, tokens_misplaced = board.PRODUCING, False
        entries: List[Any] = value["tiles"]
        for i in range(len(entries)):
            entry = entries[i]
            tile: Any = tuple(entry["tile"])  # (one tuple object, hashed once, shared)
            kind: str = entry["tCode"]
            number: Optional[int] = entry["rNumber"]
            kinds[tile] = kind
            if kind == board.SEA:
                sea[tile] = i
            else:
                land.add(tile)
                kind_counts[kind] = kind_counts.get(kind, 0) + 1
            if number is not None:
                number_counts[number] = number_counts.get(number, 0) + 1
            if (number is None) == (kind in producing):
                tokens_misplaced = True
        self.land = frozenset(land)
        self.all_tiles = frozenset(kinds)
        self.sea = sea  # each sea tile, with its (last) index
        self.kind_counts = kind_counts  # the land tiles of each kind
        self.number_counts = number_counts  # the number tokens of each number
        self.tokens_misplaced = tokens_misplaced  # a producing tile without one, or another with one
        self.unique = len(kinds) == len(entries)
        self.spec = board.identify(self.land)
        # the map being defined, as context for its own harbors (not when tiles repeat)
        self.context = MapContext(kinds) if self.unique else None

    @property
    def tiles(self) -> List[Tuple[int, Tile, str, Optional[int]]]:
        """Each tile as (index, tile, kind, number): for the rules that found a fault, to say where."""
        return [(i, tile_of(t["tile"]), t["tCode"], t["rNumber"]) for i, t in enumerate(self.value["tiles"])]


def map_unique_tiles(facts: MapFacts):
    if facts.unique:
        return
    seen = set()
    for i, tile, _, _ in facts.tiles:
        if tile in seen:
            yield Problem("map-duplicate-tile", f"/2/tiles/{i}/tile", f"tile {show_tile(tile)} is defined twice")
        seen.add(tile)


def _near_miss(land: FrozenSet[Tile]) -> str:
    """What separates land from the nearest known board in its usual position, if little."""
    best = min(board.BOARDS, key=lambda spec: len(spec.land ^ land))
    missing, extra = sorted(best.land - land), sorted(land - best.land)
    if not 0 < len(missing) + len(extra) <= 3:
        return ""
    parts = ([f"no land at {', '.join(map(show_tile, missing))}"] if missing else []) + (
        [f"land at {', '.join(map(show_tile, extra))}"] if extra else []
    )
    return f"; compared with the {best.name} board: {' and '.join(parts)}"


def map_known_shape(facts: MapFacts):
    if facts.spec is None:
        sizes = " or ".join(f"{len(s.land)} ({s.name})" for s in board.BOARDS)
        yield Problem(
            "map-shape",
            "/2/tiles",
            f"the {len(facts.land)} land tile{'s' if len(facts.land) != 1 else ''} "
            f"do not form a known board{_near_miss(facts.land)}",
            f"a known board has {sizes} land tiles",
        )


def map_sea_ring(facts: MapFacts):
    sea = facts.sea
    if not facts.land:
        return
    around = board.ring(facts.land)
    if sea.keys() == around:  # (the common case: the ring, all of it, and nothing else)
        return
    missing = sorted(around - set(sea))
    if missing:
        listed = ", ".join(map(show_tile, missing[:5])) + (" ..." if len(missing) > 5 else "")
        yield Problem(
            "map-sea-ring",
            "/2/tiles",
            f"the land is not surrounded by sea: {len(missing)} tile(s) missing around it: {listed}",
            "every tile next to land is on the map (sea where there is no land)",
        )
    for tile, i in sea.items():
        if tile not in around:
            yield Problem(
                "map-sea-ring",
                f"/2/tiles/{i}",
                f"sea tile {show_tile(tile)} is not next to any land",
                "the sea of a map is the ring of tiles around the land",
            )


def map_number_tokens_placed(facts: MapFacts):
    if not facts.tokens_misplaced:
        return
    for i, tile, kind, number in facts.tiles:
        if kind in board.PRODUCING and number is None:
            yield Problem(
                "map-number-missing",
                f"/2/tiles/{i}/rNumber",
                f"{kind} tile {show_tile(tile)} has no number token",
                "every producing land tile has one",
            )
        elif kind not in board.PRODUCING and number is not None:
            yield Problem(
                "map-number-on-barren",
                f"/2/tiles/{i}/rNumber",
                f"{'sea' if kind == board.SEA else 'desert'} tile {show_tile(tile)} has the number {number}",
                "desert and sea tiles have rNumber null",
            )


def _differs(facts: MapFacts, code: str, pointer: str, what: str, actual: Mapping, expected) -> Iterator[Problem]:
    if facts.spec is not None:
        differences = board.counts_differ(actual, expected)
        if differences:
            yield Problem(
                code, pointer, f"the {what} differ from the {facts.spec.name} board: {'; '.join(differences)}"
            )


def map_standard_tiles(facts: MapFacts):
    return _differs(
        facts,
        "map-nonstandard-tiles",
        "/2/tiles",
        "tile kinds",
        facts.kind_counts,
        facts.spec.kinds if facts.spec else {},
    )


@lru_cache(maxsize=None)
def _number_counts(numbers: Tuple[int, ...]) -> Dict[int, int]:
    """How many tokens of each number a known board has (`board.tally`, once a board)."""
    return board.tally(numbers)


def map_standard_numbers(facts: MapFacts):
    return _differs(
        facts,
        "map-nonstandard-numbers",
        "/2/tiles",
        "number tokens",
        facts.number_counts,
        _number_counts(facts.spec.numbers) if facts.spec else {},
    )


def _harbor_problems(facts: MapFacts) -> Iterator[Problem]:
    """Each harbor: a real path of this map, on a coast edge (one land tile, one sea tile),
    sharing no intersection with another harbor."""
    here = facts.context
    used: Dict[FrozenSet[Tile], int] = {}
    for i, harbor in enumerate(facts.value["harbors"]):
        pointer = f"/2/harbors/{i}/path"
        problems = path_problems(harbor["path"], pointer, here)
        yield from problems
        if any(p.code != "intersection-counter-clockwise" for p in problems) or here is None:
            continue
        ends = [board.corner_from_json(end) for end in harbor["path"]]
        a, b = ends[0] & ends[1]
        if (here.kinds[a] == board.SEA) == (here.kinds[b] == board.SEA):
            yield Problem(
                "harbor-not-coastal",
                pointer,
                f"the harbor lies between {' and '.join(show_tile(t) for t in sorted(ends[0] & ends[1]))}, "
                "both land; a harbor lies on a coast, between one land tile and one sea tile",
                "harbors are placed on paths adjacent to sea tiles",
            )
        for j, end in enumerate(ends):
            if end in used:
                yield Problem(
                    "harbors-share-intersection",
                    f"{pointer}/{j}",
                    f"harbor {i} shares the intersection {show_listing(board.canonical_corner(end))} "
                    f"with harbor {used[end]}",
                )
            used.setdefault(end, i)


# Harbor positions found fine lately, with the land and tiles of their map: engines draw a
# new map for each game, on the same board with the harbors in the same places. Bounded.
_HARBORS_FINE: Dict[Tuple[Tuple[int, ...], FrozenSet[Tile], FrozenSet[Tile], bool], bool] = {}
_HARBORS_KEPT = 64


def map_harbors(facts: MapFacts) -> Iterator[Problem]:
    """The harbors' problems (`_harbor_problems`), which depend only on where the harbors
    are and on the map's land and tiles: a placement found fine is not worked out again."""
    numbers: List[int] = []
    for harbor in facts.value["harbors"]:
        numbers.extend(path_numbers(harbor["path"]))
    key = (tuple(numbers), facts.land, facts.all_tiles, facts.context is None)
    if key in _HARBORS_FINE:
        return
    fine = True
    for problem in _harbor_problems(facts):
        fine = False
        yield problem
    if fine:
        while len(_HARBORS_FINE) >= _HARBORS_KEPT:
            del _HARBORS_FINE[next(iter(_HARBORS_FINE))]
        _HARBORS_FINE[key] = True


def map_standard_harbors(facts: MapFacts):
    harbors = board.tally(h["hCode"] for h in facts.value["harbors"])
    return _differs(
        facts, "map-nonstandard-harbors", "/2/harbors", "harbors", harbors, facts.spec.harbors if facts.spec else {}
    )


MAP_RULES = (
    map_unique_tiles,
    map_known_shape,
    map_sea_ring,
    map_number_tokens_placed,
    map_standard_tiles,
    map_standard_numbers,
    map_harbors,
    map_standard_harbors,
)


def map_is_a_board(player, value, ctx):
    """The DM rules, run on facts about the map worked out once."""
    facts = MapFacts.of(value)
    for rule in MAP_RULES:
        yield from rule(facts)
