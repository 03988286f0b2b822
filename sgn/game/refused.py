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
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

from ..codes import CODES
from ..layers.hidden import HIDDEN
from ..rules import RESOURCES
from . import move_forms as forms
from .core import SETUP, TURNS, Game, Message
from .state import AMOUNT_IN_DOUBT

SEATS = frozenset(str(n) for n in range(1, 7))
CARDS = ("KN", "RB", "YP", "MO", "VP")
MAX_PLACES = 8  # the places tried for a build or a robber move whose place cannot be read


def hidden_forms(before: Game, value: Any) -> List[Message]:
    """The messages a refused line may have been, its unreadable parts hidden, each one the
    rules accept in `before` (the state just before the line)."""
    if before.board is None or before.phase not in (SETUP, TURNS):
        return []
    if not (isinstance(value, list) and len(value) == 3 and isinstance(value[1], str)):
        return []
    action = value[1].upper()
    maker = _MAKERS.get(action)
    if maker is None:
        return []
    seat = _seat(before, value[0])
    out: List[Message] = []
    seen: List[Message] = []
    for message in maker(before, seat, value[2]):
        if message in seen:
            continue
        seen.append(message)
        if not any(CODES[p.code].severity == "error" for p in before.clone().apply(message, before.line)):
            out.append(message)
    return out


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
    thief = _actor(before, seat)
    victims = before.steal_from
    if thief is None or not victims:
        return []
    named = [v for v in _side_players(before, value) if v in victims and v != thief]
    return [forms.steal(thief, victim, HIDDEN) for victim in (named or sorted(victims))]


def _side_players(before: Game, value: Any) -> List[str]:
    out = []
    for side in value if isinstance(value, list) else []:
        name = _seat(before, side.get("player")) if isinstance(side, dict) else None
        if name is not None and name not in out:
            out.append(name)
    return out


def _readable(resources: Any) -> Optional[Dict[str, int]]:
    """A side's resources with what cannot be read counted as cards not shown; None where a
    count cannot be read."""
    if not isinstance(resources, dict):
        return None
    out: Dict[str, int] = {}
    for key, n in resources.items():
        if type(n) is not int:
            return None
        kind = key if key in RESOURCES else HIDDEN
        out[kind] = out.get(kind, 0) + n
    out = {k: n for k, n in out.items() if n}
    return out or None


def _trades(before: Game, seat: Optional[str], value: Any) -> Iterable[Message]:
    if before.phase != TURNS:
        return []
    owers = _discarders(before)
    sides = [s for s in value if isinstance(s, dict)] if isinstance(value, list) else []
    named = _side_players(before, value)
    discarders = [n for n in named if n in owers] or ([seat] if seat in owers else [] if seat else sorted(owers))
    out: List[Message] = [_discard(n, owers[n]) for n in discarders]
    actor = _actor(before, seat)
    if actor is None:
        return out
    if any(s.get("player") == "B" for s in sides):
        partners = ["B"]
    else:
        partners = [n for n in named if n != actor] or ["B"] + sorted(n for n in before.players if n != actor)
    for i, side in enumerate(sides[:2]):
        counts = _readable(side.get("resources"))
        if counts is None:
            continue
        if _is_actor(before, side, sides[1 - i] if len(sides) == 2 else {}, actor):
            own = counts
        else:
            own = {r: -n for r, n in counts.items()}
        theirs = {r: -n for r, n in own.items()}
        for partner in partners:
            out.append([actor, "TR", [{"player": actor, "resources": own}, {"player": partner, "resources": theirs}]])
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


def _discarders(before: Game) -> Dict[str, int]:
    """Who owes a discard now, and of how many cards (where that is known)."""
    owed = dict(before.discards_owed)
    owed.update({n: k for n, k in before.discards_late.items() if k != AMOUNT_IN_DOUBT})
    return owed


def _discard(name: str, count: int) -> Message:
    return forms.with_bank(name, {HIDDEN: count})


def _draws(before: Game, seat: Optional[str], value: Any) -> Iterable[Message]:
    actor = _actor(before, seat)
    return [[actor, "BD", {"cCode": HIDDEN}]] if actor is not None and before.phase == TURNS else []


def _plays(before: Game, seat: Optional[str], value: Any) -> Iterable[Message]:
    actor = _actor(before, seat)
    if actor is None or before.phase != TURNS:
        return []
    card = value.get("cCode") if isinstance(value, dict) else None
    out: List[Message] = []
    for kind in [card] if card in CARDS else list(CARDS):
        if kind == "MO":
            out += [forms.play(actor, kind, (r,)) for r in RESOURCES]
        elif kind == "YP":
            out += [forms.play(actor, kind, pair) for pair in combinations_with_replacement(RESOURCES, 2)]
        else:
            out.append(forms.play(actor, kind))
    return out


def _tiles_named(value: Any) -> Set[Tuple[int, int]]:
    """Every pair of whole numbers in a value: the tiles a line names, as far as it can be read."""
    found: Set[Tuple[int, int]] = set()
    if isinstance(value, list):
        if len(value) == 2 and all(type(n) is int for n in value):
            found.add((value[0], value[1]))
        else:
            for item in value:
                found |= _tiles_named(item)
    elif isinstance(value, dict):
        for item in value.values():
            found |= _tiles_named(item)
    return found


def _placed(action: str):
    def make(before: Game, seat: Optional[str], value: Any) -> Iterable[Message]:
        if before.phase != TURNS:
            return []  # (in the setup, the road that follows tells where: `lost._setup_lost`)
        actor = seat if seat is not None else before.current
        legal = [m for m in before.legal_moves(hidden="never") if m[1] == action and (actor is None or m[0] == actor)]
        named = _tiles_named(value)
        scored = [(len(named & _tiles_named(m[2])), m) for m in legal]
        best = max((s for s, _ in scored), default=0)
        chosen = [m for s, m in scored if s == best]
        return chosen if len(chosen) <= MAX_PLACES else []

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
