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

from .. import messages
from ..codes import CODES
from ..diagnostic import Problem
from ..layers.semantic import is_discard
from .core import TURNS, Game, Message, Reading
from .lost import PLAYERS, lost_readings, roll_lost, set_adrift, set_bank_adrift
from .refused import hidden_forms

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
    """A line that an earlier layer refused (so the replay cannot read it as it is; None
    when it is no JSON at all): its evident repair, if it has one (`sgn/layers/repairs.py`);
    a trade as either side says it; nothing at all. In a game's turns it may have been the
    roll due, whatever it holds (a roll with a broken value, a line cut short): a roll of
    unknown result, a 7 tried too. Nothing is reported here either way: the refused line
    was reported by its own layer. Readings that leave the same game but for hands become
    one, the hands in doubt (`sgn/game/fork.py`)."""
    out: List[Reading] = []
    if repaired is not None:

        def as_repaired(g: Game) -> List[Problem]:
            return g.apply(repaired, line)

        out.append(as_repaired)
    forms = hidden_forms(before, message) if repaired is None else []
    for form in forms:

        def as_hidden(g: Game, form=form) -> List[Problem]:
            g.apply(form, line)
            return []

        out.append(as_hidden)
    if not forms and action_of(message) == "TR" and before.phase == TURNS and before.current is not None:
        # a trade of which nothing can be read: any seat's hand (the partner cannot be read
        # either) and the bank's, known within bounds from now on
        traders = sorted(before.players)

        def adrift(g: Game) -> List[Problem]:
            set_adrift(g, traders, "cannot-afford")
            set_bank_adrift(g)
            return []

        out.append(adrift)
    out += _trade_sides(before, message, line)
    roll = action_of(message) == "RD" and isinstance(message[0], str) and message[0] in PLAYERS
    if before.phase == TURNS and before.board is not None and (roll or repaired is None):
        player = message[0] if roll else _roller(before)

        def lost_roll(seven: bool) -> Reading:
            def read(g: Game) -> List[Problem]:
                roll_lost(g, player, seven)
                return []

            return read

        out += ([] if roll else [_nothing]) + [lost_roll(False), lost_roll(True)]
    elif out:
        out.append(_nothing)
    return out


def _roller(g: Game) -> str:
    """Who rolls next: the player whose turn it is, before their roll; else the next one."""
    if g.current is None:
        return "1"
    return g.current if not g.rolled else g.next_player(g.current)


def _trade_sides(before: Game, message: Any, line: int) -> List[Reading]:
    """A trade refused (its sides do not balance, say): as each side says it, the other
    side mirroring it, where that is a trade the replay can make."""
    if action_of(message) != "TR" or len(message) < 3 or not isinstance(message[0], str):
        return []
    if not _sides_readable(message[2]):
        return []
    out: List[Reading] = []
    for i in (0, 1):
        side, other = message[2][i], message[2][1 - i]
        mirrored = {"player": other["player"], "resources": {r: -n for r, n in side["resources"].items()}}
        first, second = (side, mirrored) if i == 0 else (mirrored, side)
        if [first, second] == message[2]:
            continue
        trade = messages.trade(message[0], first["player"], first["resources"], second["player"], second["resources"])
        if any(is_error(p) for p in before.clone().apply(trade, line)):
            continue

        def as_side(g: Game, trade=trade) -> List[Problem]:
            g.apply(trade, line)
            return []

        out.append(as_side)
    return out


def _sides_readable(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(
            isinstance(s, dict)
            and s.get("player") in PLAYERS | {"B"}
            and isinstance(s.get("resources"), dict)
            and s["resources"]
            and all(r in ("B", "G", "L", "O", "W", "?") and type(n) is int and n for r, n in s["resources"].items())
            for s in value
        )
        and value[0]["player"] != value[1]["player"]
    )


# Faults of where a message stands in the log, which a copy of the line before shares with
# any other message: reported as they are.
_NOT_REPEATS = frozenset({"after-game-end", "game-without-map", "map-redefined"})


# Messages the rules may allow twice in a row (a second card bought, a second trade, a
# second Victory Point shown): a copy of one that is refused is judged as any other message.
_REPEATABLE = frozenset({"BD", "TR"})


def is_repeat(message: Message, problems: List[Problem]) -> bool:
    """Whether a copy of the line before, and what it broke, make it a line sent twice: a
    move no state allows twice in a row, refused for its own sake."""
    action = message[1]
    if action in _REPEATABLE or (action == "PD" and message[2]["cCode"] == "VP"):
        return False
    return any(is_error(p) for p in problems) and not any(p.code in _NOT_REPEATS for p in problems)


def cut_short(game: Game, starts: List[int]) -> Problem:
    """Another map while a game runs: that game was cut short (a new one begins here)."""
    since = f" (from line {starts[-1]})" if starts else ""
    return Problem(
        "map-redefined",
        "/1",
        f"a new map while the game{since} is still running, on another board: that game was cut short, "
        "and a new game begins here",
    )


def repeated(message: Message) -> Problem:
    """A line sent twice: the copy of the line before, which the rules refuse."""
    return Problem(
        "message-repeated",
        "",
        f"the same {message[1]} as the line before, which the game does not allow again: "
        "a line sent twice? (read as not made)",
    )


def _as_form(form: Message, line: int, found: List[Problem]) -> Reading:
    """The line read as `form`, reporting what the line itself broke."""

    def read(g: Game) -> List[Problem]:
        g.apply(form, line)
        return found

    return read


def _rolled_by(roller: str, message: Message, line: int, found: List[Problem]) -> Reading:
    """A roll written with the wrong seat: the roll of the seat whose roll was due."""
    return _as_form(messages.roll(roller, message[2]["result"]), line, found)


def _nothing(g: Game) -> List[Problem]:
    return []


def carry_first(found: List[Problem], explained: bool = False) -> bool:
    """Whether the log's reading (the move made) is the first of a fault's readings: then
    the replay goes on with it alone until a later message breaks a rule under it
    (`sgn/game/recovery.py`, "lazily"), since no other reading can then explain the log better."""
    first = next(p.code for p in found if is_error(p))
    return not explained and READINGS.get(first, DEFAULT_READINGS)[0] == CARRY


def readings(
    before: Game, message: Message, line: int, found: List[Problem], explained: bool = False, hint: Any = None
) -> List[Reading]:
    """The readings of a faulty message, most likely first; `found` is what the log's
    reading (the message applied) reports. `explained`: the message before was refused by
    an earlier layer, which reported it; a message lost then is that one, so that the fault
    its loss causes is not reported again (those readings come first, and report nothing);
    `hint`, what that line holds, orders the places such a loss may have been."""
    first = next(p.code for p in found if is_error(p))

    def carry(g: Game) -> List[Problem]:
        return g.apply(message, line)

    def skip(g: Game) -> List[Problem]:
        return found

    out: List[Reading] = [carry if name == CARRY else skip for name in READINGS.get(first, DEFAULT_READINGS)]
    codes = {p.code for p in found if is_error(p)}
    if first == "player-not-in-game":  # (the seat cannot be read: the line through the hidden model)
        return [_as_form(form, line, found) for form in hidden_forms(before, message)] + [skip]
    if action_of(message) == "RD" and codes & {"turn-order", "already-rolled"}:
        out = [_rolled_by(_roller(before), message, line, found)] + out
    if codes & TURN_CODES:
        out += _turn_readings(before, message, line)
    lost = lost_readings(before, message, line, [] if explained else found, first, codes, hint)
    return lost + out if explained else out + lost
