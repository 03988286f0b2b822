"""Decisions, chance, outcome and checked moves (sgn/game/decisions.py, docs/api.md "Playing a
game"): games driven only by `decisions` and `chances` are legal to the replay of a log, end
with the outcome it finds, and a refused move changes nothing."""

import ast
import functools
import json
import random
import re
import subprocess
import sys
from collections import Counter
from fractions import Fraction

import pytest

import sgn
from conftest import CHECKOUT
from sgn import board
from sgn.game import Game
from sgn.game.decisions import KINDS, is_chance
from sgn.game.errors import IllegalMove
from sgn.play import random_map


def draw(game, move, rng):
    outcomes, odds = zip(*game.chances(move))
    return rng.choices(outcomes, odds)[0]


def driven(seed, players, stop=None):
    """A game played by random choices over `decisions`, chance drawn with `chances`: the
    game, its log (the end of each turn written, docs/format.md "Records"), the kinds met,
    and the states seen (when `stop` says keep one)."""
    rng = random.Random(seed)
    game = Game()
    log = [["B", "DM", random_map(rng, board.EXTENDED if players > 4 else board.STANDARD)]]
    game.push(log[0])
    kinds, kept = Counter(), []
    while not game.outcome():
        due = game.decisions(players=players)
        assert due, "a game not over always has a decision"
        assert len(due) == 1 or {d.kind for d in due} == {"discard"}
        for decision in due:
            kinds[decision.kind] += 1
            assert decision.kind in KINDS and decision.moves
            move = draw(game, rng.choice(decision.moves), rng)
            assert not is_chance(move)
            game.push(move)
            log.append(move)
            if stop and stop(game):
                kept.append(game.clone())
        assert len(log) < 5000
    return game, log, kinds, kept


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_game_driven_by_decisions_is_legal_and_its_outcome_is_the_logs(players):
    for seed in range(3):
        game, log, kinds, _ = driven(seed, players)
        result = sgn.check(log, level="rules")
        assert result.verdict == "valid", [d.message for d in result.diagnostics][:3]
        outcome = game.outcome()
        assert outcome.how == "won" and result.games[0]["winner"] == outcome.winner
        assert outcome.points[outcome.winner] >= 10 and set(outcome.points) == {str(i) for i in range(1, players + 1)}
        assert outcome.line == len(log)  # (the game's pushes number its lines as the log does)
        assert kinds["settlement"] == 2 * players and kinds["turn"] and kinds["roll"]
        if players > 4:
            assert kinds["special-build"]


def test_discards_are_asked_of_every_owing_seat_at_once():
    seen = []
    for seed in range(12):
        rng = random.Random(seed)
        game = Game()
        game.push(["B", "DM", random_map(rng)])
        while not game.outcome() and not seen:
            due = game.decisions(players=4)
            if len(due) > 1:
                seen.append(due)
                owed = game.discards_owed
                assert [d.seat for d in due] == sorted(owed, key=int)
                for d in due:  # each seat's moves are its own, giving half its hand
                    assert all(m[0] == d.seat and -sum(m[2][0]["resources"].values()) == owed[d.seat] for m in d.moves)
                break
            for d in due:
                game.push(draw(game, rng.choice(d.moves), rng))
    assert seen, "no 7 with two owing seats in 12 games"


def test_chances_are_exact():
    game, _, _, kept = driven(5, 4, stop=lambda g: bool(g.steal_from) and g.steal_needed)
    rolls = dict((m[2]["result"], p) for m, p in game.chances(["1", "RD", {"result": "?"}]))
    assert rolls[7] == Fraction(1, 6) and rolls[2] == rolls[12] == Fraction(1, 36) and sum(rolls.values()) == 1
    state = kept[0]
    deck = {m[2]["cCode"]: p for m, p in state.chances(["1", "BD", {"cCode": "?"}])}
    left = sum(state.deck.values())
    assert deck == {c: Fraction(n, left) for c, n in state.deck.items() if n}
    (steal,) = [d for d in state.decisions() if d.kind == "steal"]
    for move in steal.moves:
        victim = move[2][1]["player"]
        hand = state.players[victim].hand
        odds = {m[2][0]["resources"].popitem()[0]: p for m, p in state.chances(move)}
        assert odds == {r: Fraction(n, sum(hand.values())) for r, n in hand.items() if n}
    assert state.chances(["1", "BR", {"path": [[0, 0], [1, 0]]}]) == [(["1", "BR", {"path": [[0, 0], [1, 0]]}], 1)]


@functools.lru_cache(maxsize=None)
def _fields(source: str, cls: str):
    """The attributes a class's __init__ sets, read from its source (so the compiled build,
    which has no __dict__, is read the same)."""
    tree = ast.parse((CHECKOUT / "sgn" / "game" / source).read_text())
    init = next(
        f
        for c in tree.body
        if isinstance(c, ast.ClassDef) and c.name == cls
        for f in c.body
        if isinstance(f, ast.FunctionDef) and f.name == "__init__"
    )
    return {
        t.attr
        for node in ast.walk(init)
        for t in (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if isinstance(t, ast.Attribute)
    }


def _plain(value):
    """A value as plain data: the replay's own objects (a player, an income, the doubt) as
    their fields, so that a copy and its original compare equal field by field."""
    kind = type(value)
    if kind.__module__.startswith("sgn.game.") and kind.__name__ != "Map":  # (the map is shared)
        return {
            f: _plain(getattr(value, f)) for f in sorted(_fields(kind.__module__.split(".")[-1] + ".py", kind.__name__))
        }
    if isinstance(value, dict):
        return {repr(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(repr(_plain(v)) for v in value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return repr(value)


def test_clone_copies_every_field_and_push_pop_restore_it():
    """Every field `State.__init__` sets is copied by `clone` (a field forgotten there would
    reset in every copy); a refused move and a `pop` leave each field as it was."""
    fields = _fields("state.py", "State") - {"pushed", "_after", "_order_for"}  # (the undo list; a cache)
    assert "turn_ended" in fields and "unseen" in fields and len(fields) > 30
    assert {"doubt", "roll", "end", "discards_unsure", "discards_late"} <= _fields("unseen.py", "Unseen")
    _, _, _, kept = driven(2, 5, stop=lambda g: bool(g.turn_ended or g.discards_owed or g.special_built))
    assert kept
    for state in kept[:: max(1, len(kept) // 25)]:
        copy = state.clone()
        before = {f: _plain(getattr(state, f)) for f in fields}
        assert {f: _plain(getattr(copy, f)) for f in fields} == before
        for decision in state.decisions():
            move = decision.moves[0]
            if is_chance(move):
                move = state.chances(move)[0][0]
            state.push(move)
            state.pop()
            assert {f: _plain(getattr(state, f)) for f in fields} == before, move
        for wrong in (["1", "RD", {"result": 13}], ["9", "BR", {"path": [[0, 0], [1, 0]]}], ["1", "ET", {}]):
            if wrong[1] == "ET" and state.phase != "setup":
                continue  # (an end of turn is refused in the setup; later, its place may be any seat's)
            with pytest.raises(IllegalMove) as refused:
                state.push(wrong)
            assert refused.value.move == wrong and str(refused.value)
            assert {f: _plain(getattr(state, f)) for f in fields} == before, wrong


def test_a_move_the_rules_refuse_changes_nothing():
    rng = random.Random(3)
    game = Game()
    game.push(["B", "DM", random_map(rng)])
    (first,) = game.decisions(players=4)
    corner = first.moves[0][2]
    with pytest.raises(IllegalMove) as refused:
        game.push(["2", "BS", corner])  # player 1 places first
    assert refused.value.problems and all(p.severity == "error" for p in refused.value.problems)
    assert game.setup_order == [] and game.building_at == {} and "2" not in game.players
    game.push(["1", "BS", corner])
    with pytest.raises(IllegalMove):
        game.push(["1", "BS", corner])  # a road is due
    assert game.setup_order == ["1"] and game.decisions(players=4)[0].kind == "road"
    game.pop()
    assert game.setup_order == [] and game.decisions(players=4) == [first]
    game.pop()  # (the map too was pushed)
    assert game.board is None and game.decisions() == []
    with pytest.raises(IndexError):
        game.pop()


def test_the_bot_of_the_docs_runs_as_written():
    """docs/api.md's bot, exactly as written, in a fresh interpreter: it plays a valid game."""
    text = (CHECKOUT / "docs" / "api.md").read_text(encoding="utf-8")
    (bot,) = [b for b in re.findall(r"^```python\n(.*?)^```", text, re.M | re.S) if "decisions" in b]
    done = subprocess.run([sys.executable, "-c", bot], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Outcome(winner=" in done.stdout and "how='won'" in done.stdout


def test_one_way_to_a_position_from_messages():
    from sgn.game.position import from_messages
    from sgn.play import random_game

    game = random_game(9, 4)
    texts = [json.dumps(m) for m in game[:40]]
    by_text = from_messages(texts[:20] + ["", "  "] + texts[20:])
    by_value = from_messages(game[:40])
    assert by_text.public_key() == by_value.public_key() and by_value.line == 40
    bad = game[:5] + [["1", "BS", game[1][2]]] + game[5:10]  # (a settlement where one stands)
    with pytest.raises(IllegalMove) as refused:
        from_messages(bad, strict=True)
    assert refused.value.line == 6 and refused.value.problems
    assert from_messages(bad).line == len(bad)  # (the log's reading goes on)
