"""The rules of the house, kept by a test (CONTRIBUTING.md, docs/architecture.md): data flows
one way through the layers below, with no import cycle (imports inside functions included)
and no arrow back up; few modules at the top of the package; no module over 400 lines and
no class over 250 without a reason in its docstring."""

import ast
import functools
from pathlib import Path

import pytest

import sgn

PACKAGE = Path(sgn.__file__).resolve().parent

# The layers, lowest first: a module imports only from its own layer or those below. Each
# entry is a whole sub-package (every module in it) or a module at the top of the package,
# named once: a package sits on one floor ("sgn" is the top package's own __init__ alone).
LAYERS = [
    ("base", ["sgn.words", "sgn.packaged", "sgn.codes", "sgn.diagnostic", "sgn.board", "sgn.rules", "sgn.messages"]),
    ("drawing", ["sgn.pictures", "sgn.svg"]),
    ("layers of one message", ["sgn.layers"]),
    ("rules replay", ["sgn.game"]),
    ("pipeline of a file", ["sgn.pipeline"]),
    (
        "around the pipeline",
        [
            "sgn.output",
            "sgn.notation",
            "sgn.testing",
            "sgn.corpus",
            "sgn.page",
            "sgn.cluster",
            "sgn.adapters",
            "sgn.play",
            "sgn.referee",
            "sgn.strategies",
        ],
    ),
    ("conformance", ["sgn.conformance", "sgn.harness"]),
    ("command line", ["sgn.cli", "sgn.__main__"]),
    ("public API", ["sgn.api", "sgn"]),
]
MAX_TOP_MODULES = 13
MAX_MODULE_LINES, MAX_CLASS_LINES = 400, 250


def modules():
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = modules()


def _holds(entry, name):
    return name == entry or (entry != "sgn" and name.startswith(entry + "."))


def layer_of(name):
    """The index of the layer a module is in: the one entry of LAYERS that holds it."""
    found = [index for index, (_, entries) in enumerate(LAYERS) for entry in entries if _holds(entry, name)]
    assert found, f"{name} is in no layer of t/test_architecture.py"
    return found[0]


def imports(name):
    """Every module of the package that `name` imports, at the top or inside a function."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                full = f"{target}.{alias.name}"
                out.add(full if full in MODULES else target)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {m for m in out if m in MODULES and m != name}


@functools.lru_cache(maxsize=None)
def graph():
    """{module: the modules of the package it imports}, parsed when a test first asks."""
    return {name: imports(name) for name in MODULES}


def test_imports_inside_functions_count():
    """The whole syntax tree is read: `Game._repr_svg_` imports the drawing in its body."""
    assert "sgn.svg" in graph()["sgn.game.core"]
    assert "sgn.page" in graph()["sgn.cli.report"]


def test_every_module_is_in_a_layer():
    for name in MODULES:
        layer_of(name)


def test_each_package_is_on_one_floor():
    """LAYERS names whole packages and top modules, each once: not a module inside a
    sub-package, nor a package in two layers (which once let `codes` and `pictures` straddle)."""
    entries = [entry for _, names in LAYERS for entry in names]
    assert len(entries) == len(set(entries)), sorted(e for e in entries if entries.count(e) > 1)
    for entry in entries:
        assert entry in MODULES, f"{entry} is no module of the package"
        assert entry == "sgn" or entry.count(".") == 1, f"{entry} is inside a sub-package: name the package"
    for name in MODULES:
        holders = [entry for entry in entries if _holds(entry, name)]
        assert len(holders) == 1, f"{name} is named by {holders}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_arrow_back_up(name):
    mine = layer_of(name)
    up = sorted(m for m in graph()[name] if layer_of(m) > mine)
    assert not up, f"{name} ({LAYERS[mine][0]}) imports {up}, of a layer above it: " + ", ".join(
        LAYERS[layer_of(m)][0] for m in up
    )


def test_no_import_cycle():
    index, low, stack, on, cycles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph()[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for name in sorted(MODULES):
        if name not in index:
            visit(name)
    assert cycles == []


def test_few_modules_at_the_top_of_the_package():
    top = [
        n
        for n in MODULES
        if n.count(".") == 1 and MODULES[n].name != "__init__.py" and not (PACKAGE / n.split(".")[1]).is_dir()
    ]
    assert len(top) <= MAX_TOP_MODULES, sorted(top)


def _reason(docstring):
    return docstring is not None and "longer than" in docstring.lower()


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_or_class_too_long_without_a_reason(name):
    text = MODULES[name].read_text(encoding="utf-8")
    tree = ast.parse(text)
    lines = text.count("\n")
    assert lines <= MAX_MODULE_LINES or _reason(ast.get_docstring(tree)), (
        f"{name}: {lines} lines; split it, or say in its docstring why it is longer than {MAX_MODULE_LINES}"
    )
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            size = node.end_lineno - node.lineno + 1
            assert size <= MAX_CLASS_LINES or _reason(ast.get_docstring(node)), (
                f"{name}.{node.name}: {size} lines; say in its docstring why it is longer than {MAX_CLASS_LINES}"
            )


# The names users import, kept where they were before the package was split (the modules
# moved; these names stay, in `sgn.play`, `sgn.svg`, `sgn.harness`, `sgn.strategies`).
PUBLIC = {
    "sgn": ["check", "iter_diagnostics", "validate_message", "Diagnostic", "Result"],
    "sgn.game": ["Game", "MessageError", "OVER"],
    "sgn.play": [
        "HARBOR_EDGES",
        "MAX_TURNS",
        "SPECIAL_BUILD_CHANCE",
        "RandomPlayer",
        "game_seed",
        "iter_games",
        "moved",
        "random_game",
        "random_map",
    ],
    "sgn.harness": ["PROTOCOL_VERSION", "check", "cmd_run", "cmd_start", "main", "serve", "simple"],
    "sgn.svg": ["Place", "board", "named_by", "place"],
}


# The modules users import by name are the modules themselves, not names over another's.
OWN = {"sgn.svg": ["board", "board_layer"], "sgn.play": ["random_game", "iter_games", "RandomPlayer"]}


@pytest.mark.parametrize("module", sorted(OWN))
def test_the_modules_users_import_are_no_facades(module):
    imported = __import__(module, fromlist=["*"])
    elsewhere = {name: getattr(imported, name).__module__ for name in OWN[module]}
    assert all(where == module for where in elsewhere.values()), f"{module} re-exports {elsewhere}"


@pytest.mark.parametrize("module", sorted(PUBLIC))
def test_the_public_names_stay_where_users_import_them(module):
    imported = __import__(module, fromlist=["*"])
    missing = [name for name in PUBLIC[module] if not hasattr(imported, name)]
    assert not missing, f"{module} lost {missing}"


def test_the_strategies_keep_their_names():
    pytest.importorskip("hypothesis", reason="the strategies need the extra hypothesis")
    import sgn.strategies as strategies

    for name in [
        "ACTION_CODES",
        "GAME_MUTATIONS",
        "MUTATIONS",
        "Mutation",
        "games",
        "invalid_games",
        "invalid_messages",
        "maps",
        "messages",
    ]:
        assert hasattr(strategies, name), name
