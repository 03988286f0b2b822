"""The standard streams of the command line, any of which may be closed (`<&-`, `>&-`):
a closed one behaves as a file that cannot be read or written, never as a crash."""
from __future__ import annotations

import errno
import io
import sys


class ClosedInput(io.RawIOBase):
    """Standard input when closed (`<&-`: sys.stdin is None): unreadable like any file that
    cannot be read, so that every command reports `read-error` and exits 2."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise OSError(errno.EBADF, "standard input is closed")


def standard_input():
    return sys.stdin.buffer if sys.stdin is not None else ClosedInput()


class ClosedOutput(io.TextIOBase):
    """Standard output when closed (`>&-`): the first write stops the command, with a message."""

    class Closed(Exception):
        pass

    def write(self, text: str) -> int:
        raise ClosedOutput.Closed()
