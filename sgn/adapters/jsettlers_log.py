"""Reading a JSettlers game event log (`.soclog`): its header, its entries, their fields.

JSettlers2's `RecordingSOCServer` writes a game as its game event log
(`soc.extra.server.GameEventLog`; the format is in that class's javadoc, the message
sequences of every action in its `doc/Message-Sequences-for-Game-Actions.md`):

    SOC game event log: type=F, version=2700, created_at=..., now=..., game_name=...
    all:SOCDiceResult:game=g|param=9
    p3:SOCRobberyResult:game=g|perp=3|victim=2|resType=5|amount=1|isGainLose=true

a header, then one network message a line: its audience (`all`, one player `p3`,
all but some `!p3`, `!p[3, 2]`, an observer `ob`, from a client `f3`), its class, and
its fields (`name=value|...`, each class writing its own). `#` starts a comment; blank
lines are allowed; an entry may start with a time (`m:ss.ddd:`).

A full log (`type=F`) holds the messages to every player, so it says the card each
player drew and the resource each robbery took, which SGN records. A client's log
(`type=C`, the messages one client was sent) holds another player's card as `unknown`:
it converts with SGN's hidden values (`?`, docs/hidden.md) where the client saw no card
(`client_view`). `refusal` says why a game on the sea board cannot be converted (ships,
the pirate, gold and fog hexes have no SGN form).
"""

from __future__ import annotations

import re
from typing import Dict, Iterator, List, NamedTuple, Optional, Tuple, Union

HEADER = "SOC game event log:"
LETTER = {1: "B", 2: "O", 3: "W", 4: "G", 5: "L"}  # JSettlers' resource types as SGN's

_ENTRY = re.compile(r"(?:\d+:\d\d\.\d{3}:)?(all|ob|un|fo|f\d|p\d|!p\d|!p\[[\d, ]*\]):(SOC\w+):(.*)\Z")
_SET = re.compile(r"(\w+)=clay=(\d+)\|ore=(\d+)\|sheep=(\d+)\|wheat=(\d+)\|wood=(\d+)\|unknown=(\d+)")
_LIST = re.compile(r"(\w+)=\{([-\w\s]*)\}")
# The integers JSettlers writes are Java's int: at most 10 decimal digits, or 8 hexadecimal
# ones; anything else in a number's place is no number (never handed to int(), which would
# take other scripts' digits, and refuses more than 4,300 with advice for programmers).
_DECIMAL = re.compile(r"-?[0-9]{1,10}")
_HEXADECIMAL = re.compile(r"-?0[xX][0-9a-fA-F]{1,8}")
_COORDINATE = re.compile(r"-?(?:0[xX])?[0-9a-fA-F]{1,8}")
_ELEMENTS = re.compile(r"e(\d+)=(-?\d+)")


class Entry(NamedTuple):
    """One message of the log: its line, audience, class (without `SOC`), and field text."""

    line: int
    audience: str
    kind: str
    text: str


class BadLine(NamedTuple):
    line: int
    reason: str


class BadField(ValueError):
    """A field whose value is not what JSettlers writes there (a count that is no number):
    the converter reports it at its line (`engine-input`), as it does an `Unreadable`."""


def cut(text: str, size: int = 20) -> str:
    """A value of the log as a message shows it: no longer than `size` characters."""
    return text if len(text) <= size else text[: size - 1] + "\u2026"


def _first(lines: List[Optional[str]]) -> Tuple[int, str]:
    for number, line in enumerate(lines, 1):
        if line is not None and line.strip():
            return number, line.strip()
    return 0, ""


def header(lines: List[Optional[str]]) -> Optional[Dict[str, str]]:
    """The header's properties (`type`, `version`, ...), or None when the input has none."""
    _, first = _first(lines)
    if not first.startswith(HEADER):
        return None
    props: Dict[str, str] = {}
    for part in first[len(HEADER) :].split(","):
        key, _, value = part.strip().partition("=")
        props.setdefault(key, value)
    return props


def entries(lines: List[Optional[str]]) -> Iterator[Union[Entry, BadLine]]:
    """Each entry after the header; comments and blank lines skipped, a line that reads as
    no entry a `BadLine` (a line that could not be read at all was reported by reading)."""
    start, _ = _first(lines)
    for number, line in enumerate(lines, 1):
        if number > start and line is not None:
            found = entry(number, line)
            if found is not None:
                yield found


def entry(number: int, line: str) -> Union[Entry, BadLine, None]:
    """One line after the header: an entry, a line that is none, or None (a comment, blank)."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    found = _ENTRY.match(text)
    if found is None:
        return BadLine(number, "this line is no entry of a game event log (audience:SOCMessage:fields)")
    return Entry(number, found.group(1), found.group(2)[3:], found.group(3))


def fields(text: str) -> Dict[str, str]:
    """The simple fields of an entry (`name=value`, split at `|`), the game's name left out;
    fields without a name are listed under "" (SOCGameStats writes its values so)."""
    out: Dict[str, str] = {}
    positional: List[str] = []
    for i, token in enumerate(text.split("|")):
        key, sep, value = token.partition("=")
        if i == 0 and key == "game":
            continue
        if sep:
            out.setdefault(key, value)
        else:
            positional.append(token)
    out[""] = "|".join(positional)
    return out


def resource_sets(text: str) -> Dict[str, Tuple[int, ...]]:
    """The resource sets of an entry, by name (`give`, `get`, `resources`, ...): counts of
    clay, ore, sheep, wheat, wood and unknown (`BadField` for a count that is no number)."""
    return {m.group(1): tuple(_integer(n, m.group(1)) for n in m.groups()[1:]) for m in _SET.finditer(text)}


def int_lists(text: str) -> Dict[str, List[int]]:
    """The arrays of an entry (`hexLayout={ 6 6 9 ... }`), by name (`BadField` for an item
    that is no number)."""
    return {m.group(1): [_integer(n, m.group(1)) for n in m.group(2).split()] for m in _LIST.finditer(text)}


def _integer(text: str, name: str) -> int:
    if not _DECIMAL.fullmatch(text):
        raise BadField(f"{name} holds {cut(text)!r}, which is no number JSettlers writes there")
    return int(text)


def elements(text: str) -> Dict[int, int]:
    """The element changes of a SOCPlayerElements entry (`e1=0,e2=3`): type -> amount."""
    return {int(k): int(v) for k, v in _ELEMENTS.findall(text)}


def number(value: Optional[str]) -> Optional[int]:
    """An integer field: decimal, or hexadecimal with 0x (as the robber's hex is written);
    None when it is absent or no number JSettlers writes."""
    if value is None:
        return None
    if _DECIMAL.fullmatch(value):
        return int(value)
    return int(value, 16) if _HEXADECIMAL.fullmatch(value) else None


def coordinate(value: Optional[str]) -> Optional[int]:
    """A place on the board (`coord=67`): hexadecimal, with 0x or without; None when it is
    absent or no coordinate JSettlers writes."""
    return int(value, 16) if value is not None and _COORDINATE.fullmatch(value) else None


def options(lines: List[Optional[str]]) -> Dict[str, str]:
    """The game's options (`PL=6`, `SBL=t`, `VP=t12`), from its SOCNewGameWithOptions."""
    for item in entries(lines):
        if isinstance(item, Entry) and item.kind == "NewGameWithOptions":
            text = fields(item.text).get("param2", "")
            return dict(part.partition("=")[::2] for part in text.split(",") if part)
    return {}


def _told(lines: List[Optional[str]]) -> set:
    """The seats the log holds private messages to (`p3:`)."""
    return {item.audience for item in entries(lines) if isinstance(item, Entry) and item.audience[0] == "p"}


def client_view(lines: List[Optional[str]]) -> bool:
    """Whether the log is one client's view (`type=C` with the private messages of one
    player at most, as a client records it): the cards others drew, stole or discarded are
    not in it. The server writes `type=C` too (`*savelog* -c`), with every player's private
    messages: that one holds every card, as a full log does."""
    props = header(lines)
    return props is not None and props.get("type") == "C" and len(_told(lines)) < 2


def refusal(lines: List[Optional[str]]) -> str:
    """Why the log cannot be converted at all, or "": a game on the sea board."""
    if header(lines) is None:
        return ""
    opts = options(lines)
    if opts.get("SBL", "").startswith("t") or "SC" in opts:
        return (
            "the game is on JSettlers' sea board (game option SBL or a scenario): ships, the pirate, "
            "gold and fog hexes have no SGN form; the classic 4- and 6-player boards convert"
        )
    for item in entries(lines):
        if isinstance(item, Entry) and item.kind == "BoardLayout2" and fields(item.text).get("bef") == "3":
            return (
                "the game is on JSettlers' sea board (board encoding 3): ships, the pirate, gold and "
                "fog hexes have no SGN form; the classic 4- and 6-player boards convert"
            )
    return ""
