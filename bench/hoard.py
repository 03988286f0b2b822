"""A legal game in which one seat hoards: the setup played at random, then every roll the
total that spreads the hoarder's hand most, no one building, until the hoarder holds `cards`; then
a 7. The position after it owes the largest discards a log can: what the legal moves of a
large hand's discard are measured on (bench_moves.py, t/test_legal_moves.py)."""

from __future__ import annotations

import random
from typing import List, Tuple

from sgn import board
from sgn.game import Game
from sgn.game.decisions import end_turn_move
from sgn.messages import roll
from sgn.play import random_map


def _held(game: Game, seat: str) -> int:
    return sum(game.players[seat].hand.values())


def hoarded(seed: int, players: int = 4, cards: int = 30, seat: str = "1") -> Tuple[Game, List[list]]:
    """The game just after the 7 (its discards owed) and its log."""
    rng = random.Random(seed)
    game = Game()
    log = [["B", "DM", random_map(rng, board.EXTENDED if players > 4 else board.STANDARD)]]
    game.push(log[0])
    while True:
        (due,) = game.decisions(players=players)
        if due.kind == "roll":
            move = _roll(game, due.seat, seat, cards)
        elif due.kind in ("turn", "special-build") and game.rolled:
            move = end_turn_move(due.seat)
        else:  # the setup
            move = rng.choice(due.moves)
        game.push(move)
        log.append(move)
        if game.discards_owed:
            return game, log
        if len(log) > 4000:
            raise RuntimeError(f"seed {seed}: seat {seat} never reached {cards} cards")


def _spread(game: Game, seat: str) -> Tuple[int, int]:
    """How many ways the hand has of giving half of it (kinds spread evenly give most),
    then its size."""
    hand = game.players[seat].hand
    ways = 1
    for n in hand.values():
        ways *= n + 1
    return ways, sum(hand.values())


def _roll(game: Game, mover: str, seat: str, cards: int) -> list:
    """A 7 once the hoarder holds `cards`; before, the total that spreads its hand most."""
    if _held(game, seat) >= cards:
        return roll(mover, 7)
    best, score = roll(mover, 2), (-1, -1)
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        trial = game.clone()
        trial.push(roll(mover, total))
        if _spread(trial, seat) > score:
            best, score = roll(mover, total), _spread(trial, seat)
    return best
