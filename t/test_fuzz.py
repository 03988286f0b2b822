"""The promises under attack, on both builds: `iter_diagnostics` never raises, the fast path
gives the careful path's diagnostics, the compiled build gives the interpreted one's, the
verdict on deep nesting does not depend on the caller's stack, and memory stays bounded
over many boards and calls in one process.

Each test draws its inputs from `fuzzing` (real lines mutated where readings could
differ) or from bytes made of JSON's pieces, at every level and both profiles; the memory
of verified lines lives on between examples, so state carried from call to call is
exercised too. The number of examples comes from the Hypothesis profile: `tox -e fuzz`
runs the long one (docs/performance.md).
"""

import io
import json
import sys
import tracemalloc

from hypothesis import given, settings, strategies as st

import interpreted
import sgn
from conftest import scaled
from fuzzing import GAME, SEEDS, json_like_bytes, mutated_files, objects_in, written
from sgn import board, play
from sgn.layers import fastpath, semantic
from sgn.layers.jsonline import MAX_DEPTH
from sgn.layers.stages import LEVEL_CHOICES, LEVELS

PURE = interpreted.load()
COMPILED = bool(fastpath.compiled_modules())
levels = st.sampled_from(LEVEL_CHOICES)
profiles = st.sampled_from(("strict", "compat"))


def diagnostics(package, data, fast=True, **options):
    return [d.to_dict() for d in package.iter_diagnostics(io.BytesIO(data), fast=fast, **options)]


def one_verdict(data, **options):
    """The diagnostics, the same on the fast and the careful path, compiled and interpreted
    (in a build that compiled nothing, the package is its source: compared once)."""
    found = diagnostics(sgn, data, **options)
    assert found == diagnostics(sgn, data, fast=False, **options), "the fast path differs"
    if COMPILED:
        assert found == diagnostics(PURE, data, **options), "the interpreted source differs"
    return found


@given(mutated_files(), levels, profiles)
def test_mutated_real_lines_get_one_verdict_on_every_path(data, level, profile):
    one_verdict(data, level=level, profile=profile)


@given(json_like_bytes, levels, profiles)
def test_bytes_made_of_json_pieces_get_one_verdict_on_every_path(data, level, profile):
    one_verdict(data + b"\n" + data, level=level, profile=profile)


@given(st.sampled_from([s for s in SEEDS if objects_in(s)]), st.data(), levels, profiles)
def test_a_repeated_key_is_found_however_it_is_written(seed, data, level, profile):
    where = data.draw(st.sampled_from(objects_in(seed)))
    line = data.draw(written(seed, repeat_at=where)).encode("utf-8")
    found = one_verdict(line + b"\n" + line + b"\n", level=level, profile=profile)
    errors = [(d["code"], d["line"]) for d in found if d["severity"] == "error"]
    assert errors[:1] == [("json-duplicate-key", 1)] and ("json-duplicate-key", 2) in errors


@settings(max_examples=scaled(40))  # up to four games, each replayed on every path
@given(
    st.lists(st.tuples(st.integers(-60, 60), st.integers(-60, 60), st.integers(1, len(GAME))), min_size=1, max_size=4),
    levels,
)
def test_games_on_boards_anywhere_get_one_verdict_on_every_path(moves, level):
    game = [json.loads(line) for line in GAME]
    data = b"".join(
        "".join(json.dumps(m, separators=(",", ":")) + "\n" for m in play.moved(game[:cut], dq, dr)).encode()
        for dq, dr, cut in moves
    )
    one_verdict(data, level=level)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text() | st.sampled_from(["\ud800", "RD", "1"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        | st.tuples(inner)
        | st.sets(st.integers(), max_size=2)
        | st.builds(bytes, st.binary(max_size=3))
    ),
    max_leaves=12,
)


def _foreign(value, depth=0):
    """Whether a value holds, within the depth the checks look (MAX_DEPTH), a part that
    json.loads never gives (a set, bytes)."""
    if value is None or isinstance(value, (str, int, float)) or depth > MAX_DEPTH:
        return False
    if isinstance(value, (list, tuple)):
        return any(_foreign(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(not isinstance(k, str) for k in value) or any(_foreign(v, depth + 1) for v in value.values())
    return True


@given(json_values, st.integers(0, 80), levels, profiles)
def test_validate_message_raises_only_for_what_json_never_gives(value, depth, level, profile):
    """Diagnostics for any value json.loads may give (a tuple is read as a list), a TypeError
    in our words for a part it never gives: never another exception."""
    for _ in range(depth):
        value = [value]
    try:
        found = sgn.validate_message(value, level=level, profile=profile)
    except TypeError as error:
        assert _foreign(value) and "takes a value as json.loads gives it" in str(error)
        return
    assert not _foreign(value) and all(isinstance(d, sgn.Diagnostic) for d in found)
    if depth > MAX_DEPTH:
        assert [d.code for d in found] == ["json-too-deep"]


def test_a_value_that_holds_itself_is_too_deep():
    value = ["1", "MR", {}]
    value[2]["tile"] = value
    assert [d.code for d in sgn.validate_message(value)] == ["json-too-deep"]


def test_the_verdict_on_nesting_does_not_depend_on_the_callers_stack():
    lines = ["[" * n + "]" * n for n in (MAX_DEPTH, MAX_DEPTH + 1, 990, 1100)]
    lines.append('["1","MR",' + "[" * 990 + "]" * 990 + "]")
    data = ("\n".join(lines) + "\n").encode()
    for level in LEVELS:
        top = one_verdict(data, level=level)
        assert [d["line"] for d in top if d["code"] == "json-too-deep"] == [2, 3, 4, 5]

        def deep(n):
            return deep(n - 1) if n else diagnostics(sgn, data, level=level)

        assert deep(sys.getrecursionlimit() - 200) == top


def test_memory_stays_bounded_over_many_boards_and_calls(monkeypatch):
    """Calls on 24 boards far apart, over and over: more boards than the memory keeps
    contexts for, more tiles than the geometry caches hold. Once every bounded table is
    full, nothing more grows. (The bounded tables are made small here, so that they fill in
    few calls; their own bounds are tested in test_fastpath and below.)"""
    monkeypatch.setattr(fastpath, "MEMORY", fastpath.Memory(lines=200, size=20_000, contexts=16))
    monkeypatch.setattr(semantic, "_SHAPES_KEPT", 16)
    monkeypatch.setattr(board, "_SHARED_LIMIT", 128)
    game = [json.loads(line) for line in GAME[:25]]  # the map, the setup and a few turns
    boards = 24

    def check(calls):
        for i in calls:
            where = i % boards
            data = "".join(json.dumps(m) + "\n" for m in play.moved(game, where % 9 * 9 - 40, where // 9 * 9 - 40))
            assert not [d for d in sgn.iter_diagnostics(io.BytesIO(data.encode())) if d.is_error]

    tracemalloc.start()  # from the first call: what an evicted entry frees is counted too
    try:
        check(range(2 * boards))
        growths = []
        for window in (2, 4):  # (two windows: a table without a bound grows in both; something
            # made once, on first use, by a test run before this one in the process, in one)
            before = tracemalloc.get_traced_memory()[0]
            check(range(window * boards, (window + 2) * boards))
            growths.append(tracemalloc.get_traced_memory()[0] - before)
    finally:
        tracemalloc.stop()
    assert min(growths) < 64 * 1024, f"{growths} bytes more after each {2 * boards} more calls"
    memory = fastpath.MEMORY
    assert len(memory.contexts) <= 16 and memory.lines <= 200 and memory.size <= 20_000
    assert len(semantic._SHAPES) == 16


def test_the_tables_of_the_memory_stay_bounded_over_ever_new_boards():
    """Each call on a board never seen before: the contexts and the boards remembered
    stay within their bounds (they grew by one a call)."""
    game = [json.loads(line) for line in GAME[:20]]
    for i in range(fastpath.MEMORY_CONTEXTS + 40):
        data = "".join(json.dumps(m) + "\n" for m in play.moved(game, 1000 + 7 * i, -500))
        list(sgn.iter_diagnostics(io.BytesIO(data.encode())))
    memory = fastpath.MEMORY
    assert len(memory.contexts) <= fastpath.MEMORY_CONTEXTS and len(semantic._SHAPES) <= semantic._SHAPES_KEPT
    assert memory.lines <= memory.max_lines and memory.size <= memory.max_size and memory.kept <= memory.max_values
