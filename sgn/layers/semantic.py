"""Semantic checks: what one message means, without the game's history.

A schema sees shapes; these rules see meaning: a trade that creates resources,
an "intersection" of tiles that never meet, a map that is no Settlers board.
Each rule is one function that yields `Problem`s; the table `RULES` says which
rules apply to which action. Messages are checked against the last valid map
(DM) of the log when there is one; without a map only the map-free rules run.

Rules run only on messages that passed the schema, so shapes can be trusted
(a trade has exactly two sides, a tile two integers, ...).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import chain, islice
from typing import Any, Callable, ClassVar, Dict, FrozenSet, Iterable, Iterator, List, Mapping, NamedTuple, Optional, Tuple

from .. import board
from ..board import Tile
from ..codes import CODES
from ..diagnostic import ERROR, MAX_PROBLEMS, Diagnostic, make, more_problems
from .schema import show


class Problem(NamedTuple):
    code: str
    pointer: str
    message: str
    hint: Optional[str] = None


class MapContext(NamedTuple):
    """What later messages are checked against: the tile kind of every tile of the map."""

    kinds: Dict[Tile, str]

    @property
    def land(self) -> FrozenSet[Tile]:
        return frozenset(t for t, k in self.kinds.items() if k != board.SEA)

    @classmethod
    def from_value(cls, value: dict) -> "MapContext":
        return cls({tuple(t["tile"]): t["tCode"] for t in value["tiles"]})


def _tile(raw) -> Tile:
    return (raw[0], raw[1])


def _fmt(tile: Tile) -> str:
    return f"[{tile[0]},{tile[1]}]"


def _fmt_corner(tiles: Iterable[Tile]) -> str:
    return "[" + ",".join(_fmt(t) for t in tiles) + "]"


# -- geometry: intersections and paths -----------------------------------------------

@lru_cache(maxsize=None)
def _clockwise() -> FrozenSet[Tuple[Tile, Tile, Tile]]:
    """Every clockwise listing of every corner near the origin, worked out on first use:
    a valid, clockwise intersection is then one set lookup (the common case, kept fast)."""
    return frozenset(listing
                     for a, b, c in board.corners_near_origin(4).values()
                     for listing in ((a, b, c), (b, c, a), (c, a, b)))


@lru_cache(maxsize=None)
def _paths() -> Dict[Tuple[int, ...], Tuple[FrozenSet[Tile], FrozenSet[Tile]]]:
    """Every valid listing of every path near the origin (both ends clockwise, in either
    order), by its 12 numbers, with the two tiles it runs between and all four it touches:
    a valid path is then one dict lookup."""
    listings: Dict[Tuple[int, ...], Tuple[FrozenSet[Tile], FrozenSet[Tile]]] = {}
    for a in _clockwise():
        for c in board.corner_neighbours(frozenset(a)):
            found = (frozenset(a) & c, frozenset(a) | c)
            for b in _clockwise_listings(c):
                listings[tuple(n for tile in a + b for n in tile)] = found
    return listings


def _numbers(raw: list) -> Tuple[int, ...]:
    """The 12 numbers of a path as listed (its lookup key in _paths)."""
    (a, b, c), (d, e, f) = raw
    return (a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1], e[0], e[1], f[0], f[1])


def _clockwise_listings(c) -> Tuple[Tuple[Tile, Tile, Tile], ...]:
    a, b, d = board.canonical_corner(c)
    return ((a, b, d), (b, d, a), (d, a, b))


def intersection_problems(raw: list, pointer: str, ctx: Optional[MapContext]) -> List[Problem]:
    """The rules of one intersection: 3 distinct tiles, pairwise adjacent, listed
    clockwise; with a map, all on it and at least one on land."""
    tiles = tuple(_tile(t) for t in raw)
    known = tiles in _clockwise()
    if not known:
        geometry = _intersection_geometry(tiles, pointer)
        if geometry:
            return geometry
    problems = []
    if not known and not board.is_clockwise(*tiles):
        problems.append(Problem(
            "intersection-counter-clockwise", pointer,
            f"the tiles of {_fmt_corner(tiles)} are listed counter-clockwise",
            f"write {_fmt_corner(board.canonical_corner(tiles))}"))
    if ctx is not None:
        problems += _intersection_on_map(tiles, pointer, ctx)
    return problems


def _intersection_geometry(tiles: Tuple[Tile, ...], pointer: str) -> List[Problem]:
    for i, t in enumerate(tiles):
        if t in tiles[:i]:
            return [Problem("intersection-repeated-tile", f"{pointer}/{i}",
                            f"tile {_fmt(t)} appears twice in the intersection {_fmt_corner(tiles)}",
                            "an intersection is the three different tiles that meet at a corner")]
    for i in range(3):
        for j in range(i + 1, 3):
            if not board.adjacent(tiles[i], tiles[j]):
                return [Problem("intersection-not-adjacent", pointer,
                                f"{_fmt(tiles[i])} and {_fmt(tiles[j])} are not neighbours, so "
                                f"{_fmt_corner(tiles)} is not a corner",
                                "the three tiles of an intersection must each touch the other two")]
    return []


def _intersection_on_map(tiles: Tuple[Tile, ...], pointer: str, ctx: MapContext) -> List[Problem]:
    off = [i for i, t in enumerate(tiles) if t not in ctx.kinds]
    if all(ctx.kinds.get(t, board.SEA) == board.SEA for t in tiles):
        beyond = f" ({', '.join(_fmt(tiles[i]) for i in off)} not on the map)" if off else ""
        return [Problem("intersection-at-sea", pointer,
                        f"{_fmt_corner(tiles)} touches no land{beyond}",
                        "buildings stand on intersections that touch at least one land tile")]
    return [Problem("intersection-off-map", f"{pointer}/{i}",
                    f"tile {_fmt(tiles[i])} is not on the map") for i in off]


def path_problems(raw: list, pointer: str, ctx: Optional[MapContext]) -> List[Problem]:
    """The rules of one path: two real intersections, different, sharing exactly two
    tiles; with a map, not between two sea tiles (or beyond the map), ends on the map."""
    found = _paths().get(_numbers(raw))
    if found is not None:
        if ctx is None:
            return []
        kinds = ctx.kinds
        shared, touched = found
        if any(kinds.get(t, board.SEA) != board.SEA for t in shared) and all(t in kinds for t in touched):
            return []                  # the common case: a real path, on the map, along land
    problems = []
    for i, end in enumerate(raw):
        problems += intersection_problems(end, f"{pointer}/{i}", None)
    if any(p.code != "intersection-counter-clockwise" for p in problems):
        return problems
    a, b = (frozenset(_tile(t) for t in end) for end in raw)
    if a == b:
        return problems + [Problem("path-same-intersection", f"{pointer}/1",
                                   "both ends of the path are the same intersection",
                                   "a path joins two neighbouring intersections")]
    shared = a & b
    if len(shared) != 2:
        return problems + [Problem(
            "path-not-adjacent", pointer,
            f"the intersections share {len(shared)} tile{'s' if len(shared) != 1 else ''}, not 2: "
            "they are not the two ends of one edge",
            "the ends of a path are neighbouring intersections, which share exactly two tiles")]
    if ctx is None:
        return problems
    if all(ctx.kinds.get(t, board.SEA) == board.SEA for t in shared):
        off = [t for t in sorted(shared) if t not in ctx.kinds]
        beyond = f" ({', '.join(map(_fmt, off))} not on the map)" if off else ""
        return problems + [Problem("path-at-sea", pointer,
                                   f"the path runs between {' and '.join(_fmt(t) for t in sorted(shared))}"
                                   f"{beyond}, neither of them land",
                                   "roads and harbors lie along at least one land tile")]
    for i, end in enumerate(raw):
        problems += _intersection_on_map(tuple(_tile(t) for t in end), f"{pointer}/{i}", ctx)
    return problems


# -- rules of one action ----------------------------------------------------------------
# Each takes (player, value, ctx) and yields Problems.

def bank_never_acts(player, value, ctx) -> Iterator[Problem]:
    yield Problem("bank-acts", "/0", "the bank (B) cannot make this action; only a player 1..6 can",
                  "B may only send the map (DM)")


def settlement_intersection(player, value, ctx):
    return intersection_problems(value["intersection"], "/2/intersection", ctx)


def road_path(player, value, ctx):
    return path_problems(value["path"], "/2/path", ctx)


def robber_on_land(player, value, ctx):
    if ctx is None:
        return
    tile = _tile(value["tile"])
    if tile not in ctx.kinds:
        yield Problem("robber-off-map", "/2/tile", f"tile {_fmt(tile)} is not on the map")
    elif ctx.kinds[tile] == board.SEA:
        yield Problem("robber-at-sea", "/2/tile", f"tile {_fmt(tile)} is sea; the robber moves to a land tile")


def card_resources(player, value, ctx):
    wanted = {"MO": 1, "YP": 2}.get(value["cCode"])
    codes = value.get("rCodes")
    if wanted is None:
        if codes is not None:
            yield Problem("card-resources-unexpected", "/2/rCodes",
                          f"{value['cCode']} takes no resources, but rCodes is {show(codes)}",
                          "only Monopoly (MO) and Year of Plenty (YP) name resources")
    elif codes is None:
        yield Problem("card-resources-missing", "/2",
                      f"{value['cCode']} must name {wanted} resource{'s' if wanted > 1 else ''} in rCodes")
    elif len(codes) != wanted:
        yield Problem("card-resources-count", "/2/rCodes",
                      f"{value['cCode']} names {wanted} resource{'s' if wanted > 1 else ''}, "
                      f"not {len(codes)}: {show(codes)}",
                      "Monopoly names one resource; Year of Plenty two (the same one twice is allowed)")


def _sides(value) -> List[Tuple[str, Dict[str, int]]]:
    return [(side["player"], side["resources"]) for side in value]


def _same_player(code: str, value) -> Iterator[Problem]:
    (a, _), (b, _) = _sides(value)
    if a == b:
        yield Problem(code, "/2/1/player", f"both sides are {'the bank' if a == 'B' else f'player {a}'}")


def trade_distinct_players(player, value, ctx):
    return _same_player("trade-same-player", value)


def steal_distinct_players(player, value, ctx):
    return _same_player("steal-same-player", value)


def trade_actor_is_party(player, value, ctx):
    players = [p for p, _ in _sides(value)]
    if player not in players:
        yield Problem("trade-actor-not-party", "/0",
                      f"player {player} makes a trade between {' and '.join(players)}",
                      "the acting player is one side of their own trade")


def trade_no_zero(player, value, ctx):
    for i, (_, resources) in enumerate(_sides(value)):
        for resource, amount in resources.items():
            if amount == 0:
                yield Problem("trade-zero-amount", f"/2/{i}/resources/{resource}",
                              f"an amount of 0 {resource}", "leave out resources that do not move")


def trade_balanced(player, value, ctx):
    sides = _sides(value)
    for resource in sorted({r for _, res in sides for r in res}):
        total = sum(res.get(resource, 0) for _, res in sides)
        if total:
            i = 0 if resource in sides[0][1] else 1
            detail = ", ".join(f"player {p} {res.get(resource, 0):+d}" for p, res in sides)
            yield Problem("trade-unbalanced", f"/2/{i}/resources/{resource}",
                          f"{resource} does not balance: {detail} (sum {total:+d}, not 0)",
                          "what one side gains the other loses")


def _gives(resources: Dict[str, int]) -> bool:
    return any(amount < 0 for amount in resources.values())


def is_discard(value) -> bool:
    """The encoding of a discard (SGN has no discard action): a one-sided trade in which
    a player only gives and the bank only receives."""
    side, bank = value
    if side["player"] == "B":
        side, bank = bank, side
    if bank["player"] != "B" or side["player"] == "B":
        return False
    gave = side["resources"]
    return bool(gave) and all(a < 0 for a in gave.values()) and all(a > 0 for a in bank["resources"].values())


def trade_both_sides_give(player, value, ctx):
    if is_discard(value):
        return
    for i, (who, resources) in enumerate(_sides(value)):
        if not _gives(resources):
            name = "the bank" if who == "B" else f"player {who}"
            yield Problem("trade-one-sided", f"/2/{i}",
                          f"{name} gives nothing in return",
                          "in a trade both sides give something; a discard is a trade in which a "
                          "player only gives and the bank only receives")
            return


def steal_with_bank(player, value, ctx):
    for i, (who, _) in enumerate(_sides(value)):
        if who == "B":
            yield Problem("steal-with-bank", f"/2/{i}/player", "the bank takes no part in a steal",
                          "a steal moves one card from one player to another")


def _one_card(value) -> Optional[Tuple[int, str]]:
    """(index of the thief's side, resource) when exactly one card moves, else None."""
    (_, a), (_, b) = _sides(value)
    for thief, (gain, loss) in enumerate(((a, b), (b, a))):
        if len(gain) == 1 and gain == {r: 1 for r in gain} and loss == {r: -1 for r in gain}:
            return thief, next(iter(gain))
    return None


def steal_one_card(player, value, ctx):
    if _one_card(value) is None:
        (_, a), (_, b) = _sides(value)
        yield Problem("steal-not-one-card", "/2",
                      f"a steal moves exactly one card from the victim to the thief, not {show(a)} and {show(b)}")


def steal_actor_is_thief(player, value, ctx):
    players = [p for p, _ in _sides(value)]
    moved = _one_card(value)
    if player not in players:
        yield Problem("steal-actor-not-thief", "/0",
                      f"player {player} is not part of the steal between {' and '.join(players)}",
                      "the acting player is the thief")
    elif moved is not None and players[moved[0]] != player:
        yield Problem("steal-actor-not-thief", f"/2/{moved[0]}/player",
                      f"player {players[moved[0]]} gains the card, but player {player} makes the steal",
                      "the acting player is the thief")


# -- the map ---------------------------------------------------------------------------

class MapFacts:
    """What the map rules need to know about one DM value, worked out once."""

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
        self.tiles = [(i, _tile(t["tile"]), t["tCode"], t["rNumber"]) for i, t in enumerate(value["tiles"])]
        self.land = frozenset(tile for _, tile, kind, _ in self.tiles if kind != board.SEA)
        self.spec = board.identify(self.land)
        unique = len({tile for _, tile, _, _ in self.tiles}) == len(self.tiles)
        # the map being defined, as context for its own harbors (not when tiles repeat)
        self.context = MapContext.from_value(value) if unique else None


def map_unique_tiles(facts: MapFacts):
    seen = set()
    for i, tile, _, _ in facts.tiles:
        if tile in seen:
            yield Problem("map-duplicate-tile", f"/2/tiles/{i}/tile", f"tile {_fmt(tile)} is defined twice")
        seen.add(tile)


def _near_miss(land: FrozenSet[Tile]) -> str:
    """What separates land from the nearest known board in its usual position, if little."""
    best = min(board.BOARDS, key=lambda spec: len(spec.land ^ land))
    missing, extra = sorted(best.land - land), sorted(land - best.land)
    if not 0 < len(missing) + len(extra) <= 3:
        return ""
    parts = ([f"no land at {', '.join(map(_fmt, missing))}"] if missing else []) + \
            ([f"land at {', '.join(map(_fmt, extra))}"] if extra else [])
    return f"; compared with the {best.name} board: {' and '.join(parts)}"


def map_known_shape(facts: MapFacts):
    if facts.spec is None:
        sizes = " or ".join(f"{len(s.land)} ({s.name})" for s in board.BOARDS)
        yield Problem("map-shape", "/2/tiles",
                      f"the {len(facts.land)} land tile{'s' if len(facts.land) != 1 else ''} "
                      f"do not form a known board{_near_miss(facts.land)}",
                      f"a known board has {sizes} land tiles")


def map_sea_ring(facts: MapFacts):
    sea = {tile: i for i, tile, kind, _ in facts.tiles if kind == board.SEA}
    if not facts.land:
        return
    around = board.ring(facts.land)
    missing = sorted(around - set(sea))
    if missing:
        listed = ", ".join(map(_fmt, missing[:5])) + (" ..." if len(missing) > 5 else "")
        yield Problem("map-sea-ring", "/2/tiles",
                      f"the land is not surrounded by sea: {len(missing)} tile(s) missing around it: {listed}",
                      "every tile next to land is on the map (sea where there is no land)")
    for tile, i in sea.items():
        if tile not in around:
            yield Problem("map-sea-ring", f"/2/tiles/{i}", f"sea tile {_fmt(tile)} is not next to any land",
                          "the sea of a map is the ring of tiles around the land")


def map_number_tokens_placed(facts: MapFacts):
    for i, tile, kind, number in facts.tiles:
        if kind in board.PRODUCING and number is None:
            yield Problem("map-number-missing", f"/2/tiles/{i}/rNumber",
                          f"{kind} tile {_fmt(tile)} has no number token", "every producing land tile has one")
        elif kind not in board.PRODUCING and number is not None:
            yield Problem("map-number-on-barren", f"/2/tiles/{i}/rNumber",
                          f"{'sea' if kind == board.SEA else 'desert'} tile {_fmt(tile)} has the number {number}",
                          "desert and sea tiles have rNumber null")


def _differs(facts: MapFacts, code: str, pointer: str, what: str, actual: Mapping, expected) -> Iterator[Problem]:
    if facts.spec is not None:
        differences = board.counts_differ(actual, expected)
        if differences:
            yield Problem(code, pointer, f"the {what} differ from the {facts.spec.name} board: {'; '.join(differences)}")


def map_standard_tiles(facts: MapFacts):
    kinds = board.tally(kind for _, _, kind, _ in facts.tiles if kind != board.SEA)
    return _differs(facts, "map-nonstandard-tiles", "/2/tiles", "tile kinds", kinds,
                    facts.spec.kinds if facts.spec else {})


@lru_cache(maxsize=None)
def _tally(numbers: Tuple[int, ...]) -> Dict[int, int]:
    return board.tally(numbers)


def map_standard_numbers(facts: MapFacts):
    numbers = board.tally(n for _, _, _, n in facts.tiles if n is not None)
    return _differs(facts, "map-nonstandard-numbers", "/2/tiles", "number tokens", numbers,
                    _tally(facts.spec.numbers) if facts.spec else {})


def map_harbors(facts: MapFacts):
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
            yield Problem("harbor-not-coastal", pointer,
                          f"the harbor lies between {' and '.join(_fmt(t) for t in sorted(ends[0] & ends[1]))}, "
                          "both land; a harbor lies on a coast, between one land tile and one sea tile",
                          "harbors are placed on paths adjacent to sea tiles")
        for j, end in enumerate(ends):
            if end in used:
                yield Problem("harbors-share-intersection", f"{pointer}/{j}",
                              f"harbor {i} shares the intersection {_fmt_corner(board.canonical_corner(end))} "
                              f"with harbor {used[end]}")
            used.setdefault(end, i)


def map_standard_harbors(facts: MapFacts):
    harbors = board.tally(h["hCode"] for h in facts.value["harbors"])
    return _differs(facts, "map-nonstandard-harbors", "/2/harbors", "harbors", harbors,
                    facts.spec.harbors if facts.spec else {})


MAP_RULES = (map_unique_tiles, map_known_shape, map_sea_ring, map_number_tokens_placed,
             map_standard_tiles, map_standard_numbers, map_harbors, map_standard_harbors)


def map_is_a_board(player, value, ctx):
    """The DM rules, run on facts about the map worked out once."""
    facts = MapFacts.of(value)
    for rule in MAP_RULES:
        yield from rule(facts)


Rule = Callable[[str, Any, Optional[MapContext]], Iterable[Problem]]

RULES: Dict[str, Tuple[Rule, ...]] = {
    "BC": (settlement_intersection,),
    "BS": (settlement_intersection,),
    "BR": (road_path,),
    "BD": (),
    "MR": (robber_on_land,),
    "RD": (),
    "PD": (card_resources,),
    "TR": (trade_distinct_players, trade_actor_is_party, trade_no_zero,
           trade_balanced, trade_both_sides_give),
    "ST": (steal_distinct_players, steal_with_bank, steal_one_card, steal_actor_is_thief),
    "DM": (map_is_a_board,),
}
# The bank sends the map, nothing else.
BANK_MAY = frozenset({"DM"})


# The boards seen lately, each with a number never given to another: the context of the
# memory of verified lines (fastpath). Bounded; a board seen again after it was forgotten
# gets a new number, and the memory's contexts of its old number age out.
_SHAPES: Dict[Tuple[FrozenSet[Tile], FrozenSet[Tile]], int] = {}
_SHAPES_KEPT = 64
_shapes_numbered = [0]


def _shape_number(shape: Tuple[FrozenSet[Tile], FrozenSet[Tile]]) -> int:
    found = _SHAPES.pop(shape, None)
    if found is None:
        _shapes_numbered[0] += 1
        found = _shapes_numbered[0]
        while len(_SHAPES) >= _SHAPES_KEPT:
            del _SHAPES[next(iter(_SHAPES))]
    _SHAPES[shape] = found
    return found


class SemanticChecker:
    """The semantic layer for one file: remembers the last valid map."""

    def __init__(self) -> None:
        self.map: Optional[MapContext] = None
        self.unlisted = False     # the last message had more problems than were listed
        self.map_key = 0      # the same for maps with the same land and sea: what the rules see

    def _set_map(self, value: Optional[dict]) -> None:
        facts = MapFacts.of(value) if value is not None else None
        self.map = facts.context if facts is not None else None
        if facts is None or self.map is None:
            self.map_key = 0
        else:
            shape = (facts.land, frozenset(self.map.kinds))       # the land, and all tiles
            self.map_key = _shape_number(shape)

    def problems(self, message: list) -> List[Problem]:
        """The problems of one message. Only a map can have many (the schema bounds every
        other message's size): of its problems the first MAX_PROBLEMS are listed, and
        `unlisted` says whether there were more."""
        player, action, value = message
        if action == "DM":
            return self._map_problems(player, value)
        found: List[Problem] = []
        context = self.map
        if player == "B" and action not in BANK_MAY:
            found += bank_never_acts(player, value, context)
        for rule in RULES[action]:
            found += rule(player, value, context)
        self.unlisted = False
        return found

    def _map_problems(self, player: str, value: dict) -> List[Problem]:
        found_by = chain.from_iterable(rule(player, value, self.map) for rule in RULES["DM"])
        found = list(islice(found_by, MAX_PROBLEMS))
        beyond = next(found_by, None)
        self.unlisted = beyond is not None
        errors = any(CODES[p.code].severity == ERROR for p in found) or (
            beyond is not None and any(CODES[p.code].severity == ERROR for p in chain((beyond,), found_by)))
        self._set_map(None if errors else value)
        MapFacts._last = None      # kept for this message only: nothing stale, nothing held
        return found

    def __call__(self, message: Any, file: str, line: int) -> Tuple[List[Diagnostic], Any]:
        found = [make(p.code, p.message, file=file, line=line, pointer=p.pointer, hint=p.hint)
                 for p in self.problems(message)]
        if self.unlisted:
            found.append(more_problems("semantic-more-problems", file, line))
        return found, message
