#!/usr/bin/env python3
"""Benchmark: memory stays bounded however many boards a run meets.

Every table that `sgn` keeps between lines and between calls (the memory of verified
lines, the boards it has seen, the geometry caches) is bounded. Two workloads that would
show a table without a bound, each in a fresh process, with its peak resident memory:

- one file of --segments game segments (the first --length messages of a real game,
  map included), each moved to a board position of its own, checked by `sgn validate`;
- --calls calls of `sgn.iter_diagnostics` in one process, each on a game moved to a
  board position of its own;
- a file of lines each as long as the default line limit allows and as costly as a
  line can be once parsed (`[[]],` repeated: two Python lists for every five bytes),
  between real messages.

Prints each figure beside the 64 MB target; exit 1 when one is missed. `bench_validate.py`
runs these too. Usage:
    python bench/bench_bounds.py [--segments N] [--calls N] [--length L]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import sgn  # noqa: F401  (the installed package, compiled if it was built so)
except ImportError:  # a checkout without an install: its sources
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sgn import play  # noqa: E402

TARGET_MB = 64
# A child process that measures its own peak (VmHWM: this process image alone).
_PEAK = "print([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1], file=sys.stderr)\n"
_CALLS = """
import io, json, sys
import sgn
from sgn import play
game = play.random_game(3)
for i in range({calls}):
    moved = play.moved(game, i % 101 * 7 - 350, i // 101 * 7 - 350)
    data = "".join(json.dumps(m, separators=(",", ":")) + "\\n" for m in moved).encode()
    for d in sgn.iter_diagnostics(io.BytesIO(data)):
        assert not d.is_error, d
"""
_FILE = """
import runpy, sys
sys.argv = ['sgn', 'validate', '-q', {path!r}]
try:
    runpy.run_module('sgn', run_name='__main__')
except SystemExit:
    pass
"""


def _peak_mb(script: str, cwd: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", script + _PEAK], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd
    )
    if done.returncode:
        raise SystemExit(f"the measured run failed:\n{done.stderr}")
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def write_segments(path: str, segments: int, length: int) -> int:
    """A file of game segments, each on its own board; returns the number of messages."""
    game = play.random_game(3)[:length]
    with open(path, "w") as out:
        for i in range(segments):
            moved = play.moved(game, i % 101 * 7 - 350, i // 101 * 7 - 350)
            out.write("".join(json.dumps(m, separators=(",", ":")) + "\n" for m in moved))
    return segments * len(game)


def write_costly_lines(path: str, count: int = 20) -> None:
    """Lines that fill the default limit with the JSON that costs most once parsed."""
    from sgn.layers.reader import DEFAULT_MAX_LINE_BYTES

    items = (DEFAULT_MAX_LINE_BYTES - 2) // 5
    costly = "[" + ",".join(["[[]]"] * items) + "]\n"
    assert len(costly) - 1 <= DEFAULT_MAX_LINE_BYTES
    with open(path, "w") as out:
        for _ in range(count):
            out.write(costly + '["1","RD",{"result":8}]\n')


def targets(segments: int = 10_000, calls: int = 1_000, length: int = 80):
    """(target, figure, met) rows, in the style of bench_validate's table."""
    scratch = tempfile.mkdtemp(prefix="sgn-bench-bounds-")
    path = os.path.join(scratch, "boards.sgn")
    messages = write_segments(path, segments, length)
    in_file = _peak_mb(_FILE.format(path=path), scratch)
    os.unlink(path)
    in_calls = _peak_mb(_CALLS.format(calls=calls), scratch)
    write_costly_lines(path)
    costly = _peak_mb(_FILE.format(path=path), scratch)
    os.unlink(path)
    os.rmdir(scratch)
    return [
        (
            f"peak RSS <= {TARGET_MB} MB, one file, {segments:,} boards ({messages:,} messages)",
            f"{in_file:.1f} MB",
            in_file <= TARGET_MB,
        ),
        (
            f"peak RSS <= {TARGET_MB} MB, {calls:,} API calls, each on its own board",
            f"{in_calls:.1f} MB",
            in_calls <= TARGET_MB,
        ),
        (
            f"peak RSS <= {TARGET_MB} MB, lines as costly as the line limit allows",
            f"{costly:.1f} MB",
            costly <= TARGET_MB,
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, default=10_000, help="game segments in the one file")
    parser.add_argument("--calls", type=int, default=1_000, help="API calls in one process")
    parser.add_argument("--length", type=int, default=80, help="messages in each segment")
    args = parser.parse_args()
    rows = targets(args.segments, args.calls, args.length)
    width = max(len(t) for t, _, _ in rows)
    print(f"{'target':{width}}  {'measured':>10}  result")
    for target, figure, ok in rows:
        print(f"{target:{width}}  {figure:>10}  {'ok' if ok else 'MISSED'}")
    return 0 if all(ok for _, _, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
