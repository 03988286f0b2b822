"""The semantic layer: map context across a log, and properties of its rules."""

import json

from hypothesis import given, settings, strategies as st

import sgn
from conftest import CORPUS
from sgn import board
from sgn.layers.semantic import SemanticChecker, is_discard

STANDARD_MAP = (CORPUS / "maps" / "standard.sgn").read_text().strip()
SEED_MAP = (CORPUS / "maps" / "seed-starter-36.sgn").read_text().strip()
OFF_MAP_ROBBER = '["1","MR",{"tile":[4,0]}]'
RESOURCES = "BGLOW"


def codes(lines, level="semantic"):
    return [(d.line, d.code) for d in sgn.iter_diagnostics(lines, level=level)]


def test_the_example_game_is_semantically_valid():
    assert codes((CORPUS / "games" / "game.sgn").read_text().splitlines()) == []


def test_map_checks_need_a_map():
    assert codes([OFF_MAP_ROBBER]) == []
    assert codes([STANDARD_MAP, OFF_MAP_ROBBER]) == [(2, "robber-off-map")]


def test_an_invalid_map_is_not_used_and_a_later_valid_one_is():
    found = codes([STANDARD_MAP, SEED_MAP, OFF_MAP_ROBBER, STANDARD_MAP, OFF_MAP_ROBBER])
    assert (3, "robber-off-map") not in found and (5, "robber-off-map") in found
    assert {c for line, c in found if line == 2} == {"map-shape", "map-sea-ring", "path-at-sea"}


def test_each_file_starts_without_a_map(tmp_path):
    first, second = tmp_path / "a.sgn", tmp_path / "b.sgn"
    first.write_text(STANDARD_MAP + "\n")
    second.write_text(OFF_MAP_ROBBER + "\n")
    assert list(sgn.iter_diagnostics(first)) == [] and list(sgn.iter_diagnostics(second)) == []


def test_schema_level_does_not_run_semantic_rules():
    assert codes(['["B","RD",{"result":8}]'], level="schema") == []
    assert codes(['["B","RD",{"result":8}]']) == [(1, "bank-acts")]


def test_a_schema_error_stops_the_message_before_the_semantic_layer():
    assert codes(['["B","RD",{"result":13}]']) == [(1, "schema-maximum")]


corners = st.sampled_from(sorted(board.iter_corners(board.STANDARD.land), key=sorted))


@settings(max_examples=150, deadline=None)
@given(corners, st.integers(0, 2))
def test_any_clockwise_listing_is_valid_and_reversed_only_warns(corner, start):
    a, b, c = board.canonical_corner(corner)
    listing = [a, b, c][start:] + [a, b, c][:start]
    message = ["1", "BS", {"intersection": [list(t) for t in listing]}]
    assert sgn.validate_message(message) == []
    message[2]["intersection"].reverse()
    assert [(d.code, d.severity) for d in sgn.validate_message(message)] == [
        ("intersection-counter-clockwise", "warning")
    ]


@settings(max_examples=150, deadline=None)
@given(corners, st.data())
def test_every_edge_between_intersections_on_land_is_a_valid_road(corner, data):
    """(On a valid map no path between two intersections that touch land runs at sea.)"""
    on_land = [c for c in board.corner_neighbours(corner) if c & board.STANDARD.land]
    other = data.draw(st.sampled_from(on_land))
    path = [[list(t) for t in end] for end in board.canonical_edge(frozenset((corner, other)))]
    checker = SemanticChecker()
    checker.problems(json.loads(STANDARD_MAP))
    assert checker.problems(["1", "BR", {"path": path}]) == []
    path.reverse()
    assert checker.problems(["1", "BR", {"path": path}]) == []


trades = st.builds(
    lambda give, get, n, m, other: (give, get, n, m, other),
    st.sampled_from(RESOURCES),
    st.sampled_from(RESOURCES),
    st.integers(1, 4),
    st.integers(1, 2),
    st.sampled_from(["2", "3", "B"]),
)


@settings(max_examples=150, deadline=None)
@given(trades, st.integers(-3, 3))
def test_balanced_trades_pass_and_any_imbalance_is_caught(trade, error):
    give, get, n, m, other = trade
    if give == get:
        return
    mine, theirs = {give: -n, get: m}, {give: n, get: -m}
    message = ["1", "TR", [{"player": "1", "resources": mine}, {"player": other, "resources": theirs}]]
    assert sgn.validate_message(message) == []
    theirs[give] += error
    expected = [] if error == 0 else ["trade-unbalanced"]
    if theirs[give] == 0:
        expected = ["trade-zero-amount", "trade-unbalanced"]
    assert [d.code for d in sgn.validate_message(message)] == expected


def test_discard_encoding():
    discard = [{"player": "2", "resources": {"O": -2, "W": -2}}, {"player": "B", "resources": {"O": 2, "W": 2}}]
    assert is_discard(discard) and sgn.validate_message(["2", "TR", discard]) == []
    gift = [{"player": "2", "resources": {"O": -2}}, {"player": "3", "resources": {"O": 2}}]
    assert not is_discard(gift)
    assert [d.code for d in sgn.validate_message(["2", "TR", gift])] == ["trade-one-sided"]
    handout = [{"player": "2", "resources": {"O": 2}}, {"player": "B", "resources": {"O": -2}}]
    assert [d.code for d in sgn.validate_message(["2", "TR", handout])] == ["trade-one-sided"]


def test_harbors_found_fine_on_one_map_are_checked_again_on_another():
    """Harbor placements found fine are remembered with the land and tiles of their map:
    the same placement on a map where a harbor's sea is land is still refused."""
    standard = json.loads(STANDARD_MAP)
    path = standard[2]["harbors"][0]["path"]
    shared = {tuple(t) for t in path[0]} & {tuple(t) for t in path[1]}
    changed = json.loads(STANDARD_MAP)
    for tile in changed[2]["tiles"]:
        if tuple(tile["tile"]) in shared and tile["tCode"] == board.SEA:
            tile["tCode"] = "D"
    moved = json.dumps(changed, separators=(",", ":"))
    for lines in ([STANDARD_MAP, moved, STANDARD_MAP, moved], [moved, STANDARD_MAP, moved]):
        found = codes(lines)
        assert [line for line, code in found if code == "harbor-not-coastal"] == [
            n for n, line in enumerate(lines, 1) if line == moved
        ]
        assert not [code for line, code in found if lines[line - 1] == STANDARD_MAP]


def _every_path_listing():
    """The table `path_facts` replaced: every valid listing of every path near the origin."""
    from sgn.layers import places

    listings = {}
    for a in places._clockwise():
        for c in board.corner_neighbours(frozenset(a)):
            for b in places._clockwise_listings(c):
                listings[tuple(n for tile in a + b for n in tile)] = (frozenset(a) & c, frozenset(a) | c)
    return listings


def test_the_paths_worked_out_on_demand_are_the_table_s():
    from sgn.layers import places

    table = _every_path_listing()
    assert len(table) == 2592
    for numbers, facts in table.items():
        assert places.path_facts(numbers) == facts
        for other in (numbers[6:] + numbers[:6], numbers[:2] + numbers[4:6] + numbers[2:4] + numbers[6:]):
            assert places.path_facts(other) == table.get(other)


_TABLE = _every_path_listing()


@given(st.sampled_from(sorted(_TABLE)), st.integers(0, 11), st.integers(-2, 2))
def test_a_listing_is_a_path_on_demand_exactly_when_the_table_holds_it(numbers, at, change):
    """A valid listing with one number changed: a path or not, as the table said."""
    from sgn.layers import places

    changed = numbers[:at] + (numbers[at] + change,) + numbers[at + 1 :]
    assert places.path_facts(changed) == _TABLE.get(changed)
