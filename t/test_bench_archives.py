"""bench/bench_archives.py runs end to end on a few engine games and prints every figure
it promises, with its target (the figures themselves are the benchmark's, not a test's)."""

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_archives.py"


def load():
    spec = importlib.util.spec_from_file_location("bench_archives", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_archive_benchmark_prints_each_figure_with_its_target(tmp_path, capsys):
    pytest.importorskip("catanatron", reason="the benchmark plays catanatron's games (pip install catanatron)")
    pytest.importorskip("orjson", reason="the benchmark's baseline is an orjson parse (the pure env has none)")
    bench = load()
    code = bench.main(["--games", "3", "--rounds", "1", "--no-jobs", "--games-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code in (0, 1)
    for figure in (
        "semantic, stream",
        "semantic, file by file",
        "rules, games with faults",
        "rules, faults / no faults",
    ):
        row = next(line for line in out.splitlines() if line.startswith(f"| {figure} |"))
        assert float(row.split("|")[2]) > 0
    assert (code == 1) == ("MISSED" in out)


def test_a_missed_target_fails_the_run(capsys):
    bench = load()
    assert bench.report({"b": {"semantic, stream": 0.5, "start-up / python + import orjson": 2.0}}) == 1
    out = capsys.readouterr().out
    assert "| semantic, stream | 0.50 | ≥ 1.0 x orjson parse MISSED |" in out
    assert "| start-up / python + import orjson | 2.00 | ≤ 3.0 x met |" in out
    assert bench.report({"b": {"semantic, stream": 1.5}}) == 0


def test_a_ratio_is_taken_within_each_round_then_the_median():
    """Runs of one round share the machine's speed of the moment: 2, 1.5 and 2.5 times faster
    in the rounds is 2 (the ratio of the medians, 6 s over 4 s, would say 1.5)."""
    assert load()._median_ratio([4.0, 6.0, 10.0], [2.0, 4.0, 4.0]) == 2.0
