"""The rules replay: a game state, and `apply(message)` that checks one move against it.

SGN leaves out what can be inferred: production, the end of a turn, who holds
the longest road. The replay infers them, following the base game's rules
(the numbers are the tables of `sgn/rules.py`), and reports each move that
breaks a rule as a `Problem`.

After an illegal move the replay goes on from what the log says happened: the
move is applied as far as it can be (the piece is placed, cards move, a hand
never goes below zero, an obligation left unmet is dropped), so that later,
independent errors are still found and one error does not cascade.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from . import board, rules
from .board import Corner, Edge, Tile
from .rules import COSTS, PIECES, RESOURCES, show_cost, show_hand
from .semantic import Problem, is_discard

SETUP, TURNS, OVER = "setup", "turns", "over"
# Actions that cannot change anyone's points (so the win needs no checking after them).
_NO_POINTS = frozenset({"TR", "ST", "MR"})
# The harbor that trades each resource 2:1, and the generic one (3:1).
_HARBOR_FOR = {r: code for code, r in board.HARBOR_RESOURCE.items() if r is not None}
(_GENERIC_HARBOR,) = (code for code, r in board.HARBOR_RESOURCE.items() if r is None)
_POINTS_VP, _POINTS_LONGEST, _POINTS_ARMY = (rules.POINTS[k] for k in ("VP", "longest road", "largest army"))


def _tile(raw) -> Tile:
    return (raw[0], raw[1])


_corner = board.corner_from_json
_edge = board.edge_from_json


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _fmt_corner(c: Corner) -> str:
    return "[" + ",".join(f"[{q},{r}]" for q, r in board.canonical_corner(c)) + "]"


class Board:
    """The map as the replay needs it: kinds, numbers, harbors, and lookups worked out once."""

    __slots__ = ("kinds", "numbers", "harbor_at", "desert", "harbors", "yields")

    def __init__(self, kinds: Dict[Tile, str], numbers: Dict[Tile, int],
                 harbor_at: Dict[Corner, Set[str]], desert: Optional[Tile],
                 harbors: List[Tuple[Edge, str]]):
        self.kinds = kinds
        self.numbers = numbers
        self.harbor_at = harbor_at                 # corner -> harbor codes reachable from it
        self.desert = desert
        self.harbors = harbors                     # each harbor's edge and hCode, as the map lists them
        # tile -> (number, resource) for each tile that produces
        self.yields: Dict[Tile, Tuple[int, str]] = {
            t: (numbers[t], board.PRODUCING[k]) for t, k in kinds.items()
            if t in numbers and k in board.PRODUCING}

    @classmethod
    def from_value(cls, value: dict) -> "Board":
        kinds: Dict[Tile, str] = {}
        numbers: Dict[Tile, int] = {}
        for t in value["tiles"]:
            tile = _tile(t["tile"])
            kinds[tile] = t["tCode"]
            if t["rNumber"] is not None:
                numbers[tile] = t["rNumber"]
        harbor_at: Dict[Corner, Set[str]] = {}
        harbors = []
        for h in value["harbors"]:
            e = _edge(h["path"])
            harbors.append((e, h["hCode"]))
            for end in e:
                harbor_at.setdefault(end, set()).add(h["hCode"])
        desert = next((t for t, k in kinds.items() if k == "D"), None)
        return cls(kinds, numbers, harbor_at, desert, harbors)


class Player:
    """One player's hand, pieces and cards."""

    def __init__(self, name: str):
        self.name = name
        # plain dicts with every key present from the start (what the compiled replay reads fastest)
        self.hand: Dict[str, int] = dict.fromkeys(RESOURCES, 0)
        self.settlements: Set[Corner] = set()
        self.cities: Set[Corner] = set()
        self.roads: Set[Edge] = set()
        # corner -> (bit, other end) for each of the player's roads ending there; each road
        # has its own bit, so that the longest-trail search marks roads used in one integer
        self.links: Dict[Corner, List[Tuple[int, Corner]]] = {}
        self.cards: Dict[str, int] = dict.fromkeys(rules.DECK, 0)       # held, playable
        self.new_cards: Dict[str, int] = dict.fromkeys(rules.DECK, 0)   # bought this turn
        self.harbors: Set[str] = set()         # harbor codes at the player's buildings
        self.knights = 0
        self.revealed_points = 0               # Victory Point cards played (shown)
        self.road_length = 0
        self.building_points = 0               # from settlements and cities, kept as they are placed
        # cards the player may hold beyond `hand` (a roll the log lost paid out an unknown
        # number): a payment the hand cannot make takes them first, so none makes a false error
        self.unseen: Dict[str, int] = dict.fromkeys(RESOURCES, 0)
        self.unsure = False

    def clone(self) -> "Player":
        """A copy that shares nothing that changes (corners and edges are immutable)."""
        other = Player(self.name)
        other.hand, other.cards, other.new_cards = dict(self.hand), dict(self.cards), dict(self.new_cards)
        other.settlements, other.cities, other.roads = set(self.settlements), set(self.cities), set(self.roads)
        other.links = {c: list(ends) for c, ends in self.links.items()}
        other.harbors = set(self.harbors)
        other.knights, other.revealed_points = self.knights, self.revealed_points
        other.road_length, other.building_points = self.road_length, self.building_points
        other.unseen, other.unsure = dict(self.unseen), self.unsure
        return other

    def add_road(self, e: Edge) -> bool:
        """Note a road of this player; False if it was already theirs."""
        if e in self.roads:
            return False
        bit = 1 << len(self.roads)
        self.roads.add(e)
        a, b = e
        self.links.setdefault(a, []).append((bit, b))
        self.links.setdefault(b, []).append((bit, a))
        return True

    def count_buildings(self) -> None:
        self.building_points = (len(self.settlements) * rules.POINTS["settlement"]
                                + len(self.cities) * rules.POINTS["city"])

    @property
    def buildings(self) -> Set[Corner]:
        return self.settlements | self.cities

    def holds(self) -> str:
        return f"player {self.name} holds {show_hand(self.hand)}"


def _trail_from(c: Corner, used: int, links: Dict[Corner, List[Tuple[int, Corner]]],
                blocked: Set[Corner], seen: Set[Corner]) -> int:
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
                length = 1 + _trail_from(other, used | bit, links, blocked, seen)
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


class Game:
    """The state of one game, replayed message by message."""

    def __init__(self) -> None:
        self.board: Optional[Board] = None
        self.players: Dict[str, Player] = {}
        self.count: Optional[int] = None        # number of players, once the setup shows it
        self.bank: Dict[str, int] = dict.fromkeys(RESOURCES, rules.BANK_STOCK)
        self.deck: Dict[str, int] = dict(rules.DECK)
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
        self.robber_due: Optional[str] = None   # "seven" or "knight"
        self.steal_from: Optional[Set[str]] = None
        self.steal_needed = False               # whether a steal must follow (not only may)
        self.card_played = False
        self.free_roads = 0
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

    def clone(self) -> "Game":
        """A copy of the state that changes apart from this one (the board is shared: it
        never changes), for trying several readings of a log after a fault."""
        other = Game()
        other.board = self.board
        players = {name: p.clone() for name, p in self.players.items()}
        other.players = players
        other.count, other.bank, other.deck, other.robber = self.count, dict(self.bank), dict(self.deck), self.robber
        other.phase, other.setup_order, other.setup_road_due = self.phase, list(self.setup_order), self.setup_road_due
        other.current, other.rolled, other.turn = self.current, self.rolled, self.turn
        other.discards_owed, other.discards_late = dict(self.discards_owed), dict(self.discards_late)
        other.discards_upto = dict(self.discards_upto)
        other.robber_due = self.robber_due
        other.steal_from = set(self.steal_from) if self.steal_from is not None else None
        other.steal_needed = self.steal_needed
        other.card_played, other.free_roads = self.card_played, self.free_roads
        other.longest_road, other.largest_army = self.longest_road, self.largest_army
        other.ended_at, other.after_end_reported = self.ended_at, self.after_end_reported
        other.without_map_reported = self.without_map_reported
        other.building_at, other.road_at = dict(self.building_at), dict(self.road_at)
        other.buyers = {players[p.name] for p in self.buyers}
        other.income = {number: {key: Income(i.tile, i.resource, players[i.owner.name], i.cards)
                                 for key, i in entries.items()}
                        for number, entries in self.income.items()}
        other.line = self.line
        return other

    # -- helpers ---------------------------------------------------------------------
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

    def _take_from_bank(self, p: Player, wanted: Mapping[str, int], pointer: str) -> List[Problem]:
        problems = []
        for r, n in wanted.items():
            given = min(n, self.bank[r])
            if given < n:
                problems.append(Problem("bank-empty", pointer,
                                        f"the bank has {self.bank[r]} {rules.RESOURCE_NAMES[r]} left, not {n}"))
            self.bank[r] -= given
            p.hand[r] += given
        return problems

    def _pieces_left(self, p: Player, kind: str, placed: int, pointer: str) -> List[Problem]:
        if placed >= PIECES[kind]:
            return [Problem("piece-limit", pointer,
                            f"player {p.name} has placed all {PIECES[kind]} {kind}s")]
        return []

    # -- placement ---------------------------------------------------------------------
    def can_settle(self, p: Player, c: Corner, connected: bool) -> bool:
        """Whether a settlement of `p` may stand at `c` (the rules of `_settlement_site`, fast)."""
        if c in self.building_at or any(n in self.building_at for n in board.corner_neighbours(c)):
            return False
        return not connected or any(e in p.roads for e in board.edges_of_corner(c))

    def _settlement_site(self, p: Player, c: Corner, connected: bool, pointer: str) -> List[Problem]:
        if c in self.building_at:
            owner, kind = self.building_at[c]
            return [Problem("site-occupied", pointer, f"{_fmt_corner(c)} already has player {owner}'s {kind}")]
        problems = []
        near = sorted((n for n in board.corner_neighbours(c) if n in self.building_at), key=board.canonical_corner)
        if near:
            owner, kind = self.building_at[near[0]]
            problems.append(Problem("distance-rule", pointer,
                                    f"{_fmt_corner(c)} is next to player {owner}'s {kind} at {_fmt_corner(near[0])}",
                                    "a settlement is at least two edges away from every other building"))
        if connected and not any(e in p.roads for e in board.edges_of_corner(c)):
            problems.append(Problem("settlement-not-connected", pointer,
                                    f"{_fmt_corner(c)} touches none of player {p.name}'s roads"))
        return problems

    def _road_site(self, p: Player, e: Edge, pointer: str, setup_corner: Optional[Corner] = None) -> List[Problem]:
        if e in self.road_at:
            return [Problem("road-occupied", pointer, f"player {self.road_at[e]} already has a road there")]
        if setup_corner is not None:
            if setup_corner not in e:
                return [Problem("setup-road-not-at-settlement", pointer,
                                f"the setup road must touch the settlement just placed at {_fmt_corner(setup_corner)}")]
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

    # -- longest road and largest army ---------------------------------------------------
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
                best = max(best, _trail_from(c, 0, links, blocked, seen))
        for c in links:
            if c not in seen:
                best = max(best, _trail_from(c, 0, links, blocked, seen))
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

    # -- production -----------------------------------------------------------------------
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
            if len(owed) == 1:                     # one player owed: they get what is left
                for p in owed:
                    p.hand[r] += bank[r]
                bank[r] = 0
            # several owed and not enough: nobody gets any

    # -- the moves ----------------------------------------------------------------------------
    def apply(self, message: Sequence[Any], line: int = 0) -> List[Problem]:
        """Check one message against the state, then change the state as the message says."""
        self.line = line
        player, action, value = message
        if self.without_map_reported:
            return []
        if action == "DM":
            return self._define_map(value)
        if self.board is None:
            self.without_map_reported = True
            return [Problem("game-without-map", "/1",
                            "the replay needs the map: the log must start with a valid DM "
                            "(later messages are not replayed)")]
        if self.phase == OVER:
            if self.after_end_reported:
                return []
            self.after_end_reported = True
            return [Problem("after-game-end", "",
                            f"the game ended at line {self.ended_at}, when player {self.current} "
                            f"reached {self.points(self.current) if self.current else 0} points; "
                            "nothing may follow "
                            "(later messages are not checked)")]
        if self.phase == SETUP:
            problems = self._setup(player, action, value)
        else:
            problems = self._turn(player, action, value)
        if (self.phase == TURNS and self.current and action not in _NO_POINTS
                and self.points(self.current) >= rules.POINTS_TO_WIN):
            self.phase, self.ended_at = OVER, line
        return problems

    def _define_map(self, value) -> List[Problem]:
        if self.board is not None:
            return [Problem("map-redefined", "/1", "the map is defined once, at the start of the game")]
        self.board = Board.from_value(value)
        self.robber = self.board.desert
        return []

    # setup ---------------------------------------------------------------------------------
    def _expected_setup_player(self) -> Optional[str]:
        """Who places the next setup settlement (None once the setup is done). In the first
        round, the lowest-numbered player who has not placed; in the second, the highest who
        has not placed again. So a swap of two players costs one error, not one per line."""
        order = self.setup_order
        if self.count is None:
            n = 1
            while str(n) in order:
                n += 1
            return str(n)
        second = order[self.count:]
        if len(order) >= 2 * self.count:
            return None
        return next(str(n) for n in range(self.count, 0, -1) if str(n) not in second)

    def _setup(self, player: str, action: str, value) -> List[Problem]:
        if action == "MR" and not self.setup_order:
            tile = _tile(value["tile"])
            self.robber = tile
            if tile != self._map().desert:
                return [Problem("robber-start-not-desert", "/2/tile", "the robber starts on the desert")]
            return []
        if action == "BR" and self.setup_road_due is not None:
            return self._setup_road(player, value)
        if action == "BS" and self.setup_road_due is None:
            return self._setup_settlement(player, value)
        due = self.setup_road_due
        if action == "BS" and due is not None:  # the last setup turn's road is missing: go on
            owner = due[0]
            self.setup_road_due = None
            return [Problem("setup-order", "/1", f"player {owner}'s setup road is missing before this settlement",
                            "each setup turn is one BS then one BR touching it")] + self._setup_settlement(player, value)
        if action in ("RD", "PD") and self.setup_road_due is None:
            problems = self._end_setup_early()
            return problems + self._turn(player, action, value)
        next_move = f"player {due[0]}'s setup road" if due is not None else "a setup settlement"
        return [Problem("setup-order", "/1", f"{action} during the setup, where {next_move} comes next "
                                             "(the message is not replayed)",
                        "each setup turn is one BS then one BR touching it, in snake order")]

    def _setup_settlement(self, player: str, value) -> List[Problem]:
        problems: List[Problem] = []
        if self.count is None and player in self.setup_order:
            # a second settlement: the first round is over, and showed the player count
            self.count = len(self.setup_order)
            problems += self._check_count()
        expected = self._expected_setup_player()
        if expected is None:
            self._end_setup_early()
            return self._turn(player, "BS", value)
        if player != expected:
            problems.append(Problem("setup-order", "/0",
                                    f"player {player} places a setup settlement, but it is player {expected}'s turn",
                                    "the setup goes 1..n, then n..1"))
        p = self.player(player)
        c = _corner(value["intersection"])
        problems += self._settlement_site(p, c, connected=False, pointer="/2/intersection")
        second = self.setup_order.count(player) == 1
        self.setup_order.append(player)
        self._place_settlement(p, c)
        if second:
            kinds = self._map().kinds
            gains = board.tally(board.PRODUCING[kinds[t]] for t in c if kinds.get(t, board.SEA) in board.PRODUCING)
            problems += self._take_from_bank(p, gains, "/2/intersection")
        self.setup_road_due = (player, c)
        return problems

    def _check_count(self) -> List[Problem]:
        if self.count not in rules.PLAYER_COUNTS:
            return [Problem("player-count", "/0",
                            f"the setup shows {self.count} players; the base game's rules, which this "
                            f"replay follows, are for {' or '.join(map(str, rules.PLAYER_COUNTS))}")]
        return []

    def _setup_road(self, player: str, value) -> List[Problem]:
        due = self.setup_road_due
        assert due is not None             # a setup road is replayed only when one is due
        owner, c = due
        problems = []
        if player != owner:
            problems.append(Problem("setup-order", "/0", f"player {player} places a road, but it is "
                                                         f"player {owner}'s setup road"))
        p = self.player(owner)
        e = _edge(value["path"])
        problems += self._road_site(p, e, "/2/path", setup_corner=c)
        self._place_road(p, e)
        self.setup_road_due = None
        if self.count is not None and len(self.setup_order) == 2 * self.count:
            self._start_turns()
        return problems

    def _end_setup_early(self) -> List[Problem]:
        placed = len(self.setup_order)
        if self.count is None:
            self.count = max((int(n) for n in self.players), default=1)
        self._start_turns()
        if placed != 2 * self.count:
            return [Problem("setup-incomplete", "/1",
                            f"the setup ends after {placed} settlements; {self.count} players place "
                            f"{2 * self.count}")] + self._check_count()
        return []

    def _start_turns(self) -> None:
        self.phase = TURNS
        self.current = None

    # turns ----------------------------------------------------------------------------------
    def _owed(self) -> List[Problem]:
        """Report and drop every obligation left unmet."""
        problems = []
        for name, n in sorted(self.discards_owed.items()):
            problems.append(Problem("discard-missing", "/1",
                                    f"player {name} had to discard {n} after the 7, and did not"))
        if self.robber_due:
            problems.append(Problem("robber-not-moved", "/1",
                                    f"the robber had to move after the {'7' if self.robber_due == 'seven' else 'Knight'}"))
        if self.steal_from and self.steal_needed:
            problems.append(Problem("steal-missing", "/1",
                                    f"player {self.current} had to steal from player "
                                    f"{' or '.join(sorted(self.steal_from))} after moving the robber"))
        self.discards_owed, self.robber_due, self.steal_from = {}, None, None
        self.discards_late, self.discards_upto = {}, {}
        return problems

    def _turn(self, player: str, action: str, value) -> List[Problem]:
        if self.free_roads and action != "BR":
            self.free_roads = 0         # Road Building's roads come at once: anything else ends them
        if action == "RD":
            return self._roll(player, value["result"])
        discard = action == "TR" and is_discard(value)
        if discard and (self.discards_owed or self.discards_late or self.discards_upto):
            return self._discard(player, value)
        if action == "MR":
            return self._move_robber(player, _tile(value["tile"]))
        if action == "ST":
            return self._steal(player, value)
        problems = self._owed() if (self.discards_owed or self.robber_due or self.steal_from) else []
        if action == "PD" and player != self.current and player == self._expected_next():
            problems += self._pass_turn(player)        # a card played before the roll starts the turn
        if self.current is None:
            self.current = "1"
        if action == "TR":
            return problems + self._trade(player, value, discard)
        if player != self.current:
            problems.append(Problem("not-your-turn", "/0",
                                    f"player {player} acts during player {self.current}'s turn"))
        p = self.player(player)
        if action == "PD":
            return problems + self._play(p, value)
        if not self.rolled and not (action == "BR" and self.free_roads > 0):
            problems.append(Problem("roll-first", "/1", f"{action} before the dice are rolled",
                                    "a turn starts with RD; only a development card (and the roads of "
                                    "Road Building) may come before it"))
        if action != "BR":
            self.free_roads = 0
        return problems + _BUILDS[action](self, p, value)

    def _expected_next(self) -> str:
        return "1" if self.current is None else self.next_player(self.current)

    def _pass_turn(self, player: str) -> List[Problem]:
        """`player` starts their turn (with the roll, or a card before it): the turn before ends."""
        problems = []
        expected = self._expected_next()
        if player != expected:
            problems.append(Problem("turn-order", "/0",
                                    f"player {player} takes the turn, but "
                                    + (f"after player {self.current} comes player {expected}" if self.current
                                       else "player 1 begins")))
        if self.current is not None and not self.rolled:
            problems.append(Problem("roll-missing", "/0", f"player {self.current}'s turn ended without a roll"))
        if self.discards_owed or self.robber_due or self.steal_from:
            problems = self._owed() + problems
        self.turn += 1
        self.card_played = False
        self.discards_late, self.discards_upto = {}, {}
        for p in self.buyers:
            for card, n in p.new_cards.items():
                p.cards[card] += n
            p.new_cards = dict.fromkeys(rules.DECK, 0)
        self.buyers.clear()
        self.current, self.rolled, self.free_roads = player, False, 0
        return problems

    def begin_turn(self, player: str) -> List[Problem]:
        """`player`'s turn begins now, before any roll (a reading of a log after a fault)."""
        return self._pass_turn(player)

    def roll_quietly(self, player: str, result: int) -> None:
        """A roll the log does not show, with its effects (a reading after a fault)."""
        self._roll(player, result)

    def payout(self, number: int) -> int:
        """The cards a roll of `number` would pay out now (before the bank runs short)."""
        robber = self.robber
        return sum(i.cards for i in self.income.get(number, {}).values() if i.tile != robber)

    def _roll(self, player: str, result: int) -> List[Problem]:
        if player == self.current and self.rolled:
            problems = [Problem("already-rolled", "/0", f"player {player} rolls twice in one turn")]
        elif player == self.current:
            problems = []
        else:
            problems = self._pass_turn(player)
        if self.discards_owed or self.robber_due or self.steal_from:
            problems = self._owed() + problems
        self.rolled, self.free_roads = True, 0
        self.discards_late, self.discards_upto = {}, {}
        if result == rules.ROBBER_ROLL:
            self.discards_owed = {n: rules.total(p.hand) // 2 for n, p in self.players.items()
                                  if rules.total(p.hand) > rules.DISCARD_ABOVE}
            for n, p in self.players.items():       # a hand with unseen cards owes a range
                most = rules.total(p.hand) + rules.total(p.unseen)
                if p.unsure and most > rules.DISCARD_ABOVE:
                    self.discards_upto[n] = most // 2
            self.robber_due = "seven"
        else:
            self._produce(result)
        return problems

    def _discard(self, player: str, value) -> List[Problem]:
        side = next(s for s in value if s["player"] != "B")
        name = side["player"]
        given = {r: -n for r, n in side["resources"].items()}
        amount = sum(given.values())
        p = self.player(name)
        problems = []
        owed = self.discards_owed.get(name, self.discards_late.get(name))
        upto = self.discards_upto.get(name)
        if owed is None and upto is None:
            problems.append(Problem("discard-not-owed", "/2",
                                    f"player {name} discards, but owes no discard "
                                    f"(only players with more than {rules.DISCARD_ABOVE} cards after a 7 do)"))
        elif (upto is None and amount != owed) or (upto is not None and not (owed or 0) <= amount <= upto):
            must = f"{owed}" if upto is None else f"{owed or 0} to {upto}"
            problems.append(Problem("discard-wrong-amount", "/2",
                                    f"player {name} discards {_cards(amount)}, but must discard "
                                    f"{must} (half of their hand, rounded down)"))
        if player != name:
            problems.append(Problem("not-your-turn", "/0", f"player {player} sends player {name}'s discard"))
        if p.unsure:
            self._reveal(p, given)
        short = rules.lacks(p.hand, given)
        if short:
            problems.append(Problem("not-held", "/2", f"{p.holds()}; the discard is {show_cost(given)}"))
        self._pay(p, given, "the discard")
        self.discards_owed.pop(name, None)
        self.discards_late.pop(name, None)
        self.discards_upto.pop(name, None)
        return problems

    def _move_robber(self, player: str, tile: Tile) -> List[Problem]:
        problems = []
        if self.discards_owed:
            # reported here, once; a discard that comes after the robber's move is still taken
            owed = sorted(self.discards_owed.items())
            problems.append(Problem("discard-missing", "/1",
                                    " and ".join(f"player {name}" for name, _ in owed) + " had to discard "
                                    + " and ".join(str(n) for _, n in owed) + " before the robber moved"
                                    + (", and did not" if len(owed) == 1 else " (in that order), and did not")))
            self.discards_late.update(self.discards_owed)
            self.discards_owed = {}
        if not self.robber_due:
            problems.append(Problem("robber-not-allowed", "/1",
                                    "the robber moves only after a 7 or a Knight"))
        if self.current is not None and player != self.current:
            problems.append(Problem("not-your-turn", "/0",
                                    f"player {player} moves the robber during player {self.current}'s turn"))
        if tile == self.robber:
            problems.append(Problem("robber-same-tile", "/2/tile", "the robber must move to a different tile"))
        self.robber, self.robber_due = tile, None
        thief = self.current or player
        victims: Set[str] = set()
        needed = False                  # a victim surely holds a card (not only unseen ones)
        for c in board.corners_of(tile):
            building = self.building_at.get(c)
            if building is not None and building[0] != thief:
                victim = self.players[building[0]]
                if rules.total(victim.hand) > 0:
                    victims.add(victim.name)
                    needed = True
                elif victim.unsure and rules.total(victim.unseen) > 0:
                    victims.add(victim.name)
        self.steal_from, self.steal_needed = victims or None, needed
        return problems

    def _steal(self, player: str, value) -> List[Problem]:
        victim_side = next((s for s in value if sum(s["resources"].values()) < 0), value[1])
        victim, resources = victim_side["player"], victim_side["resources"]
        problems = []
        if not self.steal_from:
            problems.append(Problem("steal-not-allowed", "/1",
                                    "a steal follows a robber move onto a tile where another player "
                                    "has a building and holds cards"))
        elif victim not in self.steal_from:
            problems.append(Problem("steal-wrong-victim", "/2",
                                    f"player {victim} cannot be robbed here; the robber's tile touches "
                                    f"player {' or '.join(sorted(self.steal_from))}"))
        if self.current is not None and player != self.current:
            problems.append(Problem("not-your-turn", "/0",
                                    f"player {player} steals during player {self.current}'s turn"))
        p, v = self.player(player), self.player(victim)
        taken = {r: -n for r, n in resources.items()}
        if v.unsure:
            self._reveal(v, taken)
        if rules.lacks(v.hand, taken):
            problems.append(Problem("not-held", "/2", f"{v.holds()}; the steal takes {show_cost(taken)}"))
        for r, n in taken.items():
            moved = min(n, v.hand[r])
            v.hand[r] -= moved
            p.hand[r] += moved
        self.steal_from = None
        return problems

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

    def _build_settlement(self, p: Player, value) -> List[Problem]:
        c = _corner(value["intersection"])
        problems = self._pieces_left(p, "settlement", len(p.settlements), "/2/intersection")
        if problems:
            return problems         # no piece to place: nothing changes
        problems += self._settlement_site(p, c, connected=True, pointer="/2/intersection")
        problems += self._pay(p, COSTS["settlement"], "a settlement")
        self._place_settlement(p, c)
        return problems

    def _build_city(self, p: Player, value) -> List[Problem]:
        c = _corner(value["intersection"])
        problems = self._pieces_left(p, "city", len(p.cities), "/2/intersection")
        if problems:
            return problems         # no piece to place: nothing changes
        if c not in p.settlements:
            owner = self.building_at.get(c)
            where = f"player {owner[0]}'s {owner[1]}" if owner else "no building"
            problems.append(Problem("city-not-on-settlement", "/2/intersection",
                                    f"a city replaces the player's own settlement; {_fmt_corner(c)} has {where}"))
        problems += self._pay(p, COSTS["city"], "a city")
        p.settlements.discard(c)
        p.cities.add(c)
        p.count_buildings()
        self._set_building(c, p.name, "city")
        return problems

    def _build_road(self, p: Player, value) -> List[Problem]:
        e = _edge(value["path"])
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
                                    f"(it holds {rules.DECK[card]})"))
        else:
            self.deck[card] -= 1
        p.new_cards[card] += 1
        self.buyers.add(p)
        return problems

    def _play(self, p: Player, value) -> List[Problem]:
        card = value["cCode"]
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
        return problems + _EFFECTS[card](self, p, value)

    def _knight(self, p: Player, value) -> List[Problem]:
        p.knights += 1
        self._update_largest_army(p.name)
        self.robber_due = "knight"
        return []

    def _reveal_point(self, p: Player, value) -> List[Problem]:
        p.revealed_points += 1     # a Victory Point card shown still counts
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

    def _rate(self, p: Player, resource: str) -> int:
        harbors = p.harbors
        if _HARBOR_FOR[resource] in harbors:
            return rules.RATE_RESOURCE_HARBOR
        if _GENERIC_HARBOR in harbors:
            return rules.RATE_GENERIC_HARBOR
        return rules.RATE_DEFAULT

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
            problems += self._bank_rate(self.player(me), mine)
        for name, resources in ((a, ra), (b, rb)):
            if name != "B" and self.player(name).unsure:
                self._reveal(self.players[name], {r: -n for r, n in resources.items() if n < 0})
            holder = self.bank if name == "B" else self.player(name).hand
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

    def _rates(self, p: Player, resource: str) -> List[int]:
        """Every rate at which `p` may give `resource` to the bank: 4:1 always, 3:1 with a
        generic harbor, 2:1 with that resource's harbor (each lot at any of them)."""
        rates = [rules.RATE_DEFAULT]
        if _GENERIC_HARBOR in p.harbors:
            rates.append(rules.RATE_GENERIC_HARBOR)
        if _HARBOR_FOR[resource] in p.harbors:
            rates.append(rules.RATE_RESOURCE_HARBOR)
        return sorted(rates)

    def _bank_rate(self, p: Player, resources: Mapping[str, int]) -> List[Problem]:
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
            rates = self._rates(p, r)
            low, high, step = rates[0], rates[-1], (rates[1] - rates[0] if len(rates) > 1 else 1)
            fewest, many = -(n // high), -n // low          # ceil(-n / high), floor(-n / low)
            if fewest > many or (-n - fewest * low) % step:
                whole = False
            least += fewest
            most += many
        if whole and least <= gets <= most:
            return []
        gives = {r: -n for r, n in resources.items() if n < 0}
        offered = ", ".join(f"{_cards(n)} of {rules.RESOURCE_NAMES[r]} (at "
                            + " or ".join(f"{rate}:1" for rate in self._rates(p, r)) + ")"
                            for r, n in gives.items())
        buys = ("no whole number of lots" if not whole
                else f"{_cards(least)}" if least == most else f"from {least} to {most} cards")
        return [Problem("trade-rate", "/2",
                        f"player {p.name} gives the bank {offered} and gets {_cards(gets)}; "
                        f"that buys {buys}",
                        "the bank trades 4:1, 3:1 with a generic harbor, 2:1 with that resource's harbor; "
                        "lots at different rates may be mixed")]

    # -- the end of the log -------------------------------------------------------------------------
    def finish(self) -> List[Problem]:
        """What the end of the log leaves unfinished (warnings only; nothing once the game is over)."""
        if self.phase == OVER or self.board is None:
            return []
        owed = []
        if self.phase == SETUP and self.setup_order:
            owed.append("the setup")
        owed += [f"player {n}'s discard" for n in sorted(self.discards_owed)]
        if self.robber_due:
            owed.append("the robber's move")
        if self.steal_from and self.steal_needed:
            owed.append("a steal")
        if not owed:
            return []
        return [Problem("log-ends-unfinished", "", f"the log ends before {', '.join(owed)}")]

    # -- a summary of the state ----------------------------------------------------------------------
    def snapshot(self) -> dict:
        """The state as plain data (for `sgn replay`)."""
        def corners(cs):
            return sorted([[list(t) for t in board.canonical_corner(c)] for c in cs])

        def edges(es):
            return sorted([[[list(t) for t in end] for end in board.canonical_edge(e)] for e in es])

        return {
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


# What each build and each card does, by aCode and cCode.
_BUILDS = {"BS": Game._build_settlement, "BC": Game._build_city, "BR": Game._build_road, "BD": Game._buy_card}
_EFFECTS = {"KN": Game._knight, "RB": Game._road_building, "YP": Game._year_of_plenty,
            "MO": Game._monopoly, "VP": Game._reveal_point}
