"""Words in messages: a count with its noun in the right number ("1 city", "2 cities")."""
from __future__ import annotations

# Nouns whose plural is not the singular with an s.
_IRREGULAR = {"city": "cities"}


def plural(word: str) -> str:
    return _IRREGULAR.get(word, word + "s")


def count(n: int, word: str) -> str:
    """`n` and `word`, singular for 1 and plural otherwise: `count(1, "city")` is "1 city"."""
    return f"{n} {word if n == 1 else plural(word)}"
