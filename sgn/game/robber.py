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
from .state import AMOUNT_IN_DOUBT, State


def owed(g: State) -> List[Problem]:
    """Report and drop every obligation left unmet."""
    problems = _unsure_discards_missing(g)
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
    if g.steal_from and not _nothing_to_steal(g):
        problems.append(
            Problem(
                "steal-missing",
                "/1",
                f"player {g.current} had to steal from player "
                f"{' or '.join(sorted(g.steal_from))} after moving the robber",
            )
        )
    g.discards_owed, g.robber_due, g.steal_from = {}, None, None
    if g.unseen.discards_late:
        g.unseen.discards_late = {}
    return problems


def _nothing_to_steal(g: State) -> bool:
    """Whether no steal was owed after all: no victim held a card (the worlds where one
    did are dropped, when their hands are in doubt)."""
    victims = sorted(g.steal_from or ())
    if not ledger.in_doubt(g, *victims):
        return not g.steal_needed
    kept = ledger.involve(g, victims).empty(victims)
    ledger.settle(g)
    return kept


def _unsure_discards_missing(g: State) -> List[Problem]:
    """Players who may have owed a discard (their hands in doubt) and sent none: the worlds
    where they owed one are dropped; reported where every world owed one."""
    problems = []
    for name in sorted(g.unseen.discards_unsure):
        d = g.unseen.doubt
        if d is None or name not in d:
            continue
        if not d.where_holding(name, lambda least, most: least <= rules.DISCARD_ABOVE):
            least, most = d.totals(name)
            # still taken late: the same discard in every world, or half the hand in those kept
            g.unseen.discards_late[name] = least // 2 if least // 2 == most // 2 else AMOUNT_IN_DOUBT
            problems.append(
                Problem(
                    "discard-missing",
                    "/1",
                    f"player {name} had to discard after the 7, and did not: they hold "
                    f"{least}{'' if least == most else f' to {most}'} cards ({ledger.holds(g, name)})",
                )
            )
        ledger.settle(g)
    g.unseen.discards_unsure = set()
    return problems


def discard(g: State, player: str, value) -> List[Problem]:
    side = next(s for s in value if s["player"] != "B")
    name = side["player"]
    given = {r: -n for r, n in side["resources"].items()}
    amount = sum(given.values())
    g.player(name)
    problems = []
    owed = g.discards_owed.get(name, g.unseen.discards_late.get(name))
    if name in g.unseen.discards_unsure or owed == AMOUNT_IN_DOUBT:
        problems += _unsure_amount(g, name, amount)
    elif owed is None:
        problems.append(
            Problem(
                "discard-not-owed",
                "/2",
                f"player {name} discards, but owes no discard "
                f"(only players with more than {rules.DISCARD_ABOVE} cards after a 7 do)",
            )
        )
    elif amount != owed:
        problems.append(
            Problem(
                "discard-wrong-amount",
                "/2",
                f"player {name} discards {cards(amount)}, but must discard {owed} (half of their hand, rounded down)",
            )
        )
    if player != name:
        problems.append(Problem("not-your-turn", "/0", f"player {player} sends player {name}'s discard"))
    said = ledger.holds_now(g, name)
    if not ledger.hand_over(g, name, ledger.BANK, given):
        problems.append(Problem("not-held", "/2", f"{said()}; the discard is {show_cost(given)}"))
    g.discards_owed.pop(name, None)
    g.unseen.discards_late.pop(name, None)
    g.unseen.discards_unsure.discard(name)
    return problems


def _unsure_amount(g: State, name: str, amount: int) -> List[Problem]:
    """A discard by a player whose hand is in doubt: the worlds where it is half their hand
    are kept; where none is, the amount is wrong."""
    d = ledger.involve(g, [name])
    least, most = d.totals(name)

    def owes(low: int, high: int) -> bool:  # (half of a hand over the limit: `amount`)
        return max(low, 2 * amount, rules.DISCARD_ABOVE + 1) <= min(high, 2 * amount + 1)

    if d.where_holding(name, owes):
        ledger.settle(g)
        return []
    return [
        Problem(
            "discard-wrong-amount",
            "/2",
            f"player {name} discards {cards(amount)}, but holds {least}"
            f"{'' if least == most else f' to {most}'} cards here ({ledger.holds(g, name)}): "
            f"half of their hand, rounded down, is {least // 2}{'' if least == most else f' to {most // 2}'}",
        )
    ]


def move_robber(g: State, player: str, tile: Tile) -> List[Problem]:
    problems = _unsure_discards_missing(g) if g.unseen.discards_unsure else []
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
        g.unseen.discards_late.update(g.discards_owed)
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
    needed = False  # a victim surely holds a card (not only in some ways the cards may lie)
    for c in board.corners_of(tile):
        building = g.building_at.get(c)
        if building is not None and building[0] != thief:
            least, most = ledger.total_range(g, building[0])
            if most > 0:
                victims.add(building[0])
                needed = needed or least > 0
    g.steal_from, g.steal_needed = victims or None, needed
    return problems


def steal(g: State, player: str, value) -> List[Problem]:
    victim_side = next((s for s in value if sum(s["resources"].values()) < 0), value[1])
    victim, resources = victim_side["player"], victim_side["resources"]
    problems = []
    if not g.steal_from:
        problems.append(Problem("steal-not-allowed", "/1", _why_no_steal(g, player)))
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
    g.player(player), g.player(victim)
    taken = {r: -n for r, n in resources.items()}
    said = ledger.holds_now(g, victim)
    if not ledger.hand_over(g, victim, player, taken):
        problems.append(Problem("not-held", "/2", f"{said()}; the steal takes {show_cost(taken)}"))
    g.steal_from = None
    return problems


def _why_no_steal(g: State, thief: str) -> str:
    """Which condition of a steal failed: a robber move just before it, another player's
    building on the robber's tile, a card in that player's hand."""
    rule = "a steal follows a robber move onto a tile where another player has a building and holds cards"
    if g.robber is None:
        return f"{rule}: the robber has not been placed"
    owners = sorted(
        {b[0] for c in board.corners_of(g.robber) for b in [g.building_at.get(c)] if b and b[0] != thief}, key=int
    )
    tile = f"[{g.robber[0]},{g.robber[1]}]"
    if not owners:
        return f"{rule}: no other player's building touches the robber's tile {tile}"
    if all(ledger.total_range(g, name)[1] == 0 for name in owners):
        return f"{rule}: {' and '.join(f'player {n}' for n in owners)}, at the robber's tile {tile}, hold no card"
    return f"{rule}: no robber move comes before it in this turn, or its steal was taken already"
