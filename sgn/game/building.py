"""Building: settlements, cities and roads, each paid for and placed where the rules allow."""
from __future__ import annotations

from typing import List

from .pieces import Player, corner_from_json, edge_from_json, show_corner
from .robber import Robber
from ..rules import COSTS
from ..pipeline.semantic import Problem


class Building(Robber):
    """A game state with the builds of settlements, cities and roads."""

    def _build_settlement(self, p: Player, value) -> List[Problem]:
        c = corner_from_json(value["intersection"])
        problems = self._pieces_left(p, "settlement", len(p.settlements), "/2/intersection")
        if problems:
            return problems         # no piece to place: nothing changes
        problems += self._settlement_site(p, c, connected=True, pointer="/2/intersection")
        problems += self._pay(p, COSTS["settlement"], "a settlement")
        self._place_settlement(p, c)
        return problems

    def _build_city(self, p: Player, value) -> List[Problem]:
        c = corner_from_json(value["intersection"])
        problems = self._pieces_left(p, "city", len(p.cities), "/2/intersection")
        if problems:
            return problems         # no piece to place: nothing changes
        if c not in p.settlements:
            owner = self.building_at.get(c)
            where = f"player {owner[0]}'s {owner[1]}" if owner else "no building"
            problems.append(Problem("city-not-on-settlement", "/2/intersection",
                                    f"a city replaces the player's own settlement; {show_corner(c)} has {where}"))
        problems += self._pay(p, COSTS["city"], "a city")
        p.settlements.discard(c)
        p.cities.add(c)
        p.count_buildings()
        self._set_building(c, p.name, "city")
        return problems

    def _build_road(self, p: Player, value) -> List[Problem]:
        e = edge_from_json(value["path"])
        problems = self._pieces_left(p, "road", len(p.roads), "/2/path")
        if problems:
            return problems         # no piece to place: nothing changes (nor can roads pile up)
        problems += self._road_site(p, e, "/2/path")
        if self.free_roads > 0:
            self.free_roads -= 1
        else:
            problems += self._pay(p, COSTS["road"], "a road")
        self._place_road(p, e)
        return problems
