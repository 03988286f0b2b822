"""Records of other engines' games built by Hypothesis from their structure, for the
converters' promises (t/test_converter_promises.py): catanatron's JSON of a game and a
JSettlers game event log, each part in the shape the engine writes it, each value most
often one the engine writes and now and then one it never does: another script's digits,
a number of thousands of digits, a count of millions, a bare minus, a layout of water.

A record comes with its text (what `sgn convert` reads) and, for catanatron, its data
(what `sgn.adapters.catanatron.convert` takes): a number too long for Python's `json`
(10**5000) is written as its digits, so both APIs meet it."""

from __future__ import annotations

import json
from typing import NamedTuple

from hypothesis import strategies as st

from sgn.adapters import catanatron, catanatron_actions as handlers, catanatron_board as places

# -- values ---------------------------------------------------------------------------------


class Huge(int):
    """10**k, with its digits: Python's json refuses to write an integer past 4,300 digits."""

    text = ""

    def __repr__(self) -> str:  # (repr() of the integer is refused past 4,300 digits)
        return f"huge({len(self.text) - 1})"


def huge(k: int) -> Huge:
    value = Huge(10**k)
    value.text = "1" + "0" * k
    return value


def as_json(value) -> str:
    """`json.dumps`, but for a `Huge`, written as its digits."""
    if isinstance(value, Huge):
        return value.text
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {as_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(as_json(v) for v in value) + "]"
    return json.dumps(value)


def mostly(good, odd):
    """`good` nine times in ten, `odd` otherwise."""
    return st.integers(0, 9).flatmap(lambda n: odd if n == 0 else good)


ODD_TEXT = st.sampled_from(["\u00b2", "\u0663", "-2", "", "1e3", "0x10", " 7", "NaN", "WOOD ", "-"])
ODD_NUMBER = st.sampled_from([-1, 0, 7, 13, 10**9, -(10**9), 2**63]) | st.sampled_from([20, 4400, 5000]).map(huge)
ODD = st.one_of(st.none(), st.booleans(), ODD_NUMBER, st.floats(), ODD_TEXT, st.just([]), st.just({}))

# -- catanatron -----------------------------------------------------------------------------


class CatanatronRecord(NamedTuple):
    data: dict
    text: str


def _cube(radius: int = 3):
    return st.tuples(st.integers(-radius, radius), st.integers(-radius, radius)).map(
        lambda t: [t[0], -t[0] - t[1], t[1]]
    )


def _named(table) -> st.SearchStrategy:
    return mostly(st.sampled_from(sorted(table)), ODD)


def _tile():
    resource = st.fixed_dictionaries(
        {
            "type": st.just("RESOURCE_TILE"),
            "resource": _named(places.TERRAIN),
            "number": mostly(st.integers(2, 12), ODD),
        }
    )
    port = st.fixed_dictionaries(
        {
            "type": st.just("PORT"),
            "direction": _named(places.SIDE),
            "resource": st.none() | _named(places.RESOURCE),
        }
    )
    plain = st.sampled_from([{"type": "DESERT"}, {"type": "WATER"}])
    return mostly(st.one_of(resource, port, plain), st.fixed_dictionaries({"type": ODD}))


def _node_id():
    return mostly(st.integers(0, 60).map(str), st.sampled_from(["\u00b2", "\u0663", "-2", "", "1" * 12, "x"]))


def _board():
    tiles = st.lists(
        st.fixed_dictionaries({"coordinate": mostly(_cube(), ODD), "tile": _tile()}), min_size=1, max_size=12
    )
    nodes = st.dictionaries(
        _node_id(),
        st.fixed_dictionaries({"tile_coordinate": mostly(_cube(1), ODD), "direction": _named(places.CORNER)}),
        max_size=12,
    )
    return st.tuples(tiles, nodes)


def _value(kind: str, colors):
    """A value of the shape catanatron writes for an action of `kind` (or another)."""
    node = mostly(st.integers(0, 60), ODD)
    resource = _named(places.RESOURCE)
    shapes = {
        "BUILD_SETTLEMENT": node,
        "BUILD_CITY": node,
        "BUILD_ROAD": st.lists(node, min_size=2, max_size=2),
        "ROLL": st.lists(mostly(st.integers(0, 7), ODD), min_size=2, max_size=2),
        "DISCARD": st.lists(resource, max_size=5),
        "DISCARD_RESOURCE": resource,
        "MOVE_ROBBER": st.tuples(_cube(2), st.none() | st.sampled_from(colors) | ODD, st.none() | resource).map(list),
        "MARITIME_TRADE": st.lists(st.none() | resource, min_size=5, max_size=5),
        "CONFIRM_TRADE": st.tuples(
            st.lists(mostly(st.integers(0, 3), ODD), min_size=10, max_size=10), st.sampled_from(colors) | ODD
        ).map(lambda t: t[0] + [t[1]]),
        "BUY_DEVELOPMENT_CARD": _named(handlers.CARD),
        "PLAY_YEAR_OF_PLENTY": st.lists(resource, max_size=3),
        "PLAY_MONOPOLY": resource,
    }
    return mostly(shapes.get(kind, st.none()), ODD)


@st.composite
def catanatron_records(draw) -> CatanatronRecord:
    tiles, nodes = draw(_board())
    colors = draw(mostly(st.lists(st.sampled_from(catanatron.COLORS), min_size=1, max_size=4, unique=True), ODD))
    named = colors if isinstance(colors, list) and colors else ["RED"]
    kinds = sorted(set(handlers.HANDLERS) | handlers.SILENT) + ["FLY"]
    actions = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(mostly(st.sampled_from(kinds), ODD))
        action = [
            draw(mostly(st.sampled_from(named), ODD)),
            kind,
            draw(_value(kind if isinstance(kind, str) else "", named)),
        ]
        actions.append(action)
    data: dict = {"tiles": tiles, "nodes": nodes, "colors": colors}
    if draw(st.booleans()):
        data["action_records"] = [[a, draw(st.none() | _value(str(a[1]), named))] for a in actions]
    else:
        data["actions"] = actions
    return CatanatronRecord(data, as_json(data))


# -- JSettlers ------------------------------------------------------------------------------

HEADER = "SOC game event log: type=F, version=2700"
ODD_FIELD = st.sampled_from(["", "-", "\u00b2", "\u0663", "1" * 5000, "-" + "9" * 20, "0x", "zz", "seven", "1 2"])
SEAT = mostly(st.integers(0, 5).map(str), ODD_FIELD)
# places of the classic boards, as the recorded games write them
COORDINATES = ["67", "69", "76", "78", "87", "89", "9b", "a5", "56", "45", "34", "0x9b", "77", "ab", "3"]
COUNT = mostly(st.integers(0, 3).map(str), st.sampled_from(["10000000", "1" * 5000, "\u0663", "-1"]))


def _resources(name: str):
    return st.tuples(*[COUNT] * 6).map(
        lambda n: f"{name}=clay={n[0]}|ore={n[1]}|sheep={n[2]}|wheat={n[3]}|wood={n[4]}|unknown={n[5]}"
    )


def _field(name: str, values):
    return mostly(values, ODD_FIELD).map(lambda v: f"{name}={v}")


def _numbers(low: int, high: int):
    return st.integers(low, high).map(str)


FIELDS = {
    "PutPiece": [("playerNumber", SEAT), ("pieceType", _numbers(0, 3)), ("coord", st.sampled_from(COORDINATES))],
    "UndoPutPiece": [("playerNumber", SEAT), ("pieceType", _numbers(0, 2)), ("coord", st.sampled_from(COORDINATES))],
    "CancelBuildRequest": [("pieceType", _numbers(0, 2))],
    "Turn": [("playerNumber", SEAT), ("gameState", _numbers(5, 20))],
    "DiceResult": [("param", _numbers(-1, 13))],
    "Discard": [("playerNum", SEAT), _resources("resources")],
    "MoveRobber": [("playerNumber", SEAT), ("coord", st.sampled_from(COORDINATES))],
    "RobberyResult": [("perp", SEAT), ("victim", SEAT), ("resType", _numbers(1, 6)), ("amount", _numbers(0, 2))],
    "DevCardAction": [
        ("playerNum", SEAT),
        ("actionType", st.sampled_from(["DRAW", "PLAY", "ADD_OLD", "CANNOT_PLAY"])),
        ("cardType", _numbers(0, 9)),
    ],
    "SimpleAction": [("pn", SEAT), ("actType", _numbers(1, 3)), ("v1", _numbers(0, 25)), ("v2", _numbers(0, 6))],
    "PickResources": [_resources("resources"), ("pn", SEAT), ("reason", _numbers(1, 3))],
    "BankTrade": [_resources("give"), _resources("get"), ("pn", SEAT)],
    "AcceptOffer": [("accepting", SEAT), ("offering", SEAT), _resources("toAccepting"), _resources("toOffering")],
    "MovePiece": [("pn", SEAT)],
    "GameState": [("state", _numbers(0, 100))],
    "Teleport": [("playerNumber", SEAT)],
}


def _message(kind: str):
    parts = [f if isinstance(f, st.SearchStrategy) else _field(*f) for f in FIELDS[kind]]
    audience = st.sampled_from(["all", "all", "all", "p0", "p2", "!p1", "ob", "f2"])
    return st.tuples(audience, *parts).map(lambda t: f"{t[0]}:SOC{kind}:game=g|" + "|".join(t[1:]))


def _layout_list(name: str, good, length: int = 37):
    items = st.lists(mostly(good, ODD_FIELD), min_size=length, max_size=length)
    water = st.just(["6"] * length)
    return st.one_of(items, water, st.lists(good, max_size=3)).map(lambda v: f"{name}={{ {' '.join(v)} }}")


def _board_layout(real_layouts):
    four = st.tuples(
        _layout_list("hexLayout", _numbers(0, 12)),
        _layout_list("numberLayout", _numbers(-1, 9)),
        _field("robberHex", st.sampled_from(["0x9b", "0x77", "-1"])),
    ).map(lambda t: "all:SOCBoardLayout:game=g|" + "|".join(t))
    six = st.tuples(
        _field("bef", st.sampled_from(["1", "2", "3"])),
        _layout_list("HL", _numbers(0, 6)),
        _field("RH", st.sampled_from(["57", "-1"])),
        _layout_list("PL", _numbers(0, 5), 11),
        _layout_list("NL", _numbers(-1, 12)),
    ).map(lambda t: "all:SOCBoardLayout2:game=g|" + "|".join(t))
    return st.one_of(st.sampled_from(real_layouts), four, six)


@st.composite
def jsettlers_records(draw, real_layouts) -> str:
    """A log: its header, maybe its options, a board, the seats, then messages of any kind."""
    lines = [draw(mostly(st.just(HEADER), st.sampled_from([HEADER.replace("=F", "=C"), "SOC game", ""])))]
    if draw(st.booleans()):
        options = draw(st.lists(st.sampled_from(["PL=6", "VP=t12", "VP=t10", "N7=f7", "SBL=t", "SC=x"]), max_size=3))
        odd = draw(st.sampled_from(["", ",VP=t\u00b2", ",VP=t" + "1" * 5000, ",VP=t"]))
        lines.append("all:SOCNewGameWithOptions:game=g|param1=-1|param2=" + ",".join(options) + odd)
    if draw(mostly(st.just(True), st.just(False))):
        lines.append(draw(_board_layout(real_layouts)))
    seats = draw(st.lists(st.integers(0, 5), min_size=1, max_size=6, unique=True))
    lines += [f"all:SOCSitDown:game=g|nickname=n{s}|playerNumber={s}|robotFlag=true" for s in seats]
    lines.append(
        f"all:SOCPutPiece:game=g|playerNumber={seats[0]}|pieceType=1|coord={draw(st.sampled_from(COORDINATES))}"
    )
    lines += draw(st.lists(st.sampled_from(sorted(FIELDS)).flatmap(_message), max_size=25))
    return "\n".join(lines) + "\n"
