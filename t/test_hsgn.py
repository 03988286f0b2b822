"""HSGN hex letters, crossroads and edges, against the worked examples of the notes."""

import pytest

from sgn import board
from sgn.notation import hsgn


def test_letters_follow_the_spiral_from_the_bottom_left():
    assert hsgn.LAND["s"] == (0, 0) and hsgn.LAND["a"] == (-2, 2) and hsgn.LAND["l"] == (-2, 1)
    assert set(hsgn.LAND.values()) == set(board.STANDARD.land)
    ring = [hsgn.LAND[letter] for letter in "abcdefghijkl"]
    assert all(board.adjacent(ring[i], ring[(i + 1) % 12]) for i in range(12))  # a walk around the ring


@pytest.mark.parametrize(
    "name, tiles",
    [
        ("lmr", {(-2, 1), (-1, 1), (-1, 0)}),  # c4s
        ("zabab", {(-2, 3), (-2, 2), (-1, 2)}),  # b7n, written in full
        ("kzkjj", {(-2, 0), (-2, -1), (-1, -1)}),  # b4n, the seed's zkj for the sea between k and j
        ("zkkzkj", {(-3, 0), (-2, 0), (-2, -1)}),  # b3s
        ("mns", {(-1, 1), (0, 1), (0, 0)}),  # d4s
        ("mn", {(-1, 1), (0, 1)}),  # the edge d5w
    ],
)
def test_the_notes_examples(name, tiles):
    assert hsgn.parse_place(name) == frozenset(tiles)


def test_every_crossroad_and_edge_touching_land_round_trips():
    crossroads, edges = hsgn.places()[3], hsgn.places()[2]
    assert len(crossroads) == 54 and len(edges) == 72  # the standard board's
    for c in crossroads:
        assert hsgn.parse_place(hsgn.corner_name(c)) == c == hsgn.parse_place(hsgn.corner_name(c), 3)
    for tiles in edges:
        e = board.edge_between(*tiles)
        assert hsgn.parse_place(hsgn.edge_name(e)) == tiles == hsgn.parse_place(hsgn.edge_name(e), 2)


@pytest.mark.parametrize(
    "name, size, tiles",
    [
        ("zab", 3, {(-2, 3), (-2, 2), (-1, 2)}),  # the seed's zab for zabab
        ("kzj", 3, {(-2, 0), (-2, -1), (-1, -1)}),  # kzkjj
        ("zkzkj", 3, {(-3, 0), (-2, 0), (-2, -1)}),  # zkkzkj
        ("zklzk", 3, {(-3, 1), (-3, 0), (-2, 0)}),  # the seed's abbreviation of its impossible zklzkl: zkl, zk, k
        ("fgz", 3, {(2, -1), (2, -2), (3, -2)}),  # the seed's BVfgz
    ],
)
def test_a_bare_z_stands_for_the_one_sea_hex_that_fits(name, size, tiles):
    assert hsgn.parse_place(name, size) == frozenset(tiles)


def test_an_edge_at_sea_is_no_place():
    assert hsgn.parse_place("zazab") == frozenset({(-2, 2), (-3, 3), (-2, 3)})  # z a zab: the crossroad
    with pytest.raises(hsgn.HsgnError, match="no edge"):
        hsgn.parse_place("zazab", 2)  # za and zab: both sea


@pytest.mark.parametrize("name", ["zkz", "az"])
def test_a_bare_z_that_fits_several_sea_hexes_is_refused(name):
    with pytest.raises(hsgn.HsgnError, match="can be read"):
        hsgn.parse_place(name)


@pytest.mark.parametrize("name", ["xyz", "aas", "ace", "zklzkl", "", "z"])  # zklzkl: the seed's impossible crossroad
def test_names_that_are_no_place_are_refused(name):
    with pytest.raises(hsgn.HsgnError):
        hsgn.parse_place(name)
