"""A line another layer refused, read through the hidden-card model: as the message it
would be with its unreadable parts hidden (docs/rules.md, "A message another layer
refused"). The refused line was reported by its own layer; what it may have moved is left
in doubt, exactly, so that nothing the true game could have done is reported later.

- a steal: a steal of one card not seen, from the victim it names (or each victim the
  robber allows, where it names none that can be robbed);
- a trade: the cards it names that can be read, and cards not seen for the rest, between
  the seats it names (the player whose turn it is, where the seat cannot be read); a
  discard: the cards owed, not seen;
- a card bought: a card drawn unseen; a card played: each card its line may name, with
  each choice of resources where those cannot be read;
- a build or the robber, after the setup: each legal place that agrees best with the tiles
  the line names (in the setup, the road that follows a settlement tells where it stood).

Each candidate is kept only where the rules accept it in the state before the line; the
recovery (`sgn/game/recovery.py`) keeps them side by side with the other readings of the
line until what follows decides, and readings alike but for the hands are one, the hands
in doubt (`sgn/game/fork.py`).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, Dict, Iterable, List, Optional

from .. import board, messages, rules
from ..codes import CODES
from ..messages import HIDDEN, Message
from ..rules import RESOURCES
from .core import SETUP, TURNS, Game
from .lost import SPREAD
from .state import AMOUNT_IN_DOUBT

SEATS = frozenset(str(n) for n in range(1, 7))
CARDS = ("KN", "RB", "YP", "MO", "VP")
# The places tried for a build whose place cannot be read: those that share most tiles with
# the line, if they are this few; where it names no tile of a legal place, every legal
# place, if they are this few. The robber: every tile it may move to.
MAX_PLACES, MAX_UNREAD = 8, 40
BANK_RATES = (rules.RATE_RESOURCE_HARBOR, rules.RATE_GENERIC_HARBOR, rules.RATE_DEFAULT)


def hidden_forms(before: Game, value: Any) -> List[Message]:
    """The messages a refused line may have been, its unreadable parts hidden, each one the
    rules accept in `before` (the state just before the line)."""
    if before.board is None or before.phase not in (SETUP, TURNS):
        return []
    value = _unwrapped(value)
    if not isinstance(value, list) or not value:
        return []
    player = value[0]
    body = value[2] if len(value) > 2 else None
    action = value[1].upper() if len(value) > 1 and isinstance(value[1], str) else None
    actions = [action] if action in _MAKERS else [a for a in _actions_by_shape(body) if a in _MAKERS]
    out: List[Message] = []
    seen: List[Message] = []
    for name in actions:
        for message in _MAKERS[name](before, _seat(before, player), body):
            if message in seen:
                continue
            seen.append(message)
            if not any(CODES[p.code].severity == "error" for p in before.clone().apply(message, before.line)):
                out.append(message)
    return out


def _unwrapped(value: Any) -> Any:
    """A message written inside an object of one key (`{"message": [...]}`): the message."""
    if isinstance(value, dict) and len(value) == 1:
        (inner,) = value.values()
        if isinstance(inner, list):
            return inner
    return value


# The actions a value's keys say, where the line's action code cannot be read.
_SHAPES = {"result": ["RD"], "tile": ["MR"], "path": ["BR"], "intersection": ["BS", "BC"], "cCode": ["BD", "PD"]}


def _actions_by_shape(body: Any) -> List[str]:
    if isinstance(body, dict):
        if "rCodes" in body:
            return ["PD"]
        return next((_SHAPES[key] for key in body if key in _SHAPES), [])
    if isinstance(body, list) and len(body) == 2 and all(isinstance(s, dict) for s in body):
        return ["TR", "ST"]
    return []


def _seat(before: Game, player: Any) -> Optional[str]:
    """The seat a line names, where it can be read and plays in this game."""
    if type(player) is int:
        player = str(player)
    if not isinstance(player, str) or player not in SEATS:
        return None
    if before.phase == TURNS and player not in before.players:
        return None
    return player


def _actor(before: Game, seat: Optional[str]) -> Optional[str]:
    return seat if seat is not None else before.current


def _steals(before: Game, seat: Optional[str], value: Any) -> Iterable[Message]:
    thief = before.current  # (who moved the robber steals, whatever seat the line names)
    victims = before.steal_from
    if thief is None or not victims:
        return []
    named = [v for v in _side_players(before, value) if v in victims and v != thief]
    return [messages.steal(thief, victim, HIDDEN) for victim in (named or sorted(victims))]


def _side_players(before: Game, value: Any) -> List[str]:
    out = []
    for side in value if isinstance(value, list) else []:
        name = _seat(before, side.get("player")) if isinstance(side, dict) else None
        if name is not None and name not in out:
            out.append(name)
    return out


def _readable(resources: Any) -> Optional[Dict[str, int]]:
    """A side's resources with the kinds that cannot be read counted as cards not shown (a
    count that cannot be read, or 0, is left out); None where nothing can be read."""
    if not isinstance(resources, dict):
        return None
    out: Dict[str, int] = {}
    for key, n in resources.items():
        if type(n) is int and n:
            kind = key if key in RESOURCES else HIDDEN
            out[kind] = out.get(kind, 0) + n
    out = {k: n for k, n in out.items() if n}
    return out or None


def _uncounted(resources: Any) -> List[str]:
    """The kinds a side names whose count cannot be read (or is 0), as resources or `?`."""
    if not isinstance(resources, dict):
        return []
    return sorted({k if k in RESOURCES else HIDDEN for k, n in resources.items() if type(n) is not int or not n})


def _trades(before: Game, seat: Optional[str], value: Any) -> Iterable[Message]:
    if before.phase != TURNS:
        return []
    owers = _discarders(before)
    sides = [s for s in value if isinstance(s, dict)] if isinstance(value, list) else []
    named = _side_players(before, value)
    discarders = [n for n in named if n in owers] or ([seat] if seat in owers else [] if seat else sorted(owers))
    out: List[Message] = [_discard(n, owers[n]) for n in discarders]
    bank = any(s.get("player") == "B" for s in sides)
    # the actor: the seat written, if it is a side; else the player whose turn it is, if a side;
    # else the one seat facing the bank; else the player whose turn it is
    actor: Optional[str]
    if seat in named:
        actor = seat
    elif before.current in named or not named or not bank:
        actor = before.current
    else:
        actor = named[0]
    if actor is None:
        return out
    partners = (
        ["B"] if bank else [n for n in named if n != actor] or ["B"] + sorted(n for n in before.players if n != actor)
    )
    for i, side in enumerate(sides[:2]):
        other = sides[1 - i] if len(sides) == 2 else {}
        mine = _is_actor(before, side, other, actor)
        for own in _own_counts(side.get("resources"), mine, bank):
            theirs = {r: -n for r, n in own.items()}
            for partner in partners:
                out.append(messages.trade(actor, actor, own, partner, theirs))
    return out


def _is_actor(before: Game, side: dict, other: dict, actor: str) -> bool:
    """Whether a side of a refused trade is the actor's: it names the actor, or no seat that
    can be read while the other side names someone else."""
    name = side.get("player")
    if name == "B":
        return False
    seat = _seat(before, name)
    if seat is not None:
        return seat == actor
    return _seat(before, other.get("player")) != actor


def _own_counts(resources: Any, mine: bool, bank: bool) -> List[Dict[str, int]]:
    """The actor's side of a refused trade, as one side of it says (`mine`: the side is the
    actor's). A kind whose count cannot be read (or is 0) goes the way that balances what
    the side can be read to give or take: with the bank, each rate's count; between players,
    1 to `SPREAD` cards."""
    counts = _readable(resources) or {}
    unknown = _uncounted(resources)
    sides = [counts]
    if len(unknown) == 1 and not (any(n < 0 for n in counts.values()) and any(n > 0 for n in counts.values())):
        sign = -1 if not counts or any(n > 0 for n in counts.values()) else 1
        lots = sum(abs(n) for n in counts.values())
        amounts = [rate * lots for rate in BANK_RATES] if bank and lots else [] if bank else range(1, SPREAD + 1)
        sides = [dict(counts, **{unknown[0]: sign * n}) for n in amounts]
    return [side if mine else {r: -n for r, n in side.items()} for side in sides if side]


def _discarders(before: Game) -> Dict[str, int]:
    """Who owes a discard now, and of how many cards (where that is known)."""
    owed = dict(before.discards_owed)
    owed.update({n: k for n, k in before.unseen.discards_late.items() if k != AMOUNT_IN_DOUBT})
    return owed


def _discard(name: str, count: int) -> Message:
    return messages.discard(name, {HIDDEN: count})


def _draws(before: Game, seat: Optional[str], value: Any) -> Iterable[Message]:
    """A card bought, drawn unseen: by the seat written, or where it cannot be read, by any
    seat the rules let buy now (the 5-6 player Special Building Phase lets others)."""
    if before.phase != TURNS:
        return []
    return [messages.buy_card(name, HIDDEN) for name in ([seat] if seat else sorted(before.players))]


def _plays(before: Game, seat: Optional[str], value: Any) -> Iterable[Message]:
    """A card played: by the seat written, or where it cannot be read, by the player whose
    turn it is or the next (a card played before the roll begins the turn)."""
    if before.phase != TURNS or before.current is None:
        return []
    actors = [seat] if seat else [before.current, before.next_player(before.current)]
    card = value.get("cCode") if isinstance(value, dict) else None
    out: List[Message] = []
    for actor in actors:
        for kind in [card] if card in CARDS else list(CARDS):
            if kind == "MO":
                out += [messages.play_card(actor, kind, (r,)) for r in RESOURCES]
            elif kind == "YP":
                out += [messages.play_card(actor, kind, pair) for pair in combinations_with_replacement(RESOURCES, 2)]
            else:
                out.append(messages.play_card(actor, kind))
    return out


def _placed(action: str):
    def make(before: Game, seat: Optional[str], value: Any) -> Iterable[Message]:
        if before.phase != TURNS:
            return []  # (in the setup, the road that follows tells where: `lost._setup_lost`)
        # (a seat that cannot be read: anyone's, as the 5-6 player Special Building Phase allows)
        legal = [
            m for m in before.legal_moves(hidden_outcomes="never") if m[1] == action and (seat is None or m[0] == seat)
        ]
        named = board.tiles_named(value)
        scored = [(len(named & board.tiles_named(m[2])), m) for m in legal]
        best = max((s for s, _ in scored), default=0)
        chosen = [m for s, m in scored if s == best]
        return chosen if len(chosen) <= (MAX_PLACES if best else MAX_UNREAD) or action == "MR" else []

    return make


_MAKERS = {
    "ST": _steals,
    "TR": _trades,
    "BD": _draws,
    "PD": _plays,
    "BS": _placed("BS"),
    "BR": _placed("BR"),
    "BC": _placed("BC"),
    "MR": _placed("MR"),
}

__all__ = ["MAX_PLACES", "hidden_forms"]
