"""The errors and warnings of each game of a log (a stream may hold several, each from its
map or header), counted as the file's diagnostics pass by, from the lines the replay says
each game starts at: what `Result.games` lists beside each game's winner and rules."""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional

from ..diagnostic import Diagnostic

if TYPE_CHECKING:
    from ..game.recovery import Replay


class PerGame:
    """Each game's [errors, warnings], counted from what is reported of the file."""

    def __init__(self) -> None:
        self.counts: List[List[int]] = []

    def counted(
        self, diagnostics: Iterator[Diagnostic], replay_of: Callable[[], Optional["Replay"]]
    ) -> Iterator[Diagnostic]:
        """`diagnostics`, counted per game as they pass (`replay_of()`: the file's replay
        now, None below the rules level or before the level is known)."""
        counts = self.counts
        for found in diagnostics:
            replay = replay_of()
            if replay is not None and found.line:
                seen = replay.seen
                if seen.starts and not (seen.unlisted_from and found.line >= seen.unlisted_from):
                    game = bisect.bisect_right(seen.starts, found.line) - 1
                    if game >= 0:
                        while len(counts) <= game:
                            counts.append([0, 0])
                        counts[game][0] += found.occurrences if found.is_error else 0
                        counts[game][1] += found.occurrences if found.severity == "warning" else 0
            yield found

    def listing(self, replay: Optional["Replay"]) -> List[Dict[str, Any]]:
        """Each game of the log, in order (after iteration), at most the first 1,000: the line
        of its map, its errors and warnings, its winner, its rules (`GamesSeen.listing`)."""
        return replay.seen.listing(self.counts, replay.game) if replay is not None else []


__all__ = ["PerGame"]
