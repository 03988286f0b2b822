"""The corpus's YAML sources (`test-corpus/src/*.yaml`), read into the bundle
(`sgn corpus build`): each case's input by its kind, the exact text of its file, and for a
valid rules case the end state `sgn` replays it to. `docs/corpus.md` gives the format.

In a source a case gives its input by kind: `message` has `json` (the text of
one message); `log` has `lines` (JSON texts) or `file` (a path under
test-corpus/); `raw` has `text` or `base64`. The cases of the neighbouring
notations are at the level `notation`, their kind the notation's name in `sgn parse
--notation`: `han` (a HAN action) has `han`, `hsgn` (lines of HSGN turns) has `hsgn`,
`hsn` and `hsn-002` (an HSN state) have `hsn`. An item of `lines` may be
`{include: PATH}`, which stands for the lines of that file (a map, say), or
`{include: PATH, first: N}`, its first N lines (the start of a game); a raw case's
`text` may be a list of strings and such includes (a game with one line damaged).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List, Optional, Tuple

from .. import packaged
from ..layers.reader import describe
from ..words import printable
from . import (
    _INPUT_KEYS,
    _PASS_THROUGH,
    CHANGELOG,
    FORMAT,
    MAX_DEPTH,
    NOTATIONS,
    SOURCES,
    CorpusError,
    _case_problems,
    _kind_of,
    _read,
    _strict_json,
    _too_deep,
    expected_state,
)


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
    return included[bounds[0] : bounds[1]]


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
    if key == "text" and isinstance(case["text"], list):  # pieces: strings as they are, files' lines
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
            if data["level"] == "rules" and data["valid"] and "extension" not in data:
                data["state"] = expected_state(data)  # (a hand in doubt has no one state to compare)
            cases.append(data)
    named = version(root)
    return {"format": FORMAT, **({"version": named} if named else {}), "cases": cases}


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
