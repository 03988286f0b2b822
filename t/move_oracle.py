"""The brute force the move generator is held to (t/test_legal_moves.py): a wide set of
candidate messages for a position, each tried with `Game.apply` on a copy of the game. It
shares nothing with `sgn.game.moves` but the rules replay: its places are every corner and
edge of every tile of the map that the semantic layer passes, its players 1 to 6, its cards
every kind, its discards every multiset of the sizes near half a hand."""

from __future__ import annotations

from functools import lru_cache
from typing import List, Tuple

from sgn import board, rules
from sgn.diagnostic import ERROR
from sgn.game.move_forms import multisets
from sgn.layers.semantic import SemanticChecker
from sgn.rules import RESOURCES

PLAYERS = [str(n) for n in range(1, 7)]


@lru_cache(maxsize=8)
def _places(dm_json: str) -> Tuple[list, list, list]:
    """(intersections, paths, tiles) of a map that the semantic layer passes, as listed."""
    import json

    dm = json.loads(dm_json)
    checker = SemanticChecker()
    checker.problems(dm)
    tiles = [tuple(t["tile"]) for t in dm[2]["tiles"]]
    corners = sorted({c for t in tiles for c in board.corners_of(t)}, key=board.canonical_corner)
    edges = sorted({e for c in corners for e in board.edges_of_corner(c)}, key=board.canonical_edge)

    def valid(message):
        return not [p for p in checker.problems(message) if p.severity == ERROR]

    listed_corners = [[list(t) for t in board.canonical_corner(c)] for c in corners]
    listed_edges = [[[list(t) for t in end] for end in board.canonical_edge(e)] for e in edges]
    return (
        [c for c in listed_corners if valid(["1", "BS", {"intersection": c}])],
        [e for e in listed_edges if valid(["1", "BR", {"path": e}])],
        [list(t) for t in sorted(tiles) if valid(["1", "MR", {"tile": list(t)}])],
    )


def candidates(game, dm: list) -> List[list]:
    """Every message of the kinds the generator lists, for every player, that the position
    could conceivably take."""
    import json

    intersections, paths, tiles = _places(json.dumps(dm))
    out: List[list] = []
    count = game.count or 6
    for x in PLAYERS[:count]:
        out += [[x, code, {"intersection": c}] for code in ("BS", "BC") for c in intersections]
        out += [[x, "BR", {"path": p}] for p in paths]
        out += [[x, "RD", {"result": n}] for n in [*range(2, 13), "?"]]
        out += [[x, "MR", {"tile": t}] for t in tiles]
        out += [[x, "BD", {"cCode": c}] for c in [*rules.DECK, "?"]]
        out += [[x, "PD", {"cCode": c}] for c in ("KN", "RB", "VP")]
        out += [[x, "PD", {"cCode": "MO", "rCodes": [r]}] for r in RESOURCES]
        out += [[x, "PD", {"cCode": "YP", "rCodes": [a, b]}] for i, a in enumerate(RESOURCES) for b in RESOURCES[i:]]
        for y in PLAYERS[:count]:
            if y != x:
                out += [
                    [x, "ST", [{"player": x, "resources": {r: 1}}, {"player": y, "resources": {r: -1}}]]
                    for r in [*RESOURCES, "?"]
                ]
        for r in RESOURCES:
            for w in RESOURCES:
                if w != r:
                    out += [
                        [
                            x,
                            "TR",
                            [{"player": x, "resources": {r: -n, w: 1}}, {"player": "B", "resources": {r: n, w: -1}}],
                        ]
                        for n in (2, 3, 4)
                    ]
        if x in game.players:
            least, most = game.hand_range(x)
            sizes = set(range(max(1, sum(least.values()) // 2 - 1), sum(most.values()) // 2 + 2))
            sizes |= {owed[x] for owed in (game.discards_owed, game.unseen.discards_late) if x in owed}
            for size in sorted(sizes):
                for counts in multisets([most[r] for r in RESOURCES], size):
                    given = {r: n for r, n in zip(RESOURCES, counts) if n}
                    out.append(
                        [
                            x,
                            "TR",
                            [
                                {"player": x, "resources": {r: -n for r, n in given.items()}},
                                {"player": "B", "resources": dict(given)},
                            ],
                        ]
                    )
    return out


def accepted(game, message, line: int) -> bool:
    """Whether `apply` takes the message without an error; in the first round of the setup,
    without a warning either (the count of players it would make is one the map's rules
    are for), and from a player whose number such a count can hold."""
    problems = game.clone().apply(message, line)
    if game.phase == "setup" and game.count is None:
        return not problems and int(message[0]) <= max(game.variant.player_counts)
    return not any(p.severity == ERROR for p in problems)
