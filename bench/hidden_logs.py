"""The logs that bench/bench_hidden.py judges with hidden values (docs/hidden.md): the
recorded engine games of t/data, generated games, the views of a log (a seat's and a
spectator's, `sgn.notation.redact.hide`), faults in hands, and two adversarial logs: every
card hidden, and a long run of hidden steals. Every log here is one a referee could see:
the full log is played out first, by the rules, and what a view hides is hidden from it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
try:
    import sgn  # noqa: F401  (the installed package, compiled if it was built so)
except ImportError:  # a checkout without an install: its sources
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "t"))  # the readers of the recorded games, shared with the tests

import catanatron_games  # noqa: E402
import jsettlers_games  # noqa: E402
from sgn import board, rules  # noqa: E402
from sgn.game import Game  # noqa: E402
from sgn.notation.redact import hide  # noqa: E402
from sgn.play import random_game  # noqa: E402
from sgn.rules import RESOURCES  # noqa: E402

Log = List[list]


class Named(NamedTuple):
    name: str
    game: Log


# -- the games ---------------------------------------------------------------------------------


def engine_games(limit: Optional[int] = None) -> List[Named]:
    """The recorded engine games of t/data, as SGN: JSettlers' 4- and 6-player games and
    catanatron's (3.2.1 and 3.3.0), converted as `sgn convert` converts them. `limit`: at
    most that many of each recording, spread over the player counts."""
    found: List[Named] = []
    for kind in ("4p", "6p"):
        for name, lines in jsettlers_games.recorded(kind)[:limit]:
            found.append(Named(f"jsettlers/{name}", jsettlers_games.converted(name, lines).messages))
    for path in (catanatron_games.RELEASED, catanatron_games.LATER):
        recorded = catanatron_games.recorded(path)
        if limit is not None:  # both player counts: every other game, from each end
            recorded = (recorded[: (limit + 1) // 2] + recorded[::-1][: limit // 2])[:limit]
        for name, data in recorded:
            found.append(Named(f"catanatron/{name}", catanatron_games.messages(data)))
    return found


def generated_games(count: int, seed: int = 0) -> List[Named]:
    """`count` games of `sgn.play`, 3, 4, 5 and 6 players in turn."""
    out = []
    for i in range(count):
        players = 3 + i % 4
        out.append(Named(f"generated seed {seed + i}, {players} players", random_game(seed + i, players)))
    return out


def players(game: Log) -> List[str]:
    return sorted({m[0] for m in game if isinstance(m, list) and m and m[0] != "B"}, key=int)


# -- views ---------------------------------------------------------------------------------------


def view(game: Log, seat: Optional[str]) -> Log:
    """The log as `seat` sees it (None: a spectator)."""
    return [hide(m, seat) for m in game]


def seats(game: Log) -> List[Optional[str]]:
    """Every view of a log: the spectator's (None), then each player's."""
    return [None, *players(game)]


def every_card_hidden(game: Log) -> Log:
    """The spectator's view with every roll hidden too: every card any player gets or gives
    unseen but for builds, trades, discards and cards played (the most a log can hide)."""
    return [[m[0], "RD", {"result": "?"}] if m[1] == "RD" else hide(m, None) for m in view(game, None)]


def adversarial_logs(engine: List[Named], generated: List[Named], steals: int) -> List[Tuple[str, Log]]:
    """The views that cost the most: every card hidden in the first of the valid engine games
    of JSettlers' 4 and 6 players and of catanatron, and in the first generated game of the
    most players; then `steals` hidden steals in a row, from few cards held (the turns before
    message 40) and from more (before message 80)."""
    firsts = [
        next((g for g in engine if g.name.startswith(kind)), None)
        for kind in ("jsettlers/jsettlers-4p", "jsettlers/jsettlers-6p", "catanatron")
    ]
    if generated:
        firsts.append(max(generated[:4], key=lambda g: len(players(g.game))))
    out = [(f"every card hidden: {g.name}", every_card_hidden(g.game)) for g in firsts if g is not None]
    for prefix in (40, 80):
        out.append(
            (
                f"{steals:,} hidden steals in a row, 4 players, after message {prefix}",
                view(steals_log(steals, prefix=prefix), None),
            )
        )
    return out


# -- faults in hands ---------------------------------------------------------------------------------


def _after_rolls(game: Log) -> Iterator[Tuple[int, Game]]:
    """(index, state before it) of each message that follows a roll other than 7 by the
    player whose turn it is, while the game goes on."""
    state = Game()
    for i, message in enumerate(game):
        if i and game[i - 1][1] == "RD" and game[i - 1][2]["result"] != rules.ROBBER_ROLL and state.phase != "over":
            yield i, state
        state.apply(message, i + 1)


def card_not_held(game: Log, pick: int):
    """A Year of Plenty played by the player whose turn it is, right after their roll, who
    holds none in sight: card-not-held."""
    spots = []
    for i, state in _after_rolls(game):
        p = state.players[state.current]
        wanted = [r for r in RESOURCES if state.bank[r] >= 2]
        if not state.card_played and p.cards["YP"] == 0 and p.new_cards["YP"] == 0 and wanted:
            spots.append((i, state.current, wanted[0]))
    if not spots:
        return None
    i, name, r = spots[pick % len(spots)]
    play = [name, "PD", {"cCode": "YP", "rCodes": [r, r]}]
    return game[:i] + [play] + game[i:], "card-not-held", i + 1


def trade_not_held(game: Log, pick: int):
    """A four-for-one bank trade, right after the player's roll, of a resource they hold
    one to three of: not-held."""
    spots = []
    for i, state in _after_rolls(game):
        p = state.players[state.current]
        short = [r for r in RESOURCES if 0 < p.hand[r] < 4]
        wanted = [r for r in RESOURCES if state.bank[r] > 0 and r not in short]
        if short and wanted:
            spots.append((i, state.current, max(short, key=lambda r: p.hand[r]), wanted[0]))
    if not spots:
        return None
    i, name, given, got = spots[pick % len(spots)]
    trade = [
        name,
        "TR",
        [{"player": name, "resources": {given: -4, got: 1}}, {"player": "B", "resources": {given: 4, got: -1}}],
    ]
    return game[:i] + [trade] + game[i:], "not-held", i + 1


HAND_MUTATIONS: Tuple[Callable, ...] = (card_not_held, trade_not_held)


# -- a long run of hidden steals -------------------------------------------------------------------------


def _emit(state: Game, log: Log, message: list) -> None:
    problems = state.apply(message, len(log) + 1)
    assert not problems, (message, problems)
    log.append(message)


def steals_log(steals: int, seed: int = 0, count: int = 4, prefix: int = 80) -> Log:
    """A legal game of `count` players (no Special Build Phase: 3 or 4): the first turns of
    a generated game (up to the first turn that starts at or after message `prefix`), then
    turns in which each player rolls a 7, discards are made where owed, and the robber moves
    next to the other player with the most cards, who is robbed of one: `steals` steals (no
    production: the cards held go round and round). Its spectator's view is the adversarial
    log: every steal hidden, one after another."""
    rng = random.Random(seed)
    game = random_game(seed, count)
    cut = next(i for i in range(prefix, len(game)) if game[i][1] == "RD" and game[i - 1][0] != game[i][0])
    state, log = Game(), []
    for message in game[:cut]:
        _emit(state, log, message)
    assert state.board is not None
    land = [t for t, k in sorted(state.board.kinds.items()) if k != board.SEA]
    current, made = game[cut][0], 0
    while made < steals:
        _emit(state, log, [current, "RD", {"result": rules.ROBBER_ROLL}])
        for name, n in sorted(state.discards_owed.items()):
            hand = state.players[name].hand
            cards = rng.sample([r for r in RESOURCES for _ in range(hand[r])], n)
            given = {r: cards.count(r) for r in sorted(set(cards))}
            side = {"player": name, "resources": {r: -k for r, k in given.items()}}
            _emit(state, log, [name, "TR", [side, {"player": "B", "resources": given}]])
        victims: Dict[board.Tile, List[str]] = {}
        for tile in land:
            corners = set(board.corners_of(tile))
            for name, p in state.players.items():
                if tile != state.robber and name != current and sum(p.hand.values()) and p.buildings & corners:
                    victims.setdefault(tile, []).append(name)
        if not victims:  # nobody to rob: the robber moves on
            _emit(state, log, [current, "MR", {"tile": list(next(t for t in land if t != state.robber))}])
        else:
            richest = max(sum(state.players[v].hand.values()) for vs in victims.values() for v in vs)
            tiles = [t for t, vs in victims.items() if any(sum(state.players[v].hand.values()) == richest for v in vs)]
            tile = rng.choice(tiles)
            victim = next(v for v in victims[tile] if sum(state.players[v].hand.values()) == richest)
            _emit(state, log, [current, "MR", {"tile": list(tile)}])
            hand = state.players[victim].hand
            r = rng.choice([r for r in RESOURCES for _ in range(hand[r])])
            sides = [{"player": current, "resources": {r: 1}}, {"player": victim, "resources": {r: -1}}]
            _emit(state, log, [current, "ST", sides])
            made += 1
        current = state.next_player(current)
    return log
