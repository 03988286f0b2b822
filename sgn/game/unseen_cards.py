"""Development cards drawn unseen (`["1","BD",{"cCode":"?"}]`, docs/hidden.md): what is known
of them, exactly, without listing every way they can be.

The cards drawn unseen are alike but for when they were drawn, so it is enough to count
them, per player, before this turn and in it (`Player.unseen_cards`, `unseen_new`), beside
the deck's count of each kind not drawn in sight (`State.deck`, which still counts them).
Two things a log tells of them:
- a card played or shown that the player holds in sight of no one is one of theirs, of
  that kind: the deck had one left to give (`reveal`);
- the game goes on: a player whose turn it is, whose unseen cards may hold enough Victory
  Points to bring them to 10, holds fewer (`watch_points`), else the game would have
  ended. `Player.unseen_points` is the most they may hold.
They can all be true at once (`assignable`) exactly when the deck has cards enough for
everyone's unseen cards, and kinds other than Victory Point enough for the cards that
cannot be Victory Points. A move that makes it false is a fault; where only the end of
the game makes it true, the game ended (`watch_points`).
"""

from __future__ import annotations

from typing import Dict, Optional

from .. import rules
from .pieces import Player
from .state import OVER, State

VP = "VP"


def unseen_total(g: State) -> int:
    return sum(p.unseen_cards + p.unseen_new for p in g.players.values())


def assignable(g: State, deck: Optional[Dict[str, int]] = None) -> bool:
    """Whether the unseen cards can all be of kinds the deck had: cards enough, and enough
    of other kinds than Victory Point for those that cannot be one."""
    deck = g.deck if deck is None else deck
    supply = sum(deck.values())
    others = supply - deck[VP]
    held = 0
    not_points = 0
    for p in g.players.values():
        n = p.unseen_cards + p.unseen_new
        held += n
        not_points += max(0, n - max(0, p.unseen_points))
        if p.unseen_points < 0:
            return False
    return held <= supply and not_points <= others


def can_draw(g: State, card: str) -> bool:
    """Whether the deck can give `card` (a kind, or `?`) with the unseen cards still drawn."""
    if card == "?":
        return sum(g.deck.values()) > unseen_total(g)
    if g.deck[card] <= 0:
        return False
    if not unseen_total(g):
        return True
    deck = dict(g.deck)
    deck[card] -= 1
    return assignable(g, deck)


def draw(g: State, p: Player) -> None:
    """`p` draws a card unseen (it may be a Victory Point)."""
    p.unseen_new += 1
    p.unseen_points += 1


def reveal(g: State, p: Player, card: str, new: bool) -> bool:
    """`p` plays or shows `card` from its unseen cards (drawn before this turn, or in it when
    `new`): False, and nothing changed, when no way the cards lie allows it."""
    if (p.unseen_new if new else p.unseen_cards) <= 0 or g.deck[card] <= 0:
        return False
    saved = p.unseen_cards, p.unseen_new, p.unseen_points
    if new:
        p.unseen_new -= 1
    else:
        p.unseen_cards -= 1
    left = p.unseen_cards + p.unseen_new
    p.unseen_points = min(p.unseen_points - 1 if card == VP else p.unseen_points, left)
    g.deck[card] -= 1
    if assignable(g):
        return True
    g.deck[card] += 1
    p.unseen_cards, p.unseen_new, p.unseen_points = saved
    return False


def watch_points(g: State, line: int) -> None:
    """After a message in the turn of a player with unseen cards: where they may hold enough
    Victory Points to have 10, the game goes on only if they do not. If that cannot be,
    the game ended at this message; if it can, it may have (`State.unseen.end`: the
    player's Victory Point cards shown next may say so)."""
    name = g.current
    if name is None or g.phase != "turns" or g.special_built:
        return
    p = g.players.get(name)
    if p is None or not (p.unseen_cards + p.unseen_new):
        return
    needed = rules.POINTS_TO_WIN - g.points(name)
    if p.unseen_points < needed:
        return
    held = p.unseen_points
    p.unseen_points = needed - 1
    if assignable(g):
        g.unseen.end = (line, name)
    else:  # (they hold the Victory Points that won)
        p.unseen_points = held
        g.phase, g.ended_at = OVER, line


def ended_unseen(g: State, p: Player) -> bool:
    """A Victory Point card that `p` cannot hold if the game went on, shown right after the
    message where it may have ended with `p` winning: it ended there."""
    if g.unseen.end is None or g.unseen.end[1] != p.name:
        return False
    line, _ = g.unseen.end
    g.unseen.end = None
    p.unseen_points = p.unseen_cards + p.unseen_new  # (the game over: nothing more to keep it going)
    if not reveal(g, p, VP, False) and not reveal(g, p, VP, True):
        return False
    g.phase, g.ended_at = OVER, line
    return True
