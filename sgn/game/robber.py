"""The robber and what a 7 sets off: the discards, the robber's move, the steal, and
what is dropped, reported, when a turn goes on without them."""

from __future__ import annotations

from typing import List, Set

from .. import board, rules
from ..board import Tile
from ..diagnostic import Problem
from ..rules import show_cost
from . import ledger
from .pieces import cards
from .state import State


def owed(g: State) -> List[Problem]:
    """Report and drop every obligation left unmet."""
    problems = []
    for name, n in sorted(g.discards_owed.items()):
        problems.append(Problem("discard-missing", "/1", f"player {name} had to discard {n} after the 7, and did not"))
    if g.robber_due:
        problems.append(
            Problem(
                "robber-not-moved",
                "/1",
                f"the robber had to move after the {'7' if g.robber_due == 'seven' else 'Knight'}",
            )
        )
    if g.steal_from and g.steal_needed:
        problems.append(
            Problem(
                "steal-missing",
                "/1",
                f"player {g.current} had to steal from player "
                f"{' or '.join(sorted(g.steal_from))} after moving the robber",
            )
        )
    g.discards_owed, g.robber_due, g.steal_from = {}, None, None
    if g.discards_late or g.discards_upto:
        g.discards_late, g.discards_upto = {}, {}
    return problems


def discard(g: State, player: str, value) -> List[Problem]:
    side = next(s for s in value if s["player"] != "B")
    name = side["player"]
    given = {r: -n for r, n in side["resources"].items()}
    amount = sum(given.values())
    p = g.player(name)
    problems = []
    owed = g.discards_owed.get(name, g.discards_late.get(name))
    upto = g.discards_upto.get(name)
    if owed is None and upto is None:
        problems.append(
            Problem(
                "discard-not-owed",
                "/2",
                f"player {name} discards, but owes no discard "
                f"(only players with more than {rules.DISCARD_ABOVE} cards after a 7 do)",
            )
        )
    elif (upto is None and amount != owed) or (upto is not None and not (owed or 0) <= amount <= upto):
        must = f"{owed}" if upto is None else f"{owed or 0} to {upto}"
        problems.append(
            Problem(
                "discard-wrong-amount",
                "/2",
                f"player {name} discards {cards(amount)}, but must discard {must} (half of their hand, rounded down)",
            )
        )
    if player != name:
        problems.append(Problem("not-your-turn", "/0", f"player {player} sends player {name}'s discard"))
    if p.unsure:
        ledger.reveal(g, p, given)
    short = rules.lacks(p.hand, given)
    if short:
        problems.append(Problem("not-held", "/2", f"{p.holds()}; the discard is {show_cost(given)}"))
    ledger.pay(g, p, given, "the discard")
    g.discards_owed.pop(name, None)
    g.discards_late.pop(name, None)
    g.discards_upto.pop(name, None)
    return problems


def move_robber(g: State, player: str, tile: Tile) -> List[Problem]:
    problems = []
    if g.discards_owed:
        # reported here, once; a discard that comes after the robber's move is still taken
        owed = sorted(g.discards_owed.items())
        problems.append(
            Problem(
                "discard-missing",
                "/1",
                " and ".join(f"player {name}" for name, _ in owed)
                + " had to discard "
                + " and ".join(str(n) for _, n in owed)
                + " before the robber moved"
                + (", and did not" if len(owed) == 1 else " (in that order), and did not"),
            )
        )
        g.discards_late.update(g.discards_owed)
        g.discards_owed = {}
    if not g.robber_due:
        problems.append(Problem("robber-not-allowed", "/1", "the robber moves only after a 7 or a Knight"))
    if g.current is not None and player != g.current and not g.special_built:
        problems.append(
            Problem("not-your-turn", "/0", f"player {player} moves the robber during player {g.current}'s turn")
        )
    if tile == g.robber:
        problems.append(Problem("robber-same-tile", "/2/tile", "the robber must move to a different tile"))
    g.robber, g.robber_due = tile, None
    thief = g.current or player
    victims: Set[str] = set()
    needed = False  # a victim surely holds a card (not only unseen ones)
    for c in board.corners_of(tile):
        building = g.building_at.get(c)
        if building is not None and building[0] != thief:
            victim = g.players[building[0]]
            if rules.total(victim.hand) > 0:
                victims.add(victim.name)
                needed = True
            elif victim.unsure and rules.total(victim.unseen) > 0:
                victims.add(victim.name)
    g.steal_from, g.steal_needed = victims or None, needed
    return problems


def steal(g: State, player: str, value) -> List[Problem]:
    victim_side = next((s for s in value if sum(s["resources"].values()) < 0), value[1])
    victim, resources = victim_side["player"], victim_side["resources"]
    problems = []
    if not g.steal_from:
        problems.append(
            Problem(
                "steal-not-allowed",
                "/1",
                "a steal follows a robber move onto a tile where another player has a building and holds cards",
            )
        )
    elif victim not in g.steal_from:
        problems.append(
            Problem(
                "steal-wrong-victim",
                "/2",
                f"player {victim} cannot be robbed here; the robber's tile touches "
                f"player {' or '.join(sorted(g.steal_from))}",
            )
        )
    if g.current is not None and player != g.current and not g.special_built:
        problems.append(Problem("not-your-turn", "/0", f"player {player} steals during player {g.current}'s turn"))
    p, v = g.player(player), g.player(victim)
    taken = {r: -n for r, n in resources.items()}
    if v.unsure:
        ledger.reveal(g, v, taken)
    if rules.lacks(v.hand, taken):
        problems.append(Problem("not-held", "/2", f"{v.holds()}; the steal takes {show_cost(taken)}"))
    for r, n in taken.items():
        moved = min(n, v.hand[r])
        v.hand[r] -= moved
        p.hand[r] += moved
    g.steal_from = None
    return problems
