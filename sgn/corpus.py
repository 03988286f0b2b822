"""The test corpus: language-neutral cases, authored in YAML, bundled into one JSON file.

Sources live in `test-corpus/src/*.yaml`; `sgn corpus build` writes the
committed bundle `test-corpus/cases.json`, which any language can read with a
JSON parser alone (its format: `schema/corpus/v1/cases.json`). The corpus
checks itself: unique ids and descriptions, known codes in the right layer,
each invalid case breaking exactly one rule (except verbatim seed examples,
tagged `seed`, and faults that necessarily break several, tagged `several`).

In a source a case gives its input by kind: `message` has `json` (the text of
one message); `log` has `lines` (JSON texts) or `file` (a path under
test-corpus/); `raw` has `text` or `base64`. The cases of the neighbouring
notations are at the level `notation`, their kind the notation's name in `sgn parse
--notation`: `han` (a HAN action) has `han`, `hsgn` (lines of HSGN turns) has `hsgn`,
`hsn` and `hsn-002` (an HSN state) have `hsn`. An item of `lines` may be
`{include: PATH}`, which stands for the lines of that file (a map, say), or
`{include: PATH, first: N}`, its first N lines (the start of a game).
"""
from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

from . import packaged
from .codes import CODES, LAYERS

FORMAT = 1
BUNDLE = "cases.json"
SOURCES = "src"
CASE_SCHEMA = "corpus/v1/cases.json"
NOTATIONS = {"han": "han", "hsgn": "hsgn", "hsn": "hsn", "hsn-002": "hsn"}   # kind -> its key in a source
_INPUT_KEYS = {"message": ("json",), "log": ("lines", "file"), "raw": ("text", "base64"),
               **{kind: (key,) for kind, key in NOTATIONS.items()}}
_PASS_THROUGH = ("id", "description", "kind", "level", "profile", "valid", "errors",
                 "warnings", "tags", "spec", "comment")


class CorpusError(Exception):
    """A source case that cannot be bundled; the message names the case."""


def _strict_json(text: str, where: str) -> Any:
    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise CorpusError(f"{where}: duplicate key in JSON input (use kind raw for that)")
        return dict(pairs)
    try:
        return json.loads(text, object_pairs_hook=no_duplicates)
    except ValueError as error:
        raise CorpusError(f"{where}: input is not JSON ({error}); use kind raw for that") from None


def _file_messages(root: Path, name: str, where: str) -> List[Any]:
    text = (root / name).read_text(encoding="utf-8")
    return [_strict_json(t, f"{where} {name}:{n}") for n, t in enumerate(text.splitlines(), 1)]


def _bundle_input(case: dict, root: Path, where: str) -> Tuple[Any, Optional[str]]:
    kind = case.get("kind")
    given = [k for k in _INPUT_KEYS.get(kind, ()) if k in case]
    if len(given) != 1:
        raise CorpusError(f"{where}: kind {kind!r} needs exactly one of {_INPUT_KEYS.get(kind)}")
    key = given[0]
    if key == "json":
        return _strict_json(case["json"], where), None
    if key == "lines":
        values = []
        for item in case["lines"]:
            if isinstance(item, dict) and set(item) <= {"include", "first"} and "include" in item:
                included = _file_messages(root, item["include"], where)
                values += included[:item["first"]] if "first" in item else included
            else:
                values.append(_strict_json(item, f"{where} line {len(values) + 1}"))
        return values, None
    if key == "file":
        return _file_messages(root, case["file"], where), None
    if kind in NOTATIONS:
        return case[key], None
    if key == "text":
        return case["text"], "text"
    return case["base64"], "base64"


def build_bundle(root: Optional[Path] = None) -> dict:
    """Read every YAML source under `root`/src into the bundle's JSON structure."""
    import yaml

    root = root or packaged.corpus_dir()
    cases = []
    for source in sorted((root / SOURCES).glob("*.yaml")):
        try:
            entries = yaml.safe_load(source.read_text(encoding="utf-8")) or []
        except yaml.YAMLError as error:
            raise CorpusError(f"{source.name}: not valid YAML: {error}") from None
        for number, case in enumerate(entries, 1):
            where = f"{source.name} case {number} ({case.get('id', '?')})"
            data = {k: case[k] for k in _PASS_THROUGH if k in case}
            data["input"], encoding = _bundle_input(case, root, where)
            if encoding:
                data["input_encoding"] = encoding
            data.setdefault("errors", [])
            data.setdefault("tags", [])
            cases.append(data)
    return {"format": FORMAT, "cases": cases}


def dump_bundle(bundle: dict) -> str:
    """The bundle as committed: one case per line, so that a change shows as one line."""
    lines = [json.dumps(case, ensure_ascii=False) for case in bundle["cases"]]
    return ('{"format": %d, "cases": [\n' % bundle["format"]) + ",\n".join(lines) + "\n]}\n"


def load_cases(path: Optional[Path] = None) -> List[dict]:
    """The cases of the committed (or installed) bundle."""
    path = path or packaged.corpus_dir() / BUNDLE
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)["cases"]


def case_bytes(case: dict) -> bytes:
    """The exact bytes of the file a case stands for."""
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


def check_case(case: dict) -> List:
    """The diagnostics sgn gives for a case, at its level and profile."""
    import io
    if case["kind"] in NOTATIONS:
        from .convert import in_line_order, parse, read_input
        text = read_input(io.BytesIO(case_bytes(case)), "<input>")
        return [d for _, found in in_line_order(text.found, parse(case["kind"], text.lines, text.name))
                for d in found]
    from .validate import iter_diagnostics
    return list(iter_diagnostics(io.BytesIO(case_bytes(case)), level=case["level"],
                                 profile=case.get("profile", "strict")))


def matches(expected: dict, diagnostic) -> bool:
    """Whether a diagnostic is the one an expectation describes (fields it leaves out match anything)."""
    return all(getattr(diagnostic, key) == value for key, value in expected.items())


def compare(case: dict, diagnostics: Iterable) -> List[str]:
    """What differs between a case's expectations and the diagnostics found (empty: it passes)."""
    problems = []
    found = list(diagnostics)
    for severity, key in (("error", "errors"), ("warning", "warnings")):
        got = [d for d in found if d.severity == severity]
        wanted = list(case.get(key, []))
        unmatched = []
        for d in got:
            hit = next((w for w in wanted if matches(w, d)), None)
            if hit is None:
                unmatched.append(d)
            else:
                wanted.remove(hit)
        problems += [f"expected {severity} not raised: {w}" for w in wanted]
        problems += [f"unexpected {severity}: {d.code} line {d.line} {d.pointer} {d.message}"
                     for d in unmatched]
    if case["valid"] != (not any(d.severity == "error" for d in found)):
        problems.append(f"verdict: expected valid={case['valid']}")
    return problems


def self_check(cases: List[dict]) -> List[str]:
    """Problems with the corpus itself; an empty list means it is sound."""
    problems = []
    for field in ("id", "description"):
        seen: Dict[str, int] = {}
        for case in cases:
            seen[case[field]] = seen.get(case[field], 0) + 1
        problems += [f"{field} used {n} times: {value!r}" for value, n in seen.items() if n > 1]
    for case in cases:
        name = case["id"]
        level_rank = LAYERS.index(case["level"])
        for key in ("errors", "warnings"):
            for expected in case.get(key, []):
                code = CODES.get(expected["code"])
                if code is None:
                    problems.append(f"{name}: unknown code {expected['code']!r}")
                elif LAYERS.index(code.layer) > level_rank:
                    problems.append(f"{name}: {code.name} is a {code.layer} code, above level {case['level']}")
        if case["valid"] and case["errors"]:
            problems.append(f"{name}: a valid case lists errors")
        if not case["valid"]:
            codes = {e["code"] for e in case["errors"]}
            if not codes:
                problems.append(f"{name}: an invalid case must name the code it raises")
            elif len(codes) > 1 and not {"seed", "several"} & set(case["tags"]):
                problems.append(f"{name}: an invalid case breaks one rule, not {sorted(codes)}")
        if case["kind"] == "raw" and "input_encoding" not in case:
            problems.append(f"{name}: a raw case needs input_encoding")
        if (case["kind"] in NOTATIONS) != (case["level"] == "notation"):
            problems.append(f"{name}: the cases of a notation ({', '.join(NOTATIONS)}), "
                            "and only they, are at the level notation")
    return problems
