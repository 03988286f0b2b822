"""The standard streams of the command line, any of which may be closed (`<&-`, `>&-`):
a closed one behaves as a file that cannot be read or written, never as a crash; and the
one way a command opens the input it names (`open_input`)."""

from __future__ import annotations

import errno
import io
import os
import sys
from typing import Any, Optional, Tuple

from ..layers.reader import STDIN_NAME, describe
from .output_file import Guarded, OutputError


class ClosedInput(io.RawIOBase):
    """Standard input when closed (`<&-`: sys.stdin is None): unreadable like any file that
    cannot be read, so that every command reports `read-error` and exits 2."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise OSError(errno.EBADF, "standard input is closed")


def standard_input():
    return sys.stdin.buffer if sys.stdin is not None else ClosedInput()


def open_input(path: str, *, output: Optional[str] = None) -> Tuple[Any, str]:
    """What a command reads for the input it names (`path`, '-' is standard input), and the
    name its diagnostics give it. The path is opened by the reader, once, as it reads; an
    `output` file (not '-') that would write over the input is an OutputError first, as is
    standard output redirected to the input (`sgn redact LOG >> LOG` would read its own
    output for ever)."""
    if output is not None and output != "-":
        from .output_file import refuse_inputs

        refuse_inputs(output, [path])
    else:  # (written to standard output: that must not be the input, `>> LOG` or `1<> LOG`)
        from .output_file import refuse_standard_output

        refuse_standard_output(sys.stdout, [path])
    if path == "-":
        return standard_input(), STDIN_NAME
    return path, describe(path)


class ClosedOutput(io.TextIOBase):
    """Standard output when closed (`>&-`): the first write stops the command, with a message."""

    class Closed(Exception):
        pass

    def write(self, text: str) -> int:
        raise ClosedOutput.Closed()


class StandardOutput(Guarded):
    """Standard output, whose failure to write (a full disk behind `> file`) is one line,
    said once: the stream then points at the null device, so that what it still holds goes
    nowhere, quietly, when the command ends."""

    def __init__(self, stream: Any):
        super().__init__(stream, "standard output")

    def failed(self, error: OSError) -> OutputError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):  # no descriptor (a test's stream)
            pass
        return super().failed(error)
