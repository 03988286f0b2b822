"""HSN, the Hexil State Notation (seed 000, the bracketed version with a grammar): a whole
game state in one string, written from the rules replay (`sgn replay --at LINE -o hsn`).

Conventions where HSN is silent or cannot say something (docs/notations.md):
- every tile row is written, in both the tile kinds and the resource numbers, so that
  the groups line up with the rows (the seed's example leaves out the last, empty one);
- rows and columns are HAN's (d4 is SGN [0,0]); a row is as wide as the map's widest;
- the turn number counts the turns after the setup from 1; the setup itself is written
  as turn 1 with nothing rolled (HSN has no setup marker, and no current player: the
  player whose turn it is follows from the turn number and the player count);
- harbors, buildings and roads are sorted by row, then column, then corner or side.
"""
from __future__ import annotations

from typing import Dict, Iterable, List

from .. import board, rules
from .han import RESOURCES, edge_name, tile_name, vertex_name

KIND = {"H": "B", "M": "O", "F": "G", "FO": "L", "P": "W", "D": "D", "S": "S"}   # SGN tCode -> HSN
CARD = {"KN": "Dk", "MO": "Dm", "RB": "Dr", "VP": "Dv", "YP": "Dy"}
HARBOR_PREFIX = {"HR": "", "HRB": "B", "HRG": "G", "HRL": "L", "HRO": "O", "HRW": "W"}
OFFSET = 4


def _sort_key(name: str):
    """Row, then column, then suffix, for a HAN coordinate name like 'e3nw'."""
    letters = "".join(ch for ch in name if ch.isalpha() and ch == ch.lower())
    i = 0
    while i < len(name) and name[i].isalpha():
        i += 1
    j = i
    while j < len(name) and name[j].isdigit():
        j += 1
    return int(name[i:j]), len(name[:i]), name[:i], name[j:], letters


def _formula(counts: Dict[str, int], order: Iterable[str], names: Dict[str, str] = None) -> str:
    names = names or {}
    return "".join(names.get(k, k) + ("" if counts[k] == 1 else str(counts[k])) for k in order if counts.get(k))


def _per_player(values: List[str]) -> str:
    return "[" + "|".join(values) + "]"


def format_state(game) -> str:
    """The HSN string of a replayed game's state."""
    b = game.board
    if b is None:
        raise ValueError("no map yet: HSN starts with the map")
    rows: Dict[int, Dict[int, str]] = {}
    for (q, r), kind in b.kinds.items():
        rows.setdefault(r + OFFSET, {})[q + OFFSET] = kind
    width = max(c for row in rows.values() for c in row)
    kinds, numbers = [], []
    for r in range(1, max(rows) + 1):
        row = rows.get(r, {})
        text, skip, row_numbers = "", 0, []
        for c in range(1, width + 1):
            if c not in row:
                skip += 1
                continue
            if skip:
                text += str(skip)
                skip = 0
            text += KIND[row[c]]
            number = b.numbers.get((c - OFFSET, r - OFFSET))
            if number is not None and board.PRODUCING.get(row[c]):
                row_numbers.append(str(number))
        if skip:
            text += str(skip)
        kinds.append(text)
        numbers.append(",".join(row_numbers))
    harbors = sorted((edge_name(e), HARBOR_PREFIX[code]) for e, code in b.harbors)
    harbors.sort(key=lambda h: _sort_key(h[0]))

    names = [str(i) for i in range(1, (game.count or max((int(n) for n in game.players), default=0)) + 1)]
    players = [game.players.get(n) for n in names]

    def places(get, namer):
        return _per_player([",".join(sorted((namer(x) for x in get(p)), key=_sort_key)) if p else ""
                            for p in players])

    held = _per_player([_formula(p.hand, RESOURCES) if p else "" for p in players])
    cards = _per_player([_formula(p.cards, sorted(CARD), CARD) if p else "" for p in players])
    knights = _per_player([str(p.knights) if p else "0" for p in players])
    current = game.players.get(game.current) if game.current else None
    must = "."
    if game.steal_from:
        must = "S"
    elif game.discards_owed:
        must = "D[" + ",".join(sorted(game.discards_owed)) + "]"
    elif game.robber_due:
        must = "M"
    bought = _formula(current.new_cards, sorted(CARD), CARD) if current else ""
    parts = [
        "[" + "/".join(kinds) + "]",
        "[" + "/".join(numbers) + "]",
        "[" + ",".join(prefix + name for name, prefix in harbors) + "]",
        "",
        " ".join([places(lambda p: p.cities, vertex_name), places(lambda p: p.settlements, vertex_name),
                  places(lambda p: p.roads, edge_name), tile_name(game.robber) if game.robber else ""]),
        "",
        " ".join([held, cards, knights, game.largest_army or "0", game.longest_road or "0"]),
        "",
        str(max(game.turn, 1)),
        "",
        " ".join(["R" if game.rolled and game.phase != "setup" else ".", must, bought or ".",
                  f"R{game.free_roads}" if game.free_roads else "."]),
    ]
    return "\n".join(parts) + "\n"
