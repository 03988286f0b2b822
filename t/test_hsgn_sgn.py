"""HSGN turns to and from SGN: the seed's turns, the grouping into turns, what has no
counterpart, and SGN -> HSGN -> SGN as the identity wherever HSGN can say it."""

import json

import pytest
from hypothesis import given, settings, strategies as st

import sgn
from conftest import CORPUS, canonical as _canonical, run_cli
from sgn import strategies as sgs
from sgn.notation import convert, hsgn_sgn
from sgn.notation.han import NoMapping
from sgn.notation.hsgn_turns import Action, format_turn, parse_line
from sgn.notation.redact import hide


def to_sgn(text):
    """(messages, diagnostics) of some HSGN lines."""
    out = list(convert.convert(text.splitlines(), "<input>", "hsgn", "sgn"))
    return [json.loads(t) for t, _ in out if t], [d for _, found in out for d in found]


def to_hsgn(messages):
    lines = [json.dumps(m) for m in messages]
    out = list(convert.convert(lines, "<input>", "sgn", "hsgn"))
    return [t for t, _ in out if t], [d for _, found in out for d in found]


def test_the_seed_trade():
    messages, found = to_sgn("p3: 6, T2(LO, W2).")
    assert messages == [
        ["3", "RD", {"result": 6}],
        [
            "3",
            "TR",
            [
                {"player": "3", "resources": {"L": -1, "O": -1, "W": 2}},
                {"player": "2", "resources": {"L": 1, "O": 1, "W": -2}},
            ],
        ],
    ]
    assert [d.code for d in found] == ["hsgn-style"]


def test_turns_without_a_player_are_the_next_players():
    assert [m[0] for m in to_sgn("4.p2: 6.8.")[0]] == ["1", "2", "3"]  # the seed's example
    assert [m[0] for m in to_sgn("p4: 5.\n6.\np3: 7.\n8.")[0]] == ["4", "1", "3", "4"]  # four players seen
    assert hsgn_sgn.player_count(parse_line("p1: 5, Tp5(B, O).")[0]) == 5


def test_the_road_card_is_its_card_and_its_roads():
    messages, found = to_sgn("p2: 4, PR(mn, ns).")
    assert [m[1] for m in messages] == ["RD", "PD", "BR", "BR"] and messages[1][2] == {"cCode": "RB"} and not found
    assert to_hsgn(messages)[0] == ["p2: 4, PR(mn, ns)."]
    assert to_hsgn(messages[:3] + [["2", "BS", {"intersection": [[0, 0], [0, 1], [-1, 1]]}]])[0] == [
        "p2: 4, PR(mn), BVmns."
    ]  # one road, then a village


def test_a_steal_and_a_purchase_hsgn_does_not_name_are_hidden_values_in_sgn():
    """HSGN's Sx and BD name no card: SGN writes them as hidden values (docs/hidden.md)."""
    messages, found = to_sgn("p1: 7, MRb, Sp2, BD.")
    assert not [d for d in found if d.is_error]
    assert messages[-2:] == [
        ["1", "ST", [{"player": "1", "resources": {"?": 1}}, {"player": "2", "resources": {"?": -1}}]],
        ["1", "BD", {"cCode": "?"}],
    ]


@pytest.mark.parametrize(
    "text, column, reason",
    [
        ("al: 8.", 1, "has no SGN name"),
        ("p7: 8.", 1, "has no SGN name"),
        ("p1: 7, Db(O2).", 8, "the bank does not discard"),
        ("p1: 4, Tal(B, O).", 8, "has no SGN name"),
    ],
)
def test_what_sgn_cannot_say_is_a_diagnostic_at_its_column(text, column, reason):
    messages, found = to_sgn(text)
    assert [(d.code, d.line, d.column) for d in found] == [("no-counterpart", 1, column)]
    assert reason in found[0].message


@pytest.mark.parametrize(
    "message, reason",
    [
        (["B", "DM", {"tiles": [], "harbors": []}], "no notation for the map"),
        (["1", "PD", {"cCode": "VP"}], "Victory Point"),
        (["1", "BS", {"intersection": [[5, 5], [6, 4], [5, 4]]}], "standard board only"),
        (["1", "MR", {"tile": [4, 0]}], "standard board only"),
    ],
)
def test_what_hsgn_cannot_say_is_a_diagnostic(message, reason):
    with pytest.raises(NoMapping, match=reason):
        hsgn_sgn.from_sgn(message)


def test_invalid_sgn_is_refused_with_its_own_diagnostic():
    lines, found = to_hsgn([["1", "RD", {"result": 13}]])
    assert lines == [] and [d.code for d in found] == ["schema-maximum"]


def test_the_example_game_in_turns():
    game = [json.loads(line) for line in (CORPUS / "games" / "game.sgn").read_text().splitlines()]
    lines, found = to_hsgn(game)
    assert [d.code for d in found] == ["no-counterpart"] and found[0].line == 1  # the map
    assert lines[:4] == ["p1: MRk.", "p1: BVmns, BRms.", "p2: BVghp, BRhp.", "p3: BVdeo, BRdo."]
    assert lines[6:] == [
        "p1: BVfgzfg, BRfg.",
        "p1: 4.",
        "p2: 9.",
        "p3: 3, BRkr.",
        "p1: 8.",
        "p2: 6.",
        "p3: 5.",
        "p1: 10, Tb(W3, L).",
        "p2: 11.",
        "p3: 4.",
    ]


def test_grouping_a_robber_turn():
    messages = [
        ["2", "PD", {"cCode": "KN"}],
        ["2", "MR", {"tile": [0, 0]}],  # a knight before the roll
        ["2", "ST", [{"player": "2", "resources": {"O": 1}}, {"player": "1", "resources": {"O": -1}}]],
        ["2", "RD", {"result": 7}],
        ["1", "TR", [{"player": "B", "resources": {"O": 4}}, {"player": "1", "resources": {"O": -4}}]],
        ["3", "TR", [{"player": "3", "resources": {"W": -1, "B": 1}}, {"player": "2", "resources": {"W": 1, "B": -1}}]],
        ["3", "RD", {"result": 5}],
    ]
    lines, found = to_hsgn(messages)
    assert lines == ["p2: PK, MRs, Sp1, 7, Dp1(O4), Tp3(B, W).", "p3: 5."] and found == []


def _representable(message):
    return message[1] != "DM" and not (message[1] == "PD" and message[2]["cCode"] == "VP")


@settings(max_examples=20)
@given(sgs.games())
def test_sgn_to_hsgn_to_sgn_is_the_identity_where_hsgn_can_say_it(game):
    lines, there = to_hsgn(game)
    back, again = to_sgn("\n".join(lines))
    # (a steal and a purchase come back as HSGN sees them: the card hidden, docs/hidden.md)
    assert [_canonical(m) for m in back] == [_canonical(hide(m, None)) for m in game if _representable(m)]
    assert all(sgn.validate_message(m) == [] for m in back)
    # the map and Victory Point cards on the way there
    assert {d.code for d in there + again} <= {"no-counterpart"}
    assert len(there) == sum(m[1] == "DM" or (m[1] == "PD" and m[2]["cCode"] == "VP") for m in game)
    assert again == []  # (nothing left out on the way back)
    # after the setup, a turn has one roll, and only a knight comes before it
    codes = [[a.code for a in parse_line(line)[0][0].actions] for line in lines]
    assert all(c.count("roll") == 1 and c[0] in ("roll", "PK") for c in codes if "roll" in c)


MAPPED = st.sampled_from(["BC", "BS", "BR", "MR", "TR", "RD"])


@given(
    st.one_of(
        sgs.messages(action_codes=MAPPED),
        sgs.messages(action_codes=st.just("PD")).filter(lambda m: m[2]["cCode"] not in ("VP", "RB")),
    )
)
def test_each_message_converts_there_and_back(message):
    lines, found = to_hsgn([message])
    if found:  # only a one-sided trade between players
        assert message[1] == "TR" and "one-sided" in found[0].message
        return
    back, again = to_sgn(lines[0])
    assert again == [] and [_canonical(m) for m in back] == [_canonical(message)]


def test_format_of_converted_actions_reads_back():
    action = hsgn_sgn.from_sgn(["1", "PD", {"cCode": "YP", "rCodes": ["O", "B"]}])
    assert (
        action == Action("PY", formula={"O": 1, "B": 1})
        and format_turn(parse_line("p1: PY(BO).")[0][0]) == "p1: PY(BO)."
    )


def test_convert_command():
    game = CORPUS / "games" / "game.sgn"
    there = run_cli("convert", game, "--to", "hsgn")
    assert there.returncode == 0  # the map is left out
    assert b"game.sgn:1: warning: HSGN has no notation for the map [no-counterpart]" in there.stderr
    back = run_cli("convert", "--to", "sgn", stdin=there.stdout)  # detected: HSGN
    assert back.returncode == 0 and len(back.stdout.decode().splitlines()) == 24
    han = run_cli("convert", "--to", "han", stdin=b"p1: MRk, 8.\n")  # HSGN -> SGN -> HAN
    assert han.stdout == b"M(b4)\n" and han.returncode == 0
    assert b"<stdin>:1:10: warning: HAN records the two dice" in han.stderr
    assert run_cli("convert", "--from", "hsgn", "--to", "hsgn", stdin=b"p1: 8.\n").returncode == 2
    bad = run_cli("convert", "--to", "sgn", stdin=b"p1: 8, BRxyz.\n")
    assert bad.returncode == 1 and b"<stdin>:1:10:" in bad.stderr and b"[hsgn-name]" in bad.stderr


def test_detection():
    assert convert.detect(["", '["1","RD",{"result":8}]']) == "sgn"
    assert convert.detect(["p1: 8."]) == "hsgn" and convert.detect(["4.p2: 6.8."]) == "hsgn"
    assert convert.detect(["R(2+3)"]) == "han" and convert.detect([]) == "han"


def test_a_trade_with_oneself_is_an_error_at_its_column_and_not_converted():
    messages, found = to_sgn("p2: 8, Tp2(O, B), BD.\np1: 9.")
    assert messages == [["2", "RD", {"result": 8}], ["2", "BD", {"cCode": "?"}], ["1", "RD", {"result": 9}]]
    assert [(d.code, d.line, d.column) for d in found] == [("trade-same-player", 1, 8)]
