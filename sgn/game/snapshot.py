"""A game's state as plain data, as `sgn replay` (text and JSON), `sgn.replay` and the
harness give it: what is known, each count a number or [least, most] where the log does not
show it whole (docs/hidden.md, "What is known, shown"), and what is not seen.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from .. import board, rules
from ..rules import RESOURCES
from .rule_profiles import bank_stock
from .unseen import drawn_unseen


def snapshot(self: Any) -> dict:
    """A game's state as plain data (for `sgn replay`)."""

    def corners(cs):
        return sorted([[list(t) for t in board.canonical_corner(c)] for c in cs])

    def edges(es):
        return sorted([[[list(t) for t in end] for end in board.canonical_edge(e)] for e in es])

    def known(name: str) -> Dict[str, object]:
        """Each resource's count, or [least, most] where the hand is in doubt."""
        least, most = self.hand_range(name)
        x = bank_stock(self.departures, 0) if name == "B" else 0  # (the more of an unlimited bank)
        return {r: least[r] - x if least[r] == most[r] else [least[r] - x, most[r] - x] for r in RESOURCES}

    def points(name: str) -> object:
        least, most = self.points_range(name)
        return [least, most] if most > least else least

    state: Dict[str, object] = {
        "variant": self.variant.name,
        "rules": self.rules,
        "phase": self.phase,
        "turn": self.turn,
        "current": self.current,
        "rolled": self.rolled,
        "robber": list(self.robber) if self.robber else None,
        "bank": known("B"),
        "deck": _deck_known(self),
        "deck_left": sum(self.deck.values()) - sum(drawn_unseen(self).values()),
        "longest_road": self.longest_road,
        "largest_army": self.largest_army,
        "owed": {
            "discards": dict(self.discards_owed),
            "robber": self.robber_due,
            "steal_from": sorted(self.steal_from) if self.steal_from else [],
        },
        "ended_at_line": self.ended_at,
        "may_have_ended": _may_have_ended(self),
        "players": {
            name: {
                "points": points(name),
                "hand": known(name),
                "cards": dict(
                    {c: p.cards[c] + p.new_cards[c] for c in rules.DECK},
                    **({"?": p.unseen_cards + p.unseen_new} if p.has_unseen_cards() else {}),
                ),
                "knights_played": p.knights,
                "road_length": self.road_length(name),
                "settlements": corners(p.settlements),
                "cities": corners(p.cities),
                "roads": edges(p.roads),
            }
            for name, p in sorted(self.players.items())
        },
    }
    unseen = self.unseen.summary(self)
    if unseen:
        state["unseen"] = unseen
    if self.header is not None:
        state["header"] = self.header
    return state


def _may_have_ended(self: Any) -> Optional[Dict[str, object]]:
    """Where the game may have ended unseen (docs/hidden.md): the line, the player who then
    won, and how many of their cards drawn unseen would be Victory Points."""
    if self.unseen.end is None:
        return None
    line, name = self.unseen.end
    needed = rules.POINTS_TO_WIN - self.points(name)
    return {"line": line, "player": name, "victory_points_unseen": needed}


def _deck_known(self: Any) -> Dict[str, object]:
    """Each kind the deck holds: a count, or [least, most] where cards drawn unseen may
    be of it (`State.deck` counts the kinds not drawn in sight: those too)."""
    unseen = sum(drawn_unseen(self).values())
    return {c: [max(0, n - unseen), n] if unseen and n else n for c, n in self.deck.items()}
