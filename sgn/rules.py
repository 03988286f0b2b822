"""The rules of the base game (3-4 players), as data: costs, supplies, the deck, limits.

The replay (`sgn/game.py`) reads these tables; changing a number here changes
the game it checks.
"""
from __future__ import annotations

from typing import Dict, Mapping

RESOURCES = ("B", "G", "L", "O", "W")
RESOURCE_NAMES = {"B": "brick", "G": "grain", "L": "lumber", "O": "ore", "W": "wool"}

# What each build costs.
COSTS: Mapping[str, Mapping[str, int]] = {
    "road": {"B": 1, "L": 1},
    "settlement": {"B": 1, "L": 1, "W": 1, "G": 1},
    "city": {"O": 3, "G": 2},
    "development card": {"O": 1, "W": 1, "G": 1},
}
# The pieces each player has.
PIECES: Mapping[str, int] = {"road": 15, "settlement": 5, "city": 4}
# The bank's stock of each resource.
BANK_STOCK = 19
# The development deck.
DECK: Mapping[str, int] = {"KN": 14, "VP": 5, "RB": 2, "YP": 2, "MO": 2}
CARD_NAMES = {"KN": "Knight", "VP": "Victory Point", "RB": "Road Building", "YP": "Year of Plenty",
              "MO": "Monopoly"}
# Cards that can be played only once per turn and not on the turn they were bought.
PLAYED_ONCE_PER_TURN = frozenset({"KN", "RB", "YP", "MO"})

# Production: what a building yields from a tile whose number is rolled.
YIELD: Mapping[str, int] = {"settlement": 1, "city": 2}
# Victory points.
POINTS: Mapping[str, int] = {"settlement": 1, "city": 2, "VP": 1, "longest road": 2, "largest army": 2}
POINTS_TO_WIN = 10
LONGEST_ROAD_MIN = 5
LARGEST_ARMY_MIN = 3
ROAD_BUILDING_ROADS = 2
YEAR_OF_PLENTY_TAKES = 2

# A 7: players holding more than this discard half, rounded down.
DISCARD_ABOVE = 7
ROBBER_ROLL = 7

# Bank trade rates: what a player gives for one card of their choice.
RATE_DEFAULT = 4
RATE_GENERIC_HARBOR = 3
RATE_RESOURCE_HARBOR = 2

# Player counts of the base game.
PLAYER_COUNTS = (3, 4)


def show_hand(hand: Mapping[str, int], keys=RESOURCES) -> str:
    """A hand as `B0 L1 G2`: every resource in the cost or hand, in a fixed order."""
    return " ".join(f"{r}{hand.get(r, 0)}" for r in keys)


def show_cost(cost: Mapping[str, int]) -> str:
    return " ".join(f"{r}{n}" for r, n in cost.items())


def total(hand: Mapping[str, int]) -> int:
    count = 0
    for n in hand.values():        # a loop: the compiled replay runs it faster than sum()
        count += n
    return count


def lacks(hand: Mapping[str, int], cost: Mapping[str, int]) -> Dict[str, int]:
    """What a hand is short of to pay a cost (empty when it can pay)."""
    return {r: n - hand.get(r, 0) for r, n in cost.items() if hand.get(r, 0) < n}
