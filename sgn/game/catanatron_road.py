"""catanatron's longest road, for its rule profile (`longest-road-as-catanatron`,
sgn/game/rule_profiles.py; docs/engines.md, "Rule profiles").

catanatron does not count the longest trail of a player's roads as the rulebook does:
it keeps, move by move, the connected parts of each player's road network (a corner
joins a part when a road reaches it, unless another player has built there), counts
the longest trail (no road twice) that starts at a corner of the part the new road
joins and never steps onto another player's building, keeps each player's best count
(`road_lengths`, which only a settlement cutting a road in two counts again), and gives
the award to a player whose count of at least 5 beats the holder's count; after a cut,
to the first of the highest counts in the order the players first built a road, of any
length. This is its `Board.build_road`, `build_settlement`, `bfs_walk` and
`longest_acyclic_path` (catanatron 3.2.1, `catanatron/models/board.py`), on SGN's
corners and edges; the holder it names is the replay's `longest_road`, its counts
`State.road_length`'s (the players' own `road_length` is the rulebook's count, kept beside
it: sgn/game/engine_end.py).
"""

from __future__ import annotations

from typing import List, Optional, Set

from .. import board
from ..board import Corner, Edge
from .pieces import RoadBook
from .state import State

_MIN = 5  # catanatron's count that may take the award from nobody


def _book(g: State) -> RoadBook:
    if g.road_book is None:
        g.road_book = RoadBook()
    return g.road_book


def _enemy(g: State, c: Corner, name: str) -> bool:
    at = g.building_at.get(c)
    return at is not None and at[0] != name


def _index(parts: List[Set[Corner]], c: Corner) -> Optional[int]:
    return next((i for i, part in enumerate(parts) if c in part), None)


def _neighbours(g: State, c: Corner, name: str) -> List[Corner]:
    """The corners one of `name`'s roads leads to from `c`."""
    out: List[Corner] = []
    for e in board.edges_of_corner(c):
        if g.road_at.get(e) == name:
            out.extend(end for end in e if end != c)
    return out


def _longest(g: State, part: Set[Corner], name: str) -> int:
    """catanatron's `longest_acyclic_path`: from each corner of the part, the longest trail
    that never steps onto another player's building (a start there is allowed)."""
    best = 0

    def walk(c: Corner, used: Set[Edge], length: int) -> None:
        nonlocal best
        best = max(best, length)
        for e in board.edges_of_corner(c):
            if g.road_at.get(e) != name or e in used:
                continue
            other = next(end for end in e if end != c)
            if _enemy(g, other, name):
                continue
            used.add(e)
            walk(other, used, length + 1)
            used.discard(e)

    for start in part:
        walk(start, set(), 0)
    return best


def settled(g: State, name: str, c: Corner, initial: bool) -> None:
    """A settlement of `name` at `c`: a new part in the setup; later, a road of another
    player it cuts in two (two of their roads meet there) is counted again."""
    book = _book(g)
    if initial:
        book.parts.setdefault(name, []).append({c})
        return
    for other in sorted({g.road_at[e] for e in board.edges_of_corner(c) if e in g.road_at} - {name}):
        ends = [end for e in board.edges_of_corner(c) if g.road_at.get(e) == other for end in e if end != c]
        if len(ends) != 2:
            continue
        parts = book.parts.setdefault(other, [])
        at = _index(parts, c)
        if at is not None:
            del parts[at]
        parts.extend(_walk(g, end, other) for end in ends)
        book.lengths[other] = max(_longest(g, part, other) for part in parts)
        book.holder, book.length = max(book.lengths.items(), key=lambda item: item[1])
    g.longest_road = book.holder


def _walk(g: State, start: Corner, name: str) -> Set[Corner]:
    """catanatron's `bfs_walk`: the corners `name`'s roads reach from `start`, stopping at
    (and taking) another player's building."""
    seen: Set[Corner] = set()
    todo = [start]
    while todo:
        c = todo.pop()
        seen.add(c)
        if _enemy(g, c, name):
            continue
        todo.extend(n for n in _neighbours(g, c, name) if n not in seen)
    return seen


def built_road(g: State, name: str, e: Edge) -> None:
    """A road of `name` on `e` (already placed): its part grows or two join, and the
    longest trail from that part is counted."""
    book = _book(g)
    parts = book.parts.setdefault(name, [])
    a, b = tuple(e)
    ia, ib = _index(parts, a), _index(parts, b)
    if ia is None and ib is not None and not _enemy(g, a, name):
        parts[ib].add(a)
        part = parts[ib]
    elif ia is not None and ib is None and not _enemy(g, b, name):
        parts[ia].add(b)
        part = parts[ia]
    elif ia is not None and ib is not None and ia != ib:
        part = parts[ia] | parts[ib]
        for i in sorted((ia, ib), reverse=True):
            del parts[i]
        parts.append(part)
    else:
        found = ia if ia is not None else ib
        if found is None:  # (no part: a road the rules refused; catanatron has none such)
            parts.append({a, b})
            found = len(parts) - 1
        part = parts[found]
    length = _longest(g, part, name)
    book.lengths[name] = max(book.lengths.get(name, 0), length)
    if length >= _MIN and length > book.length:
        book.holder, book.length = name, length
    g.longest_road = book.holder
