"""gzip input is read in time linear in its size and in bounded memory, whatever its shape, and
says what the same bytes say uncompressed; a damaged stream gives every line before the damage.

No timing here: the work is counted (calls of the decompressor, reads of its output) and the
memory measured with tracemalloc.
"""

import gzip
import importlib
import io
import tracemalloc
import zlib

import pytest
from hypothesis import given, settings, strategies as st

import interpreted
import sgn
from conftest import run_cli, scaled
from sgn.diagnostic import MAX_PROBLEMS
from sgn.layers import gunzip, reader
from sgn.layers.multiline import OpenValue
from sgn.layers.reader import UTF8_BOM, read_lines

MiB = 1 << 20
GOOD = b'["1","RD",{"result":8}]'


def gzipped(pieces, level=9):
    """One gzip member of the pieces, compressed as they come (the whole is never in memory)."""
    packer = zlib.compressobj(level, wbits=31)
    return b"".join([packer.compress(piece) for piece in pieces] + [packer.flush()])


def bomb(mib, line_bytes=None):
    """`mib` MiB of zeros compressed (about 1,000 to 1): in lines of `line_bytes`, or one line."""
    if line_bytes is None:
        return gzipped([b"\0" * MiB] * mib)
    return gzipped([b"\0" * (line_bytes - 1) + b"\n"] * (mib * MiB // line_bytes))


class Pipe(io.RawIOBase):
    """A stream that cannot seek and gives its bytes in pieces of at most `piece` (a pipe)."""

    def __init__(self, data, piece):
        self._data, self._at, self._piece = data, 0, piece

    def readable(self):
        return True

    def readinto(self, buffer):
        n = min(len(buffer), self._piece, len(self._data) - self._at)
        buffer[:n] = self._data[self._at : self._at + n]
        self._at += n
        return n


class Counted:
    """zlib's decompressor, noting for each call the input's size, max_length and the output's
    size, and failing at once on a call not bounded: at most 1 MiB out and 64 KiB in, or a
    single byte in (replaying after damage)."""

    def __init__(self, inner, calls):
        self._inner, self._calls = inner, calls

    def decompress(self, data, max_length=0):
        assert 0 < max_length <= MiB and len(data) <= 64 * 1024 or len(data) <= 1, (len(data), max_length)
        out = self._inner.decompress(data, max_length)
        self._calls.append((len(data), max_length, len(out)))
        return out

    def copy(self):
        return Counted(self._inner.copy(), self._calls)

    def __getattr__(self, name):  # eof, unused_data, unconsumed_tail
        return getattr(self._inner, name)


def decompressor_calls(monkeypatch, data):
    """The calls of the decompressor while the lines of gzip `data` are read."""
    calls = []
    real = zlib.decompressobj
    monkeypatch.setattr(zlib, "decompressobj", lambda *args, **kwargs: Counted(real(*args, **kwargs), calls))
    try:
        for _ in read_lines(io.BytesIO(data)):
            pass
    finally:
        monkeypatch.setattr(zlib, "decompressobj", real)
    return calls


@pytest.mark.parametrize("line_bytes", [None, 1024])  # one line; many
def test_gzip_is_decompressed_in_bounded_steps_as_many_as_the_output_needs(monkeypatch, line_bytes):
    """Each call is bounded (Counted), so a bomb never comes out at once; four times the data
    takes about four times the calls. (The old reader decompressed each 64 KiB read whole:
    ~66 MB of zeros at a time.)"""
    small = decompressor_calls(monkeypatch, bomb(8, line_bytes))
    large = decompressor_calls(monkeypatch, bomb(32, line_bytes))
    assert all(made <= max_length for _, max_length, made in small + large)
    assert sum(made for _, _, made in large) == 32 * MiB
    assert len(large) <= 4 * len(small) + 4


def test_the_reader_takes_the_output_in_blocks_each_byte_once(monkeypatch):
    """Watched on the interpreted source (the compiled build runs the same source), where the
    stream's methods can be seen. The old reader took a skipped line a byte at a time, each read
    copying all the output still pending: quadratic (71 s for a 4 MiB line of zeros)."""
    pure = importlib.import_module(f"{interpreted.load().__name__}.layers.reader")
    pure_gzip = importlib.import_module(f"{interpreted.load().__name__}.layers.gunzip")
    size = 16 * MiB
    calls = []

    class Watched(pure_gzip._Gunzip):
        def read(self, size=-1):
            data = super().read(size)
            calls.append(len(data))
            assert len(calls) <= 256, "the output is read in pieces too small"  # fails fast
            return data

        def readinto(self, buffer):
            calls.append(-1)
            assert len(calls) <= 256, "the output is read in pieces too small"
            return super().readinto(buffer)

    monkeypatch.setattr(pure_gzip, "_Gunzip", Watched)
    found = [(d.code, d.line) for d in pure.read_lines(io.BytesIO(bomb(16)))]
    assert found == [("line-too-long", 1), ("no-final-newline", 1)]
    assert -1 not in calls and sum(calls) == size


@pytest.mark.parametrize("line_bytes, items", [(1024, 65536), (3 * MiB, 21), (None, 2)])
def test_a_gzip_bomb_is_read_in_bounded_memory(line_bytes, items):
    """64 MiB of zeros from 64 KB of gzip, in lines of 1 KiB, of 3 MiB (each too long) or in
    one line: the reader holds at most a line of up to the limit (256 KiB), a read block and a
    step of the decompressor (the old one held the output of a whole 64 KiB read: ~66 MB)."""
    data = bomb(64, line_bytes)
    tracemalloc.start()
    try:
        seen = sum(1 for _ in read_lines(io.BytesIO(data)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seen == items
    assert peak < 8 * MiB, f"peak {peak / MiB:.1f} MiB"


# Lines of every kind the reader tells apart, and runs of one byte of any length up to 4 MiB
# (log-uniform, around powers of two): over any limit, and across the decompressor's steps and
# the reader's blocks. Data that starts as gzip does would be read as gzip uncompressed too.
RUN_LENGTHS = st.tuples(st.integers(0, 22), st.integers(-2, 2)).map(lambda t: max(0, (1 << t[0]) + t[1]))
LINES = st.lists(
    st.one_of(
        st.sampled_from(
            [
                GOOD,
                b'["1","RD",{"result":13}]',
                GOOD + b"\r",
                UTF8_BOM + GOOD,
                b"",
                b" \t",
                b"\xff\xfe",
                b'["1",',
                b"[" * 70 + b"]" * 70,
            ]
        ),
        st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")),
        st.tuples(st.sampled_from(b"0 x[\0"), RUN_LENGTHS).map(lambda t: bytes([t[0]]) * t[1]),
    ),
    max_size=8,
).filter(lambda lines: not b"\n".join(lines).startswith(gunzip.GZIP_MAGIC))
LIMITS = st.sampled_from([8, 30, 100_000, reader.DEFAULT_MAX_LINE_BYTES])


def joined(lines, final_newline):
    return b"\n".join(lines) + (b"\n" if final_newline and lines else b"")


def members(data, cuts, level):
    """The data as concatenated gzip members, cut where `cuts` say (empty members too)."""
    at = sorted(cut % (len(data) + 1) for cut in cuts)
    return b"".join(gzip.compress(data[a:b], level, mtime=0) for a, b in zip([0] + at, at + [len(data)]))


@settings(max_examples=scaled(50))  # each compressed, then read from a file and a pipe
@given(
    LINES,
    st.booleans(),
    st.lists(st.integers(0, 1 << 30), max_size=4),
    st.integers(0, 9),
    LIMITS,
    st.one_of(st.none(), st.integers(1, 100_000)),
)
def test_gzip_says_what_the_same_bytes_say(lines, final_newline, cuts, level, limit, piece):
    """The lines, diagnostics and so the verdict, from a file or a pipe read in pieces."""
    data = joined(lines, final_newline)
    compressed = members(data, cuts, level)

    def stream():
        return io.BytesIO(compressed) if piece is None else Pipe(compressed, piece)

    assert list(read_lines(stream(), max_line_bytes=limit)) == list(read_lines(io.BytesIO(data), max_line_bytes=limit))
    assert list(sgn.iter_diagnostics(stream(), max_line_bytes=limit)) == list(
        sgn.iter_diagnostics(io.BytesIO(data), max_line_bytes=limit)
    )
    try:
        text = io.StringIO(data.decode("utf-8"))
    except UnicodeDecodeError:
        return
    assert list(read_lines(text, max_line_bytes=limit)) == list(read_lines(io.BytesIO(data), max_line_bytes=limit))


@given(
    LINES,
    st.booleans(),
    st.lists(st.integers(0, 1 << 30), max_size=3),
    st.integers(0, 9),
    st.integers(0, 1 << 12),
    st.integers(1, 1 << 20),
)
def test_the_gzip_stream_reads_as_its_bytes(lines, final_newline, cuts, level, size, seed):
    """readline(size), readinto and read of the decompressing stream give the bytes, in order."""
    data = joined(lines, final_newline)
    compressed = members(data, cuts, level)
    by_line = gunzip._Gunzip(io.BytesIO(compressed))
    pieces = list(iter(lambda: by_line.readline(size or -1), b""))
    assert b"".join(pieces) == data
    assert all(len(p) <= (size or len(data)) and b"\n" not in p[:-1] for p in pieces)
    into = gunzip._Gunzip(io.BytesIO(compressed))
    buffer, out = bytearray(seed % 5000 + 1), []
    while True:
        n = into.readinto(buffer)
        if not n:
            break
        out.append(bytes(buffer[:n]))
    assert b"".join(out) == data == gunzip._Gunzip(io.BytesIO(compressed)).read()


def salvage(data):
    """What a decompressor fed a byte at a time gives before the first error, and the error
    ("gzip-corrupt", "gzip-truncated", or None at a clean end): the most that can be recovered."""
    out, inflate, started = [], zlib.decompressobj(wbits=31), False
    for at in range(len(data)):
        try:
            out.append(inflate.decompress(data[at : at + 1]))
        except zlib.error:
            return b"".join(out), "gzip-corrupt"
        started = True
        if inflate.eof:
            inflate, started = zlib.decompressobj(wbits=31), False
    return b"".join(out), "gzip-truncated" if started else None


@given(
    LINES,
    st.lists(st.integers(0, 1 << 30), max_size=3),
    st.integers(1, 9),
    LIMITS,
    st.integers(0, 1 << 30),
    st.one_of(st.none(), st.integers(0, 7)),
)
def test_damaged_gzip_gives_every_line_before_the_damage(lines, cuts, level, limit, spot, bit):
    """Cut short (bit None) or with one bit flipped at `spot` (never in the first magic bytes):
    every line a byte-at-a-time decompressor recovers whole comes out, then the error, on the
    next line; a cut stream gives exactly those lines. (Level 0 is left out: stored data makes
    that reference slow, and is nothing special to the reader.)"""
    compressed = bytearray(members(joined(lines, True), cuts, level))
    spot = 2 + spot % (len(compressed) - 2)
    if bit is None:
        del compressed[spot:]
    else:
        compressed[spot] ^= 1 << bit
    recovered, error = salvage(bytes(compressed))
    found = list(read_lines(io.BytesIO(bytes(compressed)), max_line_bytes=limit))
    if error is None:  # cut between two members: a shorter, sound stream
        assert found == list(read_lines(io.BytesIO(recovered), max_line_bytes=limit))
        return
    whole = recovered[: recovered.rfind(b"\n") + 1]
    expected = [x for x in read_lines(io.BytesIO(whole), max_line_bytes=limit) if x[0] != "empty-file"]
    *given_lines, last = found
    assert given_lines[: len(expected)] == expected
    numbers = [x.number if isinstance(x, reader.Line) else x.line for x in given_lines]
    assert (last.code, last.line) == (error, max(numbers, default=0) + 1)
    if bit is None:
        assert given_lines == expected


@pytest.mark.parametrize("blank", [b"\n", b"\r\n", b" \t \n"])
def test_a_gzip_of_blank_lines_costs_what_reading_it_costs(blank):
    """A gzip of ten million newlines (10 KB) took 98 s and wrote 589 MB of warnings. Past
    the first hundred of a file, blank lines are counted where they are read: the reader
    gives the check one warning a run of them, and the check gives one for all the rest,
    that counts as them all. Counted here: what the reader and the check give."""
    data = gzipped([blank * 100_000] * 10)  # a million blank lines
    given_on = list(reader.LogReader(io.BytesIO(data), name="b.gz", open_value=OpenValue("b.gz")))
    assert len(given_on) == MAX_PROBLEMS + 1 + (blank == b"\r\n")  # (CRLF is said once)
    assert sum(d.occurrences for d in given_on if d.code == "blank-line") == 1_000_000
    result = sgn.check(io.BytesIO(data), name="b.gz")
    assert result.warnings == 1_000_000 + (blank == b"\r\n") and result.errors == 1  # (empty-file)
    listed = [d for d in result.diagnostics if d.code == "blank-line"]
    assert [d.line for d in listed[:MAX_PROBLEMS]] == list(range(1, MAX_PROBLEMS + 1))
    assert len(listed) == MAX_PROBLEMS + 1 and listed[-1].occurrences == 1_000_000 - MAX_PROBLEMS
    assert (
        listed[-1].message
        == "... and 999,900 more like these after line 100, up to line 1,000,000, not listed one by one"
    )


def test_a_gzip_of_blank_lines_writes_a_bounded_report(tmp_path):
    """The command line's report of it: a hundred and some lines, the count whole."""
    (tmp_path / "nl.gz").write_bytes(gzipped([b"\n" * 100_000] * 10))
    for output, size in [("text", 110), ("jsonl", 102)]:
        result = run_cli("validate", "--isolated", "-o", output, "nl.gz", cwd=tmp_path)
        assert result.returncode == 1 and len(result.stdout.splitlines()) <= size, result.stderr
        assert b"more like these" in result.stdout
    assert result.stdout.count(b'"occurrences": 999900') == 1
    text = run_cli("validate", "--isolated", "nl.gz", cwd=tmp_path).stdout
    assert text.endswith(b"nl.gz: INVALID: 0 messages, 1 error, 1000000 warnings\n")


# Runs of lines of one kind: blank ones (of each form) long enough to pass the first hundred,
# and messages between them, cut into gzip members anywhere (the reader's blocks end there)
BLANKS = [b"", b"  ", b"\t", b"\r", b" \r"]
RUNS = st.lists(
    st.tuples(st.sampled_from(BLANKS + [GOOD, b'["1","RD",{"result":13}]']), st.integers(1, 90)), max_size=8
)


@given(RUNS, st.booleans(), st.lists(st.integers(0, 1 << 30), max_size=6))
def test_blank_lines_are_each_told_of_up_to_a_hundred_and_all_counted(runs, final_newline, cuts):
    lines = [line for line, times in runs for _ in range(times)]
    data = joined(lines, final_newline)
    if lines and not final_newline and not lines[-1]:
        lines.pop()  # (an empty last line with no newline is no line)
    found = list(sgn.iter_diagnostics(io.BytesIO(members(data, cuts, 1)), name="g.gz"))
    blank = [n for n, line in enumerate(lines, 1) if line in BLANKS]
    told = [d for d in found if d.code == "blank-line"]
    assert [d.line for d in told[:MAX_PROBLEMS]] == blank[:MAX_PROBLEMS]
    assert len(told) == min(len(blank), MAX_PROBLEMS + 1) and sum(d.occurrences for d in told) == len(blank)
    assert len(blank) <= MAX_PROBLEMS or told[-1].message.startswith(f"... and {len(blank) - MAX_PROBLEMS:,} more")
    assert [d.line for d in found if d.line] == sorted(d.line for d in found if d.line)  # in line order
    assert [d.code for d in found].count("crlf-line-ending") == any(line.endswith(b"\r") for line in lines)
