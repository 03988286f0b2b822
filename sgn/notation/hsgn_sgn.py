"""HSGN turns to SGN messages and back.

Most HSGN actions are HAN actions written another way (MRx is M(..), BVx is Pv(..),
Tx(y, z) is T(y)(z)x), so both directions go through `han.to_sgn` and `han.from_sgn`.
What is HSGN's own is here: the roll (a total, as in SGN), the road card with the roads
it builds, the players (`p2`, `b`), and the grouping of SGN messages into turns, whose
rules are those of `group` (docs/notations.md gives them too).
"""

from __future__ import annotations

from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar

from .. import messages
from . import han, hsgn
from .han import NoMapping
from .hsgn_turns import Action, Turn, format_action

# HSGN code <-> the HAN verb and item of the same action
VIA_HAN: Dict[str, Tuple[str, Optional[str]]] = {
    "MR": ("M", None),
    "D": ("D", None),
    "T": ("T", None),
    "S": ("S", None),
    "BV": ("P", "v"),
    "BC": ("P", "c"),
    "BR": ("P", "r"),
    "PK": ("U", "k"),
    "PY": ("U", "y"),
    "PM": ("U", "m"),
    "BD": ("B", "d"),
}
_FROM_HAN = {via: code for code, via in VIA_HAN.items()}
# HSGN actions SGN cannot take, and SGN messages HSGN cannot write. (HSGN's Sx and BD do
# not name the card stolen or bought: SGN writes them as hidden values, docs/hidden.md.)
NOT_IN_SGN: Dict[str, str] = {}
NOT_IN_HSGN = {
    "DM": "HSGN has no notation for the map",
    "VP": "HSGN has no code for playing a Victory Point card",
}
SGN_PLAYERS = 6
BASE_PLAYERS = 3


def to_sgn_player(player: str) -> str:
    """`p2` -> "2", `b` -> "B"; NoMapping for a player SGN cannot name."""
    if player == "b":
        return "B"
    if player[:1] == "p" and player[1:].isdigit() and 1 <= int(player[1:]) <= SGN_PLAYERS:
        return player[1:]
    raise NoMapping(f"the HSGN player {player!r} has no SGN name: SGN has players 1..{SGN_PLAYERS} and B")


def from_sgn_player(player: str) -> str:
    return "b" if player == "B" else f"p{player}"


# -- HSGN to SGN ---------------------------------------------------------------------------


def player_count(turns: Iterable[Turn]) -> int:
    """How many players the turns show: the highest numbered player written, at least 3."""
    named = [t.player for t in turns] + [a.player for t in turns for a in t.actions]
    numbers = [int(p[1:]) for p in named if p and p[:1] == "p" and p[1:].isdigit()]
    return max([BASE_PLAYERS] + numbers)


def turn_players(turns: Sequence[Turn], count: int) -> List[str]:
    """The player of each turn: the one written, or else the one after the turn before's,
    p1 after the last of `count` players (and p1 for a first turn without one)."""
    out: List[str] = []
    last = 0
    for turn in turns:
        player = turn.player or f"p{last % count + 1}"
        if player[:1] == "p" and player[1:].isdigit():
            last = int(player[1:])
        out.append(player)
    return out


def _to_han(action: Action) -> han.Action:
    verb, item = VIA_HAN[action.code]
    player = None if action.player is None else han.han_player(to_sgn_player(action.player))
    return han.Action(
        verb,
        item=item,
        player=player,
        formula=action.formula,
        formula2=action.formula2,
        tile=action.tile,
        vertex=action.vertex,
        edge=action.edges[0] if action.edges else None,
    )


def to_sgn(action: Action, actor: str) -> List[list]:
    """The SGN messages of an HSGN action of `actor`'s turn ("1".."6"): one, or for the
    road card one and a BR per road. Raises NoMapping where SGN cannot say it."""
    if action.code in NOT_IN_SGN:
        raise NoMapping(NOT_IN_SGN[action.code])
    if action.code == "roll":
        return [messages.roll(actor, action.roll)]
    if action.code == "PR":
        roads = [han.to_sgn(han.Action("P", item="r", edge=e), actor) for e in action.edges]
        return [messages.play_road_building(actor)] + roads
    if action.code == "D" and action.player == "b":
        raise NoMapping("the bank does not discard")
    return [han.to_sgn(_to_han(action), actor)]


# -- SGN to HSGN ---------------------------------------------------------------------------


def from_sgn(message: list, viewpoint: Optional[str] = None) -> Action:
    """The HSGN action of an SGN message; a trade is written as `viewpoint` (a party to it,
    by default the sender) sees it. Raises NoMapping where HSGN cannot say it."""
    player, code, value = message
    card = value.get("cCode") if isinstance(value, dict) else None
    if code in NOT_IN_HSGN or (code == "PD" and card in NOT_IN_HSGN):
        raise NoMapping(NOT_IN_HSGN.get(code) or NOT_IN_HSGN[str(card)])  # card: one of its keys
    if code == "RD":
        if not isinstance(value["result"], int):
            raise NoMapping("HSGN has no roll not seen (?): its roll is a total")
        return Action("roll", roll=value["result"])
    if code == "BD":
        return Action("BD")
    if code == "PD" and card == "RB":
        return Action("PR")
    if code == "TR" and viewpoint in _parties(value):
        message = [viewpoint, code, value]
    h = han.from_sgn(message, board_only=False)
    if h.verb == "T" and not (h.formula and h.formula2):
        raise NoMapping("HSGN's Tx(y, z) trades some cards for others; this trade is one-sided")
    action = Action(
        _FROM_HAN[(h.verb, h.item if h.verb in "PU" else None)],
        player=None if h.player is None else from_sgn_player(han.sgn_player(h.player)),
        formula=None if h.verb == "S" else h.formula,
        formula2=h.formula2,
        tile=h.tile,
        vertex=h.vertex,
        edges=(h.edge,) if h.edge else (),
    )
    try:
        format_action(action)  # every hex, crossroad and edge it holds has a name
    except hsgn.HsgnError as error:
        raise NoMapping(f"HSGN names the places of the standard board only: {error}") from None
    return action


def _parties(value: list) -> List[str]:
    return [side["player"] for side in value]


def _is_discard(message: list) -> bool:
    """A one-sided trade to the bank: what SGN logs for a discard."""
    player, code, value = message
    if code != "TR" or sorted(_parties(value)) != sorted([player, "B"]):
        return False
    mine = next(side for side in value if side["player"] == player)
    return all(n < 0 for n in mine["resources"].values())


S = TypeVar("S")


CARD_PLAYS = ("PK", "PY", "PM", "PR")


class _Open:
    """The turn being written: its player, actions, and what decides where it ends."""

    def __init__(self, player: str):
        self.player = player
        self.actions: List[Action] = []
        self.rolled = False
        self.road_card: Optional[int] = None  # the index of a PR still taking roads


def _starts_turn(turn: Optional[_Open], message: list, any_roll: bool) -> bool:
    """Whether a message begins a new turn. Before the first roll (the setup) each village
    does; a roll does, unless its player's turn began with a card played before rolling;
    a discard, or a trade with the turn's player, does not; other messages do when their
    sender is not the turn's player."""
    actor, code, value = message
    if turn is None:
        return True
    if _is_discard(message):
        return False
    if code == "RD":
        return not (actor == turn.player and not turn.rolled and turn.actions[0].code in CARD_PLAYS)
    if code == "BS" and not any_roll:
        return True
    if actor == turn.player:
        return False
    return not (code == "TR" and turn.player in _parties(value))


def group(items: Iterable[Tuple[S, list]]) -> Iterator[Tuple[Optional[Turn], List[Tuple[S, str]]]]:
    """SGN messages (each with its source) as HSGN turns, each yielded when complete, and
    beside them the (source, reason) of each message HSGN cannot write. The roads a road
    card builds are the BRs that follow its PD at once (two at most)."""
    turn: Optional[_Open] = None
    any_roll = False
    for source, message in items:
        starts = _starts_turn(turn, message, any_roll)
        actor = message[0]
        try:
            action = from_sgn(message, turn.player if turn is not None and not starts else actor)
        except NoMapping as error:
            yield None, [(source, str(error))]
            continue
        if starts:
            if turn is not None:
                yield Turn(from_sgn_player(turn.player), tuple(turn.actions)), []
            turn = _Open(actor)
        assert turn is not None  # the first message starts a turn
        card = turn.road_card
        if action.code == "BR" and card is not None and len(turn.actions[card].edges) < 2 and actor == turn.player:
            turn.actions[card] = turn.actions[card]._replace(edges=turn.actions[card].edges + action.edges)
            continue
        turn.road_card = len(turn.actions) if action.code == "PR" else None
        turn.actions.append(action)
        if action.code == "roll":
            turn.rolled = any_roll = True
    if turn is not None:
        yield Turn(from_sgn_player(turn.player), tuple(turn.actions)), []
