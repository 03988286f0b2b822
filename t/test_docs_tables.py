"""The markdown tables of the README and docs/ render as tables (GitHub's rules): a header
row, then its delimiter row, then rows with as many cells, no blank line among them."""

import re

import pytest

from conftest import CHECKOUT

DOCS = [CHECKOUT / "README.md", *sorted((CHECKOUT / "docs").glob("*.md"))]
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_ROW = re.compile(r"^ {0,3}\|")
_DELIMITER_CELL = re.compile(r"^\s*:?-+:?\s*$")
_PIPE = re.compile(r"(?<!\\)\|")  # a cell boundary: a pipe not escaped (in code spans too)


def cells(row: str):
    """The cells of a table row, as GitHub splits them."""
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return _PIPE.split(inner)


def table_problems(text: str):
    """(line, what is wrong) for every row that does not render as part of a table."""
    problems = []
    block = []  # (line number, text) of consecutive rows, outside code fences
    fenced = False
    for number, line in enumerate(text.splitlines() + [""], 1):
        if _FENCE.match(line):
            fenced = not fenced
        if not fenced and _ROW.match(line):
            block.append((number, line))
            continue
        if block:
            problems += _block_problems(block)
            block = []
    return problems


def _block_problems(block):
    (first, header), *rest = block
    if not rest or not all(_DELIMITER_CELL.match(c) for c in cells(rest[0][1])):
        return [
            (first, "a row with no header and delimiter row above it renders as text (a blank line inside a table?)")
        ]
    width = len(cells(header))
    return [
        (number, f"{len(cells(row))} cells where the header has {width}")
        for number, row in rest
        if len(cells(row)) != width
    ]


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_every_table_renders(path):
    text = path.read_text(encoding="utf-8")
    assert table_problems(text) == []


def test_the_docs_have_tables_to_check():
    """The check above passes on files without tables: there must be some."""
    with_tables = [p.name for p in DOCS if any(map(_ROW.match, p.read_text(encoding="utf-8").splitlines()))]
    assert len(with_tables) >= 5 and "README.md" in with_tables


def test_a_blank_line_inside_a_table_is_found():
    """The levels table of the README once had one: its last row rendered as text."""
    broken = "| level | checks |\n| --- | --- |\n| `syntax` | bytes |\n\n| `rules` | the replay |\n"
    assert table_problems(broken) == [
        (5, "a row with no header and delimiter row above it renders as text (a blank line inside a table?)")
    ]


def test_a_row_of_the_wrong_width_is_found():
    text = "| a | b |\n| --- | --- |\n| 1 | 2 | 3 |\n| `x \\| y` | 2 |\n| 1 |\n"
    assert table_problems(text) == [(3, "3 cells where the header has 2"), (5, "1 cells where the header has 2")]


def test_rows_in_code_fences_are_no_tables():
    assert table_problems("```\n| not | a table |\n```\n~~~\n|x|\n~~~\n") == []


def test_a_delimiter_row_of_the_wrong_width_is_found():
    assert table_problems("| a | b |\n| --- |\n| 1 | 2 |\n") == [(2, "1 cells where the header has 2")]
