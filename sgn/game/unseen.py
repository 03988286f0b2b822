"""Everything a game's log does not show, held in one record on the state (`State.unseen`):
one door to the hidden-card model (docs/hidden.md, "The model", has the map). It is copied,
keyed and summarised here, so that a fork of the state (thousands of them in the replay of
a fault) can forget none of it, and two states alike in what is seen tell what is unseen
apart.

The cards themselves move through the ledger (`ledger.py`), the worlds of the hands in
doubt are `doubt.Doubt` (opaque outside it), and the Development cards drawn unseen are
counted on each player (`Player.unseen_cards`, `unseen_new`, `unseen_points`;
`unseen_cards.py`), where a player's cards are."""

from __future__ import annotations

from typing import Any, Dict, Optional, Set, Tuple

from ..rules import DECK
from .doubt import Doubt


class Unseen:
    """What the log has not shown of one game, so far."""

    def __init__(self) -> None:
        self.doubt: Optional[Doubt] = None  # the hands not known for sure, as worlds (doubt.py)
        self.widened_at: Optional[int] = None  # the line where the doubt grew past its bound
        self.roll = False  # the turn's roll was not seen: a 7 or not, told by the next message
        self.end: Optional[Tuple[int, str]] = None  # (line, player): the game may have ended there
        # may owe a discard, by how many cards they hold in doubt
        self.discards_unsure: Set[str] = set()
        # owed when the robber moved, still taken (`state.AMOUNT_IN_DOUBT`: half a hand in doubt)
        self.discards_late: Dict[str, int] = {}

    def copy(self) -> "Unseen":
        """A copy that changes apart from this one."""
        other = Unseen()
        other.doubt = self.doubt.copy() if self.doubt is not None else None
        other.widened_at, other.roll, other.end = self.widened_at, self.roll, self.end
        other.discards_unsure = set(self.discards_unsure)
        other.discards_late = dict(self.discards_late)
        return other

    def key(self) -> tuple:
        """What tells two states apart that are alike in all they show (`State.public_key`):
        not the worlds, which the readings of a fault merge."""
        return (
            tuple(sorted(self.discards_late.items())),
            tuple(sorted(self.discards_unsure)),
            self.roll,
            self.end,
        )

    def summary(self, state: Any) -> Dict[str, object]:
        """What the log does not show of `state`, as far as it goes (the snapshot's `unseen`,
        docs/hidden.md): whose hands are in doubt and since when, a roll not told yet, where
        the worlds were merged, the Development cards drawn unseen and what they may be."""
        out: Dict[str, object] = {}
        d = self.doubt
        if d is not None:
            out["hands_in_doubt_since"] = {name: line for name, line in sorted(d.since.items())}
            out["ways_the_cards_lie"] = d.ways()
        if self.roll:
            out["roll"] = "not seen: a 7 or not, as the next message tells"
        if self.widened_at is not None:
            out["within_bounds_from_line"] = self.widened_at
        drawn = drawn_unseen(state)
        if drawn:
            out["cards_drawn_unseen"] = {"held_by": drawn, "may_be": [c for c in DECK if state.deck[c] > 0]}
        return out


def drawn_unseen(state: Any) -> Dict[str, int]:
    """The Development cards each player of `state` holds that were drawn unseen."""
    return {name: p.unseen_cards + p.unseen_new for name, p in sorted(state.players.items()) if p.has_unseen_cards()}


__all__ = ["Unseen", "drawn_unseen"]
