"""HSGN hex letters, crossroads and edges, against the worked examples of the notes."""
import pytest

from sgn import board
from sgn.notation import hsgn


def test_letters_follow_the_spiral_from_the_bottom_left():
    assert hsgn.LAND["s"] == (0, 0) and hsgn.LAND["a"] == (-2, 2) and hsgn.LAND["l"] == (-2, 1)
    assert set(hsgn.LAND.values()) == set(board.STANDARD.land)
    ring = [hsgn.LAND[letter] for letter in "abcdefghijkl"]
    assert all(board.adjacent(ring[i], ring[(i + 1) % 12]) for i in range(12))   # a walk around the ring


@pytest.mark.parametrize("name, tiles", [
    ("lmr", {(-2, 1), (-1, 1), (-1, 0)}),            # c4s
    ("zabab", {(-2, 3), (-2, 2), (-1, 2)}),          # b7n, written in full
    ("kzkjj", {(-2, 0), (-2, -1), (-1, -1)}),        # b4n, the seed's zkj for the sea between k and j
    ("zkkzkj", {(-3, 0), (-2, 0), (-2, -1)}),        # b3s
    ("mns", {(-1, 1), (0, 1), (0, 0)}),              # d4s
    ("mn", {(-1, 1), (0, 1)}),                       # the edge d5w
])
def test_the_notes_examples(name, tiles):
    assert hsgn.parse_place(name) == frozenset(tiles)


def test_every_crossroad_and_edge_touching_land_round_trips():
    for c in board.iter_corners(board.STANDARD.land):
        if all(t in board.STANDARD.land or t in board.ring(board.STANDARD.land) for t in c):
            assert hsgn.parse_place(hsgn.corner_name(c)) == c
            for other in board.corner_neighbours(c):
                e = frozenset((c, other))
                if all(t in hsgn.names().values() for t in board.edge_tiles(e)):
                    assert hsgn.parse_place(hsgn.edge_name(e)) == board.edge_tiles(e)


@pytest.mark.parametrize("name", ["xyz", "aas", "ace", "zklzkl", ""])   # zklzkl: the seed's impossible crossroad
def test_names_that_are_no_place_are_refused(name):
    with pytest.raises(hsgn.HsgnError):
        hsgn.parse_place(name)
