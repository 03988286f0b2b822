"""The registry of diagnostic codes: one row per code, never renamed, removed or reused.
A row is (name, layer, default severity, one sentence), in the module of its layers
(`messages`, `replay`, `notations`), in the order `sgn codes` lists them; here each
becomes a `Code`.

A code names a rule, not a place in the program. Its layer says which stage
finds it; its severity is the default one. Examples of each code are the
corpus cases that raise it (docs/codes.md shows them).
"""

from __future__ import annotations

from typing import Dict, NamedTuple, Tuple

from . import messages, notations, replay  # the rows of the table, by layer

IO_LAYER = "io"
LAYERS: Tuple[str, ...] = (IO_LAYER, "syntax", "schema", "semantic", "rules", "notation")

# What each layer checks, said where a code is explained (`sgn codes CODE`, SARIF's rule help),
# so that an explanation needs no file that is not installed.
LAYER_ABOUT: Dict[str, str] = {
    "io": "the file as bytes: it exists, can be read, and a gzip stream in it is whole.",
    "syntax": "each line is one JSON value in UTF-8 (RFC 8259), with no key twice in an object; "
    "SGN is one message a line.",
    "schema": "each message has the shape SGN v1.0's JSON Schema gives its action code: its fields, "
    "their types and their ranges.",
    "semantic": "each message holds together by itself: places that exist, trades that balance, "
    "players that differ where they must.",
    "rules": "the game is replayed from its map by the rulebook (the base game, or the 5-6 player "
    "extension): each message must be a legal move in the state the earlier ones left.",
    "notation": "the neighbouring notations (HAN actions, HSN states, HSGN turns) as `sgn parse` and "
    "`sgn convert` read them.",
}


class Code(NamedTuple):
    name: str
    layer: str
    severity: str
    summary: str


_TABLE = [Code(*row) for row in messages.ROWS + replay.ROWS + notations.ROWS]

CODES: Dict[str, Code] = {c.name: c for c in _TABLE}
assert len(CODES) == len(_TABLE), "duplicate code name"
assert all(c.layer in LAYERS for c in _TABLE)
