#!/usr/bin/env python3
"""Benchmark: checking real engine archives against parsing them, as ratios in one run.

The workloads of issue 30 and docs/performance.md, on games of a real engine
(catanatron's bots, `bench/engine_games.py`: 1,000 games with the engine's own faults and
1,000 that keep to the rules, one file each; made once into --games-dir and reused):

- the semantic level against a loop that only parses each line with orjson (reading the
  same file the same way), on the games as one stream and file by file;
- the rules level against the same loop, on games with faults and without, and the
  speed with faults over the speed without;
- `sgn validate --jobs 2` against `--jobs 1` over the folder, and `--dask local:2`
  against `--jobs 2` once each has started (each run's time on one file taken off);
- start-up: `sgn validate` on a 10-line file against starting Python and importing orjson.

Each figure is the median of --rounds rounds, the workloads of one round measured one
after the other, so that a busy machine slows both sides of a ratio alike. The figures of
the installed build are measured in this process; with --builds, the same script runs
again in a child process for the checkout's pure-Python sources (with orjson and
jsonschema-rs, and with SGN_PURE=1: without them). Exits 1 when a target is missed.

    python bench/bench_archives.py                       # everything, targets checked
    python bench/bench_archives.py --games 200 --rounds 3 --no-jobs   # quicker
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

CHECKOUT = Path(__file__).resolve().parent.parent
TARGETS = {  # figure: (at least, what it means)
    "semantic, stream": (1.0, "x orjson parse"),
    "semantic, file by file": (1.0, "x orjson parse"),
    "rules, games with faults": (0.12, "x orjson parse"),
    "rules, faults / no faults": (0.9, "x"),
    "--jobs 2 / --jobs 1": (1.8, "x"),
    "--dask local:2 / --jobs 2": (0.9, "x (throughput)"),
    "start-up / python + import orjson": (-3.0, "x (at most 3)"),
}


def make_games(folder: Path, count: int) -> Tuple[List[str], List[str]]:
    """The game files with faults and without, made with catanatron when missing."""
    sets = []
    for name, flags in (("faults", ["--engine-rules"]), ("clean", [])):
        where = folder / f"{name}-{count}"
        files = sorted(glob.glob(str(where / "*.sgn")))
        if len(files) != count:
            start = time.perf_counter()
            made = subprocess.run(
                [
                    sys.executable,
                    str(CHECKOUT / "bench" / "engine_games.py"),
                    "--games",
                    str(count),
                    *flags,
                    "-o",
                    str(where),
                ],
                capture_output=True,
                text=True,
            )
            if made.returncode != 0:
                sys.exit(f"bench_archives: cannot make the engine's games: {made.stderr.strip()}")
            print(f"made {count:,} catanatron games ({name}) in {time.perf_counter() - start:.0f} s", flush=True)
            files = sorted(glob.glob(str(where / "*.sgn")))
        sets.append(files)
    return sets[0], sets[1]


def stream_of(files: List[str], path: Path) -> str:
    if not path.exists():
        with open(path, "wb") as out:
            for name in files:
                out.write(Path(name).read_bytes())
    return str(path)


def lines_in(paths: List[str]) -> int:
    total = 0
    for path in paths:
        with open(path, "rb") as handle:
            total += sum(1 for _ in handle)
    return total


def parse_only(paths: List[str]) -> Callable[[], None]:
    import orjson

    loads = orjson.loads

    def run() -> None:
        for path in paths:
            with open(path, "rb") as handle:
                for line in handle:
                    loads(line)

    return run


def _fastpath():
    """The fast path's module (where builds before sgn/layers/ kept it too, for a comparison)."""
    try:
        from sgn.layers import fastpath
    except ImportError:
        from sgn import fastpath  # type: ignore[no-redef]
    return fastpath


def check(paths: List[str], level: str) -> Callable[[], None]:
    import sgn

    fastpath = _fastpath()

    def run() -> None:
        fastpath.MEMORY.clear()  # each round starts cold
        for path in paths:
            for _ in sgn.iter_diagnostics(path, level=level):
                pass

    return run


def dispatched(library: str) -> Optional[Callable[[str], Callable[[], None]]]:
    """A peer: orjson's parse, then `library` on our schema, the sub-schema of each message's
    action code (the fairest use of a validator that cannot say which branch failed)."""
    import copy

    import orjson

    from sgn import packaged

    try:
        from sgn.layers.schema import SCHEMA_FILE
    except ImportError:  # a build before sgn/layers/
        from sgn.schema import SCHEMA_FILE  # type: ignore[no-redef]
    whole = packaged.load_json(SCHEMA_FILE)
    codes = [branch["$ref"].rsplit("/", 1)[1] for branch in whole["anyOf"]]
    schemas = {}
    for code in codes:
        one = copy.deepcopy(whole)
        one["anyOf"] = [{"$ref": f"#/definitions/messages/{code}"}]
        schemas[code] = one
    try:
        if library == "jsonschema-rs":
            import jsonschema_rs

            checks = {code: jsonschema_rs.Draft4Validator(one).is_valid for code, one in schemas.items()}
        else:
            import fastjsonschema

            compiled = {code: fastjsonschema.compile(one) for code, one in schemas.items()}

            def valid(check: Callable[[object], object]) -> Callable[[object], bool]:
                def run(value: object) -> bool:
                    try:
                        check(value)
                    except fastjsonschema.JsonSchemaException:
                        return False
                    return True

                return run

            checks = {code: valid(check) for code, check in compiled.items()}
    except ImportError:
        return None
    loads = orjson.loads

    def on(path: str) -> Callable[[], None]:
        def run() -> None:
            with open(path, "rb") as handle:
                for line in handle:
                    value = loads(line)
                    valid = checks.get(value[1])  # (a record line, a header: not of the v1.0 schema compared)
                    if valid is not None and not valid(value):
                        raise AssertionError(f"{library}: a message of an engine's game refused: {line[:80]!r}")

        return run

    return on


def timed_rounds(work: Dict[str, Callable[[], None]], rounds: int) -> Dict[str, List[float]]:
    """Each workload's time in each round, the workloads of a round run one after the other."""
    times: Dict[str, List[float]] = {name: [] for name in work}
    for _ in range(rounds):
        for name, run in work.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return times


def medians(work: Dict[str, Callable[[], None]], rounds: int) -> Dict[str, float]:
    return {name: statistics.median(found) for name, found in timed_rounds(work, rounds).items()}


def in_process(
    faults: List[str], clean: List[str], stream: str, clean_stream: str, rounds: int, rules: bool, peers: bool = False
) -> Dict[str, float]:
    """The ratios measured by this process's sgn: semantic on the stream and file by file,
    rules on games with faults and without."""
    work = {
        "orjson, stream": parse_only([stream]),
        "semantic, stream": check([stream], "semantic"),
        "orjson, files": parse_only(faults),
        "semantic, files": check(faults, "semantic"),
    }
    for library in ("jsonschema-rs", "fastjsonschema"):
        peer = dispatched(library) if peers else None
        if peer is not None:
            work[f"{library}, stream"] = peer(stream)
        elif peers:
            print(f"  {library}: not measured, not installed")
    if rules:
        work.update(
            {
                "rules, faults": check([stream], "rules"),
                "orjson, clean": parse_only([clean_stream]),
                "rules, clean": check([clean_stream], "rules"),
            }
        )
    took = medians(work, rounds)
    n, n_clean = lines_in([stream]), lines_in([clean_stream])
    for name, seconds in took.items():
        count = n_clean if name.endswith("clean") else n
        print(f"  {name:22} {count / seconds:>12,.0f} messages/s", flush=True)
    found = {
        "semantic, stream": took["orjson, stream"] / took["semantic, stream"],
        "semantic, file by file": took["orjson, files"] / took["semantic, files"],
    }
    for library in ("jsonschema-rs", "fastjsonschema"):
        if f"{library}, stream" in took:
            found[f"{library} (dispatched by action code), stream"] = (
                took["orjson, stream"] / took[f"{library}, stream"]
            )
    if rules:
        found["rules, games with faults"] = took["orjson, stream"] / took["rules, faults"]
        found["rules, games without faults"] = took["orjson, clean"] / took["rules, clean"]
        found["rules, faults / no faults"] = (n / took["rules, faults"]) / (n_clean / took["rules, clean"])
    return found


def command(*args: str, env: Optional[Dict[str, str]] = None) -> float:
    """The time of `sgn ARGS`, its report discarded by the system (as a report written to a
    file is): read here, through a pipe, it would take this process a share of the cores
    from the run measured, more from one that uses them all (--jobs 2) than from one job."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sgn", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
    )
    took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"sgn {' '.join(args[:5])}: exit {done.returncode}: {done.stderr.decode()[-400:]}")
    return took


def jobs(folder: str, first: str, rounds: int) -> Dict[str, float]:
    """--jobs 2 over --jobs 1, and --dask local:2 over --jobs 2 with start-up taken off."""
    runs = {"-j1": ["-j", "1", folder], "-j2": ["-j", "2", folder], "-j2, one file": ["-j", "2", first]}
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("  --dask: not measured, Dask is not installed (pip install 'settlers-game-notation[dask]')")
    else:
        runs.update({"dask": ["--dask", "local:2", folder], "dask, one file": ["--dask", "local:2", first]})
    times = timed_rounds({name: (lambda a=args: command("validate", "-q", *a)) for name, args in runs.items()}, rounds)
    for name, seconds in times.items():
        print(f"  {name:22} {statistics.median(seconds):8.2f} s", flush=True)
    # each ratio from the runs of one round, next to each other in time, then the median of
    # the rounds' ratios: the machine's speed drifts (a shared host), a round's runs share it
    found = {"--jobs 2 / --jobs 1": _median_ratio(times["-j1"], times["-j2"])}
    if "dask" in times:
        print(f"  the cluster's start and stop: {statistics.median(times['dask, one file']):.2f} s")
        once_started = {
            name: [a - b for a, b in zip(times[name], times[f"{name}, one file"])] for name in ("-j2", "dask")
        }
        found["--dask local:2 / --jobs 2"] = _median_ratio(once_started["-j2"], once_started["dask"])
    return found


def _median_ratio(slow: List[float], fast: List[float]) -> float:
    """The median, over the rounds, of how many times faster `fast` ran than `slow`."""
    return statistics.median(a / b for a, b in zip(slow, fast))


def start_up(rounds: int) -> Dict[str, float]:
    with tempfile.NamedTemporaryFile("w", suffix=".sgn", delete=False) as handle:
        handle.write('["1","RD",{"result":8}]\n' * 10)
    try:
        took = medians(
            {
                "python + import orjson": lambda: _python("import orjson"),
                "sgn validate, 10 lines": lambda: command("validate", "-q", "--level", "semantic", handle.name),
            },
            max(rounds, 5),
        )
    finally:
        os.unlink(handle.name)
    for name, seconds in took.items():
        print(f"  {name:22} {seconds * 1000:8.0f} ms", flush=True)
    return {"start-up / python + import orjson": took["sgn validate, 10 lines"] / took["python + import orjson"]}


def _python(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], check=True)


def build_name() -> str:
    fastpath = _fastpath()
    compiled = fastpath.compiled_modules()
    libraries = "orjson and jsonschema-rs" if fastpath.COMPILED else "no compiled libraries"
    return f"{'compiled' if compiled else 'pure Python'}, {libraries}"


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games of each kind (default 1,000)")
    parser.add_argument(
        "--games-dir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "sgn-bench-archives",
        help="where the games are kept between runs (made there when missing)",
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--builds",
        action="store_true",
        help="also measure the checkout's pure-Python sources, with and without the compiled libraries",
    )
    parser.add_argument("--no-jobs", action="store_true", help="leave out --jobs, --dask and start-up")
    parser.add_argument("--only-jobs", action="store_true", help="only --jobs, --dask and start-up")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # a child's figures, for its parent
    args = parser.parse_args(argv)
    args.games_dir.mkdir(parents=True, exist_ok=True)
    faults, clean = make_games(args.games_dir, args.games)
    stream = stream_of(faults, args.games_dir / f"faults-{args.games}.sgn")
    clean_stream = stream_of(clean, args.games_dir / f"clean-{args.games}.sgn")
    if args.json:
        print(json.dumps(in_process(faults, clean, stream, clean_stream, args.rounds, rules=True)))
        return 0
    print(
        f"{args.games:,} catanatron games with faults ({lines_in([stream]):,} messages) and "
        f"{args.games:,} without ({lines_in([clean_stream]):,}); {os.cpu_count()} cores; medians of "
        f"{args.rounds} rounds\n{build_name()} (this process):",
        flush=True,
    )
    found: Dict[str, Dict[str, float]] = {build_name(): {}}
    if not args.only_jobs:
        found[build_name()] = in_process(faults, clean, stream, clean_stream, args.rounds, rules=True, peers=True)
    if args.builds and not args.only_jobs:
        for label, extra in (
            ("pure Python, orjson and jsonschema-rs", {}),
            ("pure Python, no compiled libraries", {"SGN_PURE": "1"}),
        ):
            env = dict(os.environ, PYTHONPATH=str(CHECKOUT), **extra)
            print(f"{label} (the checkout's sources):", flush=True)
            child = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--json",
                    "--games",
                    str(args.games),
                    "--games-dir",
                    str(args.games_dir),
                    "--rounds",
                    str(max(1, args.rounds // 2)),
                ],
                env=env,
                capture_output=True,
                text=True,
            )
            if child.returncode != 0:
                sys.exit(f"bench_archives: the {label} run failed: {child.stderr[-400:]}")
            found[label] = json.loads(child.stdout.strip().splitlines()[-1])
    if not args.no_jobs:
        print("the command line, the folder of games with faults:", flush=True)
        found[build_name()].update(jobs(str(Path(faults[0]).parent), faults[0], max(1, args.rounds // 2)))
        found[build_name()].update(start_up(args.rounds))
    return report(found)


def report(found: Dict[str, Dict[str, float]]) -> int:
    builds = list(found)
    names = list(dict.fromkeys(name for figures in found.values() for name in figures))
    print("\n| figure | " + " | ".join(builds) + " | target |")
    print("|---|" + "---:|" * len(builds) + "---|")
    missed = []
    first = builds[0]
    for name in names:
        cells = [f"{found[b][name]:.2f}" if name in found[b] else "" for b in builds]
        target = TARGETS.get(name)
        verdict = ""
        if target is not None and name in found[first]:
            bound, unit = target
            met = found[first][name] >= bound if bound > 0 else found[first][name] <= -bound
            verdict = (
                f"{'≥' if bound > 0 else '≤'} {abs(bound)}{unit.split(' (')[0].replace('x', ' x', 1)}"
                f" {'met' if met else 'MISSED'}"
            )
            if not met:
                missed.append(name)
        print(f"| {name} | " + " | ".join(cells) + f" | {verdict} |")
    if missed:
        print(f"\nmissed ({first}): {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
