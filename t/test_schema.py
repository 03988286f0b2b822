"""The schema file, and the dispatched checks that use it."""

import json

import pytest
from jsonschema import Draft4Validator

import sgn
from conftest import CHECKOUT, corpus_cases
from sgn import packaged
from sgn.layers.schema import SCHEMA_FILE, default_schema

ROOT = json.loads((CHECKOUT / "schema" / SCHEMA_FILE).read_text(encoding="utf-8"))
# The keywords of draft-04 validation and core: nothing else may appear as a keyword.
DRAFT4_KEYWORDS = {
    "$schema",
    "id",
    "$ref",
    "title",
    "description",
    "default",
    "definitions",
    "type",
    "enum",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "items",
    "additionalItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "patternProperties",
    "additionalProperties",
    "required",
    "minProperties",
    "maxProperties",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "dependencies",
}


NAME_MAPS = {"properties", "patternProperties", "definitions"}
GROUPS = {"values", "messages"}  # definitions/values and definitions/messages: maps of named schemas


def walk_keywords(node):
    """Every keyword used in a schema; the keys of name maps are names, not keywords."""
    if isinstance(node, list):
        for item in node:
            yield from walk_keywords(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            yield key
            if key in NAME_MAPS:
                for name, sub in value.items():
                    children = sub.values() if name in GROUPS else [sub]
                    for child in children:
                        yield from walk_keywords(child)
            else:
                yield from walk_keywords(value)


def test_schema_is_valid_draft4_with_standard_keywords_only():
    Draft4Validator.check_schema(ROOT)
    assert ROOT["$schema"] == "http://json-schema.org/draft-04/schema#"
    assert set(walk_keywords(ROOT)) - DRAFT4_KEYWORDS == set()


def test_installed_schema_is_the_checkout_one():
    assert packaged.load_json(SCHEMA_FILE) == ROOT


def test_every_action_has_a_value_schema_and_a_message_branch():
    codes = ROOT["definitions"]["aCode"]["enum"]
    assert sorted(codes) == ["BC", "BD", "BR", "BS", "DM", "MR", "PD", "RD", "ST", "TR"]
    assert set(ROOT["definitions"]["values"]) == set(codes) == set(ROOT["definitions"]["messages"])
    assert len(ROOT["anyOf"]) == len(codes)


MESSAGE_CASES = [
    c
    for c in corpus_cases()
    if c["kind"] == "message" and c["level"] == "schema" and c.get("profile", "strict") == "strict"
]


@pytest.mark.parametrize("case", MESSAGE_CASES, ids=[c["id"] for c in MESSAGE_CASES])
def test_dispatch_agrees_with_the_whole_schema(case):
    """Differential: our dispatched verdict equals plain jsonschema on the whole file."""
    whole = Draft4Validator(ROOT).is_valid(case["input"])
    ours = not any(d.is_error for d in sgn.validate_message(case["input"], level="schema"))
    assert ours == whole


@pytest.mark.parametrize(
    "message, code, pointer",
    [
        (["1", "RD", {"result": 13}], "schema-maximum", "/2/result"),
        (["1", "RD", {"result": 1}], "schema-minimum", "/2/result"),
        (["1", "RD", {}], "schema-required", "/2/result"),
        (["1", "TO", {}], "unknown-action", "/1"),
        (["9", "RD", {"result": 8}], "unknown-player", "/0"),
        (
            ["1", "TR", [{"player": "1", "resources": {"X": -1}}, {"player": "2", "resources": {"B": 1}}]],
            "schema-unknown-property",
            "/2/0/resources/X",
        ),
        (["1", "MR", {"tile": [0, "1"]}], "schema-type", "/2/tile/1"),
        (["1", "BR", {"path": [[[0, 0], [1, 0], [0, 1]]]}], "schema-too-few-items", "/2/path"),
        (
            ["1", "DM", {"tiles": [{"tile": [0, 0], "tCode": "D", "rNumber": 7}], "harbors": []}],
            "schema-enum",
            "/2/tiles/0/rNumber",
        ),
    ],
)
def test_each_diagnostic_names_the_real_field(message, code, pointer):
    [d] = sgn.validate_message(message)
    assert (d.code, d.pointer, d.layer, d.severity) == (code, pointer, "schema", "error")


def test_message_text_shows_the_value_and_the_limit():
    [d] = sgn.validate_message(["1", "RD", {"result": 13}])
    assert d.message == "13 is greater than the maximum 12"


def test_unknown_action_suggests_the_nearest():
    [d] = sgn.validate_message(["1", "TD", {}])
    assert "did you mean" in d.message


def test_a_wrong_type_is_one_diagnostic_not_two():
    found = sgn.validate_message(
        ["1", "DM", {"tiles": [{"tile": [0, 0], "tCode": "D", "rNumber": "5"}], "harbors": []}]
    )
    assert [(d.code, d.pointer) for d in found] == [("schema-type", "/2/tiles/0/rNumber")]


def test_several_problems_in_one_message_are_all_reported():
    found = sgn.validate_message(["7", "BC", {"intersection": [[0, 0], [1, 0]], "player": "1"}])
    assert {(d.code, d.pointer) for d in found} == {
        ("unknown-player", "/0"),
        ("schema-too-few-items", "/2/intersection"),
        ("schema-unknown-property", "/2/player"),
    }


def test_compat_reads_numeric_strings_with_one_warning():
    message = [
        "1",
        "BR",
        {"path": [[["0", "-2"], ["-1", "-1"], ["-1", "-2"]], [["0", "-2"], ["0", "-1"], ["-1", "-1"]]]},
    ]
    strict = sgn.validate_message(json.loads(json.dumps(message)))
    assert {d.code for d in strict} == {"schema-type"} and len(strict) == 12
    [warning] = sgn.validate_message(message, profile="compat")
    assert (warning.code, warning.severity, warning.pointer) == ("legacy-numeric-string", "warning", "/2/path/0/0/0")
    assert "12 numbers" in warning.message


def test_compat_still_refuses_strings_that_are_not_integers():
    found = sgn.validate_message(["1", "MR", {"tile": ["x", "1.5"]}], profile="compat")
    assert [(d.code, d.pointer) for d in found] == [("schema-type", "/2/tile/0"), ("schema-type", "/2/tile/1")]


def test_compat_reads_the_pre_1_0_object_form():
    found = sgn.validate_message(
        {"value": {"rCodes": ["O"], "cCode": "MO"}, "player": "2", "aCode": "PD"}, profile="compat"
    )
    assert [(d.code, d.severity) for d in found] == [("legacy-object-message", "warning")]
    [strict] = sgn.validate_message({"value": {"rCodes": ["O"], "cCode": "MO"}, "player": "2", "aCode": "PD"})
    assert strict.code == "message-not-array" and "compat" in strict.hint


def test_syntax_level_does_not_check_the_schema():
    assert sgn.validate_message(["1", "RD", {"result": 13}], level="syntax") == []


def test_unknown_level_or_profile_is_a_value_error():
    with pytest.raises(ValueError):
        sgn.validate_message([], level="nope")
    with pytest.raises(ValueError):
        sgn.validate_message([], profile="nope")


def test_validators_are_built_once():
    assert default_schema() is default_schema()


def test_every_schema_file_ships_in_the_package():
    def files(folder):
        return {
            p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
        }

    assert files(CHECKOUT / "schema") == files(packaged.schema_dir())
