"""The file a corpus case stands for: its exact bytes (`case_bytes`), whatever its kind."""

from __future__ import annotations

import base64
import json

NOTATIONS = {"han": "han", "hsgn": "hsgn", "hsn": "hsn", "hsn-002": "hsn"}  # kind -> its key in a source


def case_bytes(case: dict) -> bytes:
    """The exact bytes of the file a case stands for: its `text` where it has one (a bundle
    of an older corpus may not: then its input, serialized)."""
    if "text" in case:
        return case["text"].encode("utf-8", "surrogatepass")
    kind, value = case["kind"], case["input"]
    if kind == "message":
        return (json.dumps(value, ensure_ascii=False) + "\n").encode("utf-8")
    if kind == "log":
        return "".join(json.dumps(v, ensure_ascii=False) + "\n" for v in value).encode("utf-8")
    if kind in NOTATIONS:
        return (value if value.endswith("\n") else value + "\n").encode("utf-8")
    if case.get("input_encoding") == "base64":
        return base64.b64decode(value)
    return value.encode("utf-8", "surrogatepass")
