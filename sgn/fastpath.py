"""The fast path: yes/no verdicts that need no explanation, from compiled libraries and memory.

Two shortcuts, both exact:

- **Lines already verified.** A line whose bytes were found free of any
  diagnostic, in the same context (profile, layers, and the shape of the map
  when there is one), is free of them again: game logs repeat most of their
  lines (rolls, builds on the same board). Map definitions are never
  remembered, since they change the context. The memory is bounded.
- **Compiled checks for new lines.** orjson parses and jsonschema-rs checks
  the whole schema file; when both say yes (and no key is repeated, which
  orjson would hide) the schema layer has nothing to say. Any "no" goes to the
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
from typing import Any, Dict, List, Optional, Tuple

from . import packaged
from .schema import SCHEMA_FILE

MEMORY_LIMIT = 50_000         # lines remembered per context before the memory is emptied (a few MB)
VALUES_KEPT = 4_096           # of which this many keep their parsed value too, for the rules replay
NOT_KEPT = False              # what the memory holds for a line whose parsed value it does not keep
MAX_BRACKETS = 1_000          # more, and nesting could be deep enough to hurt a compiled library
_KEY = re.compile(rb'"\s*:')


def _compiled_libraries() -> Tuple[Any, Any]:
    """orjson and jsonschema_rs, or (None, None) without them or with SGN_PURE set."""
    if os.environ.get("SGN_PURE"):
        return None, None
    try:
        return importlib.import_module("orjson"), importlib.import_module("jsonschema_rs")
    except ImportError:          # pragma: no cover - exercised by the tox env "pure"
        return None, None


_orjson, _jsonschema_rs = _compiled_libraries()

COMPILED = _orjson is not None


class Memory:
    """Lines known to be free of diagnostics, by context: each with its parsed value (for
    the replay, which needs it, so that a line seen before is not parsed again) or NOT_KEPT.
    Values are read, never changed, by the checks; only the first VALUES_KEPT lines of a
    context keep theirs, which bounds the memory."""

    def __init__(self, limit: int = MEMORY_LIMIT, values: int = VALUES_KEPT):
        self.limit = limit
        self.values = values
        self.contexts: Dict[Tuple, Dict[bytes, Any]] = {}

    def known(self, context: Tuple) -> Dict[bytes, Any]:
        found = self.contexts.get(context)
        if found is None:
            found = self.contexts[context] = {}
        return found

    def remember(self, known: Dict[bytes, Any], raw: bytes, value: Any = NOT_KEPT) -> None:
        if len(known) >= self.limit:
            known.clear()
        known[raw] = value if len(known) < self.values else NOT_KEPT


MEMORY = Memory()
_VALIDATOR: Any = None


def _validator():
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = _jsonschema_rs.Draft4Validator(packaged.load_json(SCHEMA_FILE))
    return _VALIDATOR


def compiled_modules() -> List[str]:
    """The modules of this package loaded from compiled code (built with mypyc; setup.py),
    by name; empty for a pure-Python install."""
    import sgn
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = []
    for info in pkgutil.iter_modules(sgn.__path__):
        spec = importlib.util.find_spec(f"sgn.{info.name}")
        if spec is not None and spec.origin is not None and spec.origin.endswith(suffixes):
            found.append(info.name)
    return sorted(found)


def schema_valid_message(raw: bytes) -> Optional[Any]:
    """The parsed message when it is certainly valid JSON and valid at the schema level
    (so neither layer has anything to say); None when the careful path must decide."""
    if _orjson is None or raw.count(b"[") + raw.count(b"{") > MAX_BRACKETS:
        return None
    try:
        value = _orjson.loads(raw)
    except _orjson.JSONDecodeError:
        return None
    if not _validator().is_valid(value):
        return None
    # orjson keeps the last of repeated keys: in a schema-valid message no string holds a
    # quote, so every `"` followed by `:` ends a key, and the text has as many as the value
    # written back compactly, unless a key repeats.
    keys = _orjson.dumps(value).count(b'":')
    if raw.count(b'":') != keys and len(_KEY.findall(raw)) != keys:
        return None
    return value


def schema_valid_value(value: Any) -> bool:
    """True when the compiled check finds a parsed message valid at the schema level
    (False when it does not, or is not installed: then jsonschema decides and explains)."""
    return _orjson is not None and _validator().is_valid(value)


def loads(raw: bytes) -> Any:
    """Parse a line already verified (the fastest parser at hand)."""
    if _orjson is not None:
        return _orjson.loads(raw)
    import json
    return json.loads(raw)
