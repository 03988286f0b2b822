"""What a match's round trips may save, and what they may not change (docs/protocol.md,
docs/performance.md, "Playing"): a bot that says it never offers a trade is not asked the end
of a turn it has no other move for, and nothing else of its games changes; a program's reply
looked for before the referee sleeps on it (`Program._spin`) gives the same games and the
same faults as one waited for."""

import json
import subprocess
import sys
import textwrap

import pytest

import sgn
from conftest import CHECKOUT
from sgn.referee import match
from sgn.referee.bots import GreedyBot, RandomBot
from sgn.referee.match import BotSpec, Settings, run, schedule
from sgn.referee.protocol import Offer
from sgn.referee.referee import Referee
from sgn.referee.seats import InProcess
from test_play import Recording, _faulty_bot

BOT_PY = CHECKOUT / "examples" / "bots" / "random_bot.py"


class FirstMove:
    """The first listed move, always: its choices do not depend on how often it is asked."""

    def __init__(self, seed=0):
        pass

    def decide(self, view, request):
        return request["moves"][0] if request["moves"] else None


class NeverOffers(FirstMove):
    offers = False


class OffersOnceSaidItNever(NeverOffers):
    def decide(self, view, request):
        if request["kind"] == "turn" and request["hand"]:
            give = sorted(request["hand"])[0]
            return Offer({give: 1}, {"O" if give != "O" else "L": 1}, [])
        return super().decide(view, request)


def _played(cls, seed="o"):
    shared = []
    seats = [Recording(InProcess(f"b{i}", cls()), shared, str(i + 1)) for i in range(4)]
    record = Referee(seats, game=seed, seed=seed, max_turns=60).play()
    return record, [json.loads(m) for _, m in shared if json.loads(m)["type"] == "request"]


@pytest.mark.parametrize("seed", ["o1", "o2", "o3"])
def test_a_bot_that_never_offers_is_asked_less_and_plays_the_same_game(seed):
    said, asked_less = _played(NeverOffers, seed)
    unsaid, asked = _played(FirstMove, seed)
    assert said.log == unsaid.log and sgn.check(said.log, level="rules").errors == 0
    ones = [r for r in asked if r["kind"] == "turn" and len(r["moves"]) == 1]
    assert ones and all(r["hand"] for r in ones)  # (asked: it might have offered a trade)
    assert not [r for r in asked_less if r["kind"] == "turn" and len(r["moves"]) == 1]
    assert len(asked_less) == len(asked) - len(ones)
    assert all("offers_left" not in r for r in asked_less)
    assert all("offers_left" in r for r in asked if r["kind"] == "turn")


def test_an_offer_from_a_bot_that_said_it_never_offers_is_illegal():
    shared = []
    seats = [Recording(InProcess("liar", OffersOnceSaidItNever()), shared, "1")]
    seats += [Recording(InProcess(f"b{i}", FirstMove()), shared, str(i + 2)) for i in range(3)]
    record = Referee(seats, game="x", seed="x", max_turns=60).play()
    assert record.how == "forfeited" and record.forfeited == "1"
    (fault,) = record.faults
    assert fault[:2] == ("1", "illegal") and "never offers" in fault[2]


def _hello_bot(tmp_path, offers):
    path = tmp_path / "hello.py"
    path.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "hello":
                    print(json.dumps({{"type": "hello", "name": "h", "protocol": 1, "offers": {offers}}}), flush=True)
                elif m["type"] == "request":
                    kind = "one-move turn" if m["kind"] == "turn" and len(m["moves"]) == 1 else "other"
                    sys.stderr.write(kind + "\\n")
                    print(json.dumps({{"type": "reply", "id": m["id"], "move": m["moves"][0]}}), flush=True)
            """
        )
    )
    return BotSpec("h", f"{sys.executable} {path}")


@pytest.mark.parametrize("offers, fault", [("False", None), ("True", None), ("'no'", "garbage"), ("0", "garbage")])
def test_a_program_s_hello_says_whether_it_offers(tmp_path, offers, fault):
    program = match.make_seat(_hello_bot(tmp_path, offers))
    try:
        if fault is not None:
            started = program.start({"type": "game", "game": "g", "seat": "1", "players": 4, "rules": "standard"})
            assert started is not None and started.kind == fault and "offers" in started.detail
            return
        shared = []
        seats = [Recording(program, shared, "1")]
        seats += [Recording(InProcess(f"b{i}", FirstMove()), shared, str(i + 2)) for i in range(3)]
        record = Referee(seats, game="p", seed="p", max_turns=40, move_ms=600_000).play()
    finally:
        program.close()
    assert not record.faults and program.offers == (offers == "True")
    asked = [json.loads(m) for s, m in shared if s == "1" and json.loads(m)["type"] == "request"]
    assert asked and bool([r for r in asked if r["kind"] == "turn" and len(r["moves"]) == 1]) == (offers == "True")


@pytest.mark.parametrize("spin", [0.0, 0.05])
def test_replies_looked_for_before_sleeping_give_the_same_games(monkeypatch, spin):
    """The example bot, its replies waited for (no core to spare) or looked for 50 ms before
    the referee sleeps: the same games, byte for byte, as the in-process bots' seeds make them."""
    bots = [BotSpec("py", f"{sys.executable} {BOT_PY}"), BotSpec.parse("random")]
    jobs = schedule(bots, 4, 4)
    monkeypatch.setattr(match, "spin_for", lambda jobs: 0.0)
    waited = [r.log for r in run(bots, jobs, Settings(seed=4, move_ms=600_000))]
    monkeypatch.setattr(match, "spin_for", lambda jobs: spin)
    looked = list(run(bots, jobs, Settings(seed=4, move_ms=600_000)))
    assert [r.log for r in looked] == waited and not any(r.faults for r in looked)


@pytest.mark.parametrize("fault", ["crashes", "floods", "garbage", "sleeps"])
def test_a_fault_while_the_reply_is_looked_for_is_the_same_fault(monkeypatch, tmp_path, fault):
    """Replies looked for 5 seconds before sleeping (longer than any of these faults takes to
    show): a crash, a flood, garbage and a timeout are each still that fault, and the
    timeout comes at its deadline, not after the looking."""
    monkeypatch.setattr(match, "spin_for", lambda jobs: 5.0)
    kind = {"sleeps": "timeout", "crashes": "crash", "floods": "flood"}.get(fault, "garbage")
    bots = [BotSpec.parse(_faulty_bot(tmp_path, fault)), BotSpec.parse("random")]
    deadline = 300 if fault == "sleeps" else 600_000
    (record,) = list(run(bots, schedule(bots, 4, 1)[:1], Settings(seed=1, move_ms=deadline)))
    assert [f[1] for f in record.faults] == [kind] and record.how in ("forfeited", "time")
    assert fault == "sleeps" or "misbehaving now" in "".join(record.stderr.values())
    assert max(record.seconds.values()) < 5.0


def test_replies_are_looked_for_only_where_a_core_is_free(monkeypatch):
    monkeypatch.setattr(match.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert match.spin_for(1) > 0 and match.spin_for(2) == 0.0
    monkeypatch.setattr(match.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert match.spin_for(1) == 0.0


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_python_bot_s_events_read_at_the_end_are_what_it_was_told_when_told(players):
    """A Python bot's events are copied when it first reads them, not when told: what it
    reads after the game is, byte for byte, what each line was when it was told, though the
    referee went on playing with its own messages."""
    for seed in range(3):
        shared = []
        bots = [GreedyBot, RandomBot] * 3
        seats = [Recording(InProcess(f"b{i}", bots[i](seed=i)), shared, str(i + 1)) for i in range(players)]
        Referee(seats, game=f"e{seed}", seed=f"e{seed}").play()
        for seat in seats:
            told = [json.loads(m)["message"] for name, m in shared if name == seat.name and '"type": "event"' in m]
            read = seat.seat.view.events
            assert len(read) == len(told) > 20
            assert [json.dumps(e, sort_keys=True) for e in read] == [json.dumps(e, sort_keys=True) for e in told]


def test_hide_changes_only_the_actions_the_referee_tells_apart():
    """The referee writes one event for every seat where the action is none of `HIDES`: so
    `hide` must give every seat the message itself for every other action."""
    from sgn.notation.redact import HIDES, hide

    seen = set()
    bots = [BotSpec.parse("random"), BotSpec.parse("greedy")]
    for players in (3, 4, 5, 6):
        for record in run(bots, schedule(bots, players, 2), Settings(players=players, seed=players)):
            for m in record.log:
                seen.add(m[1])
                for seat in [None, *map(str, range(1, 7))]:
                    assert m[1] in HIDES or hide(m, seat) is m
    assert len(seen - HIDES) >= 8 and seen >= HIDES


class _Watching:
    """One of sgn's own bots, watched: fails the test where it changes a request it is given."""

    def __init__(self, bot):
        self.bot = bot

    def new_game(self, view):
        self.bot.new_game(view)

    def decide(self, view, request):
        before = json.dumps(request, sort_keys=True)
        chosen = self.bot.decide(view, request)
        assert json.dumps(request, sort_keys=True) == before
        return chosen


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_sgn_s_own_bots_given_the_request_itself_play_the_same_games(players):
    """The builtin bots are trusted with the referee's own request (no copy): they change
    nothing in it, and their games are those they play given copies, byte for byte."""
    for seed in range(2):
        logs = []
        for trusted in (True, False):
            bots = [GreedyBot, RandomBot] * 3
            seats = [InProcess(f"b{i}", _Watching(bots[i](seed=i)), trusted=trusted) for i in range(players)]
            logs.append(Referee(seats, game=f"t{seed}", seed=f"t{seed}").play().log)
        assert logs[0] == logs[1] and len(logs[0]) > 100


def test_a_python_bot_that_swallows_the_stop_is_stopped_again(tmp_path):
    """The stop of a Python bot past its deadline is an exception, which Python swallows when
    it falls in a garbage collector's callback, and which a bot may catch: it is raised
    again until the bot stops. (In a process of its own, with a limit: a lost stop hangs.)"""
    script = tmp_path / "swallow.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, time
            from sgn.referee.bots import RandomBot
            from sgn.referee.referee import Referee
            from sgn.referee.seats import InProcess

            class Swallows(RandomBot):
                def decide(self, view, request):
                    if request["kind"] == "turn":
                        try:
                            while True:
                                time.sleep(0.01)
                        except BaseException:
                            pass  # (the first stop swallowed)
                        while True:
                            time.sleep(0.01)
                    return super().decide(view, request)

            seats = [InProcess("s", Swallows(seed=0))] + [InProcess(f"r{i}", RandomBot(seed=i)) for i in range(3)]
            record = Referee(seats, game="g", seed="g", move_ms=100).play()
            print(json.dumps([record.how, record.forfeited, [f[1] for f in record.faults]]))
            """
        )
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=CHECKOUT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.splitlines()[-1]) == ["time", "1", ["timeout"]]
