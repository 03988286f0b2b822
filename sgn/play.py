"""Legal games by construction: a simple player that drives the rules replay.

`random_game(seed)` returns the messages of a whole legal game, from the map to
the winner's last move. Every choice is random among legal ones, with a bias
towards building, so that games end with a winner in a few hundred messages.
The replay (`sgn.game.Game`) is the referee: each message is applied to it as
it is made, and a message it refuses is a bug here.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Collection, Dict, Iterator, List, Mapping, Optional, Tuple

from . import board, messages, rules
from .board import Corner, Edge, Tile
from .game.core import OVER, Game, Player
from .game.pieces import best_rate
from .rules import COSTS, RESOURCES

# The harbor edges of the standard map (the SGN starter map), as (land tile, sea tile).
STANDARD_HARBOR_EDGES: Tuple[Tuple[Tile, Tile], ...] = (
    ((0, -2), (0, -3)),
    ((1, -2), (2, -3)),
    ((2, -1), (3, -2)),
    ((2, 0), (3, 0)),
    ((1, 1), (1, 2)),
    ((-1, 2), (-1, 3)),
    ((-2, 2), (-3, 3)),
    ((-2, 1), (-3, 1)),
    ((-1, -1), (-2, -1)),
)
# The harbor edges of the 5-6 player extension's board, likewise.
EXTENDED_HARBOR_EDGES: Tuple[Tuple[Tile, Tile], ...] = (
    ((-3, 0), (-4, 0)),
    ((-3, 1), (-4, 2)),
    ((-3, 3), (-4, 4)),
    ((-2, 3), (-2, 4)),
    ((0, 2), (0, 3)),
    ((1, 1), (2, 1)),
    ((2, -1), (3, -1)),
    ((2, -2), (3, -3)),
    ((1, -3), (2, -4)),
    ((0, -3), (0, -4)),
    ((-2, -1), (-2, -2)),
)
HARBOR_EDGES = {board.STANDARD.name: STANDARD_HARBOR_EDGES, board.EXTENDED.name: EXTENDED_HARBOR_EDGES}
MAX_TURNS = 1000
SPECIAL_BUILD_CHANCE = 0.5  # that a player with cards to build uses their slot in a Special Build Phase


def _corner_json(c: Corner) -> list:
    return [list(t) for t in board.canonical_corner(c)]


def _edge_json(e: Edge) -> list:
    return [[list(t) for t in end] for end in board.canonical_edge(e)]


def random_map(rng: random.Random, spec: board.BoardSpec = board.STANDARD) -> dict:
    """A board of that shape (the standard one, or the 5-6 player extension's): land kinds,
    number tokens and harbor kinds shuffled."""
    kinds = [k for k, n in spec.kinds.items() for _ in range(n)]
    numbers = list(spec.numbers)
    harbors = [h for h, n in spec.harbors.items() for _ in range(n)]
    for items in (kinds, numbers, harbors):
        rng.shuffle(items)
    land = sorted(spec.land, key=lambda t: (t[1], t[0]))
    tiles: List[Dict[str, Any]] = [
        {"tile": list(t), "tCode": "S", "rNumber": None}
        for t in sorted(board.ring(spec.land), key=lambda t: (t[1], t[0]))
    ]
    for t, kind in zip(land, kinds):
        tiles.append({"tile": list(t), "tCode": kind, "rNumber": None if kind == "D" else numbers.pop()})
    return {
        "tiles": tiles,
        "harbors": [
            {"path": _edge_json(board.edge_between(a, b)), "hCode": h}
            for (a, b), h in zip(HARBOR_EDGES[spec.name], harbors)
        ],
    }


class RandomPlayer:
    """Makes legal moves for whoever must act, applying each to its own replay."""

    def __init__(self, rng: random.Random, players: int, *, early_cards: float = 0.0):
        self.rng = rng
        self.count = players
        self.game = Game()
        self.messages: List[list] = []
        # the chance of playing a card on the turn it was bought, as some engines allow (each
        # such play breaks a rule once: its line is kept in `early_plays`)
        self.early_cards = early_cards
        self.early_plays: List[int] = []

    # -- making a move ---------------------------------------------------------------------------
    def emit(self, message: list) -> None:
        line = len(self.messages) + 1
        problems = self.game.apply(message, line)
        if problems and [p.code for p in problems] == ["card-bought-this-turn"] and self.early_cards:
            self.early_plays.append(line)
        elif problems:
            raise AssertionError(f"illegal move made by the random player: {message}: {problems}")
        self.messages.append(message)

    def _learn_map(self) -> None:
        """The corners and edges a piece may go on, worked out once per map."""
        assert self.game.board is not None  # the map was applied
        kinds = self.game.board.kinds
        land = {t for t, k in kinds.items() if k != board.SEA}
        self.land_corners = sorted(board.iter_corners(land), key=sorted)
        edges = {frozenset((c, n)) for c in self.land_corners for n in board.corner_neighbours(c)}
        self.land_edges = frozenset(
            e for e in edges if board.edge_tiles(e) & land and all(t in kinds for c in e for t in c)
        )

    def _settlement_sites(self, p: Player, connected: bool) -> List[Corner]:
        if connected:
            candidates = sorted({c for e in p.roads for c in e}, key=sorted)
        else:
            candidates = self.land_corners
        return [c for c in candidates if self.game.can_settle(p, c, connected)]

    def _road_sites(self, p: Player, setup_corner: Optional[Corner] = None) -> List[Edge]:
        candidates: Collection[Edge]
        if setup_corner is not None:
            candidates = board.edges_of_corner(setup_corner)
        else:
            ends = p.buildings | {c for e in p.roads for c in e}
            candidates = {e for c in ends for e in board.edges_of_corner(c)}
        legal = self.land_edges
        return sorted(
            (e for e in candidates if e in legal and not self.game.road_problems(p, e, setup_corner)),
            key=lambda e: sorted(map(sorted, e)),
        )

    # -- the phases ---------------------------------------------------------------------------------
    def play(self) -> List[list]:
        spec = board.EXTENDED if self.count in rules.FIVE_SIX.player_counts else board.STANDARD
        self.emit(messages.define_map(random_map(self.rng, spec)))
        self._learn_map()
        order = [str(i) for i in range(1, self.count + 1)]
        for name in order + order[::-1]:
            p = self.game.player(name)
            c = self.rng.choice(self._settlement_sites(p, connected=False))
            self.emit(messages.build_settlement(name, _corner_json(c)))
            e = self.rng.choice(self._road_sites(p, setup_corner=c))
            self.emit(messages.build_road(name, _edge_json(e)))
        current = "1"
        for _ in range(MAX_TURNS):
            self.turn(current)
            if self.game.phase == OVER:
                return self.messages
            current = self.game.next_player(current)
        raise RuntimeError("no winner within the turn limit")

    def turn(self, name: str) -> None:
        p = self.game.players[name]
        if self._playable(p, "KN") and self.rng.random() < 0.5:
            self.knight(p)
            if self.game.phase == OVER:
                return
        roll = self.rng.randint(1, 6) + self.rng.randint(1, 6)
        self.emit(messages.roll(name, roll))
        if self.game.phase == OVER:  # 10 points reached in a Special Build Phase: won on the roll
            return
        if roll == rules.ROBBER_ROLL:
            for victim, n in sorted(self.game.discards_owed.items()):
                self.discard(self.game.players[victim], n)
            self.robber(p)
        for _ in range(12):
            if self.game.phase == OVER or not self.act(p):
                break
        if self.game.phase != OVER and self.game.variant.special_build:
            self.special_build(name)

    def special_build(self, name: str) -> None:
        """The Special Build Phase after `name`'s turn (5-6 players): each other player, in
        turn order, may build and buy cards with what they hold; no trades, no cards played."""
        for other in self.game.special_order(name):
            q = self.game.players[other]
            if self.rng.random() < SPECIAL_BUILD_CHANCE:
                for _ in range(3):
                    if not self.build(q):
                        break

    def _playable(self, p: Player, card: str) -> bool:
        if self.game.card_played:
            return False
        return p.cards[card] > 0 or (
            self.early_cards > 0 and p.new_cards[card] > 0 and self.rng.random() < self.early_cards
        )

    def discard(self, p: Player, n: int) -> None:
        cards = [r for r in RESOURCES for _ in range(p.hand[r])]
        given = Counter(self.rng.sample(cards, n))
        self.emit(messages.discard(p.name, dict(sorted(given.items()))))

    def robber(self, p: Player) -> None:
        assert self.game.board is not None  # the map was applied
        land = [t for t, k in sorted(self.game.board.kinds.items()) if k != board.SEA and t != self.game.robber]
        self.emit(messages.move_robber(p.name, self.rng.choice(land)))
        if self.game.steal_from:
            victim = self.game.players[self.rng.choice(sorted(self.game.steal_from))]
            r = self.rng.choice([r for r in RESOURCES for _ in range(victim.hand[r])])
            self.emit(messages.steal(p.name, victim.name, r))

    def knight(self, p: Player) -> None:
        self.emit(messages.play_knight(p.name))
        if self.game.phase != OVER:  # the largest army may win the game at once
            self.robber(p)

    def _can_pay(self, p: Player, what: str) -> bool:
        return not rules.lacks(p.hand, COSTS[what])

    def act(self, p: Player) -> bool:
        """One useful move, or False when there is none (the turn ends)."""
        if self.build(p):
            return True
        for card in ("RB", "YP", "MO", "KN"):
            if self._playable(p, card) and self.rng.random() < 0.7:
                return self.play_card(p, card)
        return self.bank_trade(p)

    def build(self, p: Player) -> bool:
        """A build or a card bought, with the player's own cards; False when none is made."""
        name = p.name
        if self._can_pay(p, "city") and p.settlements and len(p.cities) < rules.PIECES["city"]:
            c = self.rng.choice(sorted(p.settlements, key=sorted))
            self.emit(messages.build_city(name, _corner_json(c)))
            return True
        sites: List[Corner] = []
        if self._can_pay(p, "road") and len(p.settlements) < rules.PIECES["settlement"]:
            sites = self._settlement_sites(p, connected=True)  # wanted also to decide on a road
        if sites and self._can_pay(p, "settlement"):
            self.emit(messages.build_settlement(name, _corner_json(self.rng.choice(sites))))
            return True
        if not sites and self._can_pay(p, "road") and len(p.roads) < rules.PIECES["road"]:
            roads = self._road_sites(p)
            if roads:
                self.emit(messages.build_road(name, _edge_json(self.rng.choice(roads))))
                return True
        if self._can_pay(p, "development card") and sum(self.game.deck.values()) > 0 and self.rng.random() < 0.6:
            card = self.rng.choice([c for c in sorted(self.game.deck) for _ in range(self.game.deck[c])])
            self.emit(messages.buy_card(name, card))
            return True
        return False

    def play_card(self, p: Player, card: str) -> bool:
        if card == "KN":
            self.knight(p)
        elif card == "YP":
            wanted = [r for r in RESOURCES if self.game.bank[r] >= 2]
            if not wanted:
                return False
            r = self.rng.choice(wanted)
            self.emit(messages.play_year_of_plenty(p.name, [r, r]))
        elif card == "MO":
            self.emit(messages.play_monopoly(p.name, self.rng.choice(RESOURCES)))
        else:
            self.emit(messages.play_road_building(p.name))
            for _ in range(self.game.free_roads):
                roads = self._road_sites(p) if self.game.phase != OVER else []
                if not roads:
                    break
                self.emit(messages.build_road(p.name, _edge_json(self.rng.choice(roads))))
        return True

    def _goal(self, p: Player) -> Mapping[str, int]:
        """The cost of what the player saves for: a city, else a settlement, else a card, else a road."""
        if p.settlements and len(p.cities) < rules.PIECES["city"]:
            return COSTS["city"]
        if len(p.settlements) < rules.PIECES["settlement"]:
            return COSTS["settlement"]
        if sum(self.game.deck.values()):
            return COSTS["development card"]
        return COSTS["road"]

    def bank_trade(self, p: Player) -> bool:
        """Trade a surplus at the best rate for something the goal needs."""
        goal = self._goal(p)
        needed = [r for r in rules.lacks(p.hand, goal) if self.game.bank[r] > 0]
        if not needed:
            return False
        for r in RESOURCES:
            rate = best_rate(p, r)
            if r not in needed and p.hand[r] - goal.get(r, 0) >= rate:
                w = self.rng.choice(needed)
                self.emit(messages.trade_with_bank(p.name, {r: -rate, w: 1}, {r: rate, w: -1}))
                return True
        return False


def random_game(seed: int, players: int = 4) -> List[list]:
    """The messages of a whole legal game with a winner, the same for the same seed."""
    return RandomPlayer(random.Random(seed), players).play()


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run: each game depends only on (seed, index), so a run
    gives the same games however it is split among processes."""
    return seed * 1_000_003 + index


def iter_games(count: int, players: int = 4, seed: int = 0) -> Iterator[List[list]]:
    for i in range(count):
        yield random_game(game_seed(seed, i), players)


def moved(game: List[list], dq: int, dr: int) -> List[list]:
    """The same game on a board moved by (dq, dr): every tile `[q, r]` of every message
    shifted (SGN holds no other pair of integers). A legal game stays legal; each distance
    gives the log a board position of its own."""

    def move(value: Any) -> Any:
        if isinstance(value, list):
            if len(value) == 2 and all(type(n) is int for n in value):
                return [value[0] + dq, value[1] + dr]
            return [move(item) for item in value]
        if isinstance(value, dict):
            return {key: move(item) for key, item in value.items()}
        return value

    return [[player, code, move(value)] for player, code, value in game]
