"""JSettlers2's turns and the game's end, as `sgn convert --from jsettlers` reads them
(`sgn/adapters/jsettlers.py` says the whole): `SOCTurn` begins a seat's turn or its place in
the Special Building Phase, and ends the one before (the record line `ET`: JSettlers sends
no message of its own for it); `SOCGameState` 1000 and `SOCGameStats` say who won and each
seat's points, for the game's header (docs/format.md, "Records")."""

from __future__ import annotations

from typing import Any, Dict, Optional

from .. import messages
from ..game.rule_profiles import JSETTLERS
from ..layers import records
from ..notation.reading import Where
from . import jsettlers_log as log
from .jsettlers_state import Conversion

# JSettlers' game states that begin a seat's part of a turn (`SOCTurn`): its own turn
# (ROLL_OR_CARD) and its place in the Special Building Phase (SPECIAL_BUILDING).
_TURN_STATES = (15, 100)
_SPECIAL_BUILDING = 100


GAME_OVER = 1000  # JSettlers' game state once a player has won


def game_state(c: Conversion, e: log.Entry, f, where: Where) -> None:
    """`SOCGameState`: only the end says what SGN keeps (the winner, in the header)."""
    if log.number(f.get("state")) == GAME_OVER and c.current in c.names and c.winner is None:
        c.winner = c.current


def game_stats(c: Conversion, e: log.Entry, f, where: Where) -> None:
    """`SOCGameStats`: each seat's points at the end, seat 0 first (then whether each is a
    robot), for the header's result."""
    values = f.get("", "").split("|")
    for seat, text in enumerate(values[:6]):
        points = log.number(text)
        if points is not None and 0 <= points <= 99:
            c.scores[seat] = points


def header(c: Conversion, nicknames: Dict[str, str]) -> list:
    """The game's header (docs/format.md, "Records"): the seats' nicknames, the profile
    JSettlers' games need, and the result the log recorded (the winner, the points)."""
    players = {player: {"name": name} for player, name in nicknames.items()}
    result: Optional[Dict[str, Any]] = None
    if c.winner is not None:
        result = {"how": records.WON, "winner": c.names[c.winner]}
        if all(seat in c.scores for seat in c.names):
            result["points"] = {player: c.scores[seat] for seat, player in c.names.items()}
    return records.header(players, JSETTLERS, result)


def turn(c: Conversion, e: log.Entry, f, where: Where) -> None:
    """`SOCTurn`: a seat's part of a turn begins, and the one before ends (an `ET`, the record
    line of the end of a turn: JSettlers sends no message of its own for it)."""
    seat, state = log.number(f.get("playerNumber")), log.number(f.get("gameState"))
    if state in _TURN_STATES and seat in c.names:
        # a turn begun but not rolled, that JSettlers turns into a place in the Special
        # Building Phase of the turn before (the seat asked to build there), did not begin
        if c.slot is not None and (c.slot[1] == _SPECIAL_BUILDING or c.slot_rolled):
            c.emit(where, messages.end_turn(c.names[c.slot[0]]))
        c.slot = (seat, state)
        c.slot_rolled = c.slot_rolled and state == _SPECIAL_BUILDING
    if seat in c.names:
        c.current = seat


TURN_HANDLERS = {"Turn": turn, "GameState": game_state, "GameStats": game_stats}
