"""Bad input never crashes and never hides the other lines (issue: every item of the list)."""

import gzip
import io
import tracemalloc

import pytest
from hypothesis import given, settings, strategies as st

import sgn
from sgn.layers.reader import read_lines

GOOD = b'["1","RD",{"result":8}]\n'
BAD = b'["1","RD",{"result":13}]\n'  # a schema error that must still be seen


def codes(data, **options):
    """(code, line, severity) of every diagnostic for a file with these bytes."""
    return [(d.code, d.line, d.severity) for d in sgn.iter_diagnostics(io.BytesIO(data), **options)]


def around(middle: bytes) -> bytes:
    """The bad line between a good line and a line with an error of its own."""
    return GOOD + middle + b"\n" + BAD


@pytest.mark.parametrize(
    "middle, code",
    [
        (b'["1","RD",{"result":8}', "invalid-json"),
        (b'["1","RD",{"result":\xff}]', "invalid-utf8"),
        (b'["1","RD",{"result":NaN}]', "json-nan-infinity"),
        (b'["1","RD",{"result":Infinity}]', "json-nan-infinity"),
        (b'["1","RD",{"result":-Infinity}]', "json-nan-infinity"),
        (b'["1","RD",{"result":8,"result":9}]', "json-duplicate-key"),
        (b'["1","RD",{"result":' + b"9" * 5000 + b"}]", "json-number-too-long"),
        (b'["1","RD",{"result":1' + b"0" * 5000 + b".5}]", "json-number-too-long"),
        (b"[" * 100_000 + b"]" * 100_000, "json-too-deep"),
        (b'{"a":' * 40_000 + b"1" + b"}" * 40_000, "json-too-deep"),
        (b'["1","RD",{"result":8}] ["1","RD",{"result":8}]', "invalid-json"),
    ],
)
def test_bad_line_is_reported_and_the_next_line_still_checked(middle, code):
    found = codes(around(middle))
    assert (code, 2, "error") in found
    assert ("schema-maximum", 3, "error") in found
    assert [c for c, _, s in found if s == "error"] == [code, "schema-maximum"]


def test_duplicate_key_points_at_the_key():
    [d] = sgn.iter_diagnostics([b'["1","TR",[{"player":"1","resources":{"L":1,"L":2}},{"player":"2","resources":{}}]]'])
    assert (d.code, d.pointer) == ("json-duplicate-key", "/2/0/resources/L")


def test_bom_is_a_warning_and_the_line_is_read():
    assert codes(b"\xef\xbb\xbf" + GOOD + BAD) == [("utf8-bom", 1, "warning"), ("schema-maximum", 2, "error")]


def test_bom_after_the_first_line_is_invalid_json():
    assert codes(GOOD + b"\xef\xbb\xbf" + GOOD)[0][:2] == ("invalid-json", 2)


def test_crlf_is_one_warning_and_lines_are_read():
    found = codes(GOOD.replace(b"\n", b"\r\n") + BAD.replace(b"\n", b"\r\n") + GOOD.replace(b"\n", b"\r\n"))
    assert found == [("crlf-line-ending", 1, "warning"), ("schema-maximum", 2, "error")]


def test_blank_lines_are_warnings_with_their_numbers():
    found = codes(GOOD + b"\n" + b"  \t\n" + BAD)
    assert found == [("blank-line", 2, "warning"), ("blank-line", 3, "warning"), ("schema-maximum", 4, "error")]


def test_a_line_of_other_unicode_spaces_is_not_blank():
    assert codes(GOOD + "\u00a0\n".encode())[0][:2] == ("invalid-json", 2)


def test_last_line_without_newline_is_read_with_an_info():
    assert codes(GOOD + BAD.rstrip(b"\n")) == [("schema-maximum", 2, "error"), ("no-final-newline", 2, "info")]


def test_over_long_line_is_skipped_in_bounded_memory():
    long_line = b'["1","RD",{"result":8,"pad":"' + b"x" * 5000 + b'"}]\n'
    found = codes(GOOD + long_line + BAD, max_line_bytes=1000)
    assert found == [("line-too-long", 2, "error"), ("schema-maximum", 3, "error")]


@pytest.mark.parametrize("size", [200_000, 3_000_000])  # inside one read block, and across blocks
def test_over_long_line_reading_is_bounded(size):
    """The reader never asks the stream for everything, nor for more than a block at once."""
    asked = []

    class Spy(io.BytesIO):
        def readline(self, size=-1):
            asked.append(size)
            return super().readline(size)

        def read(self, size=-1):
            asked.append(size)
            return super().read(size)

    data = GOOD + b"[" + b"1," * (size // 2) + b"1]\n" + BAD
    found = [(x.code if hasattr(x, "code") else x.number) for x in read_lines(Spy(data), max_line_bytes=100)]
    assert found == [1, "line-too-long", 3]
    assert max(asked) <= 1 << 20 and -1 not in asked and None not in asked


@pytest.mark.parametrize("kind", [bytes, str])
def test_an_over_long_item_of_an_iterable_is_skipped_without_a_copy(kind):
    """The caller holds the item already; the reader adds nothing of its size (the old one
    encoded a str item and cut the newline off a bytes one: a copy of 32 MB)."""
    item = b"x" * (32 << 20) + b"\n" if kind is bytes else "\u00e9" * (32 << 20)
    tracemalloc.start()
    try:
        found = [
            (x.code, x.line) if hasattr(x, "code") else x.number
            for x in read_lines([GOOD, item, BAD], max_line_bytes=1000)
        ]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == [1, ("line-too-long", 2), 3]
    assert peak < 1 << 20


def test_line_exactly_at_the_limit_is_read():
    line = b'["1","RD",{"result":13}]'
    assert codes(line + b"\r\n", max_line_bytes=len(line))[1][0] == "schema-maximum"
    assert codes(line + b"\n", max_line_bytes=len(line) - 1)[0][0] == "line-too-long"


def test_gzip_is_read_transparently():
    assert codes(gzip.compress(GOOD + BAD)) == [("schema-maximum", 2, "error")]


def test_concatenated_gzip_members_are_read():
    assert codes(gzip.compress(GOOD) + gzip.compress(BAD)) == [("schema-maximum", 2, "error")]


def test_truncated_gzip_reports_lines_before_and_the_truncation():
    data = gzip.compress(BAD + GOOD * 2000)
    found = codes(data[:-30])
    assert found[0] == ("schema-maximum", 1, "error")
    assert found[-1][0] == "gzip-truncated" and found[-1][1] > 1000


def test_gzip_without_its_trailer_loses_no_line():
    data = gzip.compress(GOOD * 2 + BAD)[:-8]
    assert codes(data) == [("schema-maximum", 3, "error"), ("gzip-truncated", 4, "error")]


def test_gzip_with_a_bad_checksum_loses_no_line():
    data = bytearray(gzip.compress(GOOD * 2000 + BAD))
    data[-8] ^= 0xFF
    assert codes(bytes(data)) == [("schema-maximum", 2001, "error"), ("gzip-corrupt", 2002, "error")]


@pytest.mark.parametrize("offset", [2, -8])  # the compression method; the checksum
def test_damaged_gzip_is_reported(offset):
    data = bytearray(gzip.compress(GOOD * 100))
    data[offset] ^= 0xFF
    assert [c for c, _, _ in codes(bytes(data))][-1] == "gzip-corrupt"


@pytest.mark.parametrize("data", [b"", b"\n\n", b"   \n"])
def test_a_file_without_messages_is_a_syntax_error(data):
    found = list(sgn.iter_diagnostics(io.BytesIO(data)))
    assert found[-1].code == "empty-file" and found[-1].layer == "syntax" and not found[-1].is_io


def test_missing_path_and_directory(tmp_path):
    [missing] = sgn.iter_diagnostics(tmp_path / "nope.sgn")
    [folder] = sgn.iter_diagnostics(tmp_path)
    assert (missing.code, folder.code) == ("file-not-found", "is-a-directory")
    assert missing.is_io and folder.is_io


def test_sources_of_every_kind_give_the_same_diagnostics(tmp_path):
    data = GOOD + BAD
    path = tmp_path / "game.sgn"
    path.write_bytes(data)
    expected = codes(data)
    assert [(d.code, d.line, d.severity) for d in sgn.iter_diagnostics(str(path))] == expected
    assert [(d.code, d.line, d.severity) for d in sgn.iter_diagnostics(path)] == expected
    with open(path, encoding="utf-8") as text:
        assert [(d.code, d.line, d.severity) for d in sgn.iter_diagnostics(text)] == expected
    assert [(d.code, d.line, d.severity) for d in sgn.iter_diagnostics(io.StringIO(data.decode()))] == expected
    assert [(d.code, d.line, d.severity) for d in sgn.iter_diagnostics(data.decode().splitlines())] == expected
    assert [(d.code, d.line, d.severity) for d in sgn.iter_diagnostics(data.splitlines(keepends=True))] == expected


def test_file_name_is_in_every_diagnostic(tmp_path):
    path = tmp_path / "named.sgn"
    path.write_bytes(BAD)
    [d] = sgn.iter_diagnostics(path)
    assert d.file == str(path)
    [d] = sgn.iter_diagnostics([BAD], name="x.sgn")
    assert d.file == "x.sgn"


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from([0, 1, 2, 50, (1 << 18) - 30, (1 << 18) - 1, 1 << 18, (1 << 18) + 7, 300_000]), max_size=8)
)
def test_lines_across_read_blocks_are_read_whole(lengths):
    """Lines of any length around the read block (256 KiB) and the longest line allowed
    come out whole, numbered as the file numbers them, whatever block they straddle."""
    rows = [b"[" + b"1," * max(0, (n - 3) // 2) + b"1]" if n >= 3 else b" " * n for n in lengths]
    data = b"\n".join(rows) + b"\n"
    got = [(x.number, x.text) for x in read_lines(io.BytesIO(data), max_line_bytes=1 << 19) if hasattr(x, "text")]
    want = [(i + 1, row.decode()) for i, row in enumerate(rows) if row.strip()]
    assert got == want


@pytest.mark.parametrize("seeking", [False, True])
@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview])
def test_a_stream_with_read_alone_is_read_whatever_its_bytes_are(kind, seeking):
    """An object with `read` and `readline` only (no `seekable`), giving bytes, a bytearray or
    a memoryview, is read as a file of the same bytes is (it was an internal error)."""

    class Stream:
        def __init__(self, data):
            self.data = io.BytesIO(data)

        def seekable(self):  # (and one that seeks: the gzip is read from it, not from a copy)
            return seeking

        def seek(self, *where):
            return self.data.seek(*where)

        def readline(self, size=-1):
            return kind(self.data.readline(size))

        def read(self, size=-1):
            return kind(self.data.read(size))

    data = GOOD + b'["1","RD",{"result":13}]\n'
    got = sgn.check(Stream(data))
    want = sgn.check(io.BytesIO(data))
    assert (got.verdict, got.errors, got.messages) == (want.verdict, want.errors, want.messages) == ("invalid", 1, 2)
    zipped = sgn.check(Stream(gzip.compress(data)))
    assert (zipped.verdict, zipped.errors, zipped.messages) == ("invalid", 1, 2)
