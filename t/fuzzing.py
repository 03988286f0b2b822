"""Inputs made to break the promises: real SGN lines mutated where two readings could differ.

The mutations aim at the places a fast parser and a careful one, or a compiled build and
an interpreted one, could part: a key repeated with any whitespace and any escapes, lone
surrogates, nesting around the limits of the checks and of the parsers, arrays too short
or too long, numbers at and past every limit, values of the wrong type, and the bytes
around a line (a byte order mark, CRLF, no final newline). The seeds are real lines: the
corpus's messages and the bundled games.
"""

import json
from typing import Any, List

from hypothesis import strategies as st

from conftest import CORPUS, corpus_cases

_CASES = corpus_cases()
GAME = (CORPUS / "games" / "random-4p.sgn").read_text().splitlines()
MAPS = [
    (CORPUS / "maps" / name).read_text().strip() for name in ("standard.sgn", "extended.sgn", "standard-rotated-60.sgn")
]
SEEDS: List[Any] = (
    [c["input"] for c in _CASES if c["kind"] == "message"]
    + [m for c in _CASES if c["kind"] == "log" for m in c["input"]]
    + [json.loads(line) for line in GAME[:120]]
)

WHITESPACE = ("", "", "", "", " ", "\t", "\r", " \t\r ")
DEPTHS = (3, 6, 58, 62, 63, 64, 65, 66, 70, 980, 985, 990, 995, 1000, 1022, 1024, 1030)


class Literal(str):
    """A number written exactly so (a literal no Python value gives)."""


NUMBERS = (
    Literal("1" + "0" * 99),
    Literal("1" + "0" * 100),
    Literal("8.0"),
    Literal("8e0"),
    Literal("80E-1"),
    Literal("-0"),
    Literal("-0.0"),
    Literal("1e400"),
    Literal("-1e400"),
    Literal("0." + "0" * 98 + "1"),
    Literal("08"),
    Literal("8."),
    Literal("NaN"),
    Literal("Infinity"),
    2**63,
    2**64,
    -(2**63) - 1,
    10**30,
    1.5,
    12,
    13,
    0,
    -1,
)
LEAVES = (None, True, False, "", "8", "RD", "\ud800", "a\udfffb", "\u0000", "\u2028", [], {}, 8)


def _places(value, path=()):
    """Every (path, sub-value) of a value, the value itself first."""
    found = [(path, value)]
    stack = [(path, value)]
    while stack:
        where, node = stack.pop()
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in children:
            found.append((where + (key,), child))
            stack.append((where + (key,), child))
    return found


def _replace(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (_replace(v, rest, new) if k == head else v) for k, v in value.items()}
    return [(_replace(v, rest, new) if i == head else v) for i, v in enumerate(value)]


@st.composite
def mutated_values(draw, seeds=st.sampled_from(SEEDS)):
    """A real message with at most one mutation of its value (some stay as they were)."""
    value = draw(seeds)
    kind = draw(st.sampled_from(("none", "nest", "number", "leaf", "surrogate-key", "short", "long")))
    places = _places(value)
    path, target = places[draw(st.integers(0, len(places) - 1))]
    if kind == "nest":
        wrapped = target
        for _ in range(draw(st.sampled_from(DEPTHS))):
            wrapped = [wrapped]
        return _replace(value, path, wrapped)
    if kind == "number":
        return _replace(value, path, draw(st.sampled_from(NUMBERS)))
    if kind == "leaf":
        return _replace(value, path, draw(st.sampled_from(LEAVES)))
    if kind == "surrogate-key" and isinstance(target, dict):
        return _replace(value, path, dict(target, **{draw(st.sampled_from(("\ud800", "\udfff", "k\udc80"))): 1}))
    if kind == "short" and isinstance(value, list):
        return value[: draw(st.integers(0, 2))]
    if kind == "long" and isinstance(value, list):
        return value + draw(st.lists(st.sampled_from(LEAVES), min_size=1, max_size=2))
    return value


@st.composite
def written(draw, value, repeat_at=None):
    """JSON text of a value, written with any whitespace, any escapes in strings, and keys
    repeated (with the same value or another) now and then, and always in the object at
    the path `repeat_at`."""

    def ws():
        return draw(st.sampled_from(WHITESPACE))

    def string(text):
        mode = draw(st.sampled_from(("plain", "plain", "all", "one")))
        pick = draw(st.integers(0, max(len(text) - 1, 0)))
        out = []
        for i, ch in enumerate(text):
            if "\ud800" <= ch <= "\udfff" or mode == "all" or (mode == "one" and i == pick):
                out.append("\\u%04x" % ord(ch))
            else:
                out.append(json.dumps(ch, ensure_ascii=False)[1:-1])
        return '"' + "".join(out) + '"'

    def write(node, path=()):
        if isinstance(node, Literal):
            return str(node)
        if isinstance(node, str):
            return string(node)
        if isinstance(node, dict):
            items = list(node.items())
            if items and (path == repeat_at or draw(st.integers(0, 3)) == 0):
                key, old = items[draw(st.integers(0, len(items) - 1))]
                again = old if draw(st.booleans()) else draw(st.sampled_from(LEAVES))
                items.insert(draw(st.integers(0, len(items))), (key, again))
            return (
                "{"
                + ",".join(ws() + string(k) + ws() + ":" + ws() + write(v, path + (k,)) + ws() for k, v in items)
                + "}"
            )
        if isinstance(node, list) and len(node) == 1 and isinstance(node[0], list):
            depth = 0  # a chain of one-item arrays (deep nesting): no recursion
            while isinstance(node, list) and len(node) == 1 and isinstance(node[0], list):
                node, depth = node[0], depth + 1
            return "[" * depth + write(node, path + (0,) * depth) + "]" * depth
        if isinstance(node, list):
            return "[" + ",".join(ws() + write(v, path + (i,)) + ws() for i, v in enumerate(node)) + "]"
        return json.dumps(node)

    return write(value)


def objects_in(value):
    """The paths of the non-empty objects in a value."""
    return [path for path, node in _places(value) if isinstance(node, dict) and node]


@st.composite
def mutated_files(draw):
    """A small log: a context (nothing, a map, or the start of a game), then mutated real
    lines, some twice (so that the memory of verified lines answers the second), and the
    bytes around them varied now and then."""
    start = draw(st.sampled_from(("none", "map", "game")))
    lines = (
        [] if start == "none" else [draw(st.sampled_from(MAPS))] if start == "map" else GAME[: draw(st.integers(1, 60))]
    )
    for _ in range(draw(st.integers(1, 4))):
        text = draw(written(draw(mutated_values())))
        lines += [text] * draw(st.integers(1, 2))
        lines += GAME[len(lines) : len(lines) + draw(st.integers(0, 2))]
    ending = draw(st.sampled_from(("\n", "\n", "\n", "\r\n")))
    data = "".join(line + ending for line in lines).encode("utf-8")
    if draw(st.integers(0, 9)) == 0:
        data = data.rstrip(b"\n")
    if draw(st.integers(0, 9)) == 0:
        data = b"\xef\xbb\xbf" + data
    return data


# Arbitrary bytes made mostly of JSON's own pieces, so that they reach past the parser.
PIECES = [
    b"[",
    b"]",
    b"{",
    b"}",
    b'"',
    b":",
    b",",
    b" ",
    b"\\",
    b"\\u",
    b"d800",
    b"dc00",
    b"0",
    b"1",
    b"8",
    b"-",
    b".",
    b"e",
    b'"1"',
    b'"RD"',
    b'"result"',
    b'"TR"',
    b'"player"',
    b'"resources"',
    b'"L"',
    b"null",
    b"true",
    b"\n",
    b"\r",
    b"\t",
    b"\xff",
    b"\xed\xa0\x80",
    b"\xef\xbb\xbf",
    b"\x1f\x8b",
    b"NaN",
    b"\x00",
    "é".encode(),
]
json_like_bytes = st.lists(st.sampled_from(PIECES), max_size=80).map(b"".join)
