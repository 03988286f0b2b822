"""What the report page says of the cards: what each player holds after a line (each
resource, a range where the hand is in doubt; the development cards, those bought this turn
and those drawn unseen), the bank and the deck; and what each move moved (a trade's two
sides, the card stolen, discarded or drawn, who received what on a roll).

The holdings are read from the state the replay gives (`State.hand_range`, the deck, each
player's cards): the numbers `sgn replay --at LINE` prints. A move's cards are read from its
message, a roll's from the hands before and after it (the replay's own production, not
computed again here). A card not shown is `?` (docs/hidden.md).
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ..rules import CARD_NAMES, DECK, RESOURCE_NAMES, RESOURCES

Count = Union[int, Tuple[int, int]]  # a count, or (least, most) where it is in doubt
Hand = Tuple[Count, ...]  # one count per resource, in the order of RESOURCES
# a player's development cards: held (playable) per kind, bought this turn per kind, and
# those drawn unseen (held, bought this turn), in the order of DECK
Cards = Tuple[Tuple[int, ...], Tuple[int, ...], int, int]


_BY_RESOURCE = itemgetter(*RESOURCES)
_BY_KIND = itemgetter(*DECK)


def hand_of(game: Any, name: str) -> Hand:
    """Each resource a holder (a player or "B", the bank) holds: a count, or (least, most)."""
    doubt = game.unseen.doubt
    if doubt is None or name not in doubt:  # known: the counts themselves (the common case)
        return _BY_RESOURCE(game.bank if name == "B" else game.players[name].hand)
    least, most = game.hand_range(name)
    return tuple(least[r] if least[r] == most[r] else (least[r], most[r]) for r in RESOURCES)


def cards_of(player: Any) -> Cards:
    return (_BY_KIND(player.cards), _BY_KIND(player.new_cards), player.unseen_cards, player.unseen_new)


def holding(game: Any, players: Sequence[str], one: Callable[[Any], Any] = lambda value: value) -> Tuple[Any, ...]:
    """(hands, cards, bank, deck) after a line: a hand and cards per player (None for one
    not in this game), the bank's resources and the deck's cards left, per kind. `one`
    makes equal parts one object (a long log's lines repeat them: a hand, a player's cards)."""
    inside = game.players
    hands = tuple(one(hand_of(game, p)) if p in inside else None for p in players)
    cards = one(tuple(one(cards_of(inside[p])) if p in inside else None for p in players))
    return (hands, cards, one(hand_of(game, "B")), one(_BY_KIND(game.deck)))


def _cards(resources: Any, sign: int) -> str:
    """'2 wool, 1 ore' of the resources of one side with the sign asked (-1: given)."""
    if not isinstance(resources, dict):
        return ""
    said = []
    for code, n in resources.items():
        if isinstance(n, int) and not isinstance(n, bool) and n * sign > 0:
            kind = RESOURCE_NAMES.get(str(code))
            amount = n * sign
            if kind is None:
                kind = ("card" if amount == 1 else "cards") + " not seen" if code == "?" else str(code)
            said.append(f"{amount} {kind}")
    return ", ".join(said)


def moved(message: Any) -> str:
    """The cards a move moves, as the page writes them after its label ("" if none)."""
    if not (isinstance(message, list) and len(message) == 3):
        return ""
    who, action, value = message
    if action == "BD" and isinstance(value, dict):
        code = value.get("cCode")
        if code == "?":
            return "a card not seen (?)"
        return CARD_NAMES.get(str(code), "") if isinstance(code, str) else ""
    if action not in ("TR", "ST") or not isinstance(value, list):
        return ""
    own = next((s.get("resources") for s in value if isinstance(s, dict) and s.get("player") == who), None)
    others = [s for s in value if isinstance(s, dict) and s.get("player") != who]
    gives, gets = _cards(own, -1), _cards(own, 1)
    if action == "ST":
        return gets or _cards(others[0].get("resources") if others else None, -1)
    if others and others[0].get("player") == "B" and not gets:
        return gives  # a discard
    return "; ".join(part for part in (f"gives {gives}" if gives else "", f"gets {gets}" if gets else "") if part)


def received(before: Optional[Sequence[Any]], after: Sequence[Any], players: Sequence[str]) -> str:
    """Who received what between two lines' hands (a roll): 'player 1: 2 wool; player 3:
    1 ore', 'no one receives a card', or a range where the hands are in doubt."""
    said = []
    for name, old, new in zip(players, before or (), after):
        if old is None or new is None:
            continue
        parts = []
        for code, a, b in zip(RESOURCES, old, new):
            (a0, a1), (b0, b1) = _span(a), _span(b)
            low, high = b0 - a0, b1 - a1
            if max(low, high) > 0:
                amount = str(low) if low == high else f"{min(low, high)}-{max(low, high)}"
                parts.append(f"{amount} {RESOURCE_NAMES[code]}")
        if parts:
            said.append(f"player {name}: {', '.join(parts)}")
    return "; ".join(said) if said else "no one receives a card"


def _span(count: Any) -> Tuple[int, int]:
    return (count[0], count[1]) if isinstance(count, (list, tuple)) else (count, count)


def columns(holdings: List[Tuple[Any, ...]]) -> Dict[str, List[Any]]:
    """The holdings of each line as four columns, each value null where it is the line
    before's (the script fills them in): a line writes only what it changed."""
    out: Dict[str, List[Any]] = {"hands": [], "cards": [], "bank": [], "deck": []}
    previous: Tuple[Any, ...] = (None, None, None, None)
    for row in holdings:
        for key, value, old in zip(out, row, previous):
            out[key].append(None if value == old and old is not None else value)  # (tuples: JSON arrays)
        previous = row
    return out
