"""The state of a replayed game: what it holds, a copy that changes apart (for the readings
after a fault), the counts everyone reads (points, the order of play) and a snapshot. The
moves are functions of this state, one module per concern (`sgn/game/core.py` lists them).
"""

from __future__ import annotations

from typing import Any, Dict, Final, List, Mapping, Optional, Set, Tuple

from .. import rules
from ..board import Corner, Edge, Tile
from ..rules import BASE_GAME, RESOURCES, Variant
from .bank_pays import AS_PLAYED, bank_more, pays_otherwise
from .pieces import Income, Map, Player, RoadBook
from .rule_profiles import DEFAULT, ENDS_OTHERWISE, LONGEST_ROAD_AS_CATANATRON, departures, for_game
from .snapshot import snapshot
from .unseen import Unseen

SETUP: Final = "setup"
TURNS: Final = "turns"
OVER: Final = "over"
AMOUNT_IN_DOUBT: Final = -1  # a late discard of half a hand in doubt (`Unseen.discards_late`)
_POINTS_VP: Final = rules.POINTS["VP"]
_POINTS_LONGEST: Final = rules.POINTS["longest road"]
_POINTS_ARMY: Final = rules.POINTS["largest army"]


class State:
    """The state of one game: the map, the players and their pieces, hands and cards, the
    bank and the deck, the phase and whose turn it is, what is owed; all read and changed
    by the functions of the concerns (setup, turns, robber, building, cards, trades), with
    the bookkeeping they share in `ledger` (cards and the bank) and `placing` (pieces)."""

    def __init__(self, rules: str = DEFAULT, as_played: bool = False) -> None:
        # the rule profile (sgn/game/rule_profiles.py): the rulebook, or an engine's; and what the rules read of it
        chosen = for_game(rules)  # (`auto` with no header: the rulebook)
        self.rules, self.departures = chosen, departures(chosen)
        # a game being played (the referee's, a bot's) follows its profile's rules alone; a log
        # judged, where they part from the rulebook's, either (bank_pays.py, engine_end.py)
        self.as_played = as_played
        # the departures a bank pays by; whether it may pay a roll otherwise than the rulebook's
        # where the log is judged, and what it holds more (bank_pays.py)
        self.bank_flags = self.departures | {AS_PLAYED} if as_played else self.departures
        self.bank_departs = pays_otherwise(self.bank_flags)
        self.bank_extra = bank_more(self.departures)
        # an end of the game the profile may make otherwise than the rulebook (engine_end.py)
        self.ends_otherwise = bool(self.departures & ENDS_OTHERWISE)
        self.board: Optional[Map] = None
        self.players: Dict[str, Player] = {}
        self.count: Optional[int] = None  # number of players, once the setup shows it
        self.variant: Variant = BASE_GAME  # chosen by the map (game._define_map)
        self.bank: Dict[str, int] = dict.fromkeys(RESOURCES, self.variant.bank)
        self.deck: Dict[str, int] = dict(self.variant.deck)
        self.robber: Optional[Tile] = None
        self.phase = SETUP
        self.setup_order: List[str] = []  # who placed each setup settlement, in order
        self.setup_road_due: Optional[Tuple[str, Corner]] = None
        self.current: Optional[str] = None
        self.rolled = False
        self.turn = 0
        self.discards_owed: Dict[str, int] = {}
        self.unseen = Unseen()  # all the log does not show (sgn/game/unseen.py: one record)
        self.robber_due: Optional[str] = None  # "seven" or "knight"
        self.steal_from: Optional[Set[str]] = None
        self.steal_needed = False  # whether a steal must follow (not only may)
        self.card_played = False
        self.free_roads = 0
        self.special_built: List[str] = []  # who has built in this Special Build Phase, in order
        # who has ended their part of this turn (ET): the player, then the Special Build Phase's;
        # a seat twice where it moved after its end, or marked `~` where its end came before
        # its roll (sgn/game/turns.py, `end_turn`)
        self.turn_ended: List[str] = []
        self.longest_road: Optional[str] = None
        self.largest_army: Optional[str] = None
        self.ended_at: Optional[int] = None
        # under a profile that counts the longest road otherwise: the rulebook's holder; and
        # where only one of the two rules ended the game, the turn it may go on in (engine_end.py)
        self.rulebook_road: Optional[str] = None
        self.end_departs: Optional[str] = None
        self.after_end_reported = False
        self.without_map_reported = False
        self.building_at: Dict[Corner, Tuple[str, str]] = {}  # corner -> (player, kind)
        self.road_at: Dict[Edge, str] = {}
        self._order_for = 0  # the player count that _after is for
        self._after: Dict[str, str] = {}  # who comes after whom
        self.buyers: Set[Player] = set()  # players holding cards bought this turn
        # number -> (tile, corner) -> (resource, owner, cards) for each building on a producing tile
        self.income: Dict[int, Dict[Tuple[Tile, Corner], Income]] = {}
        self.line = 0
        self.road_book: Optional[RoadBook] = None  # catanatron's count of the longest road, under its rules
        self.header: Optional[Dict[str, Any]] = None  # the game's header as the replay read it (sgn/game/header.py)
        # the states before each `Game.push`, for `Game.pop` (not copied; None until the first
        # push: the forks of the replay, made by the thousand, need none)
        self.pushed: Optional[List["State"]] = None

    def copy_into(self, other: "State") -> None:
        """Make `other` (a fresh state) a copy of this one that changes apart from it (the
        board is shared: it never changes), for trying several readings of a log."""
        other.board, other.variant, other.departures = self.board, self.variant, self.departures
        other.rules, other.bank_departs, other.bank_extra = self.rules, self.bank_departs, self.bank_extra
        other.as_played, other.bank_flags = self.as_played, self.bank_flags
        players = {name: p.clone() for name, p in self.players.items()}
        other.players = players
        other.count, other.bank, other.deck, other.robber = self.count, dict(self.bank), dict(self.deck), self.robber
        other.phase, other.setup_order, other.setup_road_due = self.phase, list(self.setup_order), self.setup_road_due
        other.current, other.rolled, other.turn = self.current, self.rolled, self.turn
        other.discards_owed, other.unseen = dict(self.discards_owed), self.unseen.copy()
        other.robber_due = self.robber_due
        other.steal_from = set(self.steal_from) if self.steal_from is not None else None
        other.steal_needed = self.steal_needed
        other.card_played, other.free_roads = self.card_played, self.free_roads
        other.special_built, other.turn_ended = list(self.special_built), list(self.turn_ended)
        other.longest_road, other.largest_army = self.longest_road, self.largest_army
        other.ended_at, other.after_end_reported = self.ended_at, self.after_end_reported
        other.rulebook_road, other.end_departs, other.ends_otherwise = (
            self.rulebook_road,
            self.end_departs,
            self.ends_otherwise,
        )
        other.without_map_reported = self.without_map_reported
        other.building_at, other.road_at = dict(self.building_at), dict(self.road_at)
        other.buyers = {players[p.name] for p in self.buyers}
        other.income = {
            number: {key: Income(i.tile, i.resource, players[i.owner.name], i.cards) for key, i in entries.items()}
            for number, entries in self.income.items()
        }
        other.line, other.road_book = self.line, self.road_book.copy() if self.road_book is not None else None
        other.header = self.header

    def public_key(self) -> tuple:
        """All of the state but the cards in hand and the bank's: two states alike in it
        differ only in what the hands hold (their readings can be one, the hands in doubt)."""
        players = tuple(
            (
                name,
                tuple(p.cards.values()),
                tuple(p.new_cards.values()),
                p.knights,
                p.revealed_points,
                p.unseen_cards,
                p.unseen_new,
                p.unseen_points,
                len(p.roads),
                p.road_length,
                p.building_points,
            )
            for name, p in sorted(self.players.items())
        )
        return (
            self.phase,
            self.count,
            self.current,
            self.rolled,
            self.turn,
            self.robber,
            self.robber_due,
            tuple(sorted(self.steal_from)) if self.steal_from else None,
            self.steal_needed,
            tuple(sorted(self.discards_owed.items())),
            tuple(self.setup_order),
            self.setup_road_due,
            self.card_played,
            self.free_roads,
            tuple(self.special_built),
            tuple(self.turn_ended),
            self.longest_road,
            self.largest_army,
            self.ended_at,
            self.after_end_reported,
            self.rulebook_road,
            self.end_departs,
            self.unseen.key(),
            tuple(self.deck.values()),
            frozenset(self.building_at.items()),
            frozenset(self.road_at.items()),
            players,
        )

    def departs(self, flag: str) -> bool:  # (whether the rules followed take the departure: sgn/game/rule_profiles.py)
        return flag in self.departures

    def the_map(self) -> Map:
        """The map, once defined (the replay checks nothing else before it)."""
        assert self.board is not None
        return self.board

    def player(self, name: str) -> Player:
        p = self.players.get(name)
        if p is None:
            p = self.players[name] = Player(name)
        return p

    def hand_range(self, name: str) -> Tuple[Dict[str, int], Dict[str, int]]:
        """The least and most of each resource a holder (a player, or "B", the bank) may
        hold: the same where its cards are known."""
        d = self.unseen.doubt
        if d is not None and name in d:
            return d.bounds(name)
        hand = self.bank if name == "B" else self.player(name).hand
        return hand, hand

    def road_length(self, name: str) -> int:
        """`name`'s longest road, as the rules followed count it (catanatron's, under its profile)."""
        book = self.road_book
        if book is not None and self.departs(LONGEST_ROAD_AS_CATANATRON):
            return book.lengths.get(name, 0)
        return self.players[name].road_length

    def may_hold(self, name: str, hand: Mapping[str, int]) -> bool:
        """Whether a holder (a player, or "B") may hold exactly `hand` (of each resource)."""
        d = self.unseen.doubt
        if d is not None and name in d:
            return d.may_hold(name, hand)
        held = self.bank if name == "B" else self.player(name).hand
        return all(held[r] == hand.get(r, 0) for r in held)

    def card_count(self, name: str) -> int:
        """How many resource cards a player holds (the least, where the count differs between
        the ways the cards may lie; `card_counts` gives both)."""
        return self.card_counts(name)[0]

    def card_counts(self, name: str) -> Tuple[int, int]:
        """The least and the most resource cards a player may hold in all (the same where the
        hand is known; a hand in doubt of 4 cards is 4, whatever its kinds)."""
        d = self.unseen.doubt
        if d is not None and name in d:
            return d.totals(name)
        n = sum(self.player(name).hand.values())
        return n, n

    def points(self, name: str) -> int:
        return self.points_of(self.player(name))

    def points_of(self, p: Player) -> int:
        """`points` of a player at hand (after every move: its name not looked up again)."""
        name = p.name
        cards = p.cards["VP"] + p.new_cards["VP"] + p.revealed_points
        return (
            p.building_points
            + cards * _POINTS_VP
            + (_POINTS_LONGEST if self.longest_road == name else 0)
            + (_POINTS_ARMY if self.largest_army == name else 0)
        )

    def points_range(self, name: str) -> Tuple[int, int]:
        """The least and most points a player may have: more than `points` where cards drawn
        unseen may be Victory Points, up to 10 where the game may have ended with them."""
        p = self.players[name]
        least = self.points(name)
        most = least + p.unseen_points if p.has_unseen_cards() and p.unseen_points > 0 else least
        if self.unseen.end is not None and self.unseen.end[1] == name:
            most = rules.POINTS_TO_WIN  # (if the game ended where it may have)
        if self.phase == OVER and name == self.current and least < rules.POINTS_TO_WIN <= most:
            least = rules.POINTS_TO_WIN  # (the winner, some of whose cards drawn unseen won)
        return least, most

    def next_player(self, name: str) -> str:
        count = self.count or len(self.players)
        if self._order_for != count:
            self._order_for, self._after = count, {str(n): str(n % count + 1) for n in range(1, count + 1)}
        return self._after.get(name) or str(int(name) % count + 1)

    def snapshot(self) -> dict:
        """The state as plain data (for `sgn replay`: `sgn/game/snapshot.py`)."""
        return snapshot(self)
