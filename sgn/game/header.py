"""A game's header against the game (docs/format.md, "Records"): what the replay says of
the seats, the variant and the result the header (`["B", "HD", {...}]`) claims.

A header is never required and never changes how a move is judged; it is checked when its
game is closed (the next header or map, or the end of the log), at that line, each claim
the replay contradicts an error of its own code; but not where the game has an error
already (a fault says that the log is not the game played, of which the header may be
right: one fault, one error). A result other than "won" (abandoned,
forfeited, time, adjudicated, turn-limit) is the game's end: what the log leaves owed is
then not unfinished, and the next game may begin at once.
"""

from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from ..diagnostic import Problem
from ..layers.records import ENDED, WON
from .rule_profiles import PROFILES
from .state import OVER, SETUP, State

VARIANTS = {"base game": "base", "5-6 player extension": "5-6"}  # the header's name of a map's variant


class Header(NamedTuple):
    """A header read by the replay: its line and its value (checked by the layers before)."""

    line: int
    value: Dict[str, Any]

    @property
    def result(self) -> Dict[str, Any]:
        result = self.value.get("result")
        return result if isinstance(result, dict) else {}

    @property
    def ends_game(self) -> bool:
        """Whether the header says the game ended otherwise than by a win (abandoned, ...):
        the game is then over where the log stops."""
        how = self.result.get("how")
        return how is not None and how != WON

    @property
    def rules(self) -> Optional[str]:
        rules = self.value.get("rules")
        return rules if isinstance(rules, str) else None


class Headers:
    """The header of the game being replayed, if it has one: read, then checked against its
    game when that game is closed (`close`)."""

    def __init__(self) -> None:
        self.current: Optional[Header] = None
        # a header read while a game ran: the next game's, if that game's map follows it at once
        self.waiting: Optional[Header] = None
        # the game has an error already: the log is not the game played, and its header,
        # which may be right of that game, is not held to the replay (one fault, one error)
        self.faulted = False

    @property
    def ends_game(self) -> bool:
        return self.current is not None and self.current.ends_game

    @property
    def rules(self) -> Optional[str]:
        return self.current.rules if self.current is not None else None

    @property
    def value(self) -> Optional[Dict[str, Any]]:
        return self.current.value if self.current is not None else None

    def read(self, header: Header, game: State, starts: List[int]) -> Tuple[List[Problem], bool]:
        """A header: what it breaks, and whether a game begins with it (the game before, if
        one was replayed, is closed here). A second header before a map is one fault: the
        first is kept."""
        if game.board is None and self.current is not None:
            return [misplaced(game, None, self.current)], False
        problems = []
        if game.board is not None:
            if game.phase != OVER and not self.ends_game:
                self.waiting = header
                return [misplaced(game, starts[-1] if starts else None, None)], False
            problems += self.close(game)
        return problems + self._begin(header), True

    def _begin(self, header: Header) -> List[Problem]:
        self.current = header
        unknown = unknown_rules(header)
        return [unknown] if unknown is not None else []

    def cuts_short(self, line: int) -> bool:
        """Whether a map at `line` begins the game of a header read while a game ran (its
        `header-misplaced` said that game was cut short)."""
        return self.waiting is not None and self.waiting.line == line - 1

    def next_game(self, line: int) -> List[Problem]:
        """A map at `line` begins a game after the one closed: with the header waiting for it."""
        waiting, self.waiting = self.waiting, None
        return self._begin(waiting) if waiting is not None and waiting.line == line - 1 else []

    def close(self, game: State) -> List[Problem]:
        """The game ends here: what its replay says against its header's claims (nothing
        where the game has an error already)."""
        current, faulted = self.current, self.faulted
        self.current, self.faulted = None, False
        return contradictions(current, game) if current is not None and not faulted else []


def misplaced(game: State, begun: Optional[int], twice: Optional[Header]) -> Problem:
    """A header where no game may begin: a second one before the map, or one while a game
    runs (that game is then cut short, and the next begins here)."""
    if twice is not None:
        return Problem(
            "header-misplaced",
            "/1",
            f"a second header before the game's map (the first at line {twice.line}): the first is kept",
        )
    since = f" (from line {begun})" if begun else ""
    return Problem(
        "header-misplaced",
        "/1",
        f"a header while the game{since} is still running: a header begins a game, before its map "
        "(if a map follows, that game was cut short; else the header is left out)",
    )


def unknown_rules(header: Header) -> Optional[Problem]:
    """A rule profile the header names that sgn does not know: the game is replayed under the
    rulebook's (or the run's choice), and the header is not wrong for another program."""
    rules = header.rules
    if rules is None or rules in PROFILES:
        return None
    known = ", ".join(PROFILES)
    return Problem(
        "header-rules-unknown",
        "/2/rules",
        f"the header names the rules {rules!r}, which are not a profile sgn knows ({known}): "
        "the game is replayed under the run's (--rules), else the rulebook's",
    )


def contradictions(header: Header, game: State) -> List[Problem]:
    """What the replay of the game, now closed, says against its header's claims."""
    out: List[Problem] = []
    at = f"the header (line {header.line})"
    seated = game.phase != SETUP and game.board is not None  # the setup showed who plays
    playing = sorted(game.players, key=lambda s: (len(s), s))
    players = header.value.get("players") or {}
    if seated:
        for seat in players:
            if seat not in game.players:
                out.append(_absent(at, seat, players, playing))
    variant = header.value.get("variant")
    if variant is not None and game.board is not None and VARIANTS.get(game.variant.name) != variant:
        out.append(
            Problem(
                "header-variant",
                "",
                f"{at} says the variant is {variant}, but the map is of the {game.variant.name}",
            )
        )
    result = header.result
    if not result:
        return out
    how, winner = result.get("how"), result.get("winner")
    won = game.phase == OVER and game.board is not None
    # (in a partial view, the game may have ended where cards drawn unseen were Victory Points)
    unseen_end = game.unseen.end if not won else None
    if how == WON and unseen_end is not None:
        may_have_won = unseen_end[1]
        if winner != may_have_won:
            out.append(
                Problem(
                    "header-winner",
                    "",
                    f"{at} says player {winner} won, but only player {may_have_won} may have won "
                    f"(at line {unseen_end[0]}, with cards drawn unseen)",
                )
            )
    elif how == WON and not won:
        out.append(
            Problem(
                "header-unfinished",
                "",
                f"{at} says player {winner} won, but nobody has won when the game ends here",
                "a game that stopped before anyone won is abandoned (or forfeited, time, adjudicated, turn-limit)",
            )
        )
    elif how == WON and winner != game.current:
        out.append(
            Problem(
                "header-winner",
                "",
                f"{at} says player {winner} won, but player {game.current} won at line {game.ended_at}",
            )
        )
    elif how != WON and won:
        out.append(
            Problem(
                "header-winner",
                "",
                f"{at} says the game was {ENDED.get(str(how), how)}, but player {game.current} won it at line {game.ended_at}",
            )
        )
    if seated:
        out += _points(at, result.get("points") or {}, game, players, playing)
    return out


def _absent(at: str, seat: str, players: Dict[str, Any], playing: List[str]) -> Problem:
    entry = players.get(seat)
    name = f" ({entry['name']})" if isinstance(entry, dict) and "name" in entry else ""
    return Problem(
        "header-seat",
        "",
        f"{at} names player {seat}{name}, who does not play in this game ({', '.join(playing)} play)",
    )


def _points(at: str, points: Dict[str, int], game: State, players: Dict[str, Any], playing: List[str]) -> List[Problem]:
    """Each seat's points the header gives against the replay's: exactly, where every card
    is seen; within the least and most the unseen cards allow, where some are not."""
    out = []
    for seat, claimed in sorted(points.items()):
        if seat not in game.players:
            if seat not in players:  # (a seat named in players is told of once, above)
                out.append(_absent(at, seat, players, playing))
            continue
        least, most = game.points_range(seat)
        if not least <= claimed <= most:
            counted = str(least) if least == most else f"{least} to {most}"
            out.append(
                Problem("header-points", "", f"{at} gives player {seat} {claimed} points; the replay counts {counted}")
            )
    return out
