"""A line, a message or a game made of thousands of faults costs what a few do: the
problems listed for one message are capped, the work and memory spent on a line are
bounded by its size, and no table grows with the size of what it is asked about."""

import io
import json
import tracemalloc

import pytest

import sgn
from conftest import CORPUS
from sgn import board
from sgn.diagnostic import MAX_PROBLEMS
from sgn.game import Game
from sgn.layers import jsontext

MiB = 1 << 20
STANDARD_MAP = json.loads((CORPUS / "maps" / "standard.sgn").read_text())


def peak_while(run):
    """The peak of memory allocated while `run()` runs, in bytes, and what it returned."""
    tracemalloc.start()
    try:
        result = run()
        return tracemalloc.get_traced_memory()[1], result
    finally:
        tracemalloc.stop()


def diagnostics(text, **options):
    return list(sgn.iter_diagnostics(io.BytesIO(text.encode()), **options))


@pytest.mark.parametrize("level", ["schema", "semantic"])
@pytest.mark.parametrize("fast", [True, False])
def test_a_message_of_thousands_of_schema_faults_lists_the_first_hundred(level, fast):
    line = '["B","DM",{"harbors":[],"tiles":[' + ",".join(["{}"] * 50_000) + "]}]\n"
    peak, found = peak_while(lambda: diagnostics(line, level=level, fast=fast))
    codes = [d.code for d in found]
    assert len(codes) == MAX_PROBLEMS + 1 and codes[-1] == "schema-more-problems"
    assert set(codes[:-1]) == {"schema-required"} and found[0].pointer == "/2/tiles/0/tile"
    assert peak < 24 * MiB, f"{peak / MiB:.1f} MiB"  # a list of them all took gigabytes


def test_unknown_properties_by_the_thousand_are_capped():
    line = '["1","RD",{"result":8,' + ",".join(f'"k{i}":1' for i in range(20_000)) + "}]\n"
    found = diagnostics(line, level="schema")
    assert [d.code for d in found] == ["schema-unknown-property"] * MAX_PROBLEMS + ["schema-more-problems"]


def test_one_fault_in_a_long_array_costs_little():
    line = '["1","PD",{"cCode":"MO","rCodes":[' + ",".join(['"B"'] * 40_000) + "]}]\n"
    peak, found = peak_while(lambda: diagnostics(line, level="schema"))
    assert [d.code for d in found] == ["schema-too-many-items"]
    assert peak < 16 * MiB, f"{peak / MiB:.1f} MiB"  # a table of every node's place took 100 MB


def test_a_map_of_thousands_of_semantic_faults_lists_the_first_hundred_and_is_still_refused():
    harbor = STANDARD_MAP[2]["harbors"][0]
    far = {"tiles": [{"tile": [40, 40], "tCode": "S", "rNumber": None}], "harbors": [harbor] * 3_000}
    lines = json.dumps(["B", "DM", far]) + "\n" + '["1","MR",{"tile":[0,0]}]\n'
    found = diagnostics(lines, level="semantic")
    first = [d.code for d in found if d.line == 1]
    assert len(first) <= MAX_PROBLEMS + 1 and first[-1] == "semantic-more-problems"
    assert [d.code for d in found if d.line == 2] == []  # the refused map is no context


def test_roads_beyond_the_pieces_a_player_has_are_not_placed():
    """Each road placed costs a search of the player's roads for the longest trail, which
    grows fast with their number: a player never holds more roads than the game has."""
    game = [json.loads(line) for line in (CORPUS / "games" / "random-4p.sgn").read_text().splitlines()]
    turn = next(i for i, m in enumerate(game) if m[:2] == ["1", "RD"])  # player 1 has rolled
    replay = Game()
    for number, message in enumerate(game[: turn + 1], 1):
        replay.apply(message, number)
    edges = {e for c in board.corners_near_origin(4) for e in board.edges_of_corner(c)}
    player = replay.players["1"]
    codes = set()
    for number, edge in enumerate(sorted(edges, key=board.canonical_edge), len(game) + 1):
        path = [[list(t) for t in end] for end in board.canonical_edge(edge)]
        codes |= {p.code for p in replay.apply(["1", "BR", {"path": path}], number)}
    assert len(player.roads) == 15 and "piece-limit" in codes


def test_the_nesting_scan_takes_constant_memory_whatever_a_string_holds():
    text = '["' + "[{\\\\" * 60_000 + '"]'
    peak, found = peak_while(lambda: jsontext.too_deep(text))
    assert found is None and peak < 256 * 1024, f"{peak} bytes"  # a regular expression took 115 bytes a character


@pytest.mark.parametrize(
    "text, expected",
    [
        ('["' + "[" * 100 + '"]', None),
        ('["\\\\"' + ",[" * 70 + "]" * 70 + "]", 133),  # an escaped backslash ends no string
        ('["\\"' + "[" * 70 + '"]', None),  # an escaped quote ends no string
        ('"' + "[" * 70, None),  # an unfinished string runs to the end
    ],
)
def test_the_nesting_scan_reads_strings_as_json_does(text, expected):
    assert jsontext.too_deep(text) == expected


def test_no_cache_keeps_land_larger_than_a_known_board():
    land = board.hexagon(12)
    before = (board._identify.cache_info().currsize, board._ring.cache_info().currsize)
    assert board.identify(land) is None and len(board.ring(land)) == 6 * 13
    assert (board._identify.cache_info().currsize, board._ring.cache_info().currsize) == before


def test_validate_message_reads_the_value_as_it_is_now():
    value = json.loads(json.dumps(STANDARD_MAP))
    assert sgn.validate_message(value) == []
    value[2]["tiles"][0]["tile"] = value[2]["tiles"][1]["tile"]  # changed in place
    assert "map-duplicate-tile" in {d.code for d in sgn.validate_message(value)}


def test_validate_message_leaves_the_value_as_it_was_given():
    value = ["1", "MR", {"tile": ["-2", "0"]}]
    assert [d.code for d in sgn.validate_message(value, profile="compat")] == ["legacy-numeric-string"]
    assert value == ["1", "MR", {"tile": ["-2", "0"]}]
    assert {d.code for d in sgn.validate_message(value)} == {"schema-type"}


@pytest.mark.parametrize(
    "value, code",
    [
        pytest.param(["1", "RD", {"result": 10**5000}], "json-number-too-long", id="5001-digits"),
        pytest.param(10**5000, "json-number-too-long", id="5001-digits-alone"),
        (["1", "RD", {"result": -(10**99)}], "json-number-too-long"),
        (["1", "RD", {"result": float("nan")}], "json-nan-infinity"),
        (["1", "MR", {"tile": [float("inf"), 0]}], "json-nan-infinity"),
    ],
)
def test_validate_message_refuses_what_no_line_could_hold(value, code):
    assert [d.code for d in sgn.validate_message(value)] == [code]


def test_validate_message_takes_the_longest_number_a_line_could_hold():
    assert [d.code for d in sgn.validate_message(["1", "RD", {"result": 10**99}])] == ["schema-maximum"]
