"""Openings (`sgn play --openings FILE`), as cutechess-cli plays chess from an opening book:
games that start from recorded positions instead of a random board, so that bots are
compared on the same starts. The file is an SGN log of one or more games (each from its
map); each game gives its first lines (through the setup, or `--opening-lines N`), checked by
the rules replay before any bot is asked anything."""

from __future__ import annotations

import json
from typing import List, Optional, Tuple

from ..game.errors import IllegalMove
from ..game.position import from_messages

Opening = Tuple[str, ...]  # the opening's lines, as JSON text


class OpeningError(ValueError):
    """The openings cannot be played (the message says why, and where)."""


def read_openings(path: str, players: int, rules: str, lines: Optional[int] = None) -> List[Opening]:
    """Each game of the file cut to its opening: its first `lines` lines, or the lines
    before its first roll (the map and the setup)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise OpeningError(f"cannot read the openings {path}: {getattr(error, 'strerror', None) or error}") from None
    games: List[List[list]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            is_map = message[1] == "DM"
        except (
            ValueError,
            TypeError,
            IndexError,
            KeyError,
            RecursionError,
        ):  # (RecursionError: nested past the parser)
            raise OpeningError(f"{path}:{number}: not an SGN message") from None
        if message[1] == "HD":
            continue  # (a game's header: no move of its opening)
        if is_map:
            games.append([])
        elif not games:
            raise OpeningError(f"{path}:{number}: a game of the openings starts with its map (DM)")
        games[-1].append(message)
    if not games:
        raise OpeningError(f"{path} holds no game")
    return [_opening(path, i, game, players, rules, lines) for i, game in enumerate(games, 1)]


def _opening(path: str, index: int, game: List[list], players: int, rules: str, lines: Optional[int]) -> Opening:
    if lines is None:
        lines = next((i for i, m in enumerate(game) if m[1] == "RD"), len(game))
    cut = game[:lines]
    try:
        replay = from_messages(cut, rules, strict=True)
    except IllegalMove as refused:
        first = refused.problems[0]
        raise OpeningError(f"{path}: game {index}, line {refused.line}: {first.message} [{first.code}]") from None
    except ValueError as error:  # (a message the replay cannot apply: MessageError, naming it)
        raise OpeningError(f"{path}: game {index}: {error}") from None
    if replay.outcome() is not None:
        raise OpeningError(f"{path}: game {index} is over by line {len(cut)}: an opening must leave a game to play")
    seats = len(set(replay.setup_order))
    if (replay.count is not None and replay.count != players) or seats > players:
        raise OpeningError(
            f"{path}: game {index} is a game of {replay.count or seats} players, not {players} (--players)"
        )
    if players not in replay.variant.player_counts:
        counts = " or ".join(map(str, replay.variant.player_counts))
        raise OpeningError(f"{path}: game {index}'s map is for {counts} players, not {players} (--players)")
    return tuple(json.dumps(m, separators=(",", ":")) for m in cut)
