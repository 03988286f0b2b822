"""gzip read as a log's bytes, whatever the file is called: detected by its magic bytes, with
concatenated members, and a damaged or cut stream reported after the lines before it
(`sgn/layers/reader.py` reads what this gives)."""

from __future__ import annotations

import io
import sys
import zlib
from typing import IO, Any, List, Optional, cast

GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 15  # compressed bytes read at a time from a gzip stream
_OUT = 1 << 18  # decompressed bytes made at most by one step of the decompressor


class _Prefixed(io.RawIOBase):
    """A stream that first replays bytes already read (to sniff gzip) from a pipe."""

    def __init__(self, prefix: bytes, rest: IO[bytes]):
        self._prefix = prefix
        self._rest: Any = rest  # (its read may give any bytes-like object)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._prefix:
            n = min(len(buffer), len(self._prefix))
            buffer[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _Gunzip(io.RawIOBase):
    """Decompress gzip (concatenated members too), giving out every byte that can be
    recovered before a damaged or truncated spot, and only then raising (gzip.GzipFile
    loses the last block when the stream ends early). Each step makes at most _OUT bytes
    (zlib's max_length), whatever the data expands to, and the output is given out from
    an offset, never copied again: memory stays bounded and reading linear."""

    def __init__(self, raw: IO[bytes]):
        self._raw: Any = raw  # (its read may give any bytes-like object)
        self._inflate = zlib.decompressobj(wbits=31)
        self._started = False  # the current member has received input
        self._input = b""  # compressed bytes read; those from _at on are not yet fed
        self._at = 0
        self._full = False  # the last step filled its output: zlib may hold more
        self._mark = (self._inflate.copy(), 0, False)  # where this input or member began, all output out
        self._since = 0  # output made since the mark
        self._skip = -1  # after an error, replaying from the mark: output to drop (-1: not replaying)
        self._pending = b""  # decompressed bytes; those from _pos on are not yet given out
        self._pos = 0
        self._error: Optional[Exception] = None

    def readable(self) -> bool:
        return True

    def read(self, size: Optional[int] = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        if not size or not self._ready():
            return b""
        pending, pos = self._pending, self._pos
        end = min(len(pending), pos + size)
        self._pos = end
        return pending if pos == 0 and end == len(pending) else pending[pos:end]

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        data = self.read(len(view))
        view[: len(data)] = data
        return len(data)

    def readline(self, size: Optional[int] = -1) -> bytes:
        """A line, or its first `size` bytes, found in the pending output (io.RawIOBase's
        reads a byte at a time). A line cut short by damage is not given: the error is."""
        left = sys.maxsize if size is None or size < 0 else size
        parts: List[bytes] = []
        while left > 0 and self._ready():
            end = self._pending.find(b"\n", self._pos, self._pos + left)
            parts.append(self.read(left if end < 0 else end + 1 - self._pos))
            left = 0 if end >= 0 else left - len(parts[-1])
        return b"".join(parts)

    def _ready(self) -> bool:
        """Some output is pending (False at a clean end); a stream's error is raised only
        once everything before it was given out."""
        while self._pos >= len(self._pending):
            if self._error is not None:
                raise self._error
            if not self._fill():
                return False
        return True

    def _fill(self) -> bool:
        """Decompress until some output, an error or the end (False: a clean end)."""
        while True:
            if self._at >= len(self._input) and not self._full:
                data = bytes(self._raw.read(_CHUNK))
                if not data:
                    if self._started:
                        self._error = EOFError("the gzip stream ends before its end marker")
                        return True
                    return False
                self._input, self._at, self._skip = data, 0, -1
                self._mark, self._since = (self._inflate.copy(), 0, self._started), 0
            out = self._step()
            if out or self._error is not None:
                self._pending, self._pos = out, 0
                return True

    def _step(self) -> bytes:
        """One call of the decompressor. After a zlib error, decompression starts again from
        the mark, a byte at a time (a byte's output is small by nature), dropping what was
        given out already, so that the output before the damaged byte is not lost with a call."""
        at, inflate, careful = self._at, self._inflate, self._skip >= 0
        feed = self._input[at : at + 1] if careful else (self._input[at:] if at else self._input)
        try:
            out = inflate.decompress(feed, 0 if careful else _OUT)
        except zlib.error as error:
            if careful:
                self._error = error
            else:
                self._inflate, self._at, self._started = self._mark
                self._skip, self._full = self._since, False
            return b""
        self._started = self._started or bool(feed)
        if careful:
            out, self._skip = out[self._skip :], max(0, self._skip - len(out))
        self._since += len(out)
        self._full = len(out) == _OUT and not careful
        if inflate.eof:  # the member ends; what follows it (unused_data) starts the next one
            self._at = at + len(feed) - len(inflate.unused_data)
            self._inflate = zlib.decompressobj(wbits=31)
            self._mark, self._since = (self._inflate.copy(), self._at, False), 0
            self._started = self._full = False
        else:
            self._at = at + len(feed) - len(inflate.unconsumed_tail)
        return out


def maybe_gunzip(stream: IO[bytes]) -> IO[bytes]:
    """Return a stream of the decompressed bytes when the data is gzip."""
    read: Any = stream.read  # (a stream may give any bytes-like object: a bytearray, a memoryview)
    magic = bytes(read(2))
    if len(magic) == 1:  # an unbuffered pipe may give fewer bytes than asked
        magic += bytes(read(1))
    seekable = getattr(stream, "seekable", None)  # (an object with `read` alone is a stream too)
    if seekable is not None and seekable():
        stream.seek(-len(magic), io.SEEK_CUR)
    else:
        stream = io.BufferedReader(_Prefixed(magic, stream))
    if magic == GZIP_MAGIC:
        # unbuffered: a buffered read of many bytes would lose the data before a damaged spot
        return cast(IO[bytes], _Gunzip(stream))
    return stream
