"""A cursor over one line of a text notation (HAN, HSGN): what both parsers need to say
exactly where a line goes wrong (its 1-based column), and to collect the warnings of
the rules a line may break and still be read.
"""

from __future__ import annotations

from typing import Dict, List, NoReturn, Optional, Tuple

RESOURCES = "BGLOW"
# The longest number (digits) or HAN column (letters) read: longer is an error, never
# computed (a million letters would take minutes to turn into a column number).
MAX_RUN = 9


def quoted(text: str, limit: int = 24) -> str:
    """A piece of the input as a message shows it: quoted, cut short when long."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def is_digit(ch: str) -> bool:
    """An ASCII digit: str.isdigit also takes others ('²', '١') that int() cannot read."""
    return "0" <= ch <= "9"


class NotationError(ValueError):
    """A line that does not parse: the message, and the 1-based column at fault."""

    def __init__(self, message: str, column: int):
        super().__init__(f"column {column}: {message}")
        self.column = column
        self.reason = message


class Cursor:
    """The text, the position in it, and the (column, message) warnings found so far."""

    error = NotationError

    def __init__(self, text: str):
        self.text = text
        self.at = 0
        self.warnings: List[Tuple[int, str]] = []

    def fail(self, message: str, at: Optional[int] = None) -> NoReturn:
        raise self.error(message, (self.at if at is None else at) + 1)

    def warn(self, at: int, message: str) -> None:
        self.warnings.append((at + 1, message))

    def peek(self) -> str:
        return self.text[self.at : self.at + 1]

    def found(self) -> str:
        return f"{self.peek()!r}" if self.peek() else "the end"

    def take(self, options: str, what: str) -> str:
        ch = self.peek()
        if not ch or ch not in options:
            self.fail(f"expected {what}, found {self.found()}")
        self.at += 1
        return ch

    def expect(self, literal: str) -> None:
        if not self.text.startswith(literal, self.at):
            self.fail(f"expected {literal!r}, found {self.found()}")
        self.at += len(literal)

    def run(self, allowed) -> str:
        """The longest run of characters for which `allowed` holds, consumed."""
        start = self.at
        while self.peek() and allowed(self.peek()):
            self.at += 1
        return self.text[start : self.at]

    def bounded(self, allowed, what: str) -> str:
        """A run, as `run` gives it, of at most MAX_RUN characters (`what` names it)."""
        start = self.at
        text = self.run(allowed)
        if len(text) > MAX_RUN:
            self.fail(f"{what} of {len(text)} characters is too long (at most {MAX_RUN})", start)
        return text

    def counts(self, *, one_is_style: bool, zero_is_whole: bool = False) -> Tuple[Dict[str, int], List[str]]:
        """Resources with optional counts (`B2O3W`), up to the first character that is no
        resource; the counts of a resource written twice are added. Returns the counts and
        the letters in the order written. A count with a leading zero (`02`) is an error at
        the zero, or with `zero_is_whole` (HAN's grammar, where `0` is a whole count) at the
        digit after it, where a parser of that grammar stops."""
        found: Dict[str, int] = {}
        order: List[str] = []
        while True:
            at = self.at
            r = self.take(RESOURCES, "a resource (B G L O W)")
            digits = self.bounded(is_digit, "a count")
            if digits.startswith("0") and digits != "0":
                if zero_is_whole:
                    self.fail(
                        f"expected a resource or ')' after the count 0, found {digits[1]!r} "
                        "(a count has no leading zero)",
                        at + 2,
                    )
                self.fail("a count has no leading zero", at + 1)
            n = int(digits) if digits else 1
            if digits == "1" and one_is_style:
                self.warn(at + 1, "a count of 1 SHOULD be omitted")
            if n == 0:
                self.warn(at + 1, f"a count of 0 {r}")
            if r in found:
                self.warn(at, f"{r} appears twice; the counts are added")
            found[r] = found.get(r, 0) + n
            order.append(r)
            if not self.peek() or self.peek() not in RESOURCES:
                return found, order


def format_counts(counts: Dict[str, int]) -> str:
    """Resources in the order B G L O W, counts of 1 left out: `B2O3W`."""
    return "".join(r + ("" if counts[r] == 1 else str(counts[r])) for r in RESOURCES if counts.get(r))
