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
`{include: PATH, first: N}`, its first N lines (the start of a game); a raw case's
`text` may be a list of strings and such includes (a game with one line damaged).

Reading a source or a bundle never fails with a traceback: what is not of the format
(a source that is no list, a case that is no mapping, a key missing or of the wrong type,
JSON nested too deep) is a `CorpusError` naming the file, and the case where there is one.
"""
from __future__ import annotations

import base64
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

from . import packaged
from .codes import CODES, LAYERS
from .expectations import FIELDS, unmatched
from .reader import describe
from .report import printable

FORMAT = 1
BUNDLE = "cases.json"
CHANGELOG = "CHANGELOG.md"      # its first "## X.Y.Z" heading is the corpus's version
SOURCES = "src"
CASE_SCHEMA = "corpus/v1/cases.json"
NOTATIONS = {"han": "han", "hsgn": "hsgn", "hsn": "hsn", "hsn-002": "hsn"}   # kind -> its key in a source
_INPUT_KEYS = {"message": ("json",), "log": ("lines", "file"), "raw": ("text", "base64"),
               **{kind: (key,) for kind, key in NOTATIONS.items()}}
_PASS_THROUGH = ("id", "description", "kind", "level", "profile", "valid", "errors",
                 "warnings", "tags", "spec", "comment")     # then input, and state (computed)


class CorpusError(Exception):
    """A corpus source or bundle that cannot be read or used; the message names the file,
    and the case where there is one."""


MAX_DEPTH = 100     # a corpus file nested deeper is refused (an SGN message is 6 deep)


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
    return {dict: "a mapping", list: "a list", str: "a string", int: "a number", float: "a number",
            bool: "true or false", type(None): "nothing"}.get(type(value), f"a {type(value).__name__}")


def _too_deep(value: Any) -> bool:
    """Whether a parsed value is nested more than MAX_DEPTH deep (counted without recursion)."""
    level = [value]
    for _ in range(MAX_DEPTH + 1):
        level = [v for node in level if isinstance(node, (list, dict))
                 for v in (node.values() if isinstance(node, dict) else node)]
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


def _raw_lines(root: Path, name: Any, where: str) -> List[str]:
    """The lines of a file under the corpus root, as written."""
    if not isinstance(name, str):
        raise CorpusError(f"{where}: a file to include is a path, a string, not {_kind_of(name)}")
    return _read(root / name, f"{where}: ").splitlines()


def _file_lines(root: Path, name: Any, where: str) -> List[Tuple[str, Any]]:
    """The lines of a file under the corpus root, each as written and as read."""
    return [(t, _strict_json(t, f"{where} {name}:{n}")) for n, t in enumerate(_raw_lines(root, name, where), 1)]


def _is_include(item: Any) -> bool:
    return isinstance(item, dict) and set(item) <= {"include", "first", "after"} and "include" in item


def _included(item: dict, root: Path, where: str, read=_file_lines) -> List[Any]:
    """The lines of a file a case includes (as written and read, or as `read` reads them):
    its first `first` lines (all by default), after its first `after` lines (none by default)."""
    included = read(root, item["include"], where)
    bounds = []
    for key, default in (("after", 0), ("first", len(included))):
        value = item.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise CorpusError(f"{where}: {key} is a number of lines, not {value!r}")
        bounds.append(value)
    return included[bounds[0]:bounds[1]]


def _one_line(text: str, value: Any) -> str:
    """A message's line in the file: its JSON text as written, or, where the source spreads
    it over several lines (a map, say), the value written compactly on one."""
    if "\n" not in text:
        return text
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text_piece(item: Any, root: Path, where: str) -> str:
    """A piece of a raw case's text: a string as it is, or `{include: PATH}`: the file's
    lines (bounded as in `_included`), each with its newline."""
    if isinstance(item, str):
        return item
    if not _is_include(item):
        raise CorpusError(f"{where}: a piece of text is a string or {{include: PATH}}, not {_kind_of(item)}")
    return "".join(line + "\n" for line in _included(item, root, where, _raw_lines))


def _bundle_input(case: dict, root: Path, where: str) -> Tuple[Any, Optional[str], Optional[str]]:
    """A case's input as the bundle gives it, the input's encoding (raw cases), and the exact
    text of the file (message and log cases: their JSON as written, not as re-serialized)."""
    kind = case.get("kind")
    if not isinstance(kind, str) or kind not in _INPUT_KEYS:
        raise CorpusError(f"{where}: kind is one of {', '.join(_INPUT_KEYS)}, not {kind!r}")
    given = [k for k in _INPUT_KEYS[kind] if k in case]
    if len(given) != 1:
        raise CorpusError(f"{where}: kind {kind!r} needs exactly one of {', '.join(_INPUT_KEYS[kind])}")
    key = given[0]
    if key == "json":
        value = _strict_json(case["json"], where)
        return value, None, _one_line(case["json"], value) + "\n"
    if key in ("lines", "file"):
        if key == "file":
            lines = _file_lines(root, case["file"], where)
        elif not isinstance(case["lines"], list):
            raise CorpusError(f"{where}: lines is a list, not {_kind_of(case['lines'])}")
        else:
            lines = []
            for item in case["lines"]:
                if _is_include(item):
                    lines += _included(item, root, where)
                else:
                    value = _strict_json(item, f"{where} line {len(lines) + 1}")
                    lines.append((_one_line(item, value), value))
        return [value for _, value in lines], None, "".join(text + "\n" for text, _ in lines)
    if key == "text" and isinstance(case["text"], list):     # pieces: strings as they are, files' lines
        return "".join(_text_piece(item, root, where) for item in case["text"]), key, None
    if not isinstance(case[key], str):
        raise CorpusError(f"{where}: {key} is a string, not {_kind_of(case[key])}")
    if kind in NOTATIONS:
        return case[key], None, None
    return case[key], key, None


def _source_cases(source: Path) -> List[Any]:
    """The entries of one YAML source: a list (of cases), or nothing."""
    import yaml

    name = describe(source.name)
    try:
        entries = yaml.safe_load(_read(source))
    except yaml.YAMLError as error:
        raise CorpusError(f"{name}: not valid YAML: {error}") from None
    except RecursionError:
        raise CorpusError(f"{name}: nested too deep to read") from None
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise CorpusError(f"{name}: a source is a list of cases, not {_kind_of(entries)}")
    if _too_deep(entries):
        raise CorpusError(f"{name}: nested more than {MAX_DEPTH} deep")
    return entries


def build_bundle(root: Optional[Path] = None) -> dict:
    """Read every YAML source under `root`/src into the bundle's JSON structure; raises
    CorpusError, naming the file and the case, for anything that would not make a sound one."""
    root = root or packaged.corpus_dir()
    cases = []
    for source in sorted((root / SOURCES).glob("*.yaml")):
        for number, case in enumerate(_source_cases(source), 1):
            where = f"{describe(source.name)} case {number}"
            if not isinstance(case, dict):
                raise CorpusError(f"{where}: a case is a mapping of its fields, not {_kind_of(case)}")
            where += f" ({case.get('id', '?')})"
            data = {k: case[k] for k in _PASS_THROUGH if k in case}
            data["input"], encoding, text = _bundle_input(case, root, where)
            if encoding:
                data["input_encoding"] = encoding
            if text is not None:
                data["text"] = text
            data.setdefault("errors", [])
            data.setdefault("tags", [])
            problems = _case_problems(data)
            if problems:
                raise CorpusError(f"{where}: {problems[0]}")
            if data["level"] == "rules" and data["valid"]:
                data["state"] = expected_state(data)
            cases.append(data)
    number = version(root)
    return {"format": FORMAT, **({"version": number} if number else {}), "cases": cases}


def version(root: Optional[Path] = None) -> Optional[str]:
    """The corpus's version: the newest heading of its changelog (None for a corpus of
    one's own with no changelog)."""
    import re
    path = (root or packaged.corpus_dir()) / CHANGELOG
    if not path.exists():
        return None
    found = re.search(r"^## (\d+\.\d+\.\d+)\s*$", _read(path), re.MULTILINE)
    if found is None:
        raise CorpusError(f"{describe(path)}: no version heading (## 1.2.3)")
    return found.group(1)


def dump_bundle(bundle: dict) -> str:
    """The bundle as committed: one case per line, so that a change shows as one line (a
    lone surrogate, which a raw case's text may hold, as its JSON escape)."""
    lines = [printable(json.dumps(case, ensure_ascii=False)) for case in bundle["cases"]]
    head = {key: bundle[key] for key in ("format", "version") if key in bundle}
    return json.dumps(head)[:-1] + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n"


def load_cases(path: Optional[Path] = None) -> List[dict]:
    """The cases of the committed (or installed) bundle, or of the bundle at `path`; raises
    CorpusError, naming the file and the case, for one that is not of the bundle's format."""
    path = path or packaged.corpus_dir() / BUNDLE
    name = describe(path)
    bundle = _json(_read(path), name)
    problems = bundle_problems(bundle)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise CorpusError(f"{name}: {problems[0]}{more}")
    return bundle["cases"]


def identity(path: Optional[Path] = None) -> Dict[str, Any]:
    """What names a bundle in a report: its version, the SHA-256 of its bytes, its number of cases."""
    import hashlib
    path = path or packaged.corpus_dir() / BUNDLE
    data = path.read_bytes()
    bundle = json.loads(data)
    return {"version": bundle.get("version"), "sha256": hashlib.sha256(data).hexdigest(),
            "cases": len(bundle.get("cases", []))}


@lru_cache(maxsize=None)
def _validator(part: str):
    """The format's validator of a whole bundle (`bundle`) or of one case (`case`)."""
    from jsonschema import Draft4Validator
    schema = packaged.load_json(CASE_SCHEMA)
    return Draft4Validator(schema if part == "bundle" else dict(schema["definitions"][part],
                                                                  definitions=schema["definitions"]))


_INPUT_TYPES = {"log": list, "raw": str, **{kind: str for kind in NOTATIONS}}     # message: any JSON


def _case_problems(case: dict) -> List[str]:
    """What is wrong with one case: its format (`schema/corpus/v1/cases.json`), an input of
    another type than its kind's, an input whose bytes cannot be made."""
    problems = [_problem(e) for e in _validator("case").iter_errors(case)]
    if problems:
        return sorted(problems)
    wanted = _INPUT_TYPES.get(case["kind"])
    if wanted is not None and not isinstance(case["input"], wanted):
        return [f"input: the input of a case of kind {case['kind']} is {_kind_of(wanted())}, "
                f"not {_kind_of(case['input'])}"]
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
        return [f"a bundle is a mapping with format and cases (a list), not {_kind_of(bundle)}"
                + ("" if not isinstance(bundle, dict) else f" whose cases are {_kind_of(bundle.get('cases'))}")]
    problems = [_problem(e) for e in _validator("bundle").iter_errors(dict(bundle, cases=[]))]
    for number, case in enumerate(bundle["cases"], 1):
        if not isinstance(case, dict):
            problems.append(f"case {number}: a case is a mapping of its fields, not {_kind_of(case)}")
            continue
        name = case.get("id")
        problems += [f"case {number}{f' ({name})' if isinstance(name, str) else ''}: {p}"
                     for p in _case_problems(case)]
    return problems


def _problem(error) -> str:
    """A schema error as a short sentence, after the path of the field at fault."""
    path = "/".join(map(str, error.absolute_path))
    text = f"{path}: {error.message}" if path else error.message
    return text if len(text) <= 200 else text[:200] + "..."


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


def expected_state(case: dict) -> dict:
    """The end state `sgn` replays a valid rules case to (`endstate`), which the bundle records."""
    import io

    from .endstate import end_state
    from .replay import replay
    state, _ = replay(io.BytesIO(case_bytes(case)), name=case["id"], profile=case.get("profile", "strict"))
    return end_state(state) if state else {}


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


def compare(case: dict, diagnostics: Iterable) -> List[str]:
    """What differs between a case's expectations and the diagnostics found (empty: it
    passes), paired as `expectations` pairs them for every implementation."""
    problems = []
    found = list(diagnostics)
    for severity, key in (("error", "errors"), ("warning", "warnings")):
        got = [{k: getattr(d, k, None) for k in (*FIELDS, "message")} for d in found if d.severity == severity]
        missing, extra = unmatched(case.get(key, []), got)
        problems += [f"expected {severity} not raised: {w}" for w in missing]
        problems += [f"unexpected {severity}: {d['code']} line {d['line']} {d['pointer']} {d['message']}"
                     for d in extra]
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
            problems.append(f"{name}: the cases of a notation ({', '.join(NOTATIONS)}), "
                            "and only they, are at the level notation")
    if root is not None:
        from . import corpus_coverage
        problems += corpus_coverage.check(cases, root)
    return problems
