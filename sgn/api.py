"""The public functions of `sgn`, with their documentation.

They are thin: the work is done by `sgn/pipeline/engine.py`, which the default build compiles
with mypyc, and a compiled function keeps no docstring. Defined here, in a module that is
never compiled, `help(sgn.check)` reads the same in every build.
"""

from __future__ import annotations

import io
import json
import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from .diagnostic import Diagnostic, SourceTypeError
from .layers.reader import DEFAULT_MAX_LINE_BYTES, Source, describe
from .layers.schema import STRICT
from .layers.stages import DEFAULT_LEVEL, validate_message as _validate_message
from .pipeline import engine as _validate
from .pipeline.executors import Options, check_one
from .pipeline.result import INVALID as INVALID, UNREADABLE as UNREADABLE, VALID as VALID, VERDICTS, Result, kept


def check(
    source: Source,
    *,
    level: str = DEFAULT_LEVEL,
    profile: str = STRICT,
    name: Optional[str] = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    hidden: str = "allow",
) -> Result[List[Diagnostic]]:
    """Check one SGN log and return its verdict, counts, level and diagnostics (a `Result`).

    `source` is what you have of the log (the same as for `iter_diagnostics`):

    - a path (str or os.PathLike), plain or gzip;
    - the log's content as bytes (plain or gzip), or as text (a str with a line break in
      it, or one JSON message that names no existing file);
    - a binary or text file object;
    - an iterable of messages (each a list or tuple, as `json.loads` gives them, e.g.
      `sgn.check(random_game(3, 4))`) or of lines (str or bytes), or both mixed.

    `level`, `profile`, `name`, `max_line_bytes` and `hidden` are those of `iter_diagnostics`.

    Never raises for bad content, nor for a file that cannot be read (its verdict is
    "unreadable"); raises ValueError for an unknown level or profile, and TypeError for a
    source of none of those kinds. Holds every diagnostic in memory: to stream a log of
    any size in bounded memory, use `iter_diagnostics`.
    """
    source = _as_source(source, "sgn.check")
    return kept(check_one(source, name, Options(level, profile, max_line_bytes, None, hidden)))


def _looks_like_text(source: str) -> bool:
    """A str no path is meant by: a line break in it, or a JSON message where no such file exists."""
    ends = source.strip()[:1] + source.strip()[-1:]
    return "\n" in source or (ends in ("[]", "{}") and not os.path.exists(source))


_KINDS = "a path, bytes, text, a file object, or an iterable of messages (lists) or lines (str or bytes)"


def _as_source(source: Any, caller: str) -> Any:
    """What the user has, as one of the sources the reader takes (`sgn.layers.reader.Source`).

    Done here, before the compiled reader sees it, so that a wrong type is a TypeError that
    says what is wanted, at the call, not a type check deep in compiled code."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return io.BytesIO(bytes(source))
    if isinstance(source, str):
        return io.StringIO(source) if _looks_like_text(source) else source
    if isinstance(source, os.PathLike) or hasattr(source, "readline") or hasattr(source, "open_binary"):
        return source
    if isinstance(source, (dict, int, float, bool)) or source is None or not hasattr(source, "__iter__"):
        raise SourceTypeError(f"{caller} takes {_KINDS}; got {type(source).__name__}")
    if (
        isinstance(source, (list, tuple))
        and len(source) == 3
        and all(isinstance(s, str) for s in source[:2])
        and isinstance(source[2], (dict, list))
    ):
        raise SourceTypeError(f"{caller} takes a log, and this is one message: pass [message] to check it")
    return _lines(source, caller)


def _lines(items: Iterable[Any], caller: str) -> Iterator[Union[str, bytes]]:
    """Each item as one line: a message (list or tuple; a dict too, which the checks then
    refuse as no message) written as compact JSON, a line as is."""
    for number, item in enumerate(items, 1):
        if isinstance(item, (str, bytes)):
            yield item
        elif isinstance(item, (bytearray, memoryview)):
            yield bytes(item)
        elif isinstance(item, (list, tuple, dict)):  # a message, or a JSON value that is no message
            yield json.dumps(item, separators=(",", ":"), ensure_ascii=False, allow_nan=True)
        else:
            raise SourceTypeError(
                f"{caller}: item {number} of the iterable is a {type(item).__name__}; "
                "each item is a message (a list) or a line (str or bytes)"
            )


def iter_diagnostics(
    source: Source,
    *,
    level: str = DEFAULT_LEVEL,
    profile: str = STRICT,
    name: Optional[str] = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    fast: bool = True,
    hidden: str = "allow",
) -> Iterator[Diagnostic]:
    """Every problem in an SGN log, in file order, streamed in bounded memory.

    `source` is a path, bytes, text, a binary or text file object, or an iterable of
    messages (lists or tuples) or lines (str or bytes), as for `check`. `level` is one of LEVELS or "auto"; `profile` is "strict" or
    "compat". `name` is the file name the diagnostics give (by default the path, or
    the file object's name). Lines longer than `max_line_bytes` are skipped unread
    (`line-too-long`). Never raises for bad content: an unreadable file is a diagnostic
    of layer "io". `fast=False` takes the careful path for every line (the
    diagnostics are the same; it exists to prove that). `hidden` is "allow" (a card or
    roll the log does not show, written `?`, is judged as docs/hidden.md says) or
    "refuse" (each is a `hidden-value` error).
    """
    return _validate.iter_diagnostics(
        _as_source(source, "sgn.iter_diagnostics"),
        level=level,
        profile=profile,
        name=name,
        max_line_bytes=max_line_bytes,
        fast=fast,
        hidden=hidden,
    )


def validate_message(
    value: Any,
    *,
    level: str = DEFAULT_LEVEL,
    profile: str = STRICT,
    hidden: str = "allow",
    file: str = "<input>",
    line: int = 0,
) -> List[Diagnostic]:
    """The problems of one already-parsed message (a Python value as json.loads gives it).

    A single message is no game: `auto` and `rules` check it at the semantic level, without
    a map (so a place is checked as a place, not as one of a board). What no line could
    hold (nesting too deep, an integer too long, NaN) has the code it would have in a line
    (`sgn.layers.jsonline.value_problem`). The value is not changed (compat reads the legacy
    forms from a copy). `file` and `line` are what the diagnostics give as their place.
    """
    return _validate_message(value, level=level, profile=profile, hidden=hidden, file=file, line=line)


def replay(
    source: Source, *, at: Optional[int] = None, profile: str = STRICT, name: Optional[str] = None
) -> Tuple[Optional[Dict[str, Any]], List[Diagnostic]]:
    """The game's state after line `at` (or the end) and the diagnostics up to it, as
    `sgn replay FILE --at LINE` gives them: `(state, diagnostics)`.

    `source` is as for `check`. The log is checked as `sgn validate --level rules` checks
    it, up to line `at` (and past it while a fault of a line up to it is undecided, so that
    the state and the diagnostics are those of the whole log's reading). `state` is a dict:
    `line`, `phase`, `turn`, `current`, `robber`, `bank`, `players` (each one's hand, cards,
    pieces and points), the awards, what is owed, and `game`, the live `sgn.game.Game`
    (to read, or to draw with `sgn.svg.board`). It is None when the log cannot be read at
    all. Raises TypeError for a source of none of the kinds `check` takes.
    """
    from .pipeline.replay import replay as _replay

    found: List[Diagnostic] = []
    source = _as_source(source, "sgn.replay")
    state, _ = _replay(source, name=name or describe(source), at=at, profile=profile, report=found.append)
    return state, found


__all__ = ["Result", "VERDICTS", "check", "iter_diagnostics", "replay", "validate_message"]
