"""What every command shares: its exit statuses, and the type of a count on its command line."""
from __future__ import annotations

import argparse

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2    # done / something is invalid / cannot do it


def positive_int(text: str) -> int:
    """A command-line count: a whole number, at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value
