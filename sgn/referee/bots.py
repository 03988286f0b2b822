"""The bots `sgn play` ships (`builtin:random`, `builtin:greedy`): Python classes speaking the
protocol in-process (`sgn/referee/seats.py`), as examples and as opponents.

Both choose among the moves the request lists; chance is the referee's (a `?` move is drawn
by it), so the random bot is uniform over its own choices only.
"""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional

from ..rules import COSTS, RESOURCES
from .protocol import Offer

PIPS = {n: 6 - abs(7 - n) for n in range(2, 13)}  # the ways 2d6 make each number


class RandomBot:
    """A legal move chosen uniformly; now and then a trade offered, and half of offers taken."""

    name, author = "random", "sgn"

    def __init__(self, seed: int = 0, offers: float = 0.05):
        self.rng = random.Random(seed)
        self.offer_rate = offers  # (how often it offers: `offers` alone would be the hello's word, docs/protocol.md)

    def new_game(self, view: Any) -> None:
        self.rng.seed(f"{self.rng.random()}:{view.info['game']}:{view.seat}")

    def decide(self, view: Any, request: Dict[str, Any]) -> Any:
        if request["kind"] == "discard" and not request["moves"]:  # (too many ways to list: any will do)
            return random_discard(self.rng, request)
        held = sorted(request["hand"])
        if request.get("offers_left") and held and self.rng.random() < self.offer_rate:
            give = self.rng.choice(held)
            get = self.rng.choice([r for r in RESOURCES if r != give])
            return Offer({give: 1}, {get: 1}, [])
        return self.rng.choice(request["moves"])


class GreedyBot:
    """Builds the best thing it can at once: a city, then a settlement, then a card, then a
    road; places on the corners that produce most; robs the tile that hurts others most."""

    name, author = "greedy", "sgn"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.pips: Dict[tuple, int] = {}  # tile -> how often it produces

    def new_game(self, view: Any) -> None:
        self.pips = {}

    def _learn(self, view: Any) -> None:
        if not self.pips and view.events:
            tiles = view.events[0][2]["tiles"]
            self.pips = {tuple(t["tile"]): PIPS.get(t.get("rNumber") or 0, 0) for t in tiles}

    def _corner(self, corner: List[list]) -> int:
        return sum(self.pips.get(tuple(t), 0) for t in corner)

    def decide(self, view: Any, request: Dict[str, Any]) -> Any:
        self._learn(view)
        moves: List[Any] = request["moves"]
        kind = request["kind"]
        if kind in ("trade-response", "trade-confirm"):
            return moves[0] if kind == "trade-confirm" or self.rng.random() < 0.3 else moves[-1]
        if kind == "discard":
            if not moves:
                return random_discard(self.rng, request)
            return max(moves, key=lambda m: _spread(m[2][0]["resources"]))
        if kind == "robber":
            mine = self._mine(view)
            return max(moves, key=lambda m: self.pips.get(tuple(m[2]["tile"]), 0) * (tuple(m[2]["tile"]) not in mine))
        best = self._build(moves, request["hand"])
        if best is not None:
            return best
        if kind == "roll":
            return next((m for m in moves if m[1] == "PD" and m[2]["cCode"] == "KN"), moves[-1])
        return self.rng.choice(moves) if kind in ("road", "steal") else moves[-1]

    def _build(self, moves: List[Any], hand: Dict[str, int]) -> Optional[Any]:
        for code in ("BC", "BS"):
            found = [m for m in moves if m[1] == code]
            if found:
                return max(found, key=lambda m: self._corner(m[2]["intersection"]))
        for m in moves:
            if m[1] == "PD" and m[2]["cCode"] in ("RB", "YP", "MO", "KN"):
                return m
        trade = self._trade(moves, hand)
        if trade is not None:
            return trade
        roads = [m for m in moves if m[1] == "BR"]
        if roads and hand.get("W", 0) + hand.get("G", 0) >= 1:  # (a settlement's other cards in sight)
            return self.rng.choice(roads)
        return next((m for m in moves if m[1] == "BD"), None)

    def _trade(self, moves: List[Any], hand: Dict[str, int]) -> Optional[Any]:
        """A lot with the bank that brings a card the next city or settlement lacks, given
        from a surplus it does not need."""
        goal = COSTS["city"] if any(m[1] == "BC" for m in moves) or hand.get("O", 0) >= 2 else COSTS["settlement"]
        lacking = {r for r, n in goal.items() if hand.get(r, 0) < n}
        for m in moves:
            if m[1] == "TR":
                mine = m[2][0]["resources"]
                got = [r for r, n in mine.items() if n > 0]
                given = [r for r, n in mine.items() if n < 0]
                if got and got[0] in lacking and all(hand.get(r, 0) + mine[r] >= goal.get(r, 0) for r in given):
                    return m
        return None

    def _mine(self, view: Any) -> set:
        """The tiles next to this seat's own buildings, as its events showed them."""
        return {
            tuple(t) for m in view.events if m[0] == view.seat and m[1] in ("BS", "BC") for t in m[2]["intersection"]
        }


def random_discard(rng: random.Random, request: Dict[str, Any]) -> Any:
    """A discard of the request's `count` cards, drawn from the hand (where its ways are too
    many to list)."""
    from ..game.decisions import discard_move

    hand = request["hand"]
    cards = rng.sample([r for r in sorted(hand) for _ in range(hand[r])], request["count"])
    return discard_move(request["seat"], {r: cards.count(r) for r in RESOURCES if r in cards})


def _spread(given: Dict[str, int]) -> int:
    """How evenly a discard takes from the hand: negatives are what it gives."""
    return -max(-n for n in given.values())


BUILTIN = {"random": RandomBot, "greedy": GreedyBot}
