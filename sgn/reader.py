"""Reading: bytes in, numbered lines of text out, in constant memory.

Knows about files, standard input, gzip (detected by its magic bytes, not by
the file name), UTF-8, a byte order mark, CRLF, blank lines and over-long
lines. It never raises for bad content: each problem becomes a diagnostic and
reading goes on with the next line.
"""
from __future__ import annotations

import io
import os
import zlib
from typing import IO, Iterable, Iterator, NamedTuple, Optional, Tuple, Union

from .diagnostic import Diagnostic, make

DEFAULT_MAX_LINE_BYTES = 1 << 20
GZIP_MAGIC = b"\x1f\x8b"
UTF8_BOM = b"\xef\xbb\xbf"
JSON_WHITESPACE = " \t\r\n"
_SKIP_CHUNK = 1 << 16

Source = Union[str, "os.PathLike[str]", IO[bytes], IO[str], Iterable[Union[str, bytes]]]


class Line(NamedTuple):
    """One non-blank line of text, with its 1-based number in the file."""

    number: int
    text: str


class _RawLine(NamedTuple):
    data: bytes          # the line without its newline ("" when too long)
    terminated: bool     # it ended with a newline
    too_long: bool


class _Prefixed(io.RawIOBase):
    """A stream that first replays bytes already read (to sniff gzip) from a pipe."""

    def __init__(self, prefix: bytes, rest: IO[bytes]):
        self._prefix = prefix
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._prefix:
            n = min(len(buffer), len(self._prefix))
            buffer[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._rest.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


class _Gunzip(io.RawIOBase):
    """Decompress gzip (concatenated members too), giving out every byte that can be
    recovered before a damaged or truncated spot, and only then raising.

    (gzip.GzipFile loses the last decompressed block when the stream ends early.)
    """

    _CHUNK = 1 << 16
    _PIECE = 1  # after an error, the chunk is fed again this many bytes at a time, to keep all output before the error

    def __init__(self, raw: IO[bytes]):
        self._raw = raw
        self._inflate = zlib.decompressobj(wbits=31)
        self._started = False   # the current member has received input
        self._pending = b""
        self._error: Optional[Exception] = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._pending:
            if self._error is not None:
                raise self._error
            if not self._fill():
                return 0
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n

    def _fill(self) -> bool:
        """Decompress one more chunk into _pending; False at the clean end of the data."""
        data = self._raw.read(self._CHUNK)
        if not data:
            if self._started:
                self._error = EOFError("the gzip stream ends before its end marker")
                return True
            return False
        saved = self._inflate.copy()
        try:
            self._pending += self._feed(data)
        except zlib.error:
            self._inflate = saved
            for start in range(0, len(data), self._PIECE):
                try:
                    self._pending += self._feed(data[start:start + self._PIECE])
                except zlib.error as error:
                    self._error = error
                    break
        return True

    def _feed(self, data: bytes) -> bytes:
        out = []
        while data:
            self._started = True
            out.append(self._inflate.decompress(data))
            if not self._inflate.eof:
                break
            data = self._inflate.unused_data
            self._inflate = zlib.decompressobj(wbits=31)
            self._started = False
        return b"".join(out)


def describe(source: Source) -> str:
    """The name a source has in diagnostics."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    if isinstance(name, str):
        return name
    return "<input>"


def _maybe_gunzip(stream: IO[bytes]) -> IO[bytes]:
    """Return a stream of the decompressed bytes when the data is gzip."""
    if stream.seekable():
        magic = stream.read(2)
        stream.seek(-len(magic), io.SEEK_CUR)
    else:
        magic = stream.read(2)
        stream = io.BufferedReader(_Prefixed(magic, stream))
    if magic == GZIP_MAGIC:
        return io.BufferedReader(_Gunzip(stream))
    return stream


def _stream_lines(readline, limit: int, newline=b"\n") -> Iterator[_RawLine]:
    """Split a stream with a bounded readline; skip the rest of over-long lines."""
    while True:
        chunk = readline(limit + 2)
        if not chunk:
            return
        terminated = chunk.endswith(newline)
        body = chunk[:-1] if terminated else chunk
        if isinstance(body, str):
            body = body.encode("utf-8", "surrogatepass")
        if len(body) > limit + (1 if body.endswith(b"\r") else 0):
            while not terminated:
                rest = readline(_SKIP_CHUNK)
                if not rest:
                    break
                terminated = rest.endswith(newline)
            yield _RawLine(b"", terminated, True)
        else:
            yield _RawLine(body, terminated, False)


def _iterable_lines(items: Iterable[Union[str, bytes]], limit: int) -> Iterator[_RawLine]:
    """Each item of an iterable is one line, with or without its newline."""
    for item in items:
        data = item.encode("utf-8", "surrogatepass") if isinstance(item, str) else bytes(item)
        if data.endswith(b"\n"):
            data = data[:-1]
        too_long = len(data) > limit + (1 if data.endswith(b"\r") else 0)
        yield _RawLine(b"" if too_long else data, True, too_long)


def _open(source: Source, limit: int) -> Tuple[Iterator[_RawLine], Optional[IO[bytes]]]:
    """Turn any accepted source into raw lines; the second item is a file to close."""
    if isinstance(source, (str, os.PathLike)):
        handle = open(source, "rb")
        return _stream_lines(_maybe_gunzip(handle).readline, limit), handle
    if hasattr(source, "readline"):
        binary = getattr(source, "buffer", None)  # a text wrapper over bytes: read the bytes
        if binary is not None:
            source = binary
        if isinstance(source, io.TextIOBase):
            return _stream_lines(source.readline, limit, "\n"), None
        return _stream_lines(_maybe_gunzip(source).readline, limit), None  # type: ignore[arg-type]
    return _iterable_lines(source, limit), None  # type: ignore[arg-type]


def _open_error(error: OSError, name: str) -> Diagnostic:
    if isinstance(error, FileNotFoundError):
        return make("file-not-found", f"cannot read {name}: no such file", file=name)
    if isinstance(error, IsADirectoryError):
        return make("is-a-directory", f"cannot read {name}: it is a directory", file=name,
                    hint="give the log files inside it, e.g. with a shell glob")
    return make("read-error", f"cannot read {name}: {error.strerror or error}", file=name)


def _stream_error(error: Exception, name: str, line: int) -> Diagnostic:
    if isinstance(error, EOFError):
        return make("gzip-truncated",
                    "the gzip stream ends before its end marker: the file was cut short",
                    file=name, line=line)
    if isinstance(error, zlib.error):
        reason = str(error).rpartition(": ")[2]
        return make("gzip-corrupt", f"the gzip stream is damaged: {reason}", file=name, line=line)
    return make("read-error", f"reading stopped: {error}", file=name, line=line)


def read_lines(source: Source, *, name: Optional[str] = None,
               max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> Iterator[Union[Line, Diagnostic]]:
    """Yield each non-blank line of `source` as a `Line`, and each problem as a `Diagnostic`.

    `source` is a path, a binary or text file object, or an iterable of lines.
    """
    name = name or describe(source)
    try:
        raw_lines, handle = _open(source, max_line_bytes)
    except OSError as error:
        yield _open_error(error, name)
        return
    content_lines = 0
    crlf_seen = False
    number = 0
    last: Optional[_RawLine] = None
    try:
        while True:
            try:
                raw = next(raw_lines)
            except StopIteration:
                break
            except (OSError, EOFError, zlib.error) as error:
                yield _stream_error(error, name, number + 1)
                content_lines += 1
                break
            number += 1
            last = raw
            if raw.too_long:
                content_lines += 1
                yield make("line-too-long",
                           f"the line is longer than {max_line_bytes} bytes; it was skipped unread",
                           file=name, line=number,
                           hint="raise the limit with --max-line-bytes if the line is genuine")
                continue
            data = raw.data
            if data.endswith(b"\r"):
                data = data[:-1]
                if not crlf_seen:
                    crlf_seen = True
                    yield make("crlf-line-ending",
                               "the file uses CRLF line endings (reported once); they are read as LF",
                               file=name, line=number)
            if number == 1 and data.startswith(UTF8_BOM):
                data = data[len(UTF8_BOM):]
                yield make("utf8-bom", "the file starts with a UTF-8 byte order mark; it is skipped",
                           file=name, line=number, hint="save the file as UTF-8 without BOM")
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as error:
                content_lines += 1
                bad = data[error.start:error.start + 4].hex(" ")
                yield make("invalid-utf8",
                           f"the line is not valid UTF-8: byte {error.start + 1} ({bad}) "
                           f"is {error.reason}",
                           file=name, line=number, column=error.start + 1)
                continue
            if not text.strip(JSON_WHITESPACE):
                yield make("blank-line", "blank line skipped", file=name, line=number)
                continue
            content_lines += 1
            yield Line(number, text)
    finally:
        if handle is not None:
            handle.close()
    if last is not None and not last.terminated:
        yield make("no-final-newline",
                   "the last line has no newline; it was read, but check the file was not cut short",
                   file=name, line=number)
    if content_lines == 0:
        yield make("empty-file", f"{name} holds no message: it is empty or has only blank lines",
                   file=name)
