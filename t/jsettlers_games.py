"""The recorded JSettlers games of t/data, and what JSettlers itself says of them, for the
tests (t/test_adapters_jsettlers.py): the engine's own view to hold the replay against.

JSettlers writes no end state of its own, but its log says enough: after each roll
the server sends each player who got resources their whole hand (`pN:SOCPlayerElements`
`SET e1..e5`: clay, ore, sheep, wheat, wood); it announces each change of the longest
road's and largest army's holders (`SOCGameElements` e6, e5), the cards left in the
deck after each purchase (`SOCSimpleAction` actType 1, v1), and at the end every
player's points (the last `SOCGameStats`).
"""

from __future__ import annotations

import re
import tarfile
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Tuple

from sgn.adapters import jsettlers, jsettlers_log as log
from sgn.game import Game

DATA = Path(__file__).resolve().parent / "data"
ARCHIVES = {"4p": DATA / "jsettlers-4p.tar.xz", "6p": DATA / "jsettlers-6p.tar.xz"}
HAND = {1: "B", 2: "O", 3: "W", 4: "G", 5: "L"}  # SOCPlayerElements e1..e5


def recorded(kind: str) -> List[Tuple[str, List[str]]]:
    """(name, lines) of each recorded game of a kind ("4p", "6p"), in name order."""
    games = []
    with tarfile.open(ARCHIVES[kind]) as archive:
        for member in sorted(archive.getmembers(), key=lambda m: m.name):
            if member.isfile() and member.name.endswith(".soclog"):
                text = archive.extractfile(member).read().decode("utf-8")
                games.append((member.name, text.split("\n")))
    return games


class Converted(NamedTuple):
    messages: List[list]
    lines: List[int]  # the log's line of each message
    found: list  # the converter's diagnostics


def converted(name: str, lines: List[str]) -> Converted:
    """The converted game from its map: the header the converter writes first is left out
    (t/test_records.py checks it), so that a replay follows the rules a test names."""
    messages, where, found = [], [], []
    for source, message, seen in jsettlers.read(lines, name):
        found += seen
        if message is not None and message[1] != "HD":
            messages.append(message)
            where.append(source.line)
    return Converted(messages, where, found)


def seats(lines: List[str]) -> Dict[int, str]:
    """JSettlers' seat -> SGN's player, as the converter numbers them."""
    converter = jsettlers.Conversion("", lines)
    converter.seat_names([e for e in log.entries(lines) if isinstance(e, log.Entry)])
    return converter.names


class Differences(NamedTuple):
    hands: List[str]  # a hand after a roll that the replay has otherwise
    end: List[str]  # points, awards, the deck at the end


def differences(lines: List[str], game: Converted, rules: str = "jsettlers") -> Differences:
    """Where the replay of the converted game and JSettlers' own log disagree. JSettlers'
    bank has no limit (docs/engines.md): replayed so, under JSettlers' rule profile, unless
    told otherwise."""
    names = seats(lines)
    replay, done = Game(rules), 0
    hands, end = [], []
    longest: Optional[int] = None
    army: Optional[int] = None
    deck_left: Optional[int] = None
    stats: Optional[List[int]] = None
    for number, text in enumerate(lines, 1):
        while done < len(game.messages) and game.lines[done] <= number:
            replay.apply(game.messages[done], done + 1)
            done += 1
        entry = log.entry(number, text)
        if not isinstance(entry, log.Entry):
            continue
        fields = log.fields(entry.text)
        if entry.kind == "PlayerElements" and entry.audience.startswith("p") and fields.get("actionType") == "SET":
            held = log.elements(entry.text)
            seat = log.number(fields.get("playerNum"))
            if seat in names and set(HAND) <= set(held) and replay.board is not None and replay.players:
                theirs = {HAND[t]: held[t] for t in HAND}
                # (where the rulebook's bank would have paid a roll otherwise, the hand is in
                # doubt: JSettlers' must be one of the ways it may lie)
                if not replay.may_hold(names[seat], theirs):
                    ours = replay.hand_range(names[seat])
                    hands.append(f"line {number}: player {names[seat]} holds {ours}, JSettlers says {theirs}")
        elif entry.kind == "GameElements" and entry.audience == "all":
            changed = log.elements(entry.text)
            longest = changed.get(6, longest)
            army = changed.get(5, army)
        elif entry.kind == "SimpleAction" and entry.audience == "all" and fields.get("actType") == "1":
            deck_left = log.number(fields.get("v1"))
        elif entry.kind == "GameStats" and entry.audience == "all" and not fields.get("stype"):
            stats = [int(v) for v in fields[""].split("|") if re.fullmatch(r"-?\d+", v)]
    while done < len(game.messages):
        replay.apply(game.messages[done], done + 1)
        done += 1
    if stats is None:
        end.append("the log has no final SOCGameStats")
    else:
        for seat, name in names.items():
            if replay.points(name) != stats[seat]:
                end.append(f"player {name} has {replay.points(name)} points, JSettlers says {stats[seat]}")
    for what, theirs, ours in (
        ("longest road", longest, replay.longest_road),
        ("largest army", army, replay.largest_army),
    ):
        theirs_name = names.get(theirs) if theirs is not None and theirs >= 0 else None
        if theirs_name != ours:
            end.append(f"the {what} is player {ours}'s, JSettlers says {theirs_name}'s")
    if deck_left is not None and sum(replay.deck.values()) != deck_left:
        end.append(f"the deck holds {sum(replay.deck.values())} cards, JSettlers says {deck_left}")
    return Differences(hands, end)


def special_builds(lines: List[str]) -> List[int]:
    """The log's lines of the builds and purchases JSettlers made in its Special Building
    Phase (between a `SOCTurn` to game state 100 and the next turn)."""
    found, special = [], False
    for item in log.entries(lines):
        if not isinstance(item, log.Entry) or item.audience == "ob":
            continue
        fields = log.fields(item.text)
        if item.kind == "Turn" and item.audience == "all":
            special = fields.get("gameState") == "100"
        elif special and (
            item.kind == "PutPiece"
            and item.audience == "all"
            or item.kind == "DevCardAction"
            and fields.get("actionType") == "DRAW"
            and item.audience.startswith("p")
        ):
            found.append(item.line)
    return found


def first_short_roll(game: Converted) -> Optional[int]:
    """The line (of the converted game) of the first roll that the rulebook's bank cannot pay
    in full: JSettlers pays every roll in full."""
    replay = Game()
    for n, message in enumerate(game.messages, 1):
        if message[1] == "RD" and replay.board is not None:
            wanted: Dict[str, int] = {}
            for income in replay.income.get(message[2]["result"], {}).values():
                if income.tile != replay.robber:
                    wanted[income.resource] = wanted.get(income.resource, 0) + income.cards
            if any(n_ > replay.bank[r] for r, n_ in wanted.items()):
                return n
        replay.apply(message, n)
    return None
