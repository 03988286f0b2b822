"""Recovery after a fault: the replay keeps every reading of a faulty message alive, side
by side, until what follows decides between them, so that one fault costs one error and
no reading hides a later fault.

When a message breaks a rule, `Replay` holds its verdict back and applies each reading of
it (`sgn/game/readings.py`) to a copy of the state from just before it: a `Fork` of
branches. Every later message is applied to every branch, and each counts what it breaks
(`sgn/game/fork.py`: a rule an engine leaves unenforced, broken again in a later turn,
costs less); a branch that costs a whole fault more than the best is dropped. The fork is
decided when one branch is left; or after HORIZON messages, by the preferred reading among
those left; or at the end of the log or game, by the fewest faults, counting what each
leaves unfinished. The chosen reading's diagnostics are reported, and the messages read
meanwhile are replayed from its state, each judged in its turn (so a fault among them
forks anew), unless its branch found them all clean, in which case its state is taken.

Bounds: at most HORIZON messages held, one branch per reading of one fault (nested faults
inside a fork are read as the log has them), and where faults come thicker than
DENSE_FAULTS within DENSE_LINES lines, no fork at all: each fault is reported at once.
The state just before a fault is rebuilt from a copy taken every CHECKPOINT_EVERY
messages (and after each fork) and the messages since: a clean log pays for the copies.

Longer than 400 lines: the one state machine of `Replay` (its docstring says why), which
alone sees where a game begins and ends (a map, a header: `sgn/game/header.py` checks it).
"""

from __future__ import annotations

from typing import Any, Callable, Final, List, Optional, Tuple

from .. import messages
from ..diagnostic import Diagnostic, Problem, make
from ..layers.records import ACTIONS as RECORD_ACTIONS
from .core import OVER, TURNS, Game, Message, Reading
from .doubt import MAX_WORLDS
from .fork import HORIZON, Branch, Fork, merge_alike
from .games_seen import MAX_GAMES_LISTED, GamesSeen
from .header import Header, Headers
from .readings import action_of, carry_first, cut_short, gap_readings, is_error, is_repeat, readings, repeated
from .rule_profiles import DEFAULT, for_game
from .turns import due_to_end

# A log whose faults come thicker than this (DENSE_FAULTS within DENSE_LINES lines) is read
# as it stands, each fault reported where it is, without forking: the readings then explain
# little, and trying them for every line would cost a hundred times a clean line.
DENSE_FAULTS: Final = 8
DENSE_LINES: Final = 64
CHECKPOINT_EVERY: Final = 128  # messages between two copies of the state

_NOTHING: Final[List[Diagnostic]] = []  # what most messages give (never changed by a caller)
BOUND_REACHED: Final = (
    f"the ways the hidden cards may lie grew past {MAX_WORLDS:,} here: from this line the replay keeps "
    "each hand's least and most, which never calls a legal move illegal but may miss a fault, so "
    "whether the log is legal is not decided"
)


class Replay:
    """The rules layer for one file, as a validation stage: the game, replayed with recovery.

    Called with each message in order, it returns the diagnostics that are now final, which
    may be those of an earlier line: while `undecided` is true, it holds back a fault's
    verdict (and the caller must hold back what other layers find on later lines).

    Longer than 250 lines: one state machine (a message comes, a fork opens, is fed, is
    decided, its messages are fed again), whose parts that stand alone are apart: the
    readings (`readings`) and the fork with its branches (`fork`)."""

    def __init__(self, rules: str = DEFAULT, on_state: Optional[Callable[[int, Game, Optional[Message]], None]] = None):
        self.rules = rules  # the rule profile each game of the log follows (sgn/game/rule_profiles.py)
        self.game = Game(rules)
        self.file = "<input>"
        self._base = self.game.clone()  # the state at the last checkpoint
        self._since: List[Tuple[Message, int]] = []  # the messages applied since, without a fault
        self._fork: Optional[Fork] = None
        # the games of the log, one after another: the line of each one's map, and its winner
        self.seen = GamesSeen()
        self._recent: List[int] = []  # the lines of the last DENSE_FAULTS faults
        self._after_refused = False  # the last message was refused by an earlier layer
        self._previous: Any = None  # the message of the line before (a line sent twice)
        self._map_refused = False  # the game's map was refused by an earlier layer
        self._refused: Any = None  # the value of the last line refused (what a loss there may be)
        self._bound_said = False  # bound-reached said for this game
        self._map: Any = None  # the value of the game's map (another map while it runs: a new game)
        self.headers = Headers()  # the header of the game being replayed, if it has one
        # told the state after each line it is fed, once that state is final (in line order,
        # a fault's lines once its reading is chosen), with the message applied (None: a
        # reading of the line, or nothing): the game is only to be read, at once
        self.on_state = on_state

    @property
    def undecided(self) -> bool:
        return self._fork is not None

    @property
    def held_from(self) -> Optional[int]:
        """The first line whose state (and verdict) is held, if one is."""
        return self._fork.line if self._fork is not None else None

    def __call__(self, message: Message, file: str, line: int) -> Tuple[List[Diagnostic], Message]:
        return self.feed(message, file, line), message

    def feed(self, message: Message, file: str, line: int) -> List[Diagnostic]:
        """The next message: the diagnostics now final (of this line or earlier ones)."""
        previous, self._previous = self._previous, message
        if self._after_refused:
            return self._feed_after_refused(message, file, line)
        fork = self._fork
        action = message[1]
        move = type(action) is not str or (action != "DM" and action != "HD")  # (a str: compared as one)
        if fork is None and move:
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
                if self.on_state is not None:
                    self.on_state(line, game, message)
                return _NOTHING if game.unseen.widened_at is None or self._bound_said else self._bound()
            self.file = file
            found: List[Diagnostic] = []
            if message == previous and is_repeat(message, problems):
                self._repeated(message, line, found)
            else:
                self._after_apply(message, line, problems, found)
        elif fork is not None and fork.pending and move:
            # the next common case, kept short too: the log's reading of a fault goes on alone
            # (`Fork.feed`, with `_feed`'s decision)
            self.file = file
            fork.read.append((message, line, False, None))
            carry = fork.branches[0]
            carry.apply(message, line)
            chosen = carry if len(fork.read) >= HORIZON else self._expand(fork) if carry.faults else None
            if chosen is None:
                return _NOTHING
            found = []
            self._decide(chosen, found)
        else:
            self.file = file
            found = []
            self._feed(message, line, found, previous)
        if self.game.unseen.widened_at is not None and not self._bound_said:
            found += self._bound()
        return found

    def gap(self, message: Any, file: str, line: int, repaired: Optional[Message] = None) -> List[Diagnostic]:
        """A message an earlier layer refused (it may be any JSON value), reported there: its
        evident repair, if it has one (`sgn/layers/repairs.py`), is read as one reading of the line;
        a roll is read as a roll of unknown result; else the message is read as lost, and the
        fault its loss causes next is explained by it (`readings.lost_readings`)."""
        self.file = file
        found: List[Diagnostic] = []
        if action_of(message) in RECORD_ACTIONS:
            # a record line refused tells nothing of the game's moves; but an end of turn is
            # read as the end of its seat's part, or of the part that is due (its refusal is
            # the one error)
            if action_of(message) == "ET" and self._fork is None and self.game.phase == TURNS:
                seat = message[0] if isinstance(message, list) and message else None
                seat = seat if seat in self.game.players else due_to_end(self.game)
                if seat is not None:
                    self.game.apply(messages.end_turn(seat), line)
                    self._since.append((messages.end_turn(seat), line))
            return found
        self.headers.faulted = True
        if action_of(message) == "DM" and self.game.board is None:
            # a map refused can be read in no way: its error is the one error, and the game is
            # not replayed (no `game-without-map` on the next line) unless a map follows
            self.game.without_map_reported = self._map_refused = True
            return found
        self._feed_gap(message, line, found, repaired)
        self._after_refused, self._refused, self._previous = True, message, None
        if self.game.unseen.widened_at is not None and not self._bound_said:
            found += self._bound()
        return found

    def _feed_after_refused(self, message: Message, file: str, line: int) -> List[Diagnostic]:
        """The message after one an earlier layer refused: a fault it shows may be the refused
        message's (read as lost), which its own layer has reported."""
        self.file = file
        found: List[Diagnostic] = []
        self._feed(message, line, found)
        self._after_refused = False
        return found

    def _feed_gap(self, message: Any, line: int, out: List[Diagnostic], repaired: Optional[Message]) -> None:
        fork = self._fork
        if fork is not None:
            chosen = fork.feed(message, line, True, repaired)
            if chosen is None and fork.pending and fork.branches[0].faults:
                chosen = self._expand(fork)
            if chosen is not None:
                self._decide(chosen, out)
            return
        options = gap_readings(self.game, message, repaired, line)
        if options:
            self._open(message, line, [], options, out)
        elif self.on_state is not None:
            self.on_state(line, self.game, None)

    def _feed(self, message: Message, line: int, out: List[Diagnostic], previous: Any = None) -> None:
        fork = self._fork
        if fork is not None:
            if message[1] == "DM" or message[1] == "HD":  # a map or header ends the game the fork is about first
                self._settle_into(out)
            else:
                chosen = fork.feed(message, line, False)
                if chosen is None and fork.pending and fork.branches[0].faults:
                    chosen = self._expand(fork)
                if chosen is not None:
                    self._decide(chosen, out)
                return
        if message[1] == "HD":
            problems, begins = self.headers.read(Header(line, message[2]), self.game, self.seen.starts)
            out += self._diagnostics(problems, line)
            if begins:
                self._new_game()
            return
        if message[1] == "DM" and self.game.board is not None and self.game.phase != OVER:
            if self.headers.ends_game or self.headers.cuts_short(line):
                self.game.phase = OVER  # (abandoned as its header says, or cut short as header-misplaced said)
            elif message[2] != self._map:  # another board: the game before was cut short, one begins
                out += self._diagnostics([cut_short(self.game, self.seen.starts)], line)
                self.game.phase = OVER
        if message[1] == "DM" and (self.game.board is None or self.game.phase == OVER):
            if self._map_refused and self.game.board is None:
                self.game.without_map_reported = self._map_refused = False  # (the map, sent again)
            if self.game.board is not None:
                out += self._diagnostics(self.headers.close(self.game) + self.headers.next_game(line), line)
                self._new_game()
            self.seen.begin(line, self.headers.value)
            self._map = message[2]
        problems = self.game.apply(message, line)
        if message == previous and is_repeat(message, problems):
            self._repeated(message, line, out)
        else:
            self._after_apply(message, line, problems, out)

    def _repeated(self, message: Message, line: int, out: List[Diagnostic]) -> None:
        """A message the same as the line before, which the rules refuse again: a line sent
        twice, reported once as that, and read as not made."""
        self.game = self._state_before_fault()
        out += self._diagnostics([repeated(message)], line)
        if self.on_state is not None:
            self.on_state(line, self.game, None)

    def _after_apply(self, message: Message, line: int, problems: List[Problem], out: List[Diagnostic]) -> None:
        """A message applied: fork on it if it broke a rule, else note it as applied."""
        self._note_end()
        if problems and any(is_error(p) for p in problems):
            recent = self._recent
            recent.append(line)
            if len(recent) > DENSE_FAULTS:
                del recent[0]
            if len(recent) < DENSE_FAULTS or line - recent[0] >= DENSE_LINES:
                if carry_first(problems, self._after_refused):
                    # the log's reading goes on alone, the others tried only if it breaks a
                    # rule (an engine's faults cost next to nothing: the move was made)
                    def made(g: Game) -> List[Problem]:
                        return g.apply(message, line)

                    self._fork = Fork(message, line, problems, [Branch(self.game, made, 0, problems)], pending=True)
                    return
                before = self._state_before_fault()
                options = readings(before, message, line, problems, self._after_refused, self._refused)
                if len(options) > 1:
                    self._open(message, line, problems, options, out, before)
                    return
            out += self._diagnostics(problems, line)  # one reading, or faults this dense: at once
        elif problems:
            out += self._diagnostics(problems, line)
        if self.on_state is not None:
            self.on_state(line, self.game, message)
        self._since.append((message, line))  # (applying it again gives the same state)
        if len(self._since) >= CHECKPOINT_EVERY:
            self._checkpoint()

    def _open(
        self,
        message: Any,
        line: int,
        found: List[Problem],
        options: List[Reading],
        out: List[Diagnostic],
        before: Optional[Game] = None,
    ) -> None:
        """Fork on a fault: one branch for each reading, from the state just before it;
        readings alike but for the hands are one, the hands in doubt (`fork.merge_alike`),
        and when that leaves one, there is nothing to decide."""
        if before is None:
            before = self._state_before_fault()
        branches = []
        for rank, read in enumerate(options):  # the last takes `before` itself: one copy fewer
            game = before.clone() if rank < len(options) - 1 else before
            branches.append(Branch(game, read, rank, read(game)))
        branches = merge_alike(branches)
        if len(branches) > 1:
            self._fork = Fork(message, line, found, branches)
            return
        (only,) = branches
        self.game = only.game
        self._note_end()
        self._checkpoint()  # (the reading is no message that can be applied again)
        if found:
            out += self._diagnostics(only.problems, line)
        if self.on_state is not None:
            self.on_state(line, self.game, None)

    def _expand(self, fork: Fork) -> Optional[Branch]:
        """A lazy fork whose log's reading broke a rule: the other readings tried now, from the
        state before the fault, through what was read since; the branch left, if one is."""
        fork.pending = False
        before = self._state_before_fault()
        options = readings(before, fork.message, fork.line, fork.found)
        carry = fork.branches[0]
        carry.read = options[0]
        others = options[1:]
        for rank, read in enumerate(others, 1):
            game = before.clone() if rank < len(others) else before
            branch = Branch(game, read, rank, read(game))
            for message, line, refused, repaired in fork.read:
                applied: Optional[Message] = repaired if refused else message
                if applied is not None:
                    branch.apply(applied, line)
            fork.branches.append(branch)
        return fork.decided()

    def _decide(self, chosen: Branch, out: List[Diagnostic]) -> None:
        """Report the chosen reading of the fault, and go on from its state: as its branch
        left it, when nothing since the fault broke a rule there; else by replaying what was
        read since, each message judged in its turn."""
        fork = self._fork
        assert fork is not None
        self._fork = None
        if self.on_state is not None and (fork.pending or chosen.clean):
            fork.tell_states(chosen, self._state_before_fault(), self.on_state)
        if fork.found:  # (a refused message was reported by its own layer)
            out += self._diagnostics(chosen.problems, fork.line)
        if fork.pending:  # the log's reading, never in doubt: it goes on as it is
            for line, problems in chosen.found:
                out += self._diagnostics(problems, line)
            since = self._since
            self.game = chosen.game
            self._note_end()
            if (
                len(since) + 1 + sum(1 for _, _, refused, repaired in fork.read if not refused or repaired is not None)
                >= CHECKPOINT_EVERY
            ):
                self._checkpoint()  # (what it held would be noted, then dropped at once)
                return
            since.append((fork.message, fork.line))
            for message, line, refused, repaired in fork.read:
                applied: Optional[Message] = repaired if refused else message
                if applied is not None:
                    since.append((applied, line))
            return
        if chosen.clean:
            self.game = chosen.game
            self._note_end()
            self._checkpoint()
            return
        before = self._state_before_fault()  # (the checkpoint and what followed it are as at the fault)
        chosen.read(before)
        self.game = before
        self._note_end()
        self._checkpoint()
        if self.on_state is not None:  # (the lines read since tell theirs as they are read again)
            self.on_state(fork.line, before, None)
        self._after_refused = not fork.found  # (a fork on a refused line: the next fault may be its loss)
        for message, line, refused, repaired in fork.read:
            if refused:
                self._feed_gap(message, line, out, repaired)
                self._after_refused = True
            else:
                self._feed(message, line, out)
                self._after_refused = False

    def _settle_into(self, out: List[Diagnostic]) -> None:
        while self._fork is not None:
            fork = self._fork
            if fork.pending and not fork.branches[0].ends_well():
                self._expand(fork)  # what the end leaves unfinished may favour another reading
            self._decide(fork.at_end(), out)

    def _note_end(self) -> None:
        self.seen.note_end(self.game)

    def _bound(self) -> List[Diagnostic]:
        """The bound of the ways the cards may lie, reached in this game: said once, where."""
        self._bound_said = True
        return [make("bound-reached", BOUND_REACHED, file=self.file, line=self.game.unseen.widened_at or 0)]

    def _new_game(self) -> None:
        """A map after the end of a game, or a header, starts the next one, under the rules
        its header names unless the run chose them."""
        self._bound_said = False
        if self.game.board is not None:
            self.seen.close(self.game)
        self.game = Game(for_game(self.rules, self.headers.rules))
        self.game.header = self.headers.value
        self._map_refused = False
        self._checkpoint()

    def _checkpoint(self) -> None:
        self._base = self.game.clone()
        self._since = []

    def _state_before_fault(self) -> Game:
        game = self._base.clone()
        for message, line in self._since:
            game.apply(message, line)
        return game

    def _diagnostics(self, problems: List[Problem], line: int) -> List[Diagnostic]:
        if not self.headers.faulted and any(is_error(p) for p in problems):
            self.headers.faulted = True
        return [make(p.code, p.message, file=self.file, line=line, pointer=p.pointer, hint=p.hint) for p in problems]

    def settle(self, file: str) -> List[Diagnostic]:
        """Decide a fault still held, with what the log has left."""
        self.file = file
        out: List[Diagnostic] = []
        self._settle_into(out)
        if self.game.unseen.widened_at is not None and not self._bound_said:
            out += self._bound()
        return out

    def finish(self, file: str, line: int) -> List[Diagnostic]:
        """What the end of the log leaves unfinished (after deciding a fault still held)."""
        settled = self.settle(file)
        left = [] if self.headers.ends_game else self.game.finish()
        return settled + self._diagnostics(left + self.headers.close(self.game), line)


__all__ = ["HORIZON", "MAX_GAMES_LISTED", "Replay", "action_of"]
