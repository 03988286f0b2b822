"""Turns and their phases: whose turn it is, the roll that begins it, and the Special
Build Phase of the 5-6 player extension that follows it (docs/rules.md)."""
from __future__ import annotations

from typing import List, Optional

from .. import rules
from .pieces import tile_from_json
from ..pipeline.semantic import Problem, is_discard
from .trades import Trades

# What another player may do in the Special Build Phase (5-6 players).
_SPECIAL_BUILDS = frozenset({"BS", "BC", "BR", "BD"})


class Turns(Trades):
    """A game state with its turns: rolls, the order of play, and what each turn allows."""

    def _turn(self, player: str, action: str, value) -> List[Problem]:
        if self.free_roads and action != "BR":
            self.free_roads = 0         # Road Building's roads come at once: anything else ends them
        if action == "RD":
            return self._roll(player, value["result"])
        discard = action == "TR" and is_discard(value)
        if discard and (self.discards_owed or self.discards_late or self.discards_upto):
            return self._discard(player, value)
        if action == "MR":
            return self._move_robber(player, tile_from_json(value["tile"]))
        if action == "ST":
            return self._steal(player, value)
        problems = self._owed() if (self.discards_owed or self.robber_due or self.steal_from) else []
        if action == "PD" and player != self.current and player == self._expected_next():
            problems += self._pass_turn(player)        # a card played before the roll starts the turn
        if self.current is None:
            self.current = "1"
        if self.variant.special_build and self.rolled and (self.special_built or player != self.current):
            special = self._special_build(player, action, value, discard)
            if special is not None:
                return problems + special
        if action == "TR":
            return problems + self._trade(player, value, discard)
        if player != self.current:
            problems.append(Problem("not-your-turn", "/0",
                                    f"player {player} acts during player {self.current}'s turn"))
        p = self.player(player)
        if action == "PD":
            return problems + self._play(p, value)
        if not self.rolled and not (action == "BR" and self.free_roads > 0):
            problems.append(Problem("roll-first", "/1", f"{action} before the dice are rolled",
                                    "a turn starts with RD; only a development card (and the roads of "
                                    "Road Building) may come before it"))
        if action != "BR":
            self.free_roads = 0
        return problems + BUILDS[action](self, p, value)

    def _special_build(self, player: str, action: str, value, discard: bool) -> Optional[List[Problem]]:
        """The Special Build Phase of the 5-6 player extension (docs/rules.md): after the
        turn's player rolled, each other player, in turn order from the next one, may build
        and buy cards with their own cards; the phase begins with the first such build and
        ends with the next turn. None when the message is no part of it (the caller goes on)."""
        turn = self.current
        assert turn is not None
        if action in _SPECIAL_BUILDS and player != turn:
            order = self.special_order(turn)
            if player not in order:
                return None                # not a player of this game: not-your-turn says so
            problems = []
            last = self.special_built[-1] if self.special_built else None
            if last is not None and player != last and (player in self.special_built
                                                        or order.index(player) < order.index(last)):
                problems.append(Problem("special-build-order", "/0",
                                        f"player {player} builds in the Special Build Phase after player {last} did; "
                                        f"after player {turn}'s turn they build in the order "
                                        f"{', '.join(order)}, each once"))
            if player != last:
                self.special_built.append(player)
            self.free_roads = 0
            return problems + BUILDS[action](self, self.player(player), value)
        if not self.special_built or discard:
            return None
        # The phase has begun. A fault here is one of timing: the log's reading (the move
        # stands) first, with its SBP code alone; `sgn/game/recovery.py` may choose the server's.
        if action == "TR":
            problem = Problem("special-build-trade", "/1",
                              f"player {player} trades in the Special Build Phase after player {turn}'s turn: "
                              "players build and buy there, they do not trade")
            self._trade(player, value, discard)
        elif action == "PD":
            problem = Problem("special-build-card", "/1",
                              f"player {player} plays a {rules.CARD_NAMES.get(value['cCode'], value['cCode'])} in the "
                              f"Special Build Phase after player {turn}'s turn: development cards are played only "
                              "in one's own turn")
            self._play(self.player(player), value)
        elif action in _SPECIAL_BUILDS and player == turn:
            problem = Problem("special-build-turn-player", "/0",
                              f"player {turn} builds after player {self.special_built[0]} began the Special Build "
                              f"Phase: player {turn}'s turn is over")
            self.special_built = []      # read as the turn going on: the next build by another begins the phase afresh
            return [problem] + BUILDS[action](self, self.player(player), value)
        else:
            return None
        if player == turn:
            self.special_built = []
        return [problem]

    def special_order(self, turn: str) -> List[str]:
        """The players after `turn`, in turn order: who may build in its Special Build Phase."""
        order = [self.next_player(turn)]
        while order[-1] != turn and len(order) <= len(self.players):
            order.append(self.next_player(order[-1]))
        return order[:-1]

    def _expected_next(self) -> str:
        return "1" if self.current is None else self.next_player(self.current)

    def _pass_turn(self, player: str) -> List[Problem]:
        """`player` starts their turn (with the roll, or a card before it): the turn before ends."""
        problems = []
        expected = self._expected_next()
        if player != expected:
            problems.append(Problem("turn-order", "/0",
                                    f"player {player} takes the turn, but "
                                    + (f"after player {self.current} comes player {expected}" if self.current
                                       else "player 1 begins")))
        if self.current is not None and not self.rolled:
            problems.append(Problem("roll-missing", "/0", f"player {self.current}'s turn ended without a roll"))
        if self.discards_owed or self.robber_due or self.steal_from:
            problems = self._owed() + problems
        self.turn += 1
        self.card_played = False
        if self.discards_late or self.discards_upto:
            self.discards_late, self.discards_upto = {}, {}
        for p in self.buyers:
            for card, n in p.new_cards.items():
                p.cards[card] += n
            p.new_cards = dict.fromkeys(rules.DECK, 0)
        self.buyers.clear()
        self.current, self.rolled, self.free_roads = player, False, 0
        if self.special_built:
            self.special_built = []
        return problems

    def begin_turn(self, player: str) -> List[Problem]:
        """`player`'s turn begins now, before any roll (a reading of a log after a fault)."""
        return self._pass_turn(player)

    def roll_quietly(self, player: str, result: int) -> None:
        """A roll the log does not show, with its effects (a reading after a fault)."""
        self._roll(player, result)

    def _roll(self, player: str, result: int) -> List[Problem]:
        if player == self.current and self.rolled:
            problems = [Problem("already-rolled", "/0", f"player {player} rolls twice in one turn")]
        elif player == self.current:
            problems = []
        else:
            problems = self._pass_turn(player)
        if self.discards_owed or self.robber_due or self.steal_from:
            problems = self._owed() + problems
        self.rolled, self.free_roads = True, 0
        if self.discards_late or self.discards_upto:
            self.discards_late, self.discards_upto = {}, {}
        if result == rules.ROBBER_ROLL:
            if self.uncertain:
                # after a lost roll, hands are known only within bounds (what it paid, and the
                # bank's shortages since, are unknown): a discard may be owed, up to half the most
                # a hand can hold, and none is missing
                self.discards_owed = {}
                for n, p in self.players.items():
                    most = rules.total(p.hand) + rules.total(p.unseen)
                    if most > rules.DISCARD_ABOVE:
                        self.discards_upto[n] = most // 2
            else:
                self.discards_owed = {n: rules.total(p.hand) // 2 for n, p in self.players.items()
                                      if rules.total(p.hand) > rules.DISCARD_ABOVE}
                for n, p in self.players.items():
                    if p.unsure:    # a hand known within bounds: a discard may be owed, up to half the most
                        most = rules.total(p.hand) + rules.total(p.unseen)
                        if most > rules.DISCARD_ABOVE:
                            self.discards_upto[n] = most // 2
            self.robber_due = "seven"
        else:
            self._produce(result)
        return problems


BUILDS = {"BS": Trades._build_settlement, "BC": Trades._build_city, "BR": Trades._build_road, "BD": Trades._buy_card}
