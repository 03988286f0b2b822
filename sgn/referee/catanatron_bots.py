"""catanatron's own players at the referee's table: `--bot ab=python:sgn.referee.catanatron_bots:AlphaBeta`
(docs/play.md). Each is a Python bot (`decide(view, request)`) that runs a catanatron player.

For each request, the seat's events are replayed into a catanatron game that holds what
the seat knows and, for what it does not (another's card bought, a card stolen between two
others), one possible world (`sgn/referee/catanatron_view.py`); only the new events since
the last request are replayed. The catanatron player chooses among its actions that the
request lists (the rules followed may allow fewer: a card bought this turn, a road through
another's building), and the choice is said as the listed move. What catanatron does not
choose, the bot chooses plainly: a discard at random (catanatron draws it at random too),
the steal from the victim its robber's move chose, no trade offered, every offer rejected.

A position catanatron cannot hold (a map not its base map, more than four players) or a
step that fails is never an exception out of `decide`: the bot makes a simple move (the
roll, the end of the turn, else the first listed) and counts it in `fallbacks`. `unlisted`
counts the decisions where none of catanatron's actions was listed. Needs catanatron
(3.2.1); AlphaBeta and ValueFunction need its search players too (`catanatron.players`
in catanatron's later sources, `catanatron_experimental` beside 3.2.1).
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .. import board, messages
from ..adapters.catanatron_board import RESOURCE
from ..game.move_forms import move_key, with_bank
from ..game.rule_profiles import STANDARD
from ..layers.hidden import HIDDEN
from .catanatron_view import ActionType, Mismatch, Replica, Unplayable, seeded

# Where each catanatron player is, in its later sources and beside 3.2.1 (the first found).
_SEARCH = "catanatron_experimental.machine_learning.players.minimax"
PLAYERS: Dict[str, Tuple[Tuple[str, str], ...]] = {
    "AlphaBeta": (("catanatron.players.minimax", "AlphaBetaPlayer"), (_SEARCH, "AlphaBetaPlayer")),
    "ValueFunction": (("catanatron.players.value", "ValueFunctionPlayer"), (_SEARCH, "ValueFunctionPlayer")),
    "WeightedRandom": (("catanatron.players.weighted_random", "WeightedRandomPlayer"),),
    "VictoryPoint": (("catanatron.players.search", "VictoryPointPlayer"),),
    "Random": (("catanatron.models.player", "RandomPlayer"),),
}


def player_class(name: str) -> Any:
    """catanatron's class of the player `name` (a key of PLAYERS); ImportError, saying what to
    install, when catanatron does not have it."""
    why = []
    for module, attribute in PLAYERS[name]:
        try:
            return getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as error:
            why.append(f"{module}.{attribute}: {type(error).__name__}: {error}")
    raise ImportError(
        f"catanatron's {name} player is not installed ({'; '.join(why)}): it ships with "
        "catanatron's search players (catanatron_experimental beside catanatron 3.2.1)"
    )


def simple(kind: str, moves: List[Any]) -> Any:
    """A plain legal move: the roll, the end of a turn, a rejection, else the first listed."""
    if kind == "roll":
        return next((m for m in moves if m[1] == "RD"), moves[0])
    if kind in ("turn", "special-build"):
        return next((m for m in moves if m[1] == "ET"), moves[0])
    if None in moves:
        return None
    return moves[0]


def action_key(replica: Replica, action: Any) -> Optional[tuple]:
    """What a catanatron action says as SGN (`move_key`), or None for one SGN has no form of."""
    seat, kind, value = replica.name[action.color], action.action_type, action.value
    if kind in (ActionType.BUILD_SETTLEMENT, ActionType.BUILD_CITY):
        return (seat, "BS" if kind == ActionType.BUILD_SETTLEMENT else "BC", replica.corner[value])
    if kind == ActionType.BUILD_ROAD:
        return (seat, "BR", board.edge(replica.corner[value[0]], replica.corner[value[1]]))
    if kind == ActionType.MOVE_ROBBER:
        return (seat, "MR", (value[0][0], value[0][2]))
    if kind in (ActionType.ROLL, ActionType.BUY_DEVELOPMENT_CARD):
        return (seat, "RD" if kind == ActionType.ROLL else "BD", HIDDEN)
    if kind == ActionType.END_TURN:
        return (seat, "ET", repr({}))
    if kind == ActionType.MARITIME_TRADE:
        given = [r for r in value[:4] if r is not None]
        return move_key(with_bank(seat, {RESOURCE[given[0]]: len(given)}, {RESOURCE[value[4]]: 1}))
    plays = {
        ActionType.PLAY_KNIGHT_CARD: "KN",
        ActionType.PLAY_ROAD_BUILDING: "RB",
        ActionType.PLAY_YEAR_OF_PLENTY: "YP",
        ActionType.PLAY_MONOPOLY: "MO",
    }
    if kind in plays:
        chosen = [] if value is None else [value] if isinstance(value, str) else list(value)
        return move_key(messages.play_card(seat, plays[kind], [RESOURCE[r] for r in chosen] or None))
    return None  # (a discard: catanatron draws it)


class Bridge:
    """A catanatron player as a bot of the referee (see the module); `player` names it in
    PLAYERS, `options` are given to its class."""

    player = "Random"
    author = "catanatron, bridged by sgn"

    def __init__(self, seed: int = 0, **options: Any):
        self.make = player_class(self.player)
        self.name = f"catanatron-{self.player}"
        self.seed, self.options = seed, options
        self.fallbacks = 0  # decisions made plainly: a position catanatron could not hold
        self.unlisted = 0  # decisions where no action of catanatron's was listed
        self.errors: List[str] = []  # why, for the first few fallbacks
        self.decisions = 0
        self._reset()

    def _reset(self) -> None:
        self.replica: Optional[Replica] = None
        self.unplayable = False
        self.rebuilt = False
        self.catanatron: Any = None  # the player, once its colour is known
        self.victim: Optional[str] = None  # whom the robber's move chose to rob

    def new_game(self, view: Any) -> None:
        self._reset()

    def decide(self, view: Any, request: Dict[str, Any]) -> Any:
        kind, moves = request["kind"], request["moves"]
        self.decisions += 1
        rng = random.Random(f"{self.seed}:{view.info.get('game')}:{view.seat}:{len(view.events)}:{kind}")
        if kind in ("trade-response", "trade-confirm"):
            return None if None in moves else moves[-1]
        if kind == "discard":
            if not moves:  # (too many ways to list: one drawn from the hand)
                from .bots import random_discard

                return random_discard(rng, request)
            return rng.choice(moves)
        if kind == "robber":
            self.victim = None
        try:
            if kind == "steal":
                return self._steal(view, moves)
            chosen = self._choose(view, kind, moves, rng)
        except Exception as error:  # (never out of decide: a plain move, counted)
            self.fallbacks += 1
            if len(self.errors) < 10:
                self.errors.append(f"{kind} at event {len(view.events)}: {type(error).__name__}: {error}")
            return simple(kind, moves)
        return chosen

    # -- the replica of the seat's game ---------------------------------------------------------
    def _replica(self, view: Any) -> Replica:
        events = view.events
        replica = self.replica
        if replica is None or replica.applied > len(events):
            if self.unplayable:
                raise Unplayable("catanatron cannot hold this game")
            try:
                replica = self.replica = Replica(
                    events[0][2], int(view.info["players"]), view.info.get("rules", STANDARD)
                )
            except Unplayable:
                self.unplayable = True
                raise
        try:
            replica.advance(events)
        except Exception:
            self.replica = None  # (replayed afresh next time)
            raise
        return replica

    def _position(self, view: Any, kind: str, rng: random.Random) -> Tuple[Replica, Any]:
        replica = self._replica(view)
        try:
            return replica, replica.position(view.seat, kind, rng)
        except Mismatch:
            if self.rebuilt:
                raise
            self.rebuilt, self.replica = True, None  # (once a game: replayed afresh)
            replica = self._replica(view)
            return replica, replica.position(view.seat, kind, rng)

    # -- choosing ---------------------------------------------------------------------------------
    def _choose(self, view: Any, kind: str, moves: List[Any], rng: random.Random) -> Any:
        replica, game = self._position(view, kind, rng)
        listed: Dict[tuple, int] = {}
        for i, move in enumerate(moves):
            listed.setdefault(move_key(move), i)
        ranked: List[Tuple[int, str, Any]] = []
        for action in game.state.playable_actions:
            found = _index(listed, action_key(replica, action))  # (None: a move catanatron has, the rules not)
            if found is not None:
                ranked.append((found, str(action.value), action))
        # (in the request's order, then by value, a victim's colour by name: catanatron's order
        # comes from sets, which differ from one process to the next)
        ranked.sort(key=lambda item: item[:2])
        if not ranked:
            self.unlisted += 1
            return simple(kind, moves)
        actions = [action for _, _, action in ranked]
        game.state.playable_actions = actions  # (what AlphaBeta reads; the others are given them)
        if self.catanatron is None:
            self.catanatron = self.make(replica.color[view.seat], **self.options)
        with seeded(f"{self.seed}:{view.info.get('game')}:{view.seat}:{len(view.events)}"):
            action = actions[0] if len(actions) == 1 else self.catanatron.decide(game, actions)
        found = _index(listed, action_key(replica, action))
        if found is None:
            self.unlisted += 1
            return simple(kind, moves)
        if kind == "robber":
            victim = action.value[1]
            self.victim = None if victim is None else replica.name[victim]
        return moves[found]

    def _steal(self, view: Any, moves: List[Any]) -> Any:
        """The victim the robber's move chose; else the one holding most cards (as far as the
        seat knows)."""
        victims = [_victim(m) for m in moves]
        if self.victim in victims:
            return moves[victims.index(self.victim)]
        self.unlisted += 1
        known = self.replica.known if self.replica is not None else None
        counts = [known.card_count(v) if known is not None and v in known.players else 0 for v in victims]
        return moves[counts.index(max(counts))]


def _index(listed: Dict[tuple, int], key: Optional[tuple]) -> Optional[int]:
    return None if key is None else listed.get(key)


def _victim(move: Sequence[Any]) -> str:
    return next(side["player"] for side in move[2] if side["player"] != move[0])


class AlphaBeta(Bridge):
    """catanatron's AlphaBetaPlayer (its default settings: depth 2, no pruning)."""

    player = "AlphaBeta"


class ValueFunction(Bridge):
    """catanatron's ValueFunctionPlayer: the action whose result its value function rates best."""

    player = "ValueFunction"


class WeightedRandom(Bridge):
    """catanatron's WeightedRandomPlayer: at random, cities, settlements and cards weighted up."""

    player = "WeightedRandom"


class VictoryPoint(Bridge):
    """catanatron's VictoryPointPlayer: the action that gains the most points now."""

    player = "VictoryPoint"


class Random(Bridge):
    """catanatron's RandomPlayer: one of its actions at random."""

    player = "Random"
