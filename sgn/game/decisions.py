"""Decisions and chance: who must decide now, what kind of decision it is and its replies;
and the outcomes of a chance move with their exact odds (docs/api.md, "Playing a game").

A log records what happened; a game being played needs to know what is asked next. The
rules replay knows it (the setup's order, the discards a 7 owes, the robber, the steal, the
turn and the Special Build Phase), and `decisions` says it as python-chess's `board.turn`
and OpenSpiel's chance nodes do: the choices a seat has, with chance written as its hidden
value (`?`: a roll, a card bought, a card stolen) for `chances` to draw.

SGN v1.0 has no end of a turn (a turn ends when the next one begins); a game being played
does: the move `[seat, "ET", {}]`, a record line (sgn/layers/records.py), ends the seat's
part of the turn (its turn, or its place in the Special Build Phase), as the replay judges it
(`turns.end_turn`, which records it in `State.turn_ended`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from .. import messages
from ..messages import HIDDEN, Message
from ..rules import RESOURCES
from . import move_forms as forms, turns
from .move_forms import sites, ways
from .moves import ROAD as _ROAD_ITEM, bank_trades, builds, discards, is_partial, plays, robber_moves, setup_moves
from .state import OVER, SETUP, State

# The kinds of decision, in the order a game meets them (docs/api.md).
SETTLEMENT, ROAD, ROLL, DISCARD, ROBBER, STEAL, TURN, SPECIAL_BUILD = (
    "settlement",
    "road",
    "roll",
    "discard",
    "robber",
    "steal",
    "turn",
    "special-build",
)
KINDS = (SETTLEMENT, ROAD, ROLL, DISCARD, ROBBER, STEAL, TURN, SPECIAL_BUILD)


MAX_LISTED_DISCARDS = 1000  # a discard with more ways than this lists none: its `amount` says what is owed


class Decision(NamedTuple):
    """A choice `seat` must make now: its kind (`KINDS`) and every legal reply, chance moves
    written with `?` (the roll, a card bought, a card stolen: `chances` draws them). A
    discard says how many cards it gives (`amount`), and lists its ways only where there are
    at most MAX_LISTED_DISCARDS (a hand of 30 cards has thousands): any `amount` cards of
    the hand given to the bank is then the reply (`discard_move`)."""

    seat: str
    kind: str
    moves: List[Message]
    amount: int = 0


class Outcome(NamedTuple):
    """How a game ended: the winner (None when nobody won), each seat's points, the line of
    the winning move (None when the game did not end on one) and how: "won" here; a referee
    adds "forfeited", "abandoned" and "turn-limit"."""

    winner: Optional[str]
    points: Dict[str, int]
    line: Optional[int]
    how: str


def end_turn_move(seat: str) -> Message:
    return messages.end_turn(seat)


def decisions(g: State, players: Optional[int] = None) -> List[Decision]:
    """Who must decide now, and what: one `Decision`, or one for each seat that owes a
    discard after a 7 (they decide at once, none seeing another's); none before the map and
    after the end. `players`: the number of seats, which the setup's first round needs."""
    if g.board is None or g.phase == OVER:
        return []
    if g.phase == SETUP:
        return _grouped(setup_moves(g, players))
    if g.discards_owed:
        return [_discard(g, s, n) for s, n in sorted(g.discards_owed.items(), key=_seat)]
    current = g.current
    if g.robber_due:
        thief = current or "1"
        return [Decision(thief, ROBBER, _moves(robber_moves(g, thief)))]
    if g.steal_from and g.steal_needed and current is not None:
        return [Decision(current, STEAL, [messages.steal(current, v, HIDDEN) for v in sorted(g.steal_from, key=_seat)])]
    if current is None or (g.rolled and turns.has_ended(g, current)):
        for seat in turns.special_order(g, current) if current is not None and g.variant.special_build else ():
            if seat not in g.turn_ended:
                p = g.player(seat)
                return [
                    Decision(
                        seat,
                        SPECIAL_BUILD,
                        _chance_once(builds(g, sites(g.the_map()), p, False)) + [end_turn_move(seat)],
                    )
                ]
        following = turns.expected_next(g)
        return [Decision(following, ROLL, _moves(plays(g, following, True)) + [_roll(following)])]
    p = g.player(current)
    geo = sites(g.the_map())
    if g.free_roads > 0:
        roads = _moves(builds(g, geo, p, False, free=True, all_kinds=False))
        if roads:
            return [Decision(current, ROAD, roads)]
    if not g.rolled:
        return [Decision(current, ROLL, _moves(plays(g, current, False)) + [_roll(current)])]
    moves = _chance_once(builds(g, geo, p, False)) + _moves(plays(g, current, False)) + _moves(bank_trades(g, p))
    return [Decision(current, TURN, moves + [end_turn_move(current)])]


def _discard(g: State, seat: str, count: int) -> Decision:
    held = [g.player(seat).hand[r] for r in RESOURCES]
    if ways(held, count) > MAX_LISTED_DISCARDS:
        return Decision(seat, DISCARD, [], count)
    return Decision(seat, DISCARD, _moves(discards(g, seat, count)), count)


def discard_move(seat: str, given: Dict[str, int]) -> Message:
    """The discard of the cards `given` (resource code -> count), as a decision lists it."""
    return forms.with_bank(seat, given)


def push(game: Any, move: Sequence[Any]) -> List[Any]:
    """`Game.push`: the move checked (shape and meaning, then the rules), made, and its state
    before kept for `pop`; IllegalMove, the game unchanged, for a move refused."""
    from ..layers.stages import validate_message
    from .errors import IllegalMove, MessageError

    saved = game.clone()
    value = list(move) if isinstance(move, tuple) else move
    refused = [d for d in validate_message(value, level="semantic") if d.is_error]
    if refused:
        raise IllegalMove(move, refused)
    try:
        problems = game.apply(move, game.line + 1)
    except MessageError as error:
        saved.copy_into(game)
        raise IllegalMove(move, error.diagnostics, str(error)) from None
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        saved.copy_into(game)
        raise IllegalMove(move, errors)
    _undo(game, saved)
    return problems


def _undo(game: Any, saved: Any) -> None:
    """Keep the state before a push, for `Game.pop`."""
    if game.pushed is None:
        game.pushed = []
    game.pushed.append(saved)


def chances(g: State, move: Sequence[Any]) -> List[Tuple[Message, Fraction]]:
    """The outcomes of a move with their exact probabilities: a roll `?` as 2d6, a card
    bought `?` as the deck holds them, a card stolen `?` as the victim's hand holds them;
    any other move is itself, with probability 1. ValueError where the position does not
    know the odds (a partial view: the deck or the hand is in doubt)."""
    seat, action, value = move
    if action == "RD" and value.get("result") == HIDDEN:
        return [(messages.roll(seat, n), Fraction(6 - abs(7 - n), 36)) for n in range(2, 13)]
    if action == "BD" and value.get("cCode") == HIDDEN:
        _known(g)
        deck = {c: n for c, n in g.deck.items() if n > 0}
        return _spread([messages.buy_card(seat, c) for c in deck], list(deck.values()))
    if action == "ST" and any(HIDDEN in side["resources"] for side in value):
        _known(g)
        victim = next(side["player"] for side in value if side["player"] != seat)
        hand = {r: n for r in RESOURCES for n in [g.player(victim).hand[r]] if n > 0}
        return _spread([messages.steal(seat, victim, r) for r in hand], list(hand.values()))
    return [(list(move), Fraction(1))]


def is_chance(move: Sequence[Any]) -> bool:
    """Whether a move is a chance move written with `?` (its outcome is `chances`')."""
    _, action, value = move
    if action == "RD":
        return value.get("result") == HIDDEN
    if action == "BD":
        return value.get("cCode") == HIDDEN
    return action == "ST" and any(HIDDEN in side["resources"] for side in value)


def outcome(g: State) -> Optional[Outcome]:
    """The outcome of a game won, or None while it goes on."""
    if g.phase != OVER:
        return None
    return Outcome(g.current, {n: g.points(n) for n in sorted(g.players, key=_seat)}, g.ended_at, "won")


def _known(g: State) -> None:
    if is_partial(g):
        raise ValueError("the odds of a card drawn or stolen are unknown in a partial view (cards in doubt)")


def _spread(moves: List[Message], weights: List[int]) -> List[Tuple[Message, Fraction]]:
    total = sum(weights)
    if not total:
        raise ValueError("nothing to draw: the deck or the hand is empty")
    return [(m, Fraction(w, total)) for m, w in zip(moves, weights)]


def _roll(seat: str) -> Message:
    return messages.roll(seat, HIDDEN)


def _seat(item: Any) -> Tuple[int, str]:
    name = item[0] if isinstance(item, tuple) else item
    return (len(name), name)


def _moves(items: Sequence[Tuple[str, int, Message]]) -> List[Message]:
    return [m for m in (item[2] for item in items) if not (m[1] == "PD" and m[2]["cCode"] == "VP")]


def _chance_once(items: Sequence[Tuple[str, int, Message]]) -> List[Message]:
    """The moves with every card bought written once, as `?` (the deck draws it)."""
    moves = [m for m in _moves(items) if m[1] != "BD"]
    if any(item[2][1] == "BD" for item in items):
        moves.append(messages.buy_card(items[0][0], HIDDEN))
    return moves


def _grouped(items: Sequence[Tuple[str, int, Message]]) -> List[Decision]:
    """Setup moves as decisions: one per seat (the first round's end may be either of two)."""
    by_seat: Dict[str, List[Message]] = {}
    kind: Dict[str, str] = {}
    for seat, k, message in items:
        by_seat.setdefault(seat, []).append(message)
        kind[seat] = ROAD if k == _ROAD_ITEM else SETTLEMENT
    return [Decision(s, kind[s], by_seat[s]) for s in sorted(by_seat, key=_seat)]
