"""What a match's games say (docs/play.md, "Reading the summary"): wins and points per bot and
per seat with 95% intervals, a rating for games of 3 to 6 players, and a sequential test of
"is A stronger than B".

- Wins: each seat a bot holds in a game is one trial, won or not; the interval is Wilson's
  score interval, right near 0 and 1 where the normal one is not.
- Rating: Plackett-Luce, from the ranks of each game (the winner first, then by points; a
  seat that forfeited last), by openskill (the extra `play`); a bot in several seats of one
  game counts once, at its best place. `ordinal` (mu - 3 sigma) orders the table.
- SPRT: as fishtest and OpenBench run it, on the score of A against B in each game (1 when
  A's best seat finishes above B's, 1/2 for a tie, 0 below), with the normal approximation
  of the generalised SPRT (the mean and variance of the scores, with half a loss, draw and
  win more as a prior): H0 A is `elo0` stronger, H1 `elo1`. With more than two players
  it asks "does A finish ahead of B", which is what a stronger bot does, whatever the others.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .referee import Record

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> Tuple[float, float]:
    """Wilson's score interval for a rate of `wins` in `n` trials."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = centre - half, centre + half
    return (0.0 if low < 1e-12 else low, 1.0 if high > 1 - 1e-12 else high)  # (0 and 1 exactly, not a rounding away)


def ranks(record: Record) -> Dict[str, int]:
    """Each seat's place in a game: 1 the winner, then by points (equal points, equal place);
    a seat that forfeited is last."""

    def key(seat: str) -> Tuple[int, int, int]:
        return (seat == record.forfeited, seat != record.winner, -record.points.get(seat, 0))

    order = sorted(record.points, key=key)
    placed: Dict[str, int] = {}
    for i, seat in enumerate(order):
        placed[seat] = placed[order[i - 1]] if i and key(order[i - 1]) == key(seat) else i + 1
    return placed


def rows(records: Sequence[Record]) -> List[Dict[str, Any]]:
    """The results as a table: one row per seat of each game."""
    out = []
    for r in records:
        placed = ranks(r)
        faults = Counter(f[0] for f in r.faults)
        for i, bot in enumerate(r.bots):
            seat = str(i + 1)
            out.append(
                {
                    "game": r.game,
                    "seat": seat,
                    "bot": bot,
                    "points": r.points.get(seat, 0),
                    "rank": placed[seat],
                    "won": r.winner == seat,
                    "how": r.how,
                    "faults": faults[seat],
                    "requests": r.requests.get(seat, 0),
                    "seconds": round(r.seconds.get(seat, 0.0), 6),
                    "lines": len(r.log),
                }
            )
    return out


def summarise(
    records: Sequence[Record],
    sprt: Optional[Tuple[str, str]] = None,
    elo0: float = 0.0,
    elo1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> Dict[str, Any]:
    table = rows(records)
    bots: Dict[str, Dict[str, Any]] = {}
    per_seat: Dict[str, Counter] = defaultdict(Counter)
    bot_seats: Dict[str, Dict[str, List[Any]]] = defaultdict(lambda: defaultdict(list))  # bot -> seat -> rows
    for row in table:
        bot_seats[row["bot"]][row["seat"]].append(row)
        b = bots.setdefault(
            row["bot"], {"seats": 0, "wins": 0, "points": [], "faults": Counter(), "seconds": 0.0, "requests": 0}
        )
        b["seats"] += 1
        b["wins"] += row["won"]
        b["points"].append(row["points"])
        b["seconds"] += row["seconds"]
        b["requests"] += row["requests"]
        per_seat[row["seat"]]["games"] += 1
        per_seat[row["seat"]]["wins"] += row["won"]
    for r in records:
        for seat, kind, _ in r.faults:
            bots[r.bots[int(seat) - 1]]["faults"][kind] += 1
    out_bots = {}
    for name, b in bots.items():
        n, points = b["seats"], b["points"]
        mean = sum(points) / n
        sd = math.sqrt(sum((p - mean) ** 2 for p in points) / (n - 1)) if n > 1 else 0.0
        out_bots[name] = {
            "seats": n,
            "wins": b["wins"],
            "win_rate": b["wins"] / n,
            "win_interval": wilson(b["wins"], n),
            "points": mean,
            "points_interval": (mean - Z95 * sd / math.sqrt(n), mean + Z95 * sd / math.sqrt(n)),
            "faults": dict(b["faults"]),
            "ms_per_move": 1000 * b["seconds"] / b["requests"] if b["requests"] else 0.0,
            "by_seat": {
                seat: {
                    "games": len(found),
                    "wins": sum(r["won"] for r in found),
                    "win_interval": wilson(sum(r["won"] for r in found), len(found)),
                    "points": sum(r["points"] for r in found) / len(found),
                }
                for seat, found in sorted(bot_seats[name].items(), key=lambda kv: int(kv[0]))
            },
        }
    seats = {
        seat: {
            "games": c["games"],
            "wins": c["wins"],
            "win_rate": c["wins"] / c["games"],
            "win_interval": wilson(c["wins"], c["games"]),
        }
        for seat, c in sorted(per_seat.items(), key=lambda kv: int(kv[0]))
    }
    how = Counter(r.how for r in records)
    summary: Dict[str, Any] = {"games": len(records), "how": dict(how), "bots": out_bots, "seats": seats}
    summary["ratings"] = ratings(records)
    if sprt is not None:
        summary["sprt"] = sequential_test(records, sprt[0], sprt[1], elo0, elo1, alpha, beta)
    return summary


def ratings(records: Sequence[Record]) -> Optional[Dict[str, Dict[str, float]]]:
    """Plackett-Luce ratings from each game's ranks (openskill), or None without openskill."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    current: Dict[str, Any] = {}
    for r in records:
        best: Dict[str, int] = {}
        for seat, place in ranks(r).items():
            bot = r.bots[int(seat) - 1]
            best[bot] = min(best.get(bot, place), place)
        if len(best) < 2:
            continue
        names = sorted(best)
        teams = [[current.get(n) or model.rating(name=n)] for n in names]
        rated = model.rate(teams, ranks=[best[n] for n in names])
        for n, (rating,) in zip(names, rated):
            current[n] = rating
    return {
        n: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
        for n, r in sorted(current.items(), key=lambda kv: -kv[1].ordinal())
    }


def scores(records: Sequence[Record], a: str, b: str) -> List[float]:
    """A's score against B in each game where both sat: 1, 1/2 or 0 (module docstring)."""
    out = []
    for r in records:
        placed = ranks(r)
        best_a = min((placed[str(i + 1)] for i, bot in enumerate(r.bots) if bot == a), default=None)
        best_b = min((placed[str(i + 1)] for i, bot in enumerate(r.bots) if bot == b), default=None)
        if best_a is not None and best_b is not None:
            out.append(1.0 if best_a < best_b else 0.5 if best_a == best_b else 0.0)
    return out


def sequential_test(
    records: Sequence[Record], a: str, b: str, elo0: float, elo1: float, alpha: float, beta: float
) -> Dict[str, Any]:
    """The generalised SPRT's log-likelihood ratio on the scores, its bounds and its verdict:
    "H1" (A is `elo1` stronger), "H0" (A is no more than `elo0` stronger) or "continue"."""
    xs = scores(records, a, b)
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = len(xs)
    llr = 0.0
    if n:
        # the losses, draws and wins, each with half a game more (as a prior), so that a run
        # of one result alone still has a variance to judge by
        counts = {x: xs.count(x) + 0.5 for x in (0.0, 0.5, 1.0)}
        total = sum(counts.values())
        mean = sum(x * c for x, c in counts.items()) / total
        var = sum(c * (x - mean) ** 2 for x, c in counts.items()) / total
        s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
        llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return {
        "a": a,
        "b": b,
        "games": n,
        "score": sum(xs) / n if n else None,
        "llr": llr,
        "bounds": (lower, upper),
        "elo0": elo0,
        "elo1": elo1,
        "verdict": verdict,
    }
