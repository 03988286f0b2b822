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


# the C0 and C1 controls and DEL, the two line breaks of Unicode that are no control, and
# the invisible characters that change what a terminal shows: the bidirectional overrides,
# embeddings, isolates and marks (a name could run the rest of a line backwards), the
# zero-width spaces and joiners, the byte order mark, the soft hyphen, and the other format
# characters (Unicode's category Cf, tags included)
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f]"
)


def visible(text: str) -> str:
    """`text` with each control character written as its escape (`\\x1b`, `\\n`), and the
    line and paragraph separators too (`\\u2028`, `\\u2029`, line breaks to many editors
    and to `str.splitlines`): a file name or a pointer (a key of the message) may hold any,
    and the text report stays one line per diagnostic, with no escape sequence reaching
    the terminal but its own colours. Whatever reaches a terminal from outside goes through
    here: an implementation's words and output under `sgn conformance` too."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def cells(text: str) -> int:
    """How many cells of a terminal `text` takes: a wide or full-width character two (most of
    Chinese, Japanese and Korean), a combining mark none, any other one; so that carets stay
    under what they mark (docs/checks.md, "Columns")."""
    import unicodedata

    width = 0
    for c in text:
        if c.isascii():
            width += 1
        elif unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        else:
            width += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return width


def player_label(name: str, names=None) -> str:
    """A player as the pictures and `sgn replay` name them: its number, and the name an
    engine gave it where one is known (`1 (RED)`; docs/format.md, "Players' names")."""
    given = names.get(name) if names else None
    return f"{name} ({visible(given)})" if given else str(name)
