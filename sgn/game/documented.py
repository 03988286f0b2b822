"""The documentation of `sgn.game.Game`, in every build.

The default build compiles `core.py` and `state.py` with mypyc, and a compiled class keeps
no docstring: `help(Game)` would say nothing. This module is never compiled. It reads the
docstrings from the source of `core.py`, which the package keeps beside the compiled
module, and gives them back: the class's, and each public method's through a thin Python
function that calls the compiled one (an interpreted call pays one more function call; the
replay inside `sgn.check` calls the compiled methods directly and pays nothing). It adds
to the class's docstring the fields of the state, from the comments of `State.__init__`,
in both builds. Nothing here changes what the replay does.
"""

from __future__ import annotations

import ast
import inspect
import io
import tokenize
from pathlib import Path
from typing import Any, Dict, List, Tuple

_HERE = Path(__file__).resolve().parent


def _source(name: str) -> str:
    try:
        return (_HERE / name).read_text(encoding="utf-8")
    except OSError:  # a package without its sources: the class keeps what it has
        return ""


def _class(tree: ast.Module, name: str) -> Any:
    return next((node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name), None)


def method_docs(source: str, name: str) -> Tuple[str, Dict[str, str]]:
    """A class's docstring in `source`, and those of its public methods."""
    found = _class(ast.parse(source), name) if source else None
    if found is None:
        return "", {}
    methods = {
        node.name: ast.get_docstring(node) or ""
        for node in found.body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    }
    return ast.get_docstring(found) or "", {m: doc for m, doc in methods.items() if doc}


def fields(source: str) -> List[Tuple[str, str, str]]:
    """(name, type, comment) for each public field `State.__init__` sets, in order."""
    found = _class(ast.parse(source), "State") if source else None
    init = (
        next((n for n in found.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if found is not None
        else None
    )
    if init is None:
        return []
    comments = {
        t.start[0]: t.string.lstrip("# ").strip()
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type == tokenize.COMMENT
    }
    out = []
    for node in init.body:
        targets = [node.target] if isinstance(node, ast.AnnAssign) else getattr(node, "targets", [])
        for target in targets:
            if isinstance(target, ast.Attribute) and not target.attr.startswith("_"):
                kind = ast.unparse(node.annotation) if isinstance(node, ast.AnnAssign) else ""
                out.append((target.attr, kind, comments.get(node.lineno, "")))
    return out


def fields_text(listed: List[Tuple[str, str, str]]) -> str:
    lines = ["", "The state, field by field (read them; `apply` changes them):", ""]
    for name, kind, comment in listed:
        lines.append(f"    {name}{': ' + kind if kind else ''}" + (f"  -- {comment}" if comment else ""))
    return "\n".join(lines)


def _forward(native: Any, name: str, owner: str, doc: str) -> Any:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return native(self, *args, **kwargs)

    method.__name__, method.__qualname__, method.__doc__ = name, f"{owner}.{name}", doc
    try:
        method.__signature__ = inspect.signature(native)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        pass
    return method


def document(cls: Any) -> None:
    """Give `cls` (`Game`) its docstrings back where the build dropped them, and the fields."""
    doc, methods = method_docs(_source("core.py"), cls.__name__)
    if not (cls.__doc__ or "").strip() and doc:
        cls.__doc__ = doc
    for name, text in methods.items():
        native = cls.__dict__.get(name)
        if native is not None and not inspect.isfunction(native) and not getattr(native, "__doc__", None):
            setattr(cls, name, _forward(native, name, cls.__name__, text))
    listed = fields(_source("state.py"))
    if listed and cls.__doc__ and "field by field" not in cls.__doc__:
        cls.__doc__ = inspect.cleandoc(cls.__doc__) + "\n" + fields_text(listed)


__all__ = ["document", "fields", "method_docs"]
