"""Fuzzing the neighbouring notations: whatever the input, reading and converting give
diagnostics, never an exception, and what they write is readable in its notation.

Inputs are arbitrary text and bytes, and valid lines (the corpus's, and lines written from
generated SGN messages) mutated a few characters at a time, which reaches far deeper into
the parsers than random text. The number of examples is the Hypothesis profile's
(conftest.py: "ci" by default, kept quick); a long run raises it, e.g.
HYPOTHESIS_PROFILE=thorough. What fuzzing found is pinned at the end of the file.
"""

import contextlib
import io
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import sgn
from conftest import corpus_cases
from sgn import strategies as sgs
from sgn.cli import main
from sgn.diagnostic import Diagnostic
from sgn.notation import convert, han, hsgn_sgn, hsgn_turns

CASES = corpus_cases()
NOTATIONS = ("han", "hsgn", "hsn", "hsn-002")
CONVERTIBLE = ("sgn", "han", "hsgn")


def _valid(kind):
    return [c["input"] for c in CASES if c["kind"] == kind and c["valid"]]


# characters that mean something in one of the notations, and a few that break lines or bytes
SPECIAL = list("()[]{}|/,.:;+?-_\"' \t\r\n\x0b\x0c\x85\u2028\ufeff0123456789BGLOWDRMSPUTEVCKYbzpnswekmryvoacdfghijlqtx")
CHARACTERS = st.one_of(st.sampled_from(SPECIAL), st.characters())


@st.composite
def mutated(draw, texts):
    """A text with a few characters inserted, deleted, replaced, or a slice repeated."""
    text = draw(texts)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        end = draw(st.integers(at, min(len(text), at + 8)))
        edit = draw(st.sampled_from(("insert", "delete", "replace", "repeat", "cut")))
        if edit == "insert":
            text = text[:at] + draw(st.text(CHARACTERS, min_size=1, max_size=3)) + text[at:]
        elif edit == "delete":
            text = text[:at] + text[end:]
        elif edit == "replace":
            text = text[:at] + draw(CHARACTERS) + text[at + 1 :]
        elif edit == "repeat":
            text = text[:at] + text[at:end] * draw(st.integers(2, 40)) + text[end:]
        else:
            text = text[:at]
    return text


def _sgn_line(message):
    return json.dumps(message, separators=(",", ":"))


def _han_line(message):
    try:
        return han.format_action(han.from_sgn(message))
    except ValueError:  # no HAN form (RD, BD, ...)
        return "R(2+3)"


def _hsgn_line(message):
    try:
        return hsgn_turns.format_turn(hsgn_turns.Turn(f"p{message[0]}", (hsgn_sgn.from_sgn(message),)))
    except ValueError:  # no HSGN form, or off the standard board
        return "p1: 8."


MESSAGES = sgs.messages(action_codes=st.sampled_from(["BC", "BD", "BR", "BS", "MR", "PD", "RD", "ST", "TR"]))
VALID = {
    "sgn": MESSAGES.map(_sgn_line),
    "han": st.one_of(st.sampled_from(_valid("han")), MESSAGES.map(_han_line)),
    "hsgn": st.one_of(st.sampled_from(_valid("hsgn")), MESSAGES.map(_hsgn_line)),
    "hsn": st.sampled_from(_valid("hsn")),
    "hsn-002": st.sampled_from(_valid("hsn-002")),
}


def lines_of(kind):
    """Lines of one notation: valid, mutated, arbitrary, and now and then one that could not be
    read (None, as `convert.read_input` gives for a line of bad bytes)."""
    line = st.one_of(VALID[kind], mutated(VALID[kind]), st.text(CHARACTERS, max_size=30))
    return st.lists(st.one_of(line, line, line, st.just(None)), max_size=6)


def _drain(items):
    """Every item, checked for its shape: (output or None, diagnostics)."""
    out = []
    for record, found in items:
        assert all(isinstance(d, Diagnostic) for d in found)
        out.append((record, found))
    return out


@pytest.mark.parametrize("notation", NOTATIONS)
@given(data=st.data())
def test_parse_never_raises(notation, data):
    kind = data.draw(st.sampled_from(NOTATIONS + ("sgn",)))  # the wrong notation too
    lines = data.draw(lines_of(kind))
    if notation.startswith("hsn") and data.draw(st.booleans()):
        lines = data.draw(mutated(st.sampled_from(_valid(notation)))).split("\n")
    for record, found in _drain(convert.parse(notation, lines, "<fuzz>")):
        if record is not None:
            json.dumps(record[0])  # what -o json prints
            assert isinstance(record[1], str)


def _readable(target, text):
    """Whatever convert writes is read back by its notation without an error, and in the
    standard form, without a warning."""
    if target == "sgn":
        assert [d for d in sgn.validate_message(json.loads(text), level="semantic") if d.is_error] == []
    elif target == "han":
        assert han.parse(text)[1] == []
    else:
        assert hsgn_turns.parse_line(text)[1] == []


@pytest.mark.parametrize("target", CONVERTIBLE)
@pytest.mark.parametrize("source", CONVERTIBLE)
@given(data=st.data())
def test_convert_never_raises_and_writes_readable_lines(source, target, data):
    kind = data.draw(st.sampled_from([source, source, "sgn", "han", "hsgn"]))
    lines = data.draw(lines_of(kind))
    player = data.draw(st.sampled_from(["1", "2", "6", "B", "7", "x"]))
    for text, _ in _drain(convert.convert(lines, "<fuzz>", source, target, player)):
        if text is not None:
            _readable(target, text)


@pytest.fixture(scope="module")
def folder():
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(argv, out=out)
    return code, out.getvalue(), err.getvalue()


BYTES = st.one_of(
    st.binary(max_size=200),
    st.lists(st.one_of(VALID["han"], VALID["hsgn"], VALID["sgn"], VALID["hsn"]), max_size=3)
    .map("\n".join)
    .flatmap(lambda text: mutated(st.just(text)))
    .map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.tuples(
        st.sampled_from([b"", b"\xef\xbb\xbf", b"\x1f\x8b"]),
        st.sampled_from(_valid("hsgn") + _valid("han")),
        st.sampled_from([b"\n", b"\r\n", b"\xff\n", b"\r"]),
    ).map(lambda t: t[0] + t[1].encode() + t[2] + t[1].encode()),
)
COMMANDS = st.one_of(
    st.sampled_from(NOTATIONS).map(lambda n: ["parse", "--notation", n]),
    st.sampled_from(NOTATIONS).map(lambda n: ["parse", "--notation", n, "-o", "json"]),
    st.tuples(st.sampled_from((None,) + CONVERTIBLE), st.sampled_from(CONVERTIBLE)).map(
        lambda p: ["convert", "--to", p[1]] + (["--from", p[0]] if p[0] else [])
    ),
)


@given(data=BYTES, command=COMMANDS)
def test_the_cli_never_fails_inside(folder, data, command):
    path = folder / "input"
    path.write_bytes(data)
    code, out, err = _cli(command + [str(path)])
    assert not [line for line in err.splitlines() if line.startswith("sgn: internal error")]
    assert code in (0, 1, 2)
    if code == 2:
        assert err  # a usage error says why
    if code == 1:
        assert any(line and ": warning:" not in line and ": info:" not in line for line in err.splitlines())


@pytest.mark.parametrize(
    "notation, line, code, column",
    [
        ("han", "M(d" + "9" * 5000 + ")", "han-syntax", 4),  # int() refuses more than 4,300 digits
        ("han", "M(" + "a" * 100_000 + "4)", "han-syntax", 3),  # a column number that took minutes
        ("han", "Pv(d4\u00b2n)", "han-syntax", 6),  # '²' is a digit to str.isdigit, not to int()
        ("han", "T(B\u00b2)(O)1", "han-syntax", 4),
        ("hsgn", "p1: \u00b2.", "hsgn-syntax", 5),
        ("hsgn", "p1: 4, Tp2(B\u0661, O).", "hsgn-syntax", 13),  # an Arabic-Indic one, which int() reads
        ("hsgn", "p1: " + "9" * 5000 + ".", "hsgn-syntax", 5),
        ("hsgn", "p" + "1" * 5000 + ": 8.", "hsgn-syntax", 2),
        ("hsgn", "p1: BV" + "za" * 50_000 + ".", "hsgn-name", 7),  # ways to cut a name grew exponentially
        ("hsn", "[" + "9" * 100_000 + "x", "hsn-syntax", 1),  # a long field is quoted cut short
    ],
)
def test_what_fuzzing_found(notation, line, code, column):
    found = [d for _, diagnostics in convert.parse(notation, [line], "<input>") for d in diagnostics]
    assert [(d.code, d.column) for d in found] == [(code, column)]
    assert len(found[0].message) < 200  # the input is quoted cut short
