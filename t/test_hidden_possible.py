"""What each hidden value may still be (docs/hidden.md, "What is known"): `sgn replay` gives
exactly the values that some legal filling of the log has there, as a brute force over
every filling finds them."""

import json
import subprocess
import sys

from hypothesis import HealthCheck, given, settings, strategies as st

import sgn
from hidden_fillings import _fillings, _partial_logs, fillings  # (t/ is on the path)
from sgn.game.possible import possible_values
from sgn.rules import RESOURCES
from sgn.testing.as_it_stands import first_fault


def _lines(log):
    return [json.dumps(m) + "\n" for m in log]


def _hidden_lines(log):
    return [i for i, m in enumerate(log) if _fillings(m) != [m]]


def _value(original, filled):
    """What a filling wrote for the hidden value of `original`: a total, a kind, or the
    count of each resource among the cards not shown."""
    action = original[1]
    if action == "RD":
        return filled[2]["result"]
    if action == "BD":
        return filled[2]["cCode"]
    giver = next(i for i, side in enumerate(original[2]) if side["resources"].get("?", 0) < 0)
    before, after = original[2][giver]["resources"], filled[2][giver]["resources"]
    return {r: before.get(r, 0) - after.get(r, 0) for r in RESOURCES if before.get(r, 0) != after.get(r, 0)}


def brute_possible(log):
    """For each hidden line (0-based), what its value is in some legal filling of the log."""
    hidden = _hidden_lines(log)
    seen = {i: [] for i in hidden}
    for filled in fillings(log):
        if first_fault(filled) == 0:
            for i in hidden:
                seen[i].append(_value(log[i], filled[i]))
    out = {}
    for i in hidden:
        if log[i][1] in ("RD", "BD"):
            out[i + 1] = sorted(set(seen[i]), key=str)
        else:
            most = {r: max(v.get(r, 0) for v in seen[i]) for r in RESOURCES}
            out[i + 1] = {r: n for r, n in most.items() if n}
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10_000), st.sampled_from([3, 4]), st.integers(25, 110), st.integers(1, 3))
def test_each_hidden_value_may_be_exactly_what_some_legal_filling_has_there(seed, players, cut, hidden):
    log = _partial_logs(seed, players, cut, hidden, False)
    if fillings(log) is None or not _hidden_lines(log):
        return
    state, found = sgn.replay(_lines(log))
    assert not [d for d in found if d.is_error]
    given_ = {e["line"]: e["possible"] for e in state["hidden_values"]}
    expected = brute_possible(log)
    assert {line: (sorted(v, key=str) if isinstance(v, list) else v) for line, v in given_.items()} == expected


def test_a_log_with_a_fault_gives_no_possible_values_it_cannot_work_out():
    log = _partial_logs(7, 4, 80, 2, False)
    log.insert(40, ["1", "BC", {"intersection": [[0, 0], [1, 0], [0, 1]]}])
    state, found = sgn.replay(_lines(log))
    assert any(d.is_error for d in found)
    assert "hidden_values" not in state


def test_work_past_the_budget_is_left_unsaid_never_guessed():
    log = _partial_logs(3, 4, 110, 3, False)
    fed = list(enumerate(log, 1))
    full = possible_values(fed)
    assert full and all(e["possible"] is not None for e in full)
    short = possible_values(fed, budget=len(log))
    assert any(e["possible"] is None for e in short)
    for a, b in zip(full, short):
        assert b["possible"] is None or b["possible"] == a["possible"]


def test_sgn_replay_prints_what_each_hidden_value_may_be():
    log = _partial_logs(11, 4, 100, 3, False)
    text = subprocess.run(
        [sys.executable, "-m", "sgn", "replay", "-"],
        input="".join(_lines(log)),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "hidden values, what each may be:" in text
    for i in _hidden_lines(log):
        assert f"  line {i + 1}, " in text


def test_the_report_page_says_what_each_hidden_move_may_have_been_as_sgn_replay_does():
    from sgn.game.possible import told
    from sgn.page.steps import collect
    from sgn.pipeline.checking import Checking

    log = _partial_logs(11, 4, 100, 3, False)
    state, _ = sgn.replay(_lines(log))
    collected = collect(_lines(log), "log", Checking("rules"))
    texts = {line: text for line, _, text in collected.moves}
    assert state["hidden_values"]
    for entry in state["hidden_values"]:
        assert f"(may have been: {told(entry)})" in texts[entry["line"]]
