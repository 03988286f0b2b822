"""A partial view says only what is true (docs/hidden.md, "What is known, shown"): every
number `sgn replay` shows of a view (a seat's or a spectator's, `sgn redact`) contains the
true value of the full game, at every line: each hand and the bank (a count or a range),
the points, the deck (what is left is known to everyone; each kind a range), the awards;
and where the full game ended, the view says it ended or may have ended there."""

import pytest

from catanatron_games import RELEASED, messages, recorded
from sgn.game import Game
from sgn.notation.redact import hide
from sgn.play import random_game
from sgn.rules import RESOURCES


def _within(shown, true) -> bool:
    if isinstance(shown, list):
        return shown[0] <= true <= shown[1]
    return shown == true


def _games():
    yield from (
        (f"generated {seed}, {players} players", random_game(seed, players))
        for seed, players in [(3, 3), (4, 4), (5, 5), (6, 6), (11, 4)]
    )
    for name, data in recorded(RELEASED)[:3]:
        yield f"catanatron {name}", messages(data)


GAMES = list(_games())


def _seats(game):
    return [None] + sorted({m[0] for m in game if m[1] == "BS"}, key=int)


@pytest.mark.parametrize("name, game", GAMES, ids=[n for n, _ in GAMES])
def test_every_number_a_view_shows_contains_the_true_value(name, game):
    rules = "catanatron" if name.startswith("catanatron") else "standard"
    for seat in _seats(game):
        full, view = Game(rules), Game(rules)
        checked = 0
        for n, message in enumerate(game, 1):
            assert full.apply(message, n) == [] or rules != "standard"
            view.apply(hide(message, seat), n)
            if n % 7 and n != len(game):
                continue
            true, seen = full.snapshot(), view.snapshot()
            where = (name, seat, n)
            assert seen["deck_left"] == true["deck_left"], where
            assert all(_within(seen["deck"][k], true["deck"][k]) for k in true["deck"]), where
            assert all(_within(seen["bank"][r], true["bank"][r]) for r in RESOURCES), where
            for p, held in true["players"].items():
                shown = seen["players"][p]
                assert all(_within(shown["hand"][r], held["hand"][r]) for r in RESOURCES), (where, p)
                assert _within(shown["points"], held["points"]), (where, p, shown["points"], held["points"])
                assert shown["knights_played"] == held["knights_played"], (where, p)
            assert (seen["longest_road"], seen["largest_army"]) == (true["longest_road"], true["largest_army"]), where
            if true["ended_at_line"]:
                ended = seen["ended_at_line"] or (seen["may_have_ended"] or {}).get("line")
                assert ended == true["ended_at_line"], where
            checked += 1
        assert checked > 10
