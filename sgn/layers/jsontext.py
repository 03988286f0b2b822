"""Facts read off JSON text before, or instead of, parsing it: how deep it nests, and where
a key first repeats.

Both are decided on the text so that no parser's own limits, nor the parsed value (which
keeps one value of a repeated key), can change the answer. One scan serves both: it finds
the strings and the brackets, colons and commas outside them, in time linear in the text
and in constant memory whatever the strings hold (a regular expression that matched a
whole string would keep state for each of its characters).
"""

from __future__ import annotations

import json
import re
from typing import Any, Final, Iterator, List, Optional, Tuple, Union

MAX_DEPTH: Final = 64  # arrays and objects nested deeper than this are refused (an SGN message is 6 deep)

_QUOTE_OR_STRUCTURE = re.compile(r'["\[\]{}:,]')


def _tokens(text: str) -> Iterator[Tuple[int, int]]:
    """(start, end) of each string, from its opening quote to past its closing one (or to
    the end of the text, if it is not closed), and of each bracket, colon and comma
    outside strings, in text order."""
    found = _QUOTE_OR_STRUCTURE.finditer(text)
    for match in found:
        start = match.start()
        if text[start] != '"':
            yield start, start + 1
            continue
        for inner in found:  # the same iterator: on to the closing quote
            end = inner.start()
            if text[end] != '"':
                continue
            before = end - 1
            while text[before] == "\\":  # stops at the opening quote at the latest
                before -= 1
            if (end - 1 - before) % 2 == 0:  # not escaped: an even run of backslashes
                yield start, end + 1
                break
        else:
            yield start, len(text)
            return


def too_deep(text: Union[str, bytes], limit: int = MAX_DEPTH) -> Optional[int]:
    """The 1-based position (in characters, or in bytes for bytes) of the first bracket that
    opens more than `limit` levels of nesting, or None. Brackets inside strings do not count;
    an unmatched closing bracket ends the count (the text is then not JSON, which the
    parser explains). Stops at the first excess."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")  # one character a byte: the positions are the bytes'
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for start, _ in _tokens(text):
        char = text[start]
        if char == "[" or char == "{":
            depth += 1
            if depth > limit:
                return start + 1
        elif char == "]" or char == "}":
            depth -= 1
            if depth < 0:
                return None
    return None


def first_repeated_key(text: str) -> Optional[Tuple[tuple, str]]:
    """The path (keys and indexes, as in the text) and the key of the first key that
    repeats in an object, in text order; None when none does. `text` is valid JSON.

    Found on the text, not on the parsed value: of repeated keys a parser keeps one value,
    so the object that held a repeat may be gone from the value (a repeated key whose
    values both hold objects)."""
    keys: List[Optional[set]] = []  # per open container: the keys seen (None: an array)
    path: List[Any] = []  # per open container: the current key or index
    expect_key = False
    for start, end in _tokens(text):
        char = text[start]
        if char == "{" or char == "[":
            keys.append(set() if char == "{" else None)
            path.append(0)
            expect_key = char == "{"
        elif char == "}" or char == "]":
            keys.pop()
            path.pop()
            expect_key = False
        elif char == ",":
            expect_key = keys[-1] is not None
            if not expect_key:
                path[-1] += 1
        elif char == '"' and expect_key:
            key = json.loads(text[start:end])
            seen = keys[-1]
            assert seen is not None
            if key in seen:
                return tuple(path[:-1]), key
            seen.add(key)
            path[-1] = key
            expect_key = False
    return None


def bracket_balance(text: Union[str, bytes]) -> int:
    """Brackets opened minus brackets closed, outside strings: how much deeper the text
    leaves a JSON value than it found it (a line of a value written over several lines)."""
    if isinstance(text, bytes):
        text = text.decode("latin-1")  # brackets and quotes are ASCII: one character a byte
    balance = 0
    for start, _ in _tokens(text):
        char = text[start]
        if char == "[" or char == "{":
            balance += 1
        elif char == "]" or char == "}":
            balance -= 1
    return balance
