"""docs/codes.md, generated: every diagnostic code with its layer, severity, what
triggers it, and an example taken from the corpus (the first case that raises it).

Run `sgn codes --markdown > docs/codes.md`; a test fails when the file is stale.
"""

from __future__ import annotations

import json
from typing import Dict, List, Optional

from ..codes import CODES, LAYER_ABOUT, LAYERS
from .cases import NOTATIONS

# Codes that no corpus case can show, and why.
NOT_IN_CORPUS: Dict[str, str] = {
    "file-not-found": "a path that does not exist",
    "is-a-directory": "a path that is a folder",
    "read-error": "a file the system refuses to read",
    "internal-error": "a bug in sgn itself, which no corpus case may trigger once fixed",
    "worker-lost": "a Dask worker that dies on every try at the file (`sgn validate --dask`)",
    "no-final-newline": "an `info`: a file whose last line has no newline",
    "max-errors-reached": "an `info` of the command line: `sgn validate --max-errors N`",
    "json-multiline-rest": "an `info` that follows `json-multiline` (its case shows both)",
    "schema-invalid": "a fallback for schema keywords our schema does not use",
    "hidden-value": "`sgn validate --hidden refuse` on a log with a hidden value (`?`, docs/hidden.md)",
    "extension-line": '`sgn validate --profile v1.0` on a log with a header or an end of turn (docs/format.md, "Records")',
    "schema-more-problems": "an `info`: a message with more than 100 schema problems (a map of 101 empty tiles)",
    "semantic-more-problems": "an `info`: a message with more than 100 semantic problems",
    "no-counterpart": "`sgn convert --to han` on an RD message (HAN records both dice)",
    "engine-input": "`sgn convert --from catanatron` on JSON that is not a game, or `--from jsettlers` on "
    "a log with a line it cannot read (t/test_adapters_robustness.py)",
    "engine-unknown": "`sgn convert --from catanatron` on an action of a type it does not know "
    "(t/test_adapters_robustness.py)",
    "bound-reached": 'a bound of sgn\'s replay, not a rule of the game (docs/hidden.md, "The model"): a log '
    "whose hidden cards may lie in more than 4,096 ways (t/test_bounds_undecided.py)",
}
_MAX_INPUT = 160


def example_cases(cases: List[dict]) -> Dict[str, dict]:
    """For each code, the first corpus case that expects it."""
    found: Dict[str, dict] = {}
    for case in cases:
        for expected in case.get("errors", []) + case.get("warnings", []):
            found.setdefault(expected["code"], case)
    return found


def _shown_input(case: dict) -> str:
    if case["kind"] in NOTATIONS:
        text = case["input"].rstrip("\n").replace("\n", "\\n")
    elif case["kind"] == "raw":
        text = "(bytes, base64) " + case["input"] if case.get("input_encoding") == "base64" else case["input"]
        text = text.replace("\n", "\\n").replace("\r", "\\r")
    elif case["kind"] == "log":
        text = " \\n ".join(json.dumps(m, separators=(",", ":")) for m in case["input"])
    else:
        text = json.dumps(case["input"], separators=(",", ":"))
    return _shortened(text)


def _shortened(text: str) -> str:
    return text[: _MAX_INPUT - 1] + "\u2026" if len(text) > _MAX_INPUT else text


def _cell(text: str) -> str:
    """Text escaped for a cell of a Markdown table, inside backquotes."""
    return text.replace("|", "\\|").replace("`", "'")


def _shown_line(case: dict, code: str) -> str:
    """For a log, the line that raises the code (a whole game would not fit)."""
    expected: dict = next((e for e in case.get("errors", []) + case.get("warnings", []) if e["code"] == code), {})
    line = expected.get("line") or len(case["input"])
    if not 1 <= line <= len(case["input"]):
        return _shown_input(case)
    return _shortened(f"line {line}: " + json.dumps(case["input"][line - 1], separators=(",", ":")))


def shown_case(case: dict, code: str) -> str:
    """A case's input in one line, cut short; for a log, the line that raises the code."""
    return _shown_line(case, code) if case["kind"] == "log" else _shown_input(case)


def _example(code: str, examples: Dict[str, dict]) -> str:
    case: Optional[dict] = examples.get(code)
    if case is None:
        return NOT_IN_CORPUS.get(code, "")
    return f"`{case['id']}`: {case['description']}<br>`{_cell(shown_case(case, code))}`"


def codes_markdown(cases: List[dict]) -> str:
    examples = example_cases(cases)
    out = [
        "# Diagnostic codes",
        "",
        "Generated from `sgn/codes.py` and the corpus by `sgn codes --markdown`; do not edit.",
        "A code is stable and never reused. Only `error`s make a log invalid; the `io` layer",
        "means the file could not be read at all (exit 2). Each example is the first corpus",
        "case that raises the code (see `test-corpus/cases.json`). `sgn codes CODE` explains",
        "one code, with what its layer checks and its example, from the installed package alone.",
        "",
    ]
    for layer in LAYERS:
        rows = [c for c in CODES.values() if c.layer == layer]
        if not rows:
            continue
        out += [
            f"## {layer}",
            "",
            f"The {layer} layer checks {LAYER_ABOUT[layer]}",
            "",
            "| code | severity | triggered by | example |",
            "| --- | --- | --- | --- |",
        ]
        out += [f"| `{c.name}` | {c.severity} | {c.summary} | {_example(c.name, examples)} |" for c in rows]
        out.append("")
    return "\n".join(out)


def codes_text() -> str:
    width = max(len(c) for c in CODES)
    return "".join(f"{c.name:{width}}  {c.layer:8}  {c.severity:7}  {c.summary}\n" for c in CODES.values())
