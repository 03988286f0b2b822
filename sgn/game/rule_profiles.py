"""Rule profiles: the rulebook (`standard`), or an engine's rules, each a named set of
departures from it (docs/engines.md, "Rule profiles").

A departure changes a rule, it does not silence a diagnostic: the replay under a profile
follows the engine's rule, and its state is the engine's (a card played the turn it was
bought is played, the bank pays what the engine's bank pays). Each departure is a flag
the rules of its concern read (`departs(g, FLAG)`); the profiles are the table below,
built from the departures measured in docs/engines.md. A rule no departure of a profile
names is the rulebook's, and is checked as under `standard`.
"""

from __future__ import annotations

from typing import Dict, Final, FrozenSet, Mapping, Tuple

# The departures, each a rule of an engine that the replay may follow instead of the rulebook's.
PLAY_WHEN_BOUGHT: Final = "card-played-when-bought"
SHORT_BANK_PAYS_NOBODY: Final = "short-bank-pays-nobody"
UNLIMITED_BANK: Final = "unlimited-bank"
SPECIAL_BUILD_ANY_ORDER: Final = "special-build-any-order"
ROAD_THROUGH_BUILDING: Final = "road-through-building"
LONGEST_ROAD_AS_CATANATRON: Final = "longest-road-as-catanatron"
WIN_ANY_TURN: Final = "win-in-any-turn"

DEPARTURES: Mapping[str, str] = {
    PLAY_WHEN_BOUGHT: "a development card may be played on the turn it was bought",
    SHORT_BANK_PAYS_NOBODY: (
        "a resource the bank cannot pay every player owed it goes to nobody, a player owed it alone too"
    ),
    UNLIMITED_BANK: "the bank has no limit: every roll, trade and card is paid in full",
    SPECIAL_BUILD_ANY_ORDER: (
        "in the Special Building Phase players build in any order, the player whose turn ended too"
    ),
    ROAD_THROUGH_BUILDING: "a road may continue from a corner where another player has built",
    LONGEST_ROAD_AS_CATANATRON: "the longest road counted and awarded as catanatron does (sgn/game/catanatron_road.py)",
    WIN_ANY_TURN: (
        "a player wins the moment they have 10 points, in anyone's turn (the longest road taken from "
        "another by a third player's road)"
    ),
}

# The departures that may end a game where the rulebook does not, or not where it does
# (sgn/game/engine_end.py).
ENDS_OTHERWISE: Final = frozenset({LONGEST_ROAD_AS_CATANATRON, WIN_ANY_TURN})

STANDARD, CATANATRON, JSETTLERS = "standard", "catanatron", "jsettlers"
# Not a profile: the one a game's header names (docs/format.md, "Records"), else `standard`.
AUTO: Final = "auto"
PROFILES: Mapping[str, FrozenSet[str]] = {
    STANDARD: frozenset(),
    CATANATRON: frozenset(
        {PLAY_WHEN_BOUGHT, SHORT_BANK_PAYS_NOBODY, ROAD_THROUGH_BUILDING, LONGEST_ROAD_AS_CATANATRON, WIN_ANY_TURN}
    ),
    JSETTLERS: frozenset({UNLIMITED_BANK, SPECIAL_BUILD_ANY_ORDER}),
}
CHOICES: Tuple[str, ...] = (AUTO,) + tuple(PROFILES)  # what `rules` may be set to
DEFAULT = AUTO

# The engines whose games `sgn convert` writes, and the profile their games need.
FOR_ENGINE: Dict[str, str] = {"catanatron": CATANATRON, "jsettlers": JSETTLERS}

# An unlimited bank is counted from the rulebook's stock as any other, with this much more
# behind it, which no game reaches: the state shows the stock less what the players hold
# (below zero where the engine paid more than the rulebook's bank holds).
UNLIMITED_EXTRA: Final = 10**9


def departures(name: str) -> FrozenSet[str]:
    """The departures of the profile `name`; ValueError, listing the profiles, for another."""
    found = PROFILES.get(name) if name != AUTO else PROFILES[STANDARD]  # (`auto` with no header)
    if found is None:
        raise ValueError(f"unknown rules {name!r}; expected one of {', '.join(CHOICES)}")
    return found


def for_game(chosen: str, named: object = None) -> str:
    """The profile a game is replayed under: the one chosen, unless that is `auto`, then the
    one its header names (`named`) if it is one, else the rulebook's."""
    if chosen != AUTO:
        return chosen
    return named if isinstance(named, str) and named in PROFILES else STANDARD


def bank_stock(flags: FrozenSet[str], stock: int) -> int:
    """The cards of each resource a bank of the rulebook's `stock` starts with under the
    departures `flags` (without limit: UNLIMITED_EXTRA more)."""
    return stock + (UNLIMITED_EXTRA if UNLIMITED_BANK in flags else 0)
