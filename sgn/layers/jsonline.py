"""Parsing: one line of text to one JSON value, strictly.

Stricter than Python's json module: NaN and Infinity are refused, as is a number
beyond the range of a double (1e400, which Python would read as infinity); a key
repeated in an object is an error (its meaning is undefined), number literals
longer than any SGN field could need are refused before Python converts them
(converting a huge literal costs quadratic time), and nesting too deep for the
parser is reported, never raised.
"""

from __future__ import annotations

import json
import math
from typing import Any, Final, List, Optional, Tuple, Union

from ..diagnostic import Diagnostic, make, pointer_from_path
from .jsontext import MAX_DEPTH, first_repeated_key, too_deep
from .schema import show

__all__ = ["MAX_DEPTH", "MAX_NUMBER_CHARS", "parse_line", "too_deep", "too_deep_diagnostic", "value_problem"]

MAX_NUMBER_CHARS: Final = 100


class _Refused(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _refuse_constant(name: str):
    raise _Refused("json-nan-infinity", f"{name} is not a JSON number")


def _checked_int(literal: str) -> int:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _Refused(
            "json-number-too-long",
            f"a number literal of {len(literal)} characters (more than {MAX_NUMBER_CHARS}) is refused",
        )
    return int(literal)


def _checked_float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _Refused(
            "json-number-too-long",
            f"a number literal of {len(literal)} characters (more than {MAX_NUMBER_CHARS}) is refused",
        )
    value = float(literal)
    if math.isinf(value):  # 1e400: a parser either refuses it or makes it infinity
        raise _Refused(
            "json-number-out-of-range",
            f"the number {literal} is beyond the range of a double (about 1.8e308) and is refused",
        )
    return value


def value_problem(value: Any, *, file: str = "<input>", line: int = 0) -> Optional[Diagnostic]:
    """What no line could hold, in a value given as already parsed: nesting deeper than
    MAX_DEPTH (a value that holds itself is), an integer longer than MAX_NUMBER_CHARS, NaN
    or an infinity; None when there is none. The same codes as for a line of text."""
    stack: List[Tuple[Any, int]] = [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, (list, dict)):
            if level > MAX_DEPTH:
                return too_deep_diagnostic(None, file, line)
            stack.extend((item, level + 1) for item in (node.values() if isinstance(node, dict) else node))
        elif (
            isinstance(node, int) and not isinstance(node, bool) and abs(node) >= 10 ** (MAX_NUMBER_CHARS - (node < 0))
        ):
            return make(
                "json-number-too-long",
                f"an integer of more than {MAX_NUMBER_CHARS} characters is refused",
                file=file,
                line=line,
            )
        elif isinstance(node, float) and not math.isfinite(node):
            return make("json-nan-infinity", f"{node!r} is not a JSON number", file=file, line=line)
    return None


def too_deep_diagnostic(column: Optional[int], file: str, line: int) -> Diagnostic:
    where = f" (from column {column})" if column else ""
    return make(
        "json-too-deep",
        f"arrays or objects are nested more than {MAX_DEPTH} deep{where}; an SGN message is at most 6 deep",
        file=file,
        line=line,
        column=column,
    )


def _explain(error: json.JSONDecodeError, text: str) -> str:
    """What the parser's message means for a line of SGN, in words a reader knows at once."""
    at_end = error.pos >= len(text.rstrip())
    found = text[error.pos : error.pos + 1]
    msg = error.msg
    if msg == "Extra data":
        return (
            "two JSON values on one line (SGN is one message per line)"
            if text[error.pos :].strip()[:1] in '[{"'
            else f"unexpected {found!r} after the end of the message"
        )
    if at_end and msg.startswith(("Expecting", "Unterminated")):
        if msg.startswith("Unterminated"):
            return "the line ends inside a string (its closing '\"' is missing)"
        if not text.strip():
            return "the line holds no JSON value"
        return "the line ends before the message is closed (a ']' or '}' is missing, or the message goes on over several lines)"
    if msg == "Expecting ',' delimiter":
        if found.isdigit() and text[error.pos - 1 : error.pos] == "0":
            return "a number may not start with 0 (write 7, not 07)"
        return f"a ',' is missing before {found!r} (between two items)"
    if msg == "Expecting ':' delimiter":
        return "a ':' is missing after a key"
    if msg.startswith("Expecting property name"):
        return (
            "a comma before '}' (JSON has no trailing comma)"
            if found == "}"
            else f"a key must be a string in double quotes, not {found!r}"
        )
    if msg == "Expecting value":
        if found in "]}":
            return f"a value is missing before {found!r} (JSON has no trailing comma)"
        if found == "'":
            return "JSON strings are written in double quotes, not single quotes"
        return f"{found!r} does not start a JSON value (a string in double quotes, a number, an array, an object, true, false or null)"
    if msg.startswith("Unterminated string"):
        return "the line ends inside a string (its closing '\"' is missing)"
    if msg.startswith("Invalid control character"):
        return "a control character (a tab, say) inside a string must be written as an escape (\\t)"
    if msg.startswith("Invalid \\uXXXX"):
        return "'\\u' in a string must be followed by four hexadecimal digits"
    if msg.startswith("Invalid \\escape"):
        return 'an unknown escape in a string (JSON has \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)'
    return msg[:1].lower() + msg[1:]


class _Decoder:
    """A json.JSONDecoder that notices duplicate keys instead of silently dropping them."""

    def __init__(self) -> None:
        self.repeats = False
        self.decoder = json.JSONDecoder(
            object_pairs_hook=self._object,
            parse_constant=_refuse_constant,
            parse_int=_checked_int,
            parse_float=_checked_float,
        )

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
        return make("invalid-json", f"invalid JSON: {_explain(error, text)}", file=file, line=line, column=error.colno)
    except RecursionError:  # pragma: no cover - only with a caller's stack all but exhausted
        return too_deep_diagnostic(None, file, line)
    if decoder.repeats:
        repeated = first_repeated_key(text)
        where, key = repeated if repeated is not None else ((), None)
        return make(
            "json-duplicate-key",
            f"the key {show(key) if key is not None else ''} appears twice in one object",
            file=file,
            line=line,
            pointer=pointer_from_path(where + (key,)) if key is not None else "",
            hint="keep one of the two entries",
        )
    return (value,)
