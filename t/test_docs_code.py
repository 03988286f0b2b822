"""The Python examples of the README and docs/ parse, and use no name they do not define
or import (the blocks of one file read as one program, in order, as a reader follows them)."""

import ast
import builtins
import re

import pytest

from conftest import CHECKOUT

DOCS = [CHECKOUT / "README.md", *sorted((CHECKOUT / "docs").glob("*.md"))]
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


def undefined_names(source: str):
    """The names the program reads that nothing in it binds (nor Python's builtins)."""
    tree = ast.parse(source)
    bound, read = set(dir(builtins)), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read.append(node) if isinstance(node.ctx, ast.Load) else bound.add(node.id))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return sorted({node.id for node in read if node.id not in bound})


def _program(path):
    return "\n".join(_BLOCK.findall(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", [p for p in DOCS if _program(p)], ids=lambda p: p.name)
def test_examples_define_what_they_use(path):
    assert undefined_names(_program(path)) == []


def test_a_name_never_imported_is_found():
    """docs/strategies.md once used Hypothesis's `st` without importing it."""
    assert undefined_names(
        "from hypothesis import given\n@given(sgs.games(players=st.just(4)))\ndef test(game):\n    return game\n"
    ) == ["sgs", "st"]
