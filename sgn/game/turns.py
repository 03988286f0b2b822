"""Turns and their phases: whose turn it is, the roll that begins it, and the Special
Build Phase of the 5-6 player extension that follows it (docs/rules.md)."""

from __future__ import annotations

from typing import Final, List, Optional, Union

from .. import rules
from ..diagnostic import Problem
from ..layers.hidden import HIDDEN
from ..layers.semantic import is_discard
from . import building, cards, ledger, robber, trades
from .pieces import tile_from_json
from .rule_profiles import SPECIAL_BUILD_ANY_ORDER
from .state import OVER, SETUP, State

# What another player may do in the Special Build Phase (5-6 players).
_SPECIAL_BUILDS: Final = frozenset({"BS", "BC", "BR", "BD"})


def turn(g: State, player: str, action: str, value) -> List[Problem]:
    if g.unseen.roll:
        roll_told(g, action == "MR" or (action == "TR" and is_discard(value)))
    if g.free_roads and action != "BR" and action != "ET":
        g.free_roads = 0  # Road Building's roads come at once: anything else ends them
    if action == "RD":
        return roll(g, player, value["result"])
    if action == "ET":
        return end_turn(g, player)
    if g.turn_ended and player in g.turn_ended:
        judged = after_end(g, player, action)
        if judged is not False:  # out of its phase (a Problem), or as the profile allows (None)
            ended = judged if isinstance(judged, Problem) and g.turn_ended.count(player) == 1 else None
            # (it moved after its end already: one fault, said at its first move)
            while player in g.turn_ended:
                g.turn_ended.remove(player)
            found = turn(g, player, action, value)
            if g.current is not None and player not in g.turn_ended:
                g.turn_ended += [player, player]  # (its part ended, and it moved since: an ET may end it again)
            return [ended] + found if ended is not None else found
    discard = action == "TR" and is_discard(value)
    if discard and (g.discards_owed or g.unseen.discards_late or g.unseen.discards_unsure):
        return robber.discard(g, player, value)
    if action == "MR":
        return robber.move_robber(g, player, tile_from_json(value["tile"]))
    if action == "ST":
        return robber.steal(g, player, value)
    if discard and g.robber_due == "seven" and not g.steal_from:
        # a discard nobody owes, between a 7 and its robber: the robber is still to move
        return trades.trade(g, player, value, discard)
    problems = robber.owed(g) if (g.discards_owed or g.unseen.discards_unsure or g.robber_due or g.steal_from) else []
    if action == "PD" and player != g.current and player == expected_next(g):
        problems += pass_turn(g, player)  # a card played before the roll starts the turn
    if g.current is None:
        g.current = "1"
    if g.variant.special_build and g.rolled and (g.special_built or player != g.current):
        special = special_build(g, player, action, value, discard)
        if special is not None:
            return problems + special
    if action == "TR":
        return problems + trades.trade(g, player, value, discard)
    if player != g.current:
        problems.append(Problem("not-your-turn", "/0", f"player {player} acts during player {g.current}'s turn"))
    p = g.player(player)
    if action == "PD":
        return problems + cards.play(g, p, value)
    if not g.rolled and not (action == "BR" and g.free_roads > 0):
        problems.append(
            Problem(
                "roll-first",
                "/1",
                f"{action} before the dice are rolled",
                "a turn starts with RD; only a development card (and the roads of Road Building) may come before it",
            )
        )
    if action != "BR":
        g.free_roads = 0
    return problems + BUILDS[action](g, p, value)


def special_build(g: State, player: str, action: str, value, discard: bool) -> Optional[List[Problem]]:
    """The Special Build Phase of the 5-6 player extension (docs/rules.md): after the
    turn's player rolled, each other player, in turn order from the next one, may build
    and buy cards with their own cards; the phase begins with the first such build and
    ends with the next turn. None when the message is no part of it (the caller goes on)."""
    turn = g.current
    assert turn is not None
    if action in _SPECIAL_BUILDS and player != turn:
        order = special_order(g, turn)
        if player not in order:
            return None  # not a player of this game: not-your-turn says so
        problems = []
        last = g.special_built[-1] if g.special_built else None
        if (
            not g.departs(SPECIAL_BUILD_ANY_ORDER)
            and last is not None
            and player != last
            and (player in g.special_built or order.index(player) < order.index(last))
        ):
            problems.append(
                Problem(
                    "special-build-order",
                    "/0",
                    f"player {player} builds in the Special Build Phase after player {last} did; "
                    f"after player {turn}'s turn they build in the order "
                    f"{', '.join(order)}, each once",
                )
            )
        if player != last:
            g.special_built.append(player)
        g.free_roads = 0
        return problems + BUILDS[action](g, g.player(player), value)
    if not g.special_built or discard:
        return None
    # The phase has begun. A fault here is one of timing: the log's reading (the move
    # stands) first, with its SBP code alone; `sgn/game/recovery.py` may choose the server's.
    if action == "TR":
        problem = Problem(
            "special-build-trade",
            "/1",
            f"player {player} trades in the Special Build Phase after player {turn}'s turn: "
            "players build and buy there, they do not trade",
        )
        trades.trade(g, player, value, discard)
    elif action == "PD":
        problem = Problem(
            "special-build-card",
            "/1",
            f"player {player} plays a {rules.CARD_NAMES.get(value['cCode'], value['cCode'])} in the "
            f"Special Build Phase after player {turn}'s turn: development cards are played only "
            "in one's own turn",
        )
        cards.play(g, g.player(player), value)
    elif action in _SPECIAL_BUILDS and player == turn and g.departs(SPECIAL_BUILD_ANY_ORDER):
        g.special_built.append(player)  # (JSettlers: the player whose turn ended asks to build in the phase)
        return BUILDS[action](g, g.player(player), value)
    elif action in _SPECIAL_BUILDS and player == turn:
        problem = Problem(
            "special-build-turn-player",
            "/0",
            f"player {turn} builds after player {g.special_built[0]} began the Special Build "
            f"Phase: player {turn}'s turn is over",
        )
        g.special_built = []  # read as the turn going on: the next build by another begins the phase afresh
        return [problem] + BUILDS[action](g, g.player(player), value)
    else:
        return None
    if player == turn:
        g.special_built = []
    return [problem]


def end_turn(g: State, player: str) -> List[Problem]:
    """`[seat, "ET", {}]` (sgn/layers/records.py): the seat ends its part of the turn, its
    own after the roll with nothing owed, or its place in the Special Build Phase, in order.
    A misplaced one is read as the log has it: the part is over (one fault, one error)."""
    turn = g.current
    if turn is not None and g.turn_ended.count(player) > 1:
        g.turn_ended.remove(player)  # (it moved after its end, which said so: this ends its part again)
        return []
    order = special_order(g, turn) if turn is not None and g.variant.special_build else []
    early = turn is not None and player != turn and player == expected_next(g) and turn in g.turn_ended
    if turn is None or player in g.turn_ended or (early and player not in order):
        said = "no turn has begun" if turn is None else f"player {player} has ended it already"
        if early:  # (the next player, before its roll: the end of its coming turn, told early)
            said = f"its turn has not begun (player {turn}'s is over): a turn starts with RD"
            g.turn_ended.append(EARLY + player)
        return [Problem("end-turn-misplaced", "/0", f"player {player} ends a turn, but {said}")]
    if player != turn and player not in order:
        return [Problem("end-turn-misplaced", "/0", f"player {player} ends a turn during player {turn}'s turn")]
    g.turn_ended.append(player)
    if player == turn:  # (a Road Building's roads stay due: one after the end is out of its phase alone)
        if not g.rolled:
            return [
                Problem(
                    "end-turn-misplaced", "/0", f"player {player} ends the turn before rolling", "a turn starts with RD"
                )
            ]
        if (g.discards_owed or g.unseen.discards_unsure or g.robber_due or g.steal_from) and _still_owed(g):
            return [Problem("end-turn-misplaced", "/0", f"player {player} ends the turn while {_owed(g)} is owed")]
        return []
    if not has_ended(g, turn):
        return [Problem("end-turn-misplaced", "/0", f"player {player} ends a turn during player {turn}'s turn")]
    later = [seat for seat in order[order.index(player) + 1 :] if seat in g.turn_ended]
    # (a seat that sends no ET passes: its place is over; one that built out of order was told so)
    if later and player not in g.special_built and not g.departs(SPECIAL_BUILD_ANY_ORDER):
        return [
            Problem(
                "end-turn-misplaced",
                "/0",
                f"player {player} ends their place in the Special Build Phase after player {later[0]} ended theirs: "
                f"after player {turn}'s turn they build in the order {', '.join(order)}, each once",
            )
        ]
    return []


# In `State.turn_ended`, a seat's end told before its turn began (before its roll): its turn
# is over for the Special Build Phase's places, but its own moves are not out of their phase.
EARLY: Final = "~"


def has_ended(g: State, seat: str) -> bool:
    """Whether the seat's part of the turn is over (its ET, or one told before its roll)."""
    return seat in g.turn_ended or EARLY + seat in g.turn_ended


def due_to_end(g: State) -> Optional[str]:
    """The seat whose part of the turn is the next to end: the player's, else the next
    place of the Special Building Phase not ended (None when every one is)."""
    turn = g.current
    if turn is None or not has_ended(g, turn):
        return turn
    order = special_order(g, turn) if g.variant.special_build else []
    return next((seat for seat in order if seat not in g.turn_ended), None)


def _still_owed(g: State) -> bool:
    """Whether the discards, robber or steal after a 7 are owed for certain (a steal from
    victims who may hold no card is not), as the next turn would judge them: on a copy,
    since what is owed stays owed (it may come after the end)."""
    trial = type(g)(g.rules)
    g.copy_into(trial)
    return bool(robber.owed(trial))


def _owed(g: State) -> str:
    if g.discards_owed or g.unseen.discards_unsure:
        return "a discard"
    return "a steal" if g.steal_from and not g.robber_due else "the robber's move"


def after_end(g: State, player: str, action: str) -> Union[Problem, None, bool]:
    """A move by a seat that ended its part of the turn (ET): none in its turn or its place
    in the Special Build Phase but the next turn's (a roll, a card before it) and what is
    still owed (the ET was early): False for those; the player whose turn it was builds in
    the phase where the profile allows it (JSettlers): None; else the fault."""
    turn = g.current
    if action == "RD" or (action == "PD" and player != turn):
        return False  # the next turn begins
    if g.discards_owed or g.unseen.discards_unsure or g.robber_due or g.steal_from:
        return False
    if player == turn and g.variant.special_build and action in _SPECIAL_BUILDS:
        if g.departs(SPECIAL_BUILD_ANY_ORDER) or g.special_built:
            return None  # (allowed; or once others built in the phase, special-build-turn-player says it)
    where = "turn" if player == turn else "place in the Special Build Phase"
    return Problem(
        "after-turn-end",
        "/1",
        f"player {player} makes a {action} after ending their {where} (ET)",
        "nothing a seat does between its ET and the next turn is part of its turn",
    )


def special_order(g: State, turn: str) -> List[str]:
    """The players after `turn`, in turn order: who may build in its Special Build Phase."""
    order = [g.next_player(turn)]
    while order[-1] != turn and len(order) <= len(g.players):
        order.append(g.next_player(order[-1]))
    return order[:-1]


def expected_next(g: State) -> str:
    return "1" if g.current is None else g.next_player(g.current)


def pass_turn(g: State, player: str) -> List[Problem]:
    """`player` starts their turn (with the roll, or a card before it): the turn before ends."""
    problems = []
    expected = expected_next(g)
    if player != expected:
        problems.append(
            Problem(
                "turn-order",
                "/0",
                f"player {player} takes the turn, but "
                + (f"after player {g.current} comes player {expected}" if g.current else "player 1 begins"),
            )
        )
    if g.current is not None and not g.rolled:
        problems.append(Problem("roll-missing", "/0", f"player {g.current}'s turn ended without a roll"))
    if g.discards_owed or g.unseen.discards_unsure or g.robber_due or g.steal_from:
        problems = robber.owed(g) + problems
    g.turn += 1
    g.card_played = False
    if g.unseen.discards_late:
        g.unseen.discards_late = {}
    for p in g.buyers:
        for card, n in p.new_cards.items():
            p.cards[card] += n
        p.new_cards = dict.fromkeys(rules.DECK, 0)
        p.unseen_cards, p.unseen_new = p.unseen_cards + p.unseen_new, 0
    g.buyers.clear()
    g.current, g.rolled, g.free_roads = player, False, 0
    if g.special_built:
        g.special_built = []
    if g.turn_ended:  # (an end told before the roll ends the turn it is of: one fault, one error)
        g.turn_ended = [EARLY + player] if EARLY + player in g.turn_ended else []
    return problems


def roll(g: State, player: str, result: Union[int, str]) -> List[Problem]:
    """A roll: its total, or `?`, one not seen (`roll_told`)."""
    if player == g.current and g.rolled:
        problems = [Problem("already-rolled", "/0", f"player {player} rolls twice in one turn")]
    elif player == g.current:
        problems = []
    else:
        problems = pass_turn(g, player)
    if g.discards_owed or g.unseen.discards_unsure or g.robber_due or g.steal_from:
        problems = robber.owed(g) + problems
    g.rolled, g.free_roads = True, 0
    if g.unseen.discards_late:
        g.unseen.discards_late = {}
    if result == HIDDEN or not isinstance(result, int):
        g.unseen.roll = True  # a 7 or not: the next message tells (`roll_told`)
    elif result == rules.ROBBER_ROLL:
        seven(g)
    elif isinstance(result, int):
        ledger.produce(g, result)
    return problems


def roll_told(g: State, seven_follows: bool) -> None:
    """A roll not seen, told by the message after it: a 7 when the robber moves or a discard
    comes next, which only a 7 allows; else any other number (`ledger.lose_roll`). Either
    reading is the only one the next message leaves legal, so it is taken at once."""
    g.unseen.roll = False
    if seven_follows:
        seven(g)
    else:
        ledger.lose_roll(g, g.current or "1")


def seven(g: State) -> None:
    """A 7: who must discard (half of a hand over 7 cards; where a hand is in doubt and its
    count differs between worlds, the player may owe, `discards_unsure`), then the robber."""
    g.discards_owed = {}
    if g.unseen.doubt is None:  # (every hand known: its count alone)
        for n, p in g.players.items():
            owed = owes(rules.total(p.hand))
            if owed:
                g.discards_owed[n] = owed
        g.robber_due = "seven"
        return
    for n in g.players:
        least, most = ledger.total_range(g, n)
        if owes(least) == owes(most):  # (the same in every world: 8 or 9 cards owe 4)
            if owes(least):
                g.discards_owed[n] = owes(least)
        else:
            g.unseen.discards_unsure.add(n)
    g.robber_due = "seven"


def owes(cards: int) -> int:
    """The discard a hand of `cards` cards owes after a 7: half, rounded down, above 7."""
    return cards // 2 if cards > rules.DISCARD_ABOVE else 0


BUILDS: Final = {
    "BS": building.build_settlement,
    "BC": building.build_city,
    "BR": building.build_road,
    "BD": cards.buy_card,
}


def unfinished(g: State) -> List[Problem]:
    """What the end of the log leaves unfinished (warnings only; nothing once the game is over)."""
    if g.unseen.roll:
        roll_told(g, False)
    if g.phase == OVER or g.board is None or g.unseen.end is not None:
        return []  # (the game may have ended where the unseen cards say: then nothing is owed)
    owed = []
    if g.phase == SETUP and g.setup_order:
        return [Problem("log-ends-unfinished", "", "the log ends before the setup is finished")]
    owed += [f"player {n}'s discard" for n in sorted(g.discards_owed)]
    if g.robber_due:
        owed.append("the robber's move")
    if g.steal_from and g.steal_needed:
        owed.append("a steal")
    if not owed:
        return []
    listed = ", ".join(owed[:-1]) + " and " + owed[-1] if len(owed) > 1 else owed[0]
    return [Problem("log-ends-unfinished", "", f"the log ends before {listed}")]
