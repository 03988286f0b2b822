"""Python's cyclic garbage collector is paused while a message is applied to a game whose
cards are in doubt (sgn/game/core.py, `Game.apply`; docs/performance.md, "Hidden cards"):
the worlds are thousands of tuples that hold no cycle. The pause must happen, must end
whatever the message does, and must leave a collector the caller turned off as it was."""

import gc

import pytest

from sgn.game import Game, MessageError
from sgn.notation.redact import hide
from sgn.play import random_game


def _every_card_hidden(game):
    """The spectator's view with every roll hidden too (bench/hidden_logs.py's)."""
    return [[m[0], "RD", {"result": "?"}] if m[1] == "RD" else hide(m, None) for m in game]


def _in_doubt_before_a_hidden_roll(least_worlds):
    """A game of every card hidden, just before a roll not seen, with at least
    `least_worlds` ways the cards may lie; and that roll."""
    for seed in range(40):
        log = _every_card_hidden(random_game(seed, 4))
        game = Game()
        for line, message in enumerate(log, 1):
            d = game.unseen.doubt
            if message[1] == "RD" and d is not None and d.ways() >= least_worlds:
                return game, message, line
            game.apply(message, line)
    raise AssertionError(f"no position with {least_worlds} ways in 40 games")


@pytest.fixture
def collections():
    started = []

    def count(phase, info):
        if phase == "start":
            started.append(info["generation"])

    gc.callbacks.append(count)
    yield started
    gc.callbacks.remove(count)


def test_no_collection_runs_while_a_message_in_doubt_is_applied(collections):
    game, roll, line = _in_doubt_before_a_hidden_roll(200)
    before = game.unseen.doubt.ways()
    threshold = gc.get_threshold()
    gc.set_threshold(100, 10, 10)  # (a collection every 100 objects made, were it not paused)
    try:
        assert gc.isenabled()
        collections.clear()
        game.apply(roll, line)
        assert not collections, "the collector ran while the worlds were remade"
        assert gc.isenabled()
        assert game.unseen.doubt is None or game.unseen.doubt.ways() + before > 200  # (the roll remade them)
    finally:
        gc.set_threshold(*threshold)


def test_the_pause_ends_when_the_message_cannot_be_applied():
    game, _, line = _in_doubt_before_a_hidden_roll(2)
    with pytest.raises(MessageError):
        game.apply(["1", "TR", "not a trade"], line)
    assert gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off():
    game, roll, line = _in_doubt_before_a_hidden_roll(2)
    gc.disable()
    try:
        game.apply(roll, line)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_game_without_doubt_leaves_the_collector_alone(collections):
    game = Game()
    threshold = gc.get_threshold()
    gc.set_threshold(50, 10, 10)
    collections.clear()
    try:
        for line, message in enumerate(random_game(3, 4), 1):
            game.apply(message, line)
        assert game.unseen.doubt is None and collections  # (it ran, unpaused)
    finally:
        gc.set_threshold(*threshold)
