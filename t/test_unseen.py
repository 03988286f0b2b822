"""All a game's log does not show is one record on the state (`State.unseen`,
sgn/game/unseen.py): copied whole by a fork, changing apart from it, and keyed and
summarised in one place."""

import ast
import functools
from pathlib import Path

from hidden_fillings import _partial_logs  # (t/ is on the path)
from sgn.game.position import from_messages
from test_decisions import _fields, _plain

UNSEEN = Path(__file__).resolve().parent.parent / "sgn" / "game" / "unseen.py"


def test_its_copy_sets_every_field_its_init_sets():
    """A field added to the record and forgotten in `copy` would reset in every fork."""
    tree = ast.parse(UNSEEN.read_text(encoding="utf-8"))
    copy = next(
        f
        for c in tree.body
        if isinstance(c, ast.ClassDef) and c.name == "Unseen"
        for f in c.body
        if isinstance(f, ast.FunctionDef) and f.name == "copy"
    )
    assigned = {
        t.attr
        for node in ast.walk(copy)
        if isinstance(node, ast.Assign)
        for target in node.targets
        for t in (target.elts if isinstance(target, ast.Tuple) else [target])
        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "other"
    }
    assert assigned == _fields("unseen.py", "Unseen")


@functools.lru_cache(maxsize=None)
def _states_with_something_unseen():
    """States of partial views part-way, each with at least one thing unseen, and the
    message that follows it."""
    found = []
    for seed in range(8):
        log = _partial_logs(seed, 4, 140, 25, False)
        game = from_messages(log[:1])
        for line, message in enumerate(log[1:-1], 2):
            game.apply(message, line)
            unseen = game.unseen
            if line % 9 == 0 and (unseen.doubt is not None or unseen.roll or unseen.discards_unsure or unseen.end):
                found.append((game.clone(), log[line]))
    return tuple(found)


def test_a_fork_keeps_all_that_is_unseen_and_changes_apart_from_it():
    seen = 0
    for game, following in _states_with_something_unseen():
        before = _plain(game.unseen)
        copy = game.clone()
        assert _plain(copy.unseen) == before and copy.unseen is not game.unseen
        assert copy.public_key() == game.public_key()
        copy.apply(following, game.line + 1)
        assert _plain(game.unseen) == before  # (what the copy read changed nothing here)
        seen += 1
    assert seen > 20


def test_the_snapshot_says_what_is_unseen_from_the_record():
    told = 0
    for game, _ in _states_with_something_unseen():
        summary = game.snapshot().get("unseen", {})
        assert summary == game.unseen.summary(game)
        if game.unseen.doubt is not None:
            assert summary["ways_the_cards_lie"] >= 1 and summary["hands_in_doubt_since"]
            told += 1
    assert told > 5


def test_the_worlds_are_read_only_through_doubt_s_methods():
    """No module but sgn/game/doubt.py reads a world's layout (its tuples, a holder's base
    index): a change of layout is a change of one module."""
    root = UNSEEN.parent.parent
    reaching = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "doubt.py" or path.parent.name == "pipeline":  # (`.base` there is a folder)
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("worlds", "base", "holders"):
                reaching.append(f"{path.relative_to(root)}:{node.lineno} .{node.attr}")
    assert not reaching


def test_every_move_of_cards_goes_through_the_ledger():
    """No module but the ledger (and the worlds' own) changes a hand or the bank: a card
    moved elsewhere would skip the doubt, and a hand in doubt would drift from its worlds."""
    root = UNSEEN.parent.parent
    moving = []
    for path in sorted(root.rglob("*.py")):
        if path.name in ("ledger.py", "doubt.py") and path.parent.name == "game":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AugAssign)
                else []
            )
            for target in targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Attribute)
                    and target.value.attr in ("hand", "bank")
                ):
                    moving.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not moving


def test_the_report_page_says_where_the_game_may_have_ended_unseen_as_the_replay_does():
    """The page reads the possible end from the record (`Unseen.end`), as the snapshot does."""
    import io
    import json

    from sgn.notation.redact import hide
    from sgn.page.steps import collect
    from sgn.pipeline.checking import Checking
    from sgn.play import random_game

    view = [hide(m, None) for m in random_game(1, 3)]  # (its winner's last points are cards drawn unseen)
    ended = from_messages(view).snapshot()["may_have_ended"]
    assert ended
    data = "".join(json.dumps(m) + "\n" for m in view).encode()
    collected = collect(io.BytesIO(data), "view", Checking("rules"))
    assert collected.data["may_have_won"] == [ended["player"], ended["line"]]
