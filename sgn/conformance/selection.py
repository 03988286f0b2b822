"""Which cases a run asks: the implementation's command, globs of ids and tags, levels, profiles."""
from __future__ import annotations

import fnmatch
import shlex
from typing import Iterable, List, Optional, Sequence

from .outcome import CASE_LEVELS


def command(impl: str | Sequence[str]) -> List[str]:
    """The argument list of an implementation command (split like a shell would, run without one)."""
    return shlex.split(impl) if isinstance(impl, str) else list(impl)


# -- choosing cases ------------------------------------------------------------------------

def select(cases: Iterable[dict], *, run: Sequence[str] = (), skip: Sequence[str] = (),
           level: Optional[str] = None, profile: Optional[str] = None) -> List[dict]:
    """The cases to run: matching a --run glob (id or tag) if any, no --skip glob, at or below
    level, of the profile if one is named."""
    def hits(case, globs):
        names = [case["id"], *case.get("tags", [])]
        return any(fnmatch.fnmatchcase(n, g) for g in globs for n in names)
    top = CASE_LEVELS.index(level) if level else len(CASE_LEVELS) - 1
    return [c for c in cases
            if c["level"] in CASE_LEVELS and CASE_LEVELS.index(c["level"]) <= top and (not run or hits(c, run))
            and not hits(c, skip) and (profile is None or c.get("profile", "strict") == profile)]


def read_skip_file(path: str) -> List[str]:
    """Globs, one a line; '#' starts a comment."""
    with open(path, encoding="utf-8") as handle:
        return [line.split("#", 1)[0].strip() for line in handle if line.split("#", 1)[0].strip()]


def smoke_cases(cases: List[dict]) -> List[dict]:
    """A handful of cases to check the wiring: one valid and one invalid of each level."""
    picked = []
    for level in CASE_LEVELS:      # (never a notation case)
        for valid in (True, False):
            match = next((c for c in cases if c["level"] == level and c["valid"] == valid
                          and c.get("profile", "strict") == "strict"), None)
            if match:
                picked.append(match)
    return picked
