"""The bot protocol, version 1 (docs/protocol.md): the messages the referee sends, and the
reading of a bot's reply, one place for bots as programs (JSON lines) and as Python classes.

The referee sends `hello`, `game`, `event`, `request` and `result`; a bot sends `hello`
once and one `reply` to each request. A reply is checked here: the right id, one of the
listed moves, or a trade offer of the right shape; what is wrong is a `Fault` of one of
`FAULTS`, with the sentence that names it.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ..game.decisions import KINDS as DECISIONS
from ..rules import RESOURCES

PROTOCOL = 1
TRADE_RESPONSE, TRADE_CONFIRM = "trade-response", "trade-confirm"
REQUESTS = DECISIONS + (TRADE_RESPONSE, TRADE_CONFIRM)  # the kinds of request
# What a bot can do wrong, in the order the summary lists them.
ILLEGAL, TIMEOUT, CRASH, GARBAGE, FLOOD = "illegal", "timeout", "crash", "garbage", "flood"
FAULTS = (ILLEGAL, TIMEOUT, CRASH, GARBAGE, FLOOD)
MAX_LINE_BYTES = 1 << 20  # a line from a bot longer than this is a flood
MAX_STRAY_LINES = 100  # lines that answer nothing, while a request waits, before it is a flood
MAX_OFFERS = 3  # trade offers one seat may make in one turn


def _encoder() -> Any:
    """orjson's dumps where it is installed (the compiled build's), else json's, writing the
    same bytes: compact, UTF-8."""
    try:
        import orjson

        return orjson.dumps
    except ImportError:  # (the pure build)
        import json

        def dumps(value: Any) -> bytes:
            return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()

        return dumps


_dumps = _encoder()


def _sorted_encoder() -> Any:
    """A value's JSON with its keys sorted: two values alike in it are equal and of the same
    JSON types (`1` is no `1.0` and no `true`), whatever the order of their keys."""
    try:
        import orjson

        return lambda value: orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except ImportError:  # (the pure build)
        import json

        return lambda value: json.dumps(value, sort_keys=True)


_typed = _sorted_encoder()


def _decoder() -> Any:
    try:
        import orjson

        return orjson.loads
    except ImportError:  # (the pure build)
        import json

        return json.loads


decode = _decoder()  # a JSON value from bytes (or str)


def encode(messages: Sequence[Any]) -> bytes:
    """Messages as JSON lines."""
    if isinstance(messages, Lines):
        return messages.text
    return b"".join(_dumps(m) + b"\n" for m in messages)


class Lines(Sequence[Any]):
    """A game's lines as JSON text, read into messages the first time they are asked for: a
    game played in a worker of `sgn play -j N` comes back as its text, which the parent
    writes as it is, so that taking in a game costs it no more than the bytes (making the
    objects of a game's messages took it about 2.5 ms a game, a share of the workers' cores)."""

    __slots__ = ("text", "_read")

    def __init__(self, text: bytes):
        self.text = text  # JSON lines, each ending in a line break, as `encode` writes them
        self._read: Optional[List[Any]] = None

    def _messages(self) -> List[Any]:
        if self._read is None:
            self._read = [decode(line) for line in self.text.splitlines()]
        return self._read

    def __len__(self) -> int:
        return self.text.count(b"\n")

    def __getitem__(self, index: Any) -> Any:
        return self._messages()[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._messages())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lines):
            return self.text == other.text
        return isinstance(other, (list, tuple)) and self._messages() == list(other)

    __hash__ = None  # type: ignore[assignment]  # (a list's equal, and as unhashable)

    def __repr__(self) -> str:
        return repr(self._messages())

    def __reduce__(self) -> Tuple[Any, Tuple[bytes]]:
        return Lines, (self.text,)


class Fault(NamedTuple):
    """What a bot did wrong: its kind (`FAULTS`) and what, in a sentence."""

    kind: str
    detail: str


class Offer(NamedTuple):
    """A trade offered between players: `give` for `get`, to the seats `to`."""

    give: Dict[str, int]
    get: Dict[str, int]
    to: List[str]

    def to_json(self) -> Dict[str, Any]:
        return {"give": self.give, "get": self.get, "to": self.to}


def hello(options: Dict[str, Any]) -> Dict[str, Any]:
    return {"type": "hello", "protocol": PROTOCOL, "options": options}


def new_game(game: str, seat: str, players: int, rules: str, move_ms: int) -> Dict[str, Any]:
    return {
        "type": "game",
        "game": game,
        "seat": seat,
        "players": players,
        "rules": rules,
        "clock": {"move_ms": move_ms},
    }


def event(line: int, message: Any) -> Dict[str, Any]:
    return {"type": "event", "line": line, "message": message}


def request(
    rid: int,
    kind: str,
    seat: str,
    move_ms: int,
    moves: List[Any],
    hand: Dict[str, int],
    offer: Optional[Offer] = None,
    by: str = "",
    count: int = 0,
) -> Dict[str, Any]:
    out: Dict[str, Any] = {"type": "request", "id": rid, "kind": kind, "seat": seat, "deadline_ms": move_ms}
    out["hand"] = {r: n for r, n in hand.items() if n}
    if offer is not None:
        out["offer"] = {**offer.to_json(), "by": by}
    if count:
        out["count"] = count  # (a discard: how many cards it gives; its ways listed only where few)
    out["moves"] = moves
    return out


def result(winner: Optional[str], points: Dict[str, int], how: str) -> Dict[str, Any]:
    return {"type": "result", "winner": winner, "points": points, "how": how}


def read_hello(value: Any) -> Dict[str, Any]:
    """A bot's hello: its name, author and options; ValueError saying what is wrong."""
    if not isinstance(value, dict) or value.get("type") != "hello":
        raise ValueError('the first line must be {"type": "hello", "name": ..., "protocol": 1}')
    if value.get("protocol") != PROTOCOL:
        raise ValueError(f"the bot speaks protocol {value.get('protocol')!r}; the referee speaks {PROTOCOL}")
    name = value.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError("the hello must give the bot's name, a non-empty string")
    if not isinstance(value.get("offers", True), bool):
        raise ValueError("the hello's offers, where given, is true or false (false: the bot never offers a trade)")
    return value


def read_reply(
    value: Any, rid: int, moves: Sequence[Any], offers: bool, request: Optional[Dict[str, Any]] = None
) -> Any:
    """The move a reply chooses (an item of `moves`, the listed object itself), or an `Offer`
    where `offers` allows one, or a `Fault`. A discard whose ways are not listed (`request`
    has its `count`) is read by `read_discard`."""
    if not isinstance(value, dict) or value.get("type") != "reply":
        return Fault(GARBAGE, 'a reply is {"type": "reply", "id": ..., "move": ...}')
    if value.get("id") != rid:
        return Fault(GARBAGE, f"the reply answers request {value.get('id')!r}, not request {rid}")
    if "offer" in value:
        if not offers:
            return Fault(
                ILLEGAL,
                "a trade may be offered only in one's turn, after the roll, by a bot whose hello did not say it never offers",
            )
        return read_offer(value["offer"])
    if "move" not in value:
        return Fault(GARBAGE, "the reply has no move")
    move = value["move"]
    if not moves and request is not None and request.get("kind") == "discard":
        return read_discard(move, request["seat"], request["hand"], request["count"])
    for listed in moves:
        if listed == move and (move is None or _typed(listed) == _typed(move)):  # (1 is no 1.0 and no true)
            return listed
    return Fault(ILLEGAL, f"{_short(move)} is not one of the {len(moves)} legal moves")


def read_discard(move: Any, seat: str, hand: Dict[str, int], count: int) -> Any:
    """A discard not listed (too many ways): the seat's `TR` giving `count` cards it holds to
    the bank, as `discard_move` writes it (keys in any order), or a `Fault`."""
    from ..game.decisions import discard_move

    wrong = Fault(ILLEGAL, f"a discard gives {count} cards of the hand to the bank: {_short(move)} does not")
    try:
        side = move[2][0]["resources"]
        given = {r: -n for r, n in side.items()}
        if not all(r in RESOURCES and type(n) is int and 0 < n <= hand.get(r, 0) for r, n in given.items()):
            return wrong
        if sum(given.values()) != count:
            return wrong
        canonical = discard_move(seat, given)
    except (TypeError, KeyError, IndexError, AttributeError):
        return wrong
    return canonical if canonical == move and _typed(canonical) == _typed(move) else wrong


def read_offer(value: Any) -> Any:
    """A trade offer `{"give": {...}, "get": {...}, "to": [...]}` (`to` optional: everyone),
    or a `Fault`. Whether the cards are held is the referee's to check."""
    if not isinstance(value, dict) or set(value) - {"give", "get", "to"}:
        return Fault(ILLEGAL, 'an offer is {"give": {"BR": 1}, "get": {"WO": 1}, "to": ["2"]}')
    sides = []
    for key in ("give", "get"):
        side = value.get(key)
        if (
            not isinstance(side, dict)
            or not side
            or any(r not in RESOURCES or type(n) is not int or not 0 < n <= 19 for r, n in side.items())
        ):
            return Fault(
                ILLEGAL, f"the offer's {key!r} must name resources ({', '.join(RESOURCES)}) with counts 1 to 19"
            )
        sides.append(dict(side))
    if set(sides[0]) & set(sides[1]):
        return Fault(ILLEGAL, "an offer may not give and get the same resource")
    to = value.get("to", [])
    if not isinstance(to, list) or not all(isinstance(s, str) for s in to):
        return Fault(ILLEGAL, "the offer's 'to' is a list of seats")
    return Offer(sides[0], sides[1], list(to))


def _short(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 120 else shown[:120] + "..."
