"""The setup: each player's two settlements and roads, in snake order, the second
settlement's resources, and the count of players it shows."""

from __future__ import annotations

from typing import List, Optional

from .. import board
from ..board import corner_from_json, edge_from_json
from ..diagnostic import Problem
from ..words import count
from . import ledger, placing, turns
from .pieces import tile_from_json
from .state import TURNS, State


def expected_setup_player(g: State) -> Optional[str]:
    """Who places the next setup settlement (None once the setup is done). In the first
    round, the lowest-numbered player who has not placed; in the second, the highest who
    has not placed again. So a swap of two players costs one error, not one per line."""
    order = g.setup_order
    if g.count is None:
        n = 1
        while str(n) in order:
            n += 1
        return str(n)
    second = order[g.count :]
    if len(order) >= 2 * g.count:
        return None
    return next(str(n) for n in range(g.count, 0, -1) if str(n) not in second)


def setup(g: State, player: str, action: str, value) -> List[Problem]:
    if action == "MR" and not g.setup_order:
        tile = tile_from_json(value["tile"])
        g.robber = tile
        if tile not in g.the_map().deserts:
            return [
                Problem(
                    "robber-start-not-desert",
                    "/2/tile",
                    "the robber starts on " + ("a desert" if len(g.the_map().deserts) > 1 else "the desert"),
                )
            ]
        return []
    if action == "BR" and g.setup_road_due is not None:
        return setup_road(g, player, value)
    if action == "BS" and g.setup_road_due is None:
        return setup_settlement(g, player, value)
    due = g.setup_road_due
    if action == "BS" and due is not None:  # the last setup turn's road is missing: go on
        owner = due[0]
        g.setup_road_due = None
        return [
            Problem(
                "setup-order",
                "/1",
                f"player {owner}'s setup road is missing before this settlement",
                "each setup turn is one BS then one BR touching it",
            )
        ] + setup_settlement(g, player, value)
    if action in ("RD", "PD") and g.setup_road_due is None:
        problems = end_setup_early(g)
        return problems + turns.turn(g, player, action, value)
    next_move = f"player {due[0]}'s setup road" if due is not None else "a setup settlement"
    return [
        Problem(
            "setup-order",
            "/1",
            f"{action} during the setup, where {next_move} comes next (the message is not replayed)",
            "each setup turn is one BS then one BR touching it, in snake order",
        )
    ]


def setup_settlement(g: State, player: str, value) -> List[Problem]:
    problems: List[Problem] = []
    if g.count is None and player in g.setup_order:
        # a second settlement: the first round is over, and showed the player count
        g.count = len(g.setup_order)
        problems += check_count(g)
    expected = expected_setup_player(g)
    if expected is None:
        end_setup_early(g)
        return turns.turn(g, player, "BS", value)
    if player != expected:
        problems.append(
            Problem(
                "setup-order",
                "/0",
                f"player {player} places a setup settlement, but it is player {expected}'s turn",
                "the setup goes 1..n, then n..1",
            )
        )
    p = g.player(player)
    c = corner_from_json(value["intersection"])
    problems += placing.settlement_site(g, p, c, connected=False, pointer="/2/intersection")
    second = g.setup_order.count(player) == 1
    g.setup_order.append(player)
    placing.place_settlement(g, p, c)
    if second:
        kinds = g.the_map().kinds
        gains = board.tally(board.PRODUCING[kinds[t]] for t in c if kinds.get(t, board.SEA) in board.PRODUCING)
        problems += ledger.take_from_bank(g, p, gains, "/2/intersection")
    g.setup_road_due = (player, c)
    return problems


def check_count(g: State) -> List[Problem]:
    counts = g.variant.player_counts
    if g.count not in counts:
        return [
            Problem(
                "player-count",
                "/0",
                f"the setup shows {count(g.count or 0, 'player')}; the rules of the {g.variant.name}, "
                f"which the map calls for ({g.the_map().land} land tiles) and this replay follows, "
                f"are for {' or '.join(map(str, counts))}",
            )
        ]
    return []


def setup_road(g: State, player: str, value) -> List[Problem]:
    due = g.setup_road_due
    assert due is not None  # a setup road is replayed only when one is due
    owner, c = due
    problems = []
    if player != owner:
        problems.append(
            Problem("setup-order", "/0", f"player {player} places a road, but it is player {owner}'s setup road")
        )
    p = g.player(owner)
    e = edge_from_json(value["path"])
    problems += placing.road_site(g, p, e, "/2/path", setup_corner=c)
    placing.place_road(g, p, e)
    g.setup_road_due = None
    if g.count is not None and len(g.setup_order) == 2 * g.count:
        start_turns(g)
    return problems


def end_setup_early(g: State) -> List[Problem]:
    placed = len(g.setup_order)
    if g.count is None:
        g.count = max((int(n) for n in g.players), default=1)
    start_turns(g)
    if placed != 2 * g.count:
        return [
            Problem(
                "setup-incomplete",
                "/1",
                f"the setup ends after {count(placed, 'settlement')}; {count(g.count, 'player')} place {2 * g.count}",
            )
        ] + check_count(g)
    return []


def start_turns(g: State) -> None:
    g.phase = TURNS
    g.current = None
