"""Properties over generated input: never a crash, and dispatch agrees with the whole schema."""

import copy
import io
import json

from hypothesis import given, settings, strategies as st
from jsonschema import Draft4Validator

import sgn
from conftest import CHECKOUT, corpus_cases
from sgn.codes import CODES

ROOT = json.loads((CHECKOUT / "schema" / "v1.0" / "message.json").read_text(encoding="utf-8"))
WHOLE = Draft4Validator(ROOT)
SEEDS = [c["input"] for c in corpus_cases() if c["kind"] == "message" and c["level"] == "schema"]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-20, 20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["1", "B", "RD", "KN", "O", "-2", "x", ""]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["result", "tile", "player", "resources", "cCode", "rCodes", "B", "X"]), inner, max_size=3
        )
    ),
    max_leaves=12,
)


def places(value, path=()):
    """Every path into a JSON value."""
    yield path
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from places(item, path + (i,))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, path + (key,))


@st.composite
def mutated_messages(draw):
    """A corpus message with one place replaced by an arbitrary JSON value."""
    message = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    path = draw(st.sampled_from(list(places(message))))
    replacement = draw(json_values)
    if not path:
        return replacement
    node = message
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = replacement
    return message


@settings(max_examples=300, deadline=None)
@given(mutated_messages())
def test_dispatched_verdict_equals_the_whole_schema(message):
    ours = not any(d.is_error for d in sgn.validate_message(copy.deepcopy(message), level="schema"))
    assert ours == WHOLE.is_valid(message)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_raise(data):
    for d in sgn.iter_diagnostics(io.BytesIO(data)):
        assert d.code in CODES and d.line >= 0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=5))
def test_arbitrary_lines_never_raise_and_keep_their_numbers(lines):
    for d in sgn.iter_diagnostics(lines):
        assert d.code in CODES and 0 <= d.line <= len(lines)


@settings(max_examples=200, deadline=None)
@given(json_values, st.sampled_from(["strict", "compat"]))
def test_any_json_value_gets_diagnostics_not_exceptions(value, profile):
    for d in sgn.validate_message(value, profile=profile):
        assert d.code in CODES and (d.pointer == "" or d.pointer.startswith("/"))
