"""HAN: every example of the seed text, errors at their column, SHOULD warnings, and SGN round trips."""

import json

import pytest
from hypothesis import given, strategies as st

import sgn
from conftest import CORPUS, canonical as _canonical, run_cli
from sgn import board, strategies as sgs
from sgn.notation import han

SEED_EXAMPLES = {
    "R(2+3)": han.Action("R", dice=(2, 3)),
    "S(O)2": han.Action("S", formula={"O": 1}, player=2),
    "2D(O2)": han.Action("D", player=2, formula={"O": 2}),
    "S?1": han.Action("S", player=1),
    "Pv(d4n)": han.Action("P", item="v", vertex=board.corner((0, 0), "N")),
    "T(LO2)(B3)1": han.Action("T", formula={"L": 1, "O": 2}, formula2={"B": 3}, player=1),
    "M(d4)": han.Action("M", tile=(0, 0)),
    "E": han.Action("E"),
    "Uk": han.Action("U", item="k"),
    "Uy(LO)": han.Action("U", item="y", formula={"L": 1, "O": 1}),
    "Bd": han.Action("B", item="d"),
    "Pr(d4w)": han.Action("P", item="r", edge=board.edge_between((0, 0), (-1, 0))),
}


@pytest.mark.parametrize("text", SEED_EXAMPLES)
def test_seed_examples_parse_and_format_back(text):
    action, warnings = han.parse(text)
    assert action == SEED_EXAMPLES[text] and warnings == []
    assert han.format_action(action) == text


def test_coordinates_follow_the_notes():
    assert han.tile_name((0, 0)) == "d4" and han.tile_name((-3, 3)) == "a7" and han.tile_name((3, -3)) == "g1"
    assert han.vertex_name(board.corner((0, 0), "S")) == "d4s"
    assert han.vertex_name(board.corner((0, 0), "NE")) == "e3s"  # notes 3.4: NE of d4 is e3s
    assert han.edge_name(board.edge_between((0, 0), (1, 0))) == "e4w"
    assert han.column_number("aa") == 27 and han.column_letters(28) == "ab"


@pytest.mark.parametrize(
    "text, column",
    [
        ("", 1),
        ("X", 1),
        ("R(7+1)", 3),
        ("R(2-3)", 4),
        ("T(LO2)(B3)", 11),
        ("Pv(d4x)", 6),
        ("Pq(d4n)", 2),
        ("S(Q)2", 3),
        ("EE", 2),
        ("T(LO2)(B3)12", 12),
        ("Pr(d4n)", 6),
        ("M(4)", 3),
        ("2D(O02)", 6),
    ],
)
def test_errors_point_at_the_offending_character(text, column):
    with pytest.raises(han.HanError) as error:
        han.parse(text)
    assert error.value.column == column


def test_should_rules_are_warnings_and_formatting_applies_them():
    action, warnings = han.parse("T(O2L1)(B3)1")
    assert [c for c, _ in warnings] == [6, 2] and han.format_action(action) == "T(LO2)(B3)1"
    action, warnings = han.parse("R(5+2)")
    assert warnings and han.format_action(action) == "R(2+5)"


def test_end_of_turn_is_the_record_line_both_ways():
    assert han.to_sgn(han.parse("E")[0], "3") == ["3", "ET", {}]
    assert han.format_action(han.from_sgn(["3", "ET", {}])) == "E"


def test_no_mapping_is_a_clear_error():
    for text in ("Bv", "Bc", "Br"):
        with pytest.raises(han.NoMapping):
            han.to_sgn(han.parse(text)[0], "1")
    for message in (["1", "RD", {"result": 8}], ["1", "BD", {"cCode": "KN"}]):
        with pytest.raises(han.NoMapping):
            han.from_sgn(message)
    hides = ["1", "TR", [{"player": "1", "resources": {"?": -4}}, {"player": "B", "resources": {"?": 4}}]]
    with pytest.raises(han.NoMapping):
        han.from_sgn(hides)


def test_what_han_does_not_see_is_a_hidden_value_in_sgn_and_back():
    """HAN's R?, S?p and Bd (docs/hidden.md) are SGN's hidden roll, steal and draw."""
    for text, message in (
        ("R?", ["1", "RD", {"result": "?"}]),
        ("S?2", ["1", "ST", [{"player": "1", "resources": {"?": 1}}, {"player": "2", "resources": {"?": -1}}]]),
        ("Bd", ["1", "BD", {"cCode": "?"}]),
    ):
        assert han.to_sgn(han.parse(text)[0], "1") == message
        assert han.format_action(han.from_sgn(message)) == text


MAPPED = st.sampled_from(["BC", "BS", "BR", "MR", "ST", "TR"])


@given(
    st.one_of(
        sgs.messages(action_codes=MAPPED),
        sgs.messages(action_codes=st.just("PD")).filter(lambda m: m[2]["cCode"] != "VP"),
    )
)
def test_sgn_to_han_to_sgn_is_the_identity_up_to_canonical_order(message):
    text = han.format_action(han.from_sgn(message))
    back = han.to_sgn(han.parse(text)[0], message[0])
    assert sgn.validate_message(back) == []
    assert _canonical(back) == _canonical(message)


def test_parse_command():
    result = run_cli("parse", "-o", "json", stdin=b"R(2+3)\nT(O2L1)(B3)1\nR(7+1)\n")
    rows = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [r["standard"] for r in rows] == ["R(2+3)", "T(LO2)(B3)1"] and rows[0]["dice"] == [2, 3]
    assert result.returncode == 1 and b"<stdin>:3:3:" in result.stderr and b"[han-syntax]" in result.stderr
    assert b"[han-style]" in result.stderr


def test_convert_command_both_ways():
    game = CORPUS / "games" / "game.sgn"
    result = run_cli("convert", game, "--to", "han")
    han_lines = result.stdout.decode().splitlines()
    assert result.returncode == 0 and b"warning: DM has no HAN form" in result.stderr  # the map: left out
    assert han_lines[:3] == ["M(b4)", "Pv(d4s)", "Pr(c5ne)"]
    back = run_cli("convert", "--to", "sgn", "--player", "1", stdin="\n".join(han_lines[1:3]).encode())
    assert back.returncode == 0
    assert [json.loads(line)[1] for line in back.stdout.decode().splitlines()] == ["BS", "BR"]
    outside = run_cli("convert", "--to", "han", stdin=b'["1","MR",{"tile":[-5,0]}]\n')  # off the board
    assert outside.returncode == 0 and outside.stdout == b""
    assert b"<stdin>:1: warning: [-5,0] is no place of the standard board" in outside.stderr


@pytest.mark.parametrize("target", ["hsgn", "sgn"])
def test_an_action_that_would_be_an_invalid_message_is_an_error_not_a_crash(target):
    # S(G)1 by player 1 (the default actor) is a steal from oneself: no valid SGN message,
    # so no line of output, but the SGN error at the HAN line (it once crashed --to hsgn)
    result = run_cli("convert", "-", "--to", target, "--from", "han", "--player", "1", stdin=b"S(G)1\nS(G)2\n")
    assert result.returncode == 1 and b"internal error" not in result.stderr
    assert b"<stdin>:1: as SGN " in result.stderr and b"[steal-same-player]" in result.stderr
    assert b"<stdin>:2:" not in result.stderr and len(result.stdout.splitlines()) == 1


def test_from_sgn_refuses_a_steal_or_trade_without_two_parties():
    with pytest.raises(han.NoMapping):
        han.from_sgn(["1", "ST", [{"player": "1", "resources": {"G": 1}}, {"player": "1", "resources": {"G": -1}}]])
    with pytest.raises(han.NoMapping):
        han.from_sgn(["1", "TR", [{"player": "1", "resources": {"G": 1}}]])


@pytest.mark.parametrize(
    "text, column", [("Pv(a1n)", 4), ("M(a1)", 3), ("Pv(a7s)", 4), ("Pr(a7w)", 4), ("Pc(zz99n)", 4), ("M(d8)", 3)]
)
def test_a_place_off_the_standard_board_is_refused_at_its_name(text, column):
    with pytest.raises(han.PlaceError) as error:
        han.parse(text)
    assert error.value.column == column and error.value.code == "han-place"


@pytest.mark.parametrize("text", ["M(a7)", "M(g1)", "Pv(a7n)", "Pv(g1s)", "Pr(a7ne)", "M(d7)"])
def test_the_sea_ring_and_the_coast_are_places(text):
    assert han.parse(text)[1] == []


def test_every_place_of_the_standard_board_has_a_han_name_that_reads_back():
    land = board.STANDARD.land
    tiles = board.hexagon(3)
    corners = {c for c in board.iter_corners(land)}
    edges = {e for c in corners for e in board.edges_of_corner(c) if board.edge_tiles(e) & land}
    for tile in tiles:
        assert han.parse(f"M({han.tile_name(tile)})")[0].tile == tile
    for c in corners:
        assert han.parse(f"Pv({han.vertex_name(c)})")[0].vertex == c
    for e in edges:
        assert han.parse(f"Pr({han.edge_name(e)})")[0].edge == e


def test_sgn_places_off_the_standard_board_have_no_han_form():
    for message in (
        ["1", "BS", {"intersection": [[-3, -4], [-2, -4], [-3, -3]]}],  # a1n, in open sea
        ["1", "BR", {"path": [[[-3, 3], [-3, 4], [-4, 4]], [[-4, 4], [-4, 3], [-3, 3]]]}],
        ["1", "MR", {"tile": [-3, -3]}],
    ):
        with pytest.raises(han.NoMapping, match="no place of the standard board"):
            han.from_sgn(message)
    result = run_cli("convert", "--to", "han", stdin=b'["1","BS",{"intersection":[[-3,-4],[-2,-4],[-3,-3]]}]\n')
    assert result.returncode == 0 and result.stdout == b"" and b"warning: " in result.stderr
    assert b"[no-counterpart]" in result.stderr


@pytest.mark.parametrize("notation, code", [("han", "han-syntax"), ("hsgn", "hsgn-syntax")])
@pytest.mark.parametrize("data", [b"", b"\n", b"  \n\n"])
def test_an_input_without_any_action_is_an_error(notation, code, data):
    result = run_cli("parse", "--notation", notation, stdin=data)
    assert result.returncode == 1 and result.stderr.decode().splitlines() == [
        f"<stdin>:1:1: the input holds no {'HAN action' if notation == 'han' else 'HSGN turn'}: "
        f"it is empty or has only blank lines [{code}]"
    ]


def test_blank_lines_between_actions_are_skipped():
    result = run_cli("parse", stdin=b"\nR(2+3)\n\nE\n")
    assert (
        result.returncode == 0
        and result.stdout == b"2: R(2+3) -- the player rolls 2 and 3: 5\n4: E -- the player ends the turn\n"
    )


def test_convert_of_an_empty_input_says_so_in_its_notation():
    assert b"[empty-file]" in run_cli("convert", "--from", "sgn", "--to", "han", stdin=b"\n").stderr
    assert b"[han-syntax]" in run_cli("convert", "--from", "han", "--to", "sgn", stdin=b"").stderr


def test_a_damaged_stream_is_its_own_error_not_an_empty_input():
    result = run_cli("parse", stdin=b"\x1f\x8b\x08\x00\x00")
    assert result.returncode == 1 and [line.rsplit(" ", 1)[-1] for line in result.stderr.decode().splitlines()] == [
        "[gzip-truncated]"
    ]


@pytest.mark.parametrize(
    "action, meaning",
    [
        ("Pv(d4n)", "the player places a village (settlement) on the corner of tiles [0,-1] [1,-1] [0,0]"),
        ("Pr(d4ne)", "the player places a road on the edge between tiles [0,0] [1,-1]"),
        ("2D(B2O)", "player 2 discards 2 brick, 1 ore"),
        ("S?2", "the player steals a card not named from player 2"),
        ("Um(W)", "the player plays monopoly on wool"),
        ("Uy(BO)", "the player plays year of plenty, taking 1 brick, 1 ore"),
        ("T(LO2)(B3)0", "the player trades with the bank, giving 1 lumber, 2 ore for 3 brick"),
        ("R?", "the player rolls (the dice are not given)"),
    ],
)
def test_parse_prints_what_each_action_means_after_its_standard_form(action, meaning):
    result = run_cli("parse", "--notation", "han", stdin=action.encode() + b"\n")
    assert result.returncode == 0 and result.stdout.decode() == f"1: {action} -- {meaning}\n"
