"""The state of a replayed game, and the bookkeeping every move shares: paying and taking
cards, where pieces may go, the longest road and largest army, production, what the
end of a log leaves unfinished, and a snapshot. The moves are in the modules that
build on it, one per concern (`sgn/game/core.py` lists them).
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Mapping, Optional, Set, Tuple

from .. import board, rules
from ..board import Corner, Edge, Tile
from .pieces import Board, Income, Player, show_corner, trail_from
from ..rules import PIECES, RESOURCES, show_cost
from ..pipeline.semantic import Problem
from ..words import count

SETUP, TURNS, OVER = "setup", "turns", "over"
_POINTS_VP, _POINTS_LONGEST, _POINTS_ARMY = (rules.POINTS[k] for k in ("VP", "longest road", "largest army"))


class State:
    """The state of one game, with the bookkeeping its moves share."""

    def __init__(self) -> None:
        self.board: Optional[Board] = None
        self.players: Dict[str, Player] = {}
        self.count: Optional[int] = None        # number of players, once the setup shows it
        self.variant: rules.Variant = rules.BASE_GAME      # chosen by the map (game._define_map)
        self.bank: Dict[str, int] = dict.fromkeys(RESOURCES, self.variant.bank)
        self.deck: Dict[str, int] = dict(self.variant.deck)
        self.robber: Optional[Tile] = None
        self.phase = SETUP
        self.setup_order: List[str] = []        # who placed each setup settlement, in order
        self.setup_road_due: Optional[Tuple[str, Corner]] = None
        self.current: Optional[str] = None
        self.rolled = False
        self.turn = 0
        self.discards_owed: Dict[str, int] = {}
        self.discards_late: Dict[str, int] = {}  # owed when the robber moved (reported then), still accepted
        self.discards_upto: Dict[str, int] = {}  # the most a player with unseen cards may owe
        self.uncertain = False                  # a roll was lost: hands are known within bounds only
        self.bank_unsure = False                # a message the log lost moved cards to or from the bank
        self.robber_due: Optional[str] = None   # "seven" or "knight"
        self.steal_from: Optional[Set[str]] = None
        self.steal_needed = False               # whether a steal must follow (not only may)
        self.card_played = False
        self.free_roads = 0
        self.special_built: List[str] = []     # who has built in this Special Build Phase, in order
        self.longest_road: Optional[str] = None
        self.largest_army: Optional[str] = None
        self.ended_at: Optional[int] = None
        self.after_end_reported = False
        self.without_map_reported = False
        self.building_at: Dict[Corner, Tuple[str, str]] = {}   # corner -> (player, kind)
        self.road_at: Dict[Edge, str] = {}
        self._order_for = 0                     # the player count that _after is for
        self._after: Dict[str, str] = {}        # who comes after whom
        self.buyers: Set[Player] = set()        # players holding cards bought this turn
        # number -> (tile, corner) -> (resource, owner, cards) for each building on a producing tile
        self.income: Dict[int, Dict[Tuple[Tile, Corner], Income]] = {}
        self.line = 0

    def _copy_into(self, other: "State") -> None:
        """Make `other` (a fresh state) a copy of this one that changes apart from it (the
        board is shared: it never changes), for trying several readings of a log."""
        other.board, other.variant = self.board, self.variant
        players = {name: p.clone() for name, p in self.players.items()}
        other.players = players
        other.count, other.bank, other.deck, other.robber = self.count, dict(self.bank), dict(self.deck), self.robber
        other.phase, other.setup_order, other.setup_road_due = self.phase, list(self.setup_order), self.setup_road_due
        other.current, other.rolled, other.turn = self.current, self.rolled, self.turn
        other.discards_owed, other.discards_late = dict(self.discards_owed), dict(self.discards_late)
        other.discards_upto = dict(self.discards_upto)
        other.uncertain, other.bank_unsure = self.uncertain, self.bank_unsure
        other.robber_due = self.robber_due
        other.steal_from = set(self.steal_from) if self.steal_from is not None else None
        other.steal_needed = self.steal_needed
        other.card_played, other.free_roads = self.card_played, self.free_roads
        other.special_built = list(self.special_built)
        other.longest_road, other.largest_army = self.longest_road, self.largest_army
        other.ended_at, other.after_end_reported = self.ended_at, self.after_end_reported
        other.without_map_reported = self.without_map_reported
        other.building_at, other.road_at = dict(self.building_at), dict(self.road_at)
        other.buyers = {players[p.name] for p in self.buyers}
        other.income = {number: {key: Income(i.tile, i.resource, players[i.owner.name], i.cards)
                                 for key, i in entries.items()}
                        for number, entries in self.income.items()}
        other.line = self.line

    def _map(self) -> Board:
        """The map, once defined (the replay checks nothing else before it)."""
        assert self.board is not None
        return self.board

    def player(self, name: str) -> Player:
        p = self.players.get(name)
        if p is None:
            p = self.players[name] = Player(name)
        return p

    def points(self, name: str) -> int:
        p = self.player(name)
        cards = p.cards["VP"] + p.new_cards["VP"] + p.revealed_points
        return (p.building_points + cards * _POINTS_VP
                + (_POINTS_LONGEST if self.longest_road == name else 0)
                + (_POINTS_ARMY if self.largest_army == name else 0))

    def next_player(self, name: str) -> str:
        count = self.count or len(self.players)
        if self._order_for != count:
            self._order_for, self._after = count, {str(n): str(n % count + 1) for n in range(1, count + 1)}
        return self._after.get(name) or str(int(name) % count + 1)

    def _pay(self, p: Player, cost: Mapping[str, int], what: str, pointer: str = "/1") -> List[Problem]:
        """Take a cost from a hand into the bank; a hand never goes below zero."""
        hand, bank = p.hand, self.bank
        problems = []
        if p.unsure:
            self._reveal(p, cost)
        if any(hand[r] < n for r, n in cost.items()):
            problems.append(Problem("cannot-afford", pointer,
                                    f"{p.holds()}; {what} costs {show_cost(cost)}",
                                    "production is inferred from the rolls: check the rolls and trades before"))
        for r, n in cost.items():
            paid = min(n, hand[r])
            hand[r] -= paid
            bank[r] += paid
        return problems

    def _reveal(self, p: Player, cost: Mapping[str, int]) -> None:
        """Cards the hand lacks for `cost` come from those the player may hold unseen: they
        were there (from the bank), as far as the unseen cards go."""
        hand, unseen, bank = p.hand, p.unseen, self.bank
        for r, n in cost.items():
            if n > hand[r] and unseen[r] > 0:
                k = min(n - hand[r], unseen[r])
                hand[r] += k
                unseen[r] -= k
                bank[r] = max(0, bank[r] - k)
        p.unsure = any(unseen.values())

    def lose_roll(self, player: str) -> None:
        """A roll the log lost, not a 7 (a reading after a fault): what it paid is unknown, so
        each player may hold, unseen, as much of each resource as any number would have paid."""
        self.rolled, self.free_roads = True, 0
        self.uncertain = True
        robber = self.robber
        most: Dict[Tuple[str, str], int] = {}
        for number, entries in self.income.items():
            paid: Dict[Tuple[str, str], int] = {}
            for i in entries.values():
                if i.tile != robber:
                    key = (i.owner.name, i.resource)
                    paid[key] = paid.get(key, 0) + i.cards
            for key, n in paid.items():
                most[key] = max(most.get(key, 0), n)
        for (name, r), n in most.items():
            p = self.players[name]
            p.unseen[r] += n
            p.unsure = True

    def lose_cards(self, name: str, most: int, spread: int = 0) -> None:
        """A message the log lost changed player `name`'s hand (a reading after a fault): it
        may hold up to `most` fewer cards of each resource, and up to `spread` more, than
        the replay counts; each is known within those bounds from now on (`unseen`)."""
        p = self.player(name)
        hand, unseen = p.hand, p.unseen
        for r in hand:
            fewer = min(hand[r], most)
            hand[r] -= fewer
            unseen[r] += fewer + spread
        p.unsure = p.unsure or any(unseen.values())
        self.bank_unsure = True

    def _take_from_bank(self, p: Player, wanted: Mapping[str, int], pointer: str) -> List[Problem]:
        problems = []
        for r, n in wanted.items():
            given = min(n, self.bank[r])
            unsure = self.uncertain or self.bank_unsure     # (after a lost message, the bank is not known)
            if given < n and not unsure:
                problems.append(Problem("bank-empty", pointer,
                                        f"the bank has {self.bank[r]} {rules.RESOURCE_NAMES[r]} left, not {n}"))
            self.bank[r] -= given
            p.hand[r] += n if unsure else given
        return problems

    def _pieces_left(self, p: Player, kind: str, placed: int, pointer: str) -> List[Problem]:
        if placed >= PIECES[kind]:
            return [Problem("piece-limit", pointer,
                            f"player {p.name} has placed all {count(PIECES[kind], kind)}")]
        return []

    def can_settle(self, p: Player, c: Corner, connected: bool) -> bool:
        """Whether a settlement of `p` may stand at `c` (the rules of `_settlement_site`, fast)."""
        if c in self.building_at or any(n in self.building_at for n in board.corner_neighbours(c)):
            return False
        return not connected or any(e in p.roads for e in board.edges_of_corner(c))

    def _settlement_site(self, p: Player, c: Corner, connected: bool, pointer: str) -> List[Problem]:
        if c in self.building_at:
            owner, kind = self.building_at[c]
            return [Problem("site-occupied", pointer, f"{show_corner(c)} already has player {owner}'s {kind}")]
        problems = []
        near = sorted((n for n in board.corner_neighbours(c) if n in self.building_at), key=board.canonical_corner)
        if near:
            owner, kind = self.building_at[near[0]]
            problems.append(Problem("distance-rule", pointer,
                                    f"{show_corner(c)} is next to player {owner}'s {kind} at {show_corner(near[0])}",
                                    "a settlement is at least two edges away from every other building"))
        if connected and not any(e in p.roads for e in board.edges_of_corner(c)):
            problems.append(Problem("settlement-not-connected", pointer,
                                    f"{show_corner(c)} touches none of player {p.name}'s roads"))
        return problems

    def _road_site(self, p: Player, e: Edge, pointer: str, setup_corner: Optional[Corner] = None) -> List[Problem]:
        if e in self.road_at:
            return [Problem("road-occupied", pointer, f"player {self.road_at[e]} already has a road there")]
        if setup_corner is not None:
            if setup_corner not in e:
                return [Problem("setup-road-not-at-settlement", pointer,
                                f"the setup road must touch the settlement just placed at {show_corner(setup_corner)}")]
            return []
        for end in e:
            owner = self.building_at.get(end, (None,))[0]
            if owner == p.name:
                return []
            if owner is None and any(other in p.roads for other in board.edges_of_corner(end) if other != e):
                return []
        return [Problem("road-not-connected", pointer,
                        f"the road touches none of player {p.name}'s roads or buildings "
                        "(a road cannot continue through an opponent's building)")]

    def _longest_trail(self, p: Player) -> int:
        """The longest trail of `p`'s roads (no road twice), not passing other players' buildings.

        A longest trail can be taken to start where a road ends, where three roads
        meet, or at another player's building: elsewhere (two roads, nothing in the
        way) a trail starting there could be extended, or it is a loop that can start
        at any of its corners. So the search starts there, and once in each part of
        the network that has no such corner (a ring).
        """
        links, building_at, name = p.links, self.building_at, p.name
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

    def _update_longest_road(self, names: Iterable[str]) -> None:
        for name in names:
            self.players[name].road_length = self._longest_trail(self.players[name])
        lengths = {n: p.road_length for n, p in self.players.items()}
        top = max(lengths.values(), default=0)
        leaders = [n for n, length in lengths.items() if length == top]
        holder = self.longest_road
        if holder is not None and lengths[holder] >= rules.LONGEST_ROAD_MIN and lengths[holder] == top:
            return
        self.longest_road = leaders[0] if top >= rules.LONGEST_ROAD_MIN and len(leaders) == 1 else None

    def _update_largest_army(self, name: str) -> None:
        knights = self.players[name].knights
        holder = self.largest_army
        if knights >= rules.LARGEST_ARMY_MIN and (holder is None or knights > self.players[holder].knights):
            self.largest_army = name

    def _set_building(self, c: Corner, owner: str, kind: str) -> None:
        """Place or upgrade a building, and note what it earns on each number."""
        self.building_at[c] = (owner, kind)
        yields, cards, p = self._map().yields, rules.YIELD[kind], self.players[owner]
        for tile in c:
            found = yields.get(tile)
            if found is not None:
                number, resource = found
                self.income.setdefault(number, {})[(tile, c)] = Income(tile, resource, p, cards)

    def _produce(self, number: int) -> None:
        entries = self.income.get(number)
        if not entries:
            return
        robber, bank = self.robber, self.bank
        wanted: Dict[str, int] = {}                # resource -> cards owed in all
        for income in entries.values():
            if income.tile != robber:
                wanted[income.resource] = wanted.get(income.resource, 0) + income.cards
        short = [r for r, n in wanted.items() if n > bank[r]]
        for income in entries.values():            # the common case: the bank has enough
            if income.tile != robber and income.resource not in short:
                income.owner.hand[income.resource] += income.cards
        for r, n in wanted.items():
            if r not in short:
                bank[r] -= n
        for r in short:
            owed: Dict[Player, int] = {}
            for income in entries.values():
                if income.tile != robber and income.resource == r:
                    owed[income.owner] = owed.get(income.owner, 0) + income.cards
            if self.uncertain or self.bank_unsure:
                # after a lost roll the bank's count is known within bounds only: each owed
                # player may have got their cards (unseen ones), or not
                for p, n in owed.items():
                    p.unseen[r] += n
                    p.unsure = True
                continue
            if len(owed) == 1:                     # one player owed: they get what is left
                for p in owed:
                    p.hand[r] += bank[r]
                bank[r] = 0
            # several owed and not enough: nobody gets any

    def _place_settlement(self, p: Player, c: Corner) -> None:
        p.settlements.add(c)
        p.count_buildings()
        p.harbors |= self._map().harbor_at.get(c, set())
        self._set_building(c, p.name, "settlement")
        touched = {self.road_at[e] for e in board.edges_of_corner(c) if self.road_at.get(e, p.name) != p.name}
        if touched:
            self._update_longest_road(touched)

    def _place_road(self, p: Player, e: Edge) -> None:
        new = p.add_road(e)
        self.road_at[e] = p.name
        if new:
            self._update_longest_road([p.name])

    def finish(self) -> List[Problem]:
        """What the end of the log leaves unfinished (warnings only; nothing once the game is over)."""
        if self.phase == OVER or self.board is None:
            return []
        owed = []
        if self.phase == SETUP and self.setup_order:
            return [Problem("log-ends-unfinished", "", "the log ends before the setup is finished")]
        owed += [f"player {n}'s discard" for n in sorted(self.discards_owed)]
        if self.robber_due:
            owed.append("the robber's move")
        if self.steal_from and self.steal_needed:
            owed.append("a steal")
        if not owed:
            return []
        listed = ", ".join(owed[:-1]) + " and " + owed[-1] if len(owed) > 1 else owed[0]
        return [Problem("log-ends-unfinished", "", f"the log ends before {listed}")]

    def snapshot(self) -> dict:
        """The state as plain data (for `sgn replay`)."""
        def corners(cs):
            return sorted([[list(t) for t in board.canonical_corner(c)] for c in cs])

        def edges(es):
            return sorted([[[list(t) for t in end] for end in board.canonical_edge(e)] for e in es])

        return {
            "variant": self.variant.name,
            "phase": self.phase, "turn": self.turn, "current": self.current, "rolled": self.rolled,
            "robber": list(self.robber) if self.robber else None,
            "bank": {r: self.bank[r] for r in RESOURCES},
            "deck": {c: self.deck[c] for c in rules.DECK},
            "longest_road": self.longest_road, "largest_army": self.largest_army,
            "owed": {"discards": dict(self.discards_owed), "robber": self.robber_due,
                     "steal_from": sorted(self.steal_from) if self.steal_from else []},
            "ended_at_line": self.ended_at,
            "players": {
                name: {
                    "points": self.points(name),
                    "hand": {r: p.hand[r] for r in RESOURCES},
                    "cards": {c: p.cards[c] + p.new_cards[c] for c in rules.DECK},
                    "knights_played": p.knights, "road_length": p.road_length,
                    "settlements": corners(p.settlements), "cities": corners(p.cities),
                    "roads": edges(p.roads),
                } for name, p in sorted(self.players.items())
            },
        }
