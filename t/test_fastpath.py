"""The fast path gives exactly the diagnostics of the careful path (differential tests)."""

import io
import json
import sys

import pytest
from hypothesis import given, settings, strategies as st

import sgn
from conftest import CORPUS, any_message, corpus_cases, scaled
from sgn import corpus, strategies as sgs
from sgn.layers import fastpath

CASES = corpus_cases()
STANDARD_MAP = (CORPUS / "maps" / "standard.sgn").read_text().strip()


def both(data: bytes, **options):
    """The diagnostics of the fast path (each line given twice, so that the second is
    remembered) and of the careful path, as comparable tuples."""

    def run(fast):
        return [
            (d.code, d.line, d.pointer, d.severity, d.message)
            for d in sgn.iter_diagnostics(io.BytesIO(data), fast=fast, **options)
        ]

    return run(True), run(False)


def doubled(lines):
    return "".join(line + "\n" + line + "\n" for line in lines).encode()


def test_the_compiled_libraries_are_used_when_installed():
    try:
        import jsonschema_rs  # noqa: F401
        import orjson  # noqa: F401
    except ImportError:  # the tox env "pure": the fallback is what runs
        assert not fastpath.COMPILED and fastpath.schema_valid_message(b'["1","RD",{"result":8}]') is None
    else:
        assert fastpath.COMPILED and fastpath.schema_valid_message(b'["1","RD",{"result":8}]') == [
            "1",
            "RD",
            {"result": 8},
        ]


LOG_CASES = [c for c in CASES if c["kind"] not in corpus.NOTATIONS]


@pytest.mark.parametrize("case", LOG_CASES, ids=[c["id"] for c in LOG_CASES])
def test_corpus_cases_give_the_same_diagnostics_both_ways(case):
    fast, careful = both(corpus.case_bytes(case), level=case["level"], profile=case.get("profile", "strict"))
    assert fast == careful


@given(any_message(), st.sampled_from(["strict", "compat"]))
def test_messages_give_the_same_diagnostics_both_ways(message, profile):
    data = doubled([STANDARD_MAP, json.dumps(message), json.dumps(message, separators=(",", ":"))])
    fast, careful = both(data, level="semantic", profile=profile)
    assert fast == careful


def hidden_messages():
    """Messages with hidden values (`?`, docs/hidden.md) where the extension allows them and
    where it does not, some broken in one more way (a count, a code, a key, a sender)."""
    sender = st.sampled_from(["1", "2", "4", "B", "9", 1])
    count = st.one_of(st.integers(-3, 3), st.sampled_from(["?", "1", 1.5, True, None]))
    resources = st.dictionaries(st.sampled_from(["?", "B", "G", "O", "X"]), count, max_size=3)
    sides = st.lists(st.fixed_dictionaries({"player": sender, "resources": resources}), min_size=1, max_size=3)
    extra = st.dictionaries(st.sampled_from(["x", "rCodes"]), st.sampled_from(["?", 1, ["?"]]), max_size=1)
    return st.one_of(
        st.tuples(sender, st.sampled_from(["ST", "TR"]), sides),
        st.tuples(sender, st.just("BD"), st.builds(dict, cCode=st.sampled_from(["?", "KN", "X", 1])), extra),
        st.tuples(sender, st.just("RD"), st.builds(dict, result=st.sampled_from(["?", 7, 13, "7", None])), extra),
        st.tuples(sender, st.sampled_from(["PD", "MR", "BR"]), st.builds(dict, cCode=st.just("?")), extra),
    ).map(lambda m: [m[0], m[1], {**m[2], **m[3]}] if len(m) == 4 else list(m))


@settings(max_examples=scaled(300))
@given(hidden_messages(), st.sampled_from(["strict", "compat", "v1.0"]), st.sampled_from(["allow", "refuse"]))
def test_hidden_values_give_the_same_diagnostics_both_ways(message, profile, hidden):
    """The compiled check reads a hidden value where the extension allows it, and only there
    (neither under the profile v1.0 nor with hidden values refused)."""
    data = doubled([STANDARD_MAP, json.dumps(message), json.dumps(message, separators=(",", ":"))])
    fast, careful = both(data, level="semantic", profile=profile, hidden=hidden)
    assert fast == careful


@pytest.mark.skipif(not fastpath.COMPILED, reason="the compiled libraries are not installed (the tox env pure)")
def test_a_hidden_value_is_read_by_the_compiled_check_where_it_is_allowed():
    steal = b'["1","ST",[{"player":"1","resources":{"?":1}},{"player":"2","resources":{"?":-1}}]]'
    assert fastpath.schema_valid_message(steal, True, True) == json.loads(steal)
    assert fastpath.schema_valid_message(steal, True, False) is None  # (v1.0, or refused: the careful path says so)
    assert fastpath.schema_valid_message(b'["1","BD",{"cCode":"?"}]', True, True) == ["1", "BD", {"cCode": "?"}]
    assert fastpath.schema_valid_message(b'["1","PD",{"cCode":"?"}]', True, True) is None  # (no card played unseen)


@given(st.binary(max_size=200))
def test_arbitrary_bytes_give_the_same_diagnostics_both_ways(data):
    fast, careful = both(data + b"\n" + data)
    assert fast == careful


def test_repeated_keys_hidden_by_the_parser_are_still_found():
    line = '["1","RD",{"result":8,"result":13}]'
    fast, careful = both(doubled(['["1","RD",{"result":8}]', line]), level="schema")
    assert fast == careful and ("json-duplicate-key", 3) in [(c, n) for c, n, *_ in fast]


@pytest.mark.parametrize("white", [" ", "\t", "\r", "\n", " \t"])
def test_a_repeated_key_behind_each_white_byte_before_its_colon_is_found(white):
    """Each white byte JSON allows between a key and its colon is looked for: one missed,
    the plain count of `":` finds one key fewer than the text holds, and the parser's
    repeated key goes unseen (the line is one line of text but for a line feed, which
    splits it: then both paths refuse both halves alike)."""
    line = '["1","RD",{"result":8,"result"' + white + ":13}]"
    assert fastpath._key_ends(line.encode()) == 2
    fast, careful = both(doubled(['["1","RD",{"result":8}]', line]), level="schema")
    assert fast == careful and (white == "\n" or ("json-duplicate-key", 3) in [(c, n) for c, n, *_ in fast])


@settings(max_examples=scaled(40))  # a whole game each, replayed twice
@given(sgs.games())
def test_whole_games_give_the_same_diagnostics_both_ways(game):
    lines = [json.dumps(m, separators=(",", ":")) for m in game]
    cut = lines[: len(lines) // 2] + lines[len(lines) // 2 + 3 :]  # a gap: some errors
    fast, careful = both(("\n".join(cut) + "\n").encode(), level="rules")
    assert fast == careful


@given(st.lists(st.tuples(st.integers(0, 6), st.binary(max_size=40), st.booleans()), max_size=300))
def test_the_memory_keeps_its_bounds_and_its_accounts(operations):
    """Any sequence of contexts and lines: never more than the bounds, and the running
    totals are what the contexts hold."""
    memory = fastpath.Memory(lines=20, size=300, values=5, contexts=3)
    holders = {}
    for key, raw, keep in operations:
        context = holders[key] = memory.known((key,)) if key % 2 or key not in holders else holders[key]
        memory.remember(context, raw, [raw] if keep else fastpath.NOT_KEPT)
        live = list(memory.contexts.values())
        assert len(live) <= 3 and memory.lines <= 20 and memory.size <= 300 and memory.kept <= 5
        assert memory.lines == sum(len(c.lines) for c in live)
        assert memory.size == sum(len(raw) for c in live for raw in c.lines)
        assert memory.kept == sum(v is not fastpath.NOT_KEPT for c in live for v in c.lines.values())
        assert all(not c.lines for c in holders.values() if not c.alive)


def test_a_forgotten_context_remembers_nothing_more():
    memory = fastpath.Memory(contexts=1)
    first = memory.known(("a",))
    memory.known(("b",))  # forgets "a", which a file may still hold
    memory.remember(first, b"[1]")
    assert not first.alive and not first.lines and memory.lines == 0


def test_overlong_lines_are_not_remembered():
    memory = fastpath.Memory()
    context = memory.known(("a",))
    memory.remember(context, b" " * (fastpath.LONGEST_REMEMBERED + 1))
    assert memory.lines == 0


def test_a_line_remembered_without_a_map_is_checked_again_once_a_map_comes():
    robber = '["1","MR",{"tile":[4,0]}]'
    data = (robber + "\n" + robber + "\n" + STANDARD_MAP + "\n" + robber + "\n").encode()
    fast, careful = both(data, level="semantic")
    assert fast == careful and [(c, n) for c, n, *_ in fast] == [("robber-off-map", 4)]


@pytest.mark.parametrize("level", ["syntax", "schema", "semantic", "rules"])
def test_a_line_verified_once_is_remembered(level):
    """The memory is what makes the fast path fast: a line verified once is not checked
    again (a game repeats most of its lines). Counted in the memory, in either build."""
    from sgn.play import random_game

    game = random_game(12, 4)
    lines = [json.dumps(m, separators=(",", ":")) for m in game]
    fastpath.MEMORY.clear()
    assert list(sgn.iter_diagnostics(io.BytesIO(("\n".join(lines) + "\n").encode()), level=level)) == []
    kept = {line for line in lines if '"DM"' not in line}
    assert fastpath.MEMORY.lines == len(kept) < len(lines)


@given(
    st.lists(st.sampled_from([b'"', b":", b" ", b"\n", b"\t", b"\r", b"a", b"{", b"}", b"\\"]), max_size=80)
    | st.binary(max_size=200)
)
def test_the_count_of_key_ends_is_the_patterns(pieces):
    """Without whitespace the count of `":` stands for the pattern, which allows whitespace."""
    data = b"".join(pieces) if isinstance(pieces, list) else pieces
    assert fastpath._key_ends(data) == len(fastpath._KEY_END.findall(data))


@pytest.mark.parametrize("literal", ["1" * 101, "-" + "9" * 100, "1." + "0" * 99, "1e" + "0" * 99, "0." + "1" * 150])
def test_a_number_literal_past_the_limit_goes_the_careful_way(literal):
    """orjson reads a long integer as a float, so a line with a float is searched for one."""
    line = f'["1","RD",{{"result":{literal}}}]'
    assert fastpath.schema_valid_message(line.encode()) is None
    fast, careful = both(doubled(['["1","RD",{"result":8}]', line]), level="schema")
    assert fast == careful and "json-number-too-long" in [code for code, *_ in fast]


@pytest.mark.parametrize("text", ["e" * 150, "1" * 150, "-.+eE0" * 30])
def test_a_long_run_of_number_characters_in_a_string_is_no_number(text):
    line = json.dumps(["1", "CH", text], separators=(",", ":"))
    fast, careful = both(doubled([line]), level="schema")
    assert fast == careful and "json-number-too-long" not in [code for code, *_ in fast]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=80),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=80), inner, max_size=4),
    max_leaves=20,
)


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _texts(item)


@given(JSON_VALUES)
def test_a_message_interned_is_the_same_value_its_short_strings_the_interpreter_s(value):
    """What the replay is given of a new line: equal to what was read, keys in the same order,
    and each string of a message's length the interpreter's own object (so that a look-up by
    it in the replay's tables finds the key itself)."""
    copy = json.loads(json.dumps(value))  # (strings made anew, as a parser makes them)
    out = fastpath.interned(copy)
    assert out == value and json.dumps(out) == json.dumps(value)
    for text in _texts(out):
        if len(text) <= fastpath.INTERNED_LENGTH:
            assert text is sys.intern(text)


def test_the_strings_interned_stay_bounded():
    for n in range(3 * fastpath.INTERNED_KEPT):
        fastpath.interned(["1", "XX", {f"key {n}": [f"value {n}"]}])
        assert len(fastpath._INTERNED) <= fastpath.INTERNED_KEPT
    assert fastpath.interned(["1", "RD", {"result": 8}])[1] is "RD"  # noqa: F632 (the code's own)
