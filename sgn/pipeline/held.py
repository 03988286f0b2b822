"""Diagnostics held back while the replay weighs a fault: it reads a few messages past it
before it decides how to read it, and what the other layers find on those lines waits, so
that the output stays in line order."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Tuple

from ..diagnostic import Diagnostic

if TYPE_CHECKING:
    from ..game.recovery import Replay


def reading_on(replay: Optional["Replay"], until: int) -> bool:
    """Whether a check that stops after line `until` reads on: while the replay holds a
    fault of a line up to it, so that its reading is chosen as the whole log would choose
    it (what later lines give is the caller's to drop)."""
    held = replay.held_from if replay is not None else None
    return held is not None and held <= until


def in_order(
    found: List[Diagnostic], held: List[Tuple[int, int, Diagnostic]], number: int, undecided: bool
) -> List[Diagnostic]:
    """What can be reported now, in line order: nothing while the replay is undecided
    (`found` is held back with the rest); else all that was held, sorted, and `found`."""
    for d in found:
        held.append((d.line or number, len(held), d))
    if undecided:
        return []
    held.sort(key=lambda entry: (entry[0], entry[1]))
    out = [entry[2] for entry in held]
    held.clear()
    return out
