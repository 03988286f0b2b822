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

from .diagnostic import Diagnostic, SourceTypeError, escape_pointer_token
from .game.rule_profiles import DEFAULT as DEFAULT_RULES
from .layers.jsonline import MAX_DEPTH as _MAX_DEPTH
from .layers.reader import DEFAULT_MAX_LINE_BYTES, Source, describe
from .layers.schema import STRICT
from .layers.stages import DEFAULT_LEVEL, validate_message as _validate_message
from .pipeline.checking import Checking
from .pipeline.engine import FileCheck
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
    rules: str = DEFAULT_RULES,
) -> Result[List[Diagnostic]]:
    """Check one SGN log and return its verdict, counts, level and diagnostics (a `Result`).

    `source` is what you have of the log (the same as for `iter_diagnostics`):

    - a path (str or os.PathLike), plain or gzip;
    - the log's content as bytes (plain or gzip), or as text (a str with a line break in
      it, or one JSON message that names no existing file);
    - a binary or text file object;
    - an iterable of messages (each a list or tuple, as `json.loads` gives them, e.g.
      `sgn.check(random_game(3, 4))`) or of lines (str or bytes), or both mixed.

    `level`, `profile`, `name`, `max_line_bytes`, `hidden` and `rules` are those of
    `iter_diagnostics`.

    Never raises for bad content, nor for a file that cannot be read (its verdict is
    "unreadable"); raises ValueError for an unknown level, profile or rules, a `max_line_bytes`
    under 1, or a file object that is closed or not open for reading, and TypeError for a
    source of none of those kinds (or a `max_line_bytes` that is no whole number). Holds
    every diagnostic in memory: to stream a log of any size in bounded memory, use
    `iter_diagnostics`.
    """
    _at_least_1(max_line_bytes, "max_line_bytes", "a number of bytes", "sgn.check")
    source = _as_source(source, "sgn.check")
    checking = Checking(level, profile, hidden, rules, max_line_bytes)
    return kept(check_one(source, name, Options(checking)))


def _at_least_1(value: Any, what: str, meaning: str, caller: str) -> None:
    """A count or a line number the caller passed: TypeError when it is no whole number
    (True is no number here), ValueError when it is under 1."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{caller}: {what} is {meaning}, a whole number; got {type(value).__name__} {value!r}")
    if value < 1:
        raise ValueError(f"{caller}: {what} is {meaning}, at least 1; got {value}")


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
    if hasattr(source, "readline"):
        if getattr(source, "closed", False) is True:
            raise ValueError(f"{caller}: the file object {describe(source)!r} is closed")
        readable = getattr(source, "readable", None)
        if callable(readable) and not readable():
            raise ValueError(f"{caller}: the file object {describe(source)!r} is not open for reading")
        return source
    if isinstance(source, os.PathLike) or hasattr(source, "open_binary"):
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
    rules: str = DEFAULT_RULES,
) -> Iterator[Diagnostic]:
    """Every problem in an SGN log, in file order, streamed in bounded memory.

    `source` is a path, bytes, text, a binary or text file object, or an iterable of
    messages (lists or tuples) or lines (str or bytes), as for `check`. `level` is one of LEVELS or "auto"; `profile` is "strict" or
    "compat". `name` is the file name the diagnostics give (by default the path, or
    the file object's name). Lines longer than `max_line_bytes` are skipped unread
    (`line-too-long`). Never raises for bad content: an unreadable file is a diagnostic
    of layer "io". Raises as `check` does for what no log could make wrong (an unknown
    level, a `max_line_bytes` under 1, a closed file object, a source of another kind).
    `fast=False` takes the careful path for every line (the diagnostics are the same; it
    exists to prove that). `hidden` is "allow" (a card or roll the log does not show,
    written `?`, is judged as docs/hidden.md says) or "refuse" (each is a `hidden-value`
    error). `rules` is the rule profile the game is replayed under: "standard" (the
    rulebook), or an engine's, "catanatron" or "jsettlers", each a set of departures from
    it (docs/engines.md, "Rule profiles").
    """
    _at_least_1(max_line_bytes, "max_line_bytes", "a number of bytes", "sgn.iter_diagnostics")
    checking = Checking(level, profile, hidden, rules, max_line_bytes)
    return iter(FileCheck(_as_source(source, "sgn.iter_diagnostics"), checking, name=name, fast=fast))


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

    A tuple is read as a list, as `check` reads a message of its iterable. A value that
    json.loads never gives (bytes, a set, a complex number, a key that is no str), here or
    anywhere inside, is a TypeError that names it and where it is: it is no message to
    judge, and "null" is not what it is.
    """
    value = _as_json(value, "", 0)
    return _validate_message(value, level=level, profile=profile, hidden=hidden, file=file, line=line)


_JSON_KINDS = "a value as json.loads gives it (dict, list, str, int, float, bool or None; a tuple is read as a list)"


def _as_json(value: Any, pointer: str, depth: int) -> Any:
    """`value` with each tuple a list (the same object when it holds none); TypeError for a
    part json.loads never gives, naming its JSON pointer. Past the depth no line may reach,
    the value is left as it is: the checks refuse it as nested too deep."""
    if value is None or isinstance(value, (str, int, float)):  # bool is an int
        return value
    if depth > _MAX_DEPTH:
        return value
    if isinstance(value, (list, tuple)):
        items = [_as_json(item, f"{pointer}/{index}", depth + 1) for index, item in enumerate(value)]
        same = type(value) is list and all(new is old for new, old in zip(items, value))
        return value if same else items
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise TypeError(
                    f"sgn.validate_message takes {_JSON_KINDS}; the object at {pointer or '/'} has a key "
                    f"of type {type(key).__name__} ({key!r}), where JSON has a string"
                )
        pairs = {
            key: _as_json(item, f"{pointer}/{escape_pointer_token(key)}", depth + 1) for key, item in value.items()
        }
        return value if all(pairs[key] is item for key, item in value.items()) else pairs
    where = f"the value at {pointer}" if pointer else "the message"
    raise TypeError(f"sgn.validate_message takes {_JSON_KINDS}; {where} is of type {type(value).__name__}")


def replay(
    source: Source,
    *,
    at: Optional[int] = None,
    profile: str = STRICT,
    name: Optional[str] = None,
    rules: str = DEFAULT_RULES,
) -> Tuple[Optional[Dict[str, Any]], List[Diagnostic]]:
    """The game's state after line `at` (or the end) and the diagnostics up to it, as
    `sgn replay FILE --at LINE` gives them: `(state, diagnostics)`.

    `source` is as for `check`. The log is checked as `sgn validate --level rules` checks
    it, up to line `at` (and past it while a fault of a line up to it is undecided, so that
    the state and the diagnostics are those of the whole log's reading). `state` is a dict:
    `line`, `phase`, `turn`, `current`, `robber`, `bank`, `players` (each one's hand, cards,
    pieces and points), the awards, what is owed, and `game`, the live `sgn.game.Game`
    (to read, or to draw with `sgn.svg.board`); with hidden values (docs/hidden.md), what
    is not seen (`unseen`) and what each may still be (`hidden_values`). It is None when
    the log cannot be read at all. `rules` is the rule profile, as for `iter_diagnostics`.
    Raises TypeError for a source of none of the kinds `check` takes, ValueError for an
    `at` under 1 (a line number: the first line is 1, as `--at` counts) or unknown `rules`,
    and TypeError for an `at` that is no whole number.
    """
    from .pipeline.replay import replay as _replay

    if at is not None:
        _at_least_1(at, "at", "a line number", "sgn.replay")

    found: List[Diagnostic] = []
    source = _as_source(source, "sgn.replay")
    checking = Checking("rules", profile, rules=rules)
    position, _ = _replay(source, name=name or describe(source), at=at, checking=checking, report=found.append)
    if position is None:
        return None, found
    return {**position.snapshot(), "game": position.game}, found


def moves(
    source: Source,
    *,
    at: Optional[int] = None,
    players: Optional[int] = None,
    hidden_outcomes: str = "auto",
    profile: str = STRICT,
    name: Optional[str] = None,
    rules: str = DEFAULT_RULES,
    discards: str = "each",
) -> List[List[Any]]:
    """The legal moves after line `at` (or the end of the log): every SGN message the rules
    accept as the next line, as `sgn moves FILE --at LINE` prints them, in the order of
    docs/moves.md (by player, then by kind: the roll, discards, the robber, steals,
    settlements, cities, roads, cards bought, cards played, trades with the bank).

    `source` is as for `check`, and is read as `replay` reads it, faults and all: the moves
    are those of the state its reading leaves (`replay` gives the diagnostics). Chance
    moves are listed by outcome: the roll as its 11 totals, a card bought as each kind the
    deck may give, a steal as each resource the victim may hold; trades between players,
    and trades with the bank of more than one lot, are not listed. `players` is the
    number to play during the first round of the setup, before the log shows it (default:
    any the map's rules are for); `hidden_outcomes` ("auto", "always", "never") says where the `?`
    outcome of a chance move is listed too: "auto" where the position is a partial view
    (docs/hidden.md). A log without a map has no moves (`[]`). `rules` is the rule profile
    the game follows (as for `iter_diagnostics`): the moves are those its rules accept.
    `discards` ("each", "compact") lists a discard owed as every multiset of the hand, or
    as one message whose cards are `?` (docs/moves.md, "A discard in one message").

    Raises ValueError for an `at` under 1, a `players` outside 1 to 6, an unknown `hidden_outcomes`,
    `discards` or `profile`, and for a log that cannot be read at all; TypeError for a source of none
    of the kinds `check` takes, and for an `at` that is no whole number. The same game is
    `sgn.game.Game.legal_moves()`; perft counts are `sgn.game.perft.perft`.
    """
    from .game.discard_moves import DISCARD_FORMS
    from .game.moves import OUTCOME_CHOICES
    from .layers.schema import PROFILES
    from .pipeline.replay import replay as _replay

    if at is not None:
        _at_least_1(at, "at", "a line number", "sgn.moves")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 6):
        raise ValueError(f"sgn.moves: players is a number of players, 1 to 6; got {players!r}")
    if hidden_outcomes not in OUTCOME_CHOICES:
        raise ValueError(f"sgn.moves: hidden_outcomes is one of {', '.join(OUTCOME_CHOICES)}; got {hidden_outcomes!r}")
    if discards not in DISCARD_FORMS:
        raise ValueError(f"sgn.moves: discards is one of {', '.join(DISCARD_FORMS)}; got {discards!r}")
    if profile not in PROFILES:
        raise ValueError(f"sgn.moves: profile is one of {', '.join(PROFILES)}; got {profile!r}")
    found: List[Diagnostic] = []
    source = _as_source(source, "sgn.moves")
    checking = Checking("rules", profile, rules=rules)
    state, _ = _replay(
        source, name=name or describe(source), at=at, checking=checking, report=found.append, possible=False
    )
    if state is None:
        unread = next((d for d in found if d.is_io), None)
        raise ValueError(f"sgn.moves: {unread.message if unread is not None else 'the log cannot be read'}")
    return state.game.legal_moves(players, hidden_outcomes, discards)


__all__ = ["Result", "VERDICTS", "check", "iter_diagnostics", "moves", "replay", "validate_message"]
