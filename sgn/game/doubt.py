"""What is known of the cards in hand when the log does not show them all: the hands in
doubt, as the set of every way the cards can lie that the moves so far allow.

A hidden value (a steal or a discard whose cards are not shown, a roll not seen,
docs/hidden.md) or a fault whose readings disagree about hands puts some holders in
doubt: players, and the bank ("B"). For them `Doubt` keeps a set of *worlds*; a world
gives each of their resources a range of counts, `lo..hi`: a single count where the
cards are known (every hidden value gives such worlds), a wider range only where a
message the log lost moved an unknown number of cards (the bounds of a hand adrift,
docs/rules.md). A move keeps the worlds where it is legal and changes each as it says;
a move legal in none is a fault. Holders not in doubt keep their cards in
`Player.hand` and `State.bank`, so that a log that shows everything never pays for this.

A world is one flat tuple: for holder k and resource r (in `RESOURCES` order), its
coordinate i = 5k + r holds `lo` at 2i and `hi` at 2i + 1. Holders are kept sorted, so
that two doubts over the same holders compare world by world. The worlds are a list
without repeats, not a set: a move that gives distinct worlds distinct results (a trade
seen, a holder put in doubt) then makes them without hashing each again (a set's cost, most
of a spectator's view's); a move that may make two alike (a count held at zero, a merge,
cards not shown) drops the repeats (`_distinct`).

A shift that holds no count at zero (cards gained, or given where every world holds them)
is not made world by world: it is kept as one pending delta of coordinates, the same for
lo and hi, that every world adds (`Doubt._pending`). The questions (bounds, totals, what
a hand admits, the worlds kept where it holds enough, the holders settled) and cards not
shown read the worlds with it; any other move first makes it in each world (`Doubt.worlds`). Shifts came
to a third of a spectator's view, and most come in runs between such moves.

Longer than 400 lines: this module alone reads a world's layout (docs/hidden.md, "Where
it is held"), so every question and move on the worlds is here.
"""

from __future__ import annotations

from typing import Callable, Dict, Final, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from ..rules import RESOURCES
from .bank_pays import bank_more, pays_as_rulebook, ways

World = Tuple[int, ...]
Worlds = List[World]  # without repeats
Taken = Tuple[int, ...]  # how many of each kind (in `RESOURCES` order) a move of unseen cards takes
KINDS: Final = len(RESOURCES)
_INDEX: Final = {r: i for i, r in enumerate(RESOURCES)}
# The most worlds kept: past it, worlds are merged into ranges (sound, no longer exact),
# and the state says so once (`Doubt.widened`).
MAX_WORLDS: Final = 4096
# The worlds the operations below have visited, in all: what the work on doubt cost, for the
# bounds that are promises about time (`sgn/game/possible.py`). A list: one cell, changed in place.
WORK: Final = [0]


# One card of each kind, as `_multisets` takes one card from a hand holding every kind (a steal).
_ONE_OF_EACH: Final = tuple(tuple(int(i == k) for i in range(KINDS)) for k in range(KINDS))


def _order(name: str) -> Tuple[int, str]:
    return (1, name) if name == "B" else (0, name)


class Doubt:
    """The worlds of the holders in doubt (see the module).

    Longer than 250 lines: the worlds are opaque outside this class (docs/hidden.md, "Where
    it is held"), so every question asked of them and every move made on them is a method
    here, not an index into a world elsewhere."""

    __slots__ = ("holders", "_worlds", "_pending", "_checked", "widened", "since")

    def __init__(self, holders: List[str], worlds: Iterable[World]):
        self.holders = holders
        self._worlds: Worlds = _distinct(worlds)
        # coordinate -> the delta each world adds there, not made yet (the module's docstring)
        self._pending: Dict[int, int] = {}
        # the worlds as `settled` last found them: none made anew since (a pending shift, the
        # questions) has nothing to settle (the same list: a move makes a new one)
        self._checked: Optional[Worlds] = None
        self.widened = False  # worlds were merged into ranges (MAX_WORLDS reached)
        self.since: Dict[str, int] = {}  # holder -> the first line that put it in doubt

    @classmethod
    def of(cls, hands: Mapping[str, Mapping[str, int]], line: int) -> "Doubt":
        """The doubt of holders whose cards are known (one world)."""
        doubt = cls([], [()])
        for name, hand in hands.items():
            doubt.add(name, hand, line)
        return doubt

    @property
    def worlds(self) -> Worlds:
        """The worlds, each with the pending delta made in it."""
        pending = self._pending
        if pending:
            steps = list(pending.items())
            out = []
            for w in self._worlds:
                x = list(w)
                for j, n in steps:
                    x[j] += n
                out.append(tuple(x))
            if self._checked is self._worlds:  # (a delta settles nobody: still as checked)
                self._checked = out
            self._worlds, self._pending = out, {}
        return self._worlds

    @worlds.setter
    def worlds(self, worlds: Worlds) -> None:
        self._worlds, self._pending = worlds, {}

    def copy(self) -> "Doubt":
        other = Doubt(list(self.holders), [])
        other._worlds, other._pending = list(self._worlds), dict(self._pending)
        other.widened, other.since = self.widened, dict(self.since)
        return other

    def __contains__(self, name: str) -> bool:
        return name in self.holders

    def base(self, name: str) -> int:
        """The index in a world of `name`'s first coordinate's `lo`."""
        return 2 * KINDS * self.holders.index(name)

    # -- holders in and out ---------------------------------------------------------------
    def add(self, name: str, hand: Mapping[str, int], line: int) -> None:
        """Put `name`, whose cards are known to be `hand`, in doubt (in every world)."""
        if name in self.holders:
            return
        holders = sorted(self.holders + [name], key=_order)
        at = 2 * KINDS * holders.index(name)
        point: Tuple[int, ...] = ()
        for r in RESOURCES:
            point += (hand[r], hand[r])
        self._worlds = [w[:at] + point + w[at:] for w in self._worlds]  # (distinct worlds stay distinct)
        if self._pending:  # (the coordinates past the new holder's move along)
            width = 2 * KINDS
            self._pending = {j if j < at else j + width: n for j, n in self._pending.items()}
        self.holders = holders
        self.since.setdefault(name, line)

    def settled(self) -> Dict[str, Dict[str, int]]:
        """Take out of doubt every holder whose cards are the same known counts in every
        world; their hands, to be kept as known again."""
        out: Dict[str, Dict[str, int]] = {}
        worlds, pending = self._worlds, self._pending  # (a pending delta is the same in every world,
        if not worlds or worlds is self._checked:  # and for lo and hi: it changes neither what is
            return out  # known nor what is alike)
        first = next(iter(worlds))
        keep: List[int] = []
        width = 2 * KINDS
        for k, name in enumerate(self.holders):
            at = width * k
            if _known(first, at):
                part = first[at : at + width]
                if _alike(worlds, at, at + width, part):
                    out[name] = {r: part[2 * i] + pending.get(at + 2 * i, 0) for i, r in enumerate(RESOURCES)}
                    continue
            keep.append(k)
        if out:
            runs: List[Tuple[int, int]] = []  # the coordinates kept, as runs of holders side by side
            for k in keep:
                if runs and runs[-1][1] == width * k:
                    runs[-1] = (runs[-1][0], width * (k + 1))
                else:
                    runs.append((width * k, width * (k + 1)))
            self._worlds = [_cut(w, runs) for w in worlds]  # (they differ only in the holders kept)
            if pending:
                self._pending = _cut_pending(pending, runs)
            self.holders = [self.holders[k] for k in keep]
            for name in out:
                self.since.pop(name, None)
        self._checked = self._worlds
        return out

    # -- what is known ---------------------------------------------------------------------
    def bounds(self, name: str) -> Tuple[Dict[str, int], Dict[str, int]]:
        """The least and the most of each resource `name` may hold."""
        at = self.base(name)
        lows = list(self._worlds[0][at : at + 2 * KINDS : 2])
        highs = list(self._worlds[0][at + 1 : at + 2 * KINDS : 2])
        for w in self._worlds:  # (a loop over each count, not the columns made: the compiled loop is quicker)
            for i in range(KINDS):
                lo, hi = w[at + 2 * i], w[at + 2 * i + 1]
                if lo < lows[i]:
                    lows[i] = lo
                if hi > highs[i]:
                    highs[i] = hi
        p = self._pending
        least = {r: lows[i] + p.get(at + 2 * i, 0) for i, r in enumerate(RESOURCES)}
        most = {r: highs[i] + p.get(at + 2 * i + 1, 0) for i, r in enumerate(RESOURCES)}
        return least, most

    def may_hold(self, name: str, hand: Mapping[str, int]) -> bool:
        """Whether `name` holds exactly `hand` in some way the cards may lie."""
        at = self.base(name)
        want = [hand.get(r, 0) for r in RESOURCES]
        return any(all(w[at + 2 * i] <= n <= w[at + 2 * i + 1] for i, n in enumerate(want)) for w in self.worlds)

    def totals(self, name: str) -> Tuple[int, int]:
        """The least and the most cards `name` may hold in all."""
        at = self.base(name)
        least, most = 0, 0
        for k, w in enumerate(self._worlds):  # (each count added in place: no slice made a world)
            low = high = 0
            for j in range(at, at + 2 * KINDS, 2):
                low += w[j]
                high += w[j + 1]
            if k == 0 or low < least:
                least = low
            if k == 0 or high > most:
                most = high
        p = self._pending
        added = sum(p.get(j, 0) for j in range(at, at + 2 * KINDS, 2)) if p else 0  # (the same for lo and hi)
        return least + added, most + added

    def holds_everywhere(self, name: str, amounts: Mapping[str, int]) -> bool:
        """Whether `name` holds at least `amounts` in every world (`bounds` without the rest)."""
        at = self.base(name)
        return self._holds_none_at_zero([(at + 2 * _INDEX[r], -n) for r, n in amounts.items() if n > 0])

    def holding(self) -> bool:
        """Whether some holder is still in doubt."""
        return bool(self.holders)

    def ways(self) -> int:
        """How many ways the cards may lie (worlds kept)."""
        return len(self._worlds)

    def one_way(self, pick: Optional[Callable[[int], int]] = None) -> Dict[str, Dict[str, int]]:
        """Each holder's hand in one way the cards may lie (the least of a count known within
        bounds): the first, in a fixed order, or the one `pick(n)` chooses of the n ways."""
        worlds = sorted(self.worlds)
        world = worlds[0] if pick is None else worlds[pick(len(worlds))]
        return {
            holder: {r: max(0, world[2 * (KINDS * k + i)]) for i, r in enumerate(RESOURCES)}
            for k, holder in enumerate(self.holders)
        }

    def where_holding(self, name: str, test: Callable[[int, int], bool]) -> bool:
        """Keep the worlds where `test(least, most)` allows the number of cards `name` holds
        in all; False (nothing changed) when none is."""
        at = self.base(name)
        return self.where(lambda w: test(sum(w[at : at + 2 * KINDS : 2]), sum(w[at + 1 : at + 2 * KINDS : 2])))

    def key(self) -> Tuple[Tuple[str, ...], FrozenSet[World]]:  # (the worlds, in any order)
        return tuple(self.holders), frozenset(self.worlds)

    # -- moves ------------------------------------------------------------------------------
    def admits(self, needs: Iterable[Tuple[str, Mapping[str, int]]]) -> bool:
        """Whether some world has each holder of `needs` hold at least what it names."""
        p = self._pending
        checks = [(j, n - p.get(j, 0)) for j, n in self._needs(needs, 1)]
        return any(all(w[j] >= n for j, n in checks) for w in self._worlds)

    def keep(self, needs: Iterable[Tuple[str, Mapping[str, int]]]) -> bool:
        """Keep the worlds where each holder of `needs` holds at least what it names; False
        (and nothing changed) when no world does."""
        WORK[0] += len(self._worlds)
        p = self._pending  # (read with the worlds as they are kept: lo and hi alike)
        checks = [(j, n - p.get(j, 0)) for j, n in self._needs(needs, 0)]
        if not checks:
            return bool(self._worlds)
        kept = []
        raised = False  # (a range's least raised: two worlds may have become one)
        for w in self._worlds:
            if all(w[j + 1] >= n for j, n in checks):
                if any(w[j] < n for j, n in checks):
                    x = list(w)
                    for j, n in checks:
                        if x[j] < n:
                            x[j] = n
                    w = tuple(x)
                    raised = True
                kept.append(w)
        if not kept:
            return False
        self._worlds = _distinct(kept) if raised else kept
        return True

    def _needs(self, needs: Iterable[Tuple[str, Mapping[str, int]]], hi: int) -> List[Tuple[int, int]]:
        """(coordinate, count) of each count `needs` names above zero: its lo's (`hi` 0) or hi's (1)."""
        return [(self.base(name) + 2 * _INDEX[r] + hi, n) for name, need in needs for r, n in need.items() if n > 0]

    def empty(self, names: List[str]) -> bool:
        """Keep the worlds where each of `names` may hold no card (and holds none); False
        (nothing changed) when there is none."""
        spans = [self.base(name) for name in names]
        kept = []
        for w in self.worlds:
            if all(w[a + j] == 0 for a in spans for j in range(0, 2 * KINDS, 2)):
                x = list(w)
                for a in spans:
                    for j in range(1, 2 * KINDS, 2):
                        x[a + j] = 0
                kept.append(tuple(x))
        if not kept:
            return False
        self.worlds = _distinct(kept)
        return True

    def where(self, test) -> bool:
        """Keep the worlds `test(world)` allows; False (nothing changed) when none is."""
        WORK[0] += len(self.worlds)
        kept = [w for w in self.worlds if test(w)]
        if not kept:
            return False
        self.worlds = kept
        return True

    def move(self, src: str, dst: str, amounts: Mapping[str, int]) -> None:
        """`src` gives `dst` the cards `amounts` names, as far as it holds them (a hand never
        goes below zero: the log's reading of a move it cannot pay). Both are holders."""
        WORK[0] += len(self._worlds)
        a, b = self.base(src), self.base(dst)
        steps = [(2 * _INDEX[r], n) for r, n in amounts.items() if n > 0]
        given = [(a + j, -n) for j, n in steps]
        if self._holds_none_at_zero(given):  # (every world holds what is given: a shift, kept pending)
            self._add_pending(given + [(b + j, n) for j, n in steps])
            return
        out = []
        short = False  # (a hand gave less than named: two worlds may have become one)
        for w in self.worlds:
            x = list(w)
            for j, n in steps:
                lo, hi = x[a + j], x[a + j + 1]
                if lo < n:
                    short = True
                x[a + j], x[a + j + 1] = max(0, lo - n), max(0, hi - n)
                x[b + j] += min(n, lo)
                x[b + j + 1] += min(n, hi)
            out.append(tuple(x))
        self.worlds = _distinct(out) if short else out

    def shift(self, name: str, delta: Mapping[str, int]) -> None:
        """Add `delta` to `name`'s cards in every world (never below zero)."""
        self.shift_all({name: delta})

    def shift_all(self, deltas: Mapping[str, Mapping[str, int]]) -> None:
        """Add each holder's delta to its cards in every world (never below zero), in one pass."""
        WORK[0] += len(self._worlds)
        steps = [(self.base(name) + 2 * _INDEX[r], n) for name, delta in deltas.items() for r, n in delta.items() if n]
        if not steps:
            return
        if self._holds_none_at_zero(steps):  # (kept pending: the module's docstring)
            self._add_pending(steps)
            return
        out = []
        held = False  # (a count held at zero: two worlds may have become one)
        if all(n > 0 for _, n in steps):  # (cards gained: nothing to hold at zero)
            for w in self.worlds:
                x = list(w)
                for j, n in steps:
                    x[j] += n
                    x[j + 1] += n
                out.append(tuple(x))
        else:
            for w in self.worlds:
                x = list(w)
                for j, n in steps:
                    lo, hi = x[j] + n, x[j + 1] + n
                    if lo < 0:
                        lo, held = 0, True
                    if hi < 0:
                        hi, held = 0, True
                    x[j], x[j + 1] = lo, hi
                out.append(tuple(x))
        self.worlds = _distinct(out) if held else out

    def _add_pending(self, steps: List[Tuple[int, int]]) -> None:
        """Add `steps` ((lo's coordinate, delta) each) to lo and hi of every world, pending."""
        p = self._pending
        for j, n in steps:
            p[j] = p.get(j, 0) + n
            p[j + 1] = p.get(j + 1, 0) + n

    def _holds_none_at_zero(self, steps: List[Tuple[int, int]]) -> bool:
        """Whether adding `steps` ((lo's coordinate, delta) each) holds no count at zero in
        any world: every delta a gain, or every count given held in every world (a lo that
        stays at zero or above keeps its hi, never below it, there too)."""
        p = self._pending
        for j, n in steps:
            if n < 0:
                least = n + p.get(j, 0)
                for w in self._worlds:
                    if w[j] + least < 0:
                        return False
        return True

    def widen(self, name: str, fewer: int, more: int) -> None:
        """`name` may hold up to `fewer` fewer and `more` more of each resource than each
        world says (a message the log lost changed the hand: docs/rules.md)."""
        WORK[0] += len(self.worlds)
        at = self.base(name)
        out = []
        for w in self.worlds:
            x = list(w)
            for j in range(at, at + 2 * KINDS, 2):
                x[j], x[j + 1] = max(0, x[j] - fewer), x[j + 1] + more
            out.append(tuple(x))
        self.worlds = _distinct(out)

    def move_unseen(self, src: str, dst: str, count: int, allowed: Optional[Callable[[Taken], bool]] = None) -> bool:
        """`src` gives `dst` `count` cards of kinds not shown: every way it can (that
        `allowed`, given the count of each kind, admits). False (and nothing changed) when
        there is none. (Made on the worlds as kept, a pending delta read with them and kept:
        the worlds come in another order than made at once, which nothing reads.)"""
        WORK[0] += len(self._worlds)
        a, b = self.base(src), self.base(dst)
        p = self._pending
        added = [p.get(a + 2 * i, 0) for i in range(KINDS)]  # (the same for lo and hi)
        more = sum(added)
        out: Set[World] = set()
        for w in self._worlds:
            most = more  # (counted in place: a slice made of each world costs more)
            for j in range(a + 1, a + 2 * KINDS, 2):
                most += w[j]
            if most < count:
                continue
            if _known(w, a):
                if count == 1:  # (a steal: one card of any kind held, the most common)
                    for i in range(KINDS):
                        at = a + 2 * i
                        if w[at] + added[i] > 0 and (allowed is None or allowed(_ONE_OF_EACH[i])):
                            x = list(w)
                            x[at] -= 1
                            x[at + 1] -= 1
                            x[b + 2 * i] += 1
                            x[b + 2 * i + 1] += 1
                            out.add(tuple(x))
                    continue
                held = [w[a + 2 * i] + added[i] for i in range(KINDS)]
                for taken in _multisets(held, count):
                    if allowed is not None and not allowed(taken):
                        continue
                    x = list(w)
                    for i, n in enumerate(taken):
                        if n:
                            x[a + 2 * i] -= n
                            x[a + 2 * i + 1] -= n
                            x[b + 2 * i] += n
                            x[b + 2 * i + 1] += n
                    out.add(tuple(x))
            else:  # a range: each resource may have given none, or up to `count`
                x = list(w)
                for i in range(KINDS):
                    lo, hi = x[a + 2 * i] + added[i], x[a + 2 * i + 1] + added[i]
                    x[a + 2 * i] = max(0, lo - count) - added[i]
                    x[b + 2 * i + 1] += min(count, hi)
                out.add(tuple(x))
        if not out:
            return False
        self._worlds = list(out)
        return True

    def monopoly(self, taker: str, resource: str, others: List[str]) -> None:
        """`taker` takes every card of `resource` the `others` hold (all holders)."""
        WORK[0] += len(self.worlds)
        j = 2 * _INDEX[resource]
        t = self.base(taker) + j
        spots = [self.base(o) + j for o in others]
        out = []
        for w in self.worlds:
            x = list(w)
            for s in spots:
                x[t] += x[s]
                x[t + 1] += x[s + 1]
                x[s] = x[s + 1] = 0
            out.append(tuple(x))
        self.worlds = _distinct(out)

    def union(self, other: "Doubt") -> None:
        """Add the worlds of `other` (over the same holders) to these."""
        WORK[0] += len(other.worlds)
        assert self.holders == other.holders
        self.worlds = _distinct(self.worlds + other.worlds)
        self.widened = self.widened or other.widened
        for name, line in other.since.items():
            self.since[name] = min(line, self.since.get(name, line))


def bound(doubt: "Doubt") -> bool:
    """Merge worlds into ranges once there are more than MAX_WORLDS (sound: every world
    kept is inside one of the ranges; no longer exact). True if it merged."""
    WORK[0] += len(doubt._worlds)
    if len(doubt._worlds) <= MAX_WORLDS:  # (counted as kept: a pending delta changes no count)
        return False
    # worlds that agree on every holder but the one in most doubt become one world, its
    # ranges the least and most of that holder; if that leaves more than MAX_WORLDS (one a
    # group: at least as many as another holder has parts), one world holds them all
    doubt.widened = True
    spread = [len({w[2 * KINDS * k : 2 * KINDS * (k + 1)] for w in doubt.worlds}) for k in range(len(doubt.holders))]
    k = spread.index(max(spread))
    if max(spread[:k] + spread[k + 1 :], default=0) <= MAX_WORLDS:
        a, b = 2 * KINDS * k, 2 * KINDS * (k + 1)
        groups: Dict[World, List[World]] = {}
        for w in doubt.worlds:
            groups.setdefault(w[:a] + w[b:], []).append(w)
        if len(groups) <= MAX_WORLDS:
            # (most groups are one world; a group's worlds differ only in holder k's part: that part spanned)
            doubt.worlds = _distinct(
                ws[0] if len(ws) == 1 else ws[0][:a] + _span([w[a:b] for w in ws]) + ws[0][b:] for ws in groups.values()
            )
            return True
    doubt.worlds = [_span(list(doubt.worlds))]  # (the span of the groups' spans)
    return True


def _known(w: World, at: int) -> bool:
    """Whether the holder at `at` holds a known count of each kind in `w` (not a range)."""
    for i in range(at, at + 2 * KINDS, 2):
        if w[i] != w[i + 1]:
            return False
    return True


def _cut(w: World, runs: List[Tuple[int, int]]) -> World:
    """`w` with only the coordinates of `runs`."""
    if not runs:
        return ()
    out = w[runs[0][0] : runs[0][1]]
    for a, b in runs[1:]:
        out = out + w[a:b]
    return out


def _cut_pending(pending: Dict[int, int], runs: List[Tuple[int, int]]) -> Dict[int, int]:
    """A pending delta's coordinates as `_cut` leaves them (those not kept dropped)."""
    out: Dict[int, int] = {}
    start = 0
    for a, b in runs:
        for j, n in pending.items():
            if a <= j < b:
                out[start + j - a] = n
        start += b - a
    return out


def _alike(worlds: Worlds, a: int, b: int, part: World) -> bool:
    """Whether every world has `part` at a..b (the first that does not ends the look)."""
    for w in worlds:
        if w[a:b] != part:
            return False
    return True


def _distinct(worlds: Iterable[World]) -> Worlds:
    """The worlds, each once (in the order first met)."""
    return list(dict.fromkeys(worlds))


def _span(worlds: List[World]) -> World:
    """The least world holding all of `worlds`: each coordinate's least lo and most hi."""
    columns = list(zip(*worlds))
    out = [0] * len(columns)
    out[0::2] = map(min, columns[0::2])  # (each lo; then each hi: the builtins do the work)
    out[1::2] = map(max, columns[1::2])
    return tuple(out)


def _multisets(held: List[int], count: int) -> Iterable[Tuple[int, ...]]:
    """Every way to take `count` cards from a hand of `held` cards of each kind."""
    if count == 0:
        yield (0,) * len(held)
        return
    if not held:
        return
    first, rest = held[0], held[1:]
    room = sum(rest)
    for n in range(min(first, count), -1, -1):
        if count - n <= room:
            for tail in _multisets(rest, count - n):
                yield (n,) + tail


def point(w: World, at: int) -> Optional[Dict[str, int]]:
    """The hand a world gives the holder at `at`, if it is known there (not a range)."""
    if any(w[at + 2 * i] != w[at + 2 * i + 1] for i in range(KINDS)):
        return None
    return {r: w[at + 2 * i] for i, r in enumerate(RESOURCES)}


def produce(doubt: Doubt, wants: Mapping[str, List[Tuple[str, int]]], flags: FrozenSet[str] = frozenset()) -> None:
    """A roll's production where the bank is in doubt: each resource paid as the bank of
    each world allows (`bank_pays.ways` under the departures `flags`: all owed if it can;
    what is left to a single player owed; else nothing), a world for each way it may have
    paid; where a world knows the bank only within a range whose ends pay otherwise, each
    player owed may have got their cards, or not. Every owner is a holder."""
    doubt.worlds = list(produced(doubt, wants, flags))


def any_of(
    doubt: Doubt, productions: Sequence[Mapping[str, List[Tuple[str, int]]]], flags: FrozenSet[str], gather: int
) -> Tuple[Doubt, bool]:
    """A roll not seen: the worlds of `doubt` after any of `productions` (each as `produce`
    makes it; those that pay alike once), merged into ranges (`bound`) whenever they are more
    than `gather`, and at the end past the bound; and whether they were merged."""
    out = doubt.copy()
    gathered: Set[World] = set()
    merged = False
    done: Set[tuple] = set()
    for wants in productions:
        key = tuple((r, tuple(owed)) for r, owed in sorted(wants.items()))
        if key in done:
            continue
        done.add(key)
        gathered |= produced(doubt, wants, flags)
        if len(gathered) > gather:
            out.worlds = list(gathered)
            merged = bound(out) or merged
            gathered = set(out.worlds)
    out.worlds = list(gathered)
    return out, bound(out) or merged


def produced(doubt: Doubt, wants: Mapping[str, List[Tuple[str, int]]], flags: FrozenSet[str]) -> Set[World]:
    """The worlds `produce` makes of `doubt`'s (which are left as they are)."""
    WORK[0] += len(doubt.worlds)
    bank = doubt.base("B")
    more = bank_more(flags)
    plan = []
    paid_in_full: List[Tuple[int, int]] = []  # (coordinate, cards added) where every world's bank pays all
    enough: List[Tuple[int, int]] = []  # (coordinate, least count) of the bank that pays all
    for r, owed in wants.items():
        j = 2 * _INDEX[r]
        places = [(doubt.base(o) + j, n) for o, n in owed]
        counts = [n for _, n in owed]
        total = sum(counts)
        plan.append((j, places, counts))
        enough.append((bank + j, total + more))
        paid_in_full += [(bank + j, -total), (bank + j + 1, -total)]
        for at, n in places:
            paid_in_full += [(at, n), (at + 1, n)]
    departs = not pays_as_rulebook(flags)
    out = set()
    for w in doubt.worlds:
        if all(w[at] >= least for at, least in enough):  # (the common case: the bank pays everyone)
            x = list(w)
            for at, n in paid_in_full:
                x[at] += n
            out.add(tuple(x))
            continue
        if not departs:  # the rulebook's bank: one way in each world
            out.add(_paid_by_rulebook(list(w), bank, plan))
            continue
        made = [list(w)]
        for j, places, counts in plan:
            following = []
            for x in made:
                lo, hi = x[bank + j], x[bank + j + 1]
                options = ways(lo, counts, flags)
                if lo != hi and ways(hi, counts, flags) != options:  # may or may not pay
                    x[bank + j] = max(0, lo - sum(counts))
                    for at, n in places:
                        x[at + 1] += n
                    following.append(x)
                    continue
                for k, pay in enumerate(options):
                    y = x if k == len(options) - 1 else list(x)
                    for (at, _), n in zip(places, pay):
                        y[at] += n
                        y[at + 1] += n
                        y[bank + j] -= n
                        y[bank + j + 1] -= n
                    following.append(y)
            made = following
        for x in made:
            out.add(tuple(x))
    return out


def _paid_by_rulebook(x: List[int], bank: int, plan: List[Tuple[int, List[Tuple[int, int]], List[int]]]) -> World:
    """`produced` in one world `x` (changed) whose bank is the rulebook's: `bank_pays.paid`,
    at each end of a range, written out for speed (the profiles' way: `bank_pays.ways`)."""
    for j, places, counts in plan:
        total = sum(counts)
        lo, hi = x[bank + j], x[bank + j + 1]
        if lo >= total:  # everyone is paid
            x[bank + j], x[bank + j + 1] = lo - total, hi - total
            for at, n in places:
                x[at] += n
                x[at + 1] += n
        elif lo == hi:  # short: what is left to a single player owed, else nothing
            if len(places) == 1 and lo > 0:
                at = places[0][0]
                x[at] += lo
                x[at + 1] += lo
                x[bank + j] = x[bank + j + 1] = 0
        elif len(places) == 1 or hi >= total:  # a range whose ends pay otherwise: each may have got theirs, or not
            x[bank + j] = max(0, lo - total)
            for at, n in places:
                x[at + 1] += n
        # (else short at both ends, several owed: nothing is paid)
    return tuple(x)
