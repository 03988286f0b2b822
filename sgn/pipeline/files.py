"""The files `sgn validate` checks, from what the command line names: files as they are,
folders walked for log files, quoted globs expanded. As ruff does: a file named on the command
line is always checked; inside folders, the included extensions are taken and the excluded
folders passed over, in a stable order (sorted by path), leaving out what git ignores when the
folder is in a git work tree (one `git ls-files` per folder; no git, no filter).

Walks and globs take regular files only: a FIFO, a socket, a device, a dangling symlink or a
symlink loop that they meet is passed over with a warning (reading a FIFO would wait for a
writer forever), and nothing they meet is opened. A symlink to a file is followed; a symlink
to a folder is not, inside a walk or by `**` (as ruff, `git ls-files` and bash's globstar
leave them); a folder is entered once, and a file listed once, each known by (st_dev,
st_ino): every walk ends, and no file is checked twice, however many links (symbolic or hard)
name it. A file is listed under its own name rather than a symlink's (the name that goes
through the fewest symlinks), and of those (hard links) under the first in sorted order.
What the command line names itself is taken as given (a FIFO, `/dev/stdin`, `<(...)`, a
symlink to a folder, a URL, `-`).

What a walk or a glob finds is a local path, whatever its name: a file named `-` or
`proto::x.sgn` is listed `./-` or `./proto::x.sgn`, as a walk of `.` names it, so that
nothing downstream reads standard input or a URL instead.
"""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import stat
import sys
from typing import Callable, Dict, Hashable, Iterable, List, Optional, Set, Tuple

from .globs import Warn, entries, expand_glob, folder_key, is_folder

# What a folder is searched for: SGN logs, plain or gzip, and the usual names of JSON Lines.
DEFAULT_INCLUDE = ("*.sgn", "*.sgn.gz", "*.ndjson", "*.ndjson.gz", "*.jsonl", "*.jsonl.gz")
# Folders never walked into (named on the command line, they are walked all the same).
DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".bzr",
    ".tox",
    ".nox",
    ".venv",
    "venv",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "__pycache__",
    "node_modules",
    "build",
    "dist",
    "site-packages",
    "__pypackages__",
)
_GLOB_CHARS = set("*?[")

FOLDER = "a folder"  # what kind() says of a folder, or of a symlink to one
Key = Hashable  # what a file is known by: identity(), or its name
Found = Tuple[str, Key]  # a file found: its path, and its key

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*(://|::)")


def is_url(name: str) -> bool:
    """Whether a name on the command line is a URL (`s3://...`, `zip://...::...`,
    `simplecache::...`), read through fsspec (`remote.py`): by its pattern only. The one place that asks."""
    return bool(_URL.match(name))


def warn_skipped(path: str, why: str) -> None:
    """The warning, on standard error, for a path that a walk or a glob passes over."""
    from ..layers.reader import describe  # here, not at start-up: most runs skip nothing
    from ..words import printable, visible

    sys.stderr.write(printable(f"sgn validate: warning: {visible(describe(path))} skipped: {why}\n"))


def kind(path: str) -> Optional[str]:
    """None for a regular file, or a symlink to one; else what the path is, as a warning says
    it ("a FIFO (named pipe), not a regular file", "a dangling symlink", FOLDER...). Only
    stat() is called: nothing is opened. A path that cannot be examined and is no symlink
    counts as a file, for the reader to report why it cannot be read."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        if not os.path.islink(path):
            return None
        if error.errno == errno.ELOOP:
            return "a symlink loop"
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            return "a dangling symlink"
        return f"a symlink that cannot be followed ({error.strerror or error})"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return FOLDER
    what = (
        "a FIFO (named pipe)"
        if stat.S_ISFIFO(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a character device"
        if stat.S_ISCHR(mode)
        else "a block device"
        if stat.S_ISBLK(mode)
        else "a special file"
    )
    return ("a symlink to " if os.path.islink(path) else "") + what + ", not a regular file"


def identity(path: str) -> Key:
    """What a file is known by, so that it is checked once however many names it has: its
    (st_dev, st_ino), through symlinks; its real path when it cannot be examined (a name the
    system refuses is its own key)."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        try:
            return ("path", os.path.realpath(path))
        except (OSError, ValueError):
            return ("name", path)
    return found.st_dev, found.st_ino


def local_name(path: str) -> str:
    """A path found by a walk or a glob, named so that it is read as a local path: `-` and a
    name that reads as a URL (`simplecache::x.sgn`) are given a leading `./`, as a walk of
    `.` names them."""
    return os.curdir + os.sep + path if path == "-" or is_url(path) else path


def collect(
    paths: Iterable[str],
    *,
    include: Iterable[str] = DEFAULT_INCLUDE,
    exclude: Iterable[str] = DEFAULT_EXCLUDE,
    respect_gitignore: bool = True,
    warn: Warn = warn_skipped,
) -> List[str]:
    """The files to check, in the order named (each folder's files sorted by path, and left
    out when named or found before, by (st_dev, st_ino)); `-`, URLs and names that do not
    exist are kept as they are, for the reader to report. What a walk or a glob passes over
    is told to `warn` (path, why)."""
    include, exclude = tuple(include), tuple(exclude)
    out: List[str] = []
    seen: Set[Key] = set()  # the files listed
    told: Set[str] = set()  # the paths passed over, by their real folder and their name

    def skip(path: str, why: str) -> None:
        key = os.path.join(os.path.realpath(os.path.dirname(path) or os.curdir), os.path.basename(path))
        if key not in told:  # met again (`f/**` matches f/ and f/pipe.sgn): said once
            told.add(key)
            warn(path, why)

    def add(found: Iterable[Found]) -> None:
        for path, key in once(found):
            if key not in seen:
                seen.add(key)
                out.append(path)

    def walk(folder: str) -> List[Found]:
        return _walk(folder, include, exclude, respect_gitignore, skip)

    for path in paths:
        if path == "-" or is_url(path):  # read as given: standard input, or through fsspec
            seen.add(("name", path))
            out.append(path)
            continue
        if not os.path.exists(path) and _GLOB_CHARS & set(path):
            matches = expand_glob(path)
            if matches:
                found: List[Found] = []
                for match in map(local_name, matches):
                    what = kind(match)
                    if what == FOLDER:
                        found.extend(walk(match))
                    elif what is None:
                        found.append((match, identity(match)))
                    else:
                        skip(match, what)
                add(found)
                continue
        if os.path.isdir(path):
            add(walk(path))
        else:  # a file named twice is checked twice, as asked
            seen.add(identity(path))
            out.append(path)
    return out


def once(found: Iterable[Found]) -> List[Found]:
    """Each file once, in the order found, under its best name: the one that goes through the
    fewest symlinks (its own name rather than a link's), and of those the first in sorted
    order. Only the names of a file met more than once are examined."""
    items = list(found)
    places: Dict[Key, List[int]] = {}
    for at, (_, key) in enumerate(items):
        places.setdefault(key, []).append(at)
    kept = [
        ats[0] if len(ats) == 1 else min(ats, key=lambda at: (_symlinks(items[at][0]), items[at][0]))
        for ats in places.values()
    ]
    return [items[at] for at in sorted(kept)]


def _symlinks(path: str) -> int:
    """How many of the names a path goes through are symlinks (`a/l/b.sgn`: `a`, `a/l`, `a/l/b.sgn`)."""
    count, head = 0, path
    while True:
        if os.path.islink(head):
            count += 1
        parent = os.path.dirname(head)
        if parent == head or not parent:
            return count
        head = parent


def _matcher(patterns: Iterable[str]) -> Callable[[str], bool]:
    """Whether a name matches any of `patterns`, as `fnmatch.fnmatch` says, in one compiled
    pattern (a walk asks for every file it meets)."""
    joined = "|".join(fnmatch.translate(os.path.normcase(p)) for p in patterns)
    if not joined:
        return lambda name: False
    match = re.compile(joined).match
    return lambda name: match(os.path.normcase(name)) is not None


def _walk(folder: str, include, exclude, respect_gitignore: bool, warn: Warn) -> List[Found]:
    """The included files under `folder`, sorted, each with its key; folders entered once
    each, symlinks to folders not followed, and a file reached by several names listed once
    (by its own name rather than a symlink's, and of its own names the first in sorted order,
    when the walk meets several: `once`)."""
    found: List[Tuple[str, Key, str]] = []  # (path, key, real path)
    skipped: List[Tuple[str, str]] = []  # (path, why), told in the order of the paths
    start = folder_key(folder)
    visited = {start} if start is not None else set()
    included, excluded = _matcher(include), _matcher(exclude)
    # (path, relative to `folder`, real path): below `folder` no symlink is followed, so the
    # real path of a folder, or of a file that is no symlink, is its parent's and its name
    stack = [(folder, ".", os.path.realpath(folder))]
    while stack:
        root, relative_root, real_root = stack.pop()
        for entry in entries(root, lambda path, why: skipped.append((path, why))):
            relative = _rel(relative_root, entry.name)
            if is_folder(entry):
                key = folder_key(entry.path, follow=False)
                if key is not None and key not in visited and not (excluded(entry.name) or excluded(relative)):
                    visited.add(key)
                    stack.append((entry.path, relative, os.path.join(real_root, entry.name)))
                continue
            if not included(entry.name) or excluded(entry.name) or excluded(relative):
                continue
            if _is_plain_file(entry):
                found.append((entry.path, _entry_key(entry), os.path.join(real_root, entry.name)))
                continue
            what = kind(entry.path)
            if what == FOLDER:
                continue  # a symlink to a folder: not followed
            if what is not None:
                skipped.append((entry.path, what))
                continue
            found.append((entry.path, identity(entry.path), os.path.realpath(entry.path)))
    for path, why in sorted(skipped):
        warn(path, why)
    if respect_gitignore and found:
        kept = _not_ignored(folder)
        if kept is not None:
            found = [item for item in found if item[2] in kept]
    return sorted(once((path, key) for path, key, _ in found), key=lambda item: item[0])


def _entry_key(entry: os.DirEntry) -> Key:
    try:
        info = entry.stat()
    except OSError:
        return identity(entry.path)
    return info.st_dev, info.st_ino


def _is_plain_file(entry: os.DirEntry) -> bool:
    """A regular file itself, not a symlink to one (no system call where the folder's
    listing tells)."""
    try:
        return entry.is_file(follow_symlinks=False)
    except OSError:
        return False


def _rel(root: str, name: str) -> str:
    return name if root == "." else os.path.join(root, name).replace(os.sep, "/")


def _not_ignored(folder: str) -> Optional[Set[str]]:
    """The files under `folder` that git does not ignore (tracked or not), as real paths; None
    when the folder is in no git work tree or git cannot be run."""
    import subprocess  # here, not at start-up: only folders need it

    try:
        done = subprocess.run(
            ["git", "-C", folder, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--full-name", "."],
            capture_output=True,
            timeout=60,
        )
        top = subprocess.run(["git", "-C", folder, "rev-parse", "--show-toplevel"], capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0 or top.returncode != 0:
        return None
    base = os.fsdecode(top.stdout.strip())
    return {os.path.realpath(os.path.join(base, os.fsdecode(p))) for p in done.stdout.split(b"\0") if p}
