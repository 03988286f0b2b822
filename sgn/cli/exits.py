"""What every command shares: its exit statuses, and the types of counts on its command line."""

from __future__ import annotations

import argparse
import math
import os

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2  # done / something is invalid / cannot do it
EXIT_UNDECIDED = 3  # a bound reached: not decided (`sgn validate`), not listed (`sgn moves`)


def positive_int(text: str) -> int:
    """A command-line count: a whole number, at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def positive_seconds(text: str) -> float:
    """A time on the command line: a finite number of seconds, more than 0 (`nan`, `inf`,
    `1e400`, `0` and `-5` are no time anything can be given)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds")
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: must be a finite number of seconds greater than 0")
    return value


def nonempty(text: str) -> str:
    """A name on the command line (of standard input, say): not empty."""
    if not text:
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def cores() -> int:
    """The processors this process may run on (its affinity where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def job_count(text: str) -> int:
    """A number of processes: a whole number, at least 1; 0 or `auto` is one per core."""
    if text.strip().lower() in ("0", "auto"):
        return cores()
    try:
        return positive_int(text)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{error}; 0 or auto is one job per core")
