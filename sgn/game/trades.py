"""Trades: between players in a turn, with the bank at the rates the player's harbors give."""
from __future__ import annotations

from typing import List

from .cards import Cards
from .pieces import bank_rate_problems
from ..rules import show_cost, show_hand
from ..pipeline.semantic import Problem


class Trades(Cards):
    """A game state with the trades of a turn."""

    def _trade(self, player: str, value, discard: bool) -> List[Problem]:
        first, second = value
        a, ra, b, rb = first["player"], first["resources"], second["player"], second["resources"]
        problems = []
        if discard:
            problems.append(Problem("discard-not-owed", "/2",
                                    "a one-sided trade to the bank is a discard, and no discard is owed"))
        if self.current not in (a, b):
            problems.append(Problem("not-your-turn", "/0",
                                    f"player {self.current} is not part of this trade, during their own turn",
                                    "players trade only with the player whose turn it is"))
        if not self.rolled:
            problems.append(Problem("roll-first", "/1", "a trade before the dice are rolled"))
        if "B" in (a, b) and not discard:
            me, mine = (a, ra) if b == "B" else (b, rb)
            problems += bank_rate_problems(self.player(me), mine)
        for name, resources in ((a, ra), (b, rb)):
            if name == "B":
                if self.uncertain or self.bank_unsure:
                    continue                    # after a lost roll or message, the bank is not known
                holder = self.bank
            else:
                party = self.player(name)
                if party.unsure:
                    self._reveal(party, {r: -n for r, n in resources.items() if n < 0})
                holder = party.hand
            if any(holder[r] + n < 0 for r, n in resources.items()):
                given = {r: -n for r, n in resources.items() if n < 0}
                who = (f"the bank holds {show_hand(self.bank)}" if name == "B"
                       else self.players[name].holds())
                problems.append(Problem("bank-empty" if name == "B" else "not-held", "/2",
                                        f"{who}; the trade takes {show_cost(given)}"))
        for name, resources in ((a, ra), (b, rb)):
            holder = self.bank if name == "B" else self.player(name).hand
            for r, n in resources.items():
                holder[r] = max(0, holder[r] + n)
        return problems
