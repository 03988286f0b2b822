"""The referee and `sgn play` (docs/play.md, docs/protocol.md): every game legal, the same
seed giving the same bytes, a seat told nothing it may not see, a faulty bot costing only its
own games, trades between players, and the command's outputs."""

import json
import os
import random
import shutil
import sys
import textwrap

import pytest

import sgn
from conftest import CHECKOUT, run_cli as run_bytes
from sgn.notation.redact import hide
from sgn.referee.bots import GreedyBot, RandomBot
from sgn.referee.match import BotSpec, Settings, run, schedule
from sgn.referee.referee import Chance, Referee
from sgn.referee.seats import InProcess
from sgn.referee.summary import ranks, summarise, wilson


def run_cli(*args):
    """`sgn ARGS`, its output as text."""
    done = run_bytes(*args)
    done.stdout, done.stderr = done.stdout.decode(), done.stderr.decode()
    return done


BOT_JS = CHECKOUT / "examples" / "bots" / "random_bot.js"
BOT_PY = CHECKOUT / "examples" / "bots" / "random_bot.py"


class Recording:
    """A seat that keeps, in one list shared by all seats, every message it is sent."""

    def __init__(self, seat, shared, name):
        self.seat, self.shared, self.name = seat, shared, name

    def start(self, info):
        self.shared.append((self.name, json.dumps(info, sort_keys=True)))
        return self.seat.start(info)

    def tell(self, messages):
        self.shared.extend((self.name, json.dumps(m, sort_keys=True)) for m in messages)
        self.seat.tell(messages)

    def ask(self, request, offers):
        self.shared.append((self.name, json.dumps(request, sort_keys=True)))
        return self.seat.ask(request, offers)

    @property
    def offers(self):
        return self.seat.offers

    stderr = ""

    def close(self):
        pass


def recorded_game(seed, players=4, chance=None, bots=None):
    shared = []
    seats = [Recording(InProcess(f"b{i}", (bots or RandomBot)(seed=i)), shared, str(i + 1)) for i in range(players)]
    referee = Referee(seats, game=f"g{seed}", seed=f"s{seed}")
    if chance is not None:
        referee.chance = chance(referee)
    return referee.play(), shared


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_games_are_legal_and_the_same_seed_gives_the_same_bytes(players):
    for seed in range(2):
        first, told = recorded_game(seed, players)
        again, told_again = recorded_game(seed, players)
        assert first.log == again.log and told == told_again
        result = sgn.check(first.log, level="rules")
        assert result.verdict == "valid" and first.how == "won"
        assert result.games[0]["winner"] == first.winner and first.points[first.winner] >= 10


def test_each_seat_is_told_the_log_as_it_sees_it_and_nothing_else():
    record, told = recorded_game(3, 4)
    for seat in "1234":
        events = [json.loads(m) for name, m in told if name == seat and json.loads(m)["type"] == "event"]
        assert record.log[0][1] == "HD"  # (line 1, the header, is written once the game is over: not told)
        assert [e["message"] for e in events] == [hide(m, seat) for m in record.log[1:]]
        assert [e["line"] for e in events] == list(range(2, len(record.log) + 1))
        for m in record.log:
            if m[1] == "BD" and m[0] != seat or (m[1] == "ST" and seat not in (m[0], m[2][1]["player"])):
                assert hide(m, seat) != m  # (the redaction did hide it)
        requests = [json.loads(m) for name, m in told if name == seat and json.loads(m)["type"] == "request"]
        assert requests and all(r["seat"] == seat for r in requests)
    assert any(m[1] == "BD" for m in record.log) and any(m[1] == "ST" for m in record.log)


def _first_private_decision(told, holders):
    """The index in the shared stream of the first request to a seat in `holders` (a seat
    whose own hidden cards differ between the runs): from there, its choices may differ."""
    return next(
        (i for i, (name, m) in enumerate(told) if name in holders and json.loads(m)["type"] == "request"),
        len(told),
    )


def test_the_undrawn_deck_s_order_reaches_no_other_seat():
    """The hidden-state mutation test: the deck's order past its 3rd card changed, every byte
    another seat receives is the same until a seat that drew a changed card decides."""
    checked = 0
    for seed in range(6):
        first, told = recorded_game(seed, 4)
        draws = [m for m in first.log if m[1] == "BD"]
        if len(draws) < 6:
            continue

        class Reordered(Chance):
            def deal(self, deck):
                super().deal(deck)
                self.order[3:] = self.order[3:][::-1]

        def reordered(referee):
            return Reordered(referee.seed)

        second, told_second = recorded_game(seed, 4, chance=reordered)
        for watcher in "1234":
            holders = {m[0] for m in draws[3:]} - {watcher}
            # the stream until the first decision by a seat that drew a changed card, or the watcher's own draw
            end = min(_first_private_decision(told, holders), _first_private_decision(told_second, holders))
            own = next(
                (
                    i
                    for i, (n, m) in enumerate(told)
                    if n == watcher and '"BD"' in m and watcher in m and '"?"' not in m
                ),
                len(told),
            )
            end = min(end, own)
            mine = [m for n, m in told[:end] if n == watcher]
            mine_second = [m for n, m in told_second[:end] if n == watcher]
            assert mine == mine_second
            checked += any('"BD"' in m for m in mine[-50:]) or len(mine) > 0
    assert checked


def test_a_steal_s_card_reaches_only_thief_and_victim():
    checked = 0
    for seed in range(4):
        first, told = recorded_game(seed, 4)
        steals = [(i, m) for i, m in enumerate(first.log) if m[1] == "ST"]
        if not steals:
            continue

        def other_steals(referee):
            chance = Chance(referee.seed)
            chance.steals = random.Random("another stream")
            return chance

        second, told_second = recorded_game(seed, 4, chance=other_steals)
        _, st = steals[0]
        pair = {st[0], st[2][1]["player"]}
        for watcher in set("1234") - pair:
            end = min(_first_private_decision(told, pair), _first_private_decision(told_second, pair))
            # (only the stream after the first steal says anything: find the first steal's event)
            mine = [m for n, m in told[:end] if n == watcher]
            assert mine == [m for n, m in told_second[:end] if n == watcher]
            checked += 1
    assert checked


def test_discards_are_chosen_before_any_is_shown():
    class Watching(RandomBot):
        def decide(self, view, request):
            if request["kind"] == "discard":
                since = [m for m in view.events[::-1]][
                    : next(i for i, m in enumerate(view.events[::-1]) if m[1] == "RD")
                ]
                assert not any(m[1] == "TR" for m in since), "a discard was shown before all were chosen"
                Watching.asked += 1
            return super().decide(view, request)

    Watching.asked = 0
    for seed in range(6):
        recorded_game(seed, 4, bots=Watching)
    assert Watching.asked > 2


def test_trades_between_players_are_offered_answered_confirmed_and_legal():
    trades = 0
    for seed in range(4):
        record, told = recorded_game(seed, 4, bots=lambda seed: RandomBot(seed, offers=0.5))
        kinds = {json.loads(m).get("kind") for _, m in told}
        assert {"trade-response", "trade-confirm"} <= kinds
        trades += sum(1 for m in record.log if m[1] == "TR" and all(s["player"] != "B" for s in m[2]))
        assert sgn.check(record.log, level="rules").verdict == "valid"
    assert trades > 3


def test_jobs_give_the_same_games_byte_for_byte():
    bots = [BotSpec.parse("random"), BotSpec.parse("greedy")]
    jobs = schedule(bots, 4, 8)
    one = list(run(bots, jobs, Settings(seed=5)))
    two = list(run(bots, jobs, Settings(seed=5), jobs=2))
    assert [r.log for r in one] == [r.log for r in two]
    # each board is played in every seating: the same map for the 4 rotations of a deal
    assert one[0].log[1] == one[3].log[1] != one[4].log[1]  # (the map, after the header)
    assert [r.bots for r in one[:4]] == [
        ["random", "greedy", "random", "greedy"],
        ["greedy", "random", "greedy", "random"],
    ] * 2


FAULTY = {
    "sleeps": "import time; time.sleep(30)",
    "crashes": "raise SystemExit(3)",
    "floods": "print('x' * 3_000_000, flush=True)",
    "garbage": "print('hello there', flush=True)",
    "illegal": "print(json.dumps({'type': 'reply', 'id': m['id'], 'move': ['1', 'RD', {'result': 13}]}), flush=True)",
    "wrong-id": "print(json.dumps({'type': 'reply', 'id': -1, 'move': m['moves'][0]}), flush=True)",
}


def _faulty_bot(tmp_path, name, after=20):
    path = tmp_path / f"{name}.py"
    path.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            asked = 0
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "hello":
                    print(json.dumps({{"type": "hello", "name": "{name}", "protocol": 1}}), flush=True)
                elif m["type"] == "request":
                    asked += 1
                    if asked > {after}:
                        sys.stderr.write("misbehaving now\\n")
                        {FAULTY[name]}
                    else:
                        print(json.dumps({{"type": "reply", "id": m["id"], "move": m["moves"][0]}}), flush=True)
            """
        )
    )
    return f"{name}={sys.executable} {path}"


@pytest.mark.parametrize("fault", sorted(FAULTY))
def test_a_faulty_bot_costs_only_its_own_games(tmp_path, fault):
    kind = {"sleeps": "timeout", "crashes": "crash", "floods": "flood", "illegal": "illegal"}.get(fault, "garbage")
    bots = [BotSpec.parse(_faulty_bot(tmp_path, fault)), BotSpec.parse("random")]
    for on_fault in ("forfeit", "replace"):
        deadline = 300 if fault == "sleeps" else 600_000  # (no test may hang on the machine's speed)
        records = list(run(bots, schedule(bots, 4, 4), Settings(seed=1, move_ms=deadline, on_fault=on_fault)))
        assert len(records) == 4
        for r in records:
            faulted = {f[0] for f in r.faults}
            assert {f[1] for f in r.faults} == {kind}, r.faults
            assert all(r.bots[int(s) - 1] == fault for s in faulted)
            if on_fault == "forfeit":
                assert r.how == ("time" if kind == "timeout" else "forfeited") and len(r.faults) == 1
                assert r.bots[int(r.forfeited) - 1] == fault and r.log[0][2]["result"]["forfeited"] == [r.forfeited]
                assert ranks(r)[r.forfeited] == 4
            else:
                assert r.how in ("won", "turn-limit")
            assert sgn.check(r.log, level="rules").errors == 0
            if fault != "sleeps":
                assert "misbehaving now" in "".join(r.stderr.values())


def _node():
    if shutil.which("node"):
        return True
    if os.environ.get("SGN_EXPECT_NODE") == "1":
        pytest.fail("node is expected (SGN_EXPECT_NODE=1) and not found")
    pytest.skip("node is not installed: the JavaScript bot cannot run (CI installs it)")


def _summary_of(*bots):
    """`sgn play` of these bots, programs given a deadline no machine's load reaches: its summary."""
    out = run_cli("play", *bots, "-o", "json", "--move-time", "600000")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_bots_in_another_language_play_through_the_protocol():
    _node()
    summary = _summary_of("--bot", f"js=node {BOT_JS}", "--bot", f"py={sys.executable} {BOT_PY}", "--games", "4")
    assert summary["games"] == 4 and summary["how"] == {"won": 4}
    assert set(summary["bots"]) == {"js", "py"} and not any(b["faults"] for b in summary["bots"].values())


def test_the_compliance_check_passes_a_good_bot_and_names_a_bad_one(tmp_path):
    _node()
    good = run_cli("play", "--check", f"js=node {BOT_JS}", "-o", "json", "--move-time", "600000")
    assert good.returncode == 0, good.stdout
    report = json.loads(good.stdout)
    assert report["compliant"] and not report["unmet"]
    assert all(report["requests"][k]["asked"] for k in report["requests"] if k != "trade-confirm")
    bad = run_cli("play", "--check", _faulty_bot(tmp_path, "illegal", after=30), "--move-time", "600000")
    assert bad.returncode == 1 and "NOT compliant" in bad.stdout and "illegal" in bad.stdout


def test_the_command_writes_results_and_resumes(tmp_path):
    out_dir = tmp_path / "match"
    args = ["play", "--bot", "random", "--bot", "g=builtin:greedy", "--games", "8", "--out", str(out_dir)]
    first = run_cli(*args, "--results", str(tmp_path / "r.csv"), "--sprt", "g,random")
    assert first.returncode == 0, first.stderr
    assert "SPRT g vs random" in first.stdout and "ratings (Plackett-Luce)" in first.stdout
    lines = (tmp_path / "r.csv").read_text().splitlines()
    assert lines[0].startswith("game,seat,bot,points,rank,won") and len(lines) == 1 + 8 * 4
    games = sorted(out_dir.glob("game-*.sgn"))
    assert len(games) == 8 and run_cli("validate", "--level", "rules", *map(str, games)).returncode == 0
    # an interrupted match: its last game lost; run again, only that one is played
    results = (out_dir / "results.jsonl").read_text().splitlines()
    (out_dir / "results.jsonl").write_text("\n".join(results[:-1]) + "\n")
    again = run_cli(*args, "-o", "json")
    assert again.returncode == 0 and "7 of 8 games already" in again.stderr
    assert json.loads(again.stdout)["games"] == 8
    assert first.stdout.splitlines()[0] == "8 games (8 won)" or first.stdout.startswith("8 games")
    other = run_cli("play", "--bot", "random", "--bot", "greedy", "--games", "4", "--seed", "9", "--out", str(out_dir))
    assert other.returncode == 2 and "another match" in other.stderr


@pytest.mark.parametrize(
    "args, said",
    [
        ([], "name the bots"),
        (["--bot", "nobody"], "NAME=COMMAND"),
        (["--bot", "a=builtin:genius"], "no builtin bot"),
        (["--bot", "a=random", "--bot", "a=greedy"], "named 'a'"),
        (["--bot", "random", "--sprt", "random,x"], "--sprt takes two"),
        (["--bot", "random", "--results", "r.txt"], ".json, .csv or .parquet"),
        (["--bot", "a=python:no.such.module:Bot"], "cannot load"),
        (["--bot", "random", "--bot-option", "random:depth=3"], "takes no such option"),
        (["--bot", "random", "--bot-option", "nobody:x=1"], "NAME one of the bots"),
        (["--bot", "random", "--bot-option", "random:x"], "NAME:KEY=VALUE"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args, said):
    out = run_cli("play", *args)
    assert out.returncode == 2 and said in out.stderr and "Traceback" not in out.stderr
    assert "internal error" not in out.stderr and len(out.stderr.splitlines()) == 1


def test_a_program_that_cannot_start_is_a_fault_not_a_crash():
    out = run_cli("play", "--bot", "x=/no/such/program", "--bot", "random", "--games", "4", "-o", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["bots"]["x"]["faults"] == {"crash": 4}


def test_the_summary_s_figures():
    low, high = wilson(0, 10)
    assert low == 0 and 0.27 < high < 0.31  # (the rule of three's neighbour)
    low, high = wilson(50, 100)
    assert abs((low + high) / 2 - 0.5) < 1e-9 and 0.40 < low < 0.41
    bots = [BotSpec.parse("random"), BotSpec.parse("greedy")]
    records = list(run(bots, schedule(bots, 4, 8), Settings(seed=2)))
    summary = summarise(records, sprt=("greedy", "random"))
    assert summary["bots"]["greedy"]["seats"] == 16 and sum(b["wins"] for b in summary["bots"].values()) == 8
    assert set(summary["ratings"]) == {"random", "greedy"} and summary["sprt"]["games"] == 8
    for bot in summary["bots"].values():  # (each seat of each bot: the rotation gives each the same share)
        assert sum(v["games"] for v in bot["by_seat"].values()) == bot["seats"]
        assert sum(v["wins"] for v in bot["by_seat"].values()) == bot["wins"]
        assert len({v["games"] for v in bot["by_seat"].values()}) == 1 and set(bot["by_seat"]) == {"1", "2", "3", "4"}


def test_the_summary_without_openskill_says_how_to_have_ratings(monkeypatch):
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    bots = [BotSpec.parse("random"), BotSpec.parse("greedy")]
    records = list(run(bots, schedule(bots, 4, 4), Settings(seed=2)))
    assert summarise(records)["ratings"] is None


def test_the_greedy_bot_beats_the_random_one():
    bots = [BotSpec.parse("random"), BotSpec.parse("greedy")]
    summary = summarise(list(run(bots, schedule(bots, 4, 24), Settings(seed=3))))
    assert summary["bots"]["greedy"]["win_interval"][0] > summary["bots"]["random"]["win_rate"]


def test_a_python_class_bot_by_its_module(tmp_path, monkeypatch):
    (tmp_path / "mybot.py").write_text("from sgn.referee.bots import GreedyBot as Bot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    bots = [BotSpec.parse("mine=python:mybot:Bot"), BotSpec.parse("random")]
    records = list(run(bots, schedule(bots, 4, 4), Settings(seed=4)))
    assert all(not r.faults for r in records) and GreedyBot


def _blocks(doc, fence):
    import re

    text = (CHECKOUT / "docs" / doc).read_text(encoding="utf-8")
    return re.findall(rf"^```{fence}\n(.*?)^```", text, re.M | re.S)


def test_the_match_of_the_docs_prints_what_they_show():
    """docs/play.md's command and its output, as shown (the time per move aside)."""
    (command,) = [b for b in _blocks("play.md", "sh") if b.startswith("sgn play")]
    text = (CHECKOUT / "docs" / "play.md").read_text(encoding="utf-8")
    shown = text[text.index("```\n40 games") + 4 :].split("```")[0]
    out = run_cli(*command.split()[1:])

    def timeless(text):
        import re

        return [re.sub(r"\s+\d+\.\d\d(\s+(none|\d+ \w+))$", r" \1", line) for line in text.splitlines()]

    assert out.returncode == 0 and timeless(out.stdout) == timeless(shown)


def test_the_bot_of_the_docs_in_20_lines_plays_as_written(tmp_path):
    (bot,) = [b for b in _blocks("play.md", "python") if "sys.stdin" in b]
    assert len(bot.splitlines()) <= 20
    (tmp_path / "bot.py").write_text(bot)
    summary = _summary_of("--bot", f"doc={sys.executable} {tmp_path / 'bot.py'}", "--bot", "random")
    assert summary["games"] == 4 and summary["bots"]["doc"]["faults"] == {}


def test_a_tournament_on_a_dask_cluster_plays_the_same_games():
    pytest.importorskip("distributed", reason="dask[distributed] is not installed (the extra 'dask')")
    bots = [BotSpec.parse("random"), BotSpec.parse("greedy")]
    jobs = schedule(bots, 4, 8)
    here = list(run(bots, jobs, Settings(seed=11)))
    there = list(run(bots, jobs, Settings(seed=11), dask="local:2"))
    assert [r.log for r in there] == [r.log for r in here] and [r.winner for r in there] == [r.winner for r in here]


def test_an_unreachable_cluster_is_one_line_and_exit_2():
    pytest.importorskip("distributed", reason="dask[distributed] is not installed (the extra 'dask')")
    out = run_cli("play", "--bot", "random", "--dask", "tcp://")
    assert out.returncode == 2 and "--dask" in out.stderr and "Traceback" not in out.stderr


def test_a_reply_is_read_as_json_is_meant_keys_in_any_order_types_exact():
    from sgn.referee.protocol import Fault, read_reply

    trade = [
        "1",
        "TR",
        [{"player": "1", "resources": {"B": -4, "O": 1}}, {"player": "B", "resources": {"B": 4, "O": -1}}],
    ]
    moves = [trade, ["1", "RD", {"result": "?"}], None]
    reordered = [
        "1",
        "TR",
        [{"resources": {"O": 1, "B": -4}, "player": "1"}, {"resources": {"O": -1, "B": 4}, "player": "B"}],
    ]
    assert read_reply({"type": "reply", "id": 3, "move": reordered}, 3, moves, False) is trade
    assert read_reply({"type": "reply", "id": 3, "move": None}, 3, moves, False) is None
    floats = [
        "1",
        "TR",
        [{"player": "1", "resources": {"B": -4.0, "O": 1}}, {"player": "B", "resources": {"B": 4, "O": -1}}],
    ]
    for wrong in (floats, ["1", "RD", {"result": "?", "x": 1}], "RD"):
        assert read_reply({"type": "reply", "id": 3, "move": wrong}, 3, moves, False).kind == "illegal"
    assert read_reply({"type": "reply", "id": 4, "move": trade}, 3, moves, False) == Fault(
        "garbage", "the reply answers request 4, not request 3"
    )
    assert (
        read_reply({"type": "reply", "id": 3, "offer": {"give": {"B": 1}, "get": {"O": 1}}}, 3, moves, False).kind
        == "illegal"
    )
    assert read_reply([], 3, moves, True).kind == "garbage"
    for offer in (
        {"give": {"B": 1}},
        {"give": {"B": 0}, "get": {"O": 1}},
        {"give": {"B": 1}, "get": {"B": 1}},
        {"give": {"X": 1}, "get": {"O": 1}},
        {"give": {"B": True}, "get": {"O": 1}},
        {"give": {"B": 1}, "get": {"O": 1}, "to": "2"},
    ):
        assert read_reply({"type": "reply", "id": 3, "offer": offer}, 3, moves, True).kind == "illegal", offer


def test_a_python_bot_that_changes_what_it_is_given_changes_nothing_else():
    class Vandal(RandomBot):
        def decide(self, view, request):
            move = super().decide(view, request)
            move = json.loads(json.dumps(move)) if isinstance(move, list) else move
            for m in request["moves"]:
                if isinstance(m, list):
                    m[0] = "9"  # (its own copy)
            view.events.clear()
            return move

    record, _ = recorded_game(2, 4, bots=Vandal)
    assert record.how == "won" and not record.faults


def test_a_decision_with_one_move_is_made_by_the_referee_unless_asked_for():
    def requests(ask_forced):
        shared = []
        seats = [Recording(InProcess(f"b{i}", RandomBot(seed=i)), shared, str(i + 1)) for i in range(4)]
        record = Referee(seats, game="f", seed="f", ask_forced=ask_forced).play()
        assert sgn.check(record.log, level="rules").verdict == "valid"
        return [json.loads(m) for _, m in shared if json.loads(m)["type"] == "request"]

    asked = requests(False)
    single = [r for r in asked if len(r["moves"]) == 1]
    assert single and all(r["kind"] == "turn" and r["hand"] for r in single)  # (it may offer a trade)
    everything = requests(True)
    assert {r["kind"] for r in everything if len(r["moves"]) == 1} >= {"roll", "turn"}
    assert len(everything) > len(asked)


def test_the_page_shows_the_match_and_runs_nothing_a_bot_names(tmp_path):
    out = run_cli(
        "play",
        "--bot",
        "random",
        "--bot",
        '<script>alert("x")</script>=builtin:greedy',
        "--games",
        "4",
        "--out",
        str(tmp_path / "m"),
        "--page",
        str(tmp_path / "p" / "match.html"),
    )
    assert out.returncode == 0, out.stderr
    text = (tmp_path / "p" / "match.html").read_text()
    assert "<script" not in text and "4 games" in text and 'href="../m/game-00001.sgn"' in text
    assert text.count("<tr><td>") >= 2 + 8 + 4 + 4  # the bots, each in each seat, the seats, the games


def test_games_start_from_the_openings_given(tmp_path):
    from sgn.play import random_game
    from sgn.referee.openings import read_openings

    games = [random_game(21, 4), random_game(22, 4)]
    path = tmp_path / "book.sgn"
    path.write_text("".join(json.dumps(m) + "\n" for g in games for m in g))
    openings = read_openings(str(path), 4, "standard")
    assert [len(o) for o in openings] == [next(i for i, m in enumerate(g) if m[1] == "RD") for g in games]
    bots = [BotSpec.parse("random"), BotSpec.parse("greedy")]
    records = list(run(bots, schedule(bots, 4, 8), Settings(seed=1, openings=tuple(openings))))
    for r, job in zip(records, schedule(bots, 4, 8)):
        start = [json.loads(line) for line in openings[job.deal % 2]]
        assert r.log[1 : len(start) + 1] == start and sgn.check(r.log, level="rules").verdict == "valid"
    # cut later, with development cards already bought: the deck deals what is left
    later = read_openings(str(path), 4, "standard", lines=200)
    records = list(run(bots, schedule(bots, 4, 4), Settings(seed=1, openings=tuple(later))))
    assert all(sgn.check(r.log, level="rules").verdict == "valid" for r in records)


@pytest.mark.parametrize(
    "content, said",
    [
        ('["1","RD",{"result":8}]\n', "starts with its map"),
        ("not json\n", "not an SGN message"),
        ("[" * 100_000 + "\n", "not an SGN message"),
        ("", "holds no game"),
    ],
)
def test_openings_that_cannot_be_played_are_one_line_and_exit_2(tmp_path, content, said):
    path = tmp_path / "book.sgn"
    path.write_text(content)
    out = run_cli("play", "--bot", "random", "--openings", str(path))
    assert out.returncode == 2 and said in out.stderr and "Traceback" not in out.stderr


def test_an_opening_with_an_illegal_line_or_a_game_over_is_refused(tmp_path):
    from sgn.play import random_game

    game = random_game(23, 4)
    path = tmp_path / "book.sgn"
    bad = game[:5] + [["1", "BS", game[1][2]]]  # (a settlement where one stands)
    path.write_text("".join(json.dumps(m) + "\n" for m in bad))
    out = run_cli("play", "--bot", "random", "--openings", str(path), "--opening-lines", "6")
    assert out.returncode == 2 and "game 1, line 6" in out.stderr
    path.write_text("".join(json.dumps(m) + "\n" for m in game))
    out = run_cli("play", "--bot", "random", "--openings", str(path), "--opening-lines", str(len(game)))
    assert out.returncode == 2 and "is over" in out.stderr
    out = run_cli("play", "--bot", "random", "--openings", str(tmp_path / "missing.sgn"))
    assert out.returncode == 2 and "cannot read the openings" in out.stderr


@pytest.mark.parametrize("suffix", ["json", "parquet"])
def test_the_results_table_in_each_format_holds_a_row_per_seat(tmp_path, suffix):
    if suffix == "parquet":
        pytest.importorskip("pyarrow", reason="pyarrow is not installed (the extra 'parquet')")
    path = tmp_path / "out" / f"results.{suffix}"
    out = run_cli("play", "--bot", "random", "--bot", "greedy", "--games", "4", "--results", str(path))
    assert out.returncode == 0, out.stderr
    if suffix == "json":
        rows = json.loads(path.read_text())
    else:
        import pyarrow.parquet as pq

        rows = pq.read_table(path).to_pylist()
    assert len(rows) == 16 and {r["bot"] for r in rows} == {"random", "greedy"}
    assert sum(r["won"] for r in rows) == 4 and all(r["rank"] >= 1 for r in rows)


def test_a_python_bot_that_never_returns_is_stopped_and_faulted():
    class Stuck(RandomBot):
        def decide(self, view, request):
            if request["kind"] == "turn":
                while True:
                    pass
            return super().decide(view, request)

    seats = [InProcess("stuck", Stuck(seed=0))] + [InProcess(f"r{i}", RandomBot(seed=i)) for i in range(3)]
    record = Referee(seats, game="stuck", seed="stuck", move_ms=100).play()
    assert record.how == "time" and record.forfeited == "1"  # (forfeited on time)
    assert [f[1] for f in record.faults] == ["timeout"] and "stopped after" in record.faults[0][2]


def test_a_python_bot_whose_reply_cannot_be_compared_is_faulted_not_the_referee():
    class Odd:
        def __eq__(self, other):
            raise RuntimeError("no comparing me")

    class Weird(RandomBot):
        def decide(self, view, request):
            return Odd()

    record, _ = recorded_game(3, 4, bots=Weird)
    assert record.how == "forfeited" and record.faults[0][1] == "garbage"


@pytest.mark.parametrize(
    "misbehaviour, kind",
    [
        ("print('[' * 100000, flush=True)", "garbage"),
        (
            "sys.stderr.write('x' * 50_000_000); sys.stderr.flush(); print(json.dumps({'type': 'reply', 'id': m['id'], 'move': m['moves'][0]}), flush=True)",
            None,
        ),
    ],
)
def test_deep_nesting_and_a_flood_of_standard_error_cost_the_referee_nothing(tmp_path, misbehaviour, kind):
    FAULTY["odd"] = misbehaviour
    try:
        bots = [BotSpec.parse(_faulty_bot(tmp_path, "odd", after=5)), BotSpec.parse("random")]
        (record,) = list(run(bots, schedule(bots, 4, 1)[:1], Settings(seed=1, move_ms=600_000)))
    finally:
        del FAULTY["odd"]
    if kind is None:  # (the stderr is drained as it comes: only its tail is kept)
        assert not record.faults
    else:
        assert record.faults and record.faults[0][1] == kind
    assert all(len(text) <= 64 * 1024 for text in record.stderr.values())


def test_without_orjson_the_protocol_writes_the_same_bytes(monkeypatch):
    """The pure-Python fallback of the protocol's JSON (no orjson) writes what orjson writes,
    and reads replies the same way: the same game, byte for byte."""
    import sgn.referee.protocol as protocol

    record, told = recorded_game(7, 4)
    samples = [json.loads(m) for _, m in told[:400]] + record.log
    fast = [protocol.encode([m]) for m in samples]
    monkeypatch.setitem(sys.modules, "orjson", None)  # (each factory then gives json's)
    monkeypatch.setattr(protocol, "_dumps", protocol._encoder())
    monkeypatch.setattr(protocol, "_typed", protocol._sorted_encoder())
    monkeypatch.setattr(protocol, "decode", protocol._decoder())
    assert protocol.decode.__module__ == "json"
    assert [protocol.encode([m]) for m in samples] == fast
    again, told_again = recorded_game(7, 4)
    assert again.log == record.log and told_again == told


def _big_discard_request():
    """A request for a discard of 15 of 30 cards (thousands of ways): none listed."""
    from sgn.game.decisions import MAX_LISTED_DISCARDS, ways
    from sgn.game.position import from_messages
    from sgn.play import random_game

    game = from_messages(random_game(8, 4)[:30])
    game.players["2"].hand.update({"B": 6, "G": 6, "L": 6, "O": 6, "W": 6})
    game.discards_owed, game.robber_due = {"2": 15}, "seven"
    (decision,) = game.decisions()
    assert decision.kind == "discard" and decision.moves == [] and decision.amount == 15
    assert ways([6] * 5, 15) > MAX_LISTED_DISCARDS
    hand = dict(game.players["2"].hand)
    return game, {
        "type": "request",
        "id": 9,
        "kind": "discard",
        "seat": "2",
        "deadline_ms": 1000,
        "hand": hand,
        "count": 15,
        "moves": [],
    }


def test_a_discard_of_too_many_ways_is_not_listed_and_any_legal_one_is_read():
    from sgn.game.decisions import discard_move
    from sgn.referee.protocol import read_reply

    game, request = _big_discard_request()
    good = discard_move("2", {"B": 6, "G": 6, "O": 3})
    reordered = [
        "2",
        "TR",
        [
            {"resources": {"O": -3, "B": -6, "G": -6}, "player": "2"},
            {"player": "B", "resources": {"G": 6, "B": 6, "O": 3}},
        ],
    ]
    assert read_reply({"type": "reply", "id": 9, "move": reordered}, 9, [], False, request) == good
    for wrong in (
        discard_move("2", {"B": 7, "G": 8}),  # (more than held)
        discard_move("2", {"B": 6, "G": 6}),  # (12, not 15)
        ["2", "TR", [{"player": "2", "resources": {"B": -15}}, {"player": "3", "resources": {"B": 15}}]],
        discard_move("1", {"B": 6, "G": 6, "O": 3}),
        "TR",
    ):
        assert read_reply({"type": "reply", "id": 9, "move": wrong}, 9, [], False, request).kind == "illegal", wrong
    assert not any(p.severity == "error" for p in game.clone().apply(good, 31))


def test_every_shipped_bot_answers_a_discard_of_too_many_ways(tmp_path):
    import subprocess

    from sgn.referee.bots import GreedyBot, RandomBot
    from sgn.referee.protocol import read_reply
    from sgn.referee.seats import View

    _, request = _big_discard_request()
    view = View({"seat": "2", "game": "g", "players": 4, "rules": "standard"})
    for bot in (RandomBot(1), GreedyBot(1)):
        move = bot.decide(view, request)
        assert not hasattr(read_reply({"type": "reply", "id": 9, "move": move}, 9, [], False, request), "kind")
    text = (CHECKOUT / "docs" / "play.md").read_text(encoding="utf-8")
    doc_bot = tmp_path / "doc_bot.py"
    doc_bot.write_text(
        text.split("```python\nimport json, random, sys\n", 1)[1]
        .split("```")[0]
        .join(["import json, random, sys\n", ""])
    )
    programs = [[sys.executable, str(BOT_PY)], [sys.executable, str(doc_bot)]] + (
        [["node", str(BOT_JS)]] if shutil.which("node") else []
    )
    for program in programs:
        hello = json.dumps({"type": "hello", "protocol": 1}) + "\n"
        done = subprocess.run(
            program, input=hello + json.dumps(request) + "\n", capture_output=True, text=True, timeout=60
        )
        reply = json.loads(done.stdout.splitlines()[1])
        assert not hasattr(read_reply(reply, 9, [], False, request), "kind"), (program, reply)


def test_a_faulty_seat_s_discard_of_too_many_ways_is_put_in_its_place():
    from sgn.referee.protocol import read_reply

    game, request = _big_discard_request()
    referee = Referee([InProcess(f"b{i}", RandomBot(i)) for i in range(4)], game="x", seed="x")
    referee.game = game
    move = referee._instead("2", [], 15)
    assert not hasattr(read_reply({"type": "reply", "id": 9, "move": move}, 9, [], False, request), "kind")


def test_programs_across_processes_and_a_resumed_match_give_the_same_games(tmp_path):
    """The options crossed: a program bot with -j 2 gives the game files -j 1 gives, and a
    match resumed after losing two games (in another order of processes) gives them again."""
    bot = f"py={sys.executable} {BOT_PY}"
    one, two = tmp_path / "one", tmp_path / "two"
    for folder, jobs in ((one, "1"), (two, "2")):
        out = run_cli(
            *("play", "--bot", bot, "--bot", "greedy", "--games", "8", "-j", jobs, "--out", str(folder), "-o", "json"),
            *("--move-time", "600000"),
        )
        assert out.returncode == 0, out.stderr
    names = sorted(p.name for p in one.glob("game-*.sgn"))
    assert len(names) == 8 and names == sorted(p.name for p in two.glob("game-*.sgn"))
    assert all((one / n).read_bytes() == (two / n).read_bytes() for n in names)
    kept = (two / "results.jsonl").read_text().splitlines()
    (two / "results.jsonl").write_text("\n".join(kept[:-2]) + "\n")  # (two games lost to an interruption)
    (two / names[-1]).unlink()
    again = run_cli(
        "play",
        "--bot",
        bot,
        "--bot",
        "greedy",
        "--games",
        "8",
        "-j",
        "2",
        "--out",
        str(two),
        "-o",
        "json",
        "--move-time",
        "600000",
    )
    assert again.returncode == 0 and "6 of 8 games already" in again.stderr.replace("\n", " ")
    assert all((one / n).read_bytes() == (two / n).read_bytes() for n in names)


def test_the_sequential_test_decides_as_the_scores_say():
    """The SPRT's log-likelihood ratio grows with A's score; a run of wins accepts H1, of
    losses H0, an even match keeps going; scores are 1, 1/2 or 0 by A's best seat's place."""
    from sgn.referee.referee import Record
    from sgn.referee.summary import scores, sequential_test

    def game(points_a, points_b, winner):
        return Record(
            "g",
            ["A", "B", "A", "B"],
            [],
            winner,
            {"1": points_a, "2": points_b, "3": 2, "4": 2},
            "won",
            None,
            [],
            {},
            {},
            {},
        )

    wins = [game(10, 5, "1")] * 60
    losses = [game(4, 10, "2")] * 60
    even = [game(10, 5, "1"), game(4, 10, "2")] * 10
    ties = [game(5, 5, None)] * 4
    assert (
        scores(wins[:1], "A", "B") == [1.0]
        and scores(losses[:1], "A", "B") == [0.0]
        and scores(ties[:1], "A", "B") == [0.5]
    )
    llrs = [sequential_test(rs, "A", "B", 0, 10, 0.05, 0.05)["llr"] for rs in (losses, even, wins)]
    assert llrs == sorted(llrs) and llrs[0] < 0 < llrs[2]
    assert sequential_test(wins, "A", "B", 0, 10, 0.05, 0.05)["verdict"] == "H1"
    assert sequential_test(losses, "A", "B", 0, 10, 0.05, 0.05)["verdict"] == "H0"
    assert sequential_test(even, "A", "B", 0, 10, 0.05, 0.05)["verdict"] == "continue"


def test_games_rounded_up_to_whole_boards_are_said():
    out = run_cli("play", "--bot", "random", "--games", "5", "-o", "json")
    assert out.returncode == 0 and json.loads(out.stdout)["games"] == 8
    assert "8 games, not 5: 2 boards, each played in all 4 seatings" in out.stderr


def test_a_bot_s_options_reach_its_hello_and_a_class_s_keywords(tmp_path):
    """--bot-option NAME:KEY=VALUE, as cutechess-cli's option.KEY=VALUE: read as JSON where it is."""
    picky = tmp_path / "picky.py"
    picky.write_text(
        textwrap.dedent(
            """
            import json, sys
            options = {}
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "hello":
                    options = m["options"]
                    print(json.dumps({"type": "hello", "name": "picky", "protocol": 1}), flush=True)
                elif m["type"] == "request":
                    move = m["moves"][0] if options == {"depth": 3, "style": "calm"} else ["9", "XX", {}]
                    print(json.dumps({"type": "reply", "id": m["id"], "move": move}), flush=True)
            """
        )
    )
    common = ["play", "--bot", f"p={sys.executable} {picky}", "--bot", "random", "--games", "4", "-o", "json"]
    told = run_cli(*common, "--bot-option", "p:depth=3", "--bot-option", "p:style=calm", "--move-time", "600000")
    assert told.returncode == 0 and json.loads(told.stdout)["bots"]["p"]["faults"] == {}
    untold = run_cli(*common, "--move-time", "600000")
    assert json.loads(untold.stdout)["bots"]["p"]["faults"] == {"illegal": 4}
    seeded = run_cli(
        "play", "--bot", "random", "--bot-option", "random:offers=0", "--games", "4", "--page", str(tmp_path / "p.html")
    )
    assert seeded.returncode == 0


def test_no_output_writes_over_the_openings(tmp_path):
    from sgn.play import random_game

    text = "".join(json.dumps(m) + "\n" for m in random_game(24, 4))
    (tmp_path / "m").mkdir()
    for name, extra in (("r.json", "--results"), ("p.html", "--page"), ("m/game-00001.sgn", "--out")):
        book = tmp_path / name
        book.write_text(text)
        target = str(book.parent) if extra == "--out" else str(book)
        out = run_cli("play", "--bot", "random", "--openings", str(book), extra, target)
        assert out.returncode == 2 and "openings" in out.stderr or "the input" in out.stderr, (extra, out.stderr)
        assert out.returncode == 2 and book.read_text() == text


def test_the_alarm_does_not_ring_into_the_collector():
    """A ring while the collector runs would be swallowed in one of its callbacks, and handed
    to `sys.unraisablehook`, where the next ring could fall: it waits for the next ring."""
    import gc
    import signal

    from sgn.referee import seats

    outcomes = []

    def during(phase, info):  # (after the referee's own callback, which notes the start)
        if phase == "start":
            try:
                seats._ring(signal.SIGALRM, None)
                outcomes.append("waited")
            except seats._Late:
                outcomes.append("rang")

    gc.callbacks.append(during)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(during)
    assert outcomes and set(outcomes) == {"waited"}
    with pytest.raises(seats._Late):  # and outside a collection, it rings
        seats._ring(signal.SIGALRM, None)


def test_a_collection_of_the_process_garbage_is_not_charged_to_a_python_bot():
    """The garbage collector frees the whole process's garbage in whichever thread it runs:
    a bot in the referee's process is not charged for it against its deadline."""
    import gc

    class Collecting(RandomBot):
        collected = False

        def decide(self, view, request):
            if not self.collected:
                self.collected = True
                gc.collect()  # the process's garbage: well over the 50 ms deadline, on any machine
            return super().decide(view, request)

    seats = [InProcess("collecting", Collecting(seed=0))] + [InProcess(f"r{i}", RandomBot(seed=i)) for i in range(3)]
    gc.disable()
    try:
        garbage = [[i] for i in range(2_000_000)]  # (cycles the referee's process left, say)
        for item in garbage:
            item.append(item)
        del garbage, item
        record = Referee(seats, game="gc", seed="gc", move_ms=50, max_turns=3).play()
    finally:
        gc.enable()
    assert seats[0].bot.collected and record.faults == [] and record.how == "turn-limit"
