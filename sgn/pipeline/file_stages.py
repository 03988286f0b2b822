"""The stages one file's lines go through, once its level is known (`auto` decides it from
the first message: `levels.auto_level`): the layers of one message, then the replay. With
them, what the reading loop (`engine.FileCheck`) asks of them off its common path: the
careful path that explains what the compiled check refuses, the evident reading of a
refused message, and the key under which the fast path remembers the lines known to be
free of diagnostics (sgn/layers/fastpath.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, List, Optional, Tuple

from ..diagnostic import Diagnostic
from ..layers.hidden import ALLOW
from ..layers.jsonline import parse_line
from ..layers.multiline import OpenValue, log_as_array
from ..layers.schema import V1
from ..layers.stages import AUTO, LEVELS, Stage, blocks, run_stages
from .checking import Checking
from .levels import auto_level, build_stages

if TYPE_CHECKING:
    from ..game.core import Game, Message
    from ..game.recovery import Replay
    from ..layers.fastpath import Context, Memory
    from ..layers.reader import LogReader
    from .held import Held

# Told the state after each line, once final (`Visitor.visit_state`).
OnState = Callable[[int, "Game", Optional["Message"]], None]


class FileStages:
    """The stages of one file, built when its level is known (at once, unless `auto`)."""

    def __init__(self, checking: Checking, name: str, on_state: Optional[OnState] = None) -> None:
        self.checking, self.name, self.on_state = checking, name, on_state
        self.level = checking.level
        self.records = checking.profile != V1  # (record lines are read: docs/format.md, "Records")
        self.hidden = self.records and checking.hidden == ALLOW  # (hidden values are read: docs/hidden.md)
        self.open_value = OpenValue(name)  # a JSON value written over several lines
        self.text_line = True  # whether the last line the careful path read was text
        self.stages: Optional[List[Stage]] = None
        self.checks: List[Stage] = []  # the stateless layers (their verdict on a line remembered)
        self.replay: Optional["Replay"] = None
        self.semantic: Any = None
        self.layers = ""
        if checking.level != AUTO:
            self.use(checking.level)

    def use(self, level: str) -> None:
        """Build the stages of `level` (not `auto`)."""
        from ..layers.semantic import SemanticChecker

        self.level = level
        self.stages = stages = build_stages(self.checking, level, self.on_state)
        if level == "rules":  # (the game's modules are imported for the rules level only)
            from ..game.recovery import Replay

            self.replay = next((s for s in stages if isinstance(s, Replay)), None)
        self.checks = [s for s in stages if s is not self.replay]
        self.semantic = next((s for s in stages if isinstance(s, SemanticChecker)), None)
        self.layers = LEVELS[min(LEVELS.index(level), LEVELS.index("semantic"))]

    def careful(self, reader: "LogReader", number: int, raw: bytes, fast: bool) -> Tuple[List[Diagnostic], Any]:
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
            self.use(auto_level(parsed[0]))
        checks = self.checks
        if fast and checks:
            from ..layers.fastpath import schema_valid_value

            if schema_valid_value(parsed[0], self.records, self.hidden):
                checks = checks[1:]  # the compiled check says the schema has nothing to say
        more, message = run_stages(checks, parsed[0], self.name, number)
        return found + more, message

    def repaired(self, value: Any, number: int) -> Any:
        """The message a refused one evidently means (sgn/layers/repairs.py), if the layers
        pass it: a reading of the line for the replay. None when there is none."""
        from ..layers.repairs import evident_repair

        candidate = evident_repair(value)
        if candidate is None or candidate[1] == "DM":  # (a map is never guessed)
            return None
        more, message = run_stages(self.checks, candidate, self.name, number)
        return None if any(blocks(d) for d in more) else message

    def ending(self, reader: "LogReader", held: "Held", stopped: bool) -> List[Diagnostic]:
        """What the end of the file brings (all of it `stopped` part-way short of it): an open
        value's error (held), a fault still undecided decided with what the log has left,
        the reader's end and each stage's `finish`."""
        open_value, replay, name = self.open_value, self.replay, self.name
        if open_value.pending:
            decided = open_value.decide(None)
            if decided is not None:
                held.add(decided, reader.number)
        if open_value.reported and not stopped:
            rest = open_value.summary(reader.number)
            if rest is not None:
                held.add(rest, reader.number)
        tail: List[Diagnostic] = []
        if replay is not None and replay.undecided:
            tail += replay.settle(name)
        if not stopped:
            tail += reader.finish()
            for stage in self.stages or ():
                finish = getattr(stage, "finish", None)
                if finish is not None:
                    tail += finish(name, reader.number)
        return tail

    def context(self, memory: "Memory") -> "Context":
        """The lines known to be free of diagnostics in the current context."""
        checking = self.checking
        semantic = self.semantic
        return memory.known((checking.profile, checking.hidden, self.layers, semantic.map_key if semantic else 0))


__all__ = ["FileStages", "OnState"]
