"""`sgn replay`: run a log through every layer up to the rules, and show the game's state."""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional, Tuple, cast

from ..diagnostic import Diagnostic
from ..game.core import Game
from ..game.position import Position
from ..game.possible import Kept, describe
from ..game.rule_profiles import DEFAULT as DEFAULT_RULES, STANDARD
from ..rules import RESOURCES
from ..words import count, player_label
from .checking import Checking
from .engine import visit
from .visitor import Visitor

RULES_LEVEL = Checking(level="rules")  # (how a replay reads a log unless told otherwise)


class StateAt(Visitor):
    """The state after line `until` (or the end): the game, and the value on that line,
    with what each hidden value may still be (`possible`: docs/hidden.md)."""

    def __init__(self, until: Optional[int] = None, *, possible: bool = True, rules: str = DEFAULT_RULES):
        self.until, self.rules = until, rules
        self.last = until if until is not None else sys.maxsize
        self.check: Any = None
        self.line, self.game = 0, cast(Optional[Game], None)  # the line and game of the last state
        self.value_line, self.value = 0, None  # the line and value of the last line
        self.kept = Kept() if possible else None  # the messages applied, to try hidden values on

    def begin(self, check: Any) -> None:
        self.check = check

    def visit_state(self, line: int, game: Game, message: Any) -> None:
        if line > self.last:
            return
        # (read past `until`, the replay goes on with this game: a copy)
        self.line, self.game = line, (game.clone() if self.check.line > self.last else game)
        if self.kept is not None:
            self.kept.add(line, message)

    def visit_line(self, line: int, value: Any) -> None:
        if line <= self.last:
            self.value_line, self.value = line, value

    def result(self) -> Position:
        game = self.game if self.game is not None else Game(self.rules)
        line = min(self.check.line, self.last)
        return Position(game, line, self.value if self.value_line == line else None)


def replay(
    source,
    *,
    name: str,
    at: Optional[int] = None,
    checking: Checking = RULES_LEVEL,
    report: Callable[[Diagnostic], None] = lambda d: None,
    possible: bool = True,
) -> Tuple[Optional[Position], int]:
    """The position after line `at` (or the end), and the number of errors on the way.

    The log is checked as `sgn validate --level rules` checks it, up to line `at`, and
    past it while a fault of a line up to it is undecided: each fault is read as the whole
    log reads it, so that the state and the diagnostics of lines up to `at` are those of
    `sgn validate` and of the report page. Every diagnostic of those lines is passed to
    `report`. The position is None when the file cannot be read at all. Its `message` is
    the value on its line (None if that line holds none), so that a picture of it needs no
    second reading. `checking` says how the file is read (its level is the rules'; its rule
    profile, sgn/game/rule_profiles.py, is the file's). Where the log holds hidden values
    and is legal up to `at`, its `hidden_values` say what each may still be (unless not
    `possible`).
    """
    checking = checking.for_path(name).at_level("rules")
    rules = checking.rules
    visitor = StateAt(at, possible=possible, rules=rules)
    state, errors = visit(source, visitor, checking, name=name, report=report)
    values = visitor.kept.values(rules) if state is not None and visitor.kept is not None and not errors else []
    if values:
        state = state._replace(hidden_values=tuple(values))
    return state, errors


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
        + (f", as {state['rules']} plays them" if state.get("rules", STANDARD) != STANDARD else "")
    ]
    if state["ended_at_line"]:
        out.append(f"the game ended at line {state['ended_at_line']}")
    ended = state.get("may_have_ended")
    if ended:
        out.append(
            f"the game may have ended: player {ended['player']} won at line {ended['line']} if "
            + (
                "one of their cards drawn unseen is a Victory Point"
                if ended["victory_points_unseen"] == 1
                else f"{ended['victory_points_unseen']} of their cards drawn unseen are Victory Points"
            )
        )
    robber = state["robber"]
    out.append(
        f"robber: {robber if robber else 'not placed'}; bank: " + _hand(state["bank"]) + f"; deck: {_deck(state)}"
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
    values = state.get("hidden_values")
    if values:
        out.append("hidden values, what each may be:")
        out.extend("  " + describe(entry) for entry in values)
    return "\n".join(out) + "\n"


def _deck(state: dict) -> str:
    """The deck, in words: how many cards are left (every purchase is public), each kind
    (a range where cards drawn unseen may be of it), and who holds the cards drawn unseen."""
    deck = state["deck"]
    kinds = " ".join(f"{c}{_range(n)}" for c, n in deck.items() if n)
    said = f"{state['deck_left']} left" + (f" ({kinds})" if kinds else "")
    drawn = state.get("unseen", {}).get("cards_drawn_unseen")
    if drawn:
        held = drawn["held_by"]
        said += (
            f"; {sum(held.values())} drawn unseen, held by "
            + " and ".join(f"player {name} ({n})" for name, n in held.items())
            + f", each one of {', '.join(drawn['may_be'])}"
        )
    return said


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
        said.append("development cards drawn unseen (?), each one of the kinds the deck had left (deck, above)")
    if "within_bounds_from_line" in unseen:
        said.append(f"too many ways to list from line {unseen['within_bounds_from_line']}: hands within bounds")
    return "; ".join(said)
