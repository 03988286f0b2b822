"""Diagnostics held back while the replay weighs a fault: it reads a few messages past it
before it decides how to read it, and what the other layers find on those lines waits, so
that the output stays in line order."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Tuple

from ..diagnostic import Diagnostic

# Errors after which the reader gives no more lines.
STREAM_ENDS = frozenset({"gzip-truncated", "gzip-corrupt", "read-error"})

if TYPE_CHECKING:
    from ..game.recovery import Replay


def reading_on(replay: Optional["Replay"], until: int) -> bool:
    """Whether a check that stops after line `until` reads on: while the replay holds a
    fault of a line up to it, so that its reading is chosen as the whole log would choose
    it (what later lines give is the caller's to drop)."""
    held = replay.held_from if replay is not None else None
    return held is not None and held <= until


class Held:
    """The diagnostics held back while the replay is undecided, each with its line and the
    order it was found in; given out in line order once it decides."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: List[Tuple[int, int, Diagnostic]] = []

    def any(self) -> bool:
        return len(self.entries) > 0

    def add(self, found: Diagnostic, number: int) -> None:
        """Holds `found` (of line `number` if it names none) until the next release."""
        self.entries.append((found.line or number, len(self.entries), found))

    def told(
        self, found: Diagnostic, replay: Optional["Replay"], number: int, until: int
    ) -> Optional[List[Diagnostic]]:
        """A diagnostic of the reader's own (bytes, gzip, a line too long): what to report
        now; None when it is past the last line to check and reading stops there."""
        if (found.line or 0) > until:
            return [] if reading_on(replay, until) else None
        # (an error that ends the stream waits for what the end of the file brings)
        waits = self.any() or found.code in STREAM_ENDS or (replay is not None and replay.undecided)
        return self.release([found], number, waits)

    def release(self, found: List[Diagnostic], number: int, undecided: bool) -> List[Diagnostic]:
        """What can be reported now, in line order: nothing while the replay is undecided
        (`found` is held back with the rest); else all that was held, sorted, and `found`."""
        entries = self.entries
        for d in found:
            entries.append((d.line or number, len(entries), d))
        if undecided:
            return []
        entries.sort(key=_place)
        out = [entry[2] for entry in entries]
        entries.clear()
        return out


def _place(entry: Tuple[int, int, Diagnostic]) -> Tuple[int, int]:
    return entry[0], entry[1]
