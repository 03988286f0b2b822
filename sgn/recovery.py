"""Recovery after a fault: the replay goes on from the reading of the log that explains
the most of what follows, so that one fault costs one error.

When a message breaks a rule, `Replay` holds its verdict back, reads up to
`LOOK_AHEAD` more messages, and tries each reading of the faulty message on a
copy of the state from just before it: the server's (the message is refused and
changes nothing), the log's (the move was made, at the wrong time or without
the means), and, for an action by a player whose turn has not begun, a turn
begun without a roll or with a roll the log lost. The reading under which the
fewest of the messages read ahead break a rule wins; on a tie, the one with the
fewest errors on the faulty line itself, then the first in the order of
`READINGS` for the fault's code. The diagnostics of the chosen reading
are reported, and the messages read ahead are replayed from its state (each may
be a fault in its turn). docs/rules.md, "After an error", gives the examples.

The state just before a fault is rebuilt from a copy taken every
`CHECKPOINT_EVERY` messages (and after each fault) and the messages since, so
that a log without faults pays only for the copies.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import rules
from .codes import CODES
from .diagnostic import Diagnostic, make
from .game import OVER, TURNS, Game
from .semantic import Problem, is_discard

LOOK_AHEAD = 12          # messages read past a fault before its reading is chosen
MAX_GAMES_LISTED = 1000  # games of one log whose line and winner are kept (the rest are counted)
# A log whose faults come thicker than this (DENSE_FAULTS within DENSE_LINES lines) is read
# as it stands, each fault reported where it is, without the look-ahead: the readings then
# explain little, and trying them for every line would cost a hundred times a clean line.
DENSE_FAULTS, DENSE_LINES = 8, 64
CHECKPOINT_EVERY = 256   # messages between two copies of the state

Reading = Callable[[Game], List[Problem]]
_NOTHING: List[Diagnostic] = []     # what most messages give (never changed by a caller)
Message = Sequence[Any]

SKIP, CARRY = "skip", "carry"
PLAYERS = frozenset(str(n) for n in range(1, 7))
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


def _roll_lost(g: Game, player: str, seven: bool) -> List[Problem]:
    """A roll by `player` that the log does not show (beginning their turn if it has not
    begun): a 7, or a roll of unknown result. What beginning the turn reports."""
    found = g.begin_turn(player) if player != g.current else []
    if seven:
        g.roll_quietly(player, rules.ROBBER_ROLL)
    else:
        g.lose_roll(player)
    return found


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
            return _roll_lost(g, player, seven) + [Problem("roll-missing", "/0",
                                    f"player {player}'s turn has no roll: this {action} comes where "
                                    "the roll should be, and no roll follows")] + g.apply(message, line)
        return read

    return ([before_roll] if begins else []) + [lost_roll(False), lost_roll(True)]


def action_of(message: Any) -> Optional[str]:
    """The aCode of a line read ahead, or None: a line an earlier layer refused may be any
    JSON value (`7`, `{}`, `[1]`), and the look-ahead must never assume it is a message."""
    if isinstance(message, list) and len(message) > 1 and isinstance(message[1], str):
        return message[1]
    return None


def _gap_readings(before: Game, message: Message) -> List[Reading]:
    """A message that an earlier layer refused (so the replay cannot read it) but whose
    player and action can be read: a roll with a broken value was still a roll, whose
    result is unknown (a 7 is tried too). Other actions change nothing."""
    if not (action_of(message) == "RD" and isinstance(message[0], str) and message[0] in PLAYERS
            and before.phase == TURNS):
        return []
    player = message[0]

    def lost_roll(seven: bool) -> Reading:
        def read(g: Game) -> List[Problem]:
            _roll_lost(g, player, seven)
            return []               # (the refused message was reported by its own layer)
        return read

    return [lost_roll(False), lost_roll(True)]


def readings(before: Game, message: Message, line: int, found: List[Problem]) -> List[Reading]:
    """The readings of a faulty message, most likely first; `found` is what the log's
    reading (the message applied) reports (nothing for a message an earlier layer refused)."""
    if not found:
        return _gap_readings(before, message)
    first = next(p.code for p in found if is_error(p))

    def carry(g: Game) -> List[Problem]:
        return g.apply(message, line)

    def skip(g: Game) -> List[Problem]:
        return found

    out: List[Reading] = [carry if name == CARRY else skip for name in READINGS.get(first, DEFAULT_READINGS)]
    if first in TURN_CODES:
        out += _turn_readings(before, message, line)
    return out


class Replay:
    """The rules layer for one file, as a validation stage: the game, replayed with recovery.

    Called with each message in order, it returns the diagnostics that are now final, which
    may be those of an earlier line: while `undecided` is true, it holds back a fault's
    verdict (and the caller must hold back what other layers find on later lines)."""

    def __init__(self) -> None:
        self.game = Game()
        self.file = "<input>"
        self._base = self.game.clone()                  # the state at the last checkpoint
        self._since: List[Tuple[Message, int]] = []     # the messages applied since, without a fault
        self._fault: Optional[Tuple[Message, int, List[Problem]]] = None
        # read past the fault, not yet replayed: (message, line, refused by an earlier layer)
        self._ahead: List[Tuple[Message, int, bool]] = []
        # the games of the log, one after another: the line of each one's map, and its winner
        self.starts: List[int] = []
        self.winners: List[Optional[str]] = []
        self.variants: List[str] = []   # the rules each listed game followed (filled as the next begins)
        self._recent: List[int] = []    # the lines of the last DENSE_FAULTS faults
        self.game_count = 0
        self.unlisted_from = 0          # the line of the first game not listed (0: all are)
        # told the line of each message once it is read (`sgn.replay.line_by_line`)
        self.watch: Optional[Callable[[int], None]] = None

    @property
    def undecided(self) -> bool:
        return self._fault is not None

    def __call__(self, message: Message, file: str, line: int) -> Tuple[List[Diagnostic], Message]:
        return self.feed(message, file, line), message

    def feed(self, message: Message, file: str, line: int) -> List[Diagnostic]:
        """The next message: the diagnostics now final (of this line or earlier ones)."""
        if self._fault is None and message[1] != "DM":
            # the common case, kept short: no fault held, and the move breaks no rule
            game = self.game
            problems = game.apply(message, line)
            if not problems:
                since = self._since
                since.append((message, line))
                if len(since) >= CHECKPOINT_EVERY:
                    self._checkpoint()
                if game.phase == OVER:
                    self._note_end()
                if self.watch is not None:
                    self.watch(line)
                return _NOTHING
            self.file = file
            found: List[Diagnostic] = []
            self._after_apply(message, line, problems, found)
        else:
            self.file = file
            found = []
            self._feed(message, line, found)
        if self.watch is not None:
            self.watch(line)
        return found

    def gap(self, message: Message, file: str, line: int) -> List[Diagnostic]:
        """A message an earlier layer refused: not replayed, but a roll it held is read as a
        roll of unknown result, so that the turn it began is not an error too."""
        self.file = file
        found: List[Diagnostic] = []
        self._feed_gap(message, line, found)
        if self.watch is not None:
            self.watch(line)
        return found

    def _feed_gap(self, message: Message, line: int, out: List[Diagnostic]) -> None:
        if self._fault is not None:
            self._ahead.append((message, line, True))
            if len(self._ahead) >= LOOK_AHEAD:
                self._resolve(out, at_end=False)
        elif _gap_readings(self.game, message):
            self._fault = (message, line, [])

    def _feed(self, message: Message, line: int, out: List[Diagnostic]) -> None:
        if self._fault is not None:
            self._ahead.append((message, line, False))
            if len(self._ahead) >= LOOK_AHEAD:
                self._resolve(out, at_end=False)
            return
        if message[1] == "DM" and (self.game.board is None or self.game.phase == OVER):
            if self.game.board is not None:
                self._new_game()
            self.game_count += 1
            if len(self.starts) < MAX_GAMES_LISTED:
                self.starts.append(line)
                self.winners.append(None)
                self.variants.append("")
            elif not self.unlisted_from:
                self.unlisted_from = line
        self._after_apply(message, line, self.game.apply(message, line), out)

    def _after_apply(self, message: Message, line: int, problems: List[Problem], out: List[Diagnostic]) -> None:
        """A message applied: hold its verdict if it broke a rule, else note it as applied."""
        self._note_end()
        if problems and any(is_error(p) for p in problems):
            recent = self._recent
            recent.append(line)
            if len(recent) > DENSE_FAULTS:
                del recent[0]
            if len(recent) < DENSE_FAULTS or line - recent[0] >= DENSE_LINES:
                self._fault = (message, line, problems)
                return
            out += self._diagnostics(problems, line)    # faults this dense: the log's reading, at once
        elif problems:
            out += self._diagnostics(problems, line)
        self._since.append((message, line))     # (applying it again gives the same state)
        if len(self._since) >= CHECKPOINT_EVERY:
            self._checkpoint()

    @property
    def rules_of_games(self) -> List[str]:
        """The rules each listed game follows (its map chose them), the game being replayed
        included."""
        if self.variants and self.game_count == len(self.starts):
            return self.variants[:-1] + [self.game.variant.name]
        return list(self.variants)

    def _note_end(self) -> None:
        if (self.game.phase == OVER and self.winners and self.winners[-1] is None
                and self.game_count == len(self.starts)):
            self.winners[-1] = self.game.current

    def _new_game(self) -> None:
        """A map after the end of a game starts the next one."""
        if self.variants and self.game_count == len(self.starts):
            self.variants[-1] = self.game.variant.name
        self.game = Game()
        self._checkpoint()

    def _checkpoint(self) -> None:
        self._base = self.game.clone()
        self._since = []

    def _state_before_fault(self) -> Game:
        game = self._base.clone()
        for message, line in self._since:
            game.apply(message, line)
        return game

    def _resolve(self, out: List[Diagnostic], at_end: bool) -> None:
        """Choose the fault's reading, report it, and replay what was read ahead from it."""
        assert self._fault is not None
        message, line, found = self._fault
        ahead = self._ahead
        self._fault, self._ahead = None, []
        before = self._state_before_fault()
        options = readings(before, message, line, found)
        chosen = options[0]
        if len(options) > 1:
            best: Optional[float] = None
            for read in options:
                trial = before.clone()
                # the lines read ahead that break a rule, then the errors on the line itself
                faults = sum(is_error(p) for p in read(trial)) / 1000
                for later, number, refused in ahead:
                    if trial.phase == OVER and action_of(later) == "DM":
                        break
                    if not refused:
                        faults += any(is_error(p) for p in trial.apply(later, number))
                if at_end:          # what a reading leaves unfinished counts against it too,
                    # and a log that stops where a reading ends the game is explained by it
                    faults += bool(trial.finish()) + (trial.phase != OVER) / 2
                if best is None or faults < best:
                    best, chosen = faults, read
        problems = chosen(before)
        self.game = before
        self._note_end()
        self._checkpoint()
        if found:                   # (a refused message was reported by its own layer)
            out += self._diagnostics(problems, line)
        for later, number, refused in ahead:
            if at_end and self.undecided:       # (a property: read anew after each message)
                self._ahead.append((later, number, refused))
            elif refused:
                self._feed_gap(later, number, out)
            else:
                self._feed(later, number, out)

    def _diagnostics(self, problems: List[Problem], line: int) -> List[Diagnostic]:
        return [make(p.code, p.message, file=self.file, line=line, pointer=p.pointer, hint=p.hint)
                for p in problems]

    def settled(self) -> Game:
        """The game as `settle` would leave it now, this replay going on unchanged: the state
        after a line as `sgn replay --at` gives it, for every line in one pass (the report page)."""
        if self._fault is None:
            return self.game
        twin = Replay()     # what resolving a fault changes, copied; the games are only read
        twin.file, twin.game, twin._base, twin._since = self.file, self.game, self._base, list(self._since)
        twin._fault, twin._ahead, twin._recent = self._fault, list(self._ahead), list(self._recent)
        twin.starts, twin.winners, twin.variants = list(self.starts), list(self.winners), list(self.variants)
        twin.game_count, twin.unlisted_from = self.game_count, self.unlisted_from
        twin.settle(self.file)
        return twin.game

    def settle(self, file: str) -> List[Diagnostic]:
        """Decide a fault still held, with what the log has left."""
        self.file = file
        out: List[Diagnostic] = []
        while self._fault is not None:
            self._resolve(out, at_end=True)
        return out

    def finish(self, file: str, line: int) -> List[Diagnostic]:
        """What the end of the log leaves unfinished (after deciding a fault still held)."""
        settled = self.settle(file)
        return settled + self._diagnostics(self.game.finish(), line)
