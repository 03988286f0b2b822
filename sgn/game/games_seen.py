"""The games of one log, one after another (a map after a game's end begins the next): the
line of each one's map, its winner and the rules it followed, for the summary's line per
game. The first MAX_GAMES_LISTED are listed, the rest counted, so that memory stays bounded.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ..layers.records import player_colors, player_names
from .core import OVER, Game

MAX_GAMES_LISTED = 1000  # games of one log whose line and winner are kept (the rest are counted)


class GamesSeen:
    def __init__(self) -> None:
        self.starts: List[int] = []  # the line of each listed game's map
        self.winners: List[Optional[str]] = []
        self.variants: List[str] = []  # the rules each listed game followed (filled as the next begins)
        self.headers: List[Optional[Dict[str, Any]]] = []  # each listed game's header, if it has one
        self.count = 0
        self.unlisted_from = 0  # the line of the first game not listed (0: all are)

    def begin(self, line: int, header: Optional[Dict[str, Any]] = None) -> None:
        """A game begins at `line` (its map), with its header's value if it has one."""
        self.count += 1
        if len(self.starts) < MAX_GAMES_LISTED:
            self.starts.append(line)
            self.winners.append(None)
            self.variants.append("")
            self.headers.append(header)
        elif not self.unlisted_from:
            self.unlisted_from = line

    def _listing(self) -> bool:
        """Whether the game being replayed is listed."""
        return bool(self.variants) and self.count == len(self.starts)

    def note_end(self, game: Game) -> None:
        """The game being replayed, if it has ended: its winner noted."""
        if game.phase == OVER and self._listing() and self.winners[-1] is None:
            self.winners[-1] = game.current

    def close(self, game: Game) -> None:
        """The game being replayed is over and another begins: the rules it followed noted."""
        if self._listing():
            self.variants[-1] = game.variant.name

    def rules(self, game: Game) -> List[str]:
        """The rules each listed game follows (its map chose them), `game` (the one being
        replayed) included."""
        if self._listing():
            return self.variants[:-1] + [game.variant.name]
        return list(self.variants)

    def listing(self, counts: List[List[int]], game: Game) -> List[Dict[str, Any]]:
        """Each listed game: its number, the line of its map, its errors and warnings (from
        `counts`, one [errors, warnings] a game so far), its winner and its rules; and where
        it has a header, the players' names and how it ended as the header says."""
        counts = counts + [[0, 0]] * (len(self.starts) - len(counts))
        out = []
        for n, (start, (errors, warnings), winner, rules, header) in enumerate(
            zip(self.starts, counts, self.winners, self.rules(game), self.headers), 1
        ):
            listed: Dict[str, Any] = {
                "game": n,
                "line": start,
                "errors": errors,
                "warnings": warnings,
                "winner": winner,
                "rules": rules,
            }
            if header is not None:
                names, colors = player_names(header), player_colors(header)
                if names:
                    listed["players"] = names
                if colors:
                    listed["colors"] = colors
                how = (header.get("result") or {}).get("how")
                if how is not None:
                    listed["result"] = how
            out.append(listed)
        return out


__all__ = ["MAX_GAMES_LISTED", "GamesSeen"]
