"""The codes of the neighbouring notations (`sgn/notation/`, `sgn/adapters/`): HAN, HSN and
HSGN read, other engines' games converted, `sgn parse` and `sgn convert`.
Its rows are those of `sgn.codes`'s table (which says what a row holds), in its order.
"""

from __future__ import annotations

from typing import List, Tuple

ROWS: List[Tuple[str, str, str, str]] = [
    # notation: reading and converting the neighbouring notations (sgn parse, sgn convert).
    (
        "han-syntax",
        "notation",
        "error",
        "A HAN action does not follow the published HAN grammar; the column is the character at fault.",
    ),
    (
        "han-place",
        "notation",
        "error",
        "A HAN coordinate names no place of the standard board (HAN has no map: its coordinates are the places of the published HAN text's default setup, d4 its centre).",
    ),
    (
        "han-style",
        "notation",
        "warning",
        "A HAN action breaks a SHOULD rule: a count of 1 written, resources or dice out of the standard order.",
    ),
    (
        "hsn-syntax",
        "notation",
        "error",
        "An HSN state (seed 000, or 002 with --notation hsn-002) does not follow the grammar; the line and column are those of the field at fault.",
    ),
    (
        "hsgn-syntax",
        "notation",
        "error",
        "A line of HSGN turns (seed 004) does not follow the turn notation; the column is the character at fault.",
    ),
    (
        "hsgn-name",
        "notation",
        "error",
        "An HSGN hex, crossroad or edge name is no place of the standard board, or fits several (a bare z that could be more than one sea hex).",
    ),
    (
        "hsgn-style",
        "notation",
        "warning",
        "An HSGN turn is read, but differs from the notation: a player written as a bare number (as the published HSGN text writes T2), a resource written twice, a count of 0.",
    ),
    (
        "engine-input",
        "notation",
        "error",
        "sgn convert --from catanatron or jsettlers: the input is not a record of that engine's game, or a value in it is not what the engine writes there (docs/engines.md); the rest is converted where it can be.",
    ),
    (
        "engine-unknown",
        "notation",
        "warning",
        "sgn convert --from catanatron or jsettlers: an action or message the converter does not know; it is left out, never guessed at, and the rest is converted.",
    ),
    (
        "no-counterpart",
        "notation",
        "warning",
        "A message or action has no counterpart in the target notation (e.g. HAN's R? in SGN, SGN's DM in HAN or HSGN): it is left out, and the rest is converted.",
    ),
]
