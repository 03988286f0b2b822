"""Globs as Python's `glob.glob(pattern, recursive=True)` expands them, sorted, but for `**`,
which enters no symlink to a folder (nor matches one) and no folder twice: Python's follows
symlinks, and a symlink loop makes it list the same files again and again (with two links,
without end). With the listing of a folder that globs and walks (`files.py`) share."""

from __future__ import annotations

import fnmatch
import os
import re
from typing import Callable, Iterator, List, Optional, Tuple

Warn = Callable[[str, str], None]  # (the path passed over, why)

_MAGIC = re.compile("[*?[]")


def folder_key(path: str, follow: bool = True) -> Optional[Tuple[int, int]]:
    try:
        info = os.stat(path, follow_symlinks=follow)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def entries(folder: str, warn: Optional[Warn] = None) -> List[os.DirEntry]:
    try:
        with os.scandir(folder) as listing:
            return list(listing)
    except OSError as error:
        if warn is not None:
            warn(folder, f"a folder that cannot be read ({error.strerror or error})")
        return []


def is_folder(entry: os.DirEntry) -> bool:
    """A folder itself, not a symlink to one."""
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def expand_glob(pattern: str) -> List[str]:
    """The paths `pattern` matches, sorted (hidden names matched only by a pattern that
    starts with a dot, as Python's glob does)."""
    return sorted({match for match in _iglob(pattern, dironly=False) if match})


def _iglob(pattern: str, dironly: bool) -> Iterator[str]:
    dirname, basename = os.path.split(pattern)
    if not _MAGIC.search(pattern):
        if basename:
            if not dironly and os.path.lexists(pattern) or dironly and os.path.isdir(pattern):
                yield pattern
        elif os.path.isdir(dirname):  # a pattern ending with a slash matches folders only
            yield pattern
        return
    if not dirname:
        yield from _in_folder("", basename, dironly)
        return
    # os.path.split gives a drive or UNC path back whole: no recursion on it (r'\\?\C:')
    folders = _iglob(dirname, True) if dirname != pattern and _MAGIC.search(dirname) else iter([dirname])
    for folder in folders:
        for name in _in_folder(folder, basename, dironly):
            yield os.path.join(folder, name)


def _in_folder(folder: str, pattern: str, dironly: bool) -> Iterator[str]:
    """The names in `folder` (relative to it) that one component of a pattern matches."""
    if pattern == "**":
        yield ""
        yield from _recursive(folder, dironly)
    elif _MAGIC.search(pattern):
        names = [e.name for e in entries(folder or os.curdir) if not dironly or _is_dir(e)]
        if not _hidden(pattern):
            names = [n for n in names if not _hidden(n)]
        yield from fnmatch.filter(names, pattern)
    elif pattern:
        if os.path.lexists(os.path.join(folder, pattern)):
            yield pattern
    elif os.path.isdir(folder):
        yield pattern


def _recursive(folder: str, dironly: bool) -> Iterator[str]:
    """`**`: every name under `folder`, at any depth, but for hidden ones; folders entered
    once each, symlinks to folders neither entered nor matched."""
    start = folder_key(folder or os.curdir)
    visited = {start} if start is not None else set()
    stack = [""]
    while stack:
        relative = stack.pop()
        for entry in entries(os.path.join(folder, relative) if relative else folder or os.curdir):
            if _hidden(entry.name):
                continue
            name = os.path.join(relative, entry.name) if relative else entry.name
            if is_folder(entry):
                key = folder_key(entry.path, follow=False)
                if key is not None and key not in visited:
                    visited.add(key)
                    yield name
                    stack.append(name)
            elif not dironly and not (entry.is_symlink() and os.path.isdir(entry.path)):
                yield name


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _hidden(name: str) -> bool:
    return name[:1] == "."
