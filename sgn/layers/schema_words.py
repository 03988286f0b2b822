"""jsonschema's errors in words: each failing keyword as a sentence that names the field and
the value (`show` writes any value short), in the order the fields appear in the message's
text. The schema layer (`schema.py`) says which errors to report; this says them."""

from __future__ import annotations

import json
from itertools import islice
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, NamedTuple, Tuple

from .. import rules
from ..diagnostic import MAX_PROBLEMS

if TYPE_CHECKING:
    from jsonschema import Draft4Validator

_TYPE_NAMES = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "array": "an array",
    "object": "an object",
    "null": "null",
    "boolean": "a boolean",
}


def show(value: Any, limit: int = 60) -> str:
    """A value as compact JSON, shortened for a one-line message. Only the start of a large
    value is written, so that a value of any size costs no more than a small one."""
    pieces: List[str] = []
    size = 0
    stack: List[Any] = [value]
    while stack and size <= limit:
        node = stack.pop()
        if isinstance(node, _Raw):
            text = node.text
        elif isinstance(node, list):
            text = "["
            stack.append(_Raw("]"))
            for i in range(min(len(node), limit + 1) - 1, -1, -1):  # more could not be shown
                stack.append(node[i])
                if i:
                    stack.append(_Raw(","))
        elif isinstance(node, dict):
            text = "{"
            stack.append(_Raw("}"))
            items = list(islice(node.items(), limit + 1))  # more could not be shown
            for i in range(len(items) - 1, -1, -1):
                stack.append(items[i][1])
                stack.append(_Raw(_key(items[i][0]) + ":"))
                if i:
                    stack.append(_Raw(","))
        else:
            text = _scalar(node)
        pieces.append(text)
        size += len(text)
    text = "".join(pieces)
    # a lone surrogate (from an escape such as \ud800) is no text: written as its escape
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit and not stack else text[: limit - 1] + "\u2026"


class _Raw(NamedTuple):
    """Text `show` writes as it is (brackets and commas between the items it writes)."""

    text: str


def _key(key: Any) -> str:
    """A key as JSON writes it (a number or null becomes a string)."""
    try:
        return json.dumps({key: 0}, ensure_ascii=False, separators=(",", ":"))[1:-3]
    except (TypeError, ValueError):
        return repr(key)


def _scalar(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    for python, name in ((str, "a string"), (list, "an array"), (dict, "an object")):
        if isinstance(value, python):
            return name
    return "null"


def title_of(error) -> str:
    return error.schema.get("title", "value")


# The codes an enum lists, named (a tile code is no word to someone who has not read the format).
_CODE_NAMES: Dict[str, str] = {**rules.TILE_NAMES, **rules.CARD_NAMES, **rules.HARBOR_NAMES}


def _one_of_names(values: Iterable[Any]) -> str:
    return ", ".join(
        "null" if v is None else f"{v} ({_CODE_NAMES[v]})" if isinstance(v, str) and v in _CODE_NAMES else str(v)
        for v in values
    )


def _exact(error, lo: str, hi: str) -> str:
    schema = error.schema
    if schema.get(lo) == schema.get(hi):
        return f"exactly {schema[lo]}"
    return f"at least {schema[lo]}" if error.validator == lo else f"at most {schema[hi]}"


# keyword -> (code, message builder); the builder gets the jsonschema error.
KEYWORDS: Dict[str, Tuple[str, Callable[[Any], str]]] = {
    "type": (
        "schema-type",
        lambda e: "{} is {}, expected {} ({})".format(
            show(e.instance),
            json_type(e.instance),
            " or ".join(
                _TYPE_NAMES[t]
                for t in (e.validator_value if isinstance(e.validator_value, list) else [e.validator_value])
            ),
            title_of(e),
        ),
    ),
    "enum": (
        "schema-enum",
        lambda e: "{} is not a valid {}; expected one of {}".format(
            show(e.instance), title_of(e), _one_of_names(e.validator_value)
        ),
    ),
    "minItems": (
        "schema-too-few-items",
        lambda e: "{} has {} item{}, expected {}".format(
            title_of(e), len(e.instance), "" if len(e.instance) == 1 else "s", _exact(e, "minItems", "maxItems")
        ),
    ),
    "maxItems": (
        "schema-too-many-items",
        lambda e: "{} has {} items, expected {}".format(
            title_of(e), len(e.instance), _exact(e, "minItems", "maxItems")
        ),
    ),
    "minimum": (
        "schema-minimum",
        lambda e: "{} is less than the minimum {}".format(show(e.instance), e.validator_value),
    ),
    "maximum": (
        "schema-maximum",
        lambda e: "{} is greater than the maximum {}".format(show(e.instance), e.validator_value),
    ),
}


class DocumentOrder:
    """Sort keys that put paths into a value in the order they appear in its JSON text (an
    object keeps its members in text order), worked out for the paths asked about only.

    A path that does not exist (a missing member) sorts with its nearest existing parent."""

    def __init__(self, value: Any):
        self.value = value
        self.members: Dict[int, Dict[Any, int]] = {}  # id of an object -> its keys' places

    def __call__(self, path: tuple) -> tuple:
        node, places = self.value, []
        for step in path:
            if isinstance(node, dict) and step in node:
                table = self.members.get(id(node))
                if table is None:
                    table = self.members[id(node)] = {key: i for i, key in enumerate(node)}
                places.append(table[step])
            elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
                places.append(step)
            else:
                break
            node = node[step]
        return tuple(places)


def first_errors(validator: "Draft4Validator", value: Any, limit: int = MAX_PROBLEMS) -> Tuple[list, bool]:
    """The first `limit` errors the validator finds (in document order), and whether there
    are more: the rest are never made, so a value of thousands of faults costs no more."""
    found = validator.iter_errors(value)
    errors = list(islice(found, limit))
    more = next(found, None) is not None
    order = DocumentOrder(value)
    errors.sort(key=lambda e: order(tuple(e.absolute_path)))
    return errors, more
