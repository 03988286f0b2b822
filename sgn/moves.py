"""The moves of a turn that change hands and pieces: building, buying and playing
development cards, and trading. `sgn/game.py` decides whose turn it is and calls them.
"""
from __future__ import annotations

from typing import List

from . import board, rules
from .pieces import Player, bank_rate_problems, corner_from_json, edge_from_json, show_corner
from .rules import COSTS, PIECES, show_cost, show_hand
from .semantic import Problem
from .state import State
from .words import count


class Moves(State):
    """A game state with the moves that change hands and pieces."""

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

    def _buy_card(self, p: Player, value) -> List[Problem]:
        card = value["cCode"]
        problems = self._pay(p, COSTS["development card"], "a development card")
        if self.deck[card] <= 0:
            problems.append(Problem("deck-empty", "/2/cCode",
                                    f"no {rules.CARD_NAMES[card]} card is left in the deck "
                                    f"(it holds {self.variant.deck[card]})"))
        else:
            self.deck[card] -= 1
        p.new_cards[card] += 1
        self.buyers.add(p)
        return problems

    def _play(self, p: Player, value) -> List[Problem]:
        card = value["cCode"]
        if card == "VP":
            return self._reveal_point(p, value)
        problems = []
        if p.cards[card] <= 0:
            if p.new_cards[card] > 0:
                problems.append(Problem("card-bought-this-turn", "/2/cCode",
                                        f"player {p.name} bought this {rules.CARD_NAMES[card]} card this turn"))
            else:
                problems.append(Problem("card-not-held", "/2/cCode",
                                        f"player {p.name} holds no {rules.CARD_NAMES[card]} card"))
        if card in rules.PLAYED_ONCE_PER_TURN:
            if self.card_played:
                problems.append(Problem("card-second-play", "/2/cCode",
                                        f"player {p.name} already played a development card this turn"))
            self.card_played = True
        if p.cards[card] > 0:
            p.cards[card] -= 1
        elif p.new_cards[card] > 0:
            p.new_cards[card] -= 1
        if card != "RB":
            self.free_roads = 0
        return problems + EFFECTS[card](self, p, value)

    def _knight(self, p: Player, value) -> List[Problem]:
        p.knights += 1
        self._update_largest_army(p.name)
        self.robber_due = "knight"
        return []

    def _reveal_point(self, p: Player, value) -> List[Problem]:
        """`PD` of `VP` shows a Victory Point card: not a play (any number, any time in the
        player's turn, the turn it was bought too); it counted from the moment it was drawn,
        so the points do not change (docs/rules.md)."""
        if p.cards["VP"] > 0:
            p.cards["VP"] -= 1
        elif p.new_cards["VP"] > 0:
            p.new_cards["VP"] -= 1
        else:
            return [Problem("card-not-held", "/2/cCode",
                            f"player {p.name} holds no Victory Point card that is not shown yet"
                            + (f" ({count(p.revealed_points, 'card')} shown before)" if p.revealed_points else ""))]
        p.revealed_points += 1
        return []

    def _road_building(self, p: Player, value) -> List[Problem]:
        self.free_roads = min(rules.ROAD_BUILDING_ROADS, PIECES["road"] - len(p.roads))
        return []

    def _year_of_plenty(self, p: Player, value) -> List[Problem]:
        return self._take_from_bank(p, board.tally(value.get("rCodes", [])), "/2/rCodes")

    def _monopoly(self, p: Player, value) -> List[Problem]:
        for r in value.get("rCodes", [])[:1]:
            for other in self.players.values():
                if other is not p:
                    p.hand[r] += other.hand[r]
                    other.hand[r] = 0
                    if other.unseen[r]:         # what they may hold unseen goes too
                        p.unseen[r] += other.unseen[r]
                        other.unseen[r] = 0
                        p.unsure = True
        return []

    def _trade(self, player: str, value, discard: bool) -> List[Problem]:
        first, second = value
        a, ra, b, rb = first["player"], first["resources"], second["player"], second["resources"]
        problems = []
        if discard:
            problems.append(Problem("discard-not-owed", "/2",
                                    "a one-sided trade to the bank is a discard, and no discard is owed"))
        if self.current not in (a, b):
            problems.append(Problem("not-your-turn", "/0",
                                    f"player {self.current} is not part of this trade, during their own turn",
                                    "players trade only with the player whose turn it is"))
        if not self.rolled:
            problems.append(Problem("roll-first", "/1", "a trade before the dice are rolled"))
        if "B" in (a, b) and not discard:
            me, mine = (a, ra) if b == "B" else (b, rb)
            problems += bank_rate_problems(self.player(me), mine)
        for name, resources in ((a, ra), (b, rb)):
            if name == "B":
                if self.uncertain:
                    continue                    # after a lost roll, the bank is not known
                holder = self.bank
            else:
                party = self.player(name)
                if party.unsure:
                    self._reveal(party, {r: -n for r, n in resources.items() if n < 0})
                holder = party.hand
            if any(holder[r] + n < 0 for r, n in resources.items()):
                given = {r: -n for r, n in resources.items() if n < 0}
                who = (f"the bank holds {show_hand(self.bank)}" if name == "B"
                       else self.players[name].holds())
                problems.append(Problem("bank-empty" if name == "B" else "not-held", "/2",
                                        f"{who}; the trade takes {show_cost(given)}"))
        for name, resources in ((a, ra), (b, rb)):
            holder = self.bank if name == "B" else self.player(name).hand
            for r, n in resources.items():
                holder[r] = max(0, holder[r] + n)
        return problems


# What each build and each card does, by aCode and cCode.
BUILDS = {"BS": Moves._build_settlement, "BC": Moves._build_city, "BR": Moves._build_road, "BD": Moves._buy_card}
EFFECTS = {"KN": Moves._knight, "RB": Moves._road_building, "YP": Moves._year_of_plenty,
           "MO": Moves._monopoly, "VP": Moves._reveal_point}
