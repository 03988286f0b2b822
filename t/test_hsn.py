"""HSN export of a replayed state: checked by hand against the example game."""

from conftest import CORPUS, run_cli

EXPECTED_END_OF_EXAMPLE = """[3SSSS/2SLWGS/1SBOBWS/SDLGLGS/SBWWOS1/SOGLS2/SSSS3]
[/11,12,9/4,6,5,10/3,11,4,8/8,10,9,3/5,2,6/]
[d2nw,We2ne,Oc3w,f3ne,g4w,Gb5w,Be6nw,a7ne,Lc7nw]

[||] [f3n,d4s|e3n,d5s|c4n,e5n] [f3nw,c5ne|e3nw,d6nw|c4nw,c4w,e5nw] b4

[G3LW|BG2L2W2|B2GL3O3] [||] [0|0|0] 0 0

9

R . . .
"""


def test_hsn_of_the_example_game():
    # Rows as in the SGN starter map (row 2: c2 sea, d2 forest L, e2 pasture W, f2 fields G, g2 sea);
    # player 1's villages are d4s and f3n, its road c5ne (the SW side of d4); the hands are
    # those `sgn replay` shows; nine turns have begun and player 3 has rolled.
    result = run_cli("replay", CORPUS / "games" / "game.sgn", "-o", "hsn")
    assert result.returncode == 0 and result.stdout.decode() == EXPECTED_END_OF_EXAMPLE


def test_hsn_during_the_setup():
    out = run_cli("replay", CORPUS / "games" / "game.sgn", "--at", "4", "-o", "hsn").stdout.decode()
    # the player count is not known yet during the first setup round: one list per player seen
    assert out.splitlines()[4] == "[] [d4s] [c5ne] b4" and out.splitlines()[-1] == ". . . ."
    rows = out.splitlines()[0].strip("[]").split("/")
    assert len(rows) == 7 and all(sum(int(c) if c.isdigit() else 1 for c in row) == 7 for row in rows)


def test_hsn_needs_a_map(write):
    assert run_cli("replay", write('["1","RD",{"result":8}]\n'), "-o", "hsn").returncode == 2


import json  # noqa: E402

from hypothesis import (  # noqa: E402
    given,
    settings,
    strategies as st,  # noqa: E402
)

from sgn import strategies as sgs  # noqa: E402
from sgn.game import Game  # noqa: E402
from sgn.notation import hsn  # noqa: E402

SEED_EXAMPLE = """[3SSSS/2SOWLS/1SGBWBS/SGLDLOS/SLOGWS1/SBGWS2/SSSS3]
[/10,2,9/12,6,4,10/9,11,3,9/8,3,4,5/5,6,11]
[d2nw,e2nw,c3w,Of3ne,Bg4w,Wb5w,Le6nw,a7ne,Gc7nw]

[||e3n] [c3n,d5s|d3n,c5n|c4n] [d2w,d6nw|e2w,d4w|f2w,c4ne] d4

[B5O2W||G2W] [Dk2Dm|Dk|Dv2] [0|3|2] 2 1

2

R . . R2
"""


def test_the_seed_example_parses_and_is_written_back_the_same():
    fields = hsn.parse(SEED_EXAMPLE)
    assert fields["robber"] == "d4" and fields["cards"] == "[Dk2Dm|Dk|Dv2]" and fields["placeable"] == "R2"
    assert hsn.render(fields) == SEED_EXAMPLE


@settings(max_examples=15)
@given(sgs.games(), st.floats(0, 1))
def test_format_then_parse_is_the_identity_in_both_versions(game, where):
    state = Game()
    for i, message in enumerate(game[: max(1, int(len(game) * where))], 1):
        state.apply(message, i)
    text = hsn.format_state(state)
    fields = hsn.parse(text)
    assert hsn.render(fields) == text
    try:
        text_002 = hsn.render_002(fields)
    except ValueError:  # an empty field: 002 cannot write it
        return
    assert hsn.parse_002(text_002) == fields and hsn.render_002(hsn.parse_002(text_002)) == text_002


def test_errors_name_the_field_line_and_column():
    bad = SEED_EXAMPLE.replace(" d4\n", " d 4\n")
    try:
        hsn.parse(bad)
    except hsn.HsnError as error:
        assert (error.line, error.column) == (5, 59) and "robber" in error.reason
    else:
        raise AssertionError("not refused")
    result = run_cli("parse", "--notation", "hsn", stdin=bad.encode())
    assert result.returncode == 1 and b"<stdin>:5:59:" in result.stderr and b"[hsn-syntax]" in result.stderr
    ok = run_cli("parse", "--notation", "hsn", "-o", "json", stdin=SEED_EXAMPLE.encode())
    assert ok.returncode == 0 and json.loads(ok.stdout)["turn_number"] == "2"


SEED_002 = """3SSSS/2SOWLS/1SGBWBS/SGLDLOS/SLOGWS1/SBGWS2/SSSS3
10,2,9/12,6,4,10/9,11,3,9/8,3,4,5/5,6,11
d2nw,e2nw,c3w,O-f3ne,B-g4w,W-b5w,L-e6nw,a7ne,G-c7nw

d4 c3n,d5s|d3n,c5n|c4n ||e3n d2w,d6nw|e2w,d4w|f2w,c4ne

B5O2W||G2W k2m|k|v2 0|3|2 2 1

2 R . . r2
"""


def test_the_002_example_parses_like_the_000_one_and_is_written_back():
    fields = hsn.parse_002(SEED_002)
    ours = hsn.parse(SEED_EXAMPLE)
    # the same state, but for the seed's 002 numbers lacking the empty first row
    assert {k: v for k, v in fields.items() if k != "resource_numbers"} == {
        k: v for k, v in ours.items() if k != "resource_numbers"
    }
    assert hsn.render_002(fields) == SEED_002


def test_replay_writes_002_and_refuses_an_empty_field():
    # during the first setup round one player is known, with no city: an empty field
    out = run_cli("replay", CORPUS / "games" / "game.sgn", "--at", "4", "-o", "hsn", "--hsn-version", "002")
    assert out.returncode == 2 and b"cannot write an empty field (cities, held, cards)" in out.stderr
    later = run_cli("replay", CORPUS / "games" / "random-4p.sgn", "-o", "hsn", "--hsn-version", "002")
    assert later.returncode == 0
    assert hsn.render_002(hsn.parse_002(later.stdout.decode())) == later.stdout.decode()
    assert run_cli("parse", "--notation", "hsn-002", stdin=later.stdout).returncode == 0


def test_002_fields_must_be_written_as_002_writes_them():
    for old, new, where in (("O-f3ne", "Of3ne", (3, 1)), (" r2", " R2", (9, 9))):  # the 000 forms
        try:
            hsn.parse_002(SEED_002.replace(old, new))
        except hsn.HsnError as error:
            assert (error.line, error.column) == where and "HSN 002 writes" in error.reason
            assert old.strip() in error.reason.split("writes")[1]
        else:
            raise AssertionError(f"{new} read as HSN 002")


def test_the_state_of_a_game_on_the_5_6_player_board_is_written_on_a_moved_grid():
    """The extension's board reaches beyond HAN's first column: HSN, which carries its own
    map, moves it into the grid, places with it, and the state reads back."""
    from sgn.notation import hsn
    from sgn.pipeline.replay import replay

    path = CORPUS / "logs" / "random-5p.sgn"
    position, errors = replay(path.open("rb"), name=str(path))
    assert errors == 0 and position.snapshot()["variant"] == "5-6 player extension"
    text = hsn.format_state(position.game)
    fields = hsn.parse(text)
    assert len(fields) == 17
    rows = text.split("]")[0].lstrip("[").split("/")
    assert len(rows) == 9 and all(row.count("D") <= 1 for row in rows) and text.count("D") >= 2
