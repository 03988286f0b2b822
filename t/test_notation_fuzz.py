"""Fuzzing the neighbouring notations: whatever the input, reading and converting give
diagnostics, never an exception.
"""
import pytest

from sgn import convert


@pytest.mark.parametrize("notation, line, code, column", [
    ("han", "M(d" + "9" * 5000 + ")", "han-syntax", 4),        # int() refuses more than 4,300 digits
    ("han", "M(" + "a" * 100_000 + "4)", "han-syntax", 3),      # a column number that took minutes
    ("han", "Pv(d4\u00b2n)", "han-syntax", 6),                  # '²' is a digit to str.isdigit, not to int()
    ("han", "T(B\u00b2)(O)1", "han-syntax", 4),
    ("hsgn", "p1: \u00b2.", "hsgn-syntax", 5),
    ("hsgn", "p1: 4, Tp2(B\u0661, O).", "hsgn-syntax", 13),    # an Arabic-Indic one, which int() reads
    ("hsgn", "p1: " + "9" * 5000 + ".", "hsgn-syntax", 5),
    ("hsgn", "p" + "1" * 5000 + ": 8.", "hsgn-syntax", 2),
    ("hsgn", "p1: BV" + "za" * 50_000 + ".", "hsgn-name", 7),  # ways to cut a name grew exponentially
    ("hsn", "[" + "9" * 100_000 + "x", "hsn-syntax", 1),          # a long field is quoted cut short
])
def test_what_fuzzing_found(notation, line, code, column):
    found = [d for _, diagnostics in convert.parse(notation, [line], "<input>") for d in diagnostics]
    assert [(d.code, d.column) for d in found] == [(code, column)]
    assert len(found[0].message) < 200                            # the input is quoted cut short
