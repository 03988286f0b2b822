"""What the corpus must cover, checked by `sgn corpus check`: every code shown alone by a
minimal case and by a case inside a complete game, every section of the specification
that has invalid cases with a valid one beside them, every `spec` naming listed sections.

The requirements are data, `coverage.yaml` beside the sources (docs/corpus.md,
"Coverage"): the sections a spec may name, the cases each layer's codes need, what a
complete game holds, and the codes exempt, each with its reason. A corpus folder without
that file is checked for soundness only.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, NamedTuple, Optional, Set, Tuple

from ..codes import CODES, LAYERS
from ..layers.reader import Line, describe, read_lines
from .cases import case_bytes

COVERAGE = "coverage.yaml"
PART = "; "  # between the sections a spec names
FREE = " \u2014 "  # before its free text: " — "
MINIMAL, IN_GAME = "minimal", "in-game"
IN_GAME_TAG = "in-game"


class Coverage(NamedTuple):
    sections: FrozenSet[str]  # "SOURCE: NAME"
    sources: Tuple[str, ...]
    needs: Dict[str, Tuple[str, ...]]  # layer -> the cases each of its codes needs
    complete_game: Dict[str, int]  # "messages", or an aCode -> the least number of them
    exempt: Dict[str, str]  # code -> why no case shows it alone
    not_in_game: Dict[str, str]  # code -> why no complete game shows it


class CoverageError(Exception):
    """A coverage file that cannot be read or is not of its format; the message names the
    file and the field."""


def _mapping(value: Any, where: str, item: type) -> dict:
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, item) for k, v in value.items()):
        raise CoverageError(f"{where}: a mapping of names to {'lists' if item is list else item.__name__ + 's'}")
    return value


def load(root: Path) -> Optional[Coverage]:
    """The coverage the corpus folder `root` asks for; None when it has no coverage file."""
    import yaml

    path = root / COVERAGE
    if not path.exists():
        return None
    name = describe(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise CoverageError(f"{name}: cannot read it: {error}") from None
    data = _mapping(data, name, object)
    sections = _mapping(data.get("sections"), f"{name}: sections", list)
    listed = frozenset(f"{s}: {n}" for s, names in sections.items() for n in names if isinstance(n, str))
    if len(listed) != sum(map(len, sections.values())):
        raise CoverageError(f"{name}: sections: each source lists names (strings), each once")
    needs = {layer: tuple(kinds) for layer, kinds in _mapping(data.get("needs"), f"{name}: needs", list).items()}
    if not set(needs) <= set(LAYERS) or not all(set(kinds) <= {MINIMAL, IN_GAME} for kinds in needs.values()):
        raise CoverageError(f"{name}: needs: for a layer of {', '.join(LAYERS)}, cases {MINIMAL} and/or {IN_GAME}")
    game = _mapping(data.get("complete-game"), f"{name}: complete-game", int)
    exempt = _mapping(data.get("exempt") or {}, f"{name}: exempt", str)
    not_in_game = _mapping(data.get("not-in-game") or {}, f"{name}: not-in-game", str)
    unknown = sorted((set(exempt) | set(not_in_game)) - set(CODES))
    if unknown:
        raise CoverageError(f"{name}: exempts a code sgn does not have: {unknown[0]}")
    return Coverage(listed, tuple(sections), needs, game, exempt, not_in_game)


def spec_sections(spec: str, coverage: Coverage) -> Tuple[List[str], List[str]]:
    """The sections a spec names, and what is wrong with it. A spec is `SOURCE: NAME`
    parts joined by "; " (NAME alone for another section of the source named before),
    then optionally " — " and free text."""
    refs, dash, free = spec.partition(FREE)
    if dash and not free.strip():
        return [], ["has nothing after its dash"]
    found: List[str] = []
    problems: List[str] = []
    source = None
    for part in refs.split(PART):
        named = next((s for s in coverage.sources if part.startswith(s + ": ")), None)
        if named is not None:
            source, part = named, part[len(named) + 2 :]
        if source is None:
            return [], [f"does not start with a source: {', '.join(coverage.sources)}"]
        section = f"{source}: {part}"
        if section not in coverage.sections:
            problems.append(f"names {section!r}, which is not a listed section")
        found.append(section)
    return found, problems


def messages(case: dict) -> List[Any]:
    """The SGN messages of a case's input: each line that reads as JSON, whatever else is
    wrong with the file (a line that does not read is left out)."""
    if case["kind"] == "message":
        return [case["input"]]
    if case["kind"] == "log":
        return list(case["input"])
    if case["kind"] != "raw":
        return []
    found = []
    for line in read_lines(io.BytesIO(case_bytes(case)), name="<case>"):
        if isinstance(line, Line):
            try:
                found.append(json.loads(line.text))
            except (ValueError, RecursionError):
                pass
    return found


def in_complete_game(case: dict, coverage: Coverage) -> bool:
    """Whether a case's input is a complete game: at least so many messages, and of each
    aCode as many as `complete-game` asks."""
    values = messages(case)
    counts = Counter(m[1] for m in values if isinstance(m, list) and len(m) == 3 and isinstance(m[1], str))
    return all(len(values) >= n if key == "messages" else counts[key] >= n for key, n in coverage.complete_game.items())


def shown_code(case: dict) -> Optional[str]:
    """The one code a case shows alone: its only error code, or in a valid case its only
    warning code."""
    codes = {e["code"] for e in case.get("warnings" if case["valid"] else "errors", [])}
    return codes.pop() if len(codes) == 1 else None


def _code_problems(shown: Dict[str, Set[str]], coverage: Coverage) -> List[str]:
    found = []
    for code in CODES.values():
        needed = set(coverage.needs.get(code.layer, ())) if code.severity != "info" else set()
        cases = shown.get(code.name, set())
        if code.name in coverage.exempt:
            needed = set()
            if cases:
                found.append(f"code {code.name}: exempt, yet a case shows it alone: drop the exemption")
        elif code.name in coverage.not_in_game:
            needed.discard(IN_GAME)
            if IN_GAME in cases:
                found.append(f"code {code.name}: exempt from a complete game, yet one shows it: drop the exemption")
        alone = "invalid, with that error only" if code.severity == "error" else "valid, with that warning only"
        found += [
            f"code {code.name}: no {'minimal case' if kind == MINIMAL else 'case inside a complete game'}"
            f" shows it alone ({alone})"
            for kind in sorted(needed - cases)
        ]
    return found


def problems(cases: List[dict], coverage: Coverage) -> List[str]:
    """What the corpus lacks, one line each: a spec not of the form, a code without its
    cases, a section with invalid cases and no valid one."""
    found: List[str] = []
    verdicts: Dict[str, Counter] = {}
    shown: Dict[str, Set[str]] = {}
    for case in cases:
        sections, bad = spec_sections(case["spec"], coverage)
        found += [f"{case['id']}: its spec {p}" for p in bad]
        for section in sections:
            verdicts.setdefault(section, Counter())[case["valid"]] += 1
        complete = None
        if IN_GAME_TAG in case["tags"]:
            complete = in_complete_game(case, coverage)
            if not complete:
                found.append(f"{case['id']}: tagged {IN_GAME_TAG}, but its input is no complete game")
        code = shown_code(case)
        if code is not None:
            complete = in_complete_game(case, coverage) if complete is None else complete
            shown.setdefault(code, set()).add(IN_GAME if complete else MINIMAL)
    found += _code_problems(shown, coverage)
    found += [
        f"section {section}: {n[False]} invalid case(s) and no valid one beside them"
        for section, n in sorted(verdicts.items())
        if n[False] and not n[True]
    ]
    return found


def check(cases: List[dict], root: Path) -> List[str]:
    """The coverage problems of the corpus folder `root` (none when it asks for no coverage)."""
    try:
        coverage = load(root)
    except CoverageError as error:
        return [str(error)]
    return problems(cases, coverage) if coverage is not None else []
