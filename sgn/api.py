"""The public functions of `sgn`, with their documentation.

They are thin: the work is done by `sgn/pipeline/engine.py`, which the default build compiles
with mypyc, and a compiled function keeps no docstring. Defined here, in a module that is
never compiled, `help(sgn.check)` reads the same in every build.
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from typing import Any, Iterator, List, Optional

from .pipeline import engine as _validate
from .diagnostic import ERROR, INFO, WARNING, Diagnostic
from .cli.exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE
from .layers.reader import DEFAULT_MAX_LINE_BYTES, Source
from .layers.schema import STRICT

VALID, INVALID, UNREADABLE = "valid", "invalid", "unreadable"
VERDICTS = (VALID, INVALID, UNREADABLE)
_EXIT_CODES = {VALID: EXIT_OK, INVALID: EXIT_INVALID, UNREADABLE: EXIT_USAGE}


@dataclass(frozen=True)
class Result:
    """What checking one log found, as `sgn validate` reports it for one file.

    `verdict` is "valid" (no error), "invalid" (some error in the data) or "unreadable"
    (the file could not be read at all: missing, a directory, unreadable); `level` is the
    level the log was checked at, `auto` resolved ("rules" for a game from its map,
    "semantic" for a fragment), or None when no message was read to decide it.
    """

    verdict: str
    file: str
    level: Optional[str]
    messages: int           # the lines read as JSON values
    errors: int
    warnings: int
    infos: int
    diagnostics: List[Diagnostic] = field(repr=False)

    @property
    def valid(self) -> bool:
        """True when the log has no error (warnings and infos do not count)."""
        return self.verdict == VALID

    @property
    def exit_code(self) -> int:
        """The exit status `sgn validate` gives for this file alone: 0, 1, or 2 (unreadable)."""
        return _EXIT_CODES[self.verdict]


def check(source: Source, *, level: str = _validate.DEFAULT_LEVEL, profile: str = STRICT,
          name: Optional[str] = None, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> Result:
    """Check one SGN log and return its verdict, counts, level and diagnostics (a `Result`).

    `source` is a path (str or os.PathLike), the log's content as bytes (plain or gzip), a
    binary or text file object, or an iterable of lines (str or bytes). A str is always a
    path, as in `open`: to check text, pass `text.encode()` or `io.StringIO(text)`.
    `level`, `profile`, `name` and `max_line_bytes` are those of `iter_diagnostics`.

    Never raises for bad content, nor for a file that cannot be read (its verdict is
    "unreadable"); raises ValueError for an unknown level or profile, or for a str that is
    log text rather than a path. Holds every diagnostic in memory: to stream a log of any
    size in bounded memory, use `iter_diagnostics`.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = io.BytesIO(bytes(source))
    elif isinstance(source, str) and _looks_like_text(source):
        raise ValueError("sgn.check takes a str as a path, and this one looks like log text, not a file: "
                         "pass text.encode() or io.StringIO(text) to check text")
    checked = _validate.FileCheck(source, level=level, profile=profile, name=name, max_line_bytes=max_line_bytes)
    diagnostics = list(checked)
    severities = [d.severity for d in diagnostics]
    if any(d.is_io for d in diagnostics):
        verdict = UNREADABLE
    else:
        verdict = INVALID if ERROR in severities else VALID
    return Result(verdict=verdict, file=checked.name,
                  level=None if checked.level == _validate.AUTO or verdict == UNREADABLE else checked.level,
                  messages=checked.messages, errors=severities.count(ERROR),
                  warnings=severities.count(WARNING), infos=severities.count(INFO), diagnostics=diagnostics)


def _looks_like_text(source: str) -> bool:
    """A str no path is meant by: a line break in it, or a JSON message where no such file exists."""
    ends = source.strip()[:1] + source.strip()[-1:]
    return "\n" in source or (ends in ("[]", "{}") and not os.path.exists(source))


def iter_diagnostics(source: Source, *, level: str = _validate.DEFAULT_LEVEL, profile: str = STRICT,
                     name: Optional[str] = None, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
                     fast: bool = True) -> Iterator[Diagnostic]:
    """Every problem in an SGN log, in file order, streamed in bounded memory.

    `source` is a path, a binary or text file object, or an iterable of lines
    (str or bytes). `level` is one of LEVELS or "auto"; `profile` is "strict" or
    "compat". `name` is the file name the diagnostics give (by default the path, or
    the file object's name). Lines longer than `max_line_bytes` are skipped unread
    (`line-too-long`). Never raises for bad content: an unreadable file is a diagnostic
    of layer "io". `fast=False` takes the careful path for every line (the
    diagnostics are the same; it exists to prove that).
    """
    return _validate.iter_diagnostics(source, level=level, profile=profile, name=name,
                                      max_line_bytes=max_line_bytes, fast=fast)


def validate_message(value: Any, *, level: str = _validate.DEFAULT_LEVEL, profile: str = STRICT,
                     file: str = "<input>", line: int = 0) -> List[Diagnostic]:
    """The problems of one already-parsed message (a Python value as json.loads gives it).

    A single message is no game: `auto` and `rules` check it at the semantic level, without
    a map (so a place is checked as a place, not as one of a board). What no line could
    hold (nesting too deep, an integer too long, NaN) has the code it would have in a line
    (`sgn.layers.jsonline.value_problem`). The value is not changed (compat reads the legacy
    forms from a copy). `file` and `line` are what the diagnostics give as their place.
    """
    return _validate.validate_message(value, level=level, profile=profile, file=file, line=line)


__all__ = ["Result", "VERDICTS", "check", "iter_diagnostics", "validate_message"]
