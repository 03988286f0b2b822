"""The shapes of the moves the generator lists (`sgn/game/moves.py`): the places of a map a
piece may stand on, each written once as SGN lists it; the sides of a trade in the order the
generator writes them (each message is written by `sgn/messages.py`); the key that tells two
messages that say the same move apart from their form (the sides of a trade in either order,
a Year of Plenty's resources in either order, a place listed from any of its tiles); and
which messages the generator lists at all.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from .. import board, messages, rules
from ..board import Corner, Edge, Tile, corner_from_json, edge_from_json
from ..messages import HIDDEN, Message
from ..rules import RESOURCES
from .errors import TooManyMoves
from .pieces import Map


class Sites:
    """The places of one map: every corner a building may stand on (its three tiles on the
    map, one of them land), every edge a road may lie along (between two tiles of which one
    is land, its four tiles on the map), the land tiles the robber may go to; each with the
    listing SGN writes for it (`board.canonical_corner`, `board.canonical_edge`)."""

    __slots__ = ("corners", "edges", "land", "corner_listing", "edge_listing", "corner_rank", "edge_rank")

    def __init__(self, the_map: Map) -> None:
        kinds = the_map.kinds
        land = [t for t, k in kinds.items() if k != board.SEA]
        self.land: List[Tile] = sorted(land)
        corners = sorted(
            (c for c in board.iter_corners(land) if all(t in kinds for t in c)), key=board.canonical_corner
        )
        self.corners = frozenset(corners)
        self.corner_listing = {c: board.canonical_corner(c) for c in corners}
        self.corner_rank = {c: i for i, c in enumerate(corners)}
        edges = sorted(
            {
                e
                for c in corners
                for e in board.edges_of_corner(c)
                if all(t in kinds for end in e for t in end) and any(kinds[t] != board.SEA for t in board.edge_tiles(e))
            },
            key=board.canonical_edge,
        )
        self.edges = frozenset(edges)
        self.edge_listing = {e: board.canonical_edge(e) for e in edges}
        self.edge_rank = {e: i for i, e in enumerate(edges)}

    def corner(self, c: Corner) -> list:
        """The intersection of a corner, as SGN lists it (a new list each time)."""
        return [list(t) for t in self.corner_listing[c]]

    def edge(self, e: Edge) -> list:
        """The path of an edge, as SGN lists it (a new list each time)."""
        return [[list(t) for t in end] for end in self.edge_listing[e]]


_SITES: Dict[int, Tuple[Map, Sites]] = {}  # by the map's id (a map never changes), a few kept


def sites(the_map: Map) -> Sites:
    """The places of a map, worked out once for it (the copies of a game share their map)."""
    found = _SITES.get(id(the_map))
    if found is not None and found[0] is the_map:
        return found[1]
    if len(_SITES) >= 16:
        _SITES.clear()
    made = Sites(the_map)
    _SITES[id(the_map)] = (the_map, made)
    return made


# -- the sides of a trade, in the generator's order ------------------------------------------


def resources(counts: Mapping[str, int], sign: int) -> Dict[str, int]:
    """`counts` as a side's resources, in the order of RESOURCES (`?` last), times `sign`."""
    out = {r: sign * counts[r] for r in RESOURCES if counts.get(r)}
    if counts.get(HIDDEN):
        out[HIDDEN] = sign * counts[HIDDEN]
    return out


def with_bank(player: str, given: Mapping[str, int], taken: Optional[Mapping[str, int]] = None) -> List[Any]:
    """A trade with the bank (a discard when nothing is taken), the player's side first."""
    return between(player, "B", given, taken)


def between(player: str, other: str, given: Mapping[str, int], taken: Optional[Mapping[str, int]] = None) -> List[Any]:
    """A trade of `player` with `other` (a player, or "B", the bank), the player's side first."""
    mine = resources(given, -1)
    theirs = resources(given, 1)
    for r, n in (taken or {}).items():
        mine[r], theirs[r] = n, -n
    order = {r: i for i, r in enumerate(RESOURCES + (HIDDEN,))}
    mine = dict(sorted(mine.items(), key=lambda kv: order[kv[0]]))
    theirs = dict(sorted(theirs.items(), key=lambda kv: order[kv[0]]))
    return messages.trade(player, player, mine, other, theirs)


# A discard with more ways than this (a large hand, or one in doubt past the bound of the
# ways the cards may lie, whose every count is a range) is not listed: `TooManyMoves`.
MAX_DISCARD_WAYS = 20_000


def discard_counts(name: str, held: Sequence[int], amounts: Sequence[int], in_doubt: bool) -> Iterator[Tuple[int, ...]]:
    """Each way player `name` may give one of `amounts` cards of a hand of at most `held`
    of each kind; `TooManyMoves` past MAX_DISCARD_WAYS (docs/moves.md, "Bounds")."""
    total = sum(ways(held, n) for n in amounts)
    if total > MAX_DISCARD_WAYS:
        raise TooManyMoves(
            f"player {name}'s discard may be any of {total:,} multisets of the hand, more than the "
            f"{MAX_DISCARD_WAYS:,} listed at most" + (" (the hand is in doubt)" if in_doubt else "")
        )
    for n in amounts:
        yield from multisets(held, n)


def ways(held: Sequence[int], count: int) -> int:
    """How many ways there are to give `count` cards of a hand of `held` cards of each kind
    (`multisets` counted, not made)."""
    found = [1] + [0] * count
    for h in held:
        found = [sum(found[k - j] for j in range(min(h, k) + 1)) for k in range(count + 1)]
    return found[count]


def multisets(held: Sequence[int], count: int) -> Iterator[Tuple[int, ...]]:
    """Every way to take `count` cards from a hand of `held` cards of each kind (in the order
    of the kinds): most of the first kind first."""
    if count == 0:
        yield (0,) * len(held)
        return
    if not held:
        return
    first, rest = held[0], held[1:]
    room = sum(rest)
    for n in range(min(first, count), -1, -1):
        if count - n <= room:
            for tail in multisets(rest, count - n):
                yield (n,) + tail


def year_of_plenty_choices() -> List[Tuple[str, ...]]:
    """The resources a Year of Plenty may take (`rules.YEAR_OF_PLENTY_TAKES` of them), each
    choice once, in the order of RESOURCES."""
    return list(combinations_with_replacement(RESOURCES, rules.YEAR_OF_PLENTY_TAKES))


# -- what a message says, whatever its form -------------------------------------------------


def _side(side: Mapping[str, Any]) -> Tuple[str, Tuple[Tuple[str, int], ...]]:
    return side["player"], tuple(sorted(side["resources"].items()))


def move_key(message: Sequence[Any]) -> tuple:
    """What a message says, as a value equal for every form of the same move: a place by its
    tiles, a trade or steal by its sides in any order, a Year of Plenty's pair in any order.
    The message must be valid at the semantic level."""
    player, code, value = message
    if code in ("BS", "BC"):
        return (player, code, corner_from_json(value["intersection"]))
    if code == "BR":
        return (player, code, edge_from_json(value["path"]))
    if code in ("TR", "ST"):
        return (player, code, tuple(sorted(_side(s) for s in value)))
    if code == "MR":
        return (player, code, tuple(value["tile"]))
    if code == "RD":
        return (player, code, value["result"])
    if code == "BD":
        return (player, code, value["cCode"])
    if code == "PD":
        chosen = value.get("rCodes") or []
        return (player, code, value["cCode"], tuple(sorted(chosen) if value["cCode"] == "YP" else chosen))
    return (player, code, repr(value))


def is_bank_lot(value: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a trade is one lot with the bank: 2, 3 or 4 cards of one resource for one of
    another, every card shown (the bank trades the generator lists)."""
    sides = {s["player"]: s["resources"] for s in value}
    if "B" not in sides or len(sides) != 2:
        return False
    (mine,) = (res for name, res in sides.items() if name != "B")
    if HIDDEN in mine:
        return False
    given = [n for n in mine.values() if n < 0]
    taken = [n for n in mine.values() if n > 0]
    rates = (rules.RATE_RESOURCE_HARBOR, rules.RATE_GENERIC_HARBOR, rules.RATE_DEFAULT)
    return len(given) == 1 and -given[0] in rates and taken == [1]


def is_discard(value: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a trade is a discard: a player only gives, the bank only takes."""
    sides = {s["player"]: s["resources"] for s in value}
    if "B" not in sides or len(sides) != 2:
        return False
    (mine,) = (res for name, res in sides.items() if name != "B")
    return bool(mine) and all(n < 0 for n in mine.values())


def is_listed(message: Sequence[Any], before_setup: bool = False) -> bool:
    """Whether the generator lists messages of this kind at all (docs/moves.md, "What is not
    listed"): not the map, nor a record line (a header, an end of turn: `decisions` lists
    the end of a turn); not a trade between two players, nor one with the bank of more
    than one lot or of cards not shown; not a discard of cards not shown; not the robber
    placed before the setup (`before_setup`: no setup settlement yet)."""
    _, code, value = message
    if code == "DM" or code == "HD" or code == "ET":
        return False
    if code == "MR":
        return not before_setup
    if code == "TR":
        if is_discard(value):
            return all(HIDDEN not in s["resources"] for s in value)
        return is_bank_lot(value)
    return True


__all__ = ["Message", "Sites", "is_listed", "move_key", "sites"]
