#!/usr/bin/env python3
"""Benchmark: `sgn validate` over many files with `--jobs` and on a local Dask cluster.

Generates --games game files (`sgn generate --games N -o DIR --jobs 2`; 10,000 by default),
then times, end to end (start-up included), `sgn validate -o json` over them:

- with --jobs 1 and --jobs 2 (processes forked by sgn);
- with --dask local:1 and --dask local:2 (a Dask LocalCluster that sgn starts and stops);
- the fixed cost of a local cluster: --dask local:2 on one file.

Prints messages per second for each, the Dask overhead as a ratio (time with --dask local:2
over time with --jobs 2), and how the throughput grows from 1 Dask worker to 2. Every run
must print the same report, byte for byte (the script fails otherwise). Usage:
    python bench/bench_dask.py [--games N] [--folder DIR] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent


def sgn(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    try:
        import sgn as package  # the installed package, else the checkout's sources
    except ImportError:
        env["PYTHONPATH"] = str(CHECKOUT)
    else:
        env.setdefault("PYTHONPATH", str(Path(package.__file__).resolve().parent.parent))
    return subprocess.run([sys.executable, "-m", "sgn", *args], cwd=cwd, env=env, capture_output=True)


def timed(args, cwd, rounds):
    """The median wall time of `rounds` runs, and the output of the last (all the same)."""
    times, outputs = [], set()
    for _ in range(rounds):
        start = time.perf_counter()
        done = sgn(*args, cwd=cwd)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            sys.exit(f"sgn {' '.join(args[:4])} ...: exit {done.returncode}: {done.stderr.decode()[-500:]}")
        outputs.add(done.stdout)
    assert len(outputs) == 1, "the same run gave different reports"
    return statistics.median(times), outputs.pop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--folder", help="where the games are (generated there when missing); default: a temporary one")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sgn-bench-dask-") as scratch:
        folder = Path(args.folder or scratch) / f"games-{args.games}"
        if not folder.is_dir() or len(list(folder.glob("*.sgn"))) != args.games:
            start = time.perf_counter()
            done = sgn("generate", "--games", str(args.games), "-o", str(folder), "--jobs", "2", cwd=Path(scratch))
            assert done.returncode == 0, done.stderr
            print(f"generated {args.games:,} games in {time.perf_counter() - start:.1f} s")
        names = sorted(p.name for p in folder.glob("*.sgn"))
        print(
            f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores; "
            f"{sgn('--version', cwd=folder).stdout.decode().strip()}"
        )
        runs = {}
        reports = set()
        for label, option in [
            ("--jobs 1", ["-j", "1"]),
            ("--jobs 2", ["-j", "2"]),
            ("--dask local:1", ["--dask", "local:1"]),
            ("--dask local:2", ["--dask", "local:2"]),
        ]:
            seconds, report = timed(["validate", "-o", "json", *option, *names], folder, args.rounds)
            reports.add(report)
            messages = json.loads(report)["messages"]
            runs[label] = seconds
            print(
                f"{label:>15}: {seconds:7.2f} s, {messages / seconds:11,.0f} messages/s "
                f"({len(names):,} files, {messages:,} messages)"
            )
        assert len(reports) == 1, "--jobs and --dask gave different reports"
        fixed, _ = timed(["validate", "-q", "--dask", "local:2", names[0]], folder, args.rounds)
        print(f"{'start-up':>15}: {fixed:7.2f} s for --dask local:2 on one file (start and stop the cluster)")
        print(
            f"Dask overhead: --dask local:2 takes {runs['--dask local:2'] / runs['--jobs 2']:.2f} times "
            f"as long as --jobs 2"
        )
        print(
            f"Dask workers: 2 give {runs['--dask local:1'] / runs['--dask local:2']:.2f} times the throughput "
            f"of 1 (--jobs: {runs['--jobs 1'] / runs['--jobs 2']:.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
