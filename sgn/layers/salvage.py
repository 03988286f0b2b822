"""What a line that is no JSON can still be read as: the replay's readings of a refused line
(`sgn/game/refused.py`) take its readable parts, so that a byte that is no UTF-8, a `NaN`,
a key written twice or a bracket left open costs one error, not the next ones too.

Nothing here is a verdict: the line was refused, and reported, by its layer; this only
tells the replay what the line may have meant. The reading is lenient where the JSON
layer is strict: bytes that are no UTF-8 replaced, `NaN` and numbers past range taken, a
key written twice taken once (the last), the brackets a cut line left open closed.
"""

from __future__ import annotations

import json
from typing import Any, List, Optional

_CLOSING = {"[": "]", "{": "}"}


def salvage(raw: bytes) -> Optional[Any]:
    """The value a refused line's text can be read as, or None."""
    text = raw.decode("utf-8", "replace").strip().lstrip("\ufeff")
    if not text or len(text) > 1 << 16:
        return None
    for candidate in (text, _closed(text)):
        if candidate is None:
            continue
        try:
            return json.loads(candidate)
        except (ValueError, RecursionError):
            continue
    return None


def _closed(text: str) -> Optional[str]:
    """The text with the strings and brackets it leaves open closed (a line cut short), or
    None when nothing is open."""
    stack: List[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in _CLOSING:
            stack.append(_CLOSING[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
    if not stack and not in_string:
        return None
    body = text + ('"' if in_string else "")
    return body.rstrip(",:") + "".join(reversed(stack))


__all__ = ["salvage"]
