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
