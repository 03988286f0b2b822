"""The canonical form of an SGN message, as `sgn convert --to sgn` writes it.

Two logs that say the same thing in the order SGN leaves free read the same once
written this way, so that they can be compared line by line (`diff`):
- compact JSON (no spaces), one message a line;
- the keys of every object in the order the schema lists its properties;
- an intersection's tiles clockwise from the top (then western) tile, a path's upper
  end first (`board.canonical_corner`, `board.canonical_edge`).
The schema (`schema/v1.0/message.json`) says where an intersection or a path is, so
that this follows it wherever it adds one. The message must be valid at the semantic
level: a listing that is no corner has no canonical order.
"""

from __future__ import annotations

import json
from typing import Any

from .. import board, packaged
from ..layers.schema import SCHEMA_FILE

_INTERSECTION = "#/definitions/intersection"
_PATH = "#/definitions/path"


def _resolved(schema: dict, root: dict) -> dict:
    while "$ref" in schema:
        schema = _at(root, schema["$ref"])
    return schema


def _at(root: dict, ref: str) -> dict:
    node: Any = root
    for key in ref.lstrip("#/").split("/"):
        node = node[key]
    return node


def _corner(tiles) -> list:
    return [list(t) for t in board.canonical_corner(tuple(t) for t in tiles)]


def _ordered(value: Any, schema: dict, root: dict) -> Any:
    ref = schema.get("$ref")
    if ref == _INTERSECTION:
        return _corner(value)
    if ref == _PATH:
        ends = board.edge(*(frozenset(tuple(t) for t in end) for end in value))
        return [[list(t) for t in end] for end in board.canonical_edge(ends)]
    schema = _resolved(schema, root)
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        keys = [k for k in properties if k in value] + [k for k in value if k not in properties]
        return {k: _ordered(value[k], properties.get(k, {}), root) for k in keys}
    if isinstance(value, list):
        items = schema.get("items", {})
        if isinstance(items, list):
            return [_ordered(v, items[i] if i < len(items) else {}, root) for i, v in enumerate(value)]
        return [_ordered(v, items, root) for v in value]
    return value


def canonical(message: list) -> list:
    """The message with its objects' keys, intersections and paths in canonical order."""
    root = packaged.load_json(SCHEMA_FILE)
    values = root["definitions"]["values"]
    player, code, value = message
    return [player, code, _ordered(value, values.get(code, {}), root)]


def canonical_line(message: list) -> str:
    """The canonical message as one line of compact JSON (without its newline)."""
    return json.dumps(canonical(message), separators=(",", ":"))
