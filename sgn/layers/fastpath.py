"""The fast path: yes/no verdicts that need no explanation, from compiled libraries and memory.

Two shortcuts, both exact:

- **Lines already verified.** A line whose bytes were found free of any
  diagnostic, in the same context (profile, layers, and the shape of the map
  when there is one), is free of them again: game logs repeat most of their
  lines (rolls, builds on the same board). Map definitions are never
  remembered, since they change the context. The memory is bounded.
- **Compiled checks for new lines.** orjson parses and jsonschema-rs checks
  the whole schema file (or, where the reading allows them, the record lines'
  schema or the schema extended with hidden values); when both say yes (and no
  key is repeated, which orjson would hide) the schema layer has nothing to
  say. Any "no" goes to the
  careful path, which explains it with the standard library and jsonschema.
  Tests prove both paths give the same diagnostics.

Without orjson or jsonschema-rs (or with SGN_PURE=1 in the environment) only
the memory shortcut is used.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import pkgutil
import re
import sys
from typing import Any, Dict, Final, List, Optional, Tuple

from .. import packaged
from .hidden import ACTIONS as HIDDEN_ACTIONS, extended
from .jsonline import MAX_DEPTH, MAX_NUMBER_CHARS
from .records import ACTIONS as RECORD_ACTIONS, SCHEMA_FILE as RECORDS_FILE
from .schema import SCHEMA_FILE

MEMORY_LINES: Final = 50_000  # lines remembered in all, across contexts
MEMORY_BYTES: Final = 4 << 20  # bytes of line text remembered in all
MEMORY_CONTEXTS: Final = 64  # contexts (profile, layers, board) remembered at once
LONGEST_REMEMBERED: Final = 1_024  # longer lines are never remembered (real messages are far shorter)
VALUES_KEPT: Final = 4_096  # lines whose parsed value is kept too, in all, for the rules replay
NOT_KEPT: Final = False  # what the memory holds for a line whose parsed value it does not keep
MAX_BRACKETS: Final = 1_000  # more, and nesting could be deep enough to hurt a compiled library
# The end of a key: a quote, JSON whitespace, a colon. Each key of the text ends so, and a
# match elsewhere (inside a string) only over-counts, which sends the line the careful way.
_KEY_END: Final = re.compile(rb'"[ \t\r\n]*:')
# A run of the characters of a number literal longer than the careful parser accepts.
_LONG_NUMBER: Final = re.compile(rb"[-+.0-9eE]{%d}" % (MAX_NUMBER_CHARS + 1))


def _compiled_libraries() -> Tuple[Any, Any]:
    """orjson and jsonschema_rs, or (None, None) without them or with SGN_PURE set."""
    if os.environ.get("SGN_PURE"):
        return None, None
    try:
        return importlib.import_module("orjson"), importlib.import_module("jsonschema_rs")
    except ImportError:  # pragma: no cover - exercised by the tox env "pure"
        return None, None


_LIBRARIES: Final = _compiled_libraries()  # (each a static of the compiled module: no look-up a line)
_orjson: Final = _LIBRARIES[0]
_jsonschema_rs: Final = _LIBRARIES[1]

COMPILED = _orjson is not None


class Context:
    """The lines known to be free of diagnostics in one context, each with its parsed
    value (for the replay, which needs it, so that a line seen before is not parsed again)
    or NOT_KEPT, and what they cost. Values are read, never changed, by the checks."""

    def __init__(self) -> None:
        self.lines: Dict[bytes, Any] = {}
        self.size = 0  # bytes of line text
        self.kept = 0  # parsed values kept
        self.alive = True  # False once forgotten: a holder then remembers nothing more


class Memory:
    """Contexts of verified lines, bounded in all: the number of contexts (the least
    recently used is forgotten first), of lines, of bytes of line text and of parsed
    values, whatever the number of files, boards or calls in one process."""

    def __init__(
        self,
        lines: int = MEMORY_LINES,
        size: int = MEMORY_BYTES,
        values: int = VALUES_KEPT,
        contexts: int = MEMORY_CONTEXTS,
    ):
        self.max_lines, self.max_size, self.max_values, self.max_contexts = lines, size, values, contexts
        self.contexts: Dict[Tuple, Context] = {}  # in order of use, the least recent first
        self.lines = 0
        self.size = 0
        self.kept = 0

    def known(self, key: Tuple) -> Context:
        """The context of `key`, now the most recently used."""
        found = self.contexts.pop(key, None)
        if found is None:
            found = Context()
            while len(self.contexts) >= self.max_contexts:
                self._forget(next(iter(self.contexts)))
        self.contexts[key] = found
        return found

    def remember(self, context: Context, raw: bytes, value: Any = NOT_KEPT) -> None:
        if not context.alive or len(raw) > LONGEST_REMEMBERED or raw in context.lines:
            return
        if self.lines >= self.max_lines or self.size + len(raw) > self.max_size:
            self._make_room(context)
        keep = value is not NOT_KEPT and self.kept < self.max_values
        context.lines[raw] = value if keep else NOT_KEPT
        context.size += len(raw)
        self.lines += 1
        self.size += len(raw)
        if keep:
            context.kept += 1
            self.kept += 1

    def clear(self) -> None:
        """Forget everything (a benchmark starts each round cold)."""
        for key in list(self.contexts):
            self._forget(key)

    def _forget(self, key: Tuple) -> None:
        context = self.contexts.pop(key)
        self._empty(context)
        context.alive = False

    def _empty(self, context: Context) -> None:
        self.lines -= len(context.lines)
        self.size -= context.size
        self.kept -= context.kept
        context.lines.clear()
        context.size = context.kept = 0

    def _make_room(self, current: Context) -> None:
        """Forget the least recently used other contexts, then, if need be, empty this one."""
        for key in [k for k, c in self.contexts.items() if c is not current]:
            if self.lines < self.max_lines and self.size + LONGEST_REMEMBERED <= self.max_size:
                return
            self._forget(key)
        if self.lines >= self.max_lines or self.size + LONGEST_REMEMBERED > self.max_size:
            self._empty(current)


MEMORY = Memory()
_VALIDATOR: Any = None
_RECORDS: Any = None
_HIDDEN: Any = None


def _validator():
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = _jsonschema_rs.Draft4Validator(packaged.load_json(SCHEMA_FILE))
    return _VALIDATOR


def _valid(value: Any, records: bool, hidden: bool) -> bool:
    """Whether the compiled check finds a parsed message valid at the schema level: a
    message of SGN v1.0, or (where the reading allows them) a record line (`records`) or
    a message with hidden values (`hidden`)."""
    return (
        bool(_validator().is_valid(value))
        or (records and _record_line(value))
        or (hidden and _with_hidden_values(value))
    )


def _record_line(value: Any) -> bool:
    """Whether a message the v1.0 schema refuses is a valid record line of
    `schema/v1.0/records.json` (a header, an end of turn: few, so built on first use)."""
    if not (isinstance(value, list) and len(value) == 3 and value[1] in RECORD_ACTIONS):
        return False
    global _RECORDS
    if _RECORDS is None:
        _RECORDS = _jsonschema_rs.Draft4Validator(packaged.load_json(RECORDS_FILE))
    return bool(_RECORDS.is_valid(value))


def _with_hidden_values(value: Any) -> bool:
    """Whether a message the v1.0 schema refuses is valid with hidden values (`?`), against
    the schema extended with them (`hidden.extended`, as the careful path checks it): a
    spectator's view has many, built on first use."""
    if not (isinstance(value, list) and len(value) == 3 and value[1] in HIDDEN_ACTIONS):
        return False
    global _HIDDEN
    if _HIDDEN is None:
        _HIDDEN = _jsonschema_rs.Draft4Validator(extended(packaged.load_json(SCHEMA_FILE)))
    return bool(_HIDDEN.is_valid(value))


def compiled_modules() -> List[str]:
    """The modules of this package loaded from compiled code (built with mypyc; setup.py),
    by name within the package (`game.core`); empty for a pure-Python install."""
    import os

    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = []
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the package sgn
    for folder, folders, _ in os.walk(root):
        folders[:] = sorted(f for f in folders if not f.startswith(("_", ".")))
        prefix = os.path.relpath(folder, root).replace(os.sep, ".")
        for info in pkgutil.iter_modules([folder]):
            name = info.name if prefix == "." else f"{prefix}.{info.name}"
            spec = importlib.util.find_spec(f"sgn.{name}")
            if spec is not None and spec.origin is not None and spec.origin.endswith(suffixes):
                found.append(name)
    return sorted(found)


class _Members:
    """A walk over a parsed value: the members of all its objects, whether it holds a float
    (the only number whose literal may be long: orjson reads an integer past 64 bits as a
    float), and whether it nests deeper than the careful parser takes."""

    def __init__(self) -> None:
        self.keys = 0
        self.floats = False

    def within(self, node: Any, level: int) -> bool:
        """Count the container `node` at nesting `level`; False as soon as it nests deeper
        than MAX_DEPTH (the walk goes no deeper than that). Leaves are looked at in place:
        a map holds hundreds of them. (A dict and a list each walked as itself: the compiled
        walk then takes their items directly, a map's walk in a third of the time.)"""
        if level > MAX_DEPTH:
            return False
        if isinstance(node, dict):
            self.keys += len(node)
            for item in node.values():
                if isinstance(item, dict) or isinstance(item, list):
                    if not self.within(item, level + 1):
                        return False
                elif isinstance(item, float):
                    self.floats = True
        elif isinstance(node, list):
            for item in node:
                if isinstance(item, dict) or isinstance(item, list):
                    if not self.within(item, level + 1):
                        return False
                elif isinstance(item, float):
                    self.floats = True
        return True


def _key_ends(raw: bytes) -> int:
    """How many times a quote is followed by a colon, JSON whitespace between: at least the
    number of keys in the text. Without whitespace in the line (as engines write), a plain
    count of `":` gives the same number, far faster than the pattern. (Each white byte is
    looked for as a number: `b" " in raw` first tries the text as a number, and raises and
    drops an error to learn it is not, five times the cost of the search.)"""
    if 32 in raw or 10 in raw or 9 in raw or 13 in raw:  # space, line feed, tab, return
        return len(_KEY_END.findall(raw))
    return raw.count(b'":')


def schema_valid_message(raw: bytes, records: bool = True, hidden: bool = False) -> Optional[Any]:
    """The parsed message when it is certainly valid JSON and valid at the schema level
    (so neither layer has anything to say); None when the careful path must decide.

    Exact: every way the compiled libraries could read a line differently from the careful
    parser sends it the careful way. orjson keeps the last of repeated keys, so the keys
    of the text (an upper bound: `_key_ends`) must be as many as the parsed value holds;
    nesting and number literals have the careful parser's limits (a literal longer than
    it takes is read as a float, so only a line holding a float is searched for one);
    anything a compiled library cannot take (a lone surrogate, say) is a "no". `records`:
    whether a record line is read (not under the profile v1.0, which refuses it); `hidden`:
    whether a hidden value is (neither under v1.0 nor with hidden values refused)."""
    if _orjson is None or (len(raw) > MAX_BRACKETS and raw.count(b"[") + raw.count(b"{") > MAX_BRACKETS):
        return None
    try:
        value = _orjson.loads(raw)
        if not _valid(value, records, hidden):
            return None
    except Exception:  # whatever a compiled library cannot take, the careful path explains
        return None
    members = _Members()
    if isinstance(value, float):
        members.floats = True
    elif isinstance(value, (dict, list)) and not members.within(value, 1):
        return None
    if _key_ends(raw) != members.keys:
        return None
    if members.floats and len(raw) > MAX_NUMBER_CHARS and _LONG_NUMBER.search(raw) is not None:
        return None
    return value


def schema_valid_value(value: Any, records: bool = True, hidden: bool = False) -> bool:
    """True when the compiled check finds a parsed message valid at the schema level
    (False when it does not, cannot take the value, or is not installed: then jsonschema
    decides and explains); `records` and `hidden` as for `schema_valid_message`."""
    if _orjson is None:
        return False
    try:
        return _valid(value, records, hidden)
    except Exception:  # a string that is no Unicode text (a lone surrogate), say
        return False


def loads(raw: bytes) -> Any:
    """Parse a line already verified (the fastest parser at hand)."""
    if _orjson is not None:
        return _orjson.loads(raw)
    import json

    return json.loads(raw)


INTERNED_LENGTH: Final = 64  # longer strings are left as read (a message's are a few letters)
INTERNED_KEPT: Final = 4_096  # strings remembered as interned (then the table starts afresh)
_INTERNED: Final[Dict[str, str]] = {}  # a string read -> the interpreter's own


def interned(value: Any) -> Any:
    """`value` with its strings the interpreter's own (`sys.intern`): a message's seat, action
    and keys are then the very objects the replay's tables and comparisons hold (the seats,
    a hand's resources, the action codes), found at once, without comparing their letters.
    Done once a line, where it is first read: a line seen again reuses its parsed message."""
    if isinstance(value, list):
        return [interned(item) if isinstance(item, (list, dict)) else _text(item) for item in value]
    if isinstance(value, dict):
        return {_text(k): interned(v) if isinstance(v, (list, dict)) else _text(v) for k, v in value.items()}
    return _text(value)


def _text(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    found = _INTERNED.get(value)
    if found is None:
        if len(value) > INTERNED_LENGTH:
            return value
        if len(_INTERNED) >= INTERNED_KEPT:
            _INTERNED.clear()
        found = _INTERNED[value] = sys.intern(value)
    return found
