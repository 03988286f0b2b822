"""Single edits of a game's lines, one for each code of the syntax, schema and semantic
layers: what the promise "one fault, one error" is measured on (docs/rules.md, "A message
another layer refused"; `bench/bench_refused_lines.py`, `t/test_refused_lines.py`).

An edit takes one line of a game and writes it again with one fault that one of those
layers refuses, as a writer's slip would: a key misspelt, a sign flipped, a seat not in
the game, a tile off the map, a byte that is no UTF-8. `EDITS` is the table, one row a
code: the actions whose lines it edits and the function that writes the edited line
(None where a line has no place for it). `edits_of(lines, rng)` draws them over a game.

What the edited log must give is the promise's: exactly one line with errors, the edited
one, and no later error that the unedited game does not have (`judge`).
"""

from __future__ import annotations

import json
import random
from typing import Dict, FrozenSet, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from .slips import (
    Board,
    Edit,
    action_unknown,
    card_edit,
    duplicate_key,
    duplicate_tile,
    far,
    far_corner,
    first_key,
    flip_victim,
    harbor_inland,
    harbors_touch,
    intersection_edit,
    invalid_json,
    invalid_utf8,
    map_edit,
    no_number,
    no_sea_tile,
    not_array,
    number_as,
    number_on_desert,
    one_sided,
    path_edit,
    player_is,
    resource_key,
    robber_edit,
    shortened,
    steal_actor,
    too_deep,
    trade_actor,
    trade_with_self,
    unbalanced,
    value_edit,
    victim_is,
    with_key,
    without_key,
    zero,
)


class Row(NamedTuple):
    code: str
    actions: FrozenSet[str]  # the action codes of the lines it edits (empty: any line but the map)
    edit: Edit
    hidden: str = "allow"  # the setting the edited log is checked with


class SingleEdit(NamedTuple):
    code: str  # the code the edit is written to raise
    at: int  # the line edited, from 0
    data: bytes  # the edited line
    hidden: str


_ANY: FrozenSet[str] = frozenset()


def _on(*actions: str) -> FrozenSet[str]:
    return frozenset(actions)


EDITS: Tuple[Row, ...] = (
    # syntax
    Row("invalid-utf8", _ANY, invalid_utf8),
    Row("invalid-json", _ANY, invalid_json),
    Row("json-nan-infinity", _ANY, number_as("NaN")),
    Row("json-duplicate-key", _ANY, duplicate_key),
    Row("json-number-too-long", _ANY, number_as("1" * 120)),
    Row("json-number-out-of-range", _ANY, number_as("1e400")),
    Row("json-too-deep", _ANY, too_deep),
    # schema
    Row("message-not-array", _ANY, not_array),
    Row("message-length", _ANY, shortened),
    Row("unknown-player", _ANY, player_is("7")),
    Row("unknown-action", _ANY, action_unknown),
    Row("schema-type", _on("RD"), value_edit(lambda v: first_key(v, str))),
    Row("schema-type", _on("MR"), value_edit(lambda v: first_key(v, lambda t: [str(n) for n in t]))),
    Row("schema-enum", _on("BD", "PD"), value_edit(with_key("cCode", "XX"))),
    Row("schema-required", _on("RD", "MR", "BS", "BR", "BC", "BD", "PD"), value_edit(lambda v: {})),
    Row("schema-unknown-property", _on("TR", "ST"), value_edit(resource_key("Ore"))),
    Row("schema-too-few-items", _on("BS", "BC"), value_edit(lambda v: {"intersection": v["intersection"][:2]})),
    Row("schema-too-many-items", _on("MR"), value_edit(lambda v: {"tile": v["tile"] + [0]})),
    Row("schema-minimum", _on("RD"), value_edit(lambda v: {"result": 1})),
    Row("schema-maximum", _on("RD"), value_edit(lambda v: {"result": 13})),
    Row("hidden-value", _on("ST"), value_edit(resource_key("?")), hidden="refuse"),
    Row("header-not-bank", _on("HD"), player_is("1")),
    # semantic
    Row("bank-acts", _ANY, player_is("B")),
    Row("intersection-repeated-tile", _on("BS", "BC"), intersection_edit(lambda t, b: [t[0], t[0], t[2]])),
    Row("intersection-not-adjacent", _on("BS", "BC"), intersection_edit(lambda t, b: [t[0], t[1], list(far(t[2]))])),
    Row("intersection-at-sea", _on("BS", "BC"), intersection_edit(lambda t, b: [list(far(x)) for x in t])),
    Row("path-same-intersection", _on("BR"), path_edit(lambda p, b: [p[0], p[0]])),
    Row("path-not-adjacent", _on("BR"), path_edit(lambda p, b: far_corner(p))),
    Row("path-at-sea", _on("BR"), path_edit(lambda p, b: [[list(far(tuple(t))) for t in end] for end in p])),
    Row("robber-off-map", _on("MR"), robber_edit(lambda b: far(min(b.land)))),
    Row("robber-at-sea", _on("MR"), robber_edit(lambda b: min(b.sea) if b.sea else None)),
    Row("card-resources-missing", _on("PD"), card_edit(without_key("rCodes"), ("YP", "MO"))),
    Row(
        "card-resources-count",
        _on("PD"),
        card_edit(lambda v: dict(v, rCodes=v["rCodes"][:1] * (3 - len(v["rCodes"]))), ("YP", "MO")),
    ),
    Row("card-resources-unexpected", _on("PD"), card_edit(with_key("rCodes", ["B"]), ("KN", "RB", "VP"))),
    Row("header-form", _on("HD"), value_edit(with_key("date", "02/12/2026"))),
    Row("header-inconsistent", _on("HD"), value_edit(with_key("result", {"how": "won"}))),
    Row("trade-same-player", _on("TR"), trade_with_self),
    Row("trade-actor-not-party", _on("TR"), trade_actor),
    Row("trade-zero-amount", _on("TR"), value_edit(zero)),
    Row("trade-unbalanced", _on("TR"), value_edit(unbalanced)),
    Row("trade-one-sided", _on("TR"), value_edit(one_sided)),
    Row("steal-same-player", _on("ST"), value_edit(victim_is(None))),
    Row("steal-with-bank", _on("ST"), value_edit(victim_is("B"))),
    Row("steal-not-one-card", _on("ST"), value_edit(flip_victim)),
    Row("steal-actor-not-thief", _on("ST"), steal_actor),
    Row("map-duplicate-tile", _on("DM"), map_edit(duplicate_tile)),
    Row("map-sea-ring", _on("DM"), map_edit(no_sea_tile)),
    Row("map-number-missing", _on("DM"), map_edit(no_number)),
    Row("map-number-on-barren", _on("DM"), map_edit(number_on_desert)),
    Row("harbor-not-coastal", _on("DM"), map_edit(harbor_inland)),
    Row("harbors-share-intersection", _on("DM"), map_edit(harbors_touch)),
)
# The codes of those layers that no edit of one line of a game can raise, and why.
NOT_EDITS: Dict[str, str] = {
    "empty-file": "a file, not a line",
    "gzip-truncated": "a file, not a line",
    "gzip-corrupt": "a file, not a line",
    "log-as-array": "a file, not a line",
    "line-too-long": "a line past --max-line-bytes (256 KiB) is refused before it is read; it is read as lost",
    "json-multiline": "a message written over several lines is more than one line",
    "schema-invalid": "raised by no message of a game the schema's other codes do not name first",
    "map-shape": "a land tile removed is a sea-ring fault first (map-sea-ring)",
    "intersection-off-map": "on a board ringed by sea, a corner that touches land has no tile off the map",
    "extension-line": "raised only under the profile v1.0, which reads no record line: each is refused, and "
    "read as not there (t/test_records.py)",
}


def board_of(lines: Sequence[bytes]) -> Optional[Board]:
    """The map of the game's first line (after its header, if it has one) and the seats its
    setup shows, or None."""
    if lines and b'"HD"' in lines[0][:12]:
        lines = lines[1:]
    first = json.loads(lines[0]) if lines else None
    if not (isinstance(first, list) and len(first) == 3 and first[1] == "DM"):
        return None
    kinds = {tuple(t["tile"]): t["tCode"] for t in first[2]["tiles"]}
    seats = sorted({json.loads(line)[0] for line in lines[1:] if b'"BS"' in line[:12]} - {"B"}, key=int)
    return Board(
        frozenset(t for t, k in kinds.items() if k != "S"),
        frozenset(t for t, k in kinds.items() if k == "S"),
        tuple(seats),
    )


def edits_of(lines: Sequence[bytes], rng: random.Random, per_code: int = 1) -> Iterator[SingleEdit]:
    """Up to `per_code` edits of each code over a game (its lines, a map first), each at a line
    drawn at random among those of the actions it edits."""
    b = board_of(lines)
    if b is None:
        return
    messages = [json.loads(line) for line in lines]
    by_code: Dict[str, List[Row]] = {}
    for row in EDITS:
        by_code.setdefault(row.code, []).append(row)
    for code, rows in by_code.items():
        spots = [
            (i, row)
            for row in rows
            for i, m in enumerate(messages)
            if (m[1] in row.actions if row.actions else m[1] != "DM")
        ]
        rng.shuffle(spots)
        made = 0
        for i, row in spots:
            if made >= per_code:
                break
            data = row.edit(messages[i], b, rng)
            if data is not None and data != lines[i]:
                made += 1
                yield SingleEdit(code, i, data, row.hidden)


class Verdict(NamedTuple):
    raised: bool  # the edited line has the code the edit was written for
    one_line: bool  # every new error is on the edited line
    later: List[Tuple[int, str]]  # new errors after the edited line
    lost: List[Tuple[int, str]]  # the unedited game's errors, after the edited line, not reported


def judge(base: List[Tuple[int, str]], found: List[Tuple[int, str]], edit: SingleEdit) -> Verdict:
    """What an edited log's errors (line, code) say against the unedited game's `base`."""
    line = edit.at + 1
    new = [e for e in found if e not in base]
    return Verdict(
        any(n == line and c == edit.code for n, c in found),
        bool(new) and all(n == line for n, _ in new),
        [e for e in new if e[0] > line],
        [e for e in base if e[0] > line and e not in found],
    )


__all__ = ["EDITS", "NOT_EDITS", "Board", "Row", "SingleEdit", "Verdict", "board_of", "edits_of", "judge"]
