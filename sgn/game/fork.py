"""A fault whose verdict is held: its readings, each a `Branch` alive on a copy of the state,
side by side in a `Fork`, and the rule that drops them until one is left (`sgn/game/recovery.py`
says when a fork opens and what is done with the branch it leaves)."""

from __future__ import annotations

from typing import Any, Callable, Dict, Final, List, Optional, Tuple

from ..diagnostic import Problem
from . import ledger
from .core import OVER, Game, Message, Reading
from .readings import is_error

HORIZON: Final = 200  # messages a fork may hold before its preferred reading is taken
CONVERGENCE_EVERY: Final = 8  # messages between two looks at whether the branches have come together
RECURRENCE: Final = 0.1  # the cost of a line breaking a rule its branch already broke

# Rules an engine may leave unenforced, and then break again and again (a card played on
# the turn it was bought, a second card in a turn, a trade at another rate): broken again
# in a later turn, a habit of the log's source, not a sign that the reading is wrong. A rule
# of counts (a hand, a discard, the bank) broken again says the reading's state is wrong.
HABITS: Final = frozenset(
    {
        "card-bought-this-turn",
        "card-second-play",
        "trade-rate",
        "robber-same-tile",
        "special-build-trade",
        "special-build-card",
        "special-build-order",
    }
)


class Branch:
    """One reading of a fault, alive: its game, what it has cost since the fork, and the
    rules it has broken (a rule broken again costs less)."""

    def __init__(self, game: Game, read: Reading, rank: int, problems: List[Problem]):
        self.game, self.read, self.rank, self.problems = game, read, rank, problems
        errors = [p.code for p in problems if is_error(p)]
        self.faults = 0
        self.echoes = 0
        self.line_errors = len(errors)  # on the faulty line itself: the last tie-break
        self.seen: Dict[str, int] = dict.fromkeys(errors, game.turn)  # rule -> the turn it was last broken
        self.clean = True  # no message since the fork broke a rule here
        self.found: List[Tuple[int, List[Problem]]] = []  # what the messages since broke, by line

    @property
    def cost(self) -> float:
        return self.faults + RECURRENCE * self.echoes + self.line_errors / 1000

    def apply(self, message: Message, line: int) -> None:
        game = self.game
        problems = game.apply(message, line)
        if problems:
            self.found.append((line, problems))
            codes = [p.code for p in problems if is_error(p)]
            if codes:
                self.clean = False
                seen, turn = self.seen, game.turn
                if all(code in HABITS and seen.get(code, turn) != turn for code in codes):
                    self.echoes += 1  # rules broken before, in an earlier turn: a habit
                else:
                    self.faults += 1  # a new rule, or the same again in the same turn: a cascade
                for code in codes:
                    seen[code] = turn

    def ends_well(self) -> bool:
        """Whether this reading (the log's), having broken no rule since the fault, ends the
        game with nothing unfinished, or where it may have ended (cards drawn unseen that may
        be the winning points): then no other reading can explain the end of the log better."""
        game = self.game
        return not self.faults and (game.phase == OVER or game.unseen.end is not None) and not game.finish()


def merge_alike(branches: List[Branch]) -> List[Branch]:
    """Readings that leave the same state but for the hands, with the same errors on the
    faulty line, as one: what they disagree on is the hands, in doubt (`ledger.join`); the
    first (the preferred) stands for them."""
    out: List[Branch] = []
    keys: List[tuple] = []
    for branch in branches:
        key = (branch.game.public_key(), tuple(p.code for p in branch.problems if is_error(p)))
        for kept, seen in zip(out, keys):
            if seen == key:
                ledger.join(kept.game, branch.game)
                kept.read = _both(kept.read, branch.read)
                break
        else:
            out.append(branch)
            keys.append(key)
    return out


def _both(first: Reading, second: Reading) -> Reading:
    """A reading that is two readings at once: the hands as either leaves them."""

    def read(g: Game) -> List[Problem]:
        other = g.clone()
        found = first(g)
        second(other)
        ledger.join(g, other)
        return found

    return read


class Fork:
    """A fault whose verdict is held: the state before it, its branches, and the messages
    read since (message, line, refused by an earlier layer)."""

    def __init__(
        self, message: Message, line: int, found: List[Problem], branches: List[Branch], pending: bool = False
    ):
        self.message, self.line, self.found = message, line, found
        self.branches = branches
        # lazily: the log's reading alone (branches[0]) until it breaks a rule; the other
        # readings are not tried yet (`Replay._expand` tries them)
        self.pending = pending
        self.read: List[Tuple[Any, int, bool, Optional[Message]]] = []

    def feed(self, message: Any, line: int, refused: bool, repaired: Optional[Message] = None) -> Optional[Branch]:
        """A message after the fault: applied to every branch (a refused one in its evident
        repair, if it has one); the branch left, once one is."""
        self.read.append((message, line, refused, repaired))
        branches = self.branches
        applied: Optional[Message] = repaired if refused else message
        if applied is not None:
            for branch in branches:
                branch.apply(applied, line)
            if self.pending:  # lazily: the log's reading goes on, until it breaks a rule
                return branches[0] if len(self.read) >= HORIZON else None
        return self.decided()

    def decided(self) -> Optional[Branch]:
        """Drop the branches that cost a whole fault more than the best: the one left, once
        one is; or the branches left as one, once they have come to the same game but for the
        hands (`converged`); after HORIZON messages, the preferred of those left."""
        branches = self.branches
        best = min(b.faults + RECURRENCE * b.echoes for b in branches)
        branches = self.branches = [b for b in branches if b.faults + RECURRENCE * b.echoes < best + 1]
        if len(branches) == 1:
            return branches[0]
        if len(self.read) % CONVERGENCE_EVERY == 0 and self.converged():
            return self.branches[0]
        if len(self.read) >= HORIZON:
            return min(branches, key=lambda b: b.rank)
        return None

    def converged(self) -> bool:
        """Whether the branches left, none of which broke a rule since the fault, have come to
        the same game but for the hands (the robber moved on from the tiles they put it on,
        say): then they are one, the hands as any of them leaves them (`ledger.join`), and
        nothing later can tell them apart. They become the preferred one."""
        branches = sorted(self.branches, key=lambda b: b.rank)
        if not all(b.clean for b in branches):
            return False
        key = branches[0].game.public_key()
        if any(b.game.public_key() != key for b in branches[1:]):
            return False
        for other in branches[1:]:
            ledger.join(branches[0].game, other.game)
        self.branches = [branches[0]]
        return True

    def tell_states(self, chosen: Branch, game: Game, tell: Callable[[int, Game, Optional[Message]], None]) -> None:
        """The state after each line held, in the reading chosen: its messages applied again
        to `game`, a copy of the state before the fault (the branch kept only its end)."""
        chosen.read(game)
        tell(self.line, game, None)
        for message, line, refused, repaired in self.read:
            applied: Optional[Message] = repaired if refused else message
            if applied is not None:
                game.apply(applied, line)
            tell(line, game, applied)

    def at_end(self) -> Branch:
        """The branch that explains the log as it ends: the fewest faults, counting what a
        reading leaves unfinished (a log that stops where a reading ends the game is
        explained by it), then the preferred."""
        return min(
            self.branches,
            key=lambda b: (b.faults + bool(b.game.finish()) + (b.game.phase != OVER) / 2, b.line_errors, b.rank),
        )
