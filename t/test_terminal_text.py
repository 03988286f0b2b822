"""What reaches a terminal (docs/checks.md, "Columns"): no invisible character that changes
what a terminal shows (bidirectional overrides, zero-width characters: Unicode's format
characters) comes through raw, carets sit under what they mark in display cells whatever
the characters before them, and every column counts characters, `invalid-utf8`'s too."""

import json
import sys
import unicodedata

import pytest

from conftest import run_cli
from sgn.words import cells, visible

FORMAT = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]


def test_every_format_character_is_escaped():
    assert len(FORMAT) > 150 and "\u202e" in FORMAT and "\u200b" in FORMAT
    for c in FORMAT:
        shown = visible(f"a{c}b")
        assert c not in shown and shown.startswith("a\\") and visible(shown) == shown


def test_cells_count_display_width():
    assert cells("abc") == 3 and cells("日本") == 4 and cells("e\u0301") == 1 and cells("Ｆ") == 2


def _caret_column(text, line_no):
    """The display cell of the first caret under the source line `line_no` of a text report,
    and the source line shown (both after the gutter)."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{line_no} |"))
    gutter = len(f"{line_no} | ")
    return lines[at][gutter:], lines[at + 1][gutter:].index("^"), lines[at + 1][gutter:].count("^")


@pytest.mark.parametrize("before", ["日本語", "e\u0301\u0301", "\u202eab", "plain", "\U0001f600x"])
def test_carets_sit_under_what_they_mark_in_display_cells(write, before):
    log = write(f'["1","RD",{{"x":"{before}","result":13}}]\n'.encode("utf-8"))
    out = run_cli("validate", "--level", "schema", "--select", "schema-maximum", log)
    text = out.stdout.decode()
    shown, caret, width = _caret_column(text, 1)
    assert "\u202e" not in text
    assert cells(shown[: shown.index("13")]) == caret and width == 2


def test_the_invalid_utf8_column_counts_characters(write):
    log = write('["é日",'.encode("utf-8") + b"\xff]\n")
    out = run_cli("validate", "-o", "json", log)
    (d,) = [d for d in json.loads(out.stdout)["diagnostics"] if d["code"] == "invalid-utf8"]
    assert d["column"] == len('["é日",') + 1 and "byte 10" in d["message"]
