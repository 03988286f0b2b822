#!/usr/bin/env python3
"""Benchmark: messages per second of `sgn validate` at each level, beside baselines, in one run.

Generates N messages with a realistic mix of actions (mostly rolls, builds and
trades, one map at the start of each game), then measures, on the same data:

- json parse only (orjson when installed, and the standard library's json);
- sgn at --level syntax, schema and semantic (the Python API, streaming from a file);
- the semantic rules alone, on messages already parsed (their cost over the schema);
- the `sgn validate` command end to end (start-up included);
- plain jsonschema validating each message against one top-level oneOf of all
  actions (on a sample: it is slow);
- sgn at --level rules on complete legal games (made by sgn.play), beside the
  semantic level on the same games; and the same on games of a real engine,
  catanatron's bots (bench/engine_games.py), when catanatron is installed
  (`tox -e bench` installs it): long games, many bank trades and discards;
- `sgn validate` with one job and with two over many files (--job-games games,
  each its own file);
- peak memory over many distinct board positions, in one file and over many API
  calls (`bench_bounds.py`).

Each figure is the median of --rounds runs. Then the targets, each with its figure,
and the exit status 1 when any is missed. Usage:
    python bench/bench_validate.py [--messages N] [--rounds R] [--games G] [--rss-messages M]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import sgn  # the installed package (compiled, if it was built so)
except ImportError:  # a checkout without an install: its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import sgn

import bench_bounds  # noqa: E402  (beside this script)
import engine_games  # noqa: E402
from peak import PRINT_PEAK, megabytes  # noqa: E402
from sgn import packaged  # noqa: E402
from sgn.layers.fastpath import COMPILED, compiled_modules  # noqa: E402
from sgn.layers.schema import SCHEMA_FILE  # noqa: E402

# Commands run from a scratch folder, so that `python -m sgn` finds the same package as
# this script, never a checkout's sources in the current folder.
SCRATCH = tempfile.mkdtemp(prefix="sgn-bench-")

RESOURCES = "BGLOW"
LAND = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
SEA = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if max(abs(q), abs(r), abs(q + r)) == 3]
KINDS = ["FO"] * 4 + ["P"] * 4 + ["F"] * 4 + ["H"] * 3 + ["M"] * 3 + ["D"]
NUMBERS = [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
# Relative frequency of each action in a game (a rough count of real games).
MIX = {"RD": 30, "BR": 15, "TR": 12, "BS": 6, "BC": 4, "BD": 5, "PD": 4, "MR": 5, "ST": 4}


def tile(rng):
    return list(rng.choice(LAND))


def corner(rng):
    q, r = rng.choice(LAND)
    return [[q, r - 1], [q + 1, r - 1], [q, r]]


def edge(rng):
    q, r = rng.choice(LAND)
    return [[[q, r - 1], [q + 1, r - 1], [q, r]], [[q + 1, r - 1], [q + 1, r], [q, r]]]


def trade(rng, player):
    give, get = rng.sample(RESOURCES, 2)
    n = rng.choice([1, 2, 3, 4])
    other = rng.choice(["B", str(rng.randint(1, 4))])
    if other == player:
        other = "B"
    return [{"player": player, "resources": {give: -n, get: 1}}, {"player": other, "resources": {give: n, get: -1}}]


def value(code, rng, player):
    return {
        "RD": lambda: {"result": rng.randint(2, 12)},
        "BR": lambda: {"path": edge(rng)},
        "BS": lambda: {"intersection": corner(rng)},
        "BC": lambda: {"intersection": corner(rng)},
        "BD": lambda: {"cCode": rng.choice(["KN", "MO", "RB", "VP", "YP"])},
        "PD": lambda: rng.choice(
            [
                {"cCode": "KN"},
                {"cCode": "MO", "rCodes": [rng.choice(RESOURCES)]},
                {"cCode": "YP", "rCodes": rng.sample(RESOURCES, 2)},
            ]
        ),
        "MR": lambda: {"tile": tile(rng)},
        "TR": lambda: trade(rng, player),
        "ST": lambda: [
            {"player": player, "resources": {"O": 1}},
            {"player": "2" if player != "2" else "3", "resources": {"O": -1}},
        ],
    }[code]()


def map_message(rng):
    kinds, numbers = KINDS[:], NUMBERS[:]
    rng.shuffle(kinds)
    rng.shuffle(numbers)
    tiles = [{"tile": list(t), "tCode": "S", "rNumber": None} for t in SEA]
    for t, kind in zip(LAND, kinds):
        tiles.append({"tile": list(t), "tCode": kind, "rNumber": None if kind == "D" else numbers.pop()})
    return ["B", "DM", {"tiles": tiles, "harbors": []}]


def generate(count, seed=1):
    """`count` JSON lines: games of about 300 messages, each starting with a map."""
    rng = random.Random(seed)
    codes, weights = list(MIX), list(MIX.values())
    lines = []
    while len(lines) < count:
        lines.append(json.dumps(map_message(rng), separators=(",", ":")))
        for _ in range(min(299, count - len(lines))):
            player = str(rng.randint(1, 4))
            code = rng.choices(codes, weights)[0]
            lines.append(json.dumps([player, code, value(code, rng, player)], separators=(",", ":")))
    return lines


def each(fn, items):
    """Call fn on every item, keeping no result (a list of results would make the
    garbage collector the thing measured)."""

    def run():
        for item in items:
            fn(item)

    return run


def timed(fn, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def gzip_targets(lines, rounds):
    """gzip input, checked through the API: a file holding one 32 MiB line of zeros (32 KB of
    gzip, a bomb), skipped as too long; and 32 MiB of the messages, against the same file
    uncompressed (medians of `rounds`, each starting with an empty memory)."""
    import gzip

    from sgn.layers import fastpath

    folder = tempfile.mkdtemp()
    bomb, plain = os.path.join(folder, "bomb.sgn.gz"), os.path.join(folder, "messages.sgn")
    with gzip.open(bomb, "wb", compresslevel=9) as handle:
        for _ in range(32):
            handle.write(bytes(1 << 20))
    text = ("\n".join(lines) + "\n").encode()
    with open(plain, "wb") as handle, gzip.open(plain + ".gz", "wb", compresslevel=6) as packed:
        for _ in range(-(-(32 << 20) // len(text))):
            handle.write(text)
            packed.write(text)

    def check(path):
        def run():
            fastpath.MEMORY.contexts.clear()
            bad = sum(1 for d in sgn.iter_diagnostics(path, level="semantic") if d.is_error)
            assert bad == (path == bomb), f"{bad} errors in {path}"

        return timed(run, rounds)

    skipped, ratio = check(bomb), check(plain + ".gz") / check(plain)
    shutil.rmtree(folder)
    return [
        ("gzip, one 32 MiB line, skipped <= 2 s", f"{skipped:.2f} s", skipped <= 2),
        ("gzip, 32 MiB of messages <= 1.5 x uncompressed", f"{ratio:.2f} x", ratio <= 1.5),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--oneof-sample", type=int, default=3_000)
    parser.add_argument("--games", type=int, default=200, help="complete games for the rules level")
    parser.add_argument(
        "--engine-games",
        type=int,
        default=100,
        help="games of a real engine (catanatron, when installed: bench/engine_games.py)",
    )
    parser.add_argument("--rss-messages", type=int, default=1_000_000, help="messages in the file for peak RSS")
    parser.add_argument("--job-games", type=int, default=3_000, help="game files for --jobs 2 against one job")
    parser.add_argument(
        "--board-segments",
        type=int,
        default=10_000,
        help="game segments, each on its own board, in one file (peak RSS)",
    )
    parser.add_argument(
        "--board-calls", type=int, default=1_000, help="API calls, each on its own board, in one process (peak RSS)"
    )
    args = parser.parse_args()

    lines = generate(args.messages)
    with tempfile.NamedTemporaryFile("w", suffix=".sgn", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
        path = handle.name
    data = [line.encode() for line in lines]
    n = len(lines)
    rows = []

    def add(name, seconds, count=n):
        rows.append((name, count / seconds))

    try:
        import orjson

        add("orjson parse only", timed(each(orjson.loads, data), args.rounds))
    except ImportError:
        rows.append(("orjson parse only", None))
    add("json (stdlib) parse only", timed(each(json.loads, data), args.rounds))
    from sgn.layers import fastpath

    for level in ("syntax", "schema", "semantic"):

        def run(level=level):
            fastpath.MEMORY.clear()  # each round starts cold: no line known yet
            bad = sum(1 for d in sgn.iter_diagnostics(path, level=level) if d.is_error)
            assert bad == 0, f"{bad} errors in generated data at level {level}"

        add(f"sgn --level {level} (API)", timed(run, args.rounds))
    from sgn.layers.semantic import SemanticChecker

    parsed = [json.loads(line) for line in lines]
    add(
        "semantic rules alone (parsed messages)", timed(lambda: each(SemanticChecker().problems, parsed)(), args.rounds)
    )
    cli = [sys.executable, "-m", "sgn", "validate", "-q", "--level", "semantic", path]
    add("sgn validate --level semantic (CLI)", timed(lambda: _run(cli), args.rounds))

    from jsonschema import Draft4Validator

    whole = copy.deepcopy(packaged.load_json(SCHEMA_FILE))
    whole["oneOf"] = whole.pop("anyOf")
    validator = Draft4Validator(whole)
    sample = [json.loads(line) for line in lines[: args.oneof_sample]]
    add("jsonschema, one top-level oneOf", timed(each(validator.is_valid, sample), 1), len(sample))

    os.unlink(path)

    from sgn.play import iter_games

    game_sets = [(f"{args.games} complete games", iter_games(args.games, players=4, seed=7))]
    if engine_games.available():
        game_sets.append((f"{args.engine_games} catanatron games", engine_games.games(args.engine_games)))
    else:
        print(
            "catanatron games: not measured, catanatron is not installed (pip install catanatron, or tox -e bench)",
            file=sys.stderr,
        )
    for label, games in game_sets:
        folder = tempfile.mkdtemp()
        game_files, game_messages = [], 0
        for i, game in enumerate(games):
            game_files.append(os.path.join(folder, f"game{i}.sgn"))
            with open(game_files[-1], "w") as handle:
                handle.write("".join(json.dumps(m, separators=(",", ":")) + "\n" for m in game))
            game_messages += len(game)
        for level in ("semantic", "rules"):

            def run_games(level=level, game_files=game_files):
                fastpath.MEMORY.clear()
                for game_file in game_files:
                    bad = sum(1 for d in sgn.iter_diagnostics(game_file, level=level) if d.is_error)
                    assert bad == 0, f"{bad} errors in a legal game at level {level}"

            add(f"sgn --level {level}, {label}", timed(run_games, args.rounds), game_messages)
        shutil.rmtree(folder)
    rates = dict(rows)

    # --jobs: many files, one job against two (fresh processes, start-up included)
    many = tempfile.mkdtemp()
    _run(
        [
            sys.executable,
            "-m",
            "sgn",
            "generate",
            "--games",
            str(args.job_games),
            "--seed",
            "11",
            "--jobs",
            "2",
            "-o",
            many,
        ]
    )
    cli_games = [sys.executable, "-m", "sgn", "validate", "-q", *sorted(Path(many).glob("*.sgn"))]
    one_job = timed(lambda: _run(cli_games), args.rounds)
    two_jobs = timed(lambda: _run(cli_games + ["--jobs", "2"]), args.rounds)
    shutil.rmtree(many)

    # start-up: a 10-line file, wall time of the whole command
    small = os.path.join(tempfile.mkdtemp(), "ten.sgn")
    with open(small, "w") as handle:
        handle.write("".join(line + "\n" for line in lines[:10]))
    script = os.path.join(os.path.dirname(sys.executable), "sgn")  # the installed command, if any
    command = [script] if os.path.exists(script) else [sys.executable, "-m", "sgn"]
    # the median of 15 runs, what a user meets (the best of them is what the machine can do)
    startup = statistics.median(_wall(command + ["validate", "-q", small]) for _ in range(15))

    # peak memory (RSS) of `sgn validate` on a file of --rss-messages messages, at every level
    big = os.path.join(os.path.dirname(small), "big.sgn")
    with open(big, "w") as handle:
        for start in range(0, args.rss_messages, len(lines)):
            handle.write("\n".join(lines[: args.rss_messages - start]) + "\n")
    rss = {
        level: _peak_rss([sys.executable, "-m", "sgn", "validate", "-q", "--level", level, big])
        for level in ("syntax", "schema", "semantic", "rules")
    }
    os.unlink(big)
    os.unlink(small)
    board_targets = bench_bounds.targets(args.board_segments, args.board_calls)

    compiled = compiled_modules()
    print(
        f"sgn {sgn.__version__} benchmark: {n} messages, median of {args.rounds} rounds; "
        f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores"
    )
    print(
        f"build: {'compiled (' + ', '.join(compiled) + ')' if compiled else 'pure Python'}; "
        f"orjson and jsonschema-rs {'in use' if COMPILED else 'not in use'}"
    )
    width = max(len(name) for name, _ in rows)
    print(f"{'':{width}}  {'messages/s':>12}")
    for name, rate in rows:
        print(f"{name:{width}}  {'not installed' if rate is None else f'{rate:12,.0f}'}")

    semantic = rates["sgn --level semantic (API)"]
    orjson_rate = rates.get("orjson parse only")
    rules_rate = rates[f"sgn --level rules, {args.games} complete games"]
    engine_rate = rates.get(f"sgn --level rules, {args.engine_games} catanatron games")
    targets = [
        ("--level semantic >= 1,000,000 messages/s", f"{semantic:,.0f}", semantic >= 1_000_000),
        (
            "--level semantic >= 0.5 x orjson parse-only",
            f"{semantic / orjson_rate:.2f} x" if orjson_rate else "no orjson",
            bool(orjson_rate) and semantic >= 0.5 * orjson_rate,
        ),
        ("--level rules >= 300,000 messages/s (complete games)", f"{rules_rate:,.0f}", rules_rate >= 300_000),
        (
            "--level rules >= 300,000 messages/s (catanatron games)",
            "not measured" if engine_rate is None else f"{engine_rate:,.0f}",
            None if engine_rate is None else engine_rate >= 300_000,
        ),
        *[
            (f"peak RSS <= 64 MB, {args.rss_messages:,} messages, --level {level}", f"{mb:.1f} MB", mb <= 64)
            for level, mb in rss.items()
        ],
        (
            f"--jobs 2 >= 1.8 x one job ({args.job_games:,} files)",
            f"{one_job / two_jobs:.2f} x",
            one_job / two_jobs >= 1.8,
        ),
        ("10-line file <= 150 ms, start-up included (median of 15)", f"{startup * 1000:.0f} ms", startup <= 0.150),
        *board_targets,
        *gzip_targets(lines, args.rounds),
    ]
    width = max(len(t) for t, _, _ in targets)
    print()
    print(f"{'target':{width}}  {'measured':>14}  result")
    for target, figure, ok in targets:
        print(f"{target:{width}}  {figure:>14}  {'skipped' if ok is None else 'ok' if ok else 'MISSED'}")
    shutil.rmtree(SCRATCH, ignore_errors=True)
    return 0 if all(ok is not False for _, _, ok in targets) else 1


def _run(argv) -> None:
    subprocess.run([str(a) for a in argv], check=True, stdout=subprocess.DEVNULL, cwd=SCRATCH)


def _wall(argv) -> float:
    # with bytecode caches, as an installed package has them (PYTHONDONTWRITEBYTECODE, set on
    # some machines, would make every run compile every module anew)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, env=env, cwd=SCRATCH)
    assert done.returncode in (0, 1), f"{argv} failed with {done.returncode}"
    return time.perf_counter() - start


def _peak_rss(argv) -> float:
    """Peak resident memory of a command, in MB (its own, measured by the child itself:
    bench/peak.py)."""
    probe = (
        "import runpy, sys; sys.argv = ['sgn'] + sys.argv[1:]\n"
        "try:\n    runpy.run_module('sgn', run_name='__main__')\nexcept SystemExit:\n    pass\n" + PRINT_PEAK
    )
    done = subprocess.run(
        [argv[0], "-c", probe, *argv[3:]], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=SCRATCH
    )
    return megabytes(done.stderr)


if __name__ == "__main__":
    sys.exit(main())
