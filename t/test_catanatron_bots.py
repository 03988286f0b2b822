"""The bridge to catanatron's own players (sgn/referee/catanatron_bots.py): its games legal under
catanatron's rules and the rulebook's, its decisions catanatron's (no fallback), a game it
cannot hold played plainly without a fault, and its decisions a function of what the seat is
given alone: the view and the request."""

import json
import random

import pytest

pytest.importorskip("catanatron", reason="catanatron is not installed (the extra 'test-engines')")

import sgn  # noqa: E402
from sgn.referee import catanatron_bots  # noqa: E402
from sgn.referee.bots import RandomBot  # noqa: E402
from sgn.referee.match import BotSpec, Settings, make_seat, run, schedule  # noqa: E402
from sgn.referee.referee import Referee  # noqa: E402
from sgn.referee.seats import InProcess  # noqa: E402


def play(bridge, rules, seed, seat=0, players=4, chance=None):
    """One game of the bridge at `seat` against sgn's random bots."""
    seats = [InProcess(f"random-{i}", RandomBot(seed=i)) for i in range(players)]
    seats[seat] = InProcess("bridge", bridge)
    referee = Referee(seats, game=f"c{seed}", seed=f"c{seed}", rules=rules, move_ms=600_000)
    if chance is not None:
        chance(referee.chance)
    record = referee.play()
    result = sgn.check(record.log, level="rules", rules=rules)
    assert result.verdict == "valid", [d.message for d in result.diagnostics if d.is_error][:3]
    assert not record.faults, record.faults
    return record


def available(name):
    try:
        catanatron_bots.player_class(name)
    except ImportError as error:
        pytest.skip(f"catanatron's {name} is not installed here: {error}")


@pytest.mark.parametrize("rules", ["catanatron", "standard"])
@pytest.mark.parametrize("kind", ["WeightedRandom", "VictoryPoint"])
def test_its_games_are_legal_and_catanatron_makes_every_decision(rules, kind):
    for game in range(2):
        bridge = getattr(catanatron_bots, kind)()
        record = play(bridge, rules, seed=game, seat=game * 3)
        assert record.how == "won"
        assert bridge.decisions > 20
        assert bridge.fallbacks == 0, bridge.errors
        assert bridge.unlisted == 0
        assert bridge.replica is not None and bridge.replica.refused == []


def test_the_value_function_player_beats_random_bots():
    available("ValueFunction")
    won = 0
    for game in range(4):
        bridge = catanatron_bots.ValueFunction()
        record = play(bridge, "catanatron", seed=10 + game, seat=game)
        won += record.winner == str(game + 1)
        assert bridge.fallbacks == 0, bridge.errors
    assert won >= 3


def test_the_match_loads_it_by_its_python_name():
    bots = [BotSpec("cat", "python:sgn.referee.catanatron_bots:WeightedRandom"), BotSpec("random", "builtin:random")]
    records = list(run(bots, schedule(bots, 4, 4), Settings(rules="catanatron", move_ms=600_000)))
    assert len(records) == 4
    for record in records:
        assert record.how == "won" and not record.faults
        assert sgn.check(record.log, level="rules", rules="catanatron").verdict == "valid"


def test_a_player_catanatron_does_not_have_is_a_bot_that_cannot_load():
    try:
        catanatron_bots.player_class("AlphaBeta")
    except ImportError as error:
        assert "catanatron_experimental" in str(error)
        with pytest.raises(ValueError, match="cannot load the bot"):
            make_seat(BotSpec("ab", "python:sgn.referee.catanatron_bots:AlphaBeta"))
    else:
        assert (
            make_seat(BotSpec("ab", "python:sgn.referee.catanatron_bots:AlphaBeta")).bot.name == "catanatron-AlphaBeta"
        )


def test_a_game_catanatron_cannot_hold_is_played_plainly_and_counted():
    """Five players, on the extension's board: no decision raises, each is a plain move."""
    bridge = catanatron_bots.Random()
    record = play(bridge, "standard", seed=3, players=5)
    assert record.how == "won"
    asked = bridge.decisions
    assert asked and 0 < bridge.fallbacks <= asked
    assert all("Unplayable" in error for error in bridge.errors)


class Spy:
    """A view that notes each attribute the bot reads of it."""

    def __init__(self, view, read):
        self.__dict__["_view"], self.__dict__["_read"] = view, read

    def __getattr__(self, name):
        self._read.add(name)
        return getattr(self._view, name)


class Watched:
    """The bridge, its view watched, each decision noted with what it was given."""

    def __init__(self, bridge):
        self.bridge, self.read, self.log = bridge, set(), []

    def new_game(self, view):
        self.bridge.new_game(Spy(view, self.read))

    def decide(self, view, request):
        given = json.dumps([view.events, {k: v for k, v in request.items() if k != "id"}], sort_keys=True)
        move = self.bridge.decide(Spy(view, self.read), request)
        self.log.append((len(view.events), given, json.dumps(move)))
        return move


class Given:
    """A view made of what a seat was given, and nothing else."""

    def __init__(self, info, events):
        self.info, self.seat, self.events = info, info["seat"], events


def test_its_decisions_depend_on_the_view_and_the_request_alone():
    """It reads no more of its view than the seat's events and the game's description, draws
    nothing from Python's global random that it does not put back, decides the same when
    given the same things afresh, and decides the same when a card it cannot see differs."""

    def other_steals(chance):  # the cards stolen between two others differ
        chance.steals = random.Random("another stream")

    compared = 0
    for seed in (3, 5):
        state = random.getstate()
        first = Watched(catanatron_bots.WeightedRandom())
        record = play(first, "catanatron", seed=seed, seat=3)
        assert random.getstate() == state
        assert first.read <= {"events", "info", "seat"}, first.read

        again = catanatron_bots.WeightedRandom()  # the same things given afresh: the same moves
        info = {"type": "game", "game": f"c{seed}", "seat": "4", "players": 4, "rules": "catanatron"}
        again.new_game(Given(info, []))
        for _, given, move in first.log:
            events, request = json.loads(given)
            assert json.dumps(again.decide(Given(info, events), {"id": 0, **request})) == move

        second = Watched(catanatron_bots.WeightedRandom())
        other = play(second, "catanatron", seed=seed, seat=3, chance=other_steals)
        differs = next(i for i, (a, b) in enumerate(zip(record.log, other.log)) if a != b) + 1
        for (seen, given, move), (_, given_second, move_second) in zip(first.log, second.log):
            if given != given_second:
                break  # (the seat sees the difference from here)
            assert move == move_second
            compared += seen >= differs
    assert compared >= 3  # (decisions taken while the game differed where the seat cannot see)
