"""The rules replay: a game state, and `apply(message)` that checks one move against it.

SGN leaves out what can be inferred: production, the end of a turn, who holds
the longest road. The replay infers them, following the rules of the variant
the map calls for (the numbers are the tables of `sgn/rules.py`), and reports
each move that breaks a rule as a `Problem`. `Game` holds the state (`state`)
and sends each message to the functions of its concern, each a module of
functions of the state: the map here, then the `setup` while it lasts, and in the
turns, by action code (`turns.ACTIONS`), the roll (`turns`), the robber and the
discards of a 7 (`robber`), building (`building`), development cards (`cards`)
and trades (`trades`); they share the bookkeeping of cards and the bank
(`ledger`) and of pieces, the longest road and the largest army (`placing`).
`apply` ends the game at 10 points.

`apply` applies a message as far as it can be, even an illegal one (the log's
reading: a hand never goes below zero, an obligation left unmet is dropped);
`sgn/game/recovery.py` decides, after a fault, whether that or another reading of
the log explains what follows, so that one fault gives one error.
"""

from __future__ import annotations

import gc
from typing import Any, Callable, Dict, Final, List, Optional, Sequence

from .. import rules
from ..diagnostic import Problem
from ..messages import Message
from . import cards, engine_end, ledger, placing, setup, turns, unseen_cards
from .errors import MessageError, message_error
from .pieces import Edge, Income, Map, Player
from .rule_profiles import bank_stock
from .state import OVER, SETUP, TURNS, State

# Actions that cannot change anyone's points (so the win needs no checking after them).
_NO_POINTS: Final = frozenset({"TR", "ST", "MR", "ET"})


def _strange_side(players: Dict[str, Player], value: List[Dict[str, Any]]) -> bool:
    """Whether a side of a trade or steal names a seat that does not play here."""
    for side in value:
        name = side["player"]
        if name != "B" and name not in players:
            return True
    return False


def _collector_paused(game: "Game", message: Sequence[Any], line: int) -> List[Problem]:
    """`game._apply` with Python's cyclic garbage collector paused, where cards are in doubt:
    the worlds are thousands of tuples made and dropped at once, holding no cycle, and the
    collector ran dozens of times a message to find none (a third of the time of a log with
    every card hidden: docs/performance.md, "The collector paused")."""
    gc.disable()
    try:
        return game._apply(message, line)
    finally:
        gc.enable()


def _over(game: "Game", player: Any, action: Any, value: Any, line: int) -> List[Problem]:
    """A message once the game is over: the moves that may close it, a game that went on
    (under a profile whose end is not the rulebook's), or `after-game-end`. (Apart from
    `Game._apply`: its closure would be made for every message.)"""
    if game.end_departs is not None and not game.after_end_reported:
        went_on = engine_end.went_on(game, lambda: game._move(player, action, value, line))
        if went_on is not None:
            return went_on
    if (
        action == "PD"
        and player == game.current
        and value["cCode"] == "VP"
        and not game.after_end_reported
        and not cards.reveal_point(game, game.player(player), value)
    ):
        return []  # the winner shows the Victory Point cards that won
    if (
        player == game.current
        and not game.after_end_reported
        and (
            game.robber_due == "knight"
            if action == "MR"
            else (action == "ST" and game.steal_from) or (action == "BR" and game.free_roads > 0)
        )
    ):  # the robber move and steal of the Knight that won, the free road of a Road Building that did
        return turns.turn(game, player, action, value)
    if game.after_end_reported:
        return []
    return game._after_end()


class Game(State):
    """The state of one game, replayed message by message: the map, the setup and the turns.

    It checks the rules only. The shape of a message (the schema: `RD 13`, a missing
    property) and its meaning (the semantic checks: an intersection that is no corner, a
    place off the map) are `sgn.validate_message`'s and `sgn validate`'s to check, which
    run before the replay; a message they refuse may be applied here without a word, or
    raise `MessageError` when it cannot be applied at all.
    """

    def clone(self) -> "Game":
        """A copy of the state that changes apart from this one (every field; the board is
        shared, as it never changes): to try moves on, or to read a log several ways after a
        fault (`sgn/game/recovery.py`). The undo list of `push` is not copied."""
        other = Game(self.rules)
        self.copy_into(other)
        return other

    def _repr_svg_(self) -> str:
        """The board as a picture, as Jupyter shows it (`sgn.svg.board`)."""
        from ..svg import board

        return board(self)

    def apply(self, message: Sequence[Any], line: int = 0) -> List[Problem]:
        """Check one message against the state, then change the state as the message says:
        the rules it breaks, as `Problem`s. The message must be one the schema and semantic
        checks pass (see the class); one that cannot be applied raises `MessageError`.

        A `Problem` is (code, pointer, message, hint), with `severity` and `layer` from its
        code, and `diagnostic(file, line)` for the `Diagnostic` `sgn.check` would give. It
        is not a `Diagnostic` itself: a message applied alone has no file, and `line` here
        only numbers the state (`ended_at`). To check a whole log, with what the replay
        does after a fault (one fault, one error), use `sgn.check(messages, level="rules")`."""
        if self.unseen.doubt is not None and gc.isenabled():
            return _collector_paused(self, message, line)
        return self._apply(message, line)

    def _apply(self, message: Sequence[Any], line: int) -> List[Problem]:
        self.line = line
        if isinstance(message, str):  # it would unpack, one letter an item
            raise message_error(message, TypeError("a message is a sequence [player, aCode, value], not a str"))
        try:
            if type(message) is list and len(message) == 3:  # (a list, the common case: read by index)
                player, action, value = message[0], message[1], message[2]
            else:
                player, action, value = message
            if self.without_map_reported:
                return []
            if isinstance(action, str) and action == "DM":  # (a str: compared as one)
                return self._define_map(value)
            if self.board is None:
                if action == "HD":
                    return []  # a game's header (sgn/layers/records.py), before its map: no move
                self.without_map_reported = True
                return [
                    Problem(
                        "game-without-map",
                        "/1",
                        "the replay needs the map: the log must start with a valid DM "
                        "(later messages are not replayed)",
                    )
                ]
            if self.phase == OVER:
                return _over(self, player, action, value, line)
            return self._move(player, action, value, line)
        except (LookupError, TypeError, ValueError, AttributeError) as error:  # no message it can apply
            raise message_error(message, error) from error

    def _move(self, player: str, action: str, value: Any, line: int) -> List[Problem]:
        """A message of a game not over: checked, made, and the game's end looked for."""
        if self.unseen.end is not None and not (action == "PD" and value["cCode"] == "VP"):
            self.unseen.end = None  # the game went on: it did not end there
        if self.phase == SETUP:
            problems = setup.setup(self, player, action, value)
        else:
            players = self.players
            # (a trade's two sides and a steal's name players: two comparisons, not a set's look-up)
            if player not in players or ((action == "TR" or action == "ST") and _strange_side(players, value)):
                return [self._stranger(player, action, value)]
            problems = turns.turn(self, player, action, value)
        current = self.current
        if self.phase == TURNS and current and action not in _NO_POINTS and not self.special_built:
            p = self.players.get(current)  # (looked up once: this runs after every move)
            if self.ends_otherwise:  # (an engine's end, sgn/game/engine_end.py)
                engine_end.check(self, line)
            elif (self.points_of(p) if p is not None else self.points(current)) >= rules.POINTS_TO_WIN:
                self.phase, self.ended_at = OVER, line  # (nobody wins in a Special Build Phase)
            if self.phase == TURNS:
                now = self.current
                holder = p if p is not None and now is current else None if now is None else self.players.get(now)
                if holder is not None and holder.has_unseen_cards():
                    unseen_cards.watch_points(self, line)
        return problems

    def _after_end(self) -> List[Problem]:
        """A message after the game ended: an error once (later messages are not checked)."""
        self.after_end_reported = True
        return [
            Problem(
                "after-game-end",
                "",
                f"the game ended at line {self.ended_at}, when player {self.current} "
                f"reached {engine_end.winning_points(self) if self.current else 0} points; "
                "nothing may follow "
                "(later messages are not checked)",
            )
        ]

    def _stranger(self, player: str, action: str, value) -> Problem:
        """A seat the message names that does not play in this game (the setup showed who
        plays): the move is not made, so that no seat appears from nowhere."""
        players = self.players
        sides = [s["player"] for s in value] if action in ("TR", "ST") else []
        name, pointer = player, "/0"
        if player in players:
            i = next(i for i, side in enumerate(sides) if side not in players and side != "B")
            name, pointer = sides[i], f"/2/{i}/player"
        seats = sorted(players, key=lambda n: (len(n), n))
        return Problem(
            "player-not-in-game",
            pointer,
            f"player {name} does not play in this game: the setup showed {len(seats)} players ({', '.join(seats)})",
        )

    def legal_moves(
        self, players: Optional[int] = None, hidden_outcomes: str = "auto", discards: str = "each"
    ) -> List[list]:
        """Every message `apply` accepts here without an error, as SGN messages, in a stable
        order (docs/moves.md): placements, roads and cities; the roll as its 11 totals; the
        discards, the robber's tiles and the steals; one lot with the bank at each rate the
        player has; a development card bought (each kind the deck may give) and each card
        held played, with every choice. Trades between players are not listed. The game is
        not changed. `players`: the number to play, during the first round of the setup
        (default: any the map's rules are for); `hidden_outcomes`: "auto" lists the `?` outcome of a
        chance move where the position is a partial view (docs/hidden.md), "always" or
        "never"; `discards`: "each" lists a discard owed as every multiset of the hand,
        "compact" as one message, its cards `?` (docs/moves.md, "A discard in one message")."""
        from .moves import legal_moves

        return legal_moves(self, players, hidden_outcomes, discards)

    # -- playing a game (sgn/game/decisions.py, docs/api.md "Playing a game") -------------
    def decisions(self, players: Optional[int] = None) -> List[Any]:
        """Who must decide now and what: `Decision(seat, kind, moves)`, one for each seat
        that owes a discard after a 7, else one; none before the map and after the end.
        Chance moves are written with `?` (`chances` gives their outcomes and odds), and
        `[seat, "ET", {}]` ends a turn. `players`: the number of seats, for the setup."""
        from .decisions import decisions

        return decisions(self, players)

    def chances(self, move: Sequence[Any]) -> List[Any]:
        """The outcomes of a chance move with their exact probabilities, as (move, Fraction):
        a roll `?` as 2d6, a card bought `?` as the deck holds them, a card stolen `?` as the
        victim's hand holds them; any other move is itself, with probability 1."""
        from .decisions import chances

        return chances(self, move)

    def outcome(self) -> Optional[Any]:
        """How the game ended: `Outcome(winner, points, line, how)`, or None while it goes on."""
        from .decisions import outcome

        return outcome(self)

    def push(self, move: Sequence[Any]) -> List[Problem]:
        """Make a checked move: its shape and meaning (`sgn.validate_message`), then the
        rules. A move any of them refuses raises `IllegalMove` and leaves the game as it
        was; otherwise the move is made (`pop` undoes it) and its warnings are returned.
        `[seat, "ET", {}]` ends the seat's part of a turn. A chance move is made as its
        outcome: push one of `chances(move)`, not the `?`, to play a game with full cards."""
        from .decisions import push

        return push(self, move)

    def pop(self) -> None:
        """Undo the last `push` (IndexError when there is none)."""
        pushed = self.pushed
        if not pushed:
            raise IndexError("pop from a game with no move pushed")
        previous = pushed.pop()
        previous.copy_into(self)
        self.pushed = pushed

    # -- what the readings after a fault do to a state (sgn/game/readings.py) -------------
    def begin_turn(self, player: str) -> List[Problem]:
        """`player`'s turn begins now, before any roll."""
        return turns.pass_turn(self, player)

    def roll_quietly(self, player: str, result: int) -> None:
        """A roll the log does not show, with its effects."""
        turns.roll(self, player, result)

    def lose_roll(self, player: str) -> None:
        """A roll the log lost, not a 7: what it paid is unknown (`ledger.lose_roll`)."""
        ledger.lose_roll(self, player)

    def lose_cards(self, name: str, most: int, spread: int = 0) -> None:
        """A message the log lost changed this hand: known within bounds (`ledger.lose_cards`)."""
        ledger.lose_cards(self, name, most, spread)

    def can_settle(self, p: Player, c, connected: bool) -> bool:
        """Whether a settlement of `p` may stand at the corner `c`."""
        return placing.can_settle(self, p, c, connected)

    def road_problems(self, p: Player, e: Edge, setup_corner=None) -> List[Problem]:
        """What a road of `p` on the edge `e` would break (the random player's question)."""
        return placing.road_site(self, p, e, "", setup_corner)

    def special_order(self, turn: str) -> List[str]:
        """Who may build in the Special Build Phase after `turn`'s turn, in order (5-6 players)."""
        return turns.special_order(self, turn)

    def finish(self) -> List[Problem]:
        """What the end of the log leaves unfinished (warnings only). The game is not changed:
        a roll not seen last is judged not a 7 on a copy (nothing is then owed), and the
        position stays one where it may have been (its legal moves, `sgn moves`, include a 7's)."""
        return turns.unfinished(self.clone() if self.unseen.roll else self)

    def _define_map(self, value) -> List[Problem]:
        if self.board is not None:
            return [Problem("map-redefined", "/1", "the map is defined once, at the start of the game")]
        self.board = Map.from_value(value)
        # on one of two deserts, as the players like (docs/rules.md): unknown until it is placed or moves
        self.robber = self.board.desert if len(self.board.deserts) == 1 else None
        self.variant = rules.variant_for(self.board.land)
        self.bank = dict.fromkeys(rules.RESOURCES, bank_stock(self.departures, self.variant.bank))
        self.deck = dict(self.variant.deck)
        return []


# A reading of a log at a fault (sgn/game/readings.py): what it does to a copy of the state
# just before the fault, and the rules it breaks on the faulty line.
Reading = Callable[[Game], List[Problem]]

__all__ = ["Map", "Game", "Income", "Message", "MessageError", "OVER", "Player", "Reading", "SETUP", "TURNS"]
