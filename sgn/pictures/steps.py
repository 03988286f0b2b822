"""The report page's data: the moves, and the state after each line as `sgn replay --at LINE`
gives it (`sgn.pipeline.replay.line_by_line`: one pass, the same replay, recovery after a fault and
every game of the log included), kept as steps so that the page stays small.

Each piece that is ever on the board is drawn once, keyed by an id (`road:<edge>:<player>`,
`settlement:<corner>:<player>`, `city:...`, `robber:<tile>`); each map once, numbered; each
place a diagnostic names once. Per line the data holds what changed: the pieces added and
removed, the map shown, each player's points, cards and knights, and who holds the awards.
"""
from __future__ import annotations

import bisect
import functools
import io
from typing import Any, Dict, List, NamedTuple, Optional, Set, Tuple

from ..diagnostic import Diagnostic
from ..layers.jsonline import parse_line
from ..layers.reader import LogReader
from ..pipeline.replay import line_by_line
from . import draw
from .geometry import bounds
from .places import corner_key, edge_key, named_by, tile_key
from .tree import Element, el, text_of

RESOURCE_NAMES = {"B": "brick", "G": "grain", "L": "lumber", "O": "ore", "W": "wool"}
CARD_NAMES = {"KN": "plays a knight", "RB": "plays road building", "VP": "shows a victory point card",
              "YP": "plays year of plenty", "MO": "plays a monopoly"}
LAYERS = ("road", "settlement", "city", "robber")      # drawn in this order, each over the one before
# the keys of the places pieces stand on, asked for at every line: remembered
_edge_key = functools.lru_cache(maxsize=4096)(edge_key)
_corner_key = functools.lru_cache(maxsize=4096)(corner_key)


class ReportError(Exception):
    """The log cannot be read at all."""


class Collected(NamedTuple):
    data: dict                  # what the page's script reads (JSON)
    moves: List[dict]           # one per line read: line, player, text
    pieces: List[Element]       # data["ids"][k] drawn, as <g data-piece="k">
    maps: List[Element]         # map n drawn, as <g data-map="n">
    marks: List[Element]        # each place a diagnostic names, as <g data-place="key">
    errors: int
    warnings: int


class _State(NamedTuple):
    pieces: Set[str]
    stats: Dict[str, Tuple[int, int, int]]      # player -> points, cards in hand, knights
    awards: Tuple[str, str]                     # longest road, largest army
    map: int                                    # the map shown (-1: none yet)


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
        codes = get("rCodes") if isinstance(get("rCodes"), list) else []
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
    return (str(who), {"DM": "defines the map", "BS": "builds a settlement", "BR": "builds a road",
                       "BC": "builds a city", "BD": "buys a development card",
                       "MR": "moves the robber"}.get(str(action), f"does {action}"))


def _pieces(game) -> Dict[str, Tuple[Any, ...]]:
    """Every piece on the board: id -> how to draw it (drawn once, when it first appears)."""
    out: Dict[str, Tuple[Any, ...]] = {}
    for name, p in game.players.items():
        out.update({f"road:{_edge_key(e)}:{name}": (draw.road, e, name) for e in p.roads})
        out.update({f"settlement:{_corner_key(c)}:{name}": (draw.building, c, name, "settlement")
                    for c in p.settlements})
        out.update({f"city:{_corner_key(c)}:{name}": (draw.building, c, name, "city") for c in p.cities})
    if game.robber is not None:
        out[f"robber:{tile_key(game.robber)}"] = (draw.robber, game.robber)
    return out


def _source_bytes(source, name: str) -> Any:
    """A path is read twice as it is; a stream is read once into memory."""
    if hasattr(source, "read"):
        try:
            data = source.read()
        except OSError as error:
            raise ReportError(f"cannot read {name}: {error.strerror or error}") from None
        return lambda: io.BytesIO(data.encode("utf-8") if isinstance(data, str) else data)
    return lambda: source


def _moves(source, name: str) -> Tuple[List[dict], Dict[int, Any]]:
    """One entry per line read (a line that is no message too), and the messages by line."""
    moves: List[dict] = []
    messages: Dict[int, Any] = {}
    reader = LogReader(source, name=name)
    for item in reader:
        if isinstance(item, Diagnostic):
            if reader.unreadable:
                raise ReportError(item.message)
            continue
        number, raw = item
        line, _ = reader.decode(number, raw)
        if line is None:
            continue
        parsed = parse_line(line.text)     # the careful parser: too deep or not JSON is no message
        messages[number] = parsed[0] if isinstance(parsed, tuple) else None
        who, text = label(messages[number])
        moves.append({"line": number, "player": who, "text": text})
    return moves, messages


class _Maps:
    """Each map drawn once, numbered in the order the log defines them."""

    def __init__(self) -> None:
        self.nodes: List[Element] = []
        self.views: List[str] = []
        self._numbers: Dict[str, int] = {}
        self._last: Tuple[Any, int] = (None, -1)

    def number(self, board) -> int:
        if board is None:
            return -1
        if self._last[0] is not board:      # (a map is shared by the copies of a game)
            node = el("g")
            draw.board_layer(node, board)
            key = text_of(node)
            if key not in self._numbers:
                self._numbers[key] = len(self.nodes)
                node.set("data-map", str(len(self.nodes)))
                self.nodes.append(node)
                x0, y0, x1, y1 = bounds(board.kinds, draw.RADIUS)
                m = 10.0
                self.views.append(f"{x0 - m:.1f} {y0 - m:.1f} {x1 - x0 + 2 * m:.1f} {y1 - y0 + 2 * m:.1f}")
            self._last = (board, self._numbers[key])
        return self._last[1]


def collect(source, name: str, profile: str = "strict") -> Collected:
    """The page's data and drawings, with the numbers of errors and warnings."""
    again = _source_bytes(source, name)
    moves, messages = _moves(again(), name)
    drawn: Dict[str, Tuple[Any, ...]] = {}
    maps = _Maps()
    states: List[Tuple[int, _State]] = []

    def watch(line: int, game) -> None:
        pieces = _pieces(game)
        for k in pieces.keys() - drawn.keys():
            drawn[k] = pieces[k]
        stats = {p: (game.points(p), sum(game.players[p].hand.values()), game.players[p].knights)
                 for p in game.players}
        states.append((line, _State(set(pieces), stats, (game.longest_road or "", game.largest_army or ""),
                                    maps.number(game.board))))

    lines = [0] + [m["line"] for m in moves]
    check = line_by_line(again(), name=name, profile=profile, watch=watch)
    errors = warnings = 0
    diags = []
    places: Dict[str, Element] = {}
    for d in check:
        if d.is_io:
            raise ReportError(d.message)
        errors += d.is_error
        warnings += not d.is_error
        where = named_by(messages.get(d.line), d.pointer) if d.line in messages else None
        key = _key(where)
        if where is not None and key not in places:
            places[key] = el("g", {"data-place": key})
            draw.mark(places[key], where)
        diags.append({"line": d.line or 0, "i": bisect.bisect_right(lines, d.line or 0) - 1,   # its move, or before
                      "code": d.code, "severity": d.severity, "message": d.message, "pointer": d.pointer,
                      "place": key})
    data, pieces = _steps(lines, states, drawn)
    data.update(name=name, diags=diags, views=maps.views,
                games=[g["line"] for g in check.games])
    return Collected(data, moves, pieces, maps.nodes, list(places.values()), errors, warnings)


def _steps(lines: List[int], states: List[Tuple[int, _State]], drawn: Dict[str, Tuple[Any, ...]]
           ) -> Tuple[dict, List[Element]]:
    """The state at each line (that of the last message read up to it) as steps."""
    order = sorted(drawn, key=lambda k: (LAYERS.index(k.split(":")[0]), k))
    index = {k: i for i, k in enumerate(order)}
    players = sorted({p for _, s in states for p in s.stats})
    at = _State(set(), {}, ("", ""), -1)
    seen = 0
    data: Dict[str, Any] = {"players": players, "lines": lines, "ids": order,
                            "add": [], "del": [], "stats": [], "awards": [], "map": []}
    for line in lines:
        before = at.pieces
        while seen < len(states) and states[seen][0] <= line:
            at = states[seen][1]
            seen += 1
        data["add"].append(sorted(index[k] for k in at.pieces - before))
        data["del"].append(sorted(index[k] for k in before - at.pieces))
        data["stats"].append([list(at.stats[p]) if p in at.stats else None for p in players])
        data["awards"].append(list(at.awards))
        data["map"].append(at.map)
    pieces = []
    for k in order:
        node = el("g", {"data-piece": index[k]})
        drawn[k][0](node, *drawn[k][1:])
        pieces.append(node)
    return data, pieces


def _key(where: Optional[tuple]) -> str:
    if where is None:
        return ""
    kind, at = where
    return {"tile": tile_key, "corner": corner_key, "edge": edge_key}[kind](at)
