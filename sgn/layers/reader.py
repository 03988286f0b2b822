"""Reading: bytes in, numbered lines of text out, in constant memory.

Knows about files, standard input, gzip (detected by its magic bytes, not by
the file name), UTF-8, a byte order mark, CRLF, blank lines and over-long
lines. It never raises for bad content: each problem becomes a diagnostic and
reading goes on with the next line. For a check, blank lines are read here and
told of in runs (`blanks.py`): a long run costs what reading it costs.

Longer than 400 lines: the loop that splits a block into lines is the hottest code of a
validation, and is kept whole in one generator (`_plain_lines`), with the reasons of its
tests beside them; the opening of each kind of source is short and belongs with it.
"""

from __future__ import annotations

import errno
import io
import os
import zlib
from typing import IO, Final, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union

from ..diagnostic import Diagnostic, make
from .blanks import BlankLines
from .gunzip import maybe_gunzip
from .multiline import OpenValue

STDIN_NAME = "<stdin>"  # what standard input is called in diagnostics, unless named
DEFAULT_MAX_LINE_BYTES = 1 << 18  # 256 KiB: 75 times the longest SGN message (a map, 3.5 KB)
UTF8_BOM = b"\xef\xbb\xbf"
JSON_WHITESPACE = " \t\r\n"
# bytes read at a time by the plain reading loop (a block's lines, made at once, are most of
# a run's peak memory beyond the modules: 1 MiB made it 4 MB higher, no faster)
_BLOCK: Final = 1 << 18
_SPACE: Final = frozenset(b" \t\r")  # the bytes a blank line may start with (JSON's whitespace in a line)
_SPACE_AND_BELOW: Final = 32  # a line whose first byte is past this one is no blank line

Source = Union[str, "os.PathLike[str]", IO[bytes], IO[str], Iterable[Union[str, bytes]]]


class Line(NamedTuple):
    """One non-blank line of text, with its 1-based number in the file."""

    number: int
    text: str


def describe(source: Source) -> str:
    """The name a source has in diagnostics. A path is shown as its bytes read as UTF-8, a
    byte that is not UTF-8 written `\\xff`: a name that is no text (`g\\udcff.sgn` as Python
    holds it) must still print, and as JSON, while the path itself is what is opened."""
    if isinstance(source, (str, os.PathLike)):
        name: object = os.fspath(source)
    else:
        name = getattr(source, "name", None)
    if isinstance(name, bytes):
        return name.decode("utf-8", "backslashreplace")
    if isinstance(name, str):
        try:
            raw = os.fsencode(name)
        except UnicodeEncodeError:  # a lone surrogate that no file system byte stands for
            raw = name.encode("utf-8", "surrogatepass")
        return raw.decode("utf-8", "backslashreplace")
    return "<input>"


def _fits(line: bytes, limit: int) -> bool:
    """Whether a line (without its newline) is within the limit; a CR before the newline is free."""
    return len(line) <= limit or (len(line) == limit + 1 and line[-1:] == b"\r")


class _Encoded:
    """A text stream with no bytes under it (io.StringIO), read as UTF-8 blocks."""

    def __init__(self, text: io.TextIOBase):
        self._text = text

    def read(self, size: int) -> bytes:
        return self._text.read(size).encode("utf-8", "surrogatepass")


def _iterable_lines(items: Iterable[Union[str, bytes]], limit: int) -> Iterator[Optional[bytes]]:
    """Each item of an iterable is one line, with or without its newline; None for one too
    long (an item too long whatever its encoding is not even encoded or copied)."""
    for item in items:
        if len(item) > limit + 2:
            yield None
            continue
        data = item.encode("utf-8", "surrogatepass") if isinstance(item, str) else bytes(item)
        data = data[:-1] if data.endswith(b"\n") else data
        yield data if _fits(data, limit) else None


def _open(source: Source, limit: int):
    """Turn any accepted source into a stream of bytes (to read lines from) or an iterator of
    lines; the second item is a file to close."""
    if isinstance(source, (str, os.PathLike)):
        try:
            handle = open(source, "rb")
        except ValueError as error:  # a name the system refuses (a NUL byte): unreadable, as any
            raise OSError(errno.EINVAL, f"the system refuses this name ({error})") from None
        return maybe_gunzip(handle), handle
    opener = getattr(source, "open_binary", None)
    if opener is not None:  # a remote file (sgn/pipeline/remote.py), opened here as a path is
        handle = opener()
        return maybe_gunzip(handle), handle
    if hasattr(source, "readline"):
        binary = getattr(source, "buffer", None)  # a text wrapper over bytes: read the bytes
        if binary is not None:
            source = binary
        if isinstance(source, io.TextIOBase):
            return _Encoded(source), None
        return maybe_gunzip(source), None  # type: ignore[arg-type]
    return _iterable_lines(source, limit), None


def _open_error(error: OSError, name: str) -> Diagnostic:
    if isinstance(error, FileNotFoundError):
        return make("file-not-found", f"cannot read {name}: no such file", file=name)
    if isinstance(error, IsADirectoryError):
        return make(
            "is-a-directory",
            f"cannot read {name}: it is a directory",
            file=name,
            hint="give the log files inside it, e.g. with a shell glob",
        )
    return make("read-error", f"cannot read {name}: {error.strerror or error}", file=name)


def _stream_error(error: Exception, name: str, line: int) -> Diagnostic:
    if isinstance(error, EOFError):
        return make(
            "gzip-truncated", "the gzip stream ends before its end marker: the file was cut short", file=name, line=line
        )
    if isinstance(error, zlib.error):
        reason = str(error).rpartition(": ")[2]
        return make("gzip-corrupt", f"the gzip stream is damaged: {reason}", file=name, line=line)
    return make("read-error", f"reading stopped: {error}", file=name, line=line)


class LogReader:
    """Reads one source line by line in constant memory.

    Iterating gives, for each line, either a `Diagnostic` (a line that cannot be
    read: too long, a damaged gzip stream) or a tuple `(number, raw)`, `raw`
    being the line's bytes as read, newline included. `decode(number, raw)`
    turns those into a `Line` (or None for a blank or undecodable line) and the
    diagnostics about it; callers that recognise a line they have seen before
    may skip decoding. `finish()` gives what the end of the file tells.

    Given `open_value` (a check's), a blank line of a stream is read here, not given, unless
    that JSON value is open: its warnings come instead (`blanks.BlankLines`).

    Longer than 250 lines: its loop over a block's lines is one generator, the hottest code
    of a validation, kept whole (see the module).
    """

    def __init__(
        self,
        source: Source,
        *,
        name: Optional[str] = None,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        open_value: Optional[OpenValue] = None,
    ):
        self.source = source
        self.name = name or describe(source)
        self.limit = max_line_bytes
        self.number = 0  # lines seen
        self.blanks = 0  # of which blank
        self.unreadable = False  # the file could not be opened: nothing to say about emptiness
        self.broken = False  # reading stopped on an error: the file was not empty
        self.crlf_seen = False
        self.terminated = True
        self.blank_lines = BlankLines(self.name, open_value) if open_value is not None else None

    def __iter__(self) -> Iterator[Union[Tuple[int, bytes], Diagnostic]]:
        for item in self.raw():
            if isinstance(item, bytes):
                yield (self.number, item)
            else:
                yield item

    def raw(self) -> Iterator[Union[bytes, Diagnostic]]:
        """As iterating, but each line as its bytes alone, `number` then being its number: the
        reading loop's way (a tuple and a number made for each line cost it a tenth)."""
        name = self.name
        try:
            raw_lines, handle = _open(self.source, self.limit)
        except OSError as error:
            self.unreadable = True
            yield _open_error(error, name)
            return
        try:
            if hasattr(raw_lines, "read"):  # a stream: the common case, kept tight
                yield from self._plain_lines(raw_lines)
                return
            while True:
                try:
                    data = next(raw_lines)
                except StopIteration:
                    break
                except (OSError, EOFError, zlib.error) as error:
                    self.broken = True
                    yield _stream_error(error, name, self.number + 1)
                    break
                self.number += 1
                yield self._too_long(self.number) if data is None else data
        finally:
            if handle is not None:
                handle.close()

    def _too_long(self, number: int) -> Diagnostic:
        return make(
            "line-too-long",
            f"the line is longer than {self.limit} bytes; it was skipped unread",
            file=self.name,
            line=number,
            hint="raise the limit with --max-line-bytes if the line is genuine",
        )

    def _plain_lines(self, stream) -> Iterator[Union[bytes, Diagnostic]]:
        """Lines read a block at a time and split in one go (the common case, kept fast). An
        unfinished line is held as pieces, joined once, so that no byte is copied or searched
        again per block; past the limit it is dropped and skipped block by block. A read error
        (damaged gzip) ends the lines, after all those before it."""
        limit = self.limit
        number = self.number
        read = stream.read
        carry: List[bytes] = []  # the pieces of the unfinished line
        held = 0  # their length
        skipping = False  # in a line too long to hold, until its newline
        blank = self.blank_lines
        pending = blank is not None and blank.run > 0  # blank lines counted, not yet told of
        try:
            while True:
                got = read(_BLOCK)
                if not got:
                    break
                # (typed: the compiled loop splits and reads bytes, not any object)
                block: bytes = got if type(got) is bytes else bytes(got)
                if skipping:
                    cut = block.find(b"\n")
                    if cut < 0:
                        continue
                    number += 1
                    self.number = number
                    skipping = False
                    yield from self._told()
                    yield self._too_long(number)
                    block = block[cut + 1 :]
                lines: List[bytes] = block.split(b"\n")
                last: bytes = lines.pop()
                if not lines:
                    carry.append(last)
                    held += len(last)
                else:
                    if carry:
                        carry.append(lines[0])
                        lines[0] = b"".join(carry)
                    run, fast = 0, False  # empty lines past the cap: only counted, in a tight loop
                    for line in lines:
                        number += 1
                        # the common case, first and kept short: a line of text, not too long,
                        # with no blank lines before it still to tell of (its first byte past
                        # the space: no blank line starts so; any other takes the way below)
                        if not pending and line and line[0] > _SPACE_AND_BELOW and len(line) <= limit:
                            self.number = number
                            yield line
                            continue
                        pending = True  # (until the blank lines before a line are told)
                        if not line and (fast or (blank is not None and blank.past_cap(self.blanks))):
                            run, fast = run + 1, True
                            continue
                        if run:
                            self._ran(run, number - 1)
                            run = 0
                        fast = False  # (the check may open a JSON value, that takes blank lines)
                        if len(line) > limit and not _fits(line, limit):
                            self.number = number
                            yield from self._told()
                            yield self._too_long(number)
                            continue
                        if (not line or line[0] in _SPACE) and blank is not None and blank.reads(line):
                            self.number = number
                            yield from self._blank(blank, number, line)
                            continue
                        if blank is not None and blank.run:
                            yield from blank.told()
                        pending = False
                        self.number = number
                        yield line
                    if run:
                        self._ran(run, number)
                        pending = True
                    self.number = number
                    carry, held = [last], len(last)
                if held > limit + 1:
                    carry, held, skipping = [], 0, True
        except (OSError, EOFError, zlib.error) as error:
            self.number = number
            self.broken = True
            yield from self._told()
            yield _stream_error(error, self.name, number + 1)
            return
        if skipping or held:  # the last line has no newline
            self.number = number = number + 1
            self.terminated = False
            data = b"".join(carry)
            if not skipping and _fits(data, limit) and data[0] in _SPACE and blank is not None and blank.reads(data):
                yield from self._blank(blank, number, data)
            else:
                yield from self._told()
                yield data if not skipping and _fits(data, limit) else self._too_long(number)
        yield from self._told()

    def _ran(self, run: int, last: int) -> None:
        """`run` empty lines up to `last`, counted in the tight loop."""
        self.blanks += run
        if self.blank_lines is not None:
            self.blank_lines.add(run, last)

    def _told(self) -> List[Diagnostic]:
        return self.blank_lines.told() if self.blank_lines is not None else []

    def _blank(self, blank: BlankLines, number: int, line: bytes) -> List[Diagnostic]:
        """What a blank line read here tells: CRLF, the first time; then its own warning."""
        found: List[Diagnostic] = []
        if line[-1:] == b"\r" and not self.crlf_seen:
            found = blank.told() + [self._crlf(number)]
        self.blanks += 1
        return found + blank.one(number, self.blanks)

    def _crlf(self, number: int) -> Diagnostic:
        self.crlf_seen = True
        return make(
            "crlf-line-ending",
            "the file uses CRLF line endings (reported once); they are read as LF",
            file=self.name,
            line=number,
        )

    def decode(self, number: int, raw: bytes) -> Tuple[Optional[Line], List[Diagnostic]]:
        """The text of a line read, and what is wrong with it."""
        found: List[Diagnostic] = []
        name = self.name
        data = raw
        if data.endswith(b"\r"):
            data = data[:-1]
            if not self.crlf_seen:
                found.append(self._crlf(number))
        if number == 1 and data.startswith(UTF8_BOM):
            data = data[len(UTF8_BOM) :]
            found.append(
                make(
                    "utf8-bom",
                    "the file starts with a UTF-8 byte order mark; it is skipped",
                    file=name,
                    line=number,
                    hint="save the file as UTF-8 without BOM",
                )
            )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            bad = data[error.start : error.start + 4].hex(" ")
            found.append(
                make(
                    "invalid-utf8",
                    f"the line is not valid UTF-8: byte {error.start + 1} ({bad}) is {error.reason}",
                    file=name,
                    line=number,
                    column=len(data[: error.start].decode("utf-8")) + 1,  # (in characters, as every column)
                )
            )
            return None, found
        if not text.strip(JSON_WHITESPACE):
            self.blanks += 1
            found.append(make("blank-line", "blank line skipped", file=name, line=number))
            return None, found
        return Line(number, text), found

    def finish(self) -> List[Diagnostic]:
        found = []
        if self.number and not self.terminated:
            found.append(
                make(
                    "no-final-newline",
                    "the last line has no newline; it was read, but check the file was not cut short",
                    file=self.name,
                    line=self.number,
                )
            )
        if not self.unreadable and not self.broken and self.number == self.blanks:
            found.append(
                make("empty-file", f"{self.name} holds no message: it is empty or has only blank lines", file=self.name)
            )
        return found


def read_lines(
    source: Source, *, name: Optional[str] = None, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
) -> Iterator[Union[Line, Diagnostic]]:
    """Yield each non-blank line of `source` as a `Line`, and each problem as a `Diagnostic`.

    `source` is a path, a binary or text file object, or an iterable of lines.
    """
    reader = LogReader(source, name=name, max_line_bytes=max_line_bytes)
    for item in reader:
        if isinstance(item, Diagnostic):
            yield item
            continue
        line, found = reader.decode(*item)
        yield from found
        if line is not None:
            yield line
    yield from reader.finish()
