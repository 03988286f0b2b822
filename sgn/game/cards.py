"""Development cards: bought from the deck, held until the next turn, played once a turn."""

from __future__ import annotations

from typing import Final, List, Optional

from .. import board, rules
from ..diagnostic import Problem
from ..layers.hidden import HIDDEN
from ..rules import COSTS, PIECES
from ..words import count
from . import ledger, placing, unseen_cards
from .pieces import Player
from .rule_profiles import PLAY_WHEN_BOUGHT
from .state import State


def buy_card(g: State, p: Player, value) -> List[Problem]:
    card = value["cCode"]
    problems = ledger.pay(g, p, COSTS["development card"], "a development card")
    g.buyers.add(p)
    if card == HIDDEN:
        if unseen_cards.can_draw(g, card):
            unseen_cards.draw(g, p)
        else:
            problems.append(
                Problem(
                    "deck-empty", "/2/cCode", f"the deck is empty: its {sum(g.variant.deck.values())} cards are drawn"
                )
            )
        return problems
    if not unseen_cards.can_draw(g, card):
        problems.append(
            Problem(
                "deck-empty",
                "/2/cCode",
                f"no {rules.CARD_NAMES[card]} card is left in the deck (it holds {g.variant.deck[card]}"
                + (
                    f", and {count(unseen_cards.unseen_total(g), 'card')} drawn unseen cannot all be of other kinds)"
                    if g.deck[card] > 0
                    else ")"
                ),
            )
        )
    if g.deck[card] > 0:
        g.deck[card] -= 1
    p.new_cards[card] += 1
    return problems


def play(g: State, p: Player, value) -> List[Problem]:
    card = value["cCode"]
    if card == "VP":
        return reveal_point(g, p, value)
    problems = []
    taken = _take(g, p, card)
    if taken == "new" and not g.departs(PLAY_WHEN_BOUGHT):
        problems.append(
            Problem(
                "card-bought-this-turn",
                "/2/cCode",
                f"player {p.name} bought this {rules.CARD_NAMES[card]} card this turn",
            )
        )
    elif taken is None:
        problems.append(Problem("card-not-held", "/2/cCode", f"player {p.name} holds no {rules.CARD_NAMES[card]} card"))
    if card in rules.PLAYED_ONCE_PER_TURN:
        if g.card_played:
            problems.append(
                Problem("card-second-play", "/2/cCode", f"player {p.name} already played a development card this turn")
            )
        g.card_played = True
    if card != "RB":
        g.free_roads = 0
    return problems + EFFECTS[card](g, p, value)


def _take(g: State, p: Player, card: str) -> Optional[str]:
    """Take a card of `card`'s kind from `p`'s hand: "old" one bought before this turn (in
    sight, or one drawn unseen), "new" one bought this turn; None when none can be it.
    Where a card bought this turn may be played (`PLAY_WHEN_BOUGHT`), one in sight is taken
    before one drawn unseen: the unseen card then stays any kind it may be (had it been
    taken, the card in sight would stay, and it is one of the kinds the unseen may be)."""
    if p.cards[card] > 0:
        p.cards[card] -= 1
        return "old"
    if p.new_cards[card] > 0 and g.departs(PLAY_WHEN_BOUGHT):
        p.new_cards[card] -= 1
        return "new"
    if p.unseen_cards and unseen_cards.reveal(g, p, card, False):
        return "old"
    if p.new_cards[card] > 0:
        p.new_cards[card] -= 1
        return "new"
    if p.unseen_new and unseen_cards.reveal(g, p, card, True):
        return "new"
    return None


def knight(g: State, p: Player, value) -> List[Problem]:
    p.knights += 1
    placing.update_largest_army(g, p.name)
    g.robber_due = "knight"
    return []


def reveal_point(g: State, p: Player, value) -> List[Problem]:
    """`PD` of `VP` shows a Victory Point card: not a play (any number, any time in the
    player's turn, the turn it was bought too); it counted from the moment it was drawn,
    so the points do not change (docs/rules.md)."""
    if _take(g, p, "VP") is None and not unseen_cards.ended_unseen(g, p):
        return [
            Problem(
                "card-not-held",
                "/2/cCode",
                f"player {p.name} holds no Victory Point card that is not shown yet"
                + (f" ({count(p.revealed_points, 'card')} shown before)" if p.revealed_points else ""),
            )
        ]
    p.revealed_points += 1
    return []


def road_building(g: State, p: Player, value) -> List[Problem]:
    g.free_roads = min(rules.ROAD_BUILDING_ROADS, PIECES["road"] - len(p.roads))
    return []


def year_of_plenty(g: State, p: Player, value) -> List[Problem]:
    return ledger.take_from_bank(g, p, board.tally(value.get("rCodes", [])), "/2/rCodes")


def monopoly(g: State, p: Player, value) -> List[Problem]:
    for r in value.get("rCodes", [])[:1]:
        others = [name for name in g.players if name != p.name]
        doubted = [name for name in others if ledger.in_doubt(g, name)]
        for name in others:
            if name not in doubted:
                ledger.transfer(g, name, p.name, {r: g.players[name].hand[r]})
        if doubted:
            ledger.involve(g, [p.name] + doubted).monopoly(p.name, r, doubted)
            ledger.settle(g)
    return []


EFFECTS: Final = {"KN": knight, "RB": road_building, "YP": year_of_plenty, "MO": monopoly, "VP": reveal_point}
