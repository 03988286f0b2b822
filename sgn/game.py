"""The rules replay: a game state, and `apply(message)` that checks one move against it.

SGN leaves out what can be inferred: production, the end of a turn, who holds
the longest road. The replay infers them, following the base game's rules
(the numbers are the tables of `sgn/rules.py`), and reports each move that
breaks a rule as a `Problem`. This module plays the map, the setup and the
turns (rolls, the robber, discards, steals); `sgn/moves.py` the builds, cards
and trades; `sgn/state.py` keeps the state.

`apply` applies a message as far as it can be, even an illegal one (the log's
reading: a hand never goes below zero, an obligation left unmet is dropped);
`sgn/recovery.py` decides, after a fault, whether that or another reading of
the log explains what follows, so that one fault gives one error.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Set

from . import board, rules
from .board import Tile
from .moves import BUILDS, Moves
from .pieces import Board, Income, Player, cards, corner_from_json, edge_from_json, tile_from_json
from .rules import show_cost
from .semantic import Problem, is_discard
from .state import OVER, SETUP, TURNS
from .words import count

# Actions that cannot change anyone's points (so the win needs no checking after them).
_NO_POINTS = frozenset({"TR", "ST", "MR"})
# What another player may do in the Special Build Phase (5-6 players).
_SPECIAL_BUILDS = frozenset({"BS", "BC", "BR", "BD"})


class Game(Moves):
    """The state of one game, replayed message by message: the map, the setup and the turns."""

    def clone(self) -> "Game":
        """A copy of the state that changes apart from this one, for trying several readings
        of a log after a fault (`sgn/recovery.py`)."""
        other = Game()
        self._copy_into(other)
        return other

    def apply(self, message: Sequence[Any], line: int = 0) -> List[Problem]:
        """Check one message against the state, then change the state as the message says."""
        self.line = line
        player, action, value = message
        if self.without_map_reported:
            return []
        if action == "DM":
            return self._define_map(value)
        if self.board is None:
            self.without_map_reported = True
            return [Problem("game-without-map", "/1",
                            "the replay needs the map: the log must start with a valid DM "
                            "(later messages are not replayed)")]
        if self.phase == OVER:
            if (action == "PD" and player == self.current and value["cCode"] == "VP"
                    and not self.after_end_reported and not self._reveal_point(self.player(player), value)):
                return []               # the winner shows the Victory Point cards that won
            if self.after_end_reported:
                return []
            self.after_end_reported = True
            return [Problem("after-game-end", "",
                            f"the game ended at line {self.ended_at}, when player {self.current} "
                            f"reached {self.points(self.current) if self.current else 0} points; "
                            "nothing may follow "
                            "(later messages are not checked)")]
        if self.phase == SETUP:
            problems = self._setup(player, action, value)
        else:
            problems = self._turn(player, action, value)
        if (self.phase == TURNS and self.current and action not in _NO_POINTS and not self.special_built
                and self.points(self.current) >= rules.POINTS_TO_WIN):     # nobody wins in a Special Build Phase
            self.phase, self.ended_at = OVER, line
        return problems

    def _define_map(self, value) -> List[Problem]:
        if self.board is not None:
            return [Problem("map-redefined", "/1", "the map is defined once, at the start of the game")]
        self.board = Board.from_value(value)
        # on one of two deserts, as the players like (docs/rules.md): unknown until it is placed or moves
        self.robber = self.board.desert if len(self.board.deserts) == 1 else None
        self.variant = rules.variant_for(self.board.land)
        self.bank = dict.fromkeys(rules.RESOURCES, self.variant.bank)
        self.deck = dict(self.variant.deck)
        return []

    def _expected_setup_player(self) -> Optional[str]:
        """Who places the next setup settlement (None once the setup is done). In the first
        round, the lowest-numbered player who has not placed; in the second, the highest who
        has not placed again. So a swap of two players costs one error, not one per line."""
        order = self.setup_order
        if self.count is None:
            n = 1
            while str(n) in order:
                n += 1
            return str(n)
        second = order[self.count:]
        if len(order) >= 2 * self.count:
            return None
        return next(str(n) for n in range(self.count, 0, -1) if str(n) not in second)

    def _setup(self, player: str, action: str, value) -> List[Problem]:
        if action == "MR" and not self.setup_order:
            tile = tile_from_json(value["tile"])
            self.robber = tile
            if tile not in self._map().deserts:
                return [Problem("robber-start-not-desert", "/2/tile", "the robber starts on "
                                + ("a desert" if len(self._map().deserts) > 1 else "the desert"))]
            return []
        if action == "BR" and self.setup_road_due is not None:
            return self._setup_road(player, value)
        if action == "BS" and self.setup_road_due is None:
            return self._setup_settlement(player, value)
        due = self.setup_road_due
        if action == "BS" and due is not None:  # the last setup turn's road is missing: go on
            owner = due[0]
            self.setup_road_due = None
            return [Problem("setup-order", "/1", f"player {owner}'s setup road is missing before this settlement",
                            "each setup turn is one BS then one BR touching it")] + self._setup_settlement(player, value)
        if action in ("RD", "PD") and self.setup_road_due is None:
            problems = self._end_setup_early()
            return problems + self._turn(player, action, value)
        next_move = f"player {due[0]}'s setup road" if due is not None else "a setup settlement"
        return [Problem("setup-order", "/1", f"{action} during the setup, where {next_move} comes next "
                                             "(the message is not replayed)",
                        "each setup turn is one BS then one BR touching it, in snake order")]

    def _setup_settlement(self, player: str, value) -> List[Problem]:
        problems: List[Problem] = []
        if self.count is None and player in self.setup_order:
            # a second settlement: the first round is over, and showed the player count
            self.count = len(self.setup_order)
            problems += self._check_count()
        expected = self._expected_setup_player()
        if expected is None:
            self._end_setup_early()
            return self._turn(player, "BS", value)
        if player != expected:
            problems.append(Problem("setup-order", "/0",
                                    f"player {player} places a setup settlement, but it is player {expected}'s turn",
                                    "the setup goes 1..n, then n..1"))
        p = self.player(player)
        c = corner_from_json(value["intersection"])
        problems += self._settlement_site(p, c, connected=False, pointer="/2/intersection")
        second = self.setup_order.count(player) == 1
        self.setup_order.append(player)
        self._place_settlement(p, c)
        if second:
            kinds = self._map().kinds
            gains = board.tally(board.PRODUCING[kinds[t]] for t in c if kinds.get(t, board.SEA) in board.PRODUCING)
            problems += self._take_from_bank(p, gains, "/2/intersection")
        self.setup_road_due = (player, c)
        return problems

    def _check_count(self) -> List[Problem]:
        counts = self.variant.player_counts
        if self.count not in counts:
            return [Problem("player-count", "/0",
                            f"the setup shows {count(self.count or 0, 'player')}; the rules of the {self.variant.name}, "
                            f"which the map calls for ({self._map().land} land tiles) and this replay follows, "
                            f"are for {' or '.join(map(str, counts))}")]
        return []

    def _setup_road(self, player: str, value) -> List[Problem]:
        due = self.setup_road_due
        assert due is not None             # a setup road is replayed only when one is due
        owner, c = due
        problems = []
        if player != owner:
            problems.append(Problem("setup-order", "/0", f"player {player} places a road, but it is "
                                                         f"player {owner}'s setup road"))
        p = self.player(owner)
        e = edge_from_json(value["path"])
        problems += self._road_site(p, e, "/2/path", setup_corner=c)
        self._place_road(p, e)
        self.setup_road_due = None
        if self.count is not None and len(self.setup_order) == 2 * self.count:
            self._start_turns()
        return problems

    def _end_setup_early(self) -> List[Problem]:
        placed = len(self.setup_order)
        if self.count is None:
            self.count = max((int(n) for n in self.players), default=1)
        self._start_turns()
        if placed != 2 * self.count:
            return [Problem("setup-incomplete", "/1",
                            f"the setup ends after {count(placed, 'settlement')}; {count(self.count, 'player')} place "
                            f"{2 * self.count}")] + self._check_count()
        return []

    def _start_turns(self) -> None:
        self.phase = TURNS
        self.current = None

    def _owed(self) -> List[Problem]:
        """Report and drop every obligation left unmet."""
        problems = []
        for name, n in sorted(self.discards_owed.items()):
            problems.append(Problem("discard-missing", "/1",
                                    f"player {name} had to discard {n} after the 7, and did not"))
        if self.robber_due:
            problems.append(Problem("robber-not-moved", "/1",
                                    f"the robber had to move after the {'7' if self.robber_due == 'seven' else 'Knight'}"))
        if self.steal_from and self.steal_needed:
            problems.append(Problem("steal-missing", "/1",
                                    f"player {self.current} had to steal from player "
                                    f"{' or '.join(sorted(self.steal_from))} after moving the robber"))
        self.discards_owed, self.robber_due, self.steal_from = {}, None, None
        if self.discards_late or self.discards_upto:
            self.discards_late, self.discards_upto = {}, {}
        return problems

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
        # stands) first, with its SBP code alone; `sgn/recovery.py` may choose the server's.
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
            self.robber_due = "seven"
        else:
            self._produce(result)
        return problems

    def _discard(self, player: str, value) -> List[Problem]:
        side = next(s for s in value if s["player"] != "B")
        name = side["player"]
        given = {r: -n for r, n in side["resources"].items()}
        amount = sum(given.values())
        p = self.player(name)
        problems = []
        owed = self.discards_owed.get(name, self.discards_late.get(name))
        upto = self.discards_upto.get(name)
        if owed is None and upto is None:
            problems.append(Problem("discard-not-owed", "/2",
                                    f"player {name} discards, but owes no discard "
                                    f"(only players with more than {rules.DISCARD_ABOVE} cards after a 7 do)"))
        elif (upto is None and amount != owed) or (upto is not None and not (owed or 0) <= amount <= upto):
            must = f"{owed}" if upto is None else f"{owed or 0} to {upto}"
            problems.append(Problem("discard-wrong-amount", "/2",
                                    f"player {name} discards {cards(amount)}, but must discard "
                                    f"{must} (half of their hand, rounded down)"))
        if player != name:
            problems.append(Problem("not-your-turn", "/0", f"player {player} sends player {name}'s discard"))
        if p.unsure:
            self._reveal(p, given)
        short = rules.lacks(p.hand, given)
        if short:
            problems.append(Problem("not-held", "/2", f"{p.holds()}; the discard is {show_cost(given)}"))
        self._pay(p, given, "the discard")
        self.discards_owed.pop(name, None)
        self.discards_late.pop(name, None)
        self.discards_upto.pop(name, None)
        return problems

    def _move_robber(self, player: str, tile: Tile) -> List[Problem]:
        problems = []
        if self.discards_owed:
            # reported here, once; a discard that comes after the robber's move is still taken
            owed = sorted(self.discards_owed.items())
            problems.append(Problem("discard-missing", "/1",
                                    " and ".join(f"player {name}" for name, _ in owed) + " had to discard "
                                    + " and ".join(str(n) for _, n in owed) + " before the robber moved"
                                    + (", and did not" if len(owed) == 1 else " (in that order), and did not")))
            self.discards_late.update(self.discards_owed)
            self.discards_owed = {}
        if not self.robber_due:
            problems.append(Problem("robber-not-allowed", "/1",
                                    "the robber moves only after a 7 or a Knight"))
        if self.current is not None and player != self.current and not self.special_built:
            problems.append(Problem("not-your-turn", "/0",
                                    f"player {player} moves the robber during player {self.current}'s turn"))
        if tile == self.robber:
            problems.append(Problem("robber-same-tile", "/2/tile", "the robber must move to a different tile"))
        self.robber, self.robber_due = tile, None
        thief = self.current or player
        victims: Set[str] = set()
        needed = False                  # a victim surely holds a card (not only unseen ones)
        for c in board.corners_of(tile):
            building = self.building_at.get(c)
            if building is not None and building[0] != thief:
                victim = self.players[building[0]]
                if rules.total(victim.hand) > 0:
                    victims.add(victim.name)
                    needed = True
                elif victim.unsure and rules.total(victim.unseen) > 0:
                    victims.add(victim.name)
        self.steal_from, self.steal_needed = victims or None, needed
        return problems

    def _steal(self, player: str, value) -> List[Problem]:
        victim_side = next((s for s in value if sum(s["resources"].values()) < 0), value[1])
        victim, resources = victim_side["player"], victim_side["resources"]
        problems = []
        if not self.steal_from:
            problems.append(Problem("steal-not-allowed", "/1",
                                    "a steal follows a robber move onto a tile where another player "
                                    "has a building and holds cards"))
        elif victim not in self.steal_from:
            problems.append(Problem("steal-wrong-victim", "/2",
                                    f"player {victim} cannot be robbed here; the robber's tile touches "
                                    f"player {' or '.join(sorted(self.steal_from))}"))
        if self.current is not None and player != self.current and not self.special_built:
            problems.append(Problem("not-your-turn", "/0",
                                    f"player {player} steals during player {self.current}'s turn"))
        p, v = self.player(player), self.player(victim)
        taken = {r: -n for r, n in resources.items()}
        if v.unsure:
            self._reveal(v, taken)
        if rules.lacks(v.hand, taken):
            problems.append(Problem("not-held", "/2", f"{v.holds()}; the steal takes {show_cost(taken)}"))
        for r, n in taken.items():
            moved = min(n, v.hand[r])
            v.hand[r] -= moved
            p.hand[r] += moved
        self.steal_from = None
        return problems


__all__ = ["Board", "Game", "Income", "OVER", "Player", "SETUP", "TURNS"]
