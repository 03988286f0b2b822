"""One game between bots, refereed: the rules replay decides who is asked what
(`Game.decisions`), each reply is judged (`protocol.read_reply`), chance is drawn from the
game's seed (`Chance`), and each seat is told every line as it may see it (`redact.hide`).

Fair by construction: a seat is told only the SGN lines of the game, redacted for it, and
its own requests; the referee's chance is drawn from streams of its own (the board, the
dice, the deck's order, the steals), so that the same seed and the same replies give the
same game, byte for byte, and the k-th roll of a game is the same whoever sits where.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from .. import board, messages
from ..game import move_forms as forms
from ..game.core import OVER, Game
from ..game.decisions import DISCARD, TURN, discard_move, is_chance
from ..game.rule_profiles import STANDARD
from ..layers import records
from ..notation.redact import HIDES, hide
from ..play import random_map
from ..rules import FIVE_SIX, RESOURCES
from . import protocol
from .protocol import MAX_OFFERS, TRADE_CONFIRM, TRADE_RESPONSE, Fault, Offer

FORFEIT, REPLACE = "forfeit", "replace"
ON_FAULT = (FORFEIT, REPLACE)
MAX_TURNS = 1000  # a game not won by then is stopped ("turn-limit")


class RefereeError(RuntimeError):
    """A move the referee made that the rules refuse: a bug of the referee, never a bot's."""


class Chance:
    """The referee's chance, from the game's seed, each source its own stream: the board,
    the dice, the order of the deck (shuffled once: the k-th card bought is the k-th of it),
    and the steals."""

    def __init__(self, seed: str):
        self.dice = random.Random(f"{seed}:dice")
        self.steals = random.Random(f"{seed}:steals")
        self.seed = seed
        self.order: List[str] = []

    def deal(self, deck: Dict[str, int]) -> None:
        """The deck's order, shuffled once the map says which deck it is."""
        self.order = [c for c in sorted(deck) for _ in range(deck[c])]
        random.Random(f"{self.seed}:deck").shuffle(self.order)

    def board(self, players: int) -> dict:
        spec = board.EXTENDED if players in FIVE_SIX.player_counts else board.STANDARD
        return random_map(random.Random(f"{self.seed}:board"), spec)

    def draw(self, game: Game, move: Sequence[Any]) -> list:
        """The outcome of a chance move (`?`), as the table's dice, deck and hands give it."""
        seat, action, value = move
        if action == "RD":
            return messages.roll(seat, self.dice.randint(1, 6) + self.dice.randint(1, 6))
        if action == "BD":
            drawn = len(self.order) - sum(game.deck.values())  # (the cards bought so far)
            return messages.buy_card(seat, self.order[drawn])
        victim = next(side["player"] for side in value if side["player"] != seat)
        hand = game.players[victim].hand
        cards = [r for r in RESOURCES for _ in range(hand[r])]
        return messages.steal(seat, victim, cards[self.steals.randrange(len(cards))])


class Record(NamedTuple):
    """One game played: its SGN lines (its header first, then the game with the end of each
    turn: docs/format.md, "Records"), who sat where, and how it ended; the faults as (seat,
    kind, what); `stderr` of the seats that faulted."""

    game: str
    bots: List[str]  # the bot at each seat, seat 1 first
    log: List[list]
    winner: Optional[str]
    points: Dict[str, int]
    how: str  # "won", "forfeited", "time" (forfeited on time) or "turn-limit"
    forfeited: Optional[str]
    faults: List[Tuple[str, str, str]]
    requests: Dict[str, int]
    seconds: Dict[str, float]
    stderr: Dict[str, str]

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        """Sent from a worker with its lines as text (`protocol.Lines`): its parent takes it in
        without making an object of each message."""
        log = self.log if isinstance(self.log, protocol.Lines) else protocol.Lines(protocol.encode(self.log))
        return Record, (self.game, self.bots, log) + tuple(self)[3:]


class _Forfeit(Exception):
    def __init__(self, seat: str):
        self.seat = seat


class Referee:
    """Plays one game between `seats` (seat "1" first; `sgn/referee/seats.py`)."""

    def __init__(
        self,
        seats: Sequence[Any],
        *,
        game: str,
        seed: str,
        rules: str = STANDARD,
        move_ms: int = 1000,
        on_fault: str = FORFEIT,
        max_turns: int = MAX_TURNS,
        ask_forced: bool = False,
        opening: Sequence[str] = (),
    ):
        if on_fault not in ON_FAULT:
            raise ValueError(f"on_fault is one of {', '.join(ON_FAULT)}, not {on_fault!r}")
        self.seats = {str(i + 1): seat for i, seat in enumerate(seats)}
        self.id, self.seed, self.rules, self.move_ms = game, seed, rules, move_ms
        self.on_fault, self.max_turns, self.ask_forced = on_fault, max_turns, ask_forced
        self.opening = opening  # the first lines, as JSON text (sgn/referee/openings.py): none, a random board
        self.game = Game(rules, as_played=True)  # (the referee is the engine: its profile's rules alone)
        self.chance = Chance(seed)
        self.fallback = random.Random(f"{seed}:faults")  # the moves put in place of faulty replies
        self.log: List[list] = []
        self.pending: Dict[str, List[Dict[str, Any]]] = {s: [] for s in self.seats}
        self.faults: List[Tuple[str, str, str]] = []
        self.dead: set = set()  # seats whose bot cannot go on: their moves are put in place
        self.requests: Counter = Counter()
        self.seconds: Counter = Counter()
        self.rid = 0
        self.offers: Counter = Counter()  # (turn, seat) -> offers made

    # -- the game ------------------------------------------------------------------------------
    def play(self) -> Record:
        players = len(self.seats)
        forfeited, how = None, "won"
        try:
            started = [
                (seat, bot.start(protocol.new_game(self.id, seat, players, self.rules, self.move_ms)))
                for seat, bot in self.seats.items()
            ]  # (every seat is started, and told the end, whoever faults)
            for seat, fault in started:
                if fault is not None:
                    self._fault(seat, fault)
            for line in self.opening or [protocol.encode([messages.define_map(self.chance.board(players))]).decode()]:
                self._make(protocol.decode(line))
            self.chance.deal(self.game.deck)  # (what is left of it after the opening)
            while self.game.phase != OVER:
                if self.game.turn > self.max_turns:
                    how = "turn-limit"
                    break
                self._step(players)
        except _Forfeit as forfeit:
            last = [kind for seat, kind, _ in self.faults if seat == forfeit.seat][-1]
            forfeited, how = forfeit.seat, "time" if last == protocol.TIMEOUT else "forfeited"
        g = self.game
        winner = g.current if g.phase == OVER and how == "won" else None
        points = {s: g.points(s) if s in g.players else 0 for s in self.seats}
        self.log.insert(0, self._header(winner, points, how, forfeited))
        for seat, bot in self.seats.items():
            self.pending[seat].append(protocol.result(winner, points, how))
            self._flush(seat)
        stderr = {s: bot.stderr for s, bot in self.seats.items() if any(f[0] == s for f in self.faults) and bot.stderr}
        return Record(
            self.id,
            [bot.name for bot in self.seats.values()],
            self.log,
            winner,
            points,
            how,
            forfeited,
            self.faults,
            dict(self.requests),
            dict(self.seconds),
            stderr,
        )

    def _step(self, players: int) -> None:
        due = self.game.decisions(players)
        if due[0].kind == DISCARD:  # each owing seat chooses before any discard is shown
            chosen = [self._ask(d.seat, d.kind, d.moves, count=d.amount) for d in due]
            for move in chosen:
                self._make(move)
            return
        (decision,) = due
        offers = decision.kind == TURN and getattr(self.seats[decision.seat], "offers", True)
        move = self._ask(decision.seat, decision.kind, decision.moves, offers=offers)
        if isinstance(move, Offer):
            self._trade(decision.seat, move)
        else:
            self._make(self.chance.draw(self.game, move) if is_chance(move) else move)

    def _header(self, winner: Optional[str], points: Dict[str, int], how: str, forfeited: Optional[str]) -> list:
        """The game's header, line 1 of its file, written once the game is over."""
        result: Dict[str, Any] = {"how": how}
        if winner is not None:
            result["winner"] = winner
        if self.game.board is not None:
            result["points"] = {s: n for s, n in points.items() if s in self.game.players}
        if forfeited is not None:
            result["forfeited"] = [forfeited]
        players = {seat: {"name": bot.name} for seat, bot in self.seats.items()}
        return records.header(players, self.game.rules, result, round=self.id, seed=self.seed)

    def _make(self, move: list) -> None:
        """A move, made and told to every seat as it sees it: at its line of the game's file,
        whose first is the header."""
        line = len(self.log) + 2
        errors = [p for p in self.game.apply(move, line) if p.severity == "error"]
        if errors:
            raise RefereeError(f"the referee made an illegal move at line {line}: {move}: {errors[0].message}")
        self.log.append(move)
        if move[1] not in HIDES:  # (seen alike by every seat: one event for all)
            event = protocol.event(line, move)
            for told in self.pending.values():
                told.append(event)
            return
        for seat, told in self.pending.items():
            told.append(protocol.event(line, hide(move, seat)))

    # -- asking a seat -------------------------------------------------------------------------
    def _flush(self, seat: str) -> None:
        told = self.pending[seat]
        if told:
            self.seats[seat].tell(told)
            self.pending[seat] = []

    def _ask(
        self,
        seat: str,
        kind: str,
        moves: List[Any],
        offers: bool = False,
        offer: Optional[Offer] = None,
        by: str = "",
        count: int = 0,
    ) -> Any:
        if seat in self.dead:
            return self._instead(seat, moves, count)
        if len(moves) == 1 and not self.ask_forced and not (offers and self._holds_cards(seat)):
            return moves[0]  # (the seat is told the move with the others' next events)
        self._flush(seat)
        self.rid += 1
        hand = self.game.players[seat].hand if seat in self.game.players else {}
        request = protocol.request(self.rid, kind, seat, self.move_ms, moves, hand, offer, by, count)
        if offers:
            request["offers_left"] = MAX_OFFERS - self.offers[(self.game.turn, seat)]
        chosen, took = self.seats[seat].ask(request, offers)
        self.requests[seat] += 1
        self.seconds[seat] += took
        if isinstance(chosen, Offer) and self.offers[(self.game.turn, seat)] >= MAX_OFFERS:
            chosen = Fault(protocol.FLOOD, f"more than {MAX_OFFERS} trade offers in one turn")
        if isinstance(chosen, Offer):
            self.offers[(self.game.turn, seat)] += 1
            unheld = self._unheld(seat, chosen.give)
            chosen = Fault(protocol.ILLEGAL, unheld) if unheld else chosen
        if isinstance(chosen, Fault):
            self._fault(seat, chosen)
            return self._instead(seat, moves, count)
        return chosen

    def _instead(self, seat: str, moves: List[Any], count: int) -> Any:
        """A random legal move put in place of a seat's (`--on-fault replace`): one listed, or
        a discard of `count` cards of the hand where its ways are not listed."""
        if moves:
            return self.fallback.choice(moves)
        hand = self.game.players[seat].hand
        cards = self.fallback.sample([r for r in RESOURCES for _ in range(hand[r])], count)
        return discard_move(seat, {r: cards.count(r) for r in RESOURCES if r in cards})

    def _holds_cards(self, seat: str) -> bool:
        """Whether the seat holds cards it could offer in a trade: its one legal move in a turn
        then leaves it a choice, unless it said it never offers."""
        return any(self.game.players[seat].hand.values())

    def _fault(self, seat: str, fault: Fault) -> None:
        self.faults.append((seat, fault.kind, fault.detail))
        if getattr(self.seats[seat], "broken", None) is not None or fault.kind == protocol.CRASH:
            self.dead.add(seat)  # (a program that cannot go on is started afresh for its next game)
        if self.on_fault == FORFEIT:
            raise _Forfeit(seat)

    # -- trades between players ----------------------------------------------------------------
    def _unheld(self, seat: str, cards: Dict[str, int]) -> str:
        hand = self.game.players[seat].hand
        short = [r for r, n in cards.items() if hand[r] < n]
        return f"player {seat} offers {', '.join(short)} they do not hold" if short else ""

    def _trade(self, seat: str, offer: Offer) -> None:
        """An offer, each answer, the proposer's confirmation: only a completed trade is a line."""
        others = [s for s in self.seats if s != seat]
        asked = [s for s in (offer.to or others) if s in others and not self._unheld(s, offer.get)]
        accepted = []
        for other in asked:
            trade = forms.between(seat, other, offer.give, offer.get)
            if self._ask(other, TRADE_RESPONSE, [trade, None], offer=offer, by=seat) is not None:
                accepted.append(trade)
        if accepted:
            trade = self._ask(seat, TRADE_CONFIRM, accepted + [None], offer=offer, by=seat)
            if trade is not None:
                self._make(trade)
