"""Schema: the shape of one message, checked against the packaged `schema/v1.0/message.json`.

The schema file's top-level `anyOf` lets other tools check a message in one
call; here we never use it. A message is checked in two steps: its envelope
(an array of [player, aCode, ...]) and then its value against the entry of
`definitions/values` chosen by the aCode. That is fast, and every error
points at the field that is really wrong.

jsonschema's errors are translated into diagnostics by a table keyed on the
failing keyword (`schema_words.py`). The compat profile reads the published text's legacy encodings
(numbers as strings, pre-1.0 object messages) and reports each as a warning.
"""

from __future__ import annotations

import copy
import re
from itertools import islice
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from .. import packaged
from ..diagnostic import MAX_PROBLEMS, Diagnostic, make, more_problems, pointer_from_path
from . import hidden as hidden_values, records
from .schema_words import KEYWORDS, DocumentOrder, first_errors, json_type, show, title_of

if TYPE_CHECKING:
    from jsonschema import Draft4Validator

STRICT = "strict"
COMPAT = "compat"
V1 = "v1.0"  # SGN v1.0 alone: every extension (hidden values, record lines) is an error
PROFILES = (STRICT, COMPAT, V1)
SCHEMA_FILE = "v1.0/message.json"

MAX_COERCED = 1_000  # numbers written as strings read in one message (compat)
_NUMERIC_STRING = re.compile(r"-?[0-9]{1,18}\Z")
_OBJECT_FORM_KEYS = {"player", "aCode", "value"}


def _subschema_at(root: dict, ref: str) -> dict:
    node: Any = root
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return node


def inline_refs(node: Any, root: dict) -> Any:
    """A copy of `node` with every local `$ref` replaced by what it points to.

    Our schema has no recursive references, so this terminates; resolving
    references once here, not on every message, makes validation several
    times faster.
    """
    if isinstance(node, dict):
        if "$ref" in node:
            return inline_refs(_subschema_at(root, node["$ref"]), root)
        return {k: inline_refs(v, root) for k, v in node.items() if k != "definitions"}
    if isinstance(node, list):
        return [inline_refs(v, root) for v in node]
    return node


class MessageSchema:
    """Validators built once from the schema file: one for the envelope, one per aCode."""

    def __init__(self, root: dict):
        from jsonschema import Draft4Validator  # imported here: a syntax-only run never pays for it

        self.root = root
        envelope = {k: v for k, v in root.items() if k not in ("anyOf", "id")}
        envelope["items"] = root["items"][:2]  # the value is checked by its action's schema
        self.envelope = Draft4Validator(inline_refs(envelope, root))
        self.actions: Dict[str, "Draft4Validator"] = {
            code: Draft4Validator(inline_refs(value, root)) for code, value in root["definitions"]["values"].items()
        }
        self._hidden_actions: Optional[Dict[str, "Draft4Validator"]] = None
        self.action_codes = tuple(_subschema_at(root, root["items"][1]["$ref"])["enum"])
        self.players = tuple(_subschema_at(root, root["items"][0]["$ref"])["enum"])

    def hidden_validator(self, action: str) -> "Draft4Validator":
        """The validator of an action's value with hidden values (`sgn/layers/hidden.py`),
        built on first use."""
        if self._hidden_actions is None:
            from jsonschema import Draft4Validator

            root = hidden_values.extended(self.root)
            self._hidden_actions = {
                code: Draft4Validator(inline_refs(root["definitions"]["values"][code], root))
                for code in hidden_values.ACTIONS
            }
        return self._hidden_actions[action]

    # -- the envelope ------------------------------------------------------------
    def _envelope_diagnostics(self, message: Any, where: dict) -> List[Diagnostic]:
        if not isinstance(message, list):
            hint = None
            if isinstance(message, dict) and _OBJECT_FORM_KEYS <= set(message):
                hint = (
                    "this is the pre-1.0 object form; write [player, aCode, value], or use --profile compat to read it"
                )
            return [
                make(
                    "message-not-array",
                    f"a message is a JSON array [player, aCode, value]; this is {json_type(message)}",
                    hint=hint,
                    **where,
                )
            ]
        out = []
        if len(message) != 3:
            out.append(
                make(
                    "message-length",
                    f"a message has exactly 3 items [player, aCode, value]; this one has {len(message)}",
                    **where,
                )
            )
        if message and message[0] not in self.players:
            out.append(
                make(
                    "unknown-player",
                    f"{show(message[0])} is not a player; expected one of {', '.join(self.players)} (as strings)",
                    pointer="/0",
                    **where,
                )
            )
        if len(message) > 1 and message[1] not in self.action_codes and message[1] not in records.ACTIONS:
            import difflib  # only for this message: keeps start-up light

            upper = str(message[1]).upper()
            guess = (
                [upper]
                if upper in self.action_codes
                else difflib.get_close_matches(upper, self.action_codes, n=1, cutoff=0.5)
            )
            out.append(
                make(
                    "unknown-action",
                    f"{show(message[1])} is not an SGN action code; expected one of "
                    f"{', '.join(self.action_codes)}" + (f' (did you mean "{guess[0]}"?)' if guess else ""),
                    pointer="/1",
                    **where,
                )
            )
        return out

    # -- a value -------------------------------------------------------------------
    def _value_diagnostics(self, validator: "Draft4Validator", value: Any, where: dict) -> List[Diagnostic]:
        errors, more = first_errors(validator, value)
        typed = {tuple(e.absolute_path) for e in errors if e.validator == "type"}
        out: List[Diagnostic] = []
        seen = set()
        for error in errors:
            path = tuple(error.absolute_path)
            if error.validator != "type" and path in typed:
                continue  # the wrong type says it all
            for diagnostic in self._translate(error, path, where):
                key = (diagnostic.code, diagnostic.pointer)
                if key not in seen:
                    seen.add(key)
                    out.append(diagnostic)
        out = _misspellings(out)
        if more or len(out) > MAX_PROBLEMS:
            out = out[:MAX_PROBLEMS] + [more_problems("schema-more-problems", where["file"], where["line"])]
        return out

    def _translate(self, error, path: tuple, where: dict) -> List[Diagnostic]:
        pointer = pointer_from_path(path, "/2")
        if error.validator == "required":
            return [
                make(
                    "schema-required",
                    f"the required property {show(key)} is missing from {title_of(error)}",
                    pointer=pointer + pointer_from_path([key]),
                    **where,
                )
                for key in error.validator_value
                if key not in error.instance
            ][: MAX_PROBLEMS + 1]
        if error.validator == "additionalProperties":
            allowed = list(error.schema.get("properties", {})) + [
                f"keys matching {key}" for key in error.schema.get("patternProperties", {})
            ]
            unknown = islice((key for key in error.instance if key not in allowed), MAX_PROBLEMS + 1)
            return [
                make(
                    "schema-unknown-property",
                    f"{show(key)} is not a property of {title_of(error)}; "
                    + (f"allowed: {', '.join(allowed)}" if allowed else "it has none"),
                    pointer=pointer + pointer_from_path([key]),
                    **where,
                )
                for key in unknown
            ]
        code, build = KEYWORDS.get(error.validator, ("schema-invalid", lambda e: e.message))
        return [make(code, build(error), pointer=pointer, **where)]

    # -- compat ----------------------------------------------------------------------
    @staticmethod
    def _coerce_numeric_strings(validator: "Draft4Validator", value: Any) -> List[str]:
        """Turn numeric strings where the schema wants integers into integers, in place (at
        most MAX_COERCED of them: a legacy message holds a few dozen); their pointers, the
        first in document order first."""
        places = []
        for error in validator.iter_errors(value):
            wanted = error.validator_value
            wanted = wanted if isinstance(wanted, list) else [wanted]
            if (
                error.validator == "type"
                and "integer" in wanted
                and error.path
                and isinstance(error.instance, str)
                and _NUMERIC_STRING.match(error.instance)
            ):
                places.append(tuple(error.path))
                if len(places) == MAX_COERCED:
                    break
        order = DocumentOrder(value)
        places.sort(key=order)
        for path in places:
            *parents, last = path
            container = value
            for step in parents:
                container = container[step]
            container[last] = int(container[last])
        return [pointer_from_path(path, "/2") for path in places]

    # -- the whole message ---------------------------------------------------------
    def check(
        self,
        message: Any,
        *,
        profile: str = STRICT,
        hidden: str = hidden_values.ALLOW,
        file: str = "<input>",
        line: int = 0,
    ) -> Tuple[List[Diagnostic], Any]:
        """Check one parsed message: its diagnostics and the message as later layers read it.
        A message with hidden values is checked against the schema extended with them
        (`sgn/layers/hidden.py`); with `hidden="refuse"` each of them is an error too."""
        where: Dict[str, Any] = {"file": file, "line": line}
        out: List[Diagnostic] = []
        if profile == COMPAT and isinstance(message, dict) and set(message) == _OBJECT_FORM_KEYS:
            message = [message["player"], message["aCode"], message["value"]]
            out.append(make("legacy-object-message", "pre-1.0 object message read as [player, aCode, value]", **where))
        if isinstance(message, list) and len(message) == 3 and message[1] in records.ACTIONS:
            return out + record_diagnostics(self, message, profile, where), message
        if not self.envelope.is_valid(message):
            out.extend(self._envelope_diagnostics(message, where))
        validator = None
        if isinstance(message, list) and len(message) >= 3 and isinstance(message[1], str):
            validator = self.actions.get(message[1])
            places = hidden_values.places(message) if validator is not None else []
            if places:
                validator = self.hidden_validator(message[1])
                if hidden == hidden_values.REFUSE or profile == V1:  # (one a message: a steal's two sides are one card)
                    out.append(
                        make(
                            "hidden-value",
                            "a value the log does not show (?), where every card must be shown "
                            + ("(profile v1.0)" if profile == V1 else "(hidden = refuse)"),
                            pointer=places[0],
                            **where,
                        )
                    )
        if validator is not None and not validator.is_valid(message[2]):
            if profile == COMPAT:
                # coerced in a copy: the caller's value stays as it was given
                message = [message[0], message[1], copy.deepcopy(message[2]), *message[3:]]
                coerced = self._coerce_numeric_strings(validator, message[2])
                if coerced:
                    out.append(
                        make(
                            "legacy-numeric-string",
                            (
                                f"{len(coerced)} numbers written as strings, read as integers (first at {coerced[0]})"
                                if len(coerced) > 1
                                else "a number written as a string, read as an integer"
                            ),
                            pointer=coerced[0],
                            **where,
                        )
                    )
            if not validator.is_valid(message[2]):
                out.extend(self._value_diagnostics(validator, message[2], where))
        return out, message


_RECORDS: Dict[str, "Draft4Validator"] = {}  # the validators of record lines' values, built on first use


def record_diagnostics(schema: MessageSchema, message: list, profile: str, where: dict) -> List[Diagnostic]:
    """A record line (a header, an end of turn: `sgn/layers/records.py`): refused under the
    profile v1.0, else its sender and its value checked against `schema/v1.0/records.json`."""
    action = message[1]
    if profile == V1:
        return [
            make(
                "extension-line",
                f"{records.NAMES[action]} is an extension of SGN v1.0, refused under the profile v1.0",
                pointer="/1",
                hint="write the log without it (sgn convert --to sgn --profile v1.0), or read it under the profile strict",
                **where,
            )
        ]
    out = []
    if action == records.HEADER and message[0] != "B":
        out.append(
            make("header-not-bank", f"a header is sent by the bank, B, not {show(message[0])}", pointer="/0", **where)
        )
    elif action == records.END_TURN and message[0] not in schema.players:  # (the bank's: bank-acts, as any move's)
        out.append(
            make(
                "unknown-player",
                f"{show(message[0])} is not a player; an end of turn is sent by one of {', '.join(records.SEATS)} (as strings)",
                pointer="/0",
                **where,
            )
        )
    if not _RECORDS:
        from jsonschema import Draft4Validator

        root = packaged.load_json(records.SCHEMA_FILE)
        _RECORDS.update(
            (code, Draft4Validator(inline_refs(value, root))) for code, value in root["definitions"]["values"].items()
        )
    validator = _RECORDS[action]
    if not validator.is_valid(message[2]):
        out.extend(schema._value_diagnostics(validator, message[2], where))
    return out


_DEFAULT: Optional[MessageSchema] = None


def _misspellings(found: List[Diagnostic]) -> List[Diagnostic]:
    """A required key missing beside an unknown key that evidently misspells it (`resource`
    for `resources`) is one fault: one `schema-unknown-property`, at the misspelt key, that
    names the key meant; not two errors on one line."""
    missing = {d.pointer: d for d in found if d.code == "schema-required"}
    if not missing:
        return found
    import difflib  # only for such a message: keeps start-up light

    dropped = set()
    out = []
    for d in found:
        if d.code == "schema-unknown-property":
            parent, _, key = d.pointer.rpartition("/")
            wanted = [p.rpartition("/")[2] for p in missing if p.rpartition("/")[0] == parent]
            near = difflib.get_close_matches(key, wanted, n=1, cutoff=0.8)
            if near:
                dropped.add(parent + "/" + near[0])
                d = d._replace(
                    message=f'{d.message.split(";")[0]}: did you mean "{near[0]}"?',
                    hint=f'the key "{near[0]}" is required here, and "{key}" is not a key of SGN',
                )
        out.append(d)
    return [d for d in out if not (d.code == "schema-required" and d.pointer in dropped)]


def default_schema() -> MessageSchema:
    """The packaged SGN v1.0 schema, loaded on first use."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = MessageSchema(packaged.load_json(SCHEMA_FILE))
    return _DEFAULT
