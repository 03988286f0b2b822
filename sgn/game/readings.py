"""The readings of a faulty message: the ways the log can be read at a fault, each a
function that applies it to a copy of the state just before it and returns the rules that
reading breaks on the faulty line. `sgn/game/recovery.py` keeps them alive side by side until
what follows decides between them.

- the server's (`SKIP`): the message is refused and changes nothing;
- the log's (`CARRY`): the move was made, at the wrong time or without the means;
- for an action by a player whose turn has not begun, or who has not rolled: their turn
  began before the roll, or with a roll the log lost (a 7 is tried too);
- for a message an earlier layer refused (the schema, the semantic checks): a roll is still
  a roll, of unknown result.

The order of a fault's readings is the preference among readings the log does not tell
apart, by the code of the fault's first error (`READINGS`).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..codes import CODES
from ..diagnostic import Problem
from ..layers.semantic import is_discard
from .core import TURNS, Game, Message, Reading
from .lost import PLAYERS, lost_readings, roll_lost

SKIP, CARRY = "skip", "carry"
# The readings tried first for a fault, by the code of its first error. A move the player
# could not make (no cards to pay, no card to play, no roll to allow it) is what a server
# refuses: the state is left as it was. A move made at the wrong time, which the log then
# carries on (a Knight played on the turn it was bought, then its robber move), was made.
# Either order is only the tie-break: the look-ahead decides.
READINGS: Dict[str, Tuple[str, ...]] = {
    "cannot-afford": (SKIP, CARRY),
    "not-held": (SKIP, CARRY),
    "card-not-held": (SKIP, CARRY),
    "deck-empty": (SKIP, CARRY),
    "bank-empty": (SKIP, CARRY),
    "already-rolled": (SKIP, CARRY),
    "turn-order": (SKIP, CARRY),
    "robber-not-allowed": (SKIP, CARRY),
    "steal-not-allowed": (SKIP, CARRY),
    "steal-wrong-victim": (SKIP, CARRY),
    "discard-not-owed": (SKIP, CARRY),
    "trade-rate": (SKIP, CARRY),
    "site-occupied": (SKIP, CARRY),
    "distance-rule": (SKIP, CARRY),
    "settlement-not-connected": (SKIP, CARRY),
    "road-occupied": (SKIP, CARRY),
    "road-not-connected": (SKIP, CARRY),
    "city-not-on-settlement": (SKIP, CARRY),
    "piece-limit": (SKIP,),
    # the Special Build Phase (5-6 players): a trade or a card there was most likely refused
    "special-build-trade": (SKIP, CARRY),
    "special-build-card": (SKIP, CARRY),
    # reported once, however the message is read: the log's reading keeps that memory
    "game-without-map": (CARRY,),
    "after-game-end": (CARRY,),
    "map-redefined": (CARRY,),
}
DEFAULT_READINGS = (CARRY, SKIP)
# A fault by a player whose turn it is not may be the start of their turn: these codes
# (of the fault's first error) let the replay try that.
TURN_CODES = frozenset({"not-your-turn", "roll-first", "special-build-trade"})


def is_error(problem: Problem) -> bool:
    return CODES[problem.code].severity == "error"


def _turn_readings(before: Game, message: Message, line: int) -> List[Reading]:
    """An action by a player who has not rolled: their turn began without a roll (the action
    comes before it), or with a roll the log lost. What a lost roll paid is unknown: each
    player may then hold unseen cards (`Game.lose_roll`), so that nothing that rests on the
    lost roll is reported; a lost 7 is tried too (discards and the robber then follow)."""
    player, action, value = message
    if before.phase != TURNS or action == "RD" or (action == "TR" and is_discard(value)):
        return []
    begins = player != before.current
    if not begins and before.rolled:
        return []

    def before_roll(g: Game) -> List[Problem]:
        return g.begin_turn(player) + g.apply(message, line)

    def lost_roll(seven: bool) -> Reading:
        def read(g: Game) -> List[Problem]:
            return (
                roll_lost(g, player, seven)
                + [
                    Problem(
                        "roll-missing",
                        "/0",
                        f"player {player}'s turn has no roll: this {action} comes where "
                        "the roll should be, and no roll follows",
                    )
                ]
                + g.apply(message, line)
            )

        return read

    return ([before_roll] if begins else []) + [lost_roll(False), lost_roll(True)]


def action_of(message: Any) -> Optional[str]:
    """The aCode of a line read ahead, or None: a line an earlier layer refused may be any
    JSON value (`7`, `{}`, `[1]`), and the look-ahead must never assume it is a message."""
    if isinstance(message, list) and len(message) > 1 and isinstance(message[1], str):
        return message[1]
    return None


def gap_readings(before: Game, message: Any, repaired: Optional[Message] = None, line: int = 0) -> List[Reading]:
    """A message that an earlier layer refused (so the replay cannot read it as it is): its
    evident repair, if it has one (`sgn/layers/repairs.py`), applied; or nothing at all. A roll with
    a broken value was still a roll, whose result is unknown (a 7 is tried too). Nothing is
    reported here either way: the refused message was reported by its own layer."""
    out: List[Reading] = []
    if repaired is not None:

        def as_repaired(g: Game) -> List[Problem]:
            return g.apply(repaired, line)

        out.append(as_repaired)
    if not (
        action_of(message) == "RD" and isinstance(message[0], str) and message[0] in PLAYERS and before.phase == TURNS
    ):
        return out + [_nothing] if out else []
    player = message[0]

    def lost_roll(seven: bool) -> Reading:
        def read(g: Game) -> List[Problem]:
            roll_lost(g, player, seven)
            return []

        return read

    return out + [lost_roll(False), lost_roll(True)]


def _nothing(g: Game) -> List[Problem]:
    return []


def carry_first(found: List[Problem], explained: bool = False) -> bool:
    """Whether the log's reading (the move made) is the first of a fault's readings: then
    the replay goes on with it alone until a later message breaks a rule under it
    (`sgn/game/recovery.py`, "lazily"), since no other reading can then explain the log better."""
    first = next(p.code for p in found if is_error(p))
    return not explained and READINGS.get(first, DEFAULT_READINGS)[0] == CARRY


def readings(before: Game, message: Message, line: int, found: List[Problem], explained: bool = False) -> List[Reading]:
    """The readings of a faulty message, most likely first; `found` is what the log's
    reading (the message applied) reports. `explained`: the message before was refused by
    an earlier layer, which reported it; a message lost then is that one, so that the fault
    its loss causes is not reported again (those readings come first, and report nothing)."""
    first = next(p.code for p in found if is_error(p))

    def carry(g: Game) -> List[Problem]:
        return g.apply(message, line)

    def skip(g: Game) -> List[Problem]:
        return found

    out: List[Reading] = [carry if name == CARRY else skip for name in READINGS.get(first, DEFAULT_READINGS)]
    codes = {p.code for p in found if is_error(p)}
    if codes & TURN_CODES:
        out += _turn_readings(before, message, line)
    lost = lost_readings(before, message, line, [] if explained else found, first, codes)
    return lost + out if explained else out + lost
