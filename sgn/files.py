"""The files `sgn validate` checks, from what the command line names: files as they are,
folders walked for log files, quoted globs expanded. As ruff does: a file named on the command
line is always checked; inside folders, the included extensions are taken and the excluded
folders passed over, in a stable order (sorted by path), leaving out what git ignores when the
folder is in a git work tree (one `git ls-files` per folder; no git, no filter).
"""
from __future__ import annotations

import fnmatch
import os
from typing import Iterable, List, Optional, Set

# What a folder is searched for: SGN logs, plain or gzip, and the usual names of JSON Lines.
DEFAULT_INCLUDE = ("*.sgn", "*.sgn.gz", "*.ndjson", "*.ndjson.gz", "*.jsonl", "*.jsonl.gz")
# Folders never walked into (named on the command line, they are walked all the same).
DEFAULT_EXCLUDE = (".git", ".hg", ".svn", ".bzr", ".tox", ".nox", ".venv", "venv", ".mypy_cache",
                   ".pytest_cache", ".ruff_cache", "__pycache__", "node_modules", "build", "dist",
                   "site-packages", "__pypackages__")
_GLOB_CHARS = set("*?[")


def collect(paths: Iterable[str], *, include: Iterable[str] = DEFAULT_INCLUDE,
            exclude: Iterable[str] = DEFAULT_EXCLUDE, respect_gitignore: bool = True) -> List[str]:
    """The files to check, in the order named (each folder's files sorted by path, and left
    out when named or found before); `-` and names that do not exist are kept as they are,
    for the reader to report."""
    include, exclude = tuple(include), tuple(exclude)
    out: List[str] = []
    seen: Set[str] = set()

    def add(path: str, named: bool = False) -> None:
        if named or path not in seen:      # a file named twice is checked twice, as asked
            seen.add(path)
            out.append(path)

    for path in paths:
        if path != "-" and not os.path.exists(path) and _GLOB_CHARS & set(path):
            import glob         # here, not at start-up: most runs name files
            matches = sorted(glob.glob(path, recursive=True))
            if matches:
                for match in matches:
                    for found in (_walk(match, include, exclude, respect_gitignore) if os.path.isdir(match)
                                  else [match]):
                        add(found)
                continue
        if path != "-" and os.path.isdir(path):
            for found in _walk(path, include, exclude, respect_gitignore):
                add(found)
        else:
            add(path, named=True)
    return out


def _excluded(name: str, relative: str, exclude: Iterable[str]) -> bool:
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(relative, p) for p in exclude)


def _walk(folder: str, include, exclude, respect_gitignore: bool) -> List[str]:
    found = []
    for root, dirs, files in os.walk(folder):
        relative_root = os.path.relpath(root, folder)
        dirs[:] = [d for d in dirs if not _excluded(d, _rel(relative_root, d), exclude)]
        for name in files:
            relative = _rel(relative_root, name)
            if any(fnmatch.fnmatch(name, p) for p in include) and not _excluded(name, relative, exclude):
                found.append(os.path.join(root, name))
    found.sort()
    if respect_gitignore and found:
        kept = _not_ignored(folder)
        if kept is not None:
            found = [f for f in found if os.path.realpath(f) in kept]
    return found


def _rel(root: str, name: str) -> str:
    return name if root == "." else os.path.join(root, name).replace(os.sep, "/")


def _not_ignored(folder: str) -> Optional[Set[str]]:
    """The files under `folder` that git does not ignore (tracked or not), as real paths; None
    when the folder is in no git work tree or git cannot be run."""
    import subprocess           # here, not at start-up: only folders need it
    try:
        done = subprocess.run(["git", "-C", folder, "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                               "--full-name", "."], capture_output=True, timeout=60)
        top = subprocess.run(["git", "-C", folder, "rev-parse", "--show-toplevel"], capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0 or top.returncode != 0:
        return None
    base = os.fsdecode(top.stdout.strip())
    return {os.path.realpath(os.path.join(base, os.fsdecode(p))) for p in done.stdout.split(b"\0") if p}
