"""Parsing: one line of text to one JSON value, strictly.

Stricter than Python's json module: NaN and Infinity are refused, a key
repeated in an object is an error (its meaning is undefined), number literals
longer than any SGN field could need are refused before Python converts them
(converting a huge literal costs quadratic time), and nesting too deep for the
parser is reported, never raised.
"""
from __future__ import annotations

import json
import re
from typing import Any, List, Optional, Tuple, Union

from .diagnostic import Diagnostic, make, pointer_from_path
from .schema import show

MAX_NUMBER_CHARS = 100
MAX_DEPTH = 64      # arrays and objects nested deeper than this are refused (an SGN message is 6 deep)

# A JSON string (to its closing quote, or to the end of an unfinished one) or a bracket.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)


class _Refused(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _refuse_constant(name: str):
    raise _Refused("json-nan-infinity", f"{name} is not a JSON number")


def _checked_int(literal: str) -> int:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _Refused("json-number-too-long",
                       f"a number literal of {len(literal)} characters "
                       f"(more than {MAX_NUMBER_CHARS}) is refused")
    return int(literal)


def _checked_float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _Refused("json-number-too-long",
                       f"a number literal of {len(literal)} characters "
                       f"(more than {MAX_NUMBER_CHARS}) is refused")
    return float(literal)


def too_deep(text: Union[str, bytes], limit: int = MAX_DEPTH) -> Optional[int]:
    """The 1-based position (in characters, or in bytes for bytes) of the first bracket that
    opens more than `limit` levels of nesting, or None. Brackets inside strings do not count;
    an unmatched closing bracket ends the count (the text is then not JSON, which the
    parser explains). Decided on the text, before any parser runs, so that the verdict never
    depends on a parser's own limit or on how deep the caller's stack is; linear, and it
    stops at the first excess."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")       # one character a byte: the positions are the bytes'
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for token in _STRING_OR_BRACKET.finditer(text):
        found = token.group()
        if found == "[" or found == "{":
            depth += 1
            if depth > limit:
                return token.start() + 1
        elif found == "]" or found == "}":
            depth -= 1
            if depth < 0:
                return None
    return None


def value_too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether a parsed value nests arrays or objects more than `limit` deep (a value that
    holds itself does); stops at the first excess."""
    stack: List[Tuple[Any, int]] = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (list, dict)):
            if level > limit:
                return True
            stack.extend((item, level + 1) for item in (node.values() if isinstance(node, dict) else node))
    return False


def too_deep_diagnostic(column: Optional[int], file: str, line: int) -> Diagnostic:
    where = f" (from column {column})" if column else ""
    return make("json-too-deep",
                f"arrays or objects are nested more than {MAX_DEPTH} deep{where}; "
                "an SGN message is at most 6 deep", file=file, line=line, column=column)


# A JSON string, or a bracket, colon or comma: all that locates a key in valid JSON text.
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]', re.S)


def first_repeated_key(text: str) -> Optional[Tuple[tuple, str]]:
    """The path (keys and indexes, as in the text) and the key of the first key that
    repeats in an object, in text order; None when none does. `text` is valid JSON.

    Found on the text, not on the parsed value: of repeated keys a parser keeps one value,
    so the object that held a repeat may be gone from the value (a repeated key whose
    values both hold objects)."""
    keys: List[Optional[set]] = []       # per open container: the keys seen (None: an array)
    path: List[Any] = []                 # per open container: the current key or index
    expect_key = False
    for token in _STRUCTURE.finditer(text):
        found = token.group()
        if found == "{" or found == "[":
            keys.append(set() if found == "{" else None)
            path.append(0)
            expect_key = found == "{"
        elif found == "}" or found == "]":
            keys.pop()
            path.pop()
            expect_key = False
        elif found == ",":
            expect_key = keys[-1] is not None
            if not expect_key:
                path[-1] += 1
        elif found != ":" and expect_key:
            key = json.loads(found)
            seen = keys[-1]
            assert seen is not None
            if key in seen:
                return tuple(path[:-1]), key
            seen.add(key)
            path[-1] = key
            expect_key = False
    return None


class _Decoder:
    """A json.JSONDecoder that notices duplicate keys instead of silently dropping them."""

    def __init__(self) -> None:
        self.repeats = False
        self.decoder = json.JSONDecoder(object_pairs_hook=self._object,
                                        parse_constant=_refuse_constant,
                                        parse_int=_checked_int,
                                        parse_float=_checked_float)

    def _object(self, pairs):
        obj = dict(pairs)
        if len(obj) != len(pairs):
            self.repeats = True
        return obj


def parse_line(text: str, *, file: str = "<input>", line: int = 0) -> Union[Tuple[Any], Diagnostic]:
    """Parse one line: a 1-tuple holding the value, or the diagnostic that explains the failure.

    (A tuple, because `null` is a valid JSON value and must not be confused with failure.)
    """
    deep = too_deep(text)
    if deep is not None:
        return too_deep_diagnostic(deep, file, line)
    decoder = _Decoder()
    try:
        value = decoder.decoder.decode(text)
    except _Refused as refused:
        return make(refused.code, str(refused), file=file, line=line)
    except json.JSONDecodeError as error:
        return make("invalid-json", f"invalid JSON at column {error.colno}: {error.msg}",
                    file=file, line=line, column=error.colno)
    except RecursionError:     # pragma: no cover - only with a caller's stack all but exhausted
        return too_deep_diagnostic(None, file, line)
    if decoder.repeats:
        repeated = first_repeated_key(text)
        where, key = repeated if repeated is not None else ((), None)
        return make("json-duplicate-key",
                    f"the key {show(key) if key is not None else ''} appears twice in one object",
                    file=file, line=line, pointer=pointer_from_path(where + (key,)) if key is not None else "",
                    hint="keep one of the two entries")
    return (value,)
