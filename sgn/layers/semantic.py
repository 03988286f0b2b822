"""Semantic checks: what one message means, without the game's history.

A schema sees shapes; these rules see meaning: a trade that creates resources,
an "intersection" of tiles that never meet, a map that is no Settlers board.
Each rule is one function that yields `Problem`s; the table `RULES` says which
rules apply to which action. Messages are checked against the last valid map
(DM) of the log when there is one; without a map only the map-free rules run.

Rules run only on messages that passed the schema, so shapes can be trusted
(a trade has exactly two sides, a tile two integers, ...).
"""

from __future__ import annotations

from itertools import chain, islice
from typing import Any, Callable, Dict, Final, FrozenSet, Iterable, Iterator, List, Optional, Tuple

from .. import board, rules
from ..board import Tile
from ..codes import CODES
from ..diagnostic import ERROR, MAX_PROBLEMS, Diagnostic, Problem, make, more_problems
from .maps import MapFacts, map_is_a_board
from .places import MapContext, intersection_problems, path_problems, show_tile, tile_of
from .records import header_problems
from .schema import show


def bank_never_acts(player, value, ctx) -> Iterator[Problem]:
    yield Problem(
        "bank-acts",
        "/0",
        "the bank (B) cannot make this action; only a player 1..6 can",
        "B may only send the map (DM)",
    )


def settlement_intersection(player, value, ctx):
    return intersection_problems(value["intersection"], "/2/intersection", ctx)


def road_path(player, value, ctx):
    return path_problems(value["path"], "/2/path", ctx)


def robber_on_land(player, value, ctx):
    if ctx is None:
        return
    tile = tile_of(value["tile"])
    if tile not in ctx.kinds:
        yield Problem("robber-off-map", "/2/tile", f"tile {show_tile(tile)} is not on the map")
    elif ctx.kinds[tile] == board.SEA:
        yield Problem("robber-at-sea", "/2/tile", f"tile {show_tile(tile)} is sea; the robber moves to a land tile")


def card_resources(player, value, ctx):
    wanted = {"MO": 1, "YP": rules.YEAR_OF_PLENTY_TAKES}.get(value["cCode"])
    codes = value.get("rCodes")
    if wanted is None:
        if codes is not None:
            yield Problem(
                "card-resources-unexpected",
                "/2/rCodes",
                f"{value['cCode']} takes no resources, but rCodes is {show(codes)}",
                "only Monopoly (MO) and Year of Plenty (YP) name resources",
            )
    elif codes is None:
        yield Problem(
            "card-resources-missing",
            "/2",
            f"{value['cCode']} must name {wanted} resource{'s' if wanted > 1 else ''} in rCodes",
        )
    elif len(codes) != wanted:
        yield Problem(
            "card-resources-count",
            "/2/rCodes",
            f"{value['cCode']} names {wanted} resource{'s' if wanted > 1 else ''}, not {len(codes)}: {show(codes)}",
            "Monopoly names one resource; Year of Plenty two (the same one twice is allowed)",
        )


def _sides(value) -> List[Tuple[str, Dict[str, int]]]:
    return [(side["player"], side["resources"]) for side in value]


def _same_player(code: str, value) -> Iterator[Problem]:
    (a, _), (b, _) = _sides(value)
    if a == b:
        yield Problem(code, "/2/1/player", f"both sides are {'the bank' if a == 'B' else f'player {a}'}")


def trade_distinct_players(player, value, ctx):
    return _same_player("trade-same-player", value)


def steal_distinct_players(player, value, ctx):
    return _same_player("steal-same-player", value)


def trade_actor_is_party(player, value, ctx):
    players = [p for p, _ in _sides(value)]
    if player not in players:
        yield Problem(
            "trade-actor-not-party",
            "/0",
            f"player {player} makes a trade between {' and '.join(players)}",
            "the acting player is one side of their own trade",
        )


def trade_no_zero(player, value, ctx):
    for i, (_, resources) in enumerate(_sides(value)):
        for resource, amount in resources.items():
            if amount == 0:
                yield Problem(
                    "trade-zero-amount",
                    f"/2/{i}/resources/{resource}",
                    f"an amount of 0 {resource}",
                    "leave out resources that do not move",
                )


def trade_balanced(player, value, ctx):
    sides = _sides(value)
    for resource in sorted({r for _, res in sides for r in res}):
        total = sum(res.get(resource, 0) for _, res in sides)
        if total:
            i = 0 if resource in sides[0][1] else 1
            detail = ", ".join(f"player {p} {res.get(resource, 0):+d}" for p, res in sides)
            yield Problem(
                "trade-unbalanced",
                f"/2/{i}/resources/{resource}",
                f"{resource} does not balance: {detail} (sum {total:+d}, not 0)",
                "what one side gains the other loses",
            )


def _gives(resources: Dict[str, int]) -> bool:
    return any(amount < 0 for amount in resources.values())


def is_discard(value: List[Dict[str, Any]]) -> bool:
    """The encoding of a discard (SGN has no discard action): a one-sided trade in which
    a player only gives and the bank only receives. (A trade's value as the schema allows
    it, two sides; typed, so that the compiled module reads it without generic calls: a
    trade of every replay asks.)"""
    side, bank = value
    if side["player"] == "B":
        side, bank = bank, side
    if bank["player"] != "B" or side["player"] == "B":
        return False
    gave: Dict[str, Any] = side["resources"]
    got: Dict[str, Any] = bank["resources"]
    if not gave:
        return False
    for a in gave.values():
        if not a < 0:
            return False
    for a in got.values():
        if not a > 0:
            return False
    return True


def trade_both_sides_give(player, value, ctx):
    if is_discard(value):
        return
    for i, (who, resources) in enumerate(_sides(value)):
        if not _gives(resources):
            name = "the bank" if who == "B" else f"player {who}"
            yield Problem(
                "trade-one-sided",
                f"/2/{i}",
                f"{name} gives nothing in return",
                "in a trade both sides give something; a discard is a trade in which a "
                "player only gives and the bank only receives",
            )
            return


def steal_with_bank(player, value, ctx):
    for i, (who, _) in enumerate(_sides(value)):
        if who == "B":
            yield Problem(
                "steal-with-bank",
                f"/2/{i}/player",
                "the bank takes no part in a steal",
                "a steal moves one card from one player to another",
            )


def _one_card(value) -> Optional[Tuple[int, str]]:
    """(index of the thief's side, resource) when exactly one card moves, else None."""
    (_, a), (_, b) = _sides(value)
    for thief, (gain, loss) in enumerate(((a, b), (b, a))):
        if len(gain) == 1 and gain == {r: 1 for r in gain} and loss == {r: -1 for r in gain}:
            return thief, next(iter(gain))
    return None


def steal_one_card(player, value, ctx):
    if _one_card(value) is None:
        (_, a), (_, b) = _sides(value)
        yield Problem(
            "steal-not-one-card",
            "/2",
            f"a steal moves exactly one card from the victim to the thief, not {show(a)} and {show(b)}",
        )


def steal_actor_is_thief(player, value, ctx):
    players = [p for p, _ in _sides(value)]
    moved = _one_card(value)
    if player not in players:
        yield Problem(
            "steal-actor-not-thief",
            "/0",
            f"player {player} is not part of the steal between {' and '.join(players)}",
            "the acting player is the thief",
        )
    elif moved is not None and players[moved[0]] != player:
        yield Problem(
            "steal-actor-not-thief",
            f"/2/{moved[0]}/player",
            f"player {players[moved[0]]} gains the card, but player {player} makes the steal",
            "the acting player is the thief",
        )


Rule = Callable[[str, Any, Optional[MapContext]], Iterable[Problem]]

RULES: Final[Dict[str, Tuple[Rule, ...]]] = {
    "BC": (settlement_intersection,),
    "BS": (settlement_intersection,),
    "BR": (road_path,),
    "BD": (),
    "MR": (robber_on_land,),
    "RD": (),
    "PD": (card_resources,),
    "TR": (trade_distinct_players, trade_actor_is_party, trade_no_zero, trade_balanced, trade_both_sides_give),
    "ST": (steal_distinct_players, steal_with_bank, steal_one_card, steal_actor_is_thief),
    "DM": (map_is_a_board,),
    "HD": (header_problems,),
    "ET": (),
}
# The bank sends the map and a header (schema/v1.0/records.json), nothing else.
BANK_MAY: Final = frozenset({"DM", "HD"})


# The boards seen lately, each with a number never given to another: the context of the
# memory of verified lines (fastpath). Bounded; a board seen again after it was forgotten
# gets a new number, and the memory's contexts of its old number age out.
_SHAPES: Final[Dict[Tuple[FrozenSet[Tile], FrozenSet[Tile]], int]] = {}
_SHAPES_KEPT = 64
_shapes_numbered = [0]


def _shape_number(shape: Tuple[FrozenSet[Tile], FrozenSet[Tile]]) -> int:
    found = _SHAPES.pop(shape, None)
    if found is None:
        _shapes_numbered[0] += 1
        found = _shapes_numbered[0]
        while len(_SHAPES) >= _SHAPES_KEPT:
            del _SHAPES[next(iter(_SHAPES))]
    _SHAPES[shape] = found
    return found


class SemanticChecker:
    """The semantic layer for one file: remembers the last valid map."""

    def __init__(self) -> None:
        self.map: Optional[MapContext] = None
        self.unlisted = False  # the last message had more problems than were listed
        self.map_key = 0  # the same for maps with the same land and sea: what the rules see

    def _set_map(self, value: Optional[dict]) -> None:
        facts = MapFacts.of(value) if value is not None else None
        self.map = facts.context if facts is not None else None
        if facts is None or self.map is None:
            self.map_key = 0
        else:
            shape = (facts.land, facts.all_tiles)  # the land, and all tiles
            self.map_key = _shape_number(shape)

    def problems(self, message: list) -> List[Problem]:
        """The problems of one message. Only a map can have many (the schema bounds every
        other message's size): of its problems the first MAX_PROBLEMS are listed, and
        `unlisted` says whether there were more."""
        player, action, value = message
        if action == "DM":
            return self._map_problems(player, value)
        found: List[Problem] = []
        context = self.map
        if player == "B" and action not in BANK_MAY:
            found += bank_never_acts(player, value, context)
        for rule in RULES[action]:
            found += rule(player, value, context)
        self.unlisted = False
        return found

    def _map_problems(self, player: str, value: dict) -> List[Problem]:
        found_by = chain.from_iterable(rule(player, value, self.map) for rule in RULES["DM"])
        found = list(islice(found_by, MAX_PROBLEMS))
        beyond = next(found_by, None)
        self.unlisted = beyond is not None
        errors = any(CODES[p.code].severity == ERROR for p in found) or (
            beyond is not None and any(CODES[p.code].severity == ERROR for p in chain((beyond,), found_by))
        )
        self._set_map(None if errors else value)
        MapFacts._last = None  # kept for this message only: nothing stale, nothing held
        return found

    def __call__(self, message: Any, file: str, line: int) -> Tuple[List[Diagnostic], Any]:
        found = [
            make(p.code, p.message, file=file, line=line, pointer=p.pointer, hint=p.hint)
            for p in self.problems(message)
        ]
        if self.unlisted:
            found.append(more_problems("semantic-more-problems", file, line))
        return found, message
