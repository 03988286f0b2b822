#!/usr/bin/env python3
"""A small SGN validator in Python: each line of a log must be JSON and match
schema/v1.0/message.json (draft-04, checked with the `jsonschema` package, the one
dependency). It checks the syntax and schema levels, strict profile only: no semantic
checks, no rules replay. Its error codes are sgn's (docs/codes.md).

It speaks the sgn conformance protocol in persistent mode (schema/harness/v1/protocol.json);
with --simple it checks the log on standard input at the level in SGN_LEVEL and exits 0
when valid, 1 when invalid, and 3 (no verdict) at a level or profile it does not check.
From the checkout:

    sgn conformance --impl "python examples/python/sgn_jsonschema.py" --mode persistent --codes
    sgn conformance --impl "python examples/python/sgn_jsonschema.py --simple" --level schema --profile strict

Python's json module checks some of SGN's syntax rules with one hook each: duplicate keys
(object_pairs_hook), NaN and Infinity (parse_constant), over-long numbers (parse_int and
parse_float). It keeps 8.0 a float, and Draft4Validator's `integer` is a Python int, so
8.0 is refused as draft-04 says ("a JSON number without a fraction or exponent part")
and sgn does; Draft6Validator and later would take it.
"""
import base64
import gzip
import json
import os
import re
import sys
import zlib
from collections import Counter

from jsonschema import Draft4Validator

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "schema", "v1.0", "message.json")
MAX_DEPTH, MAX_NUMBER_CHARS = 64, 100          # sgn's limits on a line (docs/codes.md)
MAX_LINE_BYTES = 256 * 1024                    # a longer line is skipped unread
MAX_ERRORS = 1000                              # a reply may be 1 MiB long: report the first errors only
JSON_WHITESPACE = " \t\r\n"                    # str.strip() would also take \f and \xa0: JSON does not
LEVELS, PROFILES = ["syntax", "schema"], ["strict"]
KEYWORD_CODES = {"type": "schema-type", "enum": "schema-enum", "required": "schema-required",
                 "additionalProperties": "schema-unknown-property", "minItems": "schema-too-few-items",
                 "maxItems": "schema-too-many-items", "minimum": "schema-minimum", "maximum": "schema-maximum"}

with open(SCHEMA, encoding="utf-8") as handle:
    ROOT = json.load(handle)
PLAYERS = ROOT["definitions"]["actingPlayer"]["enum"]
# One validator per aCode, as the schema's description advises: an error of the top-level
# anyOf would say only that the message matches none of the ten actions.
VALUES = {code: Draft4Validator(dict(value, definitions=ROOT["definitions"]))
          for code, value in ROOT["definitions"]["values"].items()}


class Refused(Exception):
    """JSON that Python would read but SGN refuses, with sgn's code for it."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def refuse(code, message):
    raise Refused(code, message)


def unique_keys(pairs):
    repeated = [key for key, times in Counter(key for key, _ in pairs).items() if times > 1]
    if repeated:
        refuse("json-duplicate-key", f"the key {repeated[0]!r} appears twice in one object")
    return dict(pairs)


def short_number(convert):
    return lambda literal: (refuse("json-number-too-long", f"a number of {len(literal)} characters")
                            if len(literal) > MAX_NUMBER_CHARS else in_range(convert(literal), literal))


def in_range(number, literal):
    if number in (float("inf"), float("-inf")):
        refuse("json-number-out-of-range", f"{literal} is beyond the range of a double")
    return number


DECODER = json.JSONDecoder(object_pairs_hook=unique_keys, parse_int=short_number(int),
                           parse_float=short_number(float),
                           parse_constant=lambda name: refuse("json-nan-infinity", f"{name} is not JSON"))


def depth(value):
    """How deep arrays and objects nest in a parsed value (a number or a string: 0)."""
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
    return 0 if children is None else 1 + max(map(depth, children), default=0)


def balance(text):
    """Brackets opened minus brackets closed, outside strings."""
    bare = re.sub(r'"(?:[^"\\]|\\.)*"?', "", text)
    return bare.count("[") + bare.count("{") - bare.count("]") - bare.count("}")


def error(code, line, message, pointer=""):
    return {"code": code, "line": line, "pointer": pointer, "message": message[:200]}


def schema_errors(message, line):
    """The envelope [player, aCode, value] first, then the value against its aCode's schema."""
    if not isinstance(message, list):
        return [error("message-not-array", line, "a message is a JSON array [player, aCode, value]")]
    found = []
    if len(message) != 3:
        found.append(error("message-length", line, f"a message has 3 items, not {len(message)}"))
    if message and message[0] not in PLAYERS:
        found.append(error("unknown-player", line, f"{message[0]!r} is not a player", "/0"))
    action = message[1] if len(message) > 1 and isinstance(message[1], str) else None
    if len(message) > 1 and action not in VALUES:
        found.append(error("unknown-action", line, f"{message[1]!r} is not an action code", "/1"))
    elif len(message) > 2:
        problems = list(VALUES[action].iter_errors(message[2]))
        mistyped = {tuple(p.absolute_path) for p in problems if p.validator == "type"}
        for p in problems:       # a value of the wrong type gets that error only, as in sgn
            if p.validator == "type" or tuple(p.absolute_path) not in mistyped:
                pointer = "/2" + "".join("/" + str(s).replace("~", "~0").replace("/", "~1") for s in p.absolute_path)
                found.append(error(KEYWORD_CODES.get(p.validator, "schema-invalid"), line, p.message, pointer))
    return found


def is_log(value):
    """A whole log as one JSON array of messages, on one line."""
    return bool(value) and isinstance(value, list) and all(
        isinstance(m, list) and len(m) == 3 and isinstance(m[1], str) and m[1] in VALUES for m in value)


def line_errors(text, line, level):
    """The errors of one line: its JSON, then (above the syntax level) its schema."""
    try:
        value = DECODER.decode(text)
        if depth(value) > MAX_DEPTH:
            refuse("json-too-deep", f"nested more than {MAX_DEPTH} deep")
    except Refused as refused:
        return [error(refused.code, line, str(refused))]
    except RecursionError:            # Python's parser gives up some 1,000 deep
        return [error("json-too-deep", line, "nested too deep for Python's parser")]
    except json.JSONDecodeError as bad:
        return [error("invalid-json", line, str(bad))]
    if is_log(value):
        return [error("log-as-array", line, "several messages in one JSON array")]
    return [] if level == "syntax" else schema_errors(value, line)


def check(data, level):
    """The verdict on one log file's bytes: {"valid": ..., "errors": [...]}."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except EOFError as cut:
            return {"valid": False, "errors": [error("gzip-truncated", 1, str(cut))]}
        except (OSError, zlib.error) as damaged:
            return {"valid": False, "errors": [error("gzip-corrupt", 1, str(damaged))]}
    errors, messages, open_depth = [], 0, 0
    for number, raw in enumerate(data.split(b"\n"), 1):        # not splitlines(): it splits at \f too
        if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        if len(raw) > MAX_LINE_BYTES:
            errors.append(error("line-too-long", number, f"a line of {len(raw)} bytes"))
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            errors.append(error("invalid-utf8", number, str(bad)))
            continue
        bare = text.strip(JSON_WHITESPACE)
        if not bare:
            continue                          # a blank line
        messages += 1
        if open_depth > 0 and not (bare[0] == "[" and bare[-1] == "]" and balance(bare) == 0):
            open_depth += balance(bare)       # a piece of a value written over several lines
            continue
        found = line_errors(text, number, level)
        if found and found[0]["code"] == "invalid-json" and bare[0] in "[{" and bare[-1] in "[{,:" \
                and balance(bare) > 0:        # it opens a value that goes on over the next lines
            found, open_depth = [error("json-multiline", number, "a JSON value over several lines")], balance(bare)
        errors += found
    if not messages and not errors:
        errors.append(error("empty-file", 0, "no message"))
    return {"valid": not errors, "errors": errors[:MAX_ERRORS]}


def cannot_judge(level, profile):
    """Why this example does not judge a case of that level and profile (None: it does)."""
    if level not in LEVELS or profile not in PROFILES:
        return f"this example checks the levels {' and '.join(LEVELS)}, profile {PROFILES[0]}, only"
    return None


def serve():
    for request_line in sys.stdin:
        if not request_line.strip():
            continue
        seq = 0
        try:
            request = json.loads(request_line)
            seq = request.get("seq", 0)
            if request["cmd"] == "stop":
                return
            if request["cmd"] == "start":
                reply = {"ready": True, "version": 1, "implementation": {
                    "name": "sgn-jsonschema-example", "language": "python", "version": "1.0.0",
                    "levels": LEVELS, "profiles": PROFILES}}
            else:
                case = request["case"]
                reason = cannot_judge(case["level"], case["profile"])
                reply = ({"seq": seq, "skipped": True, "reason": reason} if reason
                         else {"seq": seq, **check(base64.b64decode(case["data"]), case["level"])})
        except Exception as failure:      # a bug of ours is an errored case, never a crash
            reply = {"seq": seq, "errored": True, "message": f"{type(failure).__name__}: {failure}"}
        print(json.dumps(reply), flush=True)


def simple():
    """The case on standard input: exit 0 when valid, 1 when invalid, 3 when not judged
    (neither verdict: the harness counts the case errored, not failed)."""
    level, profile = os.environ.get("SGN_LEVEL", "schema"), os.environ.get("SGN_PROFILE", "strict")
    reason = cannot_judge(level, profile)
    if reason:
        print(reason, file=sys.stderr)
        return 3
    return 0 if check(sys.stdin.buffer.read(), level)["valid"] else 1


if __name__ == "__main__":
    sys.exit(simple() if "--simple" in sys.argv[1:] else serve())
