"""The ways of filling in a log's hidden values, for tests that compare the replay's exact
judgement of a partial log with a brute force over every filling (docs/hidden.md)."""

import itertools
import random

from sgn.notation.redact import hide
from sgn.play import random_game
from sgn.rules import RESOURCES

KINDS = ("KN", "VP", "RB", "YP", "MO")
MAX_WAYS = 400  # the ways of filling in a log that the brute force tries


def _multisets(count):
    return [c for c in itertools.combinations_with_replacement(RESOURCES, count)]


def _fillings(message):
    """Every message a hidden message may have been."""
    player, action, value = message
    if action == "BD" and value["cCode"] == "?":
        return [[player, action, {"cCode": k}] for k in KINDS]
    if action == "RD" and value["result"] == "?":
        return [[player, action, {"result": n}] for n in range(2, 13)]
    if action in ("ST", "TR") and any("?" in side["resources"] for side in value):
        giver = next(i for i, side in enumerate(value) if side["resources"].get("?", 0) < 0)
        count = -value[giver]["resources"]["?"]
        out = []
        for taken in _multisets(count):
            sides = [dict(side, resources=dict(side["resources"])) for side in value]
            for i, side in enumerate(sides):
                sign = -1 if i == giver else 1
                del side["resources"]["?"]
                for r in taken:
                    side["resources"][r] = side["resources"].get(r, 0) + sign
            out.append([player, action, sides])
        return out
    return [message]


def fillings(messages):
    """Every log the hidden values of `messages` may stand for (None: too many to try)."""
    choices = [_fillings(m) for m in messages]
    ways = 1
    for c in choices:
        ways *= len(c)
    if ways > MAX_WAYS:
        return None
    return [list(log) for log in itertools.product(*choices)]


def _partial_logs(seed, players, cut, hidden, mutation):
    rng = random.Random(seed)
    game = random_game(seed, players)[:cut]
    if mutation:
        # a build, a purchase or a card played again at once: it may or may not be legal,
        # by what the hidden values were
        again = [i for i, m in enumerate(game) if m[1] in ("BR", "BS", "BC", "BD", "PD") and i > 20]
        if again:
            i = rng.choice(again)
            game = game[: i + 1] + [game[i]] + game[i + 1 :]
    hideable = [i for i, m in enumerate(game) if hide(m, None) is not m or m[1] == "RD" or _discard(m)]
    for i in rng.sample(hideable, min(hidden, len(hideable))):
        m = game[i]
        game[i] = (
            [m[0], "RD", {"result": "?"}] if m[1] == "RD" else _hide_discard(m, rng) if _discard(m) else hide(m, None)
        )
    return game


def _discard(m):
    return (
        m[1] == "TR"
        and any(side["player"] == "B" for side in m[2])
        and all(all(n < 0 for n in side["resources"].values()) for side in m[2] if side["player"] != "B")
    )


def _hide_discard(m, rng):
    """A discard with some of its cards not shown (`?`), up to three of them."""
    side = next(s for s in m[2] if s["player"] != "B")
    cards = [r for r, n in sorted(side["resources"].items()) for _ in range(-n)]
    hidden = rng.randint(1, min(3, len(cards)))
    shown = cards[hidden:]
    mine = {r: -shown.count(r) for r in sorted(set(shown))}
    mine["?"] = -hidden
    return [
        m[0],
        "TR",
        [{"player": side["player"], "resources": mine}, {"player": "B", "resources": {r: -n for r, n in mine.items()}}],
    ]
