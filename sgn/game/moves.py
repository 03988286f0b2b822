"""Legal moves: every SGN message that `Game.apply` accepts without an error at a point of a
game, in a stable order, as python-chess's `board.legal_moves` lists a chess position's;
perft counts their sequences (`sgn/game/perft.py`, docs/moves.md).

The moves are worked out from the state, as the rules of each concern read it (`turns`,
`robber`, `building`, `cards`, `trades`, `setup`), never by trying messages on the game,
which is not changed. Where the log does not show every card (hands in doubt, cards drawn
unseen, a roll not seen yet: docs/hidden.md), what a player may do depends on the ways the
cards may lie: what the bounds of the hands decide is worked out from them, and the rest is
tried on a copy of the game (`Game.clone`, `_tried`): kept if some way allows it, as
`apply` judges it.

Chance moves are listed as their outcomes: the roll as its 11 totals, a card bought as each
kind the deck may give, a steal as each resource the victim may hold. An outcome the log
may hide (`?`) is one move more where the position is a partial view (`hidden_outcomes="auto"`).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Protocol, Sequence, Tuple, cast

from .. import board, messages, rules
from ..diagnostic import ERROR, Problem
from ..messages import HIDDEN
from ..rules import COSTS, PIECES, RESOURCES
from . import discard_moves, move_forms as forms, placing, turns, unseen_cards
from .ledger import BANK, could_give, could_give_all
from .move_forms import Sites, sites
from .pieces import Player, rates_of
from .rule_profiles import PLAY_WHEN_BOUGHT, SPECIAL_BUILD_ANY_ORDER
from .setup import expected_setup_player
from .state import AMOUNT_IN_DOUBT, OVER, SETUP, State

OUTCOME_CHOICES = ("auto", "always", "never")  # when the `?` outcomes of chance moves are listed


ROLLS = tuple(range(2, 13))
# The kinds of move, in the order each player's are listed (docs/moves.md, "The order").
ROLL, DISCARD, ROBBER, STEAL, SETTLEMENT, CITY, ROAD, BUY, PLAY, BANK_TRADE = range(10)

Item = Tuple[str, int, List[Any]]  # (player, kind, message)
# Where the hands are in doubt, the kinds of move tried on a copy of the game: a discard (its
# amount may depend on the way the cards lie), the robber (a discard may be owed), and a
# card played that the player holds in sight of no one (one drawn unseen may be it: `_to_try`).
# Every other kind is worked out exactly from the bounds: what one holder may pay is
# `ledger.could_give`, what two may give at once `ledger.could_give_all`; the deck's
# `unseen_cards.can_draw`.
_TRIED = frozenset({DISCARD, ROBBER})


class Position(Protocol):
    """What the generator asks of a game beyond its state (`sgn.game.core.Game`): a copy to
    try a move on."""

    def clone(self) -> "Position": ...

    def apply(self, message: Sequence[Any], line: int = 0) -> List[Problem]: ...


def legal_moves(
    g: State, players: Optional[int] = None, hidden_outcomes: str = "auto", discards: str = "each"
) -> List[List[Any]]:
    """Every message `apply` accepts here without an error, in the order of docs/moves.md.

    `players`: during the first round of the setup, where the log has not shown the number
    of players yet, the number to play (default: any the map's rules are written for).
    `hidden_outcomes`: "auto" lists the `?` outcome of a chance move where the position is a
    partial view (docs/hidden.md), "always" everywhere, "never" nowhere.
    `discards`: "each" lists a discard owed as every multiset of the hand, "compact" as one
    message where the hand is known (`discard_moves`)."""
    if hidden_outcomes not in OUTCOME_CHOICES:
        raise ValueError(f"hidden_outcomes is one of {', '.join(OUTCOME_CHOICES)}, not {hidden_outcomes!r}")
    if discards not in discard_moves.DISCARD_FORMS:
        raise ValueError(f"discards is one of {', '.join(discard_moves.DISCARD_FORMS)}, not {discards!r}")
    if players is not None and not 1 <= players <= 6:
        raise ValueError(f"players is a number of players, 1 to 6, not {players!r}")
    if g.board is None or g.without_map_reported or (g.phase == OVER and g.after_end_reported):
        return []
    if g.phase == SETUP:
        return _ordered(setup_moves(g, players))
    partial = is_partial(g)
    shown = hidden_outcomes == "always" or (hidden_outcomes == "auto" and partial)
    if g.phase == OVER:
        return _ordered(_accepted(g, _after_the_end(g, shown)))
    compact = discards == "compact"
    found = _told(g, shown, compact) if g.unseen.roll else _in_turns(g, shown, compact)
    if partial:
        found = _tried(g, found)
    return _ordered(found)


def is_partial(g: State) -> bool:
    """Whether the position is a partial view: hands in doubt, cards drawn unseen, a roll not
    told yet, a game that may have ended unseen (docs/hidden.md)."""
    return (
        g.unseen.doubt is not None
        or g.unseen.roll
        or g.unseen.end is not None
        or any(p.unseen_cards or p.unseen_new for p in g.players.values())
    )


def _number(name: str) -> Tuple[int, str]:
    return (len(name), name)


def _ordered(items: List[Item]) -> List[List[Any]]:
    """By player, then by kind; each kind's moves in the order they were found."""
    items.sort(key=lambda item: (_number(item[0]), item[1]))
    return [message for _, _, message in items]


def _to_try(g: State, item: Item) -> bool:
    """Whether a move found from the bounds of hands in doubt must be tried on a copy."""
    name, kind, message = item
    if kind in _TRIED:
        return True
    if kind != PLAY:
        return False
    p, card = g.players[name], message[2]["cCode"]
    fresh = (
        card == "VP" or (name != g.current and p in g.buyers) or g.departs(PLAY_WHEN_BOUGHT)
    )  # (a new card shown, the next turn's, or one an engine lets be played at once)
    return not (p.cards[card] > 0 or (fresh and p.new_cards[card] > 0))


def _tried(g: State, items: List[Item]) -> List[Item]:
    """The moves found from the bounds of hands in doubt that `apply` accepts: each tried on a
    copy where the bounds do not decide (all of them where the next message tells what came
    before: a roll not seen, a steal that may be owed, a game that may have ended). A card
    played is tried once for every choice (Year of Plenty's pair, Monopoly's resource): the
    card drawn unseen that it may be is the same for all, and each choice is listed only
    where the bounds allow it."""
    every = g.unseen.roll or g.unseen.end is not None or bool(g.steal_from and not g.steal_needed)
    verdicts: Dict[Tuple[str, str], bool] = {}
    kept = []
    for item in items:
        if not every and not _to_try(g, item):
            kept.append(item)
            continue
        card = (item[0], item[2][2]["cCode"]) if item[1] == PLAY and not every else None
        verdict = verdicts.get(card) if card is not None else None
        if verdict is None:
            verdict = bool(_accepted(g, [item]))
            if card is not None:
                verdicts[card] = verdict
        if verdict:
            kept.append(item)
    return kept


def _accepted(g: State, items: List[Item]) -> List[Item]:
    """The moves `apply` accepts without an error, each tried on a copy of the game."""
    game = cast(Position, g)
    kept = []
    for item in items:
        trial = game.clone()
        if not any(p.severity == ERROR for p in trial.apply(item[2], g.line + 1)):
            kept.append(item)
    return kept


# -- the setup ---------------------------------------------------------------------------------


def setup_moves(g: State, players: Optional[int]) -> List[Item]:
    geo = sites(g.the_map())
    due = g.setup_road_due
    if due is not None:
        owner, c = due
        edges = [e for e in board.edges_of_corner(c) if e in geo.edges and e not in g.road_at]
        return [
            (owner, ROAD, messages.build_road(owner, geo.edge(e))) for e in sorted(edges, key=geo.edge_rank.__getitem__)
        ]
    placers: List[str] = []
    new = expected_setup_player(g)
    if g.count is None and new is not None:  # the first round: it goes on, or ends with a second settlement
        placed = len(g.setup_order)
        last = str(placed)
        if int(new) <= min(6, players if players is not None else max(g.variant.player_counts)):
            placers.append(new)
        if last in g.setup_order and (placed == players if players is not None else placed in g.variant.player_counts):
            placers.append(last)
    elif new is not None:
        placers.append(new)
    items: List[Item] = []
    for name in placers:
        p = g.players.get(name) or Player(name)
        for c in geo.corner_listing:
            if placing.can_settle(g, p, c, False):
                items.append((name, SETTLEMENT, messages.build_settlement(name, geo.corner(c))))
    return items


# -- the turns ---------------------------------------------------------------------------------


def _in_turns(g: State, shown: bool, compact: bool = False) -> List[Item]:
    geo = sites(g.the_map())
    items: List[Item] = []
    current = g.current
    owed = dict(g.unseen.discards_late)
    owed.update(g.discards_owed)
    for name in sorted(set(owed) | g.unseen.discards_unsure, key=_number):
        amount = owed.get(name)
        items += discards(
            g, name, None if name in g.unseen.discards_unsure or amount == AMOUNT_IN_DOUBT else amount, compact
        )
    if g.robber_due:  # after a 7 or a Knight: the discards, then the robber; nothing else
        if not g.discards_owed:
            thief = current or "1"
            items += robber_moves(g, thief)
        return items
    if g.steal_from and current is not None:
        items += steals(g, current, shown)
        if g.steal_needed:
            return items
    if g.discards_owed or g.unseen.discards_unsure:
        return items
    following = turns.expected_next(g)
    if current is None or g.rolled:  # the next turn may begin: its roll, or a card before it
        items += _rolls(following, shown)
        items += plays(g, following, True)
    if current is None:
        return items
    p = g.players.get(current)
    if p is not None and not g.special_built:
        if not g.rolled:
            items += _rolls(current, shown)
        if g.rolled or g.free_roads > 0:
            items += builds(g, geo, p, shown, free=g.free_roads > 0, all_kinds=g.rolled)
        items += plays(g, current, False)
        if g.rolled:
            items += bank_trades(g, p)
    if g.variant.special_build and g.rolled:
        items += _special_builds(g, geo, current, shown)
    return items


def _told(g: State, shown: bool, compact: bool) -> List[Item]:
    """After a roll not seen, the next message tells whether it was a 7 (`turns.roll_told`):
    a discard or the robber's move, of a 7; anything else, of another number."""
    seven, other = State(), State()
    g.copy_into(seven)
    g.copy_into(other)
    turns.roll_told(seven, True)
    turns.roll_told(other, False)
    told = [item for item in _in_turns(seven, shown, compact) if item[1] in (DISCARD, ROBBER)]
    return told + [item for item in _in_turns(other, shown) if item[1] not in (DISCARD, ROBBER)]


def _after_the_end(g: State, shown: bool) -> List[Item]:
    """What may follow the winning message (docs/rules.md, "The end"): the winner showing
    Victory Point cards; the robber's move and steal of a winning Knight; the second free
    road of a winning Road Building. Each is tried on a copy of the game."""
    name = g.current
    p = g.players.get(name) if name is not None else None
    if name is None or p is None:
        return []
    items = [item for item in plays(g, name, False) if item[2][2]["cCode"] == "VP"]
    if g.robber_due == "knight":
        items += [(name, ROBBER, messages.move_robber(name, t)) for t in sites(g.the_map()).land]
    if g.steal_from:
        items += steals(g, name, shown)
    if g.free_roads > 0:
        items += [(name, ROAD, messages.build_road(name, e)) for e in _road_paths(g, sites(g.the_map()), p)]
    return items


def _rolls(name: str, shown: bool) -> List[Item]:
    results: List[Any] = list(ROLLS) + ([HIDDEN] if shown else [])
    return [(name, ROLL, messages.roll(name, n)) for n in results]


def discards(g: State, name: str, amount: Optional[int], compact: bool = False) -> List[Item]:
    return [(name, DISCARD, m) for m in discard_moves.listed(g, name, amount, compact)]


def robber_moves(g: State, thief: str) -> List[Item]:
    """The robber moved by `thief` to each land tile but its own."""
    return [(thief, ROBBER, messages.move_robber(thief, t)) for t in sites(g.the_map()).land if t != g.robber]


def steals(g: State, thief: str, shown: bool) -> List[Item]:
    items: List[Item] = []
    for victim in sorted(g.steal_from or (), key=_number):
        cards = [r for r in RESOURCES if could_give(g, victim, {r: 1})] + ([HIDDEN] if shown else [])
        items += [(thief, STEAL, messages.steal(thief, victim, r)) for r in cards]
    return items


def builds(g: State, geo: Sites, p: Player, shown: bool, free: bool = False, all_kinds: bool = True) -> List[Item]:
    """A player's settlements, cities and roads where they may stand, and the cards they may
    buy, with what they may pay (roads free where `free`; with `all_kinds` False, only those)."""
    name = p.name
    items: List[Item] = []
    if all_kinds and len(p.settlements) < PIECES["settlement"] and could_give(g, name, COSTS["settlement"]):
        ends = sorted((c for c in p.links if c in geo.corners), key=geo.corner_rank.__getitem__)
        for c in ends:
            if placing.can_settle(g, p, c, True):
                items.append((name, SETTLEMENT, messages.build_settlement(name, geo.corner(c))))
    if all_kinds and len(p.cities) < PIECES["city"] and could_give(g, name, COSTS["city"]):
        for c in sorted((c for c in p.settlements if c in geo.corners), key=geo.corner_rank.__getitem__):
            items.append((name, CITY, messages.build_city(name, geo.corner(c))))
    if len(p.roads) < PIECES["road"] and (free or could_give(g, name, COSTS["road"])):
        items += [(name, ROAD, messages.build_road(name, e)) for e in _road_paths(g, geo, p)]
    if all_kinds and could_give(g, name, COSTS["development card"]):
        kinds = [c for c in rules.DECK if unseen_cards.can_draw(g, c)]
        if shown and unseen_cards.can_draw(g, HIDDEN):
            kinds.append(HIDDEN)
        items += [(name, BUY, messages.buy_card(name, c)) for c in kinds]
    return items


def _road_paths(g: State, geo: Sites, p: Player) -> List[list]:
    """The paths of the edges where a road of `p` may go (touching their roads or buildings,
    not through another player's building), in the order of their listings."""
    ends = set(p.links) | p.settlements | p.cities
    edges = {e for c in ends for e in board.edges_of_corner(c) if e in geo.edges and e not in g.road_at}
    return [geo.edge(e) for e in sorted(edges, key=geo.edge_rank.__getitem__) if not placing.road_site(g, p, e, "")]


def plays(g: State, name: str, starts_turn: bool) -> List[Item]:
    """The development cards a player may play or show: bought before this turn (before the
    turn they start, when `starts_turn`), one a turn; Victory Points any time in their turn."""
    p = g.players.get(name)
    if p is None:
        return []
    # cards bought since their last turn become playable (at once, where the profile says so)
    fresh = (starts_turn and p in g.buyers) or (not starts_turn and g.departs(PLAY_WHEN_BOUGHT))
    items: List[Item] = []
    for card in rules.DECK:
        held = p.cards[card] + (p.new_cards[card] if fresh or card == "VP" else 0)
        unseen = p.unseen_cards + (p.unseen_new if fresh or card == "VP" else 0)
        if not (held or unseen) or (card != "VP" and g.card_played and not starts_turn):
            continue
        if card == "YP":
            for chosen in forms.year_of_plenty_choices():
                if could_give(g, BANK, board.tally(chosen)):
                    items.append((name, PLAY, messages.play_card(name, card, chosen)))
        elif card == "MO":
            items += [(name, PLAY, messages.play_card(name, card, (r,))) for r in RESOURCES]
        else:
            items.append((name, PLAY, messages.play_card(name, card)))
    return items


def bank_trades(g: State, p: Player) -> List[Item]:
    """One lot with the bank at each rate the player has (docs/moves.md): `rate` cards of one
    resource for one of another."""
    items: List[Item] = []
    if g.unseen.doubt is None:  # (every hand known: the counts alone, the referee's case)
        hand, bank = p.hand, g.bank
        for r in RESOURCES:
            for rate in rates_of(p, r):
                if hand[r] >= rate:
                    items += [
                        (p.name, BANK_TRADE, forms.with_bank(p.name, {r: rate}, {w: 1}))
                        for w in RESOURCES
                        if w != r and bank[w] >= 1
                    ]
        return items
    for r in RESOURCES:
        for rate in rates_of(p, r):
            if could_give(g, p.name, {r: rate}):
                for w in RESOURCES:
                    if w != r and could_give_all(g, [(p.name, {r: rate}), (BANK, {w: 1})]):
                        items.append((p.name, BANK_TRADE, forms.with_bank(p.name, {r: rate}, {w: 1})))
    return items


def _special_builds(g: State, geo: Sites, turn: str, shown: bool) -> List[Item]:
    """The Special Build Phase after `turn`'s roll (5-6 players): each other player, in turn
    order from the next, builds and buys with their own cards; each once, in order."""
    order = turns.special_order(g, turn)
    last = g.special_built[-1] if g.special_built else None
    items: List[Item] = []
    any_order = g.departs(SPECIAL_BUILD_ANY_ORDER)
    if any_order and g.special_built:
        order = order + [turn]  # (the player whose turn ended too, once the phase has begun)
    for name in order:
        if (
            not any_order
            and last is not None
            and name != last
            and (name in g.special_built or order.index(name) < order.index(last))
        ):
            continue
        p = g.players.get(name)
        if p is not None:
            items += builds(g, geo, p, shown)
    return items


__all__ = ["OUTCOME_CHOICES", "Position", "is_partial", "legal_moves"]
