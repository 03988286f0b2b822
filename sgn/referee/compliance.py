"""`sgn play --check BOT`: a bot driven through every kind of request, as fastchess's
`--compliance` drives a chess engine, with each fault named (docs/play.md).

The bot plays 4-player games, then 6-player ones (for the Special Building Phase), against
random bots that offer it trades often, with faulty replies replaced so that the games go
on, until it has met every kind of request or the games run out. A trade confirmation is
asked only of a bot that offers trades, so a bot that never offers is not faulted for it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, List, Tuple

from .bots import RandomBot
from .match import BotSpec, make_seat
from .protocol import REQUESTS, TRADE_CONFIRM
from .referee import REPLACE, Referee
from .seats import InProcess

MAX_GAMES = 12


class _Watched:
    """A seat that counts the requests of each kind its bot is asked, and its faults."""

    def __init__(self, seat: Any):
        self.seat = seat
        self.name = seat.name
        self.asked: Counter = Counter()
        self.faults: List[Dict[str, str]] = []

    def start(self, info: Dict[str, Any]) -> Any:
        fault = self.seat.start(info)
        if fault is not None:
            self.faults.append({"request": "game", "kind": fault.kind, "detail": fault.detail})
        return fault

    def tell(self, messages: List[Dict[str, Any]]) -> None:
        self.seat.tell(messages)

    def ask(self, request: Dict[str, Any], offers: bool) -> Tuple[Any, float]:
        self.asked[request["kind"]] += 1
        chosen, took = self.seat.ask(request, offers)
        if hasattr(chosen, "kind") and hasattr(chosen, "detail"):
            self.faults.append({"request": request["kind"], "kind": chosen.kind, "detail": chosen.detail})
        return chosen, took

    @property
    def stderr(self) -> str:
        return self.seat.stderr

    @property
    def offers(self) -> bool:
        return self.seat.offers

    @property
    def broken(self) -> Any:
        return getattr(self.seat, "broken", None)

    def close(self) -> None:
        self.seat.close()


def check_bot(spec: BotSpec, move_ms: int = 1000, seed: int = 0) -> Dict[str, Any]:
    watched = _Watched(make_seat(spec))
    games = 0
    try:
        for game in range(MAX_GAMES):
            players = 4 if game % 2 == 0 else 6
            others = [InProcess("random", RandomBot(seed=game * 10 + i, offers=0.5)) for i in range(players - 1)]
            seats = others[: game % players] + [watched] + others[game % players :]
            Referee(
                seats,
                game=f"check-{game}",
                seed=f"{seed}:check:{game}",
                move_ms=move_ms,
                on_fault=REPLACE,
                ask_forced=True,
            ).play()
            games += 1
            if all(watched.asked[k] for k in REQUESTS if k != TRADE_CONFIRM) and game >= 1:
                break
    finally:
        stderr = watched.stderr
        watched.close()
    unmet = [k for k in REQUESTS if not watched.asked[k] and k != TRADE_CONFIRM]
    by_kind = Counter(f["request"] for f in watched.faults)
    return {
        "bot": spec.name,
        "games": games,
        "compliant": not watched.faults and not unmet,
        "requests": {k: {"asked": watched.asked[k], "faults": by_kind[k]} for k in REQUESTS},
        "faults": watched.faults,
        "unmet": unmet,
        "stderr": stderr[-4000:],
    }
