"""`sgn replay`: run a log through every layer up to the rules, and show the game's state."""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Tuple

from ..diagnostic import Diagnostic
from ..rules import RESOURCES
from .engine import FileCheck
from ..words import count

if TYPE_CHECKING:
    from ..game.core import Game


def replay(source, *, name: str, at: Optional[int] = None, profile: str = "strict",
           report: Callable[[Diagnostic], None] = lambda d: None) -> Tuple[Optional[dict], int]:
    """The state after line `at` (or the end), and the number of errors on the way.

    The log is checked as `sgn validate --level rules` checks it (up to line `at`);
    every diagnostic found is passed to `report`. The state is None when the file
    cannot be read at all.
    """
    check = FileCheck(source, level="rules", profile=profile, name=name, until=at)
    errors = 0
    for found in check:
        report(found)
        errors += found.is_error
        if found.is_io:
            return None, errors
    game = check.replay.game
    state = game.snapshot()
    state["line"] = check.line
    state["game"] = game          # the live state, for other renderings (HSN)
    return state, errors


def line_by_line(source, *, name: str, profile: str = "strict",
                 watch: Callable[[int, "Game"], None]) -> FileCheck:
    """The check `replay` makes, of the whole log, calling `watch(line, game)` after each
    message the replay reads, with `game` the state `replay(at=line)` gives (one pass for
    every line, not one a line). Iterate it for the diagnostics; `game` is only to be read."""
    check = FileCheck(source, level="rules", profile=profile, name=name)
    rules = check.replay
    assert rules is not None
    rules.watch = lambda line: watch(line, rules.settled())
    return check


def _counts(mapping: dict) -> str:
    return " ".join(f"{k}{v}" for k, v in mapping.items() if v) or "none"


def render_state(state: dict) -> str:
    """The state as a few lines of text."""
    turn = (f"player {state['current']}'s turn ({'rolled' if state['rolled'] else 'not rolled yet'})"
            if state["current"] else "no turn yet")
    out = [f"after line {state['line']}: {state['phase']}, turn {state['turn']}, {turn}; rules of the {state['variant']}"]
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
                   f"{count(len(p['settlements']), 'settlement')}, {count(len(p['cities']), 'city')}, "
                   f"{count(len(p['roads']), 'road')} "
                   f"(longest {p['road_length']})")
    return "\n".join(out) + "\n"
