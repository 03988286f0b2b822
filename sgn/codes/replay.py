"""The codes of the rules replay (`sgn/game/`): each message a legal move in the state the
earlier ones left.
Its rows are those of `sgn.codes`'s table (which says what a row holds), in its order.
"""

from __future__ import annotations

from typing import List, Tuple

ROWS: List[Tuple[str, str, str, str]] = [
    # rules: the replay of the whole game under the base game's rules.
    (
        "game-without-map",
        "rules",
        "error",
        "The rules replay needs a map: the log does not start with a valid DM (reported once; the rest is not replayed).",
    ),
    ("map-redefined", "rules", "error", "A second DM: the map is defined once, at the start of the game."),
    (
        "after-game-end",
        "rules",
        "error",
        "A message after the game ended (reported once; what follows is not checked).",
    ),
    (
        "robber-start-not-desert",
        "rules",
        "error",
        "The robber is placed before the setup on a tile other than a desert (the 5-6 player board has two).",
    ),
    (
        "setup-order",
        "rules",
        "error",
        "The setup is out of order: each player places one settlement then one road touching it, 1..n then n..1.",
    ),
    ("setup-road-not-at-settlement", "rules", "error", "A setup road does not touch the settlement just placed."),
    (
        "setup-incomplete",
        "rules",
        "error",
        "The turns begin before every player has placed two settlements and two roads.",
    ),
    (
        "player-count",
        "rules",
        "warning",
        "The setup shows a number of players the rules the map calls for are not written for: 3 or 4 on the base game's board, 5 or 6 on the 30 land tiles of the 5-6 player extension's.",
    ),
    (
        "message-repeated",
        "rules",
        "error",
        "A message the same as the one before, which the game does not allow again: a line sent twice (reported once; the copy changes nothing).",
    ),
    (
        "player-not-in-game",
        "rules",
        "error",
        "A message names a seat that does not play in this game: the setup showed who plays.",
    ),
    ("turn-order", "rules", "error", "A player rolls out of turn: turns go 1, 2, ..., n, 1, ..."),
    ("already-rolled", "rules", "error", "A player rolls twice in one turn."),
    (
        "roll-missing",
        "rules",
        "error",
        "A turn has no roll: it ends, or the player builds or trades, and no roll comes.",
    ),
    ("roll-first", "rules", "error", "A build or trade before the dice are rolled."),
    (
        "not-your-turn",
        "rules",
        "error",
        "A player acts during another player's turn (other than a discard, or as a trade partner).",
    ),
    (
        "special-build-order",
        "rules",
        "error",
        "5-6 players: a build in the Special Build Phase out of order (each other player builds in turn order, from the player after the one whose turn ended, and once).",
    ),
    (
        "special-build-trade",
        "rules",
        "error",
        "5-6 players: a trade in the Special Build Phase, where players may only build and buy development cards.",
    ),
    (
        "special-build-card",
        "rules",
        "error",
        "5-6 players: a development card played or shown in the Special Build Phase: cards are played only in one's own turn.",
    ),
    (
        "special-build-turn-player",
        "rules",
        "error",
        "5-6 players: the player whose turn just ended builds or buys in the Special Build Phase that follows it.",
    ),
    ("cannot-afford", "rules", "error", "A player builds or buys without the resources it costs."),
    ("not-held", "rules", "error", "A player gives, discards or loses cards they do not hold."),
    ("bank-empty", "rules", "error", "The bank does not hold the resources it is to give."),
    ("piece-limit", "rules", "error", "A player has no piece of that kind left (15 roads, 5 settlements, 4 cities)."),
    ("site-occupied", "rules", "error", "A settlement goes where a building already stands."),
    ("distance-rule", "rules", "error", "A settlement is next to another building."),
    (
        "settlement-not-connected",
        "rules",
        "error",
        "A settlement (after the setup) touches none of the player's roads.",
    ),
    ("road-occupied", "rules", "error", "A road goes where a road already is."),
    (
        "road-not-connected",
        "rules",
        "error",
        "A road touches none of the player's roads or buildings, or only through an opponent's building.",
    ),
    ("city-not-on-settlement", "rules", "error", "A city is built where the player has no settlement."),
    ("discard-missing", "rules", "error", "A player who held more than 7 cards at a 7 did not discard half."),
    ("discard-not-owed", "rules", "error", "A discard (a one-sided trade to the bank) when none is owed."),
    ("discard-wrong-amount", "rules", "error", "A discard of other than half the hand, rounded down."),
    ("robber-not-moved", "rules", "error", "The robber was not moved after a 7 or a Knight."),
    ("robber-not-allowed", "rules", "error", "The robber moves without a 7 or a Knight."),
    ("robber-same-tile", "rules", "error", "The robber stays on its tile; it must move."),
    ("steal-missing", "rules", "error", "No steal after the robber moved next to another player who holds cards."),
    (
        "steal-not-allowed",
        "rules",
        "error",
        "A steal where none is possible: not after a robber move, or no victim there.",
    ),
    (
        "steal-wrong-victim",
        "rules",
        "error",
        "A steal from a player with no building on the robber's tile or no cards.",
    ),
    (
        "deck-empty",
        "rules",
        "error",
        "A development card is bought of a kind the deck no longer holds (14 KN, 5 VP, 2 RB, 2 YP, 2 MO; with 5-6 players 20, 5, 3, 3, 3).",
    ),
    ("card-not-held", "rules", "error", "A development card is played that the player does not hold."),
    ("card-bought-this-turn", "rules", "error", "A development card is played on the turn it was bought."),
    (
        "card-second-play",
        "rules",
        "error",
        "A second development card (other than Victory Point) is played in one turn.",
    ),
    (
        "trade-rate",
        "rules",
        "error",
        "A bank trade at the wrong rate: 4:1, 3:1 with a generic harbor, 2:1 with the resource's harbor.",
    ),
    (
        "log-ends-unfinished",
        "rules",
        "warning",
        "The log ends while something is owed (the setup, a discard, the robber, a steal).",
    ),
    (
        "bound-reached",
        "rules",
        "warning",
        "The ways the hidden cards may lie grew past the bound the replay lists (4,096): from that line it keeps each hand's least and most, which never calls a legal move illegal but may miss a fault, so a log without an error is not decided (verdict undecided, exit 3), not valid.",
    ),
]
