"""HSN, the Hexil State Notation (seed 000, the bracketed version with a grammar): a whole
game state in one string, written from the rules replay (`sgn replay --at LINE -o hsn`).

Conventions where HSN is silent or cannot say something (docs/notations.md):
- every tile row is written, in both the tile kinds and the resource numbers, so that
  the groups line up with the rows (the seed's example leaves out the last, empty one);
- rows and columns are HAN's (d4 is SGN [0,0]); a row is as wide as the map's widest;
  a map that reaches beyond HAN's first row or column (the 5-6 player board) is moved
  right and down until it starts at row 1 and column 1, and every place with it: HSN
  carries its own map, so its names stay consistent, but they are not HAN's;
- the turn number counts the turns after the setup from 1; the setup itself is written
  as turn 1 with nothing rolled (HSN has no setup marker, and no current player: the
  player whose turn it is follows from the turn number and the player count);
- harbors, buildings and roads are sorted by row, then column, then corner or side.
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional

from .. import board
from .han_places import edge_name, tile_name, vertex_name
from .scan import RESOURCES, quoted

KIND = {"H": "B", "M": "O", "F": "G", "FO": "L", "P": "W", "D": "D", "S": "S"}  # SGN tCode -> HSN
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


def _formula(counts: Dict[str, int], order: Iterable[str], names: Optional[Dict[str, str]] = None) -> str:
    names = names or {}
    return "".join(names.get(k, k) + ("" if counts[k] == 1 else str(counts[k])) for k in order if counts.get(k))


def _per_player(values: List[str]) -> str:
    return "[" + "|".join(values) + "]"


def format_state(game) -> str:
    """The HSN string of a replayed game's state."""
    b = game.board
    if b is None:
        raise ValueError("no map yet: HSN starts with the map")
    dq = max(0, 1 - OFFSET - min(q for q, _ in b.kinds))  # the shift that puts the map in HAN's grid
    dr = max(0, 1 - OFFSET - min(r for _, r in b.kinds))

    def tile(t):
        return (t[0] + dq, t[1] + dr)

    def vertex(c) -> str:
        return vertex_name(frozenset(tile(t) for t in c))

    def edge(e) -> str:
        return edge_name(frozenset(frozenset(tile(t) for t in c) for c in e))

    rows: Dict[int, Dict[int, str]] = {}
    for (q, r), kind in b.kinds.items():
        rows.setdefault(r + dr + OFFSET, {})[q + dq + OFFSET] = kind
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
            number = b.numbers.get((c - OFFSET - dq, r - OFFSET - dr))
            if number is not None and board.PRODUCING.get(row[c]):
                row_numbers.append(str(number))
        if skip:
            text += str(skip)
        kinds.append(text)
        numbers.append(",".join(row_numbers))
    harbors = sorted((edge(e), HARBOR_PREFIX[code]) for e, code in b.harbors)
    harbors.sort(key=lambda h: _sort_key(h[0]))

    names = [str(i) for i in range(1, (game.count or max((int(n) for n in game.players), default=0)) + 1)]
    players = [game.players.get(n) for n in names]

    def places(get, namer):
        return _per_player([",".join(sorted((namer(x) for x in get(p)), key=_sort_key)) if p else "" for p in players])

    if game.unseen.doubt is not None:
        raise ValueError(
            "the hands are in doubt here (the log hides some cards: docs/hidden.md), and HSN writes known hands only"
        )
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
        " ".join(
            [
                places(lambda p: p.cities, vertex),
                places(lambda p: p.settlements, vertex),
                places(lambda p: p.roads, edge),
                tile_name(tile(game.robber)) if game.robber else "",
            ]
        ),
        "",
        " ".join([held, cards, knights, game.largest_army or "0", game.longest_road or "0"]),
        "",
        str(max(game.turn, 1)),
        "",
        " ".join(
            [
                "R" if game.rolled and game.phase != "setup" else ".",
                must,
                bought or ".",
                f"R{game.free_roads}" if game.free_roads else ".",
            ]
        ),
    ]
    return "\n".join(parts) + "\n"


# -- reading ------------------------------------------------------------------------------------
# Our reading of the grammar: the 17 fields are separated by whitespace, and a field holds
# none (pest's implicit whitespace would allow `d 4`; no writer needs it).

import re  # noqa: E402

_COORD = r"[a-z]+[1-9][0-9]*"
_AMOUNT = r"[1-9][0-9]*"
_FORMULA = rf"(?:[BGLOW](?:{_AMOUNT})?)+"
_CARDS = rf"(?:D[kmrvy](?:{_AMOUNT})?)+"
_ITEMS = rf"(?:[VCR](?:{_AMOUNT})?)+"


def _list(item: str) -> str:
    return rf"\[(?:(?:{item})?(?:\|(?:{item})?)*)?\]"


def _csv(item: str) -> str:
    return rf"{item}(?:,{item})*"


FIELDS = (
    ("tile_kinds", r"\[(?:[0-9SDBGLOW]*(?:/[0-9SDBGLOW]*)*)?\]"),
    ("resource_numbers", rf"\[(?:(?:{_csv(_AMOUNT)})?(?:/(?:{_csv(_AMOUNT)})?)*)?\]"),
    ("harbors", rf"\[(?:{_csv('[BGLOW]?' + _COORD + '(?:ne|nw|w)')})?\]"),
    ("cities", _list(_csv(_COORD + "[ns]"))),
    ("villages", _list(_csv(_COORD + "[ns]"))),
    ("roads", _list(_csv(_COORD + "(?:ne|nw|w)"))),
    ("robber", _COORD),
    ("held", _list(_FORMULA)),
    ("cards", _list(_CARDS)),
    ("knights", _list("[0-9]+")),
    ("largest_army", "[0-6]"),
    ("longest_road", "[0-6]"),
    ("turn_number", _AMOUNT),
    ("rolled", r"[R.]"),
    ("must", r"S|M|[DP]\[(?:[0-6](?:,[0-6])*)?\]|\."),
    ("bought", rf"{_CARDS}|\."),
    ("placeable", rf"{_ITEMS}|\."),
)


class HsnError(ValueError):
    """An HSN string that does not parse: the message, with the line and column of the field at fault."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(f"line {line}, column {column}: {message}")
        self.reason, self.line, self.column = message, line, column


def parse(text: str) -> Dict[str, str]:
    """The 17 fields of an HSN state (seed 000), by name, each as written.
    Raises HsnError naming the field at fault, with its line and column."""
    tokens = [(m.group(), m.start()) for m in re.finditer(r"\S+", text)]

    def where(offset: int):
        line = text.count("\n", 0, offset) + 1
        return line, offset - (text.rfind("\n", 0, offset) + 1) + 1

    fields: Dict[str, str] = {}
    for i, (name, pattern) in enumerate(FIELDS):
        if i >= len(tokens):
            line, column = where(len(text))
            raise HsnError(f"the state ends before its field {name.replace('_', ' ')}", line, column)
        token, offset = tokens[i]
        if not re.fullmatch(pattern, token):
            line, column = where(offset)
            raise HsnError(f"{quoted(token)} is not a valid {name.replace('_', ' ')} field", line, column)
        fields[name] = token
    if len(tokens) > len(FIELDS):
        line, column = where(tokens[len(FIELDS)][1])
        raise HsnError(f"unexpected {quoted(tokens[len(FIELDS)][0])} after the last field", line, column)
    return fields


def render(fields: Dict[str, str]) -> str:
    """The fields laid out as `format_state` writes them: the five parts on their own lines."""
    f = fields
    return (
        "\n".join(
            [
                f["tile_kinds"],
                f["resource_numbers"],
                f["harbors"],
                "",
                " ".join([f["cities"], f["villages"], f["roads"], f["robber"]]),
                "",
                " ".join([f["held"], f["cards"], f["knights"], f["largest_army"], f["longest_road"]]),
                "",
                f["turn_number"],
                "",
                " ".join([f["rolled"], f["must"], f["bought"], f["placeable"]]),
            ]
        )
        + "\n"
    )


# -- the earlier version, seed 002 ---------------------------------------------------------------
# The same 17 fields, in another order, without brackets, harbors `O-f3ne`, cards `k2m`, the
# discard list `D1,3` and items `r2`. Whitespace separates every field, so an empty field
# (no harbors; one player with no city) cannot be written: that is an error, not a guess.

ORDER_002 = (
    "tile_kinds",
    "resource_numbers",
    "harbors",
    "robber",
    "villages",
    "cities",
    "roads",
    "held",
    "cards",
    "knights",
    "largest_army",
    "longest_road",
    "turn_number",
    "rolled",
    "must",
    "bought",
    "placeable",
)
_BRACKETED = {"tile_kinds", "resource_numbers", "harbors", "cities", "villages", "roads", "held", "cards", "knights"}


def _to_002(name: str, value: str) -> str:
    if name in _BRACKETED:
        value = value[1:-1]
    if name == "harbors":
        value = re.sub(r"(^|,)([BGLOW])(?=[a-z])", r"\1\2-", value)
    elif name in ("cards", "bought") and value != ".":
        value = value.replace("D", "")
    elif name == "must":
        value = value.replace("[", "").replace("]", "")
    elif name == "placeable" and value != ".":
        value = value.lower()
    return value


def _from_002(name: str, value: str) -> str:
    if name == "harbors":
        value = value.replace("-", "")
    elif name in ("cards", "bought") and value != ".":
        value = re.sub(r"([kmrvy])", r"D\1", value)
    elif name == "must" and value[:1] in ("D", "P"):
        value = f"{value[0]}[{value[1:]}]"
    elif name == "placeable" and value != ".":
        value = value.upper()
    return f"[{value}]" if name in _BRACKETED else value


def render_002(fields: Dict[str, str]) -> str:
    """The fields in the seed-002 layout; raises ValueError for a field it cannot write."""
    values = {name: _to_002(name, fields[name]) for name in ORDER_002}
    empty = [name for name, value in values.items() if value == ""]
    if empty:
        raise ValueError(
            f"HSN 002 cannot write an empty field ({', '.join(empty)}): its fields are separated by whitespace alone"
        )
    v = values
    return (
        "\n".join(
            [
                v["tile_kinds"],
                v["resource_numbers"],
                v["harbors"],
                "",
                " ".join([v["robber"], v["villages"], v["cities"], v["roads"]]),
                "",
                " ".join([v["held"], v["cards"], v["knights"], v["largest_army"], v["longest_road"]]),
                "",
                " ".join([v["turn_number"], v["rolled"], v["must"], v["bought"], v["placeable"]]),
            ]
        )
        + "\n"
    )


def parse_002(text: str) -> Dict[str, str]:
    """The fields of a seed-002 state, in the seed-000 form (so both versions compare)."""
    tokens = [(m.group(), m.start()) for m in re.finditer(r"\S+", text)]
    if len(tokens) != len(ORDER_002):
        offset = tokens[len(ORDER_002)][1] if len(tokens) > len(ORDER_002) else len(text)
        line = text.count("\n", 0, offset) + 1
        raise HsnError(
            f"HSN 002 has {len(ORDER_002)} fields separated by whitespace; this has {len(tokens)}",
            line,
            offset - (text.rfind("\n", 0, offset) + 1) + 1,
        )
    canonical = {name: _from_002(name, token) for name, (token, _) in zip(ORDER_002, tokens)}
    # check each field with the seed-000 grammar, pointing at the 002 token on error
    patterns = dict(FIELDS)
    for name, (token, offset) in zip(ORDER_002, tokens):
        valid = re.fullmatch(patterns[name], canonical[name])
        if not valid or _to_002(name, canonical[name]) != token:  # the 002 form exactly (O-f3ne, r2)
            line = text.count("\n", 0, offset) + 1
            written = f" (HSN 002 writes {quoted(_to_002(name, canonical[name]))})" if valid else ""
            raise HsnError(
                f"{quoted(token)} is not a valid {name.replace('_', ' ')} field{written}",
                line,
                offset - (text.rfind("\n", 0, offset) + 1) + 1,
            )
    return {name: canonical[name] for name, _ in FIELDS}
