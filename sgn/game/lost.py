"""The readings of a fault that say a message the log lost came before it, each shown by
the fault it leaves (docs/rules.md, "After an error"): a roll, the turns between two
rolls, a setup placement, a robber move, a steal, a discard, a card bought; or a trade,
a build or a discard of unknown cards, which leaves a hand, or the bank, known within
bounds from then on (`SPREAD`). `sgn/game/readings.py` lists them beside the others.
"""

from __future__ import annotations

from typing import Any, List, Set, Tuple

from .. import board, messages, rules
from ..board import Tile
from ..diagnostic import Problem
from ..layers.semantic import is_discard
from . import ledger
from .core import SETUP, TURNS, Game, Message, Reading

PLAYERS = frozenset(str(n) for n in range(1, 7))


def roll_lost(g: Game, player: str, seven: bool) -> List[Problem]:
    """A roll by `player` that the log does not show (beginning their turn if it has not
    begun): a 7, or a roll of unknown result. What beginning the turn reports."""
    found = g.begin_turn(player) if player != g.current else []
    if seven:
        g.roll_quietly(player, rules.ROBBER_ROLL)
    else:
        g.lose_roll(player)
    return found


SPREAD = 4  # cards of each resource a lost message may have moved, either way (a hand adrift)
# Faults of a hand that holds other cards than the replay counts: a message that changed it
# may have been lost (a trade, a build, a discard, a steal).
HAND_CODES = frozenset({"cannot-afford", "not-held", "discard-wrong-amount", "discard-not-owed"})


def hands_shown_off(before: Game, message: Message, first: str) -> List[str]:
    """The players whose hands a fault of counts (its first error `first`) shows the replay
    counts wrong, the hands the message touches (the bank aside): a message that changed
    them may have been lost."""
    player, action, value = message
    if first not in HAND_CODES:
        return sorted(before.discards_owed) if first == "discard-missing" else []
    if action in ("TR", "ST"):
        return sorted({side["player"] for side in value if side["player"] != "B"})
    return [player] if player != "B" else []


def set_adrift(g: Game, names: List[str], first: str) -> None:
    """Those hands known within bounds from now on (`SPREAD`), and a discard they owe too
    (judged by what they may hold), unless the fault is that discard missing."""
    for name in names:
        g.lose_cards(name, SPREAD, SPREAD)
        if name in g.discards_owed:
            del g.discards_owed[name]
            if first != "discard-missing":
                g.unseen.discards_unsure.add(name)


def set_bank_adrift(g: Game) -> None:
    """The bank's count unknown from now on (a message the log lost moved its cards)."""
    stock = g.variant.bank
    ledger.involve(g, [ledger.BANK]).widen(ledger.BANK, stock, stock)
    ledger.settle(g)


def lost_readings(
    before: Game, message: Message, line: int, found: List[Problem], first: str, codes: Set[str], hint: Any = None
) -> List[Reading]:
    """A message the log lost, shown by the fault it leaves: the hand of a player it touched
    is known within bounds from then on (`SPREAD`); an owed discard lost (its cards unknown);
    a steal lost (one card of unknown kind changed hands); a robber move lost (to a tile
    where the steal that follows can be made); a card bought at a time the log lost. Each
    reports the fault as the log's reading does, and changes the state as the lost message
    would have."""
    player, action, value = message
    out: List[Reading] = []
    if first in HAND_CODES or (first == "discard-missing" and before.discards_owed):
        names = hands_shown_off(before, message, first)

        def adrift(g: Game) -> List[Problem]:
            set_adrift(g, names, first)
            g.apply(message, line)
            return found

        out.append(adrift)
    if "bank-empty" in codes:

        def bank_adrift(g: Game) -> List[Problem]:
            set_bank_adrift(g)
            g.apply(message, line)
            return found

        out.append(bank_adrift)
    if first == "discard-missing" and before.discards_owed:
        owed = dict(before.discards_owed)

        def discards_lost(g: Game) -> List[Problem]:
            for name, n in owed.items():  # (cards not seen: every way they can be)
                if not ledger.move_unseen(g, name, ledger.BANK, n):
                    g.lose_cards(name, n)
            g.discards_owed = {}
            g.apply(message, line)
            return found

        out.append(discards_lost)
    if first == "steal-missing" and before.steal_from and before.current is not None:
        thief = before.current
        for victim in sorted(before.steal_from):
            out.append(_steal_lost(message, line, found, thief, victim))
    if first == "steal-not-allowed" and action == "ST" and before.robber_due:
        victims = [side["player"] for side in value if side["player"] not in ("B", player)]
        tiles = sorted(
            {
                t
                for c, (owner, _) in before.building_at.items()
                if owner in victims
                for t in c
                if t != before.robber and before.the_map().kinds.get(t, board.SEA) != board.SEA
            }
        )
        for tile in tiles[:MAX_TILES]:
            out.append(_robber_lost(message, line, found, player, tile))
    if "setup-order" in codes and before.phase == SETUP:
        out += _setup_lost(before, message, line, found, board.tiles_named(hint))
    if "turn-order" in codes and action == "RD" and before.phase == TURNS:
        out.append(_turns_lost(message, line, found, player))
    if first == "discard-not-owed" and action == "TR" and is_discard(value) and before.phase == TURNS:
        roller = (
            before.next_player(before.current)
            if before.rolled and before.current is not None
            else before.current or player
        )

        def seven_lost(g: Game) -> List[Problem]:
            roll_lost(g, roller, True)
            g.apply(message, line)
            return found

        out.append(seven_lost)
    if first == "card-not-held" and action == "PD":
        card = value["cCode"]

        def card_bought(g: Game) -> List[Problem]:
            p = g.player(player)
            # (the cost, paid at a time the log lost, from the hand as far as it goes)
            ledger.transfer(g, player, ledger.BANK, rules.COSTS["development card"])
            if g.deck[card] > 0:
                g.deck[card] -= 1
            p.cards[card] += 1
            g.apply(message, line)
            return found

        out.append(card_bought)
    return out


MAX_TILES = 6  # the robber's tiles tried for a lost robber move


def _corner_json(c: board.Corner) -> list:
    return [list(t) for t in board.canonical_corner(c)]


def _on_land(g: Game, tiles) -> bool:
    kinds = g.the_map().kinds
    return any(kinds.get(t, board.SEA) != board.SEA for t in tiles)


def _setup_lost(before: Game, message: Message, line: int, found: List[Problem], hint: Set[Tile]) -> List[Reading]:
    """A setup placement the log lost: a settlement before a road that has none (at either
    end of the road where one may stand), or a road before the next settlement or the first
    roll (on any free edge of the settlement it was due for). Each end or edge is a reading
    of its own: what follows tells them apart; where it does not, the one that shares most
    tiles with a line refused just before (`hint`, the tiles it names) is preferred."""
    player, action, value = message
    out: List[Reading] = []

    def placed(lost: list) -> Reading:
        def read(g: Game) -> List[Problem]:
            g.apply(lost, line)
            g.apply(message, line)
            return found

        return read

    due = before.setup_road_due
    if action == "BR" and due is None:
        road = board.edge_from_json(value["path"])
        for c in sorted(road, key=lambda c: (-len(hint & set(c)), board.canonical_corner(c))):
            if _on_land(before, c) and before.can_settle(before.player(player), c, connected=False):
                out.append(placed(messages.build_settlement(player, _corner_json(c))))
    elif due is not None and action in ("BS", "RD", "PD"):
        owner, c = due
        for e in sorted(
            board.edges_of_corner(c), key=lambda e: (-len(hint & frozenset().union(*e)), board.canonical_edge(e))
        ):
            if e not in before.road_at and _on_land(before, board.edge_tiles(e)):
                ends = [_corner_json(end) for end in sorted(e, key=board.canonical_corner)]
                out.append(placed(messages.build_road(owner, ends)))
    return out


def _turns_lost(message: Message, line: int, found: List[Problem], player: str) -> Reading:
    """A roll out of turn: the turns of the players between were lost, each a roll of unknown
    result (and the current player's roll, if it had none)."""

    def read(g: Game) -> List[Problem]:
        name = g.current
        if name is None:  # the first turn's roll was lost
            name = "1"
            if name != player:
                roll_lost(g, name, False)
        elif not g.rolled:
            roll_lost(g, name, False)
        for _ in range(len(PLAYERS)):
            if name is None:
                break
            name = g.next_player(name)
            if name == player:
                break
            roll_lost(g, name, False)
        g.apply(message, line)
        return found

    return read


def _steal_lost(message: Message, line: int, found: List[Problem], thief: str, victim: str) -> Reading:
    def read(g: Game) -> List[Problem]:
        ledger.move_unseen(g, victim, thief, 1)  # (one card, of a kind not seen)
        g.steal_from, g.steal_needed = None, False
        g.apply(message, line)
        return found

    return read


def _robber_lost(message: Message, line: int, found: List[Problem], player: str, tile: Tuple[int, int]) -> Reading:
    def read(g: Game) -> List[Problem]:
        g.apply(messages.move_robber(player, tile), line)
        g.apply(message, line)
        return found

    return read
