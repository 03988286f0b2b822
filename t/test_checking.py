"""How a file is checked is one frozen value (sgn/pipeline/checking.py), checked when it is
made and resolved per path; every reader of a log below the public API takes that value,
not the settings one by one."""

import ast
import json
import pickle
from pathlib import Path

import pytest

from sgn.pipeline.checking import DEFAULT, Checking
from sgn.pipeline.engine import FileCheck
from sgn.play import random_game

ROOT = Path(__file__).resolve().parent.parent
SETTING_NAMES = {"level", "profile", "hidden", "rules", "max_line_bytes"}


@pytest.mark.parametrize(
    "field, value, named",
    [
        ("level", "everything", "rules"),
        ("profile", "lenient", "compat"),
        ("hidden", "maybe", "refuse"),
        ("rules", "house", "catanatron"),
        ("per_file_rules", (("*.sgn", "house"),), "jsettlers"),
    ],
)
def test_a_bad_value_is_refused_when_made_naming_the_choices(field, value, named):
    with pytest.raises(ValueError, match=named):
        Checking(**{field: value})


@pytest.mark.parametrize("field", ["level", "profile", "hidden", "rules"])
@pytest.mark.parametrize("bad", [1, None, b"rules", ("standard",)])
def test_a_value_that_is_no_name_is_refused_alike_in_both_builds(field, bad):
    """The compiled checks type their arguments (a TypeError there); the value says it first."""
    with pytest.raises(ValueError, match=f"unknown {field}"):
        Checking(**{field: bad})


@pytest.mark.parametrize("bad", [0, -1, 1.5, "10"])
def test_the_longest_line_is_a_positive_whole_number(bad):
    with pytest.raises(ValueError, match="max_line_bytes"):
        Checking(max_line_bytes=bad)


def test_it_is_frozen_hashable_and_travels_to_workers_unchanged():
    checking = Checking("rules", "compat", "refuse", "jsettlers", 4096, (("a/*", "catanatron"),), "/x")
    with pytest.raises(AttributeError):
        checking.level = "schema"  # type: ignore[misc]
    again = pickle.loads(pickle.dumps(checking))
    assert again == checking and hash(again) == hash(checking)


def test_a_file_takes_the_first_per_file_rules_it_matches_else_the_runs(tmp_path):
    checking = Checking(rules="standard", per_file_rules=(("bots/*", "catanatron"), ("*.sgn", "jsettlers")))
    assert checking.for_path("bots/g.sgn").rules == "catanatron"
    assert checking.for_path("other/g.sgn").rules == "jsettlers"
    assert checking.for_path("g.log").rules == "standard"
    assert checking.for_path("g.log").per_file_rules == ()  # (resolved: nothing left to match)
    assert DEFAULT.for_path("anything") is DEFAULT
    based = Checking(per_file_rules=(("games/*.sgn", "catanatron"),), base=str(tmp_path))
    assert based.for_path(str(tmp_path / "games" / "g.sgn")).rules == "catanatron"


def test_the_reading_loop_resolves_its_file_as_the_executors_do():
    """A per-file profile reaches the replay whichever door the check came in by."""
    from sgn.pipeline.executors import Options, check_one

    lines = [json.dumps(m) for m in random_game(4, 3)]
    checking = Checking("rules", per_file_rules=(("cat*", "catanatron"),))
    for name, rules in (("cat.sgn", "catanatron"), ("plain.sgn", "auto")):
        check = FileCheck(iter(lines), checking, name=name)
        assert check.rules == rules and check.checking.rules == rules
        result = check_one(iter(lines), name, Options(checking))
        assert list(result.diagnostics) == list(FileCheck(iter(lines), checking, name=name))


def _parameters(node):
    return {a.arg for a in node.args.args + node.args.kwonlyargs}


# The internal readers of a log, each taking one `Checking`: (module, function or class.method).
READERS = [
    ("sgn/pipeline/engine.py", "FileCheck.__init__"),
    ("sgn/pipeline/engine.py", "visit"),
    ("sgn/pipeline/replay.py", "replay"),
    ("sgn/pipeline/levels.py", "build_stages"),
    ("sgn/page/steps.py", "collect"),
    ("sgn/page/__init__.py", "build"),
]


@pytest.mark.parametrize("module, qualified", READERS)
def test_no_reader_below_the_api_takes_the_settings_one_by_one(module, qualified):
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    *owner, name = qualified.split(".")
    scope = tree
    if owner:
        scope = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == owner[0])
    node = next(n for n in ast.iter_child_nodes(scope) if isinstance(n, ast.FunctionDef) and n.name == name)
    taken = _parameters(node)
    assert "checking" in taken, f"{qualified} takes no Checking"
    assert not taken & (SETTING_NAMES - {"level"} if name == "build_stages" else SETTING_NAMES), qualified


def test_the_executors_options_are_a_checking_and_a_policy():
    from sgn.pipeline.executors import Options

    assert Options._fields == ("checking", "policy")
