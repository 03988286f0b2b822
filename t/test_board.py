"""Board geometry, checked against the facts of the game and the worked examples of the notes."""

import json

import pytest

from conftest import CORPUS
from sgn import board
from sgn.board import (
    EXTENDED,
    STANDARD,
    adjacent,
    canonical_corner,
    canonical_edge,
    coast_edges,
    corner,
    corner_neighbours,
    edge_between,
    edge_tiles,
    identify,
    is_clockwise,
    is_corner,
    is_edge,
    iter_corners,
    neighbours,
    ring,
    rotate,
)

# The centre hex's corners: canonical listings (notations.md, section 3.4).
CENTRE_CORNERS = {
    "N": ((0, -1), (1, -1), (0, 0)),
    "NE": ((1, -1), (1, 0), (0, 0)),
    "SE": ((0, 0), (1, 0), (0, 1)),
    "S": ((0, 0), (0, 1), (-1, 1)),
    "SW": ((-1, 0), (0, 0), (-1, 1)),
    "NW": ((0, -1), (0, 0), (-1, 0)),
}
# The SGN seed's diagram labels: clockwise, from various starts; its "top" label is wrong.
SEED_LABELS = {
    "NW": [[0, -1], [0, 0], [-1, 0]],
    "NE": [[1, -1], [1, 0], [0, 0]],
    "SE": [[1, 0], [0, 1], [0, 0]],
    "S": [[0, 1], [-1, 1], [0, 0]],
    "SW": [[0, 0], [-1, 1], [-1, 0]],
}


def test_neighbours_and_adjacency():
    centre = (0, 0)
    assert sorted(neighbours(centre)) == [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]
    assert all(adjacent(centre, n) and adjacent(n, centre) for n in neighbours(centre))
    assert not adjacent(centre, centre) and not adjacent(centre, (1, 1)) and not adjacent(centre, (2, 0))


@pytest.mark.parametrize("direction", CENTRE_CORNERS)
def test_centre_corners_are_canonical_as_in_the_notes(direction):
    c = corner((0, 0), direction)
    assert is_corner(c)
    assert canonical_corner(c) == CENTRE_CORNERS[direction]


@pytest.mark.parametrize("direction", SEED_LABELS)
def test_seed_diagram_labels_are_clockwise_rotations(direction):
    tiles = [tuple(t) for t in SEED_LABELS[direction]]
    assert frozenset(tiles) == corner((0, 0), direction)
    assert is_clockwise(*tiles)
    assert not is_clockwise(*reversed(tiles))


def test_seed_top_label_repeats_the_upper_left_corner():
    top_label = frozenset([(0, -1), (0, 0), (-1, 0)])
    assert top_label == corner((0, 0), "NW") != corner((0, 0), "N")


def test_every_rotation_of_a_corner_has_one_canonical_form():
    for c in iter_corners(STANDARD.land):
        a, b, x = canonical_corner(c)
        assert is_clockwise(a, b, x)
        assert canonical_corner([b, x, a]) == canonical_corner([x, b, a]) == (a, b, x)
        assert (a[1], a[0]) == min((t[1], t[0]) for t in c)  # starts at the top, then west


def test_three_tiles_that_do_not_meet_are_no_corner():
    assert not is_corner([(0, 0), (1, 0), (2, 0)])
    assert not is_corner([(0, 0), (0, 0), (1, 0)])
    assert not is_corner([(0, 0), (1, 0)])


def test_edges_join_corners_that_share_two_tiles():
    c = corner((0, 0), "N")
    others = corner_neighbours(c)
    assert len(others) == 3 and len(set(others)) == 3
    for other in others:
        assert is_edge(c, other) and len(edge_tiles(frozenset((c, other)))) == 2
    assert not is_edge(c, corner((0, 0), "S"))


def test_edge_between_two_tiles_and_canonical_edge():
    e = edge_between((0, 0), (-1, 1))
    assert edge_tiles(e) == {(0, 0), (-1, 1)}
    # the SGN seed's path example, upper end first
    assert canonical_edge(e) == (((-1, 0), (0, 0), (-1, 1)), ((0, 0), (0, 1), (-1, 1)))


def test_standard_board_counts():
    assert len(STANDARD.land) == 19 and len(ring(STANDARD.land)) == 18
    corners = [c for c in iter_corners(STANDARD.land)]
    assert len(corners) == 54  # 54 intersections touch land
    edges = {
        e for c in corners for e in (frozenset((c, n)) for n in corner_neighbours(c)) if edge_tiles(e) & STANDARD.land
    }
    assert len(edges) == 72  # 72 paths
    assert len(coast_edges(STANDARD.land)) == 30
    assert sum(STANDARD.kinds.values()) == 19 and len(STANDARD.numbers) == 18
    assert sum(STANDARD.harbors.values()) == 9


def test_extended_board_counts():
    assert len(EXTENDED.land) == 30
    row_lengths = [sum(1 for t in EXTENDED.land if t[1] == r) for r in range(-3, 4)]
    assert row_lengths == [3, 4, 5, 6, 5, 4, 3]
    assert sum(EXTENDED.kinds.values()) == 30
    assert len(EXTENDED.numbers) == 28 == 30 - EXTENDED.kinds["D"]
    assert sum(EXTENDED.harbors.values()) == 11


def test_boards_are_known_in_any_position_and_rotation():
    for spec in board.BOARDS:
        land = spec.land
        for _ in range(6):
            land = frozenset(rotate(t) for t in land)
            moved = frozenset((q + 7, r - 3) for q, r in land)
            assert identify(land) is spec and identify(moved) is spec
    assert identify(STANDARD.land - {(0, -2)}) is None
    assert identify(board.hexagon(3)) is None


def test_starter_map_harbors_are_coast_edges():
    dm = json.loads((CORPUS / "maps" / "standard.sgn").read_text())
    coast = coast_edges(STANDARD.land)
    for harbor in dm[2]["harbors"]:
        a, b = (frozenset(tuple(t) for t in end) for end in harbor["path"])
        assert is_edge(a, b) and frozenset((a, b)) in coast
