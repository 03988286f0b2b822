"""The rules, as data: costs, supplies, the deck, limits, and the numbers that differ
between the base game (3-4 players) and the 5-6 player extension (`VARIANTS`).

The replay (`sgn/game/`), its legal moves and the semantic checks of one message
(`sgn/layers/semantic.py`) read these tables; changing a number here changes the game
they check (t/test_rules_table.py). The schema (`schema/v1.0`) is the format's, not
the rules': it allows one or two resources in `rCodes`, whatever the numbers here.
"""

from __future__ import annotations

from typing import Dict, Final, Mapping, Tuple

# (the numbers read in every move, the resources among them, are Final: the compiled replay
# reads them as constants, not from the module; the others are read at run time, so that
# changing one changes every check (t/test_rules_table.py))
RESOURCES: Final = ("B", "G", "L", "O", "W")
RESOURCE_NAMES = {"B": "brick", "G": "grain", "L": "lumber", "O": "ore", "W": "wool"}

# What each build costs.
COSTS: Final[Dict[str, Dict[str, int]]] = {
    "road": {"B": 1, "L": 1},
    "settlement": {"B": 1, "L": 1, "W": 1, "G": 1},
    "city": {"O": 3, "G": 2},
    "development card": {"O": 1, "W": 1, "G": 1},
}
# The pieces each player has.
PIECES: Final[Mapping[str, int]] = {"road": 15, "settlement": 5, "city": 4}
# The bank's stock of each resource.
BANK_STOCK: Final = 19
# The development deck.
DECK: Mapping[str, int] = {"KN": 14, "VP": 5, "RB": 2, "YP": 2, "MO": 2}
CARD_NAMES: Dict[str, str] = {
    "KN": "Knight",
    "VP": "Victory Point",
    "RB": "Road Building",
    "YP": "Year of Plenty",
    "MO": "Monopoly",
}
TILE_NAMES: Dict[str, str] = {
    "D": "desert",
    "F": "fields",
    "FO": "forest",
    "H": "hills",
    "M": "mountains",
    "P": "pasture",
    "S": "sea",
}
HARBOR_NAMES: Dict[str, str] = {
    "HR": "3:1 harbor",
    "HRB": "2:1 brick harbor",
    "HRG": "2:1 grain harbor",
    "HRL": "2:1 lumber harbor",
    "HRO": "2:1 ore harbor",
    "HRW": "2:1 wool harbor",
}
# Cards that can be played only once per turn and not on the turn they were bought.
PLAYED_ONCE_PER_TURN: Final = frozenset({"KN", "RB", "YP", "MO"})

# Production: what a building yields from a tile whose number is rolled.
YIELD: Mapping[str, int] = {"settlement": 1, "city": 2}
# Victory points.
POINTS: Mapping[str, int] = {"settlement": 1, "city": 2, "VP": 1, "longest road": 2, "largest army": 2}
POINTS_TO_WIN: Final = 10
LONGEST_ROAD_MIN: Final = 5
LARGEST_ARMY_MIN: Final = 3
ROAD_BUILDING_ROADS: Final = 2
YEAR_OF_PLENTY_TAKES = 2

# A 7: players holding more than this discard half, rounded down.
DISCARD_ABOVE: Final = 7
ROBBER_ROLL: Final = 7

# Bank trade rates: what a player gives for one card of their choice.
RATE_DEFAULT: Final = 4
RATE_GENERIC_HARBOR: Final = 3
RATE_RESOURCE_HARBOR: Final = 2

# Player counts of the base game.
PLAYER_COUNTS = (3, 4)


class Variant:
    """The numbers of one way to play that differ from another's: the game a replay follows
    is chosen by its map (`variant_for`), and named in its report."""

    def __init__(
        self,
        name: str,
        player_counts: Tuple[int, ...],
        land_tiles: int,
        bank: int,
        deck: Mapping[str, int],
        special_build: bool,
    ) -> None:
        self.name = name
        self.player_counts = player_counts  # for which the rules are written
        self.land_tiles = land_tiles  # of its board, deserts included
        self.bank = bank  # cards of each resource
        self.deck = deck  # development cards of each kind
        self.special_build = special_build  # whether other players may build after each turn


BASE_GAME = Variant("base game", PLAYER_COUNTS, 19, BANK_STOCK, DECK, False)
FIVE_SIX = Variant("5-6 player extension", (5, 6), 30, 24, {"KN": 20, "VP": 5, "RB": 3, "YP": 3, "MO": 3}, True)
VARIANTS = (BASE_GAME, FIVE_SIX)


def variant_for(land_tiles: int) -> Variant:
    """The variant whose board has that many land tiles (the base game's for any other
    count: the semantic layer says whether a map is a real board)."""
    for variant in VARIANTS:
        if variant.land_tiles == land_tiles:
            return variant
    return BASE_GAME


def show_hand(hand: Mapping[str, int], keys=RESOURCES) -> str:
    """A hand as `B0 L1 G2`: every resource in the cost or hand, in a fixed order."""
    return " ".join(f"{r}{hand.get(r, 0)}" for r in keys)


def show_cost(cost: Mapping[str, int]) -> str:
    return " ".join(f"{r}{n}" for r, n in cost.items())


def total(hand: Dict[str, int]) -> int:
    count = 0
    for n in hand.values():  # a loop: the compiled replay runs it faster than sum()
        count += n
    return count


def lacks(hand: Mapping[str, int], cost: Mapping[str, int]) -> Dict[str, int]:
    """What a hand is short of to pay a cost (empty when it can pay)."""
    return {r: n - hand.get(r, 0) for r, n in cost.items() if hand.get(r, 0) < n}
