"""Where a command writes a file (`--output-file`, `-o OUT`, `--report`): never over one of
its inputs, and only once nothing can go wrong before.

An output that is an input, or resolves to one (a symlink, a hard link, a relative path
spelt otherwise, standard input redirected from it, a URL that reads a local file:
`file://`, `simplecache::g.sgn`, `zip://g.sgn::games.zip`), is refused with exit 2 before
anything is opened for writing: opening it would truncate the log before it is read. A
command opens its output last, after every usage check, so that a usage error writes
nothing. Standard output redirected to a file `sgn validate` checks is refused too.

Every command writes a file it names through `written`: into a temporary file beside it,
renamed into place once whole, so that a write that fails (a full disk) leaves the earlier
file as it was, and says so in one line (`cannot write X: No space left on device`, exit 2).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from typing import IO, Any, Iterable, Iterator, Optional, Tuple

from ..layers.reader import describe


class OutputError(Exception):
    """The output cannot be written, or must not be: the message says why (exit 2)."""


def _identity(path: str) -> Optional[Tuple[int, int]]:
    try:
        found = os.stat(path)
    except (OSError, ValueError):  # missing, or a name the system refuses
        return None
    return found.st_dev, found.st_ino


def _real(path: str) -> Optional[str]:
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):  # a name the system refuses
        return None


def _stdin_identity() -> Optional[Tuple[int, int]]:
    try:
        found = os.fstat(sys.stdin.fileno()) if sys.stdin is not None else None
    except (OSError, ValueError, AttributeError):  # closed, or not a real file
        return None
    return (found.st_dev, found.st_ino) if found is not None else None


def refuse_inputs(output: str, inputs: Iterable[str], *, reads_stdin: bool = False, urls: bool = False) -> None:
    """OutputError when writing `output` would write over one of `inputs` ('-' is standard
    input, as is `reads_stdin`). Each input is a local path; with `urls` (a command that
    reads URLs through fsspec, as `sgn validate` does), a URL is compared by the local file
    it reads (`local_target`), and one that reads none (s3://, https://) is never the output."""
    target = _identity(output)
    where = _real(output)
    reads_stdin = reads_stdin or "-" in inputs
    for name, path in _local(inputs, urls):
        real = _real(path)
        if (real is not None and real == where) or (target is not None and _identity(path) == target):
            raise OutputError(
                f"the output {describe(output)} is the input {describe(name)}: writing it would "
                "destroy that input before it is read; name another output"
            )
    if reads_stdin and target is not None and _stdin_identity() == target:
        raise OutputError(
            f"the output {describe(output)} is the file standard input reads: writing it would "
            "destroy that input before it is read; name another output"
        )


def refuse_standard_output(stream: IO, inputs: Iterable[str], *, urls: bool = False) -> None:
    """OutputError when standard output (`stream`) is redirected to one of `inputs` (as
    `refuse_inputs` reads them): a report written into a folder it checks would be read
    back as it grows, for ever, and a log named as input was emptied by the redirection."""
    try:
        found = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's StringIO), or closed
        return
    if not stat.S_ISREG(found.st_mode):
        return
    for name, path in _local(inputs, urls):
        if _identity(path) == (found.st_dev, found.st_ino):
            raise OutputError(
                f"standard output is redirected to {describe(name)}, one of the files checked: "
                "it would be read as it is written; write the report outside them"
            )


def _local(inputs: Iterable[str], urls: bool) -> Iterable[Tuple[str, str]]:
    """Each input as named, with the local path it reads; standard input ('-') and URLs
    that read no local file left out (a URL is read as a URL only with `urls`)."""
    from ..pipeline.files import is_url
    from ..pipeline.remote import local_target

    for name in inputs:
        if name == "-":
            continue
        path = local_target(name) if urls and is_url(name) else name
        if path is not None:
            yield name, path


def cannot_write(name: str, error: OSError) -> OutputError:
    """The one line that says an output failed: `cannot write NAME: the system's reason`."""
    return OutputError(f"cannot write {name}: {error.strerror or error}")


class Guarded:
    """A stream whose failures to write are OutputError (`cannot_write`), told apart from
    any other failure of the run; everything else is the stream's own. A reader that went
    away (BrokenPipeError) is left as it is: that is no failure of ours."""

    def __init__(self, stream: Any, name: str):
        self._stream, self._name = stream, name

    def write(self, data: Any) -> Any:
        try:
            return self._stream.write(data)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self.failed(error) from None

    def writelines(self, lines: Iterable[Any]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise self.failed(error) from None

    def failed(self, error: OSError) -> OutputError:
        return cannot_write(self._name, error)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _in_place(path: str, follow: bool) -> bool:
    """Whether `path` is written where it is, not replaced: a device, a pipe, a socket (there
    is nothing to rename over: /dev/null must stay a device), or a name under /dev or /proc
    (/dev/stdout, /dev/fd/3: a stream already open, perhaps for appending). Unless `follow`,
    a link is what it is, replaced whatever it leads to."""
    if os.path.abspath(path).startswith(("/dev/", "/proc/")):
        return True
    try:
        found = os.stat(path) if follow else os.lstat(path)
    except (OSError, ValueError):  # nothing there yet (or a name the system refuses: open says so)
        return False
    return not (stat.S_ISREG(found.st_mode) or stat.S_ISLNK(found.st_mode))


def _temporary(target: str, binary: bool) -> Tuple[str, IO]:
    """A new file beside `target`, with the permissions `target` has (or a new file's), open."""
    folder, base = os.path.split(target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = None
    while True:
        temp = os.path.join(folder, f".{base[:200]}.{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            break
        except FileExistsError:
            continue
    try:
        if mode is not None:
            os.chmod(temp, mode)
        if binary:
            return temp, os.fdopen(fd, "wb")
        return temp, os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace")
    except BaseException:
        os.close(fd)
        os.remove(temp)
        raise


@contextlib.contextmanager
def written(path: str, *, binary: bool = False, replace_link: bool = False) -> Iterator[Any]:
    """The output `path`, open for writing (text is UTF-8): into a temporary file in the same
    folder, renamed over `path` when the block ends; if the block fails (a write, say: an
    OutputError), the temporary file goes and whatever was at `path` stays. A link named as
    the output is followed, and the file it leads to replaced (as `>` writes through it),
    unless `replace_link` (a name the command chose: the link itself is replaced, never a
    file elsewhere). A device or a pipe is written in place (`_in_place`). Nothing is
    synced to the disk: the rename keeps the old file from a failed write, not from a
    crash of the machine."""
    name = describe(path)
    try:
        target = path if replace_link else os.path.realpath(path)
        if _in_place(target, follow=not replace_link):
            temp, handle = None, open_output(path, binary=binary)
        else:
            temp, handle = _temporary(target, binary)
    except OSError as error:
        raise cannot_write(name, error) from None
    except ValueError as error:  # a name the system refuses (a NUL byte)
        raise OutputError(f"cannot write {name}: the system refuses this name ({error})") from None
    try:
        yield Guarded(handle, name)
        try:
            handle.close()
            if temp is not None:
                os.replace(temp, target)
                temp = None
        except OSError as error:
            raise cannot_write(name, error) from None
    finally:
        if not handle.closed:
            with contextlib.suppress(OSError):
                handle.close()
        if temp is not None:
            with contextlib.suppress(OSError):
                os.remove(temp)


def open_output(path: str, *, binary: bool = False) -> IO:
    """The output opened for writing (OutputError when the system refuses)."""
    try:
        if binary:
            return open(path, "wb")
        return open(path, "w", encoding="utf-8", errors="backslashreplace")
    except OSError as error:
        raise cannot_write(describe(path), error) from None
