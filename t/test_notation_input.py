"""`sgn parse` and `sgn convert` read bytes as `sgn validate` does: a line of bad UTF-8 is
`invalid-utf8` at its line and column and the other lines are read; a byte order mark and
CRLF are warnings; a file that cannot be read at all is exit 2."""

import io

import pytest

from conftest import run_cli
from sgn.notation import convert

BAD_LINE = b"R(2+3)\n\xff\nM(d4)\nX\n"


def stderr_lines(result):
    return result.stderr.decode().splitlines()


def test_validate_says_the_same_of_the_bad_byte(write):
    said = stderr_lines(run_cli("parse", write(BAD_LINE, "game.han")))
    validate = run_cli("validate", write(b'["1","RD",{"result":8}]\n\xff\n')).stdout.decode().splitlines()
    message = validate[0].split(": ", 1)[1]  # the reader's own sentence
    assert said[0].endswith(":2:1: " + message)


@pytest.mark.parametrize(
    "command", [["parse"], ["convert", "--to", "sgn", "--player", "1"], ["convert", "--to", "hsgn", "--player", "1"]]
)
def test_a_bad_byte_is_a_diagnostic_at_its_line_and_the_other_lines_are_read(write, command):
    path = write(BAD_LINE, "game.han")
    result = run_cli(*command, path)
    assert result.returncode == 1 and b"internal error" not in result.stderr
    errors = stderr_lines(result)
    assert errors[0] == f"{path}:2:1: the line is not valid UTF-8: byte 1 (ff) is invalid start byte [invalid-utf8]"
    assert errors[1].startswith(f"{path}:4:1: ")  # in line order, and line 4 still read
    assert len(result.stdout.splitlines()) == (1 if "hsgn" in command else 2)


def test_a_bad_byte_in_stdin_too():
    result = run_cli("convert", "--to", "sgn", "--player", "1", stdin=b"R(2+3)\nM(d\xc3)\n")
    assert result.returncode == 1 and stderr_lines(result) == [
        "<stdin>:2:4: the line is not valid UTF-8: byte 4 (c3 29) is invalid continuation byte [invalid-utf8]"
    ]
    assert result.stdout == b'["1","RD",{"result":5}]\n'


def test_a_byte_order_mark_and_crlf_are_warnings_and_the_lines_are_read(write):
    path = write(b"\xef\xbb\xbfR(2+3)\r\nM(d4)\r\n", "game.han")
    result = run_cli("parse", path)
    assert (
        result.returncode == 0
        and result.stdout == b"1: R(2+3) -- the player rolls 2 and 3: 5\n2: M(d4) -- the robber moves to tile [0,0]\n"
    )
    assert stderr_lines(result) == [
        f"{path}:1: warning: the file uses CRLF line endings (reported once); they are read as LF [crlf-line-ending]",
        f"{path}:1: warning: the file starts with a UTF-8 byte order mark; it is skipped [utf8-bom]",
    ]
    sgn = run_cli("convert", "--to", "han", stdin=b'\xef\xbb\xbf["1","MR",{"tile":[0,0]}]\r\n')
    assert sgn.returncode == 0 and sgn.stdout == b"M(d4)\n"  # detected as SGN despite the mark


def test_an_hsn_state_with_a_bad_line_is_that_error_alone():
    found = run_cli("parse", "--notation", "hsn", stdin=b"[3SSSS]\n[\xff]\n")
    assert found.returncode == 1 and [line.rsplit(" ", 1)[-1] for line in stderr_lines(found)] == ["[invalid-utf8]"]


def test_what_cannot_be_read_at_all_is_exit_2(tmp_path):
    missing = run_cli("parse", tmp_path / "none.han")
    assert missing.returncode == 2
    assert stderr_lines(missing) == [
        f"{tmp_path / 'none.han'}: cannot read {tmp_path / 'none.han'}: no such file [file-not-found]"
    ]
    assert run_cli("convert", "--to", "sgn", tmp_path).returncode == 2


def test_the_api_reads_bytes_the_same_way():
    text = convert.read_input(io.BytesIO(b"R(2+3)\n\n\xff\n"), "x.han")
    assert text.lines == ["R(2+3)", "", None] and [(d.code, d.line) for d in text.found] == [("invalid-utf8", 3)]
    assert not text.unreadable
    parsed = list(convert.in_line_order(text.found, convert.parse("han", text.lines, text.name)))
    assert [record[1] if record else None for record, _ in parsed] == ["1: R(2+3) -- the player rolls 2 and 3: 5", None]


def test_lines_break_at_newlines_only():
    # str.splitlines also broke at \x85 and \u2028, which are characters of a line for HAN
    text = convert.read_input(io.BytesIO("R(2+3)\u2028M(d4)\n".encode()), "x.han")
    [(_, found)] = convert.parse("han", text.lines, text.name)
    assert [(d.code, d.column) for d in found] == [("han-syntax", 7)]
