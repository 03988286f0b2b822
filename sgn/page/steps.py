"""The report page's data: the moves, and the state after each line as `sgn replay --at LINE`
gives it (a visitor of the reading loop, `sgn/pipeline/visitor.py`: one pass, the same replay, recovery after a fault and
every game of the log included), kept as steps so that the page stays small.

Each piece that is ever on the board is drawn once, keyed by an id (`road:<edge>:<player>`,
`settlement:<corner>:<player>`, `city:...`, `robber:<tile>`); each map once, numbered; each
place a diagnostic names once. Per line the data holds what changed: the pieces added and
removed, the map shown, each player's points, cards and knights, who holds the awards, and
the turn; per game, the line of its map and its winner.
"""

from __future__ import annotations

import bisect
import functools
from collections import OrderedDict
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Set, Tuple

from ..game.ledger import total_range
from ..game.possible import Kept, told
from ..layers.hidden import places
from ..pictures import style
from ..pictures.places import corner_key, edge_key, named_by, tile_key
from ..pictures.shapes import building, mark, road, robber
from ..pictures.tree import Element, el
from ..pipeline.checking import Checking
from ..pipeline.engine import FileCheck
from ..pipeline.visitor import Visitor
from ..rules import RESOURCE_NAMES
from . import holdings
from .maps import Maps

CARD_NAMES = {
    "KN": "plays a knight",
    "RB": "plays road building",
    "VP": "shows a victory point card",
    "YP": "plays year of plenty",
    "MO": "plays a monopoly",
}
LAYERS = ("road", "settlement", "city", "robber")  # drawn in this order, each over the one before
# the keys of the places pieces stand on, asked for at every line: remembered
_edge_key = functools.lru_cache(maxsize=4096)(edge_key)
_corner_key = functools.lru_cache(maxsize=4096)(corner_key)


class PageError(Exception):
    """The log cannot be read at all."""


class Collected(NamedTuple):
    data: dict  # what the page's script reads (JSON)
    moves: List[Tuple[int, str, str]]  # one per line read: (line, player, text)
    pieces: List[Element]  # data["ids"][k] drawn, as <g data-piece="k">
    maps: List[str]  # map n drawn, as the text of <g data-map="n"> (a long log has many)
    marks: List[Element]  # each place a diagnostic names, as <g data-place="key">
    errors: int
    warnings: int
    names: Dict[str, str]  # the players' names its first game's header gives (docs/format.md, "Records")
    colors: Dict[str, str]  # and the engine's colours of the seats


def label(message: Any) -> Tuple[str, str]:
    """(player, a short readable label) of one message."""
    if not (isinstance(message, list) and len(message) == 3):
        return ("?", "not a message (an array of three)")
    who, action, value = message
    value = value if isinstance(value, (dict, list)) else {}
    get = value.get if isinstance(value, dict) else (lambda key, default=None: default)
    if action == "RD":
        return (str(who), f"rolls {get('result', '?')}")
    if action == "PD":
        text = CARD_NAMES.get(str(get("cCode")), "plays a development card")
        listed = get("rCodes")
        codes: List[Any] = listed if isinstance(listed, list) else []
        names = [RESOURCE_NAMES.get(str(c), str(c)) for c in codes]
        return (str(who), text + (f" ({', '.join(names)})" if names else ""))
    if action in ("TR", "ST"):
        sides = [s for s in value if isinstance(s, dict)] if isinstance(value, list) else []
        others = [str(s.get("player")) for s in sides if s.get("player") != who]
        if action == "ST":
            return (str(who), f"steals from player {others[0]}" if others else "steals")
        if others == ["B"]:
            own = [s.get("resources") for s in sides if s.get("player") == who]
            gets = any(isinstance(r, dict) and any(isinstance(n, int) and n > 0 for n in r.values()) for r in own)
            return (str(who), "trades with the bank" if gets else "discards")
        return (str(who), f"trades with player {others[0]}" if others else "trades")
    return (
        str(who),
        {
            "HD": "the game's header (players, rules, result)",
            "ET": "ends the turn",
            "DM": "defines the map",
            "BS": "builds a settlement",
            "BR": "builds a road",
            "BC": "builds a city",
            "BD": "buys a development card",
            "MR": "moves the robber",
        }.get(str(action), f"does {action}"),
    )


def _pieces(game) -> Dict[str, Tuple[Any, ...]]:
    """Every piece on the board: id -> how to draw it (drawn once, when it first appears)."""
    out: Dict[str, Tuple[Any, ...]] = {}
    for name, p in game.players.items():
        out.update({f"road:{_edge_key(e)}:{name}": (road, e, name) for e in p.roads})
        out.update({f"settlement:{_corner_key(c)}:{name}": (building, c, name, "settlement") for c in p.settlements})
        out.update({f"city:{_corner_key(c)}:{name}": (building, c, name, "city") for c in p.cities})
    if game.robber is not None:
        out[f"robber:{tile_key(game.robber)}"] = (robber, game.robber)
    return out


RECENT = 4096  # the messages of the last lines kept, for the places their diagnostics name


def _count(span: Tuple[int, int]) -> Any:
    """A count, or (least, most) where it is in doubt (the page writes "7–10")."""
    return span[0] if span[0] == span[1] else tuple(span)


_NONE: Tuple[int, ...] = ()
_PLACING_NONE = frozenset({"RD", "TR", "ST", "BD"})  # the moves that never place or move a piece


class _Pass(Visitor):
    """What one pass over the log gathers, in bounded memory per line: the move of each line
    (`visit_line`), and the state after each line the replay reads, once it is final
    (`visit_state`): the pieces added and removed (by their ids' first-seen numbers), each
    player's numbers and the awards (one object a line, shared while nothing changes), the
    map shown. `slots` puts the states beside the moves."""

    def __init__(self) -> None:
        self.moves: List[Tuple[int, str, str]] = []
        self.lines: List[int] = [0]
        # the states, one a line the replay read: its line, and what changed
        self.at: List[int] = []
        self.add: List[Tuple[int, ...]] = []
        self.drop: List[Tuple[int, ...]] = []
        self.stats: List[Tuple[Any, ...]] = [()]
        self.awards: List[Tuple[str, str, int]] = [("", "", 0)]  # longest road, largest army, turn
        self.holds: List[Tuple[Any, ...]] = [((), (), (), ())]  # hands, cards, bank, deck (holdings.py)
        self.rolls: Dict[int, Any] = {}  # the moves (indices) that are rolls: their results
        self.kept = Kept()  # the last game's messages, for what its hidden values may be
        self.hidden: Dict[int, int] = {}  # the line of a move with a hidden value -> its index
        self.map: List[int] = []
        self.players: List[str] = []
        self.drawn: Dict[str, Tuple[Any, ...]] = {}  # piece id -> how to draw it
        self.number: Dict[str, int] = {}  # piece id -> its number, first seen first
        self.recent: "OrderedDict[int, Any]" = OrderedDict()
        self.maps = Maps()
        self._on: Set[str] = set()
        self._signature: Any = None
        self._game: Any = None
        self._shared: Dict[Any, Any] = {}  # equal values made one object

    def may_have_won(self) -> Optional[List[Any]]:
        """[player, line] where the last game may have ended unseen (docs/hidden.md), or None."""
        game = self._game
        end = game.unseen.end if game is not None else None
        return [end[1], end[0]] if end is not None else None

    def _one(self, value: Any) -> Any:
        """The one object of values that recur (labels, a player's numbers): few of them."""
        return self._shared.setdefault(value, value)

    @staticmethod
    def _same(values: List[Any], value: Any) -> Any:
        """The last line's object when nothing changed (a line's numbers recur rarely later)."""
        return values[-1] if values[-1] == value else value

    def visit_line(self, line: int, message: Any) -> None:
        who, text = label(message)
        cards = holdings.moved(message)
        self.moves.append((line, self._one(who), self._one(f"{text}: {cards}" if cards else text)))
        if type(message) is list and len(message) == 3 and message[1] == "RD":
            self.rolls[len(self.moves)] = message[2].get("result") if isinstance(message[2], dict) else None
        if places(message):
            self.hidden[line] = len(self.moves) - 1
        self.lines.append(line)
        recent = self.recent
        recent[line] = message
        if len(recent) > RECENT:
            recent.popitem(last=False)

    def visit_state(self, line: int, game: Any, message: Any) -> None:
        self.at.append(line)
        self.kept.add(line, message)
        # the pieces change only with the game (a reading chosen, the next game) or with a
        # move that may place or move one: worked out again then only (the game is held, so
        # that it is never mistaken for another one made where it was)
        if game is not self._game or not (type(message) is list and len(message) == 3 and message[1] in _PLACING_NONE):
            signature = (
                sum(len(p.roads) + len(p.settlements) + 2 * len(p.cities) for p in game.players.values()),
                game.robber,
            )
            if game is not self._game or signature != self._signature:
                self._changed(game)
            else:
                self.add.append(_NONE)
                self.drop.append(_NONE)
            self._game, self._signature = game, signature
        else:
            self.add.append(_NONE)
            self.drop.append(_NONE)
        players = self.players
        for name in game.players:
            if name not in players:
                players.append(name)
        self.stats.append(
            self._same(
                self.stats,
                tuple(
                    self._one((_count(game.points_range(p)), _count(total_range(game, p)), game.players[p].knights))
                    if p in game.players
                    else None
                    for p in players
                ),
            )
        )
        self.awards.append(self._same(self.awards, (game.longest_road or "", game.largest_army or "", game.turn)))
        self.holds.append(self._same(self.holds, holdings.holding(game, players, self._one)))
        self.map.append(self.maps.number(game.board))

    def _changed(self, game: Any) -> None:
        pieces = _pieces(game)
        for k in pieces.keys() - self.drawn.keys():
            self.drawn[k] = pieces[k]
            self.number[k] = len(self.number)
        on = set(pieces)
        self.add.append(tuple(sorted(self.number[k] for k in on - self._on)) or _NONE)
        self.drop.append(tuple(sorted(self.number[k] for k in self._on - on)) or _NONE)
        self._on = on

    def slots(self) -> Tuple[List[Tuple[int, ...]], List[Tuple[int, ...]], List[Any], List[Any], List[int], List[Any]]:
        """(add, drop, stats, awards, map, holdings) of each move, line 0 first: the states of the lines
        up to a move's line and after the move before, together (a line the replay did not
        read changes nothing)."""
        add: List[Tuple[int, ...]] = [_NONE]
        drop: List[Tuple[int, ...]] = [_NONE]
        stats, awards, maps, holds = [self.stats[0]], [self.awards[0]], [-1], [self.holds[0]]
        at, k, last = self.at, 0, len(self.at)
        on: Set[int] = set()
        for index, line in enumerate(self.lines[1:], 1):
            first = k
            while k < last and (at[k] <= line or index == len(self.lines) - 1):
                k += 1
            if k == first:
                add.append(_NONE)
                drop.append(_NONE)
                stats.append(stats[-1])
                awards.append(awards[-1])
                maps.append(maps[-1])
                holds.append(holds[-1])
                continue
            if k - first == 1:
                add.append(self.add[first])
                drop.append(self.drop[first])
                on = (on - set(self.drop[first])) | set(self.add[first]) if self.add[first] or self.drop[first] else on
            else:
                before = set(on)
                for j in range(first, k):
                    on = (on - set(self.drop[j])) | set(self.add[j])
                add.append(tuple(sorted(on - before)) or _NONE)
                drop.append(tuple(sorted(before - on)) or _NONE)
            stats.append(self.stats[k])  # (stats and awards begin with line 0's)
            awards.append(self.awards[k])
            maps.append(self.map[k - 1])
            holds.append(self.holds[k])
        return add, drop, stats, awards, maps, holds


def collect(source, name: str, checking: Checking) -> Collected:
    """The page's data and drawings, with the numbers of errors and warnings: one pass over
    the log at the rules level, the pass that finds its diagnostics (its profiles `checking`'s)."""
    gathered = _Pass()
    check = FileCheck(source, checking.at_level("rules"), name=name, visitor=gathered)
    errors = warnings = 0
    diags = []
    places: Dict[str, Element] = {}
    lines = gathered.lines
    for d in check:
        if d.is_io:
            raise PageError(d.message)
        errors += d.occurrences if d.is_error else 0
        warnings += 0 if d.is_error else d.occurrences
        message = gathered.recent.get(d.line) if d.line else None
        where = named_by(message, d.pointer) if message is not None else None
        key = _key(where)
        if where is not None and key not in places:
            places[key] = el("g", {"data-place": key})
            mark(places[key], where)
        diags.append(
            {
                "line": d.line or 0,
                "i": bisect.bisect_right(lines, d.line or 0) - 1,  # its move, or before
                "code": d.code,
                "severity": d.severity,
                "message": d.message,
                "pointer": d.pointer,
                "place": key,
            }
        )
    if not errors:  # what each hidden value may have been, by the whole log (docs/hidden.md)
        moves = gathered.moves
        for entry in gathered.kept.values(check.checking.rules):
            i = gathered.hidden.get(entry["line"])
            if i is not None:
                line, who, text = moves[i]
                moves[i] = (line, who, f"{text} (may have been: {told(entry)})")
    first = next((g for g in check.games if g.get("players") or g.get("colors")), {})
    names: Dict[str, str] = first.get("players", {})
    colors: Dict[str, str] = first.get("colors", {})
    data, pieces = _steps(gathered, style.palette(colors))
    data.update(
        name=name,
        diags=diags,
        views=gathered.maps.views,
        games=[g["line"] for g in check.games],
        winners=[g["winner"] for g in check.games],
        may_have_won=gathered.may_have_won(),
    )
    return Collected(
        data, gathered.moves, pieces, gathered.maps.nodes, list(places.values()), errors, warnings, names, colors
    )


def _steps(gathered: _Pass, palette: Dict[str, str]) -> Tuple[dict, List[Element]]:
    """The steps of every line, the pieces numbered in the order they are drawn in (roads,
    then settlements, cities and the robber), and their drawings, in the players' colours."""
    drawn = gathered.drawn
    order = sorted(drawn, key=lambda k: (LAYERS.index(k.split(":")[0]), k))
    renumber = {gathered.number[k]: i for i, k in enumerate(order)}

    none: List[int] = []  # (one list for every line that changes nothing)

    def ids(step: Tuple[int, ...]) -> List[int]:
        return sorted(renumber[n] for n in step) if step else none

    add, drop, stats, awards, maps, holds = gathered.slots()
    data: Dict[str, Any] = {
        "players": gathered.players,
        "lines": gathered.lines,
        "ids": order,
        "add": [ids(s) for s in add],
        "del": [ids(s) for s in drop],
        "stats": stats,
        "awards": _holders(awards),
        "turns": [a[2] for a in awards],
        "map": maps,
        **holdings.columns(holds),
    }
    players, moves = gathered.players, gathered.moves
    for i in sorted(gathered.rolls):  # who received what: the hands before the roll and after
        line, who, text = moves[i - 1]
        if gathered.rolls[i] != 7 and holds[i - 1][0] and holds[i][0]:
            said = f"{text}: {holdings.received(holds[i - 1][0], holds[i][0], players)}"
            moves[i - 1] = (line, who, gathered._one(said))
    pieces = []
    for k in order:
        node = el("g", {"data-piece": renumber[gathered.number[k]]})
        drawn[k][0](node, *drawn[k][1:], palette=palette)
        pieces.append(node)
    return data, pieces


def _holders(awards: List[Tuple[str, str, int]]) -> List[Tuple[str, str]]:
    """Who holds the two awards after each line: one object for a line's awards as long as
    they are the line before's (a long log's lines are mostly alike)."""
    out: List[Tuple[str, str]] = []
    last: Any = None
    for a in awards:
        if a is not last:
            last, held = a, a[:2]
            if out and out[-1] == held:
                held = out[-1]
        out.append(held)
    return out


def _key(where: Optional[tuple]) -> str:
    if where is None:
        return ""
    kind, at = where
    keys: Dict[str, Callable[[Any], str]] = {"tile": tile_key, "corner": corner_key, "edge": edge_key}
    return keys[kind](at)
