"""The reading loop: one file's lines, each through the stages of its level (`levels.py`;
`auto` is `rules` for a log that starts with a map), in one pass, with a visitor told of each
line and state (`visitor.py`). Stages are built anew for each file: a message stops at the
first stage that finds an error in it, the next line always goes on, and a stage's
`finish(file, last_line)` says what the end leaves undone."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple, cast

from ..diagnostic import Diagnostic, SourceTypeError, internal_error
from ..layers.columns import KeptLines
from ..layers.reader import UTF8_BOM, Source, describe
from ..layers.salvage import salvage
from ..layers.stages import AUTO, blocks, run_stages
from .checking import DEFAULT as DEFAULT_CHECKING, Checking
from .file_stages import FileStages
from .held import Held, reading_on
from .levels import auto_level
from .per_game import PerGame

if TYPE_CHECKING:
    from ..game.recovery import Replay
    from ..layers.fastpath import Context, Memory
    from ..layers.reader import LogReader
    from .policy import Policy
    from .visitor import Visitor

NO_LIMIT = 1 << 60  # no last line: a small int of the compiled build (sys.maxsize is slow to compare)


class FileCheck:
    """Checks one source; after iteration, `messages` counts the lines read as JSON values.

    With `fast` (the default), lines already found free of diagnostics in the same
    context, and new lines that the compiled libraries find valid, skip the careful
    path (see `sgn/layers/fastpath.py`); the diagnostics are the same either way. The
    stages a line goes through are `file_stages.FileStages`; what is held back while the
    replay weighs a fault, `held.Held`; each game's counts, `per_game.PerGame`.
    """

    def __init__(
        self,
        source: Source,
        checking: Checking = DEFAULT_CHECKING,
        *,
        name: Optional[str] = None,
        fast: bool = True,
        policy: Optional["Policy"] = None,
        visitor: Optional["Visitor"] = None,
    ):
        self.source = source
        self.policy = policy  # what is reported (select, ignore, --max-errors); None: all
        # told each line and each state as this pass reads them, and where to stop (visitor.py)
        self.visitor = visitor
        self.observer = visitor.visit_line if visitor is not None and visitor.tells_lines() else None
        self.name = name or describe(source)
        self.checking = checking = checking.for_path(self.name)  # (checked when it was made)
        self.rules = checking.rules
        self.fast = fast
        # the last line to check (for a state part-way: `reading_on` says how far past it the
        # replay may read); None: all
        self.until = visitor.until if visitor is not None else None
        on_state = visitor.visit_state if visitor is not None and visitor.tells_states() else None
        self.file_stages = FileStages(checking, self.name, on_state)
        self.messages = 0
        self.per_game = PerGame()
        self.line = 0  # the last line checked
        self.kept = KeptLines()  # the lines with a diagnostic, for its columns and excerpt
        self.context: Optional["Context"] = None  # the fast path's lines known in this context
        if visitor is not None:
            visitor.begin(self)

    @property
    def level(self) -> str:
        """The level the file is checked at: the one asked, or the one `auto` stood for."""
        return self.file_stages.level

    @property
    def replay(self) -> Optional["Replay"]:
        """The rules replay (None below the rules level, or before `auto` decides)."""
        return self.file_stages.replay

    @property
    def fragment(self) -> bool:
        """Whether `auto` found no map at the start: the log is checked message by message
        (semantic), and no game is replayed."""
        return self.checking.level == AUTO and self.file_stages.level == "semantic"

    @property
    def games(self) -> List[Dict[str, Any]]:
        """Each game of the log, in order (after iteration): the line of its map, its errors
        and warnings, its winner (None if it did not end) and the rules it followed (the
        variant its map chose). Empty below the rules level;
        at most the first 1,000 (`recovery.MAX_GAMES_LISTED`), so that memory stays bounded."""
        return self.per_game.listing(self.file_stages.replay)

    @property
    def game_count(self) -> int:
        """The games of the log, listed in `games` or not (past the first 1,000)."""
        replay = self.file_stages.replay
        return replay.seen.count if replay is not None else 0

    def __iter__(self) -> Iterator[Diagnostic]:
        """The file's diagnostics, in line order, as its policy reports them (sgn/pipeline/policy.py,
        `capped` too): the counts of each game are of what is reported, past the cap too."""
        from .policy import capped

        found = self._placed()
        if self.policy is not None:
            found = self.policy.apply(self.name, found)
        file_stages = self.file_stages
        return capped(self.per_game.counted(found, lambda: file_stages.replay))

    def _placed(self) -> Iterator[Diagnostic]:
        """Each diagnostic with the columns of its pointer's value and the excerpt of its line
        (sgn/layers/columns.py), from the lines the loop kept (`self.kept`)."""
        placed = self.kept.placed
        for found in self._guarded():
            yield placed(found)

    def _kept(self, number: int, raw: bytes, found: List[Diagnostic], undecided: bool) -> List[Diagnostic]:
        """Keeps line `number` while a diagnostic may still come on it (the replay is undecided,
        and the line is not blank), and gives `found` its columns now: a diagnostic the replay
        holds back may be reported hundreds of lines later, when its line is no longer kept."""
        if found or (undecided and (raw[:1] == b"[" or raw.strip())):  # (a message's line, at once)
            self.kept.keep(number, raw)
        if found:
            placed = self.kept.placed
            found = [placed(d) for d in found]
        return found

    def _guarded(self) -> Iterator[Diagnostic]:
        """Whatever fails inside the check is this file's `internal-error`, never an
        exception: one file's fault costs that file only."""
        try:
            yield from self._diagnostics()
        except SourceTypeError:  # the caller passed what no log is read from: theirs to see
            raise
        except Exception as error:  # a bug of sgn's: reported, not raised (SGN_DEBUG=1 raises)
            if os.environ.get("SGN_DEBUG"):
                raise
            yield internal_error(error, self.name, self.line)

    def _diagnostics(self) -> Iterator[Diagnostic]:
        """The loop: a line seen before in the same context costs a dictionary look-up (and
        the replay, at the rules level); the rest is in methods off that path."""
        from ..layers import fastpath
        from ..layers.reader import LogReader

        name, stages, observer = self.name, self.file_stages, self.observer
        open_value = stages.open_value
        reader = LogReader(self.source, name=name, max_line_bytes=self.checking.max_line_bytes, open_value=open_value)
        memory = fastpath.MEMORY
        # (no line is known while the fast path is off, or the level not yet known)
        context = stages.context(memory) if self.fast and stages.stages is not None else fastpath.Context()
        self.context = context
        known: Dict[bytes, Any] = context.lines
        not_kept, loads, schema_valid = fastpath.NOT_KEPT, fastpath.loads, fastpath.schema_valid_message
        replay = stages.replay
        messages = 0
        until = self.until if self.until is not None else NO_LIMIT
        stopped = False
        held = Held()  # (what later lines give waits while the replay weighs a fault)
        last: Optional[bytes] = None  # the last line read, if the last item was one (its number: `number`)
        number = 0
        for item in reader.raw():
            if type(item) is not bytes:  # (a diagnostic: a test of the type is quick)
                last = None
                told = held.told(cast(Diagnostic, item), replay, reader.number, until)
                if told is None:
                    stopped = True
                    break
                self.messages = messages  # counted so far, should the reader stop here
                yield from told
                continue
            raw = last = item
            number = reader.number
            if number > until and not reading_on(replay, until):
                stopped = True
                break
            self.line = number
            if open_value.pending or open_value.start:
                self.messages = messages
                out, piece = self._open_value(raw, number, held)
                yield from out
                if piece:
                    continue
            seen = known.get(raw)
            if seen is not None:  # the common case: a line seen before, in this context
                messages += 1
                if replay is not None:
                    message = loads(raw) if seen is not_kept else seen
                    found = replay.feed(message, name, number)
                    if observer is not None:
                        observer(number, message)
                    # (nothing to do while the replay is undecided and this line found nothing)
                    undecided = replay.undecided
                    found = self._kept(number, raw, found, undecided)
                    if found or (held.entries and not undecided):
                        self.messages = messages  # counted so far, should the reader stop here
                        yield from held.release(found, number, undecided)
                elif observer is not None:
                    observer(number, loads(raw) if seen is not_kept else seen)
                continue
            found, value = self._new_line(reader, number, raw, memory, schema_valid, not_kept)
            replay = stages.replay
            if value is not None:
                messages += 1
                known = self.context.lines  # (it may have changed: a map, the level)
            if observer is not None and (value is not None or stages.text_line):
                observer(number, value)
            undecided = replay is not None and replay.undecided
            found = self._kept(number, raw, found, undecided)
            if found or (held.entries and not undecided):
                self.messages = messages  # counted so far, should the reader stop here
                yield from held.release(found, number, undecided)
        self.messages = messages
        yield from self._end(reader, (number, last) if last is not None else None, held, stopped, until)

    def _open_value(self, raw: bytes, number: int, held: Held) -> Tuple[List[Diagnostic], bool]:
        """A line after one that left a JSON value open (sgn/layers/multiline.py): what to
        report now, and whether the line is a piece of that value (read no further)."""
        stages = self.file_stages
        open_value, replay = stages.open_value, stages.replay
        out: List[Diagnostic] = []
        if open_value.pending and raw.strip():  # the first such value's error, now decidable
            decided = open_value.decide(raw)
            if decided is not None:
                out += held.release([decided], number, replay is not None and replay.undecided)
        if not open_value.start:
            return out, False
        piece, info = open_value.piece(raw, number)
        if piece:
            if self.observer is not None and raw.strip():
                self.observer(number, None)
            if info is not None:
                out += held.release([info], number, replay is not None and replay.undecided)
        return out, piece

    def _new_line(
        self, reader: "LogReader", number: int, raw: bytes, memory: "Memory", schema_valid: Callable, not_kept: Any
    ) -> Tuple[List[Diagnostic], Any]:
        """A line not seen before in this context: the compiled check first, the careful path
        where it refuses; fed to the replay (or read as a gap where a layer refused it), and
        remembered when it found nothing. (diagnostics, message or None if unparsed)"""
        stages, name, fast = self.file_stages, self.name, self.fast
        plain = raw[-1:] != b"\r" and (number > 1 or not raw.startswith(UTF8_BOM))
        value = schema_valid(raw, stages.records, stages.hidden) if fast and plain else None
        if value is not None:
            if stages.stages is None:
                stages.use(auto_level(value))
            found = run_stages(stages.checks[1:], value, name, number)[0]
            if stages.replay is not None and isinstance(value, list) and len(value) == 3 and value[1] != "DM":
                value = _interned(value)  # (the replay's look-ups by its strings, at once)
        else:
            found, value = stages.careful(reader, number, raw, fast)
        replay = stages.replay
        if value is not None:
            if fast:
                self.context = stages.context(memory)  # it may have changed (a map, the level)
            if not any(blocks(d) for d in found):
                if replay is not None:
                    found = found + replay.feed(value, name, number)
                if fast and plain and not found and isinstance(value, list) and len(value) > 1 and value[1] != "DM":
                    memory.remember(cast("Context", self.context), raw, value if replay is not None else not_kept)
            elif replay is not None:  # refused here: the replay notes the gap
                found = found + replay.gap(value, name, number, stages.repaired(value, number))
        elif replay is not None and raw.strip() and not stages.open_value.start and any(d.is_error for d in found):
            found = found + replay.gap(salvage(raw), name, number)  # no JSON: read as far as it can be
        return found, value

    def _end(
        self, reader: "LogReader", last: Optional[Tuple[int, bytes]], held: Held, stopped: bool, until: int
    ) -> List[Diagnostic]:
        """The end: what the stages leave (`FileStages.ending`) and what was held, in line order."""
        if last is not None:
            self.kept.keep(*last)  # the last line read: what the end reports is placed on it
        self.line = until if stopped else reader.number  # (stopped part-way: the end is not checked)
        tail = self.file_stages.ending(reader, held, stopped)
        return held.release(tail, reader.number, False) if tail or held.any() else []


def _interned(value: Any) -> Any:
    from ..layers.fastpath import interned  # (imported where the fast path is in use)

    return interned(value)


class Visited(NamedTuple):
    """A visit's outcome: the visitor's result (None: the log cannot be read), and its errors."""

    result: Any
    errors: int


def visit(
    source,
    visitor: Visitor,
    checking: Checking,
    *,
    name: str,
    report: Callable[[Diagnostic], None] = lambda d: None,
) -> Visited:
    """Read the log once as `checking` says, telling `visitor`, each diagnostic of a line up
    to its `until` to `report`. A file that cannot be read at all ends the visit (result None)."""
    check = FileCheck(source, checking, name=name, visitor=visitor)
    last = visitor.until
    errors = 0
    for found in check:
        if found.is_io:
            report(found)
            return Visited(None, errors + found.is_error)
        if last is not None and (found.line or 0) > last:
            continue
        report(found)
        errors += found.is_error
    return Visited(visitor.result(), errors)


__all__ = ["FileCheck", "Visited", "visit"]
