"""What checking one file found: the one type from the check to the report.

`sgn.check` returns a `Result` with every diagnostic in a list. Each executor (this
process, `--jobs` workers, a Dask cluster) hands on a `Result` a file, in the files'
order, whose `diagnostics` stream by and whose counts and verdict are whole once they are
read; the reporters read the same `Result`. It pickles as it is, its diagnostics set to a
list first: workers send it back with the diagnostics apart (a spool, a part).

Not compiled, so that `help(sgn.Result)` reads the same in every build.
"""

from __future__ import annotations

from typing import Any, Dict, Generic, Iterable, Iterator, List, Optional, TypeVar

from ..diagnostic import ERROR, INFO, WARNING, Diagnostic

VALID, INVALID, UNREADABLE, UNDECIDED = "valid", "invalid", "unreadable", "undecided"
VERDICTS = (VALID, INVALID, UNREADABLE, UNDECIDED)  # in the order of their exit statuses, 0 to 3
# The worst first, for a run of several files: a file that cannot be read, an error in the
# data, then a log whose legality a bound left undecided, then valid.
WORST_FIRST = (UNREADABLE, INVALID, UNDECIDED, VALID)
# The code whose diagnostic leaves a log without an error undecided (docs/hidden.md, "The model").
BOUND = "bound-reached"

# what holds the diagnostics: a list (`sgn.check`), or a stream (in a run)
D = TypeVar("D", bound=Iterable[Diagnostic])


class Result(Generic[D]):
    """What checking one log found, as `sgn validate` reports it for one file.

    `verdict` is "valid" (no error), "invalid" (some error in the data), "unreadable"
    (the file could not be read at all: missing, a directory, unreadable) or "undecided" (no
    error, but the replay reached a bound past which it cannot tell: `bound-reached`); `level` is the
    level the log was checked at, `auto` resolved ("rules" for a game from its map,
    "semantic" for a fragment), or None when no message was read to decide it.
    `fragment` is true for a log with no map at its start (checked message by message,
    not replayed); `games` lists each game of a log (from the first 1,000), `game_count`
    counts them all. Compared by its fields; its repr leaves out the diagnostics and games.
    (A plain class, not a dataclass: the `dataclasses` module would cost every run of
    `sgn` a tenth of its start.)
    """

    verdict: str
    file: str
    level: Optional[str]
    messages: int  # the lines read as JSON values
    errors: int
    warnings: int
    infos: int
    diagnostics: D
    fragment: bool
    games: List[Dict[str, Any]]
    game_count: int

    _FIELDS = ("verdict", "file", "level", "messages", "errors", "warnings", "infos")  # (in its repr)
    _REST = ("diagnostics", "fragment", "games", "game_count")

    def __init__(
        self,
        verdict: str,
        file: str,
        level: Optional[str],
        messages: int = 0,
        errors: int = 0,
        warnings: int = 0,
        infos: int = 0,
        diagnostics: Optional[D] = None,
        fragment: bool = False,
        games: Optional[List[Dict[str, Any]]] = None,
        game_count: int = 0,
    ) -> None:
        self.verdict, self.file, self.level = verdict, file, level
        self.messages, self.errors, self.warnings, self.infos = messages, errors, warnings, infos
        # (none given: an empty list, which mypy cannot see is a D whatever D is)
        self.diagnostics = diagnostics if diagnostics is not None else []  # type: ignore[assignment]
        self.fragment = fragment
        self.games = games if games is not None else []
        self.game_count = game_count

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self._FIELDS + self._REST)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # (it changes as a run counts)

    def __repr__(self) -> str:
        return "Result(" + ", ".join(f"{name}={getattr(self, name)!r}" for name in self._FIELDS) + ")"

    @property
    def valid(self) -> bool:
        """True when the log has no error (warnings and infos do not count)."""
        return self.verdict == VALID

    @property
    def exit_code(self) -> int:
        """The exit status `sgn validate` gives for this file alone: 0, 1, 2 (unreadable) or 3
        (undecided)."""
        return VERDICTS.index(self.verdict)


Streamed = Result[Iterable[Diagnostic]]  # in a run: its diagnostics stream by


def worst(verdicts: Iterable[str]) -> str:
    """The verdict of a run of several files: the worst of theirs (valid when there are none)."""
    found = set(verdicts)
    return next((v for v in WORST_FIRST if v in found), VALID)


def kept(result: Streamed) -> Result[List[Diagnostic]]:
    """`result` with its diagnostics read into a list, its counts then whole."""
    diagnostics = list(result.diagnostics)
    return Result(
        result.verdict,
        result.file,
        result.level,
        result.messages,
        result.errors,
        result.warnings,
        result.infos,
        diagnostics,
        result.fragment,
        result.games,
        result.game_count,
    )


def count(result: Streamed, diagnostic: Diagnostic) -> None:
    """One more diagnostic of the file, in `result`'s counts and verdict (as many as it
    stands for: `occurrences`, past the list of one code in a file cut short)."""
    severity = diagnostic.severity
    if severity == ERROR:
        result.errors += diagnostic.occurrences
    elif severity == WARNING:
        result.warnings += diagnostic.occurrences
    elif severity == INFO:
        result.infos += diagnostic.occurrences
    if diagnostic.is_io:
        result.verdict = UNREADABLE
    elif severity == ERROR and result.verdict in (VALID, UNDECIDED):
        result.verdict = INVALID
    elif diagnostic.code == BOUND and result.verdict == VALID:
        result.verdict = UNDECIDED


def counting(result: Streamed, diagnostics: Iterable[Diagnostic]) -> Iterator[Diagnostic]:
    """`diagnostics`, each counted into `result` as it passes."""
    for diagnostic in diagnostics:
        count(result, diagnostic)
        yield diagnostic
