"""catanatron's move generator under the conformance harness (docs/conformance.md, "Rules
engines"; docs/engines.md, catanatron): a rules engine in both modes of the protocol.

Given a log prefix, it builds a catanatron game on the same map (catanatron's base map
template, filled with the prefix's tiles, numbers and harbors), replays the prefix as
catanatron actions with their outcomes (the dice, the card drawn, the card stolen, the cards
discarded), asks catanatron's `playable_actions`, and says them as SGN messages:

- a roll (`ROLL`) as its 11 totals, the turn's end (`END_TURN`) as the next player's roll;
- a card bought as each kind left in catanatron's deck; the robber's tile as `MR`, and after
  it (the prefix ends with the `MR`) each resource each victim catanatron offers holds;
- catanatron's discard is drawn by the engine, not chosen (declared: `discard`).

It declares catanatron's known departures (docs/engines.md, "Its move generator"), so that
those classes of moves are not compared. A position it cannot build (another map, more than
four players, a line catanatron refuses) is skipped,
with the reason (in simple mode, which has no skip, it exits 3 with the reason on standard
error: errored). A perft count is not asked of it (skipped): its departures would change
every count.

    sgn conformance --moves --mode persistent --impl "python examples/python/catanatron_engine.py"

Needs catanatron (3.2.1) and sgn, whose board and catanatron adapter it reuses.
"""

import base64
import json
import os
import sys

from catanatron import Color, Game, RandomPlayer
from catanatron.json import GameEncoder
from catanatron.models.actions import generate_playable_actions
from catanatron.models.enums import Action, ActionType
from catanatron.models.map import CatanMap

from sgn import board
from sgn.adapters.catanatron import COLORS
from sgn.adapters.catanatron_board import RESOURCE, Translation, cube
from sgn.game.move_forms import is_discard, with_bank
from sgn.messages import (
    build_city,
    build_road,
    build_settlement,
    buy_card,
    move_robber,
    play_knight,
    play_monopoly,
    play_road_building,
    play_year_of_plenty,
    roll,
    steal,
)
from sgn.referee.catanatron_view import Unplayable, template_tiles  # (the map, as the referee's bridge builds it)

DEPARTURES = [
    {"moves": "discard", "rule": "a player chooses the cards they discard (catanatron draws them at random)"},
    {"moves": "knight", "rule": "a card bought this turn is not played (catanatron offers it)"},
    {"moves": "year-of-plenty", "rule": "a card may be played before the roll; not one bought this turn"},
    {"moves": "monopoly", "rule": "a card may be played before the roll; not one bought this turn"},
    {"moves": "road-building", "rule": "Road Building may be played without paying for a road, before the roll"},
    {"moves": "victory-point", "rule": "a Victory Point card may be shown (catanatron has no such action)"},
    {"moves": "bank-trade", "rule": "a trade with the bank at any rate the player has (catanatron: the best only)"},
]
INFO = {
    "name": "catanatron",
    "language": "python",
    "version": "3.2.1",
    "homepage": "https://github.com/bcollazo/catanatron",
    "moves": {"departures": DEPARTURES},
}
BY_LETTER = {letter: name for name, letter in RESOURCE.items()}


class Replay:
    """A catanatron game of `count` players on the prefix's map, the prefix replayed in it."""

    def __init__(self, messages, count):
        if count > 4:
            raise Unplayable("catanatron plays 2 to 4 players")
        tiles = template_tiles(messages[0][2])
        players = [RandomPlayer(getattr(Color, c)) for c in COLORS[:count]]
        self.game = Game(players, seed=1, catan_map=CatanMap.from_tiles(tiles))
        self.translation = Translation(json.loads(json.dumps(self.game, cls=GameEncoder)))
        if {tuple(t["tile"]): (t["tCode"], t["rNumber"]) for t in self.translation.map["tiles"]} != {
            tuple(t["tile"]): (t["tCode"], t["rNumber"]) for t in messages[0][2]["tiles"]
        }:
            raise Unplayable("catanatron built another map")
        self.name = {color: str(n + 1) for n, color in enumerate(self.game.state.colors)}
        self.color = {name: color for color, name in self.name.items()}
        self.node = {}
        for node, corner in self.translation.nodes.items():
            if any(t in self.translation.land for t in corner):
                self.node[board.corner_from_json(self.translation.corner(node, ""))] = node

    # -- SGN to catanatron -------------------------------------------------------------------

    def _do(self, color, kind, value=None):
        try:
            self.game.execute(Action(color, kind, value), validate_action=False)
        except Exception as error:  # catanatron refuses the line
            raise Unplayable(f"catanatron refuses {kind.value}: {error}") from None

    def _edge(self, path):
        a, b = (self.node[board.corner_from_json(end)] for end in path)
        return (a, b)

    def apply(self, message, following):
        """Replay one message (the next one, `following`, tells a robber's victim)."""
        player, code, value = message
        color = self.color.get(player)
        state = self.game.state
        rolled = state.player_state[f"P{state.current_player_index}_HAS_ROLLED"]
        if rolled and state.is_initial_build_phase is False and (code == "RD" or color != state.current_color()):
            if code not in ("ST", "TR") and state.current_prompt.value == "PLAY_TURN":
                self._do(state.current_color(), ActionType.END_TURN)  # (the next player's roll or card ends the turn)
        if code == "RD":
            total = value["result"]
            self._do(color, ActionType.ROLL, (min(6, total - 1), total - min(6, total - 1)))
        elif code == "BS":
            self._do(color, ActionType.BUILD_SETTLEMENT, self.node[board.corner_from_json(value["intersection"])])
        elif code == "BC":
            self._do(color, ActionType.BUILD_CITY, self.node[board.corner_from_json(value["intersection"])])
        elif code == "BR":
            self._do(color, ActionType.BUILD_ROAD, self._edge(value["path"]))
        elif code == "BD":
            self._do(color, ActionType.BUY_DEVELOPMENT_CARD, CARDS[value["cCode"]])
        elif code == "MR":
            where = (value["tile"][0], -value["tile"][0] - value["tile"][1], value["tile"][1])
            victim = card = None
            if following is not None and following[1] == "ST":
                for side in following[2]:
                    if side["player"] != player:
                        victim = self.color[side["player"]]
                        card = BY_LETTER[next(iter(side["resources"]))]
            self._do(color, ActionType.MOVE_ROBBER, (where, victim, card))
        elif code == "ST":
            pass  # (with its MR)
        elif code == "TR" and is_discard(value):
            mine = next(s["resources"] for s in value if s["player"] == player)
            self._do(color, ActionType.DISCARD, [BY_LETTER[r] for r, n in mine.items() for _ in range(-n)])
        elif code == "TR" and {s["player"] for s in value} == {player, "B"}:
            mine = next(s["resources"] for s in value if s["player"] == player)
            given = [BY_LETTER[r] for r, n in mine.items() for _ in range(-n) if n < 0]
            taken = [BY_LETTER[r] for r, n in mine.items() if n > 0]
            if len(taken) != 1 or len(set(given)) != 1:
                raise Unplayable("a bank trade of more than one lot")
            self._do(color, ActionType.MARITIME_TRADE, tuple(given + [None] * (4 - len(given)) + taken))
        elif code == "TR":  # between players: catanatron's offers are not replayed, their exchange is
            for side in value:
                key = f"P{state.color_to_index[self.color[side['player']]]}"
                for r, n in side["resources"].items():
                    state.player_state[f"{key}_{BY_LETTER[r]}_IN_HAND"] += n
            state.playable_actions = generate_playable_actions(state)
        elif code == "PD" and value["cCode"] == "KN":
            self._do(color, ActionType.PLAY_KNIGHT_CARD)
        elif code == "PD" and value["cCode"] == "RB":
            self._do(color, ActionType.PLAY_ROAD_BUILDING)
        elif code == "PD" and value["cCode"] == "YP":
            self._do(color, ActionType.PLAY_YEAR_OF_PLENTY, tuple(BY_LETTER[r] for r in value["rCodes"]))
        elif code == "PD" and value["cCode"] == "MO":
            self._do(color, ActionType.PLAY_MONOPOLY, BY_LETTER[value["rCodes"][0]])
        elif code == "PD":
            pass  # a Victory Point card shown: catanatron counts it already

    # -- catanatron to SGN ---------------------------------------------------------------------

    def held(self, color, resource):
        return self.game.state.player_state[f"P{self.game.state.color_to_index[color]}_{resource}_IN_HAND"]

    def moves(self):
        """catanatron's playable actions, as SGN messages."""
        state, out = self.game.state, []
        for action in state.playable_actions:
            player, kind, value = self.name[action.color], action.action_type, action.value
            if kind == ActionType.ROLL:
                out += [roll(player, total) for total in range(2, 13)]
            elif kind == ActionType.END_TURN:
                following = state.colors[(state.current_turn_index + 1) % len(state.colors)]
                out += [roll(self.name[following], total) for total in range(2, 13)]
            elif kind in (ActionType.BUILD_SETTLEMENT, ActionType.BUILD_CITY):
                build = build_settlement if kind == ActionType.BUILD_SETTLEMENT else build_city
                out.append(build(player, self.translation.corner(value, "")))
            elif kind == ActionType.BUILD_ROAD:
                out.append(build_road(player, self.translation.edge(list(value), "")))
            elif kind == ActionType.BUY_DEVELOPMENT_CARD:
                out += [buy_card(player, c) for c, name in CARDS.items() if name in state.development_listdeck]
            elif kind == ActionType.MOVE_ROBBER:
                out.append(move_robber(player, cube(list(value[0]), "")))
            elif kind == ActionType.MARITIME_TRADE:
                given = [r for r in value[:4] if r is not None]
                out.append(with_bank(player, {RESOURCE[given[0]]: len(given)}, {RESOURCE[value[4]]: 1}))
            elif kind == ActionType.PLAY_KNIGHT_CARD:
                out.append(play_knight(player))
            elif kind == ActionType.PLAY_ROAD_BUILDING:
                out.append(play_road_building(player))
            elif kind == ActionType.PLAY_YEAR_OF_PLENTY:
                out.append(play_year_of_plenty(player, [RESOURCE[r] for r in value]))
            elif kind == ActionType.PLAY_MONOPOLY:
                out.append(play_monopoly(player, RESOURCE[value]))
            # DISCARD: drawn by the engine, a declared departure; trades between players: not listed
        return out

    def steals(self, message):
        """After a robber's move (the prefix's last line): each victim catanatron offers
        there, each resource they hold."""
        player, _, value = message
        where = (value["tile"][0], -value["tile"][0] - value["tile"][1], value["tile"][1])
        victims = {
            a.value[1]
            for a in self.game.state.playable_actions
            if a.action_type == ActionType.MOVE_ROBBER and tuple(a.value[0]) == where and a.value[1] is not None
        }
        if not victims:
            return None
        return [
            steal(player, self.name[victim], RESOURCE[r])
            for victim in sorted(victims, key=lambda c: self.name[c])
            for r in RESOURCE
            if self.held(victim, r) > 0
        ]


CARDS = {"KN": "KNIGHT", "VP": "VICTORY_POINT", "RB": "ROAD_BUILDING", "YP": "YEAR_OF_PLENTY", "MO": "MONOPOLY"}


def legal(messages, count):
    """The legal moves after the prefix for `count` players, as catanatron says them."""
    replay = Replay(messages, count)
    rest = messages[1:]
    for i, message in enumerate(rest):
        following = rest[i + 1] if i + 1 < len(rest) else None
        if following is None and message[1] == "MR":
            steals = replay.steals(message)
            if steals is not None:
                return steals
        replay.apply(message, following)
    return replay.moves()


def answer(data, players, hidden):
    messages = [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]
    if not messages or messages[0][1] != "DM":
        raise Unplayable("the prefix does not begin with the map")
    placed = [m[0] for m in messages if m[1] == "BS"]
    if players:
        counts = [players]
    elif len(set(placed)) < len(placed) or any(m[1] == "RD" for m in messages):
        counts = [len(set(placed))]
    else:  # the first round, the number of players not shown yet: any the base map is for
        counts = [n for n in (3, 4) if n >= len(placed)]
    if not counts or max(counts) > 4:
        raise Unplayable("catanatron plays 2 to 4 players")
    found = {}
    for count in counts:
        for move in legal(messages, count):
            found.setdefault(json.dumps(move, sort_keys=True), move)
    return list(found.values())


def reply_to(request):
    if request["cmd"] == "start":
        return {"ready": True, "version": 1, "implementation": INFO}
    position = request["position"]
    if request.get("depth"):
        return {"seq": request["seq"], "skipped": True, "reason": "perft counts are not asked of catanatron here"}
    try:
        found = answer(base64.b64decode(position["data"]), position["players"], position["hidden"])
    except Unplayable as why:
        return {"seq": request["seq"], "skipped": True, "reason": str(why)}
    return {"seq": request["seq"], "moves": found}


def main():
    if "--simple" in sys.argv:
        players = os.environ.get("SGN_PLAYERS")
        try:
            found = answer(sys.stdin.buffer.read(), int(players) if players else None, os.environ["SGN_HIDDEN"])
        except Unplayable as why:
            print(f"catanatron: {why}", file=sys.stderr)
            return 3
        sys.stdout.write("".join(json.dumps(m) + "\n" for m in found))
        return 0
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "stop":
            return 0
        try:
            reply = reply_to(request)
        except Exception as error:  # a bug of the adapter: an errored position, not a crash
            reply = {"seq": request.get("seq", 0), "errored": True, "message": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
