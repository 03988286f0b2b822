"""Legal moves against a peer, and their speed (docs/moves.md): `Game.legal_moves` beside
catanatron's own move generator (`playable_actions`) on the states of its games, mapped to
SGN; then positions and perft nodes per second.

- **cross-check**: catanatron's random bots play under the rulebook's production and longest
  road and keep from playing a card the turn they bought it (`engine_games.py`); at each
  state, catanatron's playable actions, as SGN says them, against the moves `sgn` lists for
  the player catanatron asks to act. Each disagreement is counted by kind and direction
  (catanatron offers what `sgn` does not, or the other way round), with an example.
  Differences of form are not disagreements and are left out of the comparison, each
  counted: catanatron has no message for a Victory Point card shown; its maritime trades
  are at the player's best rate only; it rolls, discards, draws and steals as one action
  each (compared as one: a roll, a discard, a purchase, a robber's tile with its victim).
- **speed**: `legal_moves` on every position of the engine games (this build: the replay
  compiled or not, `sgn --version` says); perft leaves per second from positions of them;
  catanatron's `generate_playable_actions` on its states, timed as they were played.

Needs catanatron (`tox -e bench` installs it).

    python bench/bench_moves.py --states 100000
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine_games  # noqa: E402 (replaces catanatron's production and longest road with the rulebook's)
from sgn import board  # noqa: E402
from sgn.adapters.catanatron import COLORS, RESOURCE, translate  # noqa: E402
from sgn.adapters.catanatron_board import Translation, cube  # noqa: E402
from sgn.diagnostic import ERROR  # noqa: E402
from sgn.game import Game  # noqa: E402
from sgn.game.perft import perft  # noqa: E402
from sgn.game.pieces import best_rate  # noqa: E402
from sgn.layers.records import ACTIONS as RECORD_ACTIONS  # noqa: E402

Key = Tuple  # a move as both sides are compared: ("BS", corner), ("ROLL",), ...

# What one catanatron action is in SGN messages (MOVE_ROBBER: the move, and the steal if any).
_SILENT = {"END_TURN"}


def _messages_of(action) -> int:
    kind = action.action_type.value
    if kind in _SILENT:
        return 0
    if kind == "MOVE_ROBBER":
        _, victim, card = action.value
        return 2 if victim is not None and card is not None else 1
    return 1


class Places:
    """catanatron's nodes, edges and tiles as SGN's corners, edges and tiles, for one game."""

    def __init__(self, game) -> None:
        from catanatron.json import GameEncoder

        self.translation = Translation(json.loads(json.dumps(game, cls=GameEncoder)))

    def corner(self, node) -> board.Corner:
        return board.corner_from_json(self.translation.corner(node, ""))

    def edge(self, nodes) -> board.Edge:
        return board.edge_from_json(self.translation.edge(list(nodes), ""))


def catanatron_keys(actions, places: Places) -> Set[Key]:
    out: Set[Key] = set()
    for action in actions:
        kind, value = action.action_type.value, action.value
        if kind == "BUILD_SETTLEMENT":
            out.add(("BS", places.corner(value)))
        elif kind == "BUILD_CITY":
            out.add(("BC", places.corner(value)))
        elif kind == "BUILD_ROAD":
            out.add(("BR", places.edge(value)))
        elif kind == "MOVE_ROBBER":
            tile, victim, _ = value
            out.add(("MR", cube(list(tile), ""), None if victim is None else victim.value))
        elif kind == "MARITIME_TRADE":
            given = [r for r in value[:4] if r is not None]
            out.add(("TR", RESOURCE[given[0]], len(given), RESOURCE[value[4]]))
        elif kind == "PLAY_YEAR_OF_PLENTY":
            out.add(("YP",) + tuple(sorted(RESOURCE[r] for r in value)))
        elif kind == "PLAY_MONOPOLY":
            out.add(("MO", RESOURCE[value]))
        else:  # ROLL, END_TURN, DISCARD, BUY_DEVELOPMENT_CARD, PLAY_KNIGHT_CARD, PLAY_ROAD_BUILDING
            out.add((kind,))
    return out


PLAYS = {"KN": "PLAY_KNIGHT_CARD", "RB": "PLAY_ROAD_BUILDING"}


def sgn_keys(state: Game, name: str, color_of: Dict[str, str], form: Counter) -> Set[Key]:
    """The moves `sgn` lists for player `name`, as catanatron's actions would say them."""
    out: Set[Key] = set()
    following = state.next_player(name) if state.players else None
    for player, code, value in state.legal_moves():
        if code == "RD":
            if player == name:
                out.add(("ROLL",))
            elif player == following and state.current == name and state.rolled:
                out.add(("END_TURN",))
            continue
        if player != name:
            continue
        if code in ("BS", "BC"):
            out.add((code, board.corner_from_json(value["intersection"])))
        elif code == "BR":
            out.add(("BR", board.edge_from_json(value["path"])))
        elif code == "MR":
            trial = state.clone()
            trial.apply([player, code, value], state.line + 1)
            tile = tuple(value["tile"])
            for victim in sorted(trial.steal_from or [None], key=str):
                out.add(("MR", tile, None if victim is None else color_of[victim]))
        elif code == "BD":
            out.add(("BUY_DEVELOPMENT_CARD",))
        elif code == "TR" and all(n > 0 for n in value[1]["resources"].values()):
            out.add(("DISCARD",))
        elif code == "TR":
            mine = value[0]["resources"]
            (given, rate), (taken, _) = (
                [(r, -n) for r, n in mine.items() if n < 0][0],
                [(r, n) for r, n in mine.items() if n > 0][0],
            )
            if rate == best_rate(state.players[name], given):
                out.add(("TR", given, rate, taken))
            else:
                form["a bank trade at a worse rate than the player's best (catanatron lists the best only)"] += 1
        elif code == "PD" and value["cCode"] == "VP":
            form["a Victory Point card shown (catanatron has no such action)"] += 1
        elif code == "PD" and value["cCode"] == "YP":
            out.add(("YP",) + tuple(sorted(value["rCodes"])))
        elif code == "PD" and value["cCode"] == "MO":
            out.add(("MO", value["rCodes"][0]))
        elif code == "PD":
            out.add((PLAYS[value["cCode"]],))
    return out


def _kind(key: Key) -> str:
    return str(key[0])


CARD_OF = {
    "PLAY_KNIGHT_CARD": "KNIGHT",
    "PLAY_ROAD_BUILDING": "ROAD_BUILDING",
    "YP": "YEAR_OF_PLENTY",
    "MO": "MONOPOLY",
}


def context(game) -> dict:
    """What a disagreement at this state is about: the roll made, Road Building's roads due,
    the development cards held and those bought this turn, the bank."""
    from catanatron.models.actions import ROAD_COST_FREQDECK, player_resource_freqdeck_contains

    color = game.state.current_color()
    held = {card: engine_games._held(game, color, card) for card in set(CARD_OF.values())}
    key = f"P{game.state.color_to_index[color]}"
    return {
        "road affordable": player_resource_freqdeck_contains(game.state, color, ROAD_COST_FREQDECK),
        "road left": game.state.player_state[f"{key}_ROADS_AVAILABLE"] > 0,
        "rolled": game.state.player_state[f"{key}_HAS_ROLLED"],
        "road building": game.state.is_road_building,
        "fresh": {c: n for c, n in engine_games._bought_this_turn(game, color).items() if n >= held.get(c, 0)},
    }


def why(key: Key, where: dict) -> str:
    """The circumstance of a disagreement, where one explains it."""
    card = CARD_OF.get(str(key[0]))
    if card is not None and card in where["fresh"]:
        return "the card was bought this turn"
    if key[0] == "YP" and len(key) == 2:
        return "one card"
    if where["road building"]:
        return "Road Building's roads due"
    if not where["rolled"]:
        return "before the roll"
    if key[0] == "PLAY_ROAD_BUILDING" and not where["road left"]:
        return "no road piece left"
    if key[0] == "PLAY_ROAD_BUILDING" and not where["road affordable"]:
        return "the player cannot pay for a road"
    if key[0] == "PLAY_ROAD_BUILDING":
        return "no place for a road"
    return ""


def cross_check(games: int, players: int, seed: int, states_wanted: int, verbose: bool, bots: str = "random"):
    """Plays catanatron games until `states_wanted` states were compared (or `games` played)."""
    from catanatron import Color, Game as Catanatron
    from catanatron.models.actions import generate_playable_actions

    differences: Counter = Counter()
    examples: Dict[Tuple[str, str], str] = {}
    form: Counter = Counter()
    compared = played = stopped = 0
    peer_time = 0.0
    peer_states = 0
    sgn_games: List[List[list]] = []
    i = seed
    while compared < states_wanted and played < games:
        kind = engine_games.RulesWeightedPlayer if bots == "weighted" else engine_games.RulesRandomPlayer
        game = Catanatron([kind(getattr(Color, c)) for c in COLORS[:players]], seed=i + 1)
        i += 1
        ticks = []
        while game.winning_color() is None and game.state.num_turns < 1000:
            started = time.perf_counter()
            generate_playable_actions(game.state)
            peer_time += time.perf_counter() - started
            peer_states += 1
            ticks.append(
                (len(game.state.actions), game.state.current_color(), list(game.state.playable_actions), context(game))
            )
            game.play_tick()
        played += 1
        # (the record lines, a header and ends of turns, are no catanatron action: set aside, as
        # bench_engine_faults.py does, so that each action's messages come at its lines)
        messages = [m for m in translate(game) if m[1] not in RECORD_ACTIONS]
        sgn_games.append(messages)
        places = Places(game)
        name_of = {color: str(n + 1) for n, color in enumerate(game.state.colors)}
        color_of = {name: color.value for color, name in name_of.items()}
        state, line = Game(), 0
        state.apply(messages[0], 1)
        line = 1
        done = 0  # catanatron actions whose messages are applied
        for count, color, actions, where in ticks:
            broken = False
            for action in game.state.actions[done:count]:
                for _ in range(_messages_of(action)):
                    line += 1
                    if any(p.severity == ERROR for p in state.apply(messages[line - 1], line)):
                        broken = True
            done = count
            if broken:  # (the replay and catanatron part here: the rest is not compared)
                stopped += 1
                break
            theirs = catanatron_keys(actions, places)
            ours = sgn_keys(state, name_of[color], color_of, form)
            compared += 1
            labels: Dict[Tuple[str, str, str], Key] = {}
            for side, keys in (("catanatron only", theirs - ours), ("sgn only", ours - theirs)):
                for key in sorted(keys, key=str):
                    reason = "the rulebook's game is over" if state.phase == "over" else why(key, where)
                    labels.setdefault((side, _kind(key), reason), key)
            for label, key in labels.items():  # (each state counted once a kind)
                differences[label] += 1
                examples.setdefault(label, f"game {i}, line {line}: {key}")
                if verbose:
                    print(f"{label}: game {i}, line {line}: {key}")
    return compared, played, stopped, differences, examples, form, peer_states, peer_time, sgn_games


def generated(count: int, sound_every: int) -> Tuple[int, int, int, int, int, List[str]]:
    """Every move of `count` generated games (3 to 6 players, a quarter each) listed at its
    line, and every move listed at every `sound_every`-th position applied without an error:
    (games, moves checked, missing, positions tried, listed moves refused, examples)."""
    from sgn.game.move_forms import is_listed, move_key
    from sgn.play import game_seed, random_game

    checked = missing = tried = refused = 0
    examples: List[str] = []
    for i in range(count):
        players = 3 + i % 4
        messages = random_game(game_seed(41, i), players)
        state = Game()
        for n, message in enumerate(messages, 1):
            listed = state.legal_moves()
            if is_listed(message, before_setup=not state.setup_order):
                checked += 1
                if move_key(message) not in {move_key(m) for m in listed}:
                    missing += 1
                    examples.append(f"generated game {i} ({players} players), line {n}: {message} not listed")
            if n % sound_every == 0:
                tried += 1
                for m in listed:
                    if any(p.severity == ERROR for p in state.clone().apply(m, n)):
                        refused += 1
                        examples.append(f"generated game {i} ({players} players), line {n}: {m} listed, refused")
            state.apply(message, n)
    return count, checked, missing, tried, refused, examples


def speed(sgn_games: List[List[list]], perft_positions: int) -> Tuple[int, float, int, float]:
    """(positions, seconds) of `legal_moves` on every position of the games, and (leaves,
    seconds) of perft to depth 2 from positions spread over them."""
    positions: List[Game] = []
    for messages in sgn_games:
        state = Game()
        for n, message in enumerate(messages, 1):
            positions.append(state.clone())
            if any(p.severity == ERROR for p in state.apply(message, n)):
                break
    started = time.perf_counter()
    for state in positions:
        state.legal_moves()
    listed = time.perf_counter() - started
    step = max(1, len(positions) // perft_positions)
    picked = [p for p in positions[::step] if p.phase == "turns"][:perft_positions]
    started = time.perf_counter()
    leaves = sum(perft(p, 2) for p in picked)
    return len(positions), listed, leaves, time.perf_counter() - started


def discard_speed(rounds: int = 200) -> int:
    """Positions with a discard owed by hands of 12 to 40 cards (`hoard.py`: legal games in
    which seat 1 hoards, then a 7): ms a position for `legal_moves` in each form, and perft to
    depth 1 in each, the counts checked equal."""
    from hoard import hoarded

    print("a discard owed: ms a position (best of the rounds), each multiset listed / compact")
    print(f"{'cards':>6} {'seed':>5} {'owed':>14} {'moves':>7} {'each':>9} {'compact':>9} {'perft(1) compact':>17}")
    for cards in (12, 20, 30, 40):
        for seed in range(12):
            try:
                state, _ = hoarded(seed, 4, cards)
            except RuntimeError:  # (seat 1 could not reach so many cards on this map)
                continue
            times = {}
            for form in ("each", "compact"):
                best = float("inf")
                for _ in range(rounds):
                    started = time.perf_counter()
                    state.legal_moves(discards=form)
                    best = min(best, time.perf_counter() - started)
                times[form] = best * 1000
            started = time.perf_counter()
            counted = perft(state, 1, discards="compact")
            counting = (time.perf_counter() - started) * 1000
            listed = len(state.legal_moves())
            assert counted == listed, (cards, seed, counted, listed)
            owed = ",".join(f"{k}:{v}" for k, v in sorted(state.discards_owed.items()))
            print(
                f"{cards:>6} {seed:>5} {owed:>14} {listed:>7,} {times['each']:>9.3f} {times['compact']:>9.3f} {counting:>14.3f} ms"
            )
            break
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=100_000, help="catanatron states to compare (default 100,000)")
    parser.add_argument("--games", type=int, default=1000, help="at most this many games (default 1000)")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--perft-positions", type=int, default=40, help="positions counted to depth 2 (default 40)")
    parser.add_argument("--generated", type=int, default=1000, help="generated games checked (default 1000)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every disagreement")
    parser.add_argument(
        "--bots",
        choices=("random", "weighted"),
        default="random",
        help="catanatron's players: random (default), or weighted random (games that build up, as bots' do)",
    )
    parser.add_argument(
        "--discards", action="store_true", help="only time positions with a large discard owed, in both forms"
    )
    args = parser.parse_args(argv)
    if args.discards:
        return discard_speed()
    if not engine_games.available():
        print("bench_moves: catanatron is not installed (tox -e bench installs it)", file=sys.stderr)
        return 2
    from sgn.layers.fastpath import compiled_modules

    started = time.perf_counter()
    compared, played, stopped, differences, examples, form, peer_states, peer_time, sgn_games = cross_check(
        args.games, args.players, args.seed, args.states, args.verbose, args.bots
    )
    print(
        f"cross-check: {compared:,} states of {played} catanatron games ({args.players} players, {args.bots} bots) "
        "compared "
        f"({stopped} games stopped where the replay found a rules error), {time.perf_counter() - started:.0f} s"
    )
    if differences:
        print("disagreements (states where the kind is offered by one side only):")
        for (side, kind, reason), n in sorted(differences.items()):
            print(f"  {side:16} {kind:20} {reason or '-':32} {n:8,}   e.g. {examples[(side, kind, reason)]}")
    else:
        print("disagreements: none")
    print("differences of form, not compared:")
    for what, n in sorted(form.items()):
        print(f"  {n:8,}  {what}")

    started = time.perf_counter()
    games, checked, missing, tried, refused, said = generated(args.generated, 10)
    print(
        f"generated games: {games:,} (3 to 6 players): {checked:,} moves, {missing} not listed at their line; "
        f"{tried:,} positions, {refused} listed moves refused; {time.perf_counter() - started:.0f} s"
    )
    for example in said[:10]:
        print(f"  {example}")

    positions, listed, leaves, counted = speed(sgn_games[:100], args.perft_positions)
    build = ", ".join(compiled_modules()) or "pure Python"
    print(f"speed ({'compiled: ' + build if build != 'pure Python' else build}):")
    print(
        f"  legal_moves: {positions:,} positions of {min(100, len(sgn_games))} engine games in {listed:.2f} s: "
        f"{positions / listed:,.0f} positions/s (target: at least 2,000)"
    )
    print(
        f"  perft: {leaves:,} leaves to depth 2 from {args.perft_positions} positions: {leaves / counted:,.0f} leaves/s"
    )
    print(
        f"  catanatron's generate_playable_actions: {peer_states:,} states in {peer_time:.2f} s: "
        f"{peer_states / peer_time:,.0f} states/s"
    )
    return 0 if positions / listed >= 2000 and not missing and not refused else 1


if __name__ == "__main__":
    sys.exit(main())
