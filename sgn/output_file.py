"""Where a command writes a file (`--output-file`, `-o OUT`, `--report`): never over one of
its inputs, and only once nothing can go wrong before.

An output that is an input, or resolves to one (a symlink, a hard link, a relative path
spelt otherwise, standard input redirected from it), is refused with exit 2 before
anything is opened for writing: opening it would truncate the log before it is read. A
command opens its output last, after every usage check, so that a usage error writes
nothing.
"""
from __future__ import annotations

import os
import sys
from typing import IO, Iterable, Optional, Tuple

from .reader import describe


class OutputError(Exception):
    """The output cannot be written, or must not be: the message says why (exit 2)."""


def _identity(path: str) -> Optional[Tuple[int, int]]:
    try:
        found = os.stat(path)
    except (OSError, ValueError):       # missing, or a name the system refuses
        return None
    return found.st_dev, found.st_ino


def _stdin_identity() -> Optional[Tuple[int, int]]:
    try:
        found = os.fstat(sys.stdin.fileno()) if sys.stdin is not None else None
    except (OSError, ValueError, AttributeError):       # closed, or not a real file
        return None
    return (found.st_dev, found.st_ino) if found is not None else None


def refuse_inputs(output: str, inputs: Iterable[str], *, reads_stdin: bool = False) -> None:
    """OutputError when writing `output` would write over one of `inputs` (local paths; '-'
    is standard input, as is `reads_stdin`); URLs are never local files here."""
    from .cluster.remote import is_url

    target = _identity(output)
    where = os.path.realpath(output)
    for name in inputs:
        if name == "-":
            reads_stdin = True
            continue
        if is_url(name):
            continue
        if os.path.realpath(name) == where or (target is not None and _identity(name) == target):
            raise OutputError(f"the output {describe(output)} is the input {describe(name)}: writing it would "
                              "destroy that input before it is read; name another output")
    if reads_stdin and target is not None and _stdin_identity() == target:
        raise OutputError(f"the output {describe(output)} is the file standard input reads: writing it would "
                          "destroy that input before it is read; name another output")


def open_output(path: str, *, binary: bool = False) -> IO:
    """The output opened for writing (OutputError when the system refuses)."""
    try:
        if binary:
            return open(path, "wb")
        return open(path, "w", encoding="utf-8", errors="backslashreplace")
    except OSError as error:
        raise OutputError(f"cannot write {describe(path)}: {error.strerror or error}") from None
