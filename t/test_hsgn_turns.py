"""HSGN turns: the seed's examples, every action, errors at their column, and format then parse."""

import json

import pytest
from hypothesis import given, strategies as st

from conftest import run_cli
from sgn import board
from sgn.notation import hsgn
from sgn.notation.hsgn_turns import Action, PlaceError, Turn, TurnError, format_turn, parse_line


def test_the_seed_turns():
    turns, warnings = parse_line("p3: 6, T2(LO, W2).")
    assert turns == [
        Turn(
            "p3",
            (Action("roll", roll=6), Action("T", player="p2", formula={"L": 1, "O": 1}, formula2={"W": 2})),
            1,
            (5, 8),
        )
    ]
    assert warnings == [(9, "a player is written p2: 2 is read as p2")]
    assert format_turn(turns[0]) == "p3: 6, Tp2(LO, W2)."
    turns, warnings = parse_line("4.p2: 6.8.")
    assert [(t.player, t.actions[0].roll, t.column) for t in turns] == [(None, 4, 1), ("p2", 6, 3), (None, 8, 9)]
    assert warnings == [] and [format_turn(t) for t in turns] == ["4.", "p2: 6.", "8."]


@pytest.mark.parametrize(
    "text, action",
    [
        ("MRb", Action("MR", tile=hsgn.LAND["b"])),
        ("Dp1(O2W)", Action("D", player="p1", formula={"O": 2, "W": 1})),
        ("Sp2", Action("S", player="p2")),
        ("BVmns", Action("BV", vertex=frozenset({(-1, 1), (0, 1), (0, 0)}))),
        ("BCfgz", Action("BC", vertex=frozenset({(2, -1), (2, -2), (3, -2)}))),
        ("BRmn", Action("BR", edges=(board.edge_between((-1, 1), (0, 1)),))),
        ("BD", Action("BD")),
        ("PK", Action("PK")),
        ("PY(O2)", Action("PY", formula={"O": 2})),
        ("PM(W)", Action("PM", formula={"W": 1})),
        ("PR(mn, ns)", Action("PR", edges=(board.edge_between((-1, 1), (0, 1)), board.edge_between((0, 1), (0, 0))))),
        ("PR()", Action("PR")),
        ("Tb(O4, B)", Action("T", player="b", formula={"O": 4}, formula2={"B": 1})),
        ("Tal(L, W)", Action("T", player="al", formula={"L": 1}, formula2={"W": 1})),
    ],
)
def test_every_action(text, action):
    turns, warnings = parse_line(f"p1: {text}.")
    assert turns[0].actions == (action,) and warnings == []


@pytest.mark.parametrize(
    "text, standard",
    [
        ("p1: BVfgz.", "p1: BVfgzfg."),  # names in full
        ("p1:4,Tb(B1, O4).", "p1: 4, Tb(B, O4)."),  # spaces, a count of 1
        ("p1: 4, Tp2(WB, O2).", "p1: 4, Tp2(BW, O2)."),  # resources in order
        ("2: 8.", "p2: 8."),  # a bare player number
    ],
)
def test_formatting_writes_the_standard_form(text, standard):
    assert format_turn(parse_line(text)[0][0]) == standard


@pytest.mark.parametrize(
    "text, column, error",
    [
        ("p1: 8", 6, TurnError),
        ("p1: 13.", 5, TurnError),
        ("p1: 8,, BD.", 7, TurnError),
        ("p0: 8.", 2, TurnError),
        ("p1: 4, PY(L).", 11, TurnError),
        ("p1: 4, PM(W2).", 12, TurnError),
        ("p1: 8, Tp2(LO).", 14, TurnError),
        ("p1: 4, PR(mn, ns, os).", 17, TurnError),
        ("p1: 7, MRx.", 10, PlaceError),
        ("p1: BVzkz.", 7, PlaceError),
        ("p1: 8, BRmns.", 10, PlaceError),
        ("p1: 8. p2: 9", 13, TurnError),
    ],
)
def test_errors_point_at_the_offending_character(text, column, error):
    with pytest.raises(error) as raised:
        parse_line(text)
    assert raised.value.column == column and type(raised.value) is error


def test_style_warnings():
    assert parse_line("p1: 4, Tb(O2O2, B).")[1] == [(13, "O appears twice; the counts are added")]
    assert parse_line("p1: 4, Tp2(O2W0, B).")[1] == [(15, "a count of 0 W")]


PLAYERS = st.one_of(
    st.integers(1, 12).map("p{}".format), st.just("b"), st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=2)
)
FORMULAS = st.dictionaries(st.sampled_from("BGLOW"), st.integers(1, 9), min_size=1)
CROSSROADS = st.sampled_from(sorted(hsgn.places()[3], key=sorted))
EDGES = st.sampled_from(sorted(hsgn.places()[2], key=sorted)).map(lambda tiles: board.edge_between(*tiles))


def actions(codes, **fields):
    """Actions of one of `codes`, with the fields drawn from the given strategies (and no other)."""
    codes = st.sampled_from(codes) if isinstance(codes, list) else st.just(codes)
    return st.tuples(codes, st.fixed_dictionaries(fields)).map(lambda drawn: Action(drawn[0], **drawn[1]))


ACTIONS = st.one_of(
    actions("roll", roll=st.integers(2, 12)),
    actions("MR", tile=st.sampled_from(sorted(set(hsgn.names().values())))),
    actions("D", player=PLAYERS, formula=FORMULAS),
    actions("S", player=PLAYERS),
    actions(["BV", "BC"], vertex=CROSSROADS),
    actions("BR", edges=st.tuples(EDGES)),
    actions(["BD", "PK"]),
    actions("PY", formula=st.sampled_from([{"O": 2}, {"B": 1, "W": 1}, {"G": 1, "L": 1}])),
    actions("PM", formula=st.sampled_from("BGLOW").map(lambda r: {r: 1})),
    actions("PR", edges=st.lists(EDGES, max_size=2).map(tuple)),
    actions("T", player=PLAYERS, formula=FORMULAS, formula2=FORMULAS),
)


@given(
    st.lists(
        st.tuples(st.one_of(st.none(), PLAYERS), st.lists(ACTIONS, min_size=1, max_size=6)), min_size=1, max_size=3
    )
)
def test_format_then_parse_is_the_identity(written):
    line = " ".join(format_turn(Turn(player, tuple(actions))) for player, actions in written)
    turns, warnings = parse_line(line)
    assert [(t.player, list(t.actions)) for t in turns] == written and warnings == []


def test_parse_command():
    result = run_cli("parse", "--notation", "hsgn", "-o", "json", stdin=b"p3: 6, T2(LO, W2).\n\np1: BVzkz.\n")
    rows = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [r["standard"] for r in rows] == ["p3: 6, Tp2(LO, W2)."]
    assert rows[0]["actions"][1] == {
        "code": "T",
        "standard": "Tp2(LO, W2)",
        "player": "p2",
        "formula": {"L": 1, "O": 1},
        "formula2": {"W": 2},
        "column": 8,
    }
    assert result.returncode == 1
    assert b"<stdin>:1:9: warning: a player is written p2" in result.stderr
    assert b"<stdin>:3:7: 'zkz' can be read 2 ways" in result.stderr and b"[hsgn-name]" in result.stderr
    text = run_cli("parse", "--notation", "hsgn", stdin=b"4.p2: 6.8.\n")
    assert text.returncode == 0 and text.stdout.decode().splitlines() == [
        "1: 4. -- the next player: rolls 4",
        "1: p2: 6. -- p2: rolls 6",
        "1: 8. -- the next player: rolls 8",
    ]
