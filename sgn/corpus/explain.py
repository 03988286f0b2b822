"""One diagnostic code explained, as `sgn codes CODE` prints it (or every code, as JSON).

What the registry says (layer, severity, sentence) and what its layer checks, then the
code at work: the first corpus case that raises it (`codes_doc.example_cases`),
checked here, so that the message and hint shown are the ones sgn gives, and the case's
`spec` names the section of the specification it rests on. A code no case can show
says why instead (`codes_doc.NOT_IN_CORPUS`).
"""

from __future__ import annotations

import difflib
from typing import Any, Dict, List, Optional

from ..codes import CODES, LAYER_ABOUT
from .codes_doc import NOT_IN_CORPUS, example_cases, shown_case

# Where each layer's checks and their decisions are written down in sgn's source repository
# (not installed: `sgn codes CODE` says what the layer checks itself, from LAYER_ABOUT).
LAYER_DOCS: Dict[str, str] = {
    "io": 'docs/checks.md, "Decisions about input"',
    "syntax": 'docs/checks.md, "Decisions about input"',
    "schema": "schema/v1.0/message.json; departures from the published SGN text: schema/ERRATA.md",
    "semantic": "docs/semantic.md",
    "rules": "docs/rules.md",
    "notation": "docs/notations.md",
}


def close_matches(name: str) -> List[str]:
    """The codes whose names are nearest an unknown one, best first."""
    return difflib.get_close_matches(name.lower().replace("_", "-"), CODES, n=3, cutoff=0.6)


def explain(name: str, cases: List[dict], examples: Optional[Dict[str, dict]] = None) -> Dict[str, Any]:
    """Everything known about one code, as JSON-ready data."""
    from . import check_case

    code = CODES[name]
    examples = example_cases(cases) if examples is None else examples
    case = examples.get(name)
    data: Dict[str, Any] = {
        "code": name,
        "layer": code.layer,
        "severity": code.severity,
        "summary": code.summary,
        "hint": None,
        "spec": None,
        "docs": LAYER_DOCS[code.layer],
        "layer_about": LAYER_ABOUT[code.layer],
        "example": None,
    }
    if case is None:
        data["not_in_corpus"] = NOT_IN_CORPUS.get(name)
        return data
    given = next((d for d in check_case(case) if d.code == name), None)
    data["spec"] = case.get("spec")
    data["example"] = {
        "case": case["id"],
        "description": case["description"],
        "input": shown_case(case, name),
        "diagnostic": None,
    }
    if given is not None:
        data["hint"] = given.hint
        data["example"]["diagnostic"] = {k: v for k, v in given.to_dict().items() if k != "file"}
    return data


def explain_all(cases: List[dict]) -> List[Dict[str, Any]]:
    """Every code explained, in the registry's order."""
    examples = example_cases(cases)
    return [explain(name, cases, examples) for name in CODES]


def explanation_text(data: Dict[str, Any]) -> str:
    """The explanation as a few lines of text."""
    lines = [
        f"{data['code']}: {data['severity']}, {data['layer']} layer",
        f"  {data['summary']}",
        f"  {data['layer']} layer: {data['layer_about']}",
    ]
    if data["hint"]:
        lines.append(f"  hint: {data['hint']}")
    if data["spec"]:
        lines.append(f"  spec: {data['spec']}")
    example = data["example"]
    if example is None:
        why = data.get("not_in_corpus")
        lines.append(f"  example: none in the corpus{': it would take ' + why if why else ''}")
    else:
        lines += [
            f"  example: corpus case {example['case']}: {example['description']}",
            f"    input: {example['input']}",
        ]
        said = example["diagnostic"]
        if said:
            where = ", ".join(f"{key} {said[key]}" for key in ("line", "column") if said.get(key))
            pointer = f"{said['pointer']}: " if said.get("pointer") else ""
            lines.append(f"    sgn says: {where + ': ' if where else ''}{pointer}{said['message']}")
    return "\n".join(lines) + "\n"
