#!/usr/bin/env python3
"""The guard against the last release: the same workloads on an earlier commit's build and
on this checkout's, side by side in one run, each as a ratio to a plain orjson parse of the
same lines, with the change (docs/performance.md, "Against the last release").

Each build is made in an environment of its own under build/against/ (a wheel of the
commit's sources, compiled as `pip install` compiles it, in a venv of its own; an earlier
commit's kept for the next run): `--against` names the commit (by default the one the
newest CHANGELOG version names, else 7396d37, before the hidden cards). The workloads run
in a child process of each build's Python, the builds in turn, round after round, so that a
busy machine slows both alike; in a round each in-process workload and its orjson parse
run in turn five times, each the best of its five (so that a slow spell falls on both, not
on one's runs in a row), and each figure is the median of the rounds.

- semantic, repetitive lines: `sgn.iter_diagnostics(level="semantic")` on about 1,000,000
  lines of real games (ten of catanatron's recorded stream, t/data, over and over);
- semantic, an archive as one stream, start-up included: `sgn validate --level semantic`
  on 1,000 games (catanatron's 300 and 700 of `sgn.play`) against a process that parses them;
- rules, engine games with faults: `sgn.check(level="rules")` on 150 of catanatron's games,
  file by file (under the rulebook: the engine's departures are faults);
- the peak memory (MB) of the semantic run on the repetitive lines;
- start-up: `sgn validate` on a 10-line file against starting Python and importing orjson.

No test times anything: the guard is a benchmark a person reads. Run it whenever a hot
path changes:

    python bench/bench_against.py                   # against the named commit, 3 rounds
    python bench/bench_against.py --against HEAD~5 --rounds 2
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List

from peak import PRINT_PEAK

CHECKOUT = Path(__file__).resolve().parent.parent
WORK = CHECKOUT / "build" / "against"
DEFAULT_AGAINST = "7396d37"  # before the hidden cards, the visitors and the columns
GAMES = 150  # catanatron's games checked one file each at the rules level
# figure -> (the target, how it reads); a negative target is a most
TARGETS = {
    "semantic, repetitive lines": (1.7, "x orjson"),
    "semantic, archive stream (start-up included)": (1.0, "x orjson"),
    "rules, engine games with faults": (0.15, "x orjson"),
    "peak memory, semantic (MB)": (-32.0, "MB"),
    "start-up, 10 lines / python + orjson": (-2.5, "x"),
}


# -- the builds ----------------------------------------------------------------------------------


def named_commit() -> str:
    """The commit the newest CHANGELOG version names (`## [x.y.z] ... commit abc1234`), else
    the default."""
    text = (CHECKOUT / "CHANGELOG.md").read_text(encoding="utf-8")
    found = re.search(r"^## \[\d[^\]]*\].*?\bcommit ([0-9a-f]{7,40})", text, re.M)
    return found.group(1) if found else DEFAULT_AGAINST


def _run(*args: str, cwd: Path = CHECKOUT, env=None) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    if done.returncode:
        sys.exit(f"bench_against: {' '.join(args[:4])} failed: {done.stderr[-800:]}")
    return done.stdout


def build(name: str, sources: Path) -> Path:
    """A venv with the wheel of `sources` installed (compiled as pip compiles it): its Python."""
    venv = WORK / f"venv-{name}"
    python = venv / "bin" / "python"
    if not python.exists():
        _run(sys.executable, "-m", "venv", str(venv))
    wheels = WORK / f"wheels-{name}"
    _run(str(python), "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(sources))
    (wheel,) = sorted(wheels.glob("*.whl"), key=lambda p: p.stat().st_mtime)[-1:]
    _run(str(python), "-m", "pip", "install", "--quiet", "--force-reinstall", str(wheel))
    return python


def earlier(commit: str) -> Path:
    """The build of an earlier commit, made once and kept."""
    sha = _run("git", "rev-parse", "--short=12", commit).strip()
    python = WORK / f"venv-{sha}" / "bin" / "python"
    if python.exists() and _run(str(python), "-c", "import sgn, orjson; print(sgn.__file__)"):
        return python
    sources = WORK / f"src-{sha}"
    if not sources.exists():
        sources.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", sha], cwd=CHECKOUT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(sources)], input=archive, check=True)
    return build(sha, sources)


# -- the data --------------------------------------------------------------------------------------


def data(folder: Path) -> Dict[str, str]:
    """The workloads' files, made once: the same bytes for every build."""
    folder.mkdir(parents=True, exist_ok=True)
    stream = gzip.decompress((CHECKOUT / "t" / "data" / "catanatron-games.sgn.gz").read_bytes())
    out = {"repetitive": folder / "repetitive.sgn", "archive": folder / "archive.sgn", "ten": folder / "ten.sgn"}
    starts = [m.start() for m in re.finditer(rb'^\["B","DM"', stream, re.M)] + [len(stream)]
    if not out["repetitive"].exists():  # ten games, over and over: lines seen before, in their context
        ten = stream[: starts[10]]
        out["repetitive"].write_bytes(ten * (1_000_000 // ten.count(b"\n")))
    if not out["archive"].exists():
        sys.path.insert(0, str(CHECKOUT))
        from sgn.play import iter_games

        generated = "".join(
            json.dumps(m, separators=(",", ":")) + "\n" for game in iter_games(700, 4, seed=3) for m in game
        )
        out["archive"].write_bytes(stream + generated.encode())
    if not out["ten"].exists():
        out["ten"].write_bytes(b'["1","RD",{"result":8}]\n' * 10)
    games = folder / "games"
    if not games.exists():
        games.mkdir()
        for i in range(GAMES):
            (games / f"{i:03}.sgn").write_bytes(stream[starts[i] : starts[i + 1]])
    found = {name: str(path) for name, path in out.items()}
    found["games"] = str(games)
    return found


# -- the child: one build's figures ----------------------------------------------------------------

CHILD = r"""
import json, os, subprocess, sys, time
files = json.loads(sys.argv[1])
import orjson, sgn

def paired(base, run, times=5):
    # the ratio of the best of `times` runs of each, `base` and `run` taken in turn: a slow
    # spell of the machine falls on both, not on one's runs in a row
    fastest = [float("inf"), float("inf")]
    for _ in range(times):
        for i, step in enumerate((base, run)):
            start = time.perf_counter()
            step()
            fastest[i] = min(fastest[i], time.perf_counter() - start)
    return fastest[0] / fastest[1]

def parsing(paths):
    def run():
        for path in paths:
            with open(path, "rb") as handle:
                for line in handle:
                    orjson.loads(line)
    return run

def memory_cleared():
    for where in ("sgn.layers.fastpath", "sgn.fastpath"):
        try:
            module = __import__(where, fromlist=["MEMORY"])
            module.MEMORY.clear()
            return
        except (ImportError, AttributeError):
            pass

def checking(paths, level, api):
    def run():
        memory_cleared()  # (each run starts cold)
        for path in paths:
            if api:
                sgn.check(path, level=level)
            else:
                for _ in sgn.iter_diagnostics(path, level=level):
                    pass
    return run

def process(args):
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start

games = sorted(os.path.join(files["games"], n) for n in os.listdir(files["games"]))
out = {}
out["semantic, repetitive lines"] = paired(parsing([files["repetitive"]]), checking([files["repetitive"]], "semantic", False))
parse_code = "import orjson,sys\nfor line in open(sys.argv[1], 'rb'): orjson.loads(line)"
out["semantic, archive stream (start-up included)"] = process(["-c", parse_code, files["archive"]]) / process(
    ["-m", "sgn", "validate", "-q", "--level", "semantic", files["archive"]]
)
out["rules, engine games with faults"] = paired(parsing(games), checking(games, "rules", True))
peak = subprocess.run(
    [sys.executable, "-c",
     "import runpy, sys\nsys.argv = ['sgn', 'validate', '-q', '--level', 'semantic', sys.argv[1]]\n"
     "try:\n    runpy.run_module('sgn', run_name='__main__')\nexcept SystemExit:\n    pass\n" + files["print_peak"],
     files["repetitive"]],
    capture_output=True, text=True)
out["peak memory, semantic (MB)"] = int([l for l in peak.stderr.splitlines() if l.startswith("PEAK ")][-1].split()[1]) / 1024
starts = sorted(process(["-m", "sgn", "validate", "-q", files["ten"]]) for _ in range(5))
bare = sorted(process(["-c", "import orjson"]) for _ in range(5))
out["start-up, 10 lines / python + orjson"] = starts[2] / bare[2]
print(json.dumps(out))
"""


def figures(python: Path, files: Dict[str, str]) -> Dict[str, float]:
    given = dict(files, print_peak=PRINT_PEAK)  # (the measured process prints its own peak: bench/peak.py)
    done = subprocess.run([str(python), "-c", CHILD, json.dumps(given)], capture_output=True, text=True, cwd=WORK)
    if done.returncode:
        sys.exit(f"bench_against: the workloads failed under {python}: {done.stderr[-800:]}")
    return json.loads(done.stdout.splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default=None, help="the earlier commit (default: the CHANGELOG's, else 7396d37)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    commit = args.against or named_commit()
    WORK.mkdir(parents=True, exist_ok=True)
    print(f"building {commit} and this checkout under {WORK} ...", flush=True)
    builds = {commit: earlier(commit), "this checkout": build("checkout", CHECKOUT)}
    files = data(WORK / "data")
    found: Dict[str, Dict[str, List[float]]] = {name: {} for name in builds}
    for round_ in range(args.rounds):
        for name, python in builds.items():
            start = time.perf_counter()
            for figure, value in figures(python, files).items():
                found[name].setdefault(figure, []).append(value)
            print(f"  round {round_ + 1}, {name}: {time.perf_counter() - start:.0f} s", flush=True)
    return report(commit, found)


def report(commit: str, found: Dict[str, Dict[str, List[float]]]) -> int:
    old, new = found[commit], found["this checkout"]
    print(f"\n{'figure':46} {commit:>12} {'now':>10} {'change':>8} {'target':>10}  {'the rounds (old; now)':>24}")
    missed = 0
    for figure, (target, unit) in TARGETS.items():
        a, b = statistics.median(old[figure]), statistics.median(new[figure])
        better = b <= -target if target < 0 else b >= target
        missed += not better
        change = (a / b - 1) if target < 0 else (b / a - 1)  # (positive: better)
        goal = f"{'<=' if target < 0 else '>='} {abs(target):g}"
        spread = f"{min(old[figure]):.3g}-{max(old[figure]):.3g}; {min(new[figure]):.3g}-{max(new[figure]):.3g}"
        print(f"{figure:46} {a:12.3f} {b:10.3f} {change:+8.0%} {goal:>10} {'met' if better else 'MISSED':6}  {spread}")
    print(f"(each the median of {len(next(iter(new.values())))} rounds, and the least and most of them; a ratio to")
    print(" orjson: higher is faster. A round's times drift by 10 to 20% on a shared machine: read a change")
    print(" smaller than the rounds' spread as none)")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
