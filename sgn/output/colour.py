"""Colour on a terminal: whether to use it (`--color auto|always|never`, NO_COLOR, FORCE_COLOR,
TERM=dumb) and the one table of what each part of a report is painted with."""

from __future__ import annotations

from typing import Mapping, TextIO

CHOICES = ("auto", "always", "never")

# ANSI SGR sequences, by the role of the text they paint (as ruff paints its own report)
PALETTE = {
    "location": "\033[1m",  # file:line:column: bold
    "error": "\033[1;31m",  # the code of an error, the verdict INVALID: bold red
    "warning": "\033[1;33m",  # "warning:" and the code of a warning: bold yellow
    "info": "\033[1;36m",  # "info:" and the code of an info: bold cyan
    "hint": "\033[1;36m",  # "hint:": bold cyan
    "valid": "\033[1;32m",  # the verdict valid: bold green
    "dim": "\033[2m",  # the pointer
}
RESET = "\033[0m"


def wanted(choice: str, stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether to paint what goes to `stream`. `always` and `never` are what they say; `auto`
    paints only on a terminal, unless NO_COLOR is set (not empty) or TERM is dumb, and
    paints in a pipe too when FORCE_COLOR is set (not empty) and NO_COLOR is not."""
    if choice != "auto":
        return choice == "always"
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    on_terminal = hasattr(stream, "isatty") and stream.isatty()
    return on_terminal and environ.get("TERM") != "dumb"


class Painter:
    """Paints text by role, or leaves it as it is when colour is off."""

    def __init__(self, on: bool):
        self.on = on

    def __call__(self, text: str, role: str) -> str:
        return f"{PALETTE[role]}{text}{RESET}" if self.on and text else text
