"""The registry of diagnostic codes: one row per code, never reused.

A code names a rule, not a place in the program. Its layer says which stage
finds it; its severity is the default one. `example` is an input line that
raises it (None where the trigger is not a line, such as a missing file), so
that the documentation and the tests can both show it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

IO_LAYER = "io"
LAYERS: Tuple[str, ...] = (IO_LAYER, "syntax", "schema", "semantic", "rules")


@dataclass(frozen=True)
class Code:
    name: str
    layer: str
    severity: str
    summary: str
    example: Optional[str] = None


_TABLE = [
    # io: the file cannot be read at all; the run exits 2.
    Code("file-not-found", IO_LAYER, "error", "The path does not exist."),
    Code("is-a-directory", IO_LAYER, "error", "The path is a directory, not a log file."),
    Code("read-error", IO_LAYER, "error", "The operating system refused to read the file (permissions, device error)."),
    Code("empty-file", IO_LAYER, "error", "The file holds no message at all (no bytes, or only blank lines)."),
    # syntax: bytes, lines and JSON.
    Code("invalid-utf8", "syntax", "error", "The line is not valid UTF-8."),
    Code("utf8-bom", "syntax", "warning", "The file starts with a UTF-8 byte order mark; it is skipped.", "\ufeff[\"1\",\"RD\",{\"result\":8}]"),
    Code("crlf-line-ending", "syntax", "warning", "The file uses CRLF line endings (reported once, at the first); they are read as LF.", "[\"1\",\"RD\",{\"result\":8}]\r"),
    Code("blank-line", "syntax", "warning", "An empty or whitespace-only line; it is skipped.", "   "),
    Code("no-final-newline", "syntax", "info", "The last line has no newline; it is read, but the file may have been cut short.", None),
    Code("line-too-long", "syntax", "error", "The line is longer than the limit (--max-line-bytes, default 1 MiB); it is skipped unread.", None),
    Code("gzip-truncated", "syntax", "error", "The gzip stream ends before its end marker; the lines before are checked.", None),
    Code("gzip-corrupt", "syntax", "error", "The gzip stream is damaged (bad header, bad data or checksum).", None),
    Code("invalid-json", "syntax", "error", "The line is not one JSON value.", "[\"1\",\"RD\",{\"result\":8}"),
    Code("json-nan-infinity", "syntax", "error", "NaN and Infinity are not JSON.", "[\"1\",\"RD\",{\"result\":NaN}]"),
    Code("json-duplicate-key", "syntax", "error", "An object has the same key twice; which one counts is undefined.", "[\"1\",\"RD\",{\"result\":8,\"result\":9}]"),
    Code("json-number-too-long", "syntax", "error", "A number literal longer than 100 characters; no SGN field holds such a number and interoperable JSON cannot represent it.", "[\"1\",\"RD\",{\"result\":" + "9" * 101 + "}]"),
    Code("json-too-deep", "syntax", "error", "Arrays or objects nested deeper than the parser allows (an SGN message is at most 6 deep).", "[" * 5000 + "]" * 5000),
    # schema: the shape of one message, checked against schema/v1.0/message.json.
    Code("message-not-array", "schema", "error", "A message must be a JSON array [player, aCode, value].", "{\"player\":\"1\",\"aCode\":\"RD\",\"value\":{\"result\":8}}"),
    Code("message-length", "schema", "error", "A message has exactly 3 items: player, aCode, value.", "[\"1\",\"RD\"]"),
    Code("unknown-player", "schema", "error", "The acting player is not 1..6 or B.", "[\"7\",\"RD\",{\"result\":8}]"),
    Code("unknown-action", "schema", "error", "The aCode is not one of BC BD BR BS DM MR PD RD ST TR.", "[\"1\",\"TO\",{}]"),
    Code("schema-type", "schema", "error", "A value has the wrong JSON type.", "[\"1\",\"MR\",{\"tile\":[0,\"1\"]}]"),
    Code("schema-enum", "schema", "error", "A value is not one of the allowed codes or numbers.", "[\"1\",\"BD\",{\"cCode\":\"XX\"}]"),
    Code("schema-required", "schema", "error", "A required property is missing.", "[\"1\",\"RD\",{}]"),
    Code("schema-unknown-property", "schema", "error", "An object has a property the schema does not define.", "[\"1\",\"RD\",{\"result\":8,\"dice\":[4,4]}]"),
    Code("schema-too-few-items", "schema", "error", "An array has fewer items than the schema requires.", "[\"1\",\"MR\",{\"tile\":[0]}]"),
    Code("schema-too-many-items", "schema", "error", "An array has more items than the schema allows.", "[\"1\",\"MR\",{\"tile\":[0,0,0]}]"),
    Code("schema-minimum", "schema", "error", "A number is below the minimum.", "[\"1\",\"RD\",{\"result\":1}]"),
    Code("schema-maximum", "schema", "error", "A number is above the maximum.", "[\"1\",\"RD\",{\"result\":13}]"),
    Code("schema-invalid", "schema", "error", "A value breaks a schema constraint not covered by a more specific code.", None),
    Code("legacy-numeric-string", "schema", "warning", "compat profile: numbers written as JSON strings (as in the seed's own examples) are read as integers.", "[\"1\",\"MR\",{\"tile\":[\"-2\",\"0\"]}]"),
    Code("legacy-object-message", "schema", "warning", "compat profile: a pre-1.0 object message {player, aCode, value} is read as [player, aCode, value].", "{\"player\":\"1\",\"aCode\":\"RD\",\"value\":{\"result\":8}}"),
]

CODES: Dict[str, Code] = {c.name: c for c in _TABLE}
assert len(CODES) == len(_TABLE), "duplicate code name"
assert all(c.layer in LAYERS for c in _TABLE)
