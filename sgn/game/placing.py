"""Where pieces may go, placing them, the longest road and the largest army."""

from __future__ import annotations

from typing import Final, Iterable, List, Optional, Set

from .. import board, rules
from ..board import Corner, Edge
from ..diagnostic import Problem
from ..rules import PIECES
from ..words import count
from . import catanatron_road
from .pieces import Income, Player, show_corner, trail_from
from .rule_profiles import LONGEST_ROAD_AS_CATANATRON, ROAD_THROUGH_BUILDING
from .state import SETUP, State


def pieces_left(g: State, p: Player, kind: str, placed: int, pointer: str) -> List[Problem]:
    if placed >= PIECES[kind]:
        return [Problem("piece-limit", pointer, f"player {p.name} has placed all {count(PIECES[kind], kind)}")]
    return []


def can_settle(g: State, p: Player, c: Corner, connected: bool) -> bool:
    """Whether a settlement of `p` may stand at `c` (the rules of `_settlement_site`, fast)."""
    if c in g.building_at or any(n in g.building_at for n in board.corner_neighbours(c)):
        return False
    return not connected or any(e in p.roads for e in board.edges_of_corner(c))


def settlement_site(g: State, p: Player, c: Corner, connected: bool, pointer: str) -> List[Problem]:
    if c in g.building_at:
        owner, kind = g.building_at[c]
        return [Problem("site-occupied", pointer, f"{show_corner(c)} already has player {owner}'s {kind}")]
    problems = []
    near = sorted((n for n in board.corner_neighbours(c) if n in g.building_at), key=board.canonical_corner)
    if near:
        owner, kind = g.building_at[near[0]]
        problems.append(
            Problem(
                "distance-rule",
                pointer,
                f"{show_corner(c)} is next to player {owner}'s {kind} at {show_corner(near[0])}",
                "a settlement is at least two edges away from every other building",
            )
        )
    if connected and not any(e in p.roads for e in board.edges_of_corner(c)):
        problems.append(
            Problem("settlement-not-connected", pointer, f"{show_corner(c)} touches none of player {p.name}'s roads")
        )
    return problems


def road_site(g: State, p: Player, e: Edge, pointer: str, setup_corner: Optional[Corner] = None) -> List[Problem]:
    if e in g.road_at:
        return [Problem("road-occupied", pointer, f"player {g.road_at[e]} already has a road there")]
    if setup_corner is not None:
        if setup_corner not in e:
            return [
                Problem(
                    "setup-road-not-at-settlement",
                    pointer,
                    f"the setup road must touch the settlement just placed at {show_corner(setup_corner)}",
                )
            ]
        return []
    through = g.departs(ROAD_THROUGH_BUILDING)
    for end in e:
        owner = g.building_at.get(end, (None,))[0]
        if owner == p.name:
            return []
        if (owner is None or through) and any(other in p.roads for other in board.edges_of_corner(end) if other != e):
            return []
    return [
        Problem(
            "road-not-connected",
            pointer,
            f"the road touches none of player {p.name}'s roads or buildings: {_network_near(g, p, e)} "
            "(a road cannot continue through an opponent's building)",
        )
    ]


NETWORK_SEARCH: Final = 12  # edges searched from a road for the player's network, to say where it is


def _network_near(g: State, p: Player, e: Edge) -> str:
    """Where the player's network is, seen from a road that does not join it: an opponent's
    building it meets it through, or its nearest corner and how many edges away."""
    network = {c for road in p.roads for c in road} | {c for c, (owner, _) in g.building_at.items() if owner == p.name}
    if not network:
        return f"player {p.name} has none yet"
    for end in sorted(e, key=board.canonical_corner):
        owner = g.building_at.get(end, (None,))[0]
        if owner is not None and owner != p.name and end in network:
            return f"it meets them at {show_corner(end)} only through player {owner}'s building there"
    seen = set(e)
    frontier = set(e)
    for steps in range(1, NETWORK_SEARCH + 1):
        frontier = {n for c in frontier for n in board.corner_neighbours(c)} - seen
        seen |= frontier
        near = frontier & network
        if near:
            nearest = min(near, key=board.canonical_corner)
            return f"the nearest is at {show_corner(nearest)}, {steps} {'edge' if steps == 1 else 'edges'} away"
    return f"the nearest is more than {NETWORK_SEARCH} edges away"


def longest_trail(g: State, p: Player) -> int:
    """The longest trail of `p`'s roads (no road twice), not passing other players' buildings.

    A longest trail can be taken to start where a road ends, where three roads
    meet, or at another player's building: elsewhere (two roads, nothing in the
    way) a trail starting there could be extended, or it is a loop that can start
    at any of its corners. So the search starts there, and once in each part of
    the network that has no such corner (a ring).
    """
    links, building_at, name = p.links, g.building_at, p.name
    blocked = {c for c in links if c in building_at and building_at[c][0] != name}
    best = 0
    seen: Set[Corner] = set()
    for c, roads in links.items():
        if len(roads) != 2 or c in blocked:
            best = max(best, trail_from(c, 0, links, blocked, seen))
    for c in links:
        if c not in seen:
            best = max(best, trail_from(c, 0, links, blocked, seen))
    return best


def update_longest_road(g: State, names: Iterable[str]) -> None:
    for name in names:
        p = g.players[name]
        p.road_length = longest_trail(g, p)
        p.trail_stale = False
    award_longest_road(g)


def award_longest_road(g: State) -> None:
    """The longest road to the one longest trail of at least the minimum; its holder keeps
    it while theirs is as long as any (a tie takes it from nobody)."""
    top, leader, leaders = 0, "", 0
    for n, p in g.players.items():
        length = p.road_length
        if length > top:
            top, leader, leaders = length, n, 1
        elif length == top:
            leaders += 1
    beside = g.departs(LONGEST_ROAD_AS_CATANATRON)  # (the engine's holder is its own count's)
    holder = g.rulebook_road if beside else g.longest_road
    if holder is not None:
        held = g.players[holder].road_length
        if held >= rules.LONGEST_ROAD_MIN and held == top:
            return
    holder = leader if top >= rules.LONGEST_ROAD_MIN and leaders == 1 else None
    if beside:
        g.rulebook_road = holder
    else:
        g.longest_road = holder


def longest_with_road(g: State, p: Player, e: Edge) -> int:
    """`p`'s longest trail once the road `e` (just added) is counted, or -1 when it takes
    a count of all: a trail that does not use `e` is one `p.road_length` counted, so where
    `e` ends a line (no other road of `p` at one end), the longest is the longer of that and
    `e` followed by the longest trail from its other end."""
    links = p.links
    a, b = e
    if len(links[a]) == 1:
        start = b
    elif len(links[b]) == 1:
        start = a
    else:
        return -1  # it joins roads at both ends: a count of all
    length = 1
    starts = links[start]
    if len(starts) > 1:
        building_at, name = g.building_at, p.name
        at = building_at.get(start)
        if at is None or at[0] == name:  # (a trail stops at another player's building)
            bit = starts[-1][0]  # (the road just added is the last at each end)
            blocked = {c for c in links if c in building_at and building_at[c][0] != name}
            length = 1 + trail_from(start, bit, links, blocked, set())
    return max(p.road_length, length)


def update_largest_army(g: State, name: str) -> None:
    knights = g.players[name].knights
    holder = g.largest_army
    if knights >= rules.LARGEST_ARMY_MIN and (holder is None or knights > g.players[holder].knights):
        g.largest_army = name


def set_building(g: State, c: Corner, owner: str, kind: str) -> None:
    """Place or upgrade a building, and note what it earns on each number."""
    before = g.building_at.get(c)
    if before is None or before[0] != owner:  # it stops (or no longer stops) trails there
        for q in g.players.values():
            if c in q.links:
                q.trail_stale = True
    g.building_at[c] = (owner, kind)
    yields, cards, p = g.the_map().yields, rules.YIELD[kind], g.players[owner]
    for tile in c:
        found = yields.get(tile)
        if found is not None:
            number, resource = found
            g.income.setdefault(number, {})[(tile, c)] = Income(tile, resource, p, cards)


def place_settlement(g: State, p: Player, c: Corner) -> None:
    p.settlements.add(c)
    p.count_buildings()
    p.harbors |= g.the_map().harbor_at.get(c, set())
    set_building(g, c, p.name, "settlement")
    if g.departs(LONGEST_ROAD_AS_CATANATRON):  # (and the rulebook's count beside it: engine_end.py)
        catanatron_road.settled(g, p.name, c, g.phase == SETUP)
    touched = {g.road_at[e] for e in board.edges_of_corner(c) if g.road_at.get(e, p.name) != p.name}
    if touched:
        update_longest_road(g, touched)


def place_road(g: State, p: Player, e: Edge) -> None:
    new = p.add_road(e)
    g.road_at[e] = p.name
    if new and g.departs(LONGEST_ROAD_AS_CATANATRON):  # (and the rulebook's count beside it: engine_end.py)
        catanatron_road.built_road(g, p.name, e)
    if new:
        length = -1 if p.trail_stale else longest_with_road(g, p, e)
        if length < 0:
            update_longest_road(g, [p.name])
        else:
            p.road_length = length
            award_longest_road(g)
