"""The bound on the ways the cards may lie (sgn/game/doubt.py, `bound`): past MAX_WORLDS,
worlds alike but for the holder in most doubt become one world spanning them. Each merged
world is the span of its group, computed here the plain way, whole world by whole world."""

import random

import pytest

from sgn.game.doubt import KINDS, MAX_WORLDS, Doubt, bound


def _plain_bound(holders, worlds):
    width = 2 * KINDS
    spread = [len({w[width * k : width * (k + 1)] for w in worlds}) for k in range(len(holders))]
    k = spread.index(max(spread))
    a, b = width * k, width * (k + 1)
    groups = {}
    for w in worlds:
        groups.setdefault(w[:a] + w[b:], []).append(w)

    def span(ws):
        columns = list(zip(*ws))
        return tuple(min(c) if i % 2 == 0 else max(c) for i, c in enumerate(columns))

    merged = {ws[0] if len(ws) == 1 else span(ws) for ws in groups.values()}
    return {span(list(merged))} if len(merged) > MAX_WORLDS else merged


def _world(rng, holders, spread):
    """Holder 1 in much doubt, the others in a little (three ways each): groups of many."""
    out = []
    for _ in range(KINDS):
        lo = rng.randrange(spread)
        out += [lo, lo + rng.randrange(2)]
    for k in range(1, holders):
        out += [(0, 0), (1, 1), (0, 2)][rng.randrange(3)] * KINDS
    return tuple(out)


@pytest.mark.parametrize("seed", range(4))
def test_merged_worlds_are_the_span_of_each_group(seed):
    rng = random.Random(seed)
    holders = ["1", "2", "B"]
    worlds = set()
    while len(worlds) <= MAX_WORLDS + 500:
        worlds.add(_world(rng, len(holders), 4 + seed))
    doubt = Doubt(list(holders), set(worlds))
    assert bound(doubt) and doubt.widened
    assert set(doubt.worlds) == _plain_bound(holders, worlds)
    assert len(set(doubt.worlds)) == len(doubt.worlds)  # (each world once)
    assert len(doubt.worlds) < len(worlds) / 10  # (groups of many worlds were merged)
    # (sound: every world before is inside one after)
    for w in list(worlds)[:300]:
        assert any(all(m[i] <= w[i] and w[i + 1] <= m[i + 1] for i in range(0, len(w), 2)) for m in doubt.worlds)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_worlds_are_never_repeated(players):
    """The worlds are a list without repeats (sgn/game/doubt.py): a move that may make two
    worlds alike drops the repeats, one that cannot keeps the list as it comes. After every
    line of spectators' views and of logs with every card hidden, each world is there once."""
    from sgn.game import Game
    from sgn.notation.redact import hide
    from sgn.play import random_game

    seen = 0
    for seed in range(3):
        whole = random_game(seed, players)
        view = [hide(m, None) for m in whole]
        for log in (view, [[m[0], "RD", {"result": "?"}] if m[1] == "RD" else m for m in view]):
            game = Game()
            for line, message in enumerate(log, 1):
                game.apply(message, line)
                d = game.unseen.doubt
                if d is not None:
                    assert len(set(d.worlds)) == len(d.worlds), (seed, line)
                    seen += len(d.worlds) > 1
    assert seen > 50
