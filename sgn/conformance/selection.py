"""Which cases a run asks: the implementation's command, globs of ids and tags, levels, profiles."""

from __future__ import annotations

import fnmatch
import os
import re
import shlex
import shutil
from typing import Iterable, List, Mapping, Optional, Sequence

from .outcome import CASE_LEVELS


def command(impl: str | Sequence[str]) -> List[str]:
    """The argument list of an implementation command (split like a shell would, run without one)."""
    return shlex.split(impl) if isinstance(impl, str) else list(impl)


# `-m MODULE`, `-mMODULE`, or after Python's flags that take no value (`-um MODULE`)
_PYTHON_MODULE = re.compile(r"-[bBdEIiOPqsSuv]*m(.*)")
_MODULE_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def command_files(impl: str | Sequence[str], environ: Optional[Mapping[str, str]] = None) -> List[str]:
    """The files an implementation's command names, as far as can be told without running
    it (what must not be written over): its program, found on PATH as the system finds it;
    every word that is an existing file, relative to the current folder or absolute (and the
    FILE of a word `--option=FILE`); and the module of Python's `-m MODULE`: `MODULE.py`,
    or the package's `__init__.py` and `__main__.py`, in the current folder or in a folder
    of PYTHONPATH, where Python looks first. A module found elsewhere on that Python's path
    (site-packages, a `.pth` file) is not seen, nor is a file named inside a word that
    another program reads as a command (`sh -c '...'`)."""
    environ = os.environ if environ is None else environ
    argv = command(impl)
    files: List[str] = []
    program = shutil.which(argv[0], path=environ.get("PATH", os.defpath)) if argv else None
    if program:
        files.append(program)
    modules = []
    for index, word in enumerate(argv):
        files += [w for w in (word, *word.split("=", 1)[1:]) if w and os.path.isfile(w)]
        flag = _PYTHON_MODULE.fullmatch(word) if index > 0 else None
        if flag is not None:
            name = flag.group(1) or (argv[index + 1] if index + 1 < len(argv) else "")
            if _MODULE_NAME.fullmatch(name):
                modules.append(name)
    folders = [os.curdir, *[f for f in environ.get("PYTHONPATH", "").split(os.pathsep) if f]]
    for name in modules:
        parts = name.split(".")
        for folder in folders:
            names = [os.path.join(folder, *parts) + ".py", os.path.join(folder, *parts, "__main__.py")]
            names += [os.path.join(folder, *parts[:n], "__init__.py") for n in range(1, len(parts) + 1)]
            files += [n for n in names if os.path.isfile(n)]
    return files


# -- choosing cases ------------------------------------------------------------------------


def select(
    cases: Iterable[dict],
    *,
    run: Sequence[str] = (),
    skip: Sequence[str] = (),
    level: Optional[str] = None,
    profile: Optional[str] = None,
) -> List[dict]:
    """The cases to run: matching a --run glob (id or tag) if any, no --skip glob, at or below
    level, of the profile if one is named."""

    def hits(case, globs):
        names = [case["id"], *case.get("tags", [])]
        return any(fnmatch.fnmatchcase(n, g) for g in globs for n in names)

    top = CASE_LEVELS.index(level) if level else len(CASE_LEVELS) - 1
    return [
        c
        for c in cases
        if c["level"] in CASE_LEVELS
        and CASE_LEVELS.index(c["level"]) <= top
        and (not run or hits(c, run))
        and not hits(c, skip)
        and (profile is None or c.get("profile", "strict") == profile)
    ]


def read_skip_file(path: str) -> List[str]:
    """Globs, one a line; '#' starts a comment."""
    with open(path, encoding="utf-8") as handle:
        return [line.split("#", 1)[0].strip() for line in handle if line.split("#", 1)[0].strip()]


def smoke_cases(cases: List[dict]) -> List[dict]:
    """A handful of cases to check the wiring: one valid and one invalid of each level."""
    picked = []
    for level in CASE_LEVELS:  # (never a notation case)
        for valid in (True, False):
            match = next(
                (
                    c
                    for c in cases
                    if c["level"] == level and c["valid"] == valid and c.get("profile", "strict") == "strict"
                ),
                None,
            )
            if match:
                picked.append(match)
    return picked
