"""The test corpus: language-neutral cases, authored in YAML, bundled into one JSON file.

Sources live in `test-corpus/src/*.yaml` (read by `corpus_source`); `sgn corpus
build` writes the committed bundle `test-corpus/cases.json`, which any language
can read with a JSON parser alone (its format: `schema/corpus/v1/cases.json`).
This module loads a bundle and checks it: its format, and the corpus itself
(unique ids and descriptions, known codes in the right layer, each invalid case
breaking exactly one rule, except verbatim seed examples, tagged `seed`, and
faults that necessarily break several, tagged `several`; `corpus_coverage` adds
what must be covered).

Reading a source or a bundle never fails with a traceback: what is not of the format
(a source that is no list, a case that is no mapping, a key missing or of the wrong type,
JSON nested too deep) is a `CorpusError` naming the file, and the case where there is one.
"""

from __future__ import annotations

import base64
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from .. import packaged
from ..codes import CODES, LAYERS
from ..layers.reader import describe
from .cases import NOTATIONS, case_bytes
from .expectations import FIELDS, unmatched

FORMAT = 1
BUNDLE = "cases.json"
CHANGELOG = "CHANGELOG.md"  # its first "## X.Y.Z" heading is the corpus's version
SOURCES = "src"
CASE_SCHEMA = "corpus/v1/cases.json"
_INPUT_KEYS = {
    "message": ("json",),
    "log": ("lines", "file"),
    "raw": ("text", "base64"),
    **{kind: (key,) for kind, key in NOTATIONS.items()},
}
_PASS_THROUGH = (
    "id",
    "description",
    "kind",
    "level",
    "profile",
    "extension",
    "valid",
    "errors",
    "warnings",
    "tags",
    "spec",
    "comment",
)  # then input, and state (computed)


class CorpusError(Exception):
    """A corpus source or bundle that cannot be read or used; the message names the file,
    and the case where there is one."""


MAX_DEPTH = 100  # a corpus file nested deeper is refused (an SGN message is 6 deep)


def _read(path: Path, where: str = "") -> str:
    """The text of a file; `where` names the case that needs it, if one does."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise CorpusError(f"{where}cannot read {describe(path)}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise CorpusError(f"{where}{describe(path)}: not UTF-8 (byte {error.start + 1} is {error.reason})") from None


def _kind_of(value: Any) -> str:
    """What a value is, for a message: `a list`, `a number`."""
    return {
        dict: "a mapping",
        list: "a list",
        str: "a string",
        int: "a number",
        float: "a number",
        bool: "true or false",
        type(None): "nothing",
    }.get(type(value), f"a {type(value).__name__}")


def _too_deep(value: Any) -> bool:
    """Whether a parsed value is nested more than MAX_DEPTH deep (counted without recursion)."""
    level = [value]
    for _ in range(MAX_DEPTH + 1):
        level = [
            v
            for node in level
            if isinstance(node, (list, dict))
            for v in (node.values() if isinstance(node, dict) else node)
        ]
        if not level:
            return False
    return True


def _json(text: str, where: str, *, strict: bool = False) -> Any:
    """Parsed JSON text; `strict` refuses duplicate keys too (in the input of a case they
    would change its meaning). What is nested too deep for the parser is refused; the
    callers refuse values nested more than MAX_DEPTH deep (`_too_deep`)."""

    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise CorpusError(f"{where}: duplicate key in JSON input (use kind raw for that)")
        return dict(pairs)

    try:
        return json.loads(text, object_pairs_hook=no_duplicates if strict else None)
    except ValueError as error:
        raise CorpusError(f"{where}: not JSON ({error})" + ("; use kind raw for that" if strict else "")) from None
    except RecursionError:
        raise CorpusError(f"{where}: nested too deep to read") from None


def _strict_json(text: Any, where: str) -> Any:
    if not isinstance(text, str):
        raise CorpusError(f"{where}: a message is written as JSON text, a string, not {_kind_of(text)}")
    return _json(text, where, strict=True)


def load_cases(path: Optional[Path] = None) -> List[dict]:
    """The cases of the committed (or installed) bundle, or of the bundle at `path`; raises
    CorpusError, naming the file and the case, for one that is not of the bundle's format."""
    return load_bundle(path)[0]


def bundle_path(path: Optional[Path] = None) -> Path:
    """The bundle `load_bundle` reads: `path`, or the committed (or installed) one."""
    return path or packaged.corpus_dir() / BUNDLE


# The SHA-256 of each bundle this process found sound: its check is a function of its bytes
# alone, and the tests load the same bundle in many modules.
_SOUND: Set[str] = set()


def load_bundle(path: Optional[Path] = None) -> Tuple[List[dict], Dict[str, Any]]:
    """The cases of a bundle (as `load_cases`), and what names it in a report: its version,
    the SHA-256 of its bytes, its number of cases."""
    import hashlib

    path = bundle_path(path)
    name = describe(path)
    text = _read(path)
    bundle = _json(text, name)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()  # the file's bytes: it was read as strict UTF-8
    if digest not in _SOUND:  # (the same bytes were found sound already: they still are)
        problems = bundle_problems(bundle)
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise CorpusError(f"{name}: {problems[0]}{more}")
        _SOUND.add(digest)
    return bundle["cases"], {"version": bundle.get("version"), "sha256": digest, "cases": len(bundle["cases"])}


@lru_cache(maxsize=None)
def _validator(part: str):
    """The format's validator of a whole bundle (`bundle`) or of one case (`case`)."""
    from jsonschema import Draft4Validator

    schema = packaged.load_json(CASE_SCHEMA)
    return Draft4Validator(
        schema if part == "bundle" else dict(schema["definitions"][part], definitions=schema["definitions"])
    )


_INPUT_TYPES = {"log": list, "raw": str, **{kind: str for kind in NOTATIONS}}  # message: any JSON


def _case_problems(case: dict) -> List[str]:
    """What is wrong with one case: its format (`schema/corpus/v1/cases.json`), an input of
    another type than its kind's, an input whose bytes cannot be made."""
    problems = [_problem(e) for e in _validator("case").iter_errors(case)]
    if problems:
        return sorted(problems)
    wanted = _INPUT_TYPES.get(case["kind"])
    if wanted is not None and not isinstance(case["input"], wanted):
        return [
            f"input: the input of a case of kind {case['kind']} is {_kind_of(wanted())}, not {_kind_of(case['input'])}"
        ]
    if case["kind"] in ("message", "log") and _too_deep(case["input"]):
        return [f"input: nested more than {MAX_DEPTH} deep"]
    if case["kind"] in ("message", "log"):
        try:
            json.dumps(case["input"], allow_nan=False)
        except ValueError:
            return ["input: a number no double holds (1e400 reads as infinity): write such a case as raw text"]
        if "text" in case and not _text_reads_as_input(case):
            return ["text: its lines do not read as the input"]
    if case.get("input_encoding") == "base64":
        try:
            base64.b64decode(case["input"])
        except ValueError as error:
            return [f"input: not base64 ({error})"]
    return []


def _text_reads_as_input(case: dict) -> bool:
    """Whether a case's exact text, line by line, reads as its input (a message: one line)."""
    lines = case["text"].split("\n")
    if lines[-1] != "":
        return False
    try:
        values = [json.loads(line) for line in lines[:-1]]
    except (ValueError, RecursionError):
        return False
    return values == ([case["input"]] if case["kind"] == "message" else case["input"])


def bundle_problems(bundle: Any) -> List[str]:
    """What makes a bundle unusable, each naming its case: its format, and what
    `_case_problems` finds in each case."""
    if not isinstance(bundle, dict) or not isinstance(bundle.get("cases"), list):
        return [
            f"a bundle is a mapping with format and cases (a list), not {_kind_of(bundle)}"
            + ("" if not isinstance(bundle, dict) else f" whose cases are {_kind_of(bundle.get('cases'))}")
        ]
    problems = [_problem(e) for e in _validator("bundle").iter_errors(dict(bundle, cases=[]))]
    for number, case in enumerate(bundle["cases"], 1):
        if not isinstance(case, dict):
            problems.append(f"case {number}: a case is a mapping of its fields, not {_kind_of(case)}")
            continue
        name = case.get("id")
        problems += [f"case {number}{f' ({name})' if isinstance(name, str) else ''}: {p}" for p in _case_problems(case)]
    return problems


def _problem(error) -> str:
    """A schema error as a short sentence, after the path of the field at fault."""
    path = "/".join(map(str, error.absolute_path))
    text = f"{path}: {error.message}" if path else error.message
    return text if len(text) <= 200 else text[:200] + "..."


def expected_state(case: dict) -> dict:
    """The end state `sgn` replays a valid rules case to (`endstate`), which the bundle records."""
    import io

    from ..game.endstate import end_state
    from ..pipeline.checking import Checking
    from ..pipeline.replay import replay

    checking = Checking("rules", case.get("profile", "strict"))
    state, _ = replay(io.BytesIO(case_bytes(case)), name=case["id"], checking=checking, possible=False)
    return end_state(state.snapshot()) if state else {}


def check_case(case: dict) -> List:
    """The diagnostics sgn gives for a case, at its level and profile."""
    import io

    if case["kind"] in NOTATIONS:
        from ..notation.convert import in_line_order, parse, read_input

        text = read_input(io.BytesIO(case_bytes(case)), "<input>")
        return [d for _, found in in_line_order(text.found, parse(case["kind"], text.lines, text.name)) for d in found]
    from ..pipeline.checking import Checking
    from ..pipeline.engine import FileCheck

    checking = Checking(case["level"], case.get("profile", "strict"))
    return list(FileCheck(io.BytesIO(case_bytes(case)), checking))


def compare(case: dict, diagnostics: Iterable) -> List[str]:
    """What differs between a case's expectations and the diagnostics found (empty: it
    passes), paired as `expectations` pairs them for every implementation."""
    problems = []
    found = list(diagnostics)
    for severity, key in (("error", "errors"), ("warning", "warnings")):
        got = [{k: getattr(d, k, None) for k in (*FIELDS, "message")} for d in found if d.severity == severity]
        missing, extra = unmatched(case.get(key, []), got)
        problems += [f"expected {severity} not raised: {w}" for w in missing]
        problems += [
            f"unexpected {severity}: {d['code']} line {d['line']} {d['pointer']} {d['message']}" for d in extra
        ]
    if case["valid"] != (not any(d.severity == "error" for d in found)):
        problems.append(f"verdict: expected valid={case['valid']}")
    return problems


def self_check(cases: List[dict], root: Optional[Path] = None) -> List[str]:
    """Problems with the corpus itself; an empty list means it is sound. With the corpus
    folder `root`, also what it lacks of the coverage it asks for (`corpus_coverage`)."""
    problems = []
    for field in ("id", "description"):
        seen: Dict[str, int] = {}
        for case in cases:
            seen[case[field]] = seen.get(case[field], 0) + 1
        problems += [f"{field} used {n} times: {value!r}" for value, n in seen.items() if n > 1]
    for case in cases:
        name = case["id"]
        if case.get("profile", "strict") == "compat" and "compat" not in case.get("tags", []):
            problems.append(f"{name}: a case of the compat profile carries the tag compat")
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
            problems.append(
                f"{name}: the cases of a notation ({', '.join(NOTATIONS)}), and only they, are at the level notation"
            )
    if root is not None:
        from . import coverage as corpus_coverage

        problems += corpus_coverage.check(cases, root)
    return problems
