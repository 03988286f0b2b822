"""Writing SGN from another engine's record: the `Writer` every converter writes to, the
sides of the trades the converters build (each message written by `sgn/messages.py`), and
how they report.

Every converter has one shape (docs/architecture.md, "The converters"): its module reads
the engine's record entry by entry (a JSettlers network message, a catanatron action) and
hands each to the handler its table names for the entry's kind (`jsettlers.HANDLERS`,
`catanatron_actions.HANDLERS`, as `sgn.game.turns.BUILDS` names the function of each
build): a function of the conversion (the engine's state of the game: its players, what an
action left open, a `Writer`) and the entry, which writes what the entry says to the writer.

An engine's record is converted as faithfully as it can be read: each move it
records becomes the SGN message that says the same, rules or no rules. Whether the
game followed the rulebook is `sgn validate`'s to say, not the converter's: a
converter that dropped or mended an illegal move would hide the engine's departure
from the rulebook, which is what its users most want to see. So the converter
reports only what stops it from reading the record: `engine-input` (an error: the
record is not of the engine's format, or a value in it is not what the format
allows) and `engine-unknown` (a warning: something the converter does not know,
left out, never guessed at). What it knows and SGN has no form for (a turn's end,
a trade offer that was refused) is left out without a word: SGN infers a turn's
end, and records what happened, not what was proposed.

Every message is an `Item` of `sgn.notation.convert` (where it was read, the message or
None, the diagnostics), so the writers of `sgn convert` take it as they take SGN
read from any other notation.
"""

from __future__ import annotations

from typing import Dict, List, Mapping, Optional

from .. import messages
from ..diagnostic import Diagnostic, make
from ..notation.reading import Item, Where

Counts = Dict[str, int]


class Unreadable(Exception):
    """A value of the engine's record that the converter cannot read: `pointer` says where
    (a JSON pointer for catanatron, the field for JSettlers), the message what is wrong."""

    def __init__(self, message: str, pointer: str = "") -> None:
        super().__init__(message)
        self.pointer = pointer


def problem(where: Where, code: str, message: str, pointer: str = "", severity: Optional[str] = None) -> Diagnostic:
    """A diagnostic at `where`; the pointer, when there is one, leads the sentence too, since
    `sgn convert` prints the sentence and not the pointer."""
    text = f"{pointer}: {message}" if pointer else message
    return make(code, text, file=where.file, line=where.line, column=where.column, pointer=pointer, severity=severity)


def unreadable(where: Where, error: Unreadable) -> Item:
    return where, None, [problem(where, "engine-input", str(error), error.pointer)]


class Writer:
    """The SGN messages of one record written so far, in order, with the diagnostics between
    them: each an `Item`. A handler writes what its entry says (`write`), reports what stops
    it (`report`), and takes back a move the engine undid (`take_back`)."""

    def __init__(self) -> None:
        self.out: List[Item] = []
        self.written: List[int] = []  # where in `out` each message is, in order

    def write(self, where: Where, message: list) -> None:
        self.written.append(len(self.out))
        self.out.append((where, message, []))

    def report(self, where: Where, code: str, message: str, pointer: str = "", severity: Optional[str] = None) -> None:
        """A problem of the record at `where`, in the output with no message."""
        self.out.append((where, None, [problem(where, code, message, pointer, severity)]))

    def unreadable(self, where: Where, error: Unreadable) -> None:
        self.out.append(unreadable(where, error))

    def last(self) -> Optional[list]:
        """The last message written (and not taken back), or None."""
        return self.out[self.written[-1]][1] if self.written else None

    def take_back(self, where: Where, message: list, what: str) -> None:
        """An action undone: its message taken out when it is the last one written (its place
        left empty: found at once, however many diagnostics follow it); otherwise it stays,
        with a warning, since SGN has no undo."""
        if self.written and self.last() == message:
            at = self.written.pop()
            self.out[at] = (self.out[at][0], None, [])
            return
        self.report(
            where,
            "no-counterpart",
            f"{what} undoes a move that is not the last one written: SGN has no undo, so the undo is "
            "left out and the move stays",
        )


def with_bank(player: str, given: Mapping[str, int], taken: Optional[Mapping[str, int]] = None) -> list:
    """Cards between a player and the bank, as an SGN trade: a discard when nothing is taken."""
    mine: Counts = {r: -n for r, n in given.items() if n}
    bank: Counts = {r: n for r, n in given.items() if n}
    for r, n in (taken or {}).items():
        if n:
            mine[r] = mine.get(r, 0) + n
            bank[r] = bank.get(r, 0) - n
    mine = {r: n for r, n in sorted(mine.items()) if n}
    bank = {r: n for r, n in sorted(bank.items()) if n}
    return messages.trade_with_bank(player, mine, bank)


def between(
    actor: str, first: str, first_gives: Mapping[str, int], second: str, second_gives: Mapping[str, int]
) -> list:
    """A trade between two players, sent by `actor` (either side may send it in SGN)."""
    a: Counts = {}
    b: Counts = {}
    for r, n in first_gives.items():
        a[r], b[r] = a.get(r, 0) - n, b.get(r, 0) + n
    for r, n in second_gives.items():
        a[r], b[r] = a.get(r, 0) + n, b.get(r, 0) - n
    return messages.trade(
        actor,
        first,
        {r: n for r, n in sorted(a.items()) if n},
        second,
        {r: n for r, n in sorted(b.items()) if n},
    )


def listing(tiles) -> List[list]:
    return [list(t) for t in tiles]
