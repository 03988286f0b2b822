"""What a log breaks as it stands, read without the recovery's look-ahead: the ground truth
that the tests and benchmarks of one fault, one error hold the replay's reports to.

- `faults_as_it_stands`: every line that breaks a rule, each move made as the log has it.
  The replay reports none outside it.
- `faults_within_bounds`: those of them that still break a rule when each hand or bank
  count an earlier line showed off is known within bounds from then on (docs/rules.md,
  "After an error"): a fault of its own. The replay reports every one. The rest break a
  rule only through a count already shown off: the same fault seen again, which the
  replay may or may not report, by the reading it chose. An engine that pays nobody from
  a short bank, where the rulebook pays the one player owed, leaves a hand off by a card
  or three for the rest of the game, and each later discard of that hand breaks a rule as
  the log stands.
- `early_plays`: cards played on the turn they were bought, read from the log alone.
"""

from __future__ import annotations

import collections
import typing
from typing import Dict, List, Sequence, Tuple

from ..game.core import Game
from ..game.lost import hands_shown_off, set_adrift, set_bank_adrift
from ..game.readings import is_error

CHECKPOINT_EVERY = 64  # messages between two copies of the state


def early_plays(game: List[list]) -> List[int]:
    """The lines where a player plays a development card bought in the same turn (and holds
    no older card of that kind): the engine's known fault, read from the log alone."""
    old: Dict[str, typing.Counter[str]] = collections.defaultdict(collections.Counter)
    new: Dict[str, typing.Counter[str]] = collections.defaultdict(collections.Counter)
    current = None
    found = []
    for n, (player, action, value) in enumerate(game, 1):
        if action in ("RD", "PD") and player not in (current, "B"):
            if current is not None:
                old[current].update(new[current])
                new[current].clear()
            current = player
        if action == "BD":
            new[player][value["cCode"]] += 1
        elif action == "PD":
            card = value["cCode"]
            if old[player][card] > 0:
                old[player][card] -= 1
            else:
                new[player][card] -= 1
                found.append(n)
    return found


def faults_as_it_stands(game: List[list]) -> List[int]:
    """The lines that break a rule when the log is replayed as it stands, every move made as
    the log has it (what the replay reported before its recovery)."""
    replay = Game()
    found = []
    for n, message in enumerate(game, 1):
        try:
            if any(is_error(p) for p in replay.apply(message, n)):
                found.append(n)
        except ValueError:
            found.append(n)
    return found


def _faults_with_counts_in_bounds(game: List[list]) -> List[int]:
    """The lines that break a rule in a replay where a line that shows a hand, or the bank,
    holds other cards than the replay counts leaves that count known within bounds from
    then on (the recovery's reading of a message lost, `lost.set_adrift`)."""
    replay, base = Game(), Game()  # the state, and a copy of it from before `since`
    since: List[Tuple[Sequence, int]] = []
    found = []
    for n, message in enumerate(game, 1):
        try:
            errors = [p.code for p in replay.apply(message, n) if is_error(p)]
        except ValueError:
            found.append(n)
            continue
        if errors:
            found.append(n)
            before = base.clone()
            for m, k in since:
                before.apply(m, k)
            names = hands_shown_off(before, message, errors[0])
            if names or "bank-empty" in errors:
                set_adrift(before, names, errors[0])
                if "bank-empty" in errors:
                    set_bank_adrift(before)
                before.apply(message, n)
                replay, base, since = before, before.clone(), []
                continue
        since.append((message, n))
        if len(since) >= CHECKPOINT_EVERY:
            base, since = replay.clone(), []
    return found


def faults_within_bounds(game: List[list]) -> List[int]:
    """The lines that break a rule as the log stands and still do with each count an earlier
    line showed off known within bounds: each a fault of its own, which the replay must
    report (a line of `faults_as_it_stands` not here breaks a rule only through such a
    count: the replay may report it, or not)."""
    return sorted(set(faults_as_it_stands(game)) & set(_faults_with_counts_in_bounds(game)))


def first_fault(game: List[list]) -> int:
    """The first line that breaks a rule when the log is replayed as it stands (0: none)."""
    return next(iter(faults_as_it_stands(game)), 0)
