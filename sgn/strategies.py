"""Hypothesis strategies for SGN: valid messages, whole legal games, and labelled invalid ones.

Needs Hypothesis, which the extra brings: `pip install "settlers-game-notation[hypothesis]"`
(from a checkout: `pip install ".[hypothesis]"`). In Hypothesis's own style: plural names,
keyword arguments whose varying values are themselves strategies, and values built by
construction (an intersection is a tile and one of its corners; a trade is one side's deltas
and their negation), never by filtering. Invalid data comes from targeted mutations of valid
data, each labelled with the one diagnostic code it must raise.

    from hypothesis import given
    from sgn import strategies as sgs

    @given(sgs.messages())
    def test_my_parser_accepts_valid_messages(message): ...

    @given(sgs.invalid_messages())
    def test_my_validator_rejects(case):
        message, code = case
        ...

Messages are Python values as `json.loads` gives them; games are lists of them.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

try:
    from hypothesis import strategies as st
    from hypothesis.strategies import SearchStrategy
except ImportError as error:  # pragma: no cover - depends on the environment
    from .packaged import DISTRIBUTION

    raise ImportError(
        "sgn.strategies needs Hypothesis: pip install hypothesis (or install the package with its "
        f"extra: pip install '{DISTRIBUTION}[hypothesis]')"
    ) from error

from . import board, rules
from .board import STANDARD, Tile
from .game.rule_profiles import PROFILES as RULE_PROFILES
from .messages import define_map, header as header_line
from .play import random_game, random_map
from .testing.faults import _SHOWN_BY_WHAT_FOLLOWS, GAME_MUTATIONS, _listing

ACTION_CODES: Tuple[str, ...] = ("BC", "BD", "BR", "BS", "DM", "MR", "PD", "RD", "ST", "TR")
PLAYERS: Tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
RESOURCES: Tuple[str, ...] = rules.RESOURCES
CARDS: Tuple[str, ...] = tuple(rules.DECK)
LAND: Tuple[Tile, ...] = tuple(sorted(STANDARD.land, key=lambda t: (t[1], t[0])))


# -- the small pieces ---------------------------------------------------------------


def players(*, bank: bool = False) -> SearchStrategy[str]:
    """A player "1".."6"; with bank=True also "B", the bank."""
    return st.sampled_from(PLAYERS + (("B",) if bank else ()))


def resources() -> SearchStrategy[str]:
    """A resource code: B G L O W."""
    return st.sampled_from(RESOURCES)


def tiles(*, land: Sequence[Tile] = LAND) -> SearchStrategy[list]:
    """A tile `[q, r]`, by default a land tile of the standard board."""
    return st.sampled_from(list(land)).map(list)


# The defaults of keyword arguments that share these functions' names.
_players, _tiles = players, tiles


def intersections(
    *, tiles: Optional[SearchStrategy[list]] = None, rotations: SearchStrategy[int] = st.integers(0, 2)
) -> SearchStrategy[list]:
    """An intersection touching a tile: its three tiles clockwise, starting at the
    canonical tile turned by `rotations` places (every rotation is valid SGN)."""
    tiles = tiles if tiles is not None else _tiles()

    def build(tile: list, direction: str, turn: int) -> list:
        a, b, c = board.canonical_corner(board.corner(tuple(tile), direction))
        listing = [a, b, c][turn:] + [a, b, c][:turn]
        return _listing(listing)

    return st.builds(build, tiles, st.sampled_from(list(board.CORNER_DIRECTIONS)), rotations)


def paths(*, tiles: Optional[SearchStrategy[list]] = None) -> SearchStrategy[list]:
    """A path along one side of a tile (so it touches that tile), canonical: upper end first."""
    tiles = tiles if tiles is not None else _tiles()

    def build(tile: list, direction: str) -> list:
        at: Tile = tuple(tile)
        e = board.edge_between(at, board.add(at, board.DIRECTIONS[direction]))
        return [_listing(end) for end in board.canonical_edge(e)]

    return st.builds(build, tiles, st.sampled_from(list(board.DIRECTIONS)))


def maps() -> SearchStrategy[dict]:
    """The value of a DM: a standard board with its land kinds, number tokens and harbor
    kinds shuffled (harbors on the nine places of the SGN starter map)."""
    return st.randoms(use_true_random=False).map(random_map)


def trades(
    *, players: Optional[SearchStrategy[str]] = None, resources: Optional[SearchStrategy[str]] = None
) -> SearchStrategy[Tuple[str, list]]:
    """(acting player, TR value): one side's deltas and their negation, both sides giving
    something; or a discard (a player gives, the bank receives)."""
    players = players if players is not None else _players()
    amounts = st.integers(1, 4)

    @st.composite
    def build(draw: st.DrawFn) -> Tuple[str, list]:
        me = draw(players)
        other = draw(st.sampled_from([p for p in PLAYERS + ("B",) if p != me]))
        gives = draw(st.lists(st.sampled_from(RESOURCES), min_size=1, max_size=2, unique=True))
        rest = [r for r in RESOURCES if r not in gives]
        discard = other == "B" and draw(st.booleans())
        gets = [] if discard else draw(st.lists(st.sampled_from(rest), min_size=1, max_size=2, unique=True))
        mine = {r: -draw(amounts) for r in gives}
        mine.update({r: draw(amounts) for r in gets})
        sides = [{"player": me, "resources": mine}, {"player": other, "resources": {r: -n for r, n in mine.items()}}]
        if draw(st.booleans()):
            sides.reverse()
        return me, sides

    return build()


def steals(*, players: Optional[SearchStrategy[str]] = None) -> SearchStrategy[Tuple[str, list]]:
    """(thief, ST value): one card from another player to the thief."""
    players = players if players is not None else _players()

    @st.composite
    def build(draw: st.DrawFn) -> Tuple[str, list]:
        thief = draw(players)
        victim = draw(st.sampled_from([p for p in PLAYERS if p != thief]))
        r = draw(resources())
        return thief, [{"player": thief, "resources": {r: 1}}, {"player": victim, "resources": {r: -1}}]

    return build()


def _card_plays() -> SearchStrategy[dict]:
    return st.one_of(
        st.sampled_from(["KN", "RB", "VP"]).map(lambda c: {"cCode": c}),
        resources().map(lambda r: {"cCode": "MO", "rCodes": [r]}),
        st.lists(resources(), min_size=2, max_size=2).map(lambda rs: {"cCode": "YP", "rCodes": rs}),
    )


# -- whole messages -------------------------------------------------------------------


def _value_strategies(who: SearchStrategy[str]) -> Dict[str, SearchStrategy[list]]:
    def message(code: str, values: SearchStrategy[Any]) -> SearchStrategy[list]:
        return st.builds(lambda p, v: [p, code, v], who, values)

    return {
        "BC": message("BC", intersections().map(lambda i: {"intersection": i})),
        "BS": message("BS", intersections().map(lambda i: {"intersection": i})),
        "BR": message("BR", paths().map(lambda p: {"path": p})),
        "BD": message("BD", st.sampled_from(CARDS).map(lambda c: {"cCode": c})),
        "DM": st.builds(lambda p, m: define_map(m, p), st.sampled_from(PLAYERS + ("B",)), maps()),
        "MR": message("MR", tiles().map(lambda t: {"tile": t})),
        "PD": message("PD", _card_plays()),
        "RD": message("RD", st.integers(2, 12).map(lambda n: {"result": n})),
        "ST": steals(players=who).map(lambda s: [s[0], "ST", s[1]]),
        "TR": trades(players=who).map(lambda t: [t[0], "TR", t[1]]),
    }


def messages(
    *, action_codes: SearchStrategy[str] = st.sampled_from(ACTION_CODES), players: Optional[SearchStrategy[str]] = None
) -> SearchStrategy[list]:
    """A message `[player, aCode, value]` valid at the semantic level (its map-free
    rules; tiles, intersections and paths lie on or touch the standard board's land)."""
    builders = _value_strategies(players if players is not None else _players())
    return action_codes.flatmap(lambda code: builders[code])


def games(*, players: SearchStrategy[int] = st.sampled_from(rules.PLAYER_COUNTS)) -> SearchStrategy[List[list]]:
    """A whole legal game, from its map to the winner's last move, made by driving the
    rules replay with random legal choices (`players=st.sampled_from((5, 6))`: the 5-6
    player extension, on its board, with Special Build Phases). The choices come from a seeded generator (a
    drawn seed): shrinking moves to smaller seeds, never to degenerate dice that would
    leave a game without a winner."""
    return st.builds(random_game, st.integers(0, 2**32 - 1), players)


_games = games


def headers() -> SearchStrategy[list]:
    """A game's header `["B", "HD", {...}]` (docs/format.md, "Records": an extension of SGN
    v1.0) valid at the semantic level: some of its players, rules, result and tags, a
    result that names its winner among the players it names, and a key of one's own."""
    text = st.text(st.characters(codec="utf-8"), max_size=40)

    def header(seats: List[str], how: str, winner: int, names: List[str], tags: dict) -> list:
        result: dict = {"how": how, "points": dict.fromkeys(seats, 0)}
        if how == "won":
            result["winner"] = seats[winner % len(seats)]
            result["points"][result["winner"]] = rules.POINTS_TO_WIN
        return header_line(dict(tags, players={s: {"name": n} for s, n in zip(seats, names)}, result=result))

    optional: Dict[str, SearchStrategy[Any]] = {"event": text, "site": text, "round": text}
    optional["seed"] = st.one_of(st.integers(0, 2**63), text)
    optional.update(rules=st.sampled_from(tuple(RULE_PROFILES)), date=st.dates().map(str))
    optional["x-tool"] = st.dictionaries(text, st.integers(), max_size=3)
    seats = st.lists(st.sampled_from(PLAYERS), min_size=3, max_size=6, unique=True).map(sorted)
    hows = st.sampled_from(("won", "abandoned", "forfeited", "time", "adjudicated", "turn-limit"))
    names = st.lists(text, min_size=6, max_size=6)
    return st.builds(header, seats, hows, st.integers(0, 5), names, st.fixed_dictionaries({}, optional=optional))


# -- invalid messages: one broken rule each ---------------------------------------------

Mutation = Tuple[str, str, Callable[[list], Any]]  # (action code, expected code, mutate)


def _far(tile: list) -> list:
    return [tile[0] + 5, tile[1]]


def _bigger(resources: dict) -> dict:
    r = next(iter(resources))
    resources[r] += -1 if resources[r] < 0 else 1
    return resources


def _outsider(message: list) -> str:
    parties = {side["player"] for side in message[2]}
    return next(p for p in PLAYERS if p not in parties)


def _set(message: list, index: int, value: Any) -> list:
    message[index] = value
    return message


MUTATIONS: Tuple[Mutation, ...] = (
    ("RD", "schema-maximum", lambda m: _set(m, 2, {"result": 13})),
    ("RD", "schema-minimum", lambda m: _set(m, 2, {"result": 1})),
    ("RD", "schema-type", lambda m: _set(m, 2, {"result": str(m[2]["result"])})),
    ("RD", "schema-required", lambda m: _set(m, 2, {})),
    ("RD", "schema-unknown-property", lambda m: _set(m, 2, dict(m[2], dice=[1, 1]))),
    ("MR", "unknown-player", lambda m: _set(m, 0, "7")),
    ("MR", "unknown-action", lambda m: _set(m, 1, "TO")),
    ("BD", "message-length", lambda m: m + [None]),
    ("BD", "message-not-array", lambda m: {"player": m[0], "aCode": m[1], "value": m[2]}),
    ("BD", "schema-enum", lambda m: _set(m, 2, {"cCode": "XX"})),
    ("MR", "schema-too-many-items", lambda m: _set(m, 2, {"tile": m[2]["tile"] + [0]})),
    ("RD", "bank-acts", lambda m: _set(m, 0, "B")),
    (
        "BS",
        "intersection-repeated-tile",
        lambda m: _set(m, 2, {"intersection": [m[2]["intersection"][0]] * 2 + [m[2]["intersection"][2]]}),
    ),
    (
        "BC",
        "intersection-not-adjacent",
        lambda m: _set(m, 2, {"intersection": m[2]["intersection"][:2] + [_far(m[2]["intersection"][2])]}),
    ),
    ("BR", "path-same-intersection", lambda m: _set(m, 2, {"path": [m[2]["path"][0]] * 2})),
    ("BR", "path-not-adjacent", lambda m: _set(m, 2, {"path": [m[2]["path"][0], [_far(t) for t in m[2]["path"][1]]]})),
    ("TR", "trade-unbalanced", lambda m: _set(m, 2, [dict(m[2][0], resources=_bigger(m[2][0]["resources"])), m[2][1]])),
    ("TR", "trade-actor-not-party", lambda m: _set(m, 0, _outsider(m))),
    (
        "ST",
        "steal-not-one-card",
        lambda m: _set(
            m, 2, [{"player": s["player"], "resources": {r: 2 * n for r, n in s["resources"].items()}} for s in m[2]]
        ),
    ),
    ("ST", "steal-with-bank", lambda m: _set(m, 2, [m[2][0], dict(m[2][1], player="B")])),
    ("ST", "steal-actor-not-thief", lambda m: _set(m, 0, m[2][1]["player"])),
    ("PD", "card-resources-unexpected", lambda m: _set(m, 2, {"cCode": "KN", "rCodes": ["O"]})),
    ("PD", "card-resources-missing", lambda m: _set(m, 2, {"cCode": "MO"})),
    ("PD", "card-resources-count", lambda m: _set(m, 2, {"cCode": "YP", "rCodes": ["O"]})),
)


def invalid_messages(*, mutations: Sequence[Mutation] = MUTATIONS) -> SearchStrategy[Tuple[Any, str]]:
    """(message, expected code): a valid message with one targeted mutation that breaks
    exactly one rule; validated at the semantic level, the message raises exactly that
    error code (and no other)."""

    def mutate(mutation: Mutation) -> SearchStrategy[Tuple[Any, str]]:
        action, code, change = mutation
        return messages(action_codes=st.just(action)).map(lambda m: (change(copy.deepcopy(m)), code))

    return st.sampled_from(list(mutations)).flatmap(mutate)


GAME_LEVELS = ("rules", "semantic")  # the levels an invalid game's label can hold at


class InvalidGame(Tuple[List[list], str, int]):
    """(messages, code, line), as `invalid_games` gives it, and `level`: the level the
    label holds at. Checked at that level, the log raises exactly `code` on `line` and no
    other error; at another level it may raise nothing (a message inserted out of turn is
    valid by itself) or more (a refused message leaves a gap the replay may read on)."""

    level: str

    def __new__(cls, messages: List[list], code: str, line: int, level: str) -> "InvalidGame":
        self = super().__new__(cls, (messages, code, line))
        self.level = level
        return self

    @property
    def messages(self) -> List[list]:
        return self[0]

    @property
    def code(self) -> str:
        return self[1]

    @property
    def line(self) -> int:
        return self[2]

    def __repr__(self) -> str:
        return f"InvalidGame(code={self.code!r}, line={self.line}, level={self.level!r}, {len(self.messages)} messages)"


def invalid_games(
    *, games: Optional[SearchStrategy[List[list]]] = None, cut: bool = False, level: str = "rules"
) -> SearchStrategy[InvalidGame]:
    """(messages, expected code, line), whose `level` attribute is the level that label
    holds at (`InvalidGame`): a whole legal game with one fault, the rest kept as it was.

    `level="rules"` (the default): a targeted fault (a message inserted, lost or moved,
    `GAME_MUTATIONS`) that breaks exactly one rule; replayed at the rules level, the log
    raises exactly that code, on that line, and no other error. `level="semantic"`: one
    message replaced by a mutant of `invalid_messages` (`MUTATIONS`); checked at the
    semantic level, exactly its code on its line. Other levels raise ValueError: a message
    of Python values cannot hold a fault of the JSON text, and for the schema level
    `invalid_messages` and the corpus have the cases. With `cut`, the log stops at the
    faulty line (and a lost roll, which only what follows it shows, is not among the faults)."""
    if level not in GAME_LEVELS:
        raise ValueError(
            f"invalid_games(level={level!r}): its faults hold at {' or '.join(GAME_LEVELS)}; "
            "for other levels use invalid_messages or the corpus"
        )
    games = games if games is not None else _games()

    @st.composite
    def build(draw: st.DrawFn) -> InvalidGame:
        game = draw(games)
        pick = draw(st.integers(0, 10_000))
        if level == "semantic":
            for action, code, change in draw(st.permutations(list(MUTATIONS))):
                places = [i for i, m in enumerate(game) if m[1] == action]
                if places:
                    at = places[pick % len(places)]
                    faulty = copy.deepcopy(game)
                    faulty[at] = change(faulty[at])
                    return InvalidGame(faulty[: at + 1] if cut else faulty, code, at + 1, level)
            raise AssertionError("no message of the game has a mutation")  # unreachable: every game builds
        kinds = [m for m in GAME_MUTATIONS if not (cut and m in _SHOWN_BY_WHAT_FOLLOWS)]
        order = draw(st.permutations(kinds))
        for mutation in order:  # the first that applies to this game (nearly always the first)
            result = mutation(copy.deepcopy(game), pick)
            if result is not None:
                faulty, code, line = result
                return InvalidGame((faulty[:line] if cut else faulty), code, line, level)
        raise AssertionError("no mutation applies")  # unreachable: the first three always apply

    return build()


__all__ = [
    "ACTION_CODES",
    "GAME_LEVELS",
    "GAME_MUTATIONS",
    "InvalidGame",
    "MUTATIONS",
    "Mutation",
    "games",
    "intersections",
    "invalid_games",
    "invalid_messages",
    "maps",
    "messages",
    "paths",
    "players",
    "resources",
    "steals",
    "tiles",
    "trades",
]
