"""What each hidden value of a log may still be (docs/hidden.md, "What is known"): the
values that, written in its place, keep every line up to here legal.

Exact, as the verdict is: a log with hidden values is legal when some filling of them makes
every move legal, so a value is possible when the log with it written in is still legal,
whatever the other hidden values are; the replay is asked exactly that, once per value
tried, from a copy of the game before the line. A card taken unseen is tried a kind at a
time ("at least one ore"), and, for several cards, a number at a time ("at least two"):
the most of each kind is the answer. Work is bounded (`BUDGET` units: a message applied
costs one, and one more for every WORLDS_A_UNIT ways the cards may lie that the work on the
hands in doubt visited, `doubt.WORK`, as that is where a log that hides much spends its time:
a bound on the time, not only on the messages): a value not worked out within it is said so
(`possible` None), never guessed.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from ..layers.hidden import HIDDEN, places
from ..rules import DECK, RESOURCES
from .core import Game, Message
from .doubt import WORK
from .readings import is_error
from .rule_profiles import DEFAULT as DEFAULT_RULES

BUDGET = 200_000  # units of work, over every value tried, before the rest is left unsaid
WORLDS_A_UNIT = 2  # ways the cards may lie visited that cost about as much as one message applied
MAX_MESSAGES = 100_000  # the messages of one game kept to try values on (memory stays bounded)
ROLLS = tuple(range(2, 13))

Fed = Tuple[int, Message]  # a line's number and its message, as the replay applied it


def _with_roll(message: Message, total: int) -> Message:
    return [message[0], message[1], {**message[2], "result": total}]


def _with_card(message: Message, card: str) -> Message:
    return [message[0], message[1], {**message[2], "cCode": card}]


def _hidden_units(message: Message) -> int:
    """The cards of kinds not shown each side holding some moves (the fewest of them)."""
    return min(abs(side["resources"][HIDDEN]) for side in message[2] if HIDDEN in side.get("resources", {}))


def _with_kind(message: Message, resource: str, units: int) -> Message:
    """`units` of the cards not shown, on every side holding some, written as `resource`."""
    sides = []
    for side in message[2]:
        held = side.get("resources", {})
        if HIDDEN in held:
            sign = 1 if held[HIDDEN] > 0 else -1
            held = dict(held)
            held[resource] = held.get(resource, 0) + sign * units
            left = held.pop(HIDDEN) - sign * units
            if left:
                held[HIDDEN] = left
            side = {**side, "resources": held}
        sides.append(side)
    return [message[0], message[1], sides]


class _Trier:
    """Tries values in place of a hidden one, within the budget."""

    def __init__(self, budget: int):
        self.left = budget

    def charge(self, game: Game, message: Message, line: int) -> List[Any]:
        """`message` applied to `game`, its work taken from the budget: what it broke."""
        visited = WORK[0]
        found = game.apply(message, line)
        self.left = max(0, self.left - 1 - (WORK[0] - visited) // WORLDS_A_UNIT)
        return found

    def holds(self, before: Game, line: int, message: Message, rest: Sequence[Fed]) -> Optional[bool]:
        """Whether the log is legal to its end with `message` at `line`; None once the
        budget is spent."""
        if self.left < len(rest) + 1:
            self.left = 0
            return None
        game = before.clone()
        for number, applied in [(line, message), *rest]:
            found = self.charge(game, applied, number)
            if not self.left:
                return None
            if any(is_error(p) for p in found):
                return False
        return True

    def values(self, before: Game, line: int, message: Message, rest: Sequence[Fed]) -> Optional[Any]:
        """What the hidden value of `message` may be: the totals of a roll, the kinds of a
        card drawn, the most of each resource among the cards not shown."""
        action = message[1]
        if action in ("RD", "BD"):
            options = ROLLS if action == "RD" else DECK
            write = _with_roll if action == "RD" else _with_card
            found = []
            for option in options:
                held = self.holds(before, line, write(message, option), rest)  # type: ignore[arg-type]
                if held is None:
                    return None
                if held:
                    found.append(option)
            return found
        units, most = _hidden_units(message), {}
        for resource in RESOURCES:
            count = 0
            while count < units:  # "at least count + 1" is possible only if "at least count" is
                held = self.holds(before, line, _with_kind(message, resource, count + 1), rest)
                if held is None:
                    return None
                if not held:
                    break
                count += 1
            if count:
                most[resource] = count
        return most


def _games(fed: Sequence[Fed]) -> Iterator[Sequence[Fed]]:
    start = 0
    for i, (_, message) in enumerate(fed):
        if message[1] == "DM" and i > start:
            yield fed[start:i]
            start = i
    yield fed[start:]


def possible_values(fed: Sequence[Fed], budget: int = BUDGET, rules: str = DEFAULT_RULES) -> List[Dict[str, Any]]:
    """For each hidden value of a log legal so far (`fed`: its messages as the replay
    applied them, in order), the values still possible: `{"line", "action", "possible"}`,
    `possible` a list (a roll's totals, a card's kinds) or a dict (each resource the cards
    not shown may be, with the most of it), None where the budget ran out first. `rules`:
    the rule profile the log is judged by."""
    trier, found = _Trier(budget), []
    for game_fed in _games(fed):
        game = Game(rules)
        for i, (line, message) in enumerate(game_fed):
            if places(message):
                values = trier.values(game, line, message, game_fed[i + 1 :]) if trier.left else None
                entry: Dict[str, Any] = {"line": line, "action": message[1], "possible": values}
                if message[1] in ("TR", "ST"):
                    entry["cards"] = _hidden_units(message)
                found.append(entry)
            if trier.left:  # (the game before each value, charged as any work; once spent, none)
                trier.charge(game, message, line)
    return found


class Kept:
    """The messages of a log's last game as the replay applied them (`add`, from a visitor's
    `visit_state`), to work out its hidden values once read (`values`): none once a fault's
    reading or more than MAX_MESSAGES make them of no use (until the next game)."""

    def __init__(self) -> None:
        self.messages: Optional[List[Fed]] = []
        self.hidden = False

    def add(self, line: int, message: Optional[Message]) -> None:
        if message is not None and message[1] == "DM":
            self.messages, self.hidden = [(line, message)], False
        elif self.messages is not None:
            if message is None or len(self.messages) >= MAX_MESSAGES:
                self.messages = None
            else:
                self.messages.append((line, message))
                self.hidden = self.hidden or bool(places(message))

    def values(self, rules: str = DEFAULT_RULES) -> List[Dict[str, Any]]:
        """`possible_values` of the game kept (call only where the log is legal so far)."""
        return possible_values(self.messages, rules=rules) if self.messages and self.hidden else []


def told(entry: Dict[str, Any]) -> str:
    """What a hidden value may have been, in words: "grain or ore"."""
    possible = entry["possible"]
    if possible is None:
        return "not worked out (the work allowed was spent)"
    if not possible:
        return "nothing possible (the log is not legal here)"
    if isinstance(possible, list):
        return " or ".join(str(v) for v in possible)
    if entry.get("cards", 1) == 1:
        return " or ".join(possible)
    return f"{entry['cards']} cards, " + ", ".join(f"up to {n} {r}" for r, n in possible.items())


def describe(entry: Dict[str, Any]) -> str:
    """One hidden value's possibilities, in words: "line 40, a steal: grain or ore"."""
    what = {"RD": "a roll", "BD": "a card drawn", "ST": "a steal"}.get(entry["action"], "cards given")
    return f"line {entry['line']}, {what}: {told(entry)}"


__all__ = ["BUDGET", "MAX_MESSAGES", "Kept", "describe", "possible_values", "told"]
