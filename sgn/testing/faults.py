"""Faults put into a whole legal game, each breaking one rule at a known line: what
`sgn.strategies.invalid_games` draws from, and what the tests of one fault, one error use.

Each mutation takes a whole legal game and a number to pick a place with, and returns
(the game with one fault, the code it raises, its line), the rest of the game kept as it
was; or None when the game has no place for it (a fault of the 5-6 player extension's
Special Build Phase in a game of the base game, say). No Hypothesis here: the games and
the numbers are given.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Tuple

from .. import board, messages, rules
from ..game.core import Game

# what a log breaks as it stands, once here (scripts that read a log's faults import it so)
from .as_it_stands import early_plays, faults_as_it_stands, first_fault  # noqa: F401


def _listing(tiles) -> list:
    return [list(t) for t in tiles]


def _land(state: Game) -> List[board.Tile]:
    """The land tiles of the game's map, in a fixed order."""
    kinds = state.board.kinds if state.board is not None else {}
    return sorted((t for t, k in kinds.items() if k != board.SEA), key=lambda t: (t[1], t[0]))


def _states(game: List[list]):
    """(index, state) for each message of the game, the state being the game just before it."""
    state = Game()
    for i, message in enumerate(game):
        yield i, state
        state.apply(message, i + 1)


def _after_rolls(game: List[list]):
    """(index, state) for each message that follows a roll other than 7, while the game is
    not over."""
    for i, state in _states(game):
        if i and game[i - 1][1] == "RD" and game[i - 1][2]["result"] != rules.ROBBER_ROLL and state.phase != "over":
            yield i, state


def _turn_rolls(game: List[list]):
    """(index, state) for each roll that starts a turn."""
    for i, state in _states(game):
        if game[i][1] == "RD" and game[i][0] != state.current:
            yield i, state


def _insert(game: List[list], i: int, message: list) -> List[list]:
    return game[:i] + [message] + game[i:]


def _drop_map(game: List[list], pick: int):
    return game[1:], "game-without-map", 1


def _after_the_end(game: List[list], pick: int):
    """The last move again; a roll where the game was won with Road Building's first road,
    whose second road may still follow (as the card's play)."""
    last = game[-1]
    if last[1] == "BR" and game[-2][1] == "PD" and game[-2][2].get("cCode") == "RB":
        last = messages.roll(last[0], 8)
    return game + [last], "after-game-end", len(game) + 1


def _roll_twice(game: List[list], pick: int):
    """A second roll in a turn, of another total than the first (a copy of the line before
    would be a line sent twice, `message-repeated`)."""
    spots = [i for i, _ in _after_rolls(game)]
    i = spots[pick % len(spots)]
    player, _, value = game[i - 1]
    again = messages.roll(player, 8 if value["result"] != 8 else 6)
    return _insert(game, i, again), "already-rolled", i + 1


def _roll_out_of_turn(game: List[list], pick: int):
    """A roll by the player after the one whose turn comes, just before the right roll."""
    count = max(int(m[0]) for m in game if m[0] != "B")
    spots = [i for i, _ in _turn_rolls(game)]
    i = spots[pick % len(spots)]
    wrong = str(int(game[i][0]) % count + 1)
    return _insert(game, i, [wrong] + game[i][1:]), "turn-order", i + 1


def _city_without_ore(game: List[list], pick: int):
    spots = []
    for i, state in _after_rolls(game):
        p = state.players[state.current]
        if p.settlements and rules.lacks(p.hand, rules.COSTS["city"]) and len(p.cities) < rules.PIECES["city"]:
            spots.append((i, state.current, min(p.settlements, key=sorted)))
    if not spots:
        return None
    i, name, where = spots[pick % len(spots)]
    city = messages.build_city(name, _listing(board.canonical_corner(where)))
    return _insert(game, i, city), "cannot-afford", i + 1


def _robber_without_seven(game: List[list], pick: int):
    spots = [(i, state.current, next(t for t in _land(state) if t != state.robber)) for i, state in _after_rolls(game)]
    i, name, tile = spots[pick % len(spots)]
    return _insert(game, i, messages.move_robber(name, tile)), "robber-not-allowed", i + 1


def _lost_roll(game: List[list], pick: int):
    """A roll (not a 7) lost from the log, where the same player acts next and the log goes on
    after that (an action that ends the log reads as well as one made before the roll). In
    the 5-6 player extension only a bank trade may follow: a build there is the next
    player's slot in the Special Build Phase of the turn before, which is no fault."""
    count = max(int(m[0]) for m in game if m[0] != "B")
    extension = count in rules.FIVE_SIX.player_counts
    follows = ("TR",) if extension else ("BR", "BS", "BC", "BD", "TR")
    spots = [
        i
        for i, _ in _turn_rolls(game)
        if game[i][2]["result"] != rules.ROBBER_ROLL
        and i + 2 < len(game)
        and game[i + 1][0] == game[i][0]
        and game[i + 1][1] in follows
        and not (extension and game[i + 1][2][1]["player"] != "B")
    ]  # (a trade with the turn before's player is legal)
    if not spots:
        return None
    i = spots[pick % len(spots)]
    return game[:i] + game[i + 1 :], "roll-missing", i + 1


def _late_discard(game: List[list], pick: int):
    """The robber moved before the discards of a 7, which follow it."""
    spots = [
        i
        for i, state in _states(game)
        if game[i][1] == "RD"
        and game[i][2]["result"] == rules.ROBBER_ROLL
        and i + 1 < len(game)
        and game[i + 1][1] == "TR"
    ]
    spots = [
        (i, j)
        for i in spots
        for j in [i + 1 + next(k for k, m in enumerate(game[i + 1 :]) if m[1] != "TR")]
        if j < len(game) and game[j][1] == "MR"
    ]
    if not spots:
        return None
    i, j = spots[pick % len(spots)]
    return game[: i + 1] + [game[j]] + game[i + 1 : j] + game[j + 1 :], "discard-missing", i + 2


def _setup_swapped(game: List[list], pick: int):
    """Two players' first setup turns (settlement and road) swapped."""
    count = max(int(m[0]) for m in game if m[0] != "B")
    k = 1 + pick % (count - 1)  # the k-th and (k+1)-th setup turns, 1-based after the map
    a, b = 1 + 2 * (k - 1), 1 + 2 * k
    return game[:a] + game[b : b + 2] + game[a:b] + game[b + 2 :], "setup-order", a + 1


def _before_own_roll(game: List[list], pick: int):
    """A bank trade or build the player could already pay for, moved before their roll. (In
    the 5-6 player extension a build there is the first slot of the Special Build Phase
    after the turn before, which is no fault: only a trade fits.)"""
    spots = [
        i + 1
        for i, _ in _turn_rolls(game)
        if game[i][2]["result"] != rules.ROBBER_ROLL
        and i + 1 < len(game)
        and game[i + 1][0] == game[i][0]
        and game[i + 1][1] in ("BR", "BS", "BC", "BD", "TR")
    ]
    fits = [
        i
        for i in spots
        if _replays_with(game[: i - 1] + [game[i], game[i - 1]] + game[i + 1 :], i, "roll-first", through=i + 1)
    ]
    if not fits:
        return None
    i = fits[pick % len(fits)]
    return game[: i - 1] + [game[i], game[i - 1]] + game[i + 1 :], "roll-first", i


def _roll_out_of_range(game: List[list], pick: int):
    """A turn's roll written 13: the schema refuses it, and the replay reads it as a roll of
    unknown result, so the turn it begins is no error too."""
    spots = [i for i, _ in _turn_rolls(game)]
    i = spots[pick % len(spots)]
    game[i][2]["result"] = 13
    return game, "schema-maximum", i + 1


# -- the Special Build Phase (5-6 players) ------------------------------------------------------

_SPECIAL = ("BS", "BC", "BR", "BD")


def _special_builds(game: List[list]) -> List[Tuple[int, str]]:
    """(index, the turn's player) of each build by another player after the turn's roll."""
    found, roller = [], None
    for i, (player, action, _) in enumerate(game):
        if action == "RD":
            roller = player
        elif action in _SPECIAL and roller is not None and player != roller:
            found.append((i, roller))
    return found


def _special_trade(game: List[list], pick: int):
    """A bank trade by a player right after their build in a Special Build Phase."""
    spots = _special_builds(game)
    if not spots:
        return None
    i, _ = spots[pick % len(spots)]
    who = game[i][0]
    trade = messages.trade_with_bank(who, {"W": -4, "O": 1}, {"W": 4, "O": -1})
    return _insert(game, i + 1, trade), "special-build-trade", i + 2


def _special_card(game: List[list], pick: int):
    """A Monopoly played, in a Special Build Phase, by a player who neither had the turn nor comes next."""
    spots = _special_builds(game)
    if not spots:
        return None
    i, turn = spots[pick % len(spots)]
    count = max(int(m[0]) for m in game if m[0] != "B")
    outsider = next(str(n) for n in range(1, count + 1) if str(n) not in (turn, str(int(turn) % count + 1)))
    return _insert(game, i + 1, messages.play_monopoly(outsider, "O")), "special-build-card", i + 2


def _special_turn_player(game: List[list], pick: int):
    """The turn's last build moved after the first build of its Special Build Phase."""
    spots = [i for i, turn in _special_builds(game) if game[i - 1][0] == turn and game[i - 1][1] in _SPECIAL]
    fits = [
        i
        for i in spots
        if _replays_with(game[: i - 1] + [game[i], game[i - 1]] + game[i + 1 :], i + 1, "special-build-turn-player")
    ]
    if not fits:
        return None
    i = fits[pick % len(fits)]
    return game[: i - 1] + [game[i], game[i - 1]] + game[i + 1 :], "special-build-turn-player", i + 1


def _special_order(game: List[list], pick: int):
    """Two players' builds in one Special Build Phase swapped, the later player first."""
    found = _special_builds(game)
    spots = [
        i
        for (i, turn), (j, turn2) in zip(found, found[1:])
        if j == i + 1 and turn == turn2 and game[i][0] != game[j][0]
    ]
    fits = [
        i
        for i in spots
        if _replays_with(game[:i] + [game[i + 1], game[i]] + game[i + 2 :], i + 2, "special-build-order")
    ]
    if not fits:
        return None
    i = fits[pick % len(fits)]
    return game[:i] + [game[i + 1], game[i]] + game[i + 2 :], "special-build-order", i + 2


def _replays_with(game: List[list], line: int, code: str, through: Optional[int] = None) -> bool:
    """Whether the game (its first `through` lines) replays with one error, `code` on that
    line: a moved message can change more (a build may take another's place, or pay with
    its cards; in the 5-6 player extension a build before its roll is a legal slot)."""
    trial = Game()
    for n, message in enumerate(game[:through], 1):
        found = [p.code for p in trial.apply(message, n)]
        if found != ([code] if n == line else []):
            return False
    return True


GAME_MUTATIONS: Tuple[Callable, ...] = (
    _drop_map,
    _after_the_end,
    _roll_twice,
    _roll_out_of_turn,
    _city_without_ore,
    _robber_without_seven,
    _lost_roll,
    _late_discard,
    _setup_swapped,
    _before_own_roll,
    _roll_out_of_range,
    _special_trade,
    _special_card,
    _special_turn_player,
    _special_order,
)


# Faults that only the messages after them tell apart from another fault: a lost roll,
# cut at the action that follows it, reads as well as an action out of turn.
_SHOWN_BY_WHAT_FOLLOWS = (_lost_roll,)
