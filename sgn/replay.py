"""`sgn replay`: run a log through every layer up to the rules, and show the game's state."""
from __future__ import annotations

from typing import Callable, Optional, Tuple

from .diagnostic import Diagnostic
from .game import RulesChecker
from .jsonline import parse_line
from .reader import read_lines
from .rules import RESOURCES
from .validate import build_stages, run_stages


def replay(source, *, name: str, at: Optional[int] = None, profile: str = "strict",
           report: Callable[[Diagnostic], None] = lambda d: None) -> Tuple[Optional[dict], int]:
    """The state after line `at` (or the end), and the number of errors on the way.

    Every diagnostic found is passed to `report`. The state is None when the
    file cannot be read at all.
    """
    stages = build_stages("rules", profile)
    rules_stage = stages[-1]
    assert isinstance(rules_stage, RulesChecker)
    errors = 0
    line = 0
    for item in read_lines(source, name=name):
        if isinstance(item, Diagnostic):
            report(item)
            errors += item.is_error
            if item.is_io:
                return None, errors
            continue
        if at is not None and item.number > at:
            break
        line = item.number
        parsed = parse_line(item.text, file=name, line=item.number)
        found = [parsed] if isinstance(parsed, Diagnostic) else run_stages(stages, parsed[0], name, item.number)
        for d in found:
            report(d)
            errors += d.is_error
    state = rules_stage.game.snapshot()
    state["line"] = line
    state["game"] = rules_stage.game      # the live state, for other renderings (HSN)
    return state, errors


def _counts(mapping: dict) -> str:
    return " ".join(f"{k}{v}" for k, v in mapping.items() if v) or "none"


def render_state(state: dict) -> str:
    """The state as a few lines of text."""
    turn = (f"player {state['current']}'s turn ({'rolled' if state['rolled'] else 'not rolled yet'})"
            if state["current"] else "no turn yet")
    out = [f"after line {state['line']}: {state['phase']}, turn {state['turn']}, {turn}"]
    if state["ended_at_line"]:
        out.append(f"the game ended at line {state['ended_at_line']}")
    robber = state["robber"]
    out.append(f"robber: {robber if robber else 'not placed'}; bank: "
               + " ".join(f"{r}{state['bank'][r]}" for r in RESOURCES) + f"; deck: {_counts(state['deck'])}")
    out.append(f"longest road: {state['longest_road'] or 'nobody'}; largest army: {state['largest_army'] or 'nobody'}")
    owed = state["owed"]
    pending = [f"player {p} discards {n}" for p, n in owed["discards"].items()]
    if owed["robber"]:
        pending.append("the robber moves")
    if owed["steal_from"]:
        pending.append("a steal from player " + " or ".join(owed["steal_from"]))
    if pending:
        out.append("owed: " + "; ".join(pending))
    for name, p in state["players"].items():
        out.append(f"player {name}: {p['points']} points; hand " + " ".join(f"{r}{p['hand'][r]}" for r in RESOURCES)
                   + f"; cards {_counts(p['cards'])}; knights {p['knights_played']}; "
                   f"{len(p['settlements'])} settlements, {len(p['cities'])} cities, {len(p['roads'])} roads "
                   f"(longest {p['road_length']})")
    return "\n".join(out) + "\n"
