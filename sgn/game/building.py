"""Building: settlements, cities and roads, each paid for and placed where the rules allow."""

from __future__ import annotations

from typing import List

from ..board import corner_from_json, edge_from_json
from ..diagnostic import Problem
from ..rules import COSTS
from . import ledger, placing
from .pieces import Player, show_corner
from .state import State


def build_settlement(g: State, p: Player, value) -> List[Problem]:
    c = corner_from_json(value["intersection"])
    problems = placing.pieces_left(g, p, "settlement", len(p.settlements), "/2/intersection")
    if problems:
        return problems  # no piece to place: nothing changes
    problems += placing.settlement_site(g, p, c, connected=True, pointer="/2/intersection")
    problems += ledger.pay(g, p, COSTS["settlement"], "a settlement")
    placing.place_settlement(g, p, c)
    return problems


def build_city(g: State, p: Player, value) -> List[Problem]:
    c = corner_from_json(value["intersection"])
    problems = placing.pieces_left(g, p, "city", len(p.cities), "/2/intersection")
    if problems:
        return problems  # no piece to place: nothing changes
    if c not in p.settlements:
        owner = g.building_at.get(c)
        where = f"player {owner[0]}'s {owner[1]}" if owner else "no building"
        problems.append(
            Problem(
                "city-not-on-settlement",
                "/2/intersection",
                f"a city replaces the player's own settlement; {show_corner(c)} has {where}",
            )
        )
    problems += ledger.pay(g, p, COSTS["city"], "a city")
    p.settlements.discard(c)
    p.cities.add(c)
    p.count_buildings()
    placing.set_building(g, c, p.name, "city")
    return problems


def build_road(g: State, p: Player, value) -> List[Problem]:
    e = edge_from_json(value["path"])
    problems = placing.pieces_left(g, p, "road", len(p.roads), "/2/path")
    if problems:
        return problems  # no piece to place: nothing changes (nor can roads pile up)
    problems += placing.road_site(g, p, e, "/2/path")
    if g.free_roads > 0:
        g.free_roads -= 1
    else:
        problems += ledger.pay(g, p, COSTS["road"], "a road")
    placing.place_road(g, p, e)
    return problems
