"""Validation: the stages composed for a level and a profile.

A level names the last layer that runs: `syntax` (bytes, lines, JSON),
`schema` (the shape of each message), `semantic` (the meaning of each message,
against the last map of the log), `rules` (the replay of the whole game).
`auto`, the default, is `rules` for a log whose first message is a map (DM),
a game from its start, and `semantic` for any other log (a fragment).

Each layer after syntax is a stage: a
callable that takes one parsed message and returns its diagnostics and the
message as the next stage should read it. Stages are built anew for each file,
so that a stateful one (the rules replay) starts fresh. A message stops at the
first stage that finds an error in it; the next line always goes on. A stage
may have a `finish(file, last_line)` that reports what the end of the file
leaves unfinished.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, List, Optional, Tuple

from .diagnostic import Diagnostic
from .jsonline import parse_line
from .reader import DEFAULT_MAX_LINE_BYTES, Source, describe, read_lines
from .schema import COMPAT, PROFILES, STRICT, default_schema

LEVELS = ("syntax", "schema", "semantic", "rules")
AUTO = "auto"
LEVEL_CHOICES = LEVELS + (AUTO,)
DEFAULT_LEVEL = AUTO

Stage = Callable[[Any, str, int], Tuple[List[Diagnostic], Any]]


def _schema_stage(profile: str) -> Stage:
    schema = default_schema()

    def check(message: Any, file: str, line: int) -> Tuple[List[Diagnostic], Any]:
        return schema.check(message, profile=profile, file=file, line=line)
    return check


def _semantic_stage(profile: str) -> Stage:
    from .semantic import SemanticChecker
    return SemanticChecker()


def _rules_stage(profile: str) -> Stage:
    from .game import RulesChecker
    return RulesChecker()


# The stage factories of each layer after syntax, in order; a level runs a prefix.
_LAYER_STAGES = {"schema": _schema_stage, "semantic": _semantic_stage, "rules": _rules_stage}


def _check_options(level: str, profile: str) -> None:
    if level not in LEVEL_CHOICES:
        raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVEL_CHOICES)}")
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILES)}")


def auto_level(first_message: Any) -> str:
    """The level `auto` stands for, given the first message of a log."""
    starts_game = isinstance(first_message, list) and len(first_message) > 1 and first_message[1] == "DM"
    return "rules" if starts_game else "semantic"


def build_stages(level: str, profile: str) -> List[Stage]:
    """The stages that run at `level` (not `auto`), fresh for one file."""
    _check_options(level, profile)
    layers = LEVELS[1:LEVELS.index(level) + 1]
    return [_LAYER_STAGES[layer](profile) for layer in layers]


def run_stages(stages: List[Stage], message: Any, file: str, line: int) -> Iterator[Diagnostic]:
    """Run one message through the stages, stopping after the first that finds an error."""
    for stage in stages:
        found, message = stage(message, file, line)
        yield from found
        if any(d.is_error for d in found):
            return


class FileCheck:
    """Checks one source; after iteration, `messages` counts the lines read as JSON values."""

    def __init__(self, source: Source, *, level: str = DEFAULT_LEVEL, profile: str = STRICT,
                 name: Optional[str] = None, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES):
        self.source = source
        self.name = name or describe(source)
        _check_options(level, profile)
        self.level, self.profile = level, profile
        self.stages: Optional[List[Stage]] = None if level == AUTO else build_stages(level, profile)
        self.max_line_bytes = max_line_bytes
        self.messages = 0

    def __iter__(self) -> Iterator[Diagnostic]:
        name = self.name
        last = 0
        for item in read_lines(self.source, name=name, max_line_bytes=self.max_line_bytes):
            if isinstance(item, Diagnostic):
                yield item
                continue
            parsed = parse_line(item.text, file=name, line=item.number)
            if isinstance(parsed, Diagnostic):
                yield parsed
                continue
            self.messages += 1
            last = item.number
            if self.stages is None:
                self.level = auto_level(parsed[0])
                self.stages = build_stages(self.level, self.profile)
            yield from run_stages(self.stages, parsed[0], name, item.number)
        for stage in self.stages or ():
            finish = getattr(stage, "finish", None)
            if finish is not None:
                yield from finish(name, last)


def iter_diagnostics(source: Source, *, level: str = DEFAULT_LEVEL, profile: str = STRICT,
                     name: Optional[str] = None,
                     max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> Iterator[Diagnostic]:
    """Every problem in an SGN log, in file order, streamed in constant memory.

    `source` is a path, a binary or text file object, or an iterable of lines
    (str or bytes). `level` is one of LEVELS or "auto"; `profile` is "strict" or
    "compat". Never raises for bad content: an unreadable file is a diagnostic
    of layer "io".
    """
    return iter(FileCheck(source, level=level, profile=profile, name=name,
                          max_line_bytes=max_line_bytes))


def validate_message(value: Any, *, level: str = DEFAULT_LEVEL, profile: str = STRICT,
                     file: str = "<input>", line: int = 0) -> List[Diagnostic]:
    """The problems of one already-parsed message (a Python value as json.loads gives it).

    A single message is no game: `auto` and `rules` check it at the semantic level."""
    level = "semantic" if level in (AUTO, "rules") else level
    return list(run_stages(build_stages(level, profile), value, file, line))


__all__ = ["AUTO", "COMPAT", "DEFAULT_LEVEL", "LEVEL_CHOICES", "FileCheck", "LEVELS", "STRICT",
           "iter_diagnostics", "validate_message"]
