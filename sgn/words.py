"""Words in messages: a count with its noun in the right number ("1 city", "2 cities")."""

from __future__ import annotations

import re

# Nouns whose plural is not the singular with an s.
_IRREGULAR = {"city": "cities"}


def plural(word: str) -> str:
    return _IRREGULAR.get(word, word + "s")


def count(n: int, word: str) -> str:
    """`n` and `word`, singular for 1 and plural otherwise: `count(1, "city")` is "1 city"."""
    return f"{n} {word if n == 1 else plural(word)}"


def printable(text: str) -> str:
    """`text` with any lone surrogate (from a JSON string such as "\\udcff" in the input)
    written as its escape `\\udcff`, so that no output stream, however strict, fails on
    it. In JSON text the escape is also the JSON escape of the same character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


# the C0 and C1 controls and DEL, and the two line breaks of Unicode that are no control
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def visible(text: str) -> str:
    """`text` with each control character written as its escape (`\\x1b`, `\\n`), and the
    line and paragraph separators too (`\\u2028`, `\\u2029`, line breaks to many editors
    and to `str.splitlines`): a file name or a pointer (a key of the message) may hold any,
    and the text report stays one line per diagnostic, with no escape sequence reaching
    the terminal but its own colours. Whatever reaches a terminal from outside goes through
    here: an implementation's words and output under `sgn conformance` too."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def player_label(name: str, names=None) -> str:
    """A player as the pictures and `sgn replay` name them: its number, and the name an
    engine gave it where one is known (`1 (RED)`; docs/format.md, "Players' names")."""
    given = names.get(name) if names else None
    return f"{name} ({visible(given)})" if given else str(name)
