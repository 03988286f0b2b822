"""The reading loop: one file's lines, each through the stages of its level (`levels.py`;
`auto` is `rules` for a log that starts with a map), in one pass, with a visitor told of each
line and state (`visitor.py`). Stages are built anew for each file: a message stops at the
first stage that finds an error in it, the next line always goes on, and a stage's
`finish(file, last_line)` says what the end leaves undone."""

from __future__ import annotations

import bisect
import os
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple, cast

from ..diagnostic import Diagnostic, SourceTypeError, internal_error
from ..layers.columns import KeptLines
from ..layers.jsonline import parse_line
from ..layers.multiline import OpenValue, log_as_array
from ..layers.reader import UTF8_BOM, Source, describe
from ..layers.salvage import salvage
from ..layers.schema import V1
from ..layers.stages import AUTO, LEVELS, Stage, blocks, run_stages
from .checking import DEFAULT as DEFAULT_CHECKING, Checking
from .held import in_order, reading_on
from .levels import auto_level, build_stages

if TYPE_CHECKING:
    from ..layers.fastpath import Context, Memory
    from .policy import Policy
    from .visitor import Visitor

# Errors after which the reader gives no more lines.
_STREAM_ENDS = frozenset({"gzip-truncated", "gzip-corrupt", "read-error"})
NO_LIMIT = 1 << 60  # no last line: a small int of the compiled build (sys.maxsize is slow to compare)


class FileCheck:
    """Checks one source; after iteration, `messages` counts the lines read as JSON values.

    With `fast` (the default), lines already found free of diagnostics in the same
    context, and new lines that the compiled libraries find valid, skip the careful
    path (see `sgn/layers/fastpath.py`); the diagnostics are the same either way.

    Longer than 250 lines: the reading loop is one method, so that the common line costs
    no call, with what it needs at hand; the layers it runs live in `sgn/layers`, what is
    reported in `policy.py`, the replay in `sgn/game/recovery.py`.
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
        self.text_line = True  # whether the last line the careful path read was text
        self.name = name or describe(source)
        self.checking = checking = checking.for_path(self.name)  # (checked when it was made)
        level = checking.level
        self.level, self.profile, self.hidden, self.rules = level, checking.profile, checking.hidden, checking.rules
        self.max_line_bytes = checking.max_line_bytes
        self.fast = fast
        # the last line to check (for a state part-way: `reading_on` says how far past it the
        # replay may read); None: all
        self.until = visitor.until if visitor is not None else None
        self.requested = level
        self.open_value = OpenValue(self.name)  # a JSON value written over several lines
        self.messages = 0
        # per game of the log (a stream may hold several, each from its map): errors, warnings
        self._per_game: List[List[int]] = []
        self.line = 0  # the last line checked
        self.kept = KeptLines()  # the lines with a diagnostic, for its columns and excerpt
        self.stages: Optional[List[Stage]] = None
        if level != AUTO:
            self._use(level)
        if visitor is not None:
            visitor.begin(self)

    def _use(self, level: str) -> None:
        from ..layers.semantic import SemanticChecker

        self.level = level
        self.stages = build_stages(self.checking, level)
        # the stateless layers (their verdict on a line remembered), and the replay
        self.replay = None
        if level == "rules":  # (the game's modules are imported for the rules level only)
            from ..game.recovery import Replay

            self.replay = next((s for s in self.stages if isinstance(s, Replay)), None)
        self.checks = [s for s in self.stages if s is not self.replay]
        self.semantic = next((s for s in self.stages if isinstance(s, SemanticChecker)), None)
        if self.replay is not None and self.visitor is not None and self.visitor.tells_states():
            self.replay.on_state = self.visitor.visit_state
        self.layers = LEVELS[min(LEVELS.index(level), LEVELS.index("semantic"))]

    def _careful(self, reader, number: int, raw: bytes) -> Tuple[List[Diagnostic], Any]:
        """Every layer, with explanations: (diagnostics, message or None if unparsed)."""
        line, found = reader.decode(number, raw)
        self.text_line = line is not None  # (a blank line, or no UTF-8, is no line of the log)
        if line is None:
            return found, None
        parsed = parse_line(line.text, file=self.name, line=number)
        if isinstance(parsed, Diagnostic):
            if parsed.code == "invalid-json":
                opens, error = self.open_value.opens(line.text, number)
                if opens:
                    return found + ([error] if error is not None else []), None
            return found + [parsed], None
        whole = log_as_array(parsed[0], self.name, number)
        if whole is not None:
            return found + [whole], None
        if self.stages is None:
            self._use(auto_level(parsed[0]))
        checks = self.checks
        if self.fast and checks:
            from ..layers.fastpath import schema_valid_value

            if schema_valid_value(parsed[0], self.profile != V1):
                checks = checks[1:]  # the compiled check says the schema has nothing to say
        more, message = run_stages(checks, parsed[0], self.name, number)
        return found + more, message

    def _repaired(self, value: Any, number: int) -> Any:
        """The message a refused one evidently means (sgn/layers/repairs.py), if the layers pass it:
        a reading of the line for the replay. None when there is none."""
        from ..layers.repairs import evident_repair

        candidate = evident_repair(value)
        if candidate is None or candidate[1] == "DM":  # (a map is never guessed)
            return None
        more, message = run_stages(self.checks, candidate, self.name, number)
        return None if any(blocks(d) for d in more) else message

    def _context(self, memory: "Memory") -> "Context":
        """The lines known to be free of diagnostics in the current context."""
        return memory.known((self.profile, self.hidden, self.layers, self.semantic.map_key if self.semantic else 0))

    @property
    def fragment(self) -> bool:
        """Whether `auto` found no map at the start: the log is checked message by message
        (semantic), and no game is replayed."""
        return self.requested == AUTO and self.level == "semantic"

    @property
    def games(self) -> List[Dict[str, Any]]:
        """Each game of the log, in order (after iteration): the line of its map, its errors
        and warnings, its winner (None if it did not end) and the rules it followed (the
        variant its map chose). Empty below the rules level;
        at most the first 1,000 (`recovery.MAX_GAMES_LISTED`), so that memory stays bounded."""
        replay = getattr(self, "replay", None)
        return replay.seen.listing(self._per_game, replay.game) if replay is not None else []

    @property
    def game_count(self) -> int:
        """The games of the log, listed in `games` or not (past the first 1,000)."""
        replay = getattr(self, "replay", None)
        return replay.seen.count if replay is not None else 0

    def __iter__(self) -> Iterator[Diagnostic]:
        """The file's diagnostics, in line order, as its policy reports them (sgn/pipeline/policy.py,
        `capped` too): the counts of each game are of what is reported, past the cap too."""
        from .policy import capped

        found = self._placed()
        if self.policy is not None:
            found = self.policy.apply(self.name, found)
        return capped(self._counted(found))

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
        if found or (undecided and raw.strip()):
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

    def _counted(self, diagnostics: Iterator[Diagnostic]) -> Iterator[Diagnostic]:
        per_game = self._per_game
        for found in diagnostics:
            replay = getattr(self, "replay", None)
            if (
                replay is not None
                and replay.seen.starts
                and found.line
                and not (replay.seen.unlisted_from and found.line >= replay.seen.unlisted_from)
            ):
                game = bisect.bisect_right(replay.seen.starts, found.line) - 1
                if game >= 0:
                    while len(per_game) <= game:
                        per_game.append([0, 0])
                    per_game[game][0] += found.occurrences if found.is_error else 0
                    per_game[game][1] += found.occurrences if found.severity == "warning" else 0
            yield found

    def _diagnostics(self) -> Iterator[Diagnostic]:
        from ..layers import fastpath
        from ..layers.reader import LogReader

        name = self.name
        open_value = self.open_value
        reader = LogReader(self.source, name=name, max_line_bytes=self.max_line_bytes, open_value=open_value)
        memory = fastpath.MEMORY
        fast = self.fast
        records = self.profile != V1  # (record lines are read: docs/format.md, "Records")
        schema_valid_message = fastpath.schema_valid_message
        context = self._context(memory) if fast and self.stages is not None else fastpath.Context()
        known: Dict[bytes, Any] = context.lines
        not_kept = fastpath.NOT_KEPT
        replay = getattr(self, "replay", None)
        loads = fastpath.loads
        messages = 0
        until = self.until if self.until is not None else NO_LIMIT
        stopped = False
        # while the replay holds back the verdict on a fault (it reads a few messages past it
        # first), what the other layers find on later lines waits too: the output stays in
        # line order. Each entry: (line, order found, diagnostic).
        held: List[Tuple[int, int, Diagnostic]] = []
        observer = self.observer
        last: Optional[Tuple[int, bytes]] = None  # the last line read
        for item in reader:
            if type(item) is not tuple:  # (a diagnostic, a NamedTuple: a test of the type is quick)
                last, found_ = None, cast(Diagnostic, item)
                if (found_.line or 0) > until:
                    if reading_on(replay, until):
                        continue
                    stopped = True
                    break
                self.messages = messages  # counted so far, should the reader stop here
                # (an error that ends the stream waits for what the end of the file brings)
                yield from in_order(
                    [found_],
                    held,
                    reader.number,
                    bool(held) or found_.code in _STREAM_ENDS or (replay is not None and replay.undecided),
                )
                continue
            number, raw = last = cast(Tuple[int, bytes], item)
            if number > until and not reading_on(replay, until):
                stopped = True
                break
            self.line = number
            if open_value.pending and raw.strip():  # the first such value's error, now decidable
                decided = open_value.decide(raw)
                if decided is not None:
                    yield from in_order([decided], held, number, replay is not None and replay.undecided)
            if open_value.start:  # a line after one that left a JSON value open
                piece, info = open_value.piece(raw, number)
                if piece:
                    if observer is not None and raw.strip():
                        observer(number, None)
                    if info is not None:
                        self.messages = messages
                        yield from in_order([info], held, number, replay is not None and replay.undecided)
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
                    if found or (held and not undecided):
                        self.messages = messages  # counted so far, should the reader stop here
                        yield from in_order(found, held, number, undecided)
                elif observer is not None:
                    observer(number, loads(raw) if seen is not_kept else seen)
                continue
            plain = raw[-1:] != b"\r" and (number > 1 or not raw.startswith(UTF8_BOM))
            value = schema_valid_message(raw, records) if fast and plain else None
            if value is not None:
                if self.stages is None:
                    self._use(auto_level(value))
                found = run_stages(self.checks[1:], value, name, number)[0]
            else:
                found, value = self._careful(reader, number, raw)
            if value is not None:
                messages += 1
                replay = self.replay
                if fast:
                    context = self._context(memory)  # it may have changed (a map, the level)
                    known = context.lines
                if not any(blocks(d) for d in found):
                    if replay is not None:
                        found = found + replay.feed(value, name, number)
                    if fast and plain and not found and isinstance(value, list) and len(value) > 1 and value[1] != "DM":
                        memory.remember(context, raw, value if replay is not None else not_kept)
                elif replay is not None:  # refused here: the replay notes the gap
                    found = found + replay.gap(value, name, number, self._repaired(value, number))
            elif replay is not None and raw.strip() and not open_value.start and any(d.is_error for d in found):
                found = found + replay.gap(salvage(raw), name, number)  # no JSON: read as far as it can be
            if observer is not None and (value is not None or self.text_line):
                observer(number, value)
            undecided = replay is not None and replay.undecided
            found = self._kept(number, raw, found, undecided)
            if found or (held and not undecided):
                self.messages = messages  # counted so far, should the reader stop here
                yield from in_order(found, held, number, undecided)
        if open_value.pending:
            decided = open_value.decide(None)
            if decided is not None:
                held.append((decided.line or reader.number, len(held), decided))
        if open_value.reported and not stopped:
            rest = open_value.summary(reader.number)
            if rest is not None:
                held.append((rest.line or reader.number, len(held), rest))
        self.messages = messages
        # the end: a fault still undecided, what the file's end and each stage's end bring, and
        # what was held, all in line order
        tail: List[Diagnostic] = []
        if last is not None:
            self.kept.keep(*last)  # the last line read: what the end reports is placed on it
        if replay is not None and replay.undecided:  # decided with what the log has left
            tail += replay.settle(name)
        if stopped:
            self.line = until  # stopped part-way: the end of the file is not checked
        else:
            self.line = reader.number
            tail += reader.finish()
            for stage in self.stages or ():
                finish = getattr(stage, "finish", None)
                if finish is not None:
                    tail += finish(name, reader.number)
        if tail or held:
            yield from in_order(tail, held, reader.number, False)


class Reading(NamedTuple):
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
) -> Reading:
    """Read the log once as `checking` says, telling `visitor`, each diagnostic of a line up
    to its `until` to `report`. A file that cannot be read at all ends the visit (result None)."""
    check = FileCheck(source, checking, name=name, visitor=visitor)
    last = visitor.until
    errors = 0
    for found in check:
        if found.is_io:
            report(found)
            return Reading(None, errors + found.is_error)
        if last is not None and (found.line or 0) > last:
            continue
        report(found)
        errors += found.is_error
    return Reading(visitor.result(), errors)


__all__ = ["FileCheck", "Reading", "visit"]
