"""A catanatron game kept to the position one seat knows, for catanatron's own players at the
referee's table (`sgn/referee/catanatron_bots.py`).

catanatron's players read a whole `catanatron.Game`: every hand, the deck's order. A seat
knows less: its events show `?` for another's card bought and a card stolen between two
others. `Replica` keeps two replays of the seat's events in step: sgn's rules replay
(`known`, a `sgn.game.Game` of the partial view, as `View.game` is), which knows what is
known and every way the hands in doubt may lie (docs/hidden.md); and a catanatron game on
the same map (its base map's template filled with the map's tiles, numbers and harbors, as
examples/python/catanatron_engine.py builds it), each event replayed as catanatron's action:
the board, the robber, the turn and what is asked next.

After each event, catanatron's hands, bank, development cards, points and awards are written
from sgn's replay (`sync`): one possible world where the view is partial. A hand in doubt is
one of the ways the cards may lie; a card drawn unseen is a kind the deck had left (never
more Victory Points than the player may hold), and catanatron's deck is what is left,
shuffled. Only the seat's events are read.
"""

from __future__ import annotations

import json
import random
from contextlib import contextmanager
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

# (catanatron has no types, and is an extra: missing where mypy checks the build)
from catanatron import Color, Game
from catanatron.json import GameEncoder
from catanatron.models.actions import generate_playable_actions
from catanatron.models.enums import Action, ActionPrompt, ActionType
from catanatron.models.map import (
    BASE_MAP_TEMPLATE,
    CatanMap,
    LandTile,
    initialize_tiles,
)
from catanatron.models.player import RandomPlayer

from .. import board, messages, rules
from ..adapters.catanatron import COLORS
from ..adapters.catanatron_actions import CARD, FREQDECK
from ..adapters.catanatron_board import RESOURCE, SIDE, TERRAIN, Translation
from ..game.core import TURNS, Game as Known
from ..game.move_forms import is_discard

BY_LETTER = {letter: name for name, letter in RESOURCE.items()}  # "L" -> "WOOD"
BY_TERRAIN = {code: name for name, code in TERRAIN.items()}  # "FO" -> "WOOD"
CARDS = {code: name for name, code in CARD.items()}  # "KN" -> "KNIGHT"
PLAYS = dict(KN="PLAY_KNIGHT_CARD", RB="PLAY_ROAD_BUILDING", YP="PLAY_YEAR_OF_PLENTY", MO="PLAY_MONOPOLY")
MAX_PLAYERS = 4  # catanatron's base game


class Unplayable(Exception):
    """A game catanatron cannot hold: another map, more than four players."""


class Mismatch(Exception):
    """catanatron's game is not at the position sgn's replay is (a bug, or a rule of
    catanatron's that the rules followed do not share)."""


@contextmanager
def seeded(seed: object) -> Iterator[None]:
    """catanatron draws from Python's global `random`: seeded here, and put back after, so
    that a decision depends on its seed alone and nothing else's draws are disturbed."""
    saved = random.getstate()
    random.seed(str(seed))
    try:
        yield
    finally:
        random.setstate(saved)


def template_tiles(the_map: dict) -> Any:
    """catanatron's tiles for an SGN map: its template's places, filled with the map's tiles,
    numbers and harbors (Unplayable for a map not of the template's shape)."""
    tiles = {tuple(t["tile"]): t for t in the_map["tiles"]}
    harbors = {board.edge_from_json(h["path"]): h["hCode"] for h in the_map.get("harbors", [])}
    numbers: List[int] = []
    ports: List[Optional[str]] = []
    resources: List[Optional[str]] = []
    for coordinate, kind in BASE_MAP_TEMPLATE.topology.items():
        x, _, z = coordinate
        tile = tiles.get((x, z))
        if tile is None:
            raise Unplayable("the map is not catanatron's base map")
        if isinstance(kind, tuple):  # a port: its side toward the land
            side = board.edge_between((x, z), board.add((x, z), board.DIRECTIONS[SIDE[kind[1].value]]))
            code = harbors.get(side)
            if code is None:
                raise Unplayable("a harbor is not where catanatron's template has one")
            ports.append(None if code == "HR" else BY_LETTER[code[2:]])
        elif kind == LandTile:
            if tile["tCode"] == "D":
                resources.append(None)
            elif tile["tCode"] in BY_TERRAIN:
                resources.append(BY_TERRAIN[tile["tCode"]])
                numbers.append(tile["rNumber"])
            else:
                raise Unplayable("the map is not catanatron's base map")
    return initialize_tiles(BASE_MAP_TEMPLATE, numbers[::-1], ports[::-1], resources[::-1])


class Replica:
    """catanatron's game and sgn's replay of one seat's events, in step (see the module)."""

    def __init__(self, the_map: dict, count: int, rules_name: str):
        if count > MAX_PLAYERS:
            raise Unplayable(f"catanatron plays 2 to {MAX_PLAYERS} players")
        tiles = template_tiles(the_map)
        with seeded(1):  # (catanatron's Game seeds the global random itself)
            players = [RandomPlayer(getattr(Color, c)) for c in COLORS[:count]]
            self.game = Game(players, seed=1, catan_map=CatanMap.from_tiles(tiles))
        places = Translation(json.loads(json.dumps(self.game, cls=GameEncoder)))

        def listed(tiles: List[dict]) -> Dict[Tuple[int, int], Tuple[str, Any]]:
            return {(t["tile"][0], t["tile"][1]): (t["tCode"], t["rNumber"]) for t in tiles}

        if listed(places.map["tiles"]) != listed(the_map["tiles"]):
            raise Unplayable("catanatron built another map")
        state = self.game.state
        self.name = {color: str(n + 1) for n, color in enumerate(state.colors)}
        self.color = {name: color for color, name in self.name.items()}
        self.corner = {node: c for node, c in places.nodes.items() if any(t in places.land for t in c)}
        self.node = {c: node for node, c in self.corner.items()}
        self.known = Known(rules_name)
        self.known.apply(messages.define_map(the_map), 1)
        self.applied = 1  # the events replayed
        self.robber: Optional[list] = None  # a robber's move, replayed with the steal that follows
        self.refused: List[str] = []  # events catanatron refused (its state written from sgn's all the same)

    # -- the events ----------------------------------------------------------------------------
    def advance(self, events: Sequence[Any]) -> None:
        """Replay the events not replayed yet."""
        while self.applied < len(events):
            message = events[self.applied]
            self.applied += 1
            self.apply(message)

    def apply(self, message: Sequence[Any]) -> None:
        g = self.known
        before = g.turn
        g.apply(message, self.applied)  # (the referee judged the game: its problems are none)
        _, code, _ = message
        pending, self.robber = self.robber, None
        if pending is not None:
            self._act(self._rob, pending, message if code == "ST" else None)
            if code == "ST":
                self.sync()
                return
        if g.turn > before >= 1:  # the next player's roll or card: the turn before ended
            self._act(self._do, self.game.state.current_color(), ActionType.END_TURN)
        if code == "MR":
            self.robber = list(message)  # (with its steal, when one follows)
        else:
            self._act(self._event, message)
        self.sync()

    def _act(self, step: Any, *args: Any) -> None:
        try:
            step(*args)
        except Exception as error:  # catanatron refuses it: its state is written from sgn's below
            self.refused.append(f"event {self.applied}: {type(error).__name__}: {error}")

    def _do(self, color: Any, kind: Any, value: Any = None) -> None:
        self.game.execute(Action(color, kind, value), validate_action=False)

    def _key(self, name: str) -> str:
        state = self.game.state
        return f"P{state.color_to_index[self.color[name]]}"

    def _hold(self, name: str, item: str, count: int = 1) -> None:
        """Make sure catanatron's `name` holds `count` of `item` (a card of a world other
        than the one chosen, which `sync` corrects after the event)."""
        key = f"{self._key(name)}_{item}_IN_HAND"
        ps = self.game.state.player_state
        ps[key] = max(ps[key], count)

    def _rob(self, message: list, steal: Optional[list]) -> None:
        player, _, value = message
        where = (value["tile"][0], -value["tile"][0] - value["tile"][1], value["tile"][1])
        victim: Any = None
        card: Optional[str] = None
        for side in steal[2] if steal is not None else ():
            if side["player"] != player:
                victim = self.color[side["player"]]
                card = BY_LETTER.get(next(iter(side["resources"]))) or self._any_card(side["player"])
                if card is not None:
                    self._hold(side["player"], card)
        self._do(self.color[player], ActionType.MOVE_ROBBER, (where, victim, card))

    def _any_card(self, name: str) -> Optional[str]:
        """A resource `name` holds in catanatron's game (a card stolen unseen: any they may hold)."""
        ps = self.game.state.player_state
        return next((r for r in FREQDECK if ps[f"{self._key(name)}_{r}_IN_HAND"] > 0), None)

    def _event(self, message: Sequence[Any]) -> None:
        player, code, value = message
        color = self.color.get(player)
        if code in ("BS", "BC"):
            kind = ActionType.BUILD_SETTLEMENT if code == "BS" else ActionType.BUILD_CITY
            self._do(color, kind, self.node[board.corner_from_json(value["intersection"])])
        elif code == "BR":
            a, b = (self.node[board.corner_from_json(end)] for end in value["path"])
            try:
                self._do(color, ActionType.BUILD_ROAD, (a, b))
            except ValueError:  # (on from a corner another has built on: the rules followed allow it)
                self._lay_road(color, a, b)
        elif code == "RD":
            total = value["result"]
            self._do(color, ActionType.ROLL, (min(6, total - 1), total - min(6, total - 1)))
        elif code == "BD":
            for r in ("SHEEP", "WHEAT", "ORE"):
                self._hold(player, r)
            card = CARDS.get(value["cCode"])
            deck = self.game.state.development_listdeck
            if card is not None and card not in deck or not deck:
                deck.append(card or "KNIGHT")
            self._do(color, ActionType.BUY_DEVELOPMENT_CARD, card)
        elif code == "TR" and is_discard(value):
            mine = next(s["resources"] for s in value if s["player"] == player)
            self._do(color, ActionType.DISCARD, [BY_LETTER[r] for r, n in mine.items() for _ in range(-n)])
        elif code == "TR" and {s["player"] for s in value} == {player, "B"}:
            self._trade(player, next(s["resources"] for s in value if s["player"] == player))
        elif code == "PD" and value["cCode"] != "VP":  # (a Victory Point shown: catanatron counts it held)
            self._play(player, value)
        # a trade between players, a steal: their cards are written by `sync`

    def _lay_road(self, color: Any, a: int, b: int) -> None:
        """A road catanatron's board refuses and the rules followed allow, laid on it all the
        same: its network joined, the piece counted (the cards and the longest road: `sync`)."""
        state = self.game.state
        places = state.board
        if places.get_edge_color((a, b)) is not None:
            raise ValueError("a road is there")
        places.roads[(a, b)] = places.roads[(b, a)] = color
        parts = places.connected_components[color]
        joined = {a, b}.union(*(part for part in parts if a in part or b in part))
        places.connected_components[color] = [part for part in parts if a not in part and b not in part] + [joined]
        state.buildings_by_color[color]["ROAD"].append((a, b))
        state.player_state[f"P{state.color_to_index[color]}_ROADS_AVAILABLE"] -= 1
        if state.is_road_building and state.free_roads_available > 0:
            state.free_roads_available -= 1
            state.is_road_building = state.free_roads_available > 0

    def _trade(self, player: str, mine: Dict[str, int]) -> None:
        given = [BY_LETTER[r] for r, n in mine.items() for _ in range(-n) if n < 0]
        taken = [BY_LETTER[r] for r, n in mine.items() if n > 0]
        if len(taken) != 1 or len(set(given)) != 1 or len(given) > 4:
            return  # (not one lot: the hands are written by `sync`)
        self._hold(player, given[0], len(given))
        self._do(self.color[player], ActionType.MARITIME_TRADE, tuple(given + [None] * (4 - len(given)) + taken))

    def _play(self, player: str, value: Dict[str, Any]) -> None:
        card = CARDS[value["cCode"]]
        self._hold(player, card)  # (drawn unseen, and given another kind by `sync`: it was this one)
        self.game.state.player_state[f"{self._key(player)}_HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN"] = False
        chosen = [BY_LETTER[r] for r in value.get("rCodes", [])]
        choice = tuple(chosen) if value["cCode"] == "YP" else chosen[0] if chosen else None
        self._do(self.color[player], ActionType[PLAYS[value["cCode"]]], choice)

    # -- sgn's knowledge, written into catanatron's state (one possible world: below) ---------
    def sync(self, rng: Optional[random.Random] = None) -> None:
        """Write sgn's replay into catanatron's state: hands, bank, cards, points, awards."""
        g, state = self.known, self.game.state
        ps = state.player_state
        hands = possible_hands(g, rng)
        held, deck = possible_cards(g, rng)
        for name, p in g.players.items():
            if name not in self.color:
                continue
            key = self._key(name)
            for r in FREQDECK:
                ps[f"{key}_{r}_IN_HAND"] = hands[name][RESOURCE[r]]
            for c, n in held[name].items():
                ps[f"{key}_{CARDS[c]}_IN_HAND"] = n
            public = g.points(name) - (p.cards["VP"] + p.new_cards["VP"] + p.revealed_points)
            ps[f"{key}_VICTORY_POINTS"] = public
            ps[f"{key}_ACTUAL_VICTORY_POINTS"] = public + held[name]["VP"]
            ps[f"{key}_HAS_ROAD"] = g.longest_road == name
            ps[f"{key}_HAS_ARMY"] = g.largest_army == name
            ps[f"{key}_LONGEST_ROAD_LENGTH"] = g.road_length(name)
            ps[f"{key}_PLAYED_KNIGHT"] = p.knights
            ps[f"{key}_HAS_ROLLED"] = name == g.current and g.rolled
            ps[f"{key}_HAS_PLAYED_DEVELOPMENT_CARD_IN_TURN"] = name == g.current and g.card_played
        state.resource_freqdeck = [hands["B"][RESOURCE[r]] for r in FREQDECK]
        state.development_listdeck = deck
        if g.phase == TURNS and g.current in self.color:
            self._steer()

    def _steer(self) -> None:
        """Who acts now and on what, as sgn's replay says: a discard owed, the robber, the turn
        (catanatron's own count of who discards may read another world of the hands)."""
        g, state = self.known, self.game.state
        assert g.current is not None
        turn = state.color_to_index[self.color[g.current]]
        owed = sorted(g.discards_owed, key=lambda n: (len(n), n))
        state.current_turn_index = turn
        state.current_player_index = state.color_to_index[self.color[owed[0]]] if owed else turn
        state.is_discarding, state.is_moving_knight = bool(owed), not owed and g.robber_due is not None
        state.current_prompt = (
            ActionPrompt.DISCARD if owed else ActionPrompt.MOVE_ROBBER if g.robber_due else ActionPrompt.PLAY_TURN
        )
        state.is_road_building, state.free_roads_available = g.free_roads > 0, g.free_roads

    # -- the position for a decision -----------------------------------------------------------
    def position(self, seat: str, kind: str, rng: random.Random) -> Any:
        """A copy of catanatron's game at the seat's decision, the hidden cards drawn by `rng`,
        its playable actions worked out (Mismatch when it is not where sgn's replay is)."""
        game = self.game.copy()
        saved, self.game = self.game, game
        try:
            if self.robber is not None:  # (no steal followed it: the seat is asked another thing)
                self._rob(self.robber, None)
            self.sync(rng)
            state = game.state
            if kind == "roll" and not state.is_initial_build_phase and self.name[state.current_color()] != seat:
                self._do(state.current_color(), ActionType.END_TURN)  # (the turn before ends with this roll)
            state.playable_actions = generate_playable_actions(state)
            self.check(seat, kind)
        finally:
            self.game = saved
        return game

    def check(self, seat: str, kind: str) -> None:
        state, g = self.game.state, self.known
        current = self.name[state.current_color()]
        if current != seat:
            raise Mismatch(f"catanatron asks player {current}, sgn player {seat}")
        prompt = state.current_prompt
        expected = {
            "settlement": prompt == ActionPrompt.BUILD_INITIAL_SETTLEMENT,
            "road": prompt == ActionPrompt.BUILD_INITIAL_ROAD
            or (prompt == ActionPrompt.PLAY_TURN and state.is_road_building),
            "robber": prompt == ActionPrompt.MOVE_ROBBER,
            "roll": prompt == ActionPrompt.PLAY_TURN and not state.is_road_building,
            "turn": prompt == ActionPrompt.PLAY_TURN and not state.is_road_building,
        }
        if not expected.get(kind, False):
            raise Mismatch(f"catanatron's prompt is {prompt.value} for a {kind} request")
        robber = state.board.robber_coordinate
        if g.robber is not None and (robber[0], robber[2]) != g.robber:
            raise Mismatch("the robber is elsewhere")
        for name, p in g.players.items():
            built = state.buildings_by_color[self.color[name]]
            counts = [len(built[k]) for k in ("SETTLEMENT", "CITY", "ROAD")]
            if counts != [len(p.settlements), len(p.cities), len(p.roads)]:
                raise Mismatch(f"player {name}'s pieces differ")


# -- one possible world of what the seat does not see ---------------------------------------
def possible_hands(g: Known, rng: Optional[random.Random]) -> Dict[str, Dict[str, int]]:
    """Each player's resources and the bank's: as known, and one world (the first, or one
    drawn by `rng`) for the holders in doubt (the least of a count known within bounds)."""
    out = {name: dict(p.hand) for name, p in g.players.items()}
    out["B"] = dict(g.bank)
    doubt = g.unseen.doubt
    if doubt is not None and doubt.ways():
        out.update(doubt.one_way(None if rng is None else rng.randrange))
    return out


def possible_cards(g: Known, rng: Optional[random.Random]) -> Tuple[Dict[str, Dict[str, int]], List[str]]:
    """Each player's development cards, those drawn unseen given kinds the deck had left
    (the most plentiful, or drawn by `rng` as the deck holds them; no more Victory Points
    than they may hold, nor enough for 10 points), and the deck left (shuffled by `rng`)."""
    pool = dict(g.deck)  # (the kinds not drawn in sight: the unseen cards among them)
    held: Dict[str, Dict[str, int]] = {}
    for name in sorted(g.players, key=lambda n: (len(n), n)):
        p = g.players[name]
        mine = {c: p.cards[c] + p.new_cards[c] for c in rules.DECK}
        mine["VP"] += p.revealed_points
        points = min(p.unseen_points, rules.POINTS_TO_WIN - 1 - g.points(name))
        for _ in range(p.unseen_cards + p.unseen_new):
            kinds = [c for c in rules.DECK if pool[c] > 0 and (c != "VP" or points > 0)]
            kinds = kinds or [c for c in rules.DECK if pool[c] > 0]  # (the deck left must be its size)
            if not kinds:
                break
            if rng is None:
                card = max(kinds, key=lambda c: pool[c])
            else:
                card = rng.choices(kinds, weights=[pool[c] for c in kinds])[0]
            pool[card] -= 1
            mine[card] += 1
            points -= card == "VP"
        held[name] = mine
    deck = [CARDS[c] for c in rules.DECK for _ in range(max(0, pool[c]))]
    if rng is not None:
        rng.shuffle(deck)
    return held, deck
