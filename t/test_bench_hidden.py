"""bench/bench_hidden.py runs its measures on a few games and reports each figure with its
target (the figures themselves are the benchmark's, not a test's): the views of valid games
are valid, hiding adds no error but a fault moved later, a fault no hidden value touches is
caught in every view, and the adversarial logs are legal logs whose views are valid."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_hidden.py"


def load():
    spec = importlib.util.spec_from_file_location("bench_hidden", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_hidden_benchmark_judges_views_of_engine_and_generated_games(capsys):
    bench = load()
    logs = bench.hidden_logs
    engine = [g for g in logs.engine_games(1) if g.name.startswith("jsettlers")]  # 4p: valid; 6p: faults
    found = bench.cases(engine, logs.generated_games(2, seed=4))
    assert {c.kind for c in found} >= {"valid", bench.ENGINE, "city_without_ore", "card_not_held"}
    views, failing = bench.soundness(found)
    assert views > 10 and failing == []
    assert all(not m.added for m in bench.monotony(found).values())
    for kind, by_view in bench.sensitivity(found).items():
        if kind in bench.UNTOUCHED:
            assert all(count == caught for count, caught, _ in by_view.values()), kind
    rows = bench.report_judged(found, verbose=False)
    assert bench.report(rows) == 0
    out = capsys.readouterr().out
    assert "| soundness: views of valid games without an error | 100.0% | 100% met |" in out
    assert "| sensitivity: faults no hidden value touches, every view | 100.0% of " in out


def test_the_adversarial_logs_are_legal_and_their_views_valid():
    bench = load()
    logs = bench.hidden_logs
    full = logs.steals_log(12, prefix=40)  # each move of it is checked as it is made
    seen = logs.view(full, None)
    steals = [m for m in seen if m[1] == "ST"]
    assert len(steals) >= 12 and all(list(m[2][0]["resources"]) == ["?"] for m in steals)
    judged = bench.adversarial("steals", seen)
    assert judged.errors == [] and judged.peak_mb > 0 and judged.messages == len(full)
    hidden = logs.every_card_hidden(logs.generated_games(1)[0].game)
    assert all(m[2] == {"result": "?"} for m in hidden if m[1] == "RD")


def test_a_missed_target_fails_the_run(capsys):
    bench = load()
    assert bench.report([("a", "1", "≥ 2", False), ("b", "3", "reported", True)]) == 1
    out = capsys.readouterr().out
    assert "| a | 1 | ≥ 2 MISSED |" in out and "| b | 3 | reported |" in out
    assert bench.report([("a", "2", "≥ 2", True)]) == 0
