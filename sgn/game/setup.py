"""The setup: each player's two settlements and roads, in snake order, the second
settlement's resources, and the count of players it shows."""
from __future__ import annotations

from typing import List, Optional

from .. import board
from .pieces import corner_from_json, edge_from_json, tile_from_json
from ..pipeline.semantic import Problem
from .state import TURNS
from .turns import Turns
from ..words import count


class Setup(Turns):
    """A game state with its setup."""

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
