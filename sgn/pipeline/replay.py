"""`sgn replay`: run a log through every layer up to the rules, and show the game's state."""

from __future__ import annotations

import sys
from typing import Any, Callable, List, Optional, Tuple

from ..diagnostic import Diagnostic
from ..game.core import Game
from ..rules import RESOURCES
from ..words import count, player_label
from .engine import FileCheck


def replay(
    source,
    *,
    name: str,
    at: Optional[int] = None,
    profile: str = "strict",
    report: Callable[[Diagnostic], None] = lambda d: None,
    rules: str = "standard",
) -> Tuple[Optional[dict], int]:
    """The state after line `at` (or the end), and the number of errors on the way.

    The log is checked as `sgn validate --level rules` checks it, up to line `at`, and
    past it while a fault of a line up to it is undecided: each fault is read as the whole
    log reads it, so that the state and the diagnostics of lines up to `at` are those of
    `sgn validate` and of the report page. Every diagnostic of those lines is passed to
    `report`. The state is None when the file cannot be read at all. `state["message"]`
    is the value on the state's line (None if that line holds none), so that a picture of
    it needs no second reading.
    """
    check = FileCheck(source, level="rules", profile=profile, name=name, until=at, rules=rules)
    replayed = check.replay
    assert replayed is not None
    last = at if at is not None else sys.maxsize
    kept: List[Any] = [0, None, 0, None]  # line and game of the last state, line and value of the last line

    def keep_state(line: int, game: Game, message: Any) -> None:
        if line <= last:  # (read past `at`, the replay goes on with this game: a copy)
            kept[0], kept[1] = line, (game.clone() if check.line > last else game)

    def keep_line(line: int, message: Any) -> None:
        if line <= last:
            kept[2], kept[3] = line, message

    replayed.on_state, check.observer = keep_state, keep_line
    errors = 0
    for found in check:
        if found.is_io:
            report(found)
            return None, errors + found.is_error
        if (found.line or 0) > last:
            continue
        report(found)
        errors += found.is_error
    game = kept[1] if kept[1] is not None else Game(rules)
    state = game.snapshot()
    state["line"] = min(check.line, last)
    state["message"] = kept[3] if kept[2] == state["line"] else None
    state["game"] = game  # the live state, for other renderings (HSN)
    return state, errors


def line_by_line(
    source,
    *,
    name: str,
    profile: str = "strict",
    on_line: Callable[[int, Any], None],
    on_state: Callable[[int, Game, Any], None],
    rules: str = "standard",
) -> FileCheck:
    """The check `replay` makes, of the whole log, in one pass: `on_line(line, value)` is
    called after each line is checked (`value` None if the line holds none), and
    `on_state(line, game, message)` with the state after each line fed to the replay
    once it is final (and the message applied, None for a reading of the line), the state `replay(at=line)` gives, at once or, for the lines of a fault, once
    its reading is chosen (in line order; before or after that line's `on_line`). Iterate
    it for the diagnostics; `game` is only to be read, then and there."""
    check = FileCheck(source, level="rules", profile=profile, name=name, rules=rules)
    replayed = check.replay
    assert replayed is not None
    check.observer, replayed.on_state = on_line, on_state
    return check


def _counts(mapping: dict) -> str:
    return " ".join(f"{k}{v}" for k, v in mapping.items() if v) or "none"


def render_state(state: dict) -> str:
    """The state as a few lines of text."""
    turn = (
        f"player {state['current']}'s turn ({'rolled' if state['rolled'] else 'not rolled yet'})"
        if state["current"]
        else "no turn yet"
    )
    out = [
        f"after line {state['line']}: {state['phase']}, turn {state['turn']}, {turn}; rules of the {state['variant']}"
        + (f", as {state['rules']} plays them" if state.get("rules", "standard") != "standard" else "")
    ]
    if state["ended_at_line"]:
        out.append(f"the game ended at line {state['ended_at_line']}")
    robber = state["robber"]
    out.append(
        f"robber: {robber if robber else 'not placed'}; bank: "
        + _hand(state["bank"])
        + f"; deck: {_counts(state['deck'])}"
    )
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
        out.append(
            f"player {player_label(name, state.get('names'))}: {_range(p['points'])} points; hand "
            + _hand(p["hand"])
            + f"; cards {_counts(p['cards'])}; knights {p['knights_played']}; "
            f"{count(len(p['settlements']), 'settlement')}, {count(len(p['cities']), 'city')}, "
            f"{count(len(p['roads']), 'road')} "
            f"(longest {p['road_length']})"
        )
    unseen = state.get("unseen")
    if unseen:
        out.append("not seen: " + _unseen(unseen))
    return "\n".join(out) + "\n"


def _range(value: Any) -> str:
    """A count, or a range of counts where it is in doubt (`[least, most]`: "1-3")."""
    return f"{value[0]}-{value[1]}" if isinstance(value, list) else str(value)


def _hand(hand: dict) -> str:
    return " ".join(f"{r}{_range(hand[r])}" for r in RESOURCES)


def _unseen(unseen: dict) -> str:
    """What the log does not show, in words (`State.snapshot`'s "unseen")."""
    said = []
    since = unseen.get("hands_in_doubt_since")
    if since:
        said.append(
            "hands in doubt ("
            + ", ".join(f"{'the bank' if n == 'B' else 'player ' + n} since line {line}" for n, line in since.items())
            + f"; {count(unseen['ways_the_cards_lie'], 'way')} the cards may lie)"
        )
    if "roll" in unseen:
        said.append("the last roll (a 7 or not, as the next message tells)")
    if "cards_drawn_unseen" in unseen:
        said.append("development cards drawn unseen (?), each one of the kinds the deck had left")
    if "within_bounds_from_line" in unseen:
        said.append(f"too many ways to list from line {unseen['within_bounds_from_line']}: hands within bounds")
    return "; ".join(said)
