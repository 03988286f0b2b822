"""The recorded catanatron games of t/data, and the replay held against catanatron's own end,
for t/test_adapters_catanatron.py.

catanatron's JSON of a game holds its end: every player's hand, points, Knights played,
development cards held, and who holds the longest road and the largest army
(`player_state`); the bank is what the hands leave of 19 of each resource. The replay of
the converted game is compared with it twice: under the rulebook (`sgn validate`), and
under catanatron's production, which pays nobody a resource the bank cannot pay everyone
(the rulebook gives a player owed it alone what is left): played so, the replay must end
where catanatron ended, but for catanatron's count of the longest road (docs/engines.md).
"""

from __future__ import annotations

import json
import tarfile
from pathlib import Path
from typing import Dict, List, Tuple

from sgn.adapters import catanatron
from sgn.game import Game
from sgn.rules import RESOURCES

DATA = Path(__file__).resolve().parent / "data"
RELEASED = DATA / "catanatron-json.tar.xz"  # catanatron 3.2.1: `actions`
LATER = DATA / "catanatron-3.3-json.tar.xz"  # catanatron 3.3.0 (unreleased): `action_records`
CARDS = {"KN": "KNIGHT", "VP": "VICTORY_POINT", "RB": "ROAD_BUILDING", "YP": "YEAR_OF_PLENTY", "MO": "MONOPOLY"}


def recorded(path: Path) -> List[Tuple[str, dict]]:
    with tarfile.open(path) as archive:
        return [
            (m.name, json.loads(archive.extractfile(m).read()))
            for m in sorted(archive.getmembers(), key=lambda m: m.name)
            if m.isfile()
        ]


def messages(data: dict) -> List[list]:
    """The game's moves, from its map: the header the converter writes first is left out
    (t/test_records.py checks it), so that a replay follows the rules a test names."""
    return [m for _, m, _ in catanatron.convert(data) if m is not None and m[1] != "HD"]


def shortages(replay: Game, number: int) -> Dict[str, Tuple[str, int]]:
    """The resources a roll of `number` cannot pay everyone, owed to one player alone: the
    rulebook gives that player what is left; catanatron gives nobody anything."""
    wanted: Dict[str, Dict[str, int]] = {}
    for income in replay.income.get(number, {}).values():
        if income.tile != replay.robber:
            owed = wanted.setdefault(income.resource, {})
            owed[income.owner.name] = owed.get(income.owner.name, 0) + income.cards
    return {
        r: (next(iter(owed)), replay.bank[r])
        for r, owed in wanted.items()
        if sum(owed.values()) > replay.bank[r] and len(owed) == 1
    }


def replay_as_catanatron(game: List[list]) -> Tuple[Game, List[int]]:
    """The game replayed with catanatron's production; the lines of the rolls where it
    differs from the rulebook's."""
    replay, differing = Game(), []
    for n, message in enumerate(game, 1):
        short = shortages(replay, message[2]["result"]) if message[1] == "RD" and replay.board else {}
        replay.apply(message, n)
        for r, (name, left) in short.items():  # take back what the rulebook gave
            replay.player(name).hand[r] -= left
            replay.bank[r] += left
            differing.append(n)
    return replay, differing


def end_differences(data: dict, replay: Game) -> List[Tuple[str, object, object]]:
    """(what, the replay's, catanatron's) for each way the replay's end differs."""
    found = []
    state = data["player_state"]
    held = {r: 0 for r in RESOURCES}
    for name, theirs in catanatron.end_state(data).items():
        p, key = replay.player(name), f"P{int(name) - 1}_"
        for r, n in theirs["hand"].items():
            held[r] += n
        cards = {c: state[f"{key}{card}_IN_HAND"] for c, card in CARDS.items()}
        hand = {r: theirs["hand"][r] for r in sorted(theirs["hand"])}
        ours = {
            # (a hand in doubt, where the rulebook's bank would have paid a roll otherwise: catanatron's must be one of its ways)
            "hand": hand if replay.may_hold(name, hand) else replay.hand_range(name),
            "points": replay.points(name),
            "knights": p.knights,
            "longest road": replay.longest_road == name,
            "largest army": replay.largest_army == name,
            "cards": {c: p.cards[c] + p.new_cards[c] for c in CARDS},
        }
        theirs = dict(theirs, hand={r: theirs["hand"][r] for r in sorted(theirs["hand"])}, cards=cards)
        found += [(f"{what} of player {name}", ours[what], theirs[what]) for what in ours if ours[what] != theirs[what]]
    bank = {r: 19 - held[r] for r in RESOURCES}
    if not replay.may_hold("B", bank):
        found.append(("bank", replay.hand_range("B"), bank))
    return found


def only_the_longest_road(differences) -> bool:
    """The differences are the longest road's holder and the 2 points it is worth (catanatron
    counts a trail one road short at another player's building, and breaks a tie after a cut
    by the order of its dict)."""
    award = {}
    for what, ours, theirs in differences:
        if what.startswith("longest road of player "):
            award[what.rsplit(" ", 1)[-1]] = int(ours) - int(theirs)
    for what, ours, theirs in differences:
        name = what.rsplit(" ", 1)[-1]
        if what.startswith("longest road "):
            continue
        if what.startswith("points ") and ours - theirs == 2 * award.get(name, 0) != 0:
            continue
        return False
    return True
