"""`Game.legal_moves` (docs/moves.md) is sound and complete: every move it lists applies
without an error, and every move a valid game makes is listed at its line, on generated
games of 3 to 6 players (their spectator's views too) and on the recorded engine games of
t/data; a line a rules error flags is not listed; among a brute force of candidates
(t/move_oracle.py), what it lists is exactly what `apply` accepts. Listing changes nothing."""

import copy
import functools
import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st

import sgn
from conftest import scaled
from move_oracle import accepted, candidates
from sgn.diagnostic import ERROR
from sgn.game import Game
from sgn.game.move_forms import is_listed, move_key
from sgn.game.moves import BANK_TRADE, BUY, CITY, DISCARD, PLAY, ROAD, ROBBER, ROLL, SETTLEMENT, STEAL
from sgn.game.perft import perft
from sgn.layers.semantic import SemanticChecker
from sgn.notation.redact import hide
from sgn.play import random_game
from sgn.testing import faults

# Positions of a kind each property makes sure to reach, by what the line before them was.
KINDS = {
    "any": lambda before, game: True,
    "after a 7": lambda before, game: before[1] == "RD" and before[2]["result"] == 7,
    "discards owed": lambda before, game: bool(game.discards_owed),
    "road building": lambda before, game: game.free_roads > 0,
    "knight": lambda before, game: game.robber_due == "knight",
    "steal": lambda before, game: bool(game.steal_from),
    "special build": lambda before, game: bool(game.special_built),
    "setup": lambda before, game: game.phase == "setup",
    "end": lambda before, game: game.phase == "over",
}


def positions(game):
    """(line, message on it, the game before it) for each line, the game replayed as it goes."""
    state = Game()
    for n, message in enumerate(game, 1):
        yield n, message, state
        state.apply(message, n)
    yield len(game) + 1, None, state


def position_of(messages, kind, pick):
    """A copy of the game at one position of the kind asked for (any position if none)."""
    found, before = [], ["B", "DM", {}]
    for n, _, state in positions(messages):
        if n > 1 and KINDS[kind](before, state):
            found.append((n, state.clone()))
        before = messages[n - 1] if n <= len(messages) else before
    if not found:
        return position_of(messages, "any", pick)
    return found[pick % len(found)]


def enriched(state):
    """The position with every player holding 4 of each resource and a development card of
    each kind (bought before this turn), so that every build, purchase and card is within
    reach: not a position of the game, but one `apply` judges all the same."""
    for p in state.players.values():
        p.hand = dict.fromkeys(p.hand, 4)
        p.cards = dict.fromkeys(p.cards, 1)
    return state


def errors(problems):
    return [p for p in problems if p.severity == ERROR]


def listed_keys(state, **options):
    return {move_key(m) for m in state.legal_moves(**options)}


def assert_listed_at_every_line(messages, hidden="auto", rules="standard"):
    """Every move of a game that applies without an error is listed at its line; up to the
    first that does not (a recorded engine game may break a rule)."""
    state = Game(rules)
    for n, message in enumerate(messages, 1):
        listed = is_listed(message, before_setup=not state.setup_order)
        found = listed_keys(state, hidden_outcomes=hidden) if listed else set()
        if errors(state.apply(message, n)):
            return
        assert not listed or move_key(message) in found, (n, message)


# -- sound ---------------------------------------------------------------------------------------


@settings(max_examples=scaled(30))
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([3, 4, 5, 6]),
    kind=st.sampled_from(sorted(KINDS)),
    pick=st.integers(0, 1000),
    view=st.sampled_from(["whole", "spectator", "rich"]),
)
def test_every_listed_move_applies_without_an_error(seed, players, kind, pick, view):
    messages = random_game(seed, players)
    if view == "spectator":
        messages = [hide(m, None) for m in messages]
    line, state = position_of(messages, kind, pick)
    if view == "rich":
        enriched(state)
    semantic = SemanticChecker()
    semantic.problems(messages[0])
    listed = state.legal_moves(hidden_outcomes="always")
    for message in listed:
        assert not [d for d in sgn.validate_message(message, level="schema") if d.severity == "error"], message
        assert not errors(semantic.problems(message)), message
        assert not errors(state.clone().apply(message, line)), message
    assert len({move_key(m) for m in listed}) == len(listed)  # each move once


def test_every_position_kind_is_reached():
    """The property above reaches each kind of position it names, with 3 to 6 players."""
    reached = {kind: set() for kind in KINDS}
    for players in (3, 4, 5, 6):
        messages = random_game(players, players)
        before = ["B", "DM", {}]
        for n, _, state in positions(messages):
            for kind, test in KINDS.items():
                if n > 1 and test(before, state):
                    reached[kind].add(players)
            before = messages[n - 1] if n <= len(messages) else before
    assert {kind for kind, counts in reached.items() if not counts} == set()
    assert reached["special build"] >= {5, 6}


# -- complete --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_move_of_a_generated_game_is_listed_at_its_line(players):
    for seed in range(scaled(6)):
        assert_listed_at_every_line(random_game(1000 + seed, players))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_move_of_a_spectators_view_is_listed_with_its_hidden_outcomes(players):
    """The cards drawn and stolen shown as `?` (sgn redact --public): with hidden="always",
    the `?` outcome of each chance move is listed too."""
    for seed in range(scaled(1)):
        view = [hide(m, None) for m in random_game(2000 + seed, players)]
        assert_listed_at_every_line(view, hidden="always")


@functools.lru_cache(maxsize=1)
def _engine_games():
    """The games as the modules of their own tests read and convert them, once in a process."""
    import test_adapters_jsettlers as jsettlers
    import test_engine_faults
    import test_rule_profiles

    games = [(f"catanatron-games.sgn.gz:{i}", g) for i, g in enumerate(test_engine_faults.recorded_games())]
    games += [(name, messages) for name, messages, _ in test_rule_profiles.catanatron_recorded()]
    games += [(name, jsettlers.converted(name).messages) for name, _ in jsettlers.FOUR + jsettlers.SIX]
    return games


PARTS = 6


@pytest.mark.parametrize("part", range(PARTS))
def test_every_move_of_a_recorded_engine_game_is_listed_at_its_line(part):
    """catanatron's and JSettlers' games (t/data), each up to its first rules error."""
    games = _engine_games()
    assert len(games) == 300 + 40 + 10 + 70
    for name, messages in games[part::PARTS]:
        assert_listed_at_every_line(messages)


def test_under_an_engines_rules_every_move_of_its_games_is_listed():
    """Under its own rule profile (sgn/game/rule_profiles.py) an engine's game breaks no rule: its
    moves are listed at every line to its end, the cards played the turn they were bought,
    the roads through another's building and the Special Building Phase out of order too."""
    import test_rule_profiles

    games = _engine_games()  # (the JSettlers games, converted once a process)
    broken = set()

    def departing(among):  # (under the rulebook; each game checked only when it is needed)
        for name, messages in among:
            codes = {d.code for d in sgn.check(messages, level="rules").diagnostics if d.is_error}
            broken.update(codes)
            if codes:
                yield name, messages

    recorded = test_rule_profiles.catanatron_recorded()  # (catanatron 3.3.0's records have `action_records`)
    chosen = list(itertools.islice(departing((n, m) for n, m, record in recorded if "action_records" not in record), 2))
    chosen += itertools.islice(departing(g for g in games if g[0].startswith("jsettlers-6p")), 3)
    chosen += departing((n, m) for n, m, record in recorded if "action_records" in record)  # each that departs
    # each departure the rulebook flags in these games is reached: a card played when bought,
    # a road through another's building (3.3.0), the Special Building Phase out of order
    assert {"card-bought-this-turn", "road-not-connected", "special-build-order"} <= broken
    for name, messages in chosen:
        rules = "jsettlers" if name.endswith(".soclog") else "catanatron"
        assert_listed_at_every_line(messages, rules=rules)
        assert not sgn.check(messages, level="rules", rules=rules).errors, name


def test_a_line_a_rules_error_flags_is_not_listed():
    """Each fault of sgn.testing.faults put into generated games: the line the rules flag
    first is not among the moves listed before it."""
    flagged = set()
    for players in (3, 4, 5, 6):
        game = random_game(3000 + players, players)
        for pick in range(3):
            for mutate in faults.GAME_MUTATIONS:
                made = mutate(copy.deepcopy(game), pick)
                if made is None:
                    continue
                mutant, code, _ = made
                for n, message, state in positions(mutant):
                    if message is None:
                        break
                    if message[1] == "DM" and n > 1:
                        break
                    if errors(state.clone().apply(message, n)):
                        assert move_key(message) not in listed_keys(state, hidden_outcomes="always"), (code, n, message)
                        flagged.add(mutate.__name__)
                        break
    assert len(flagged) >= len(faults.GAME_MUTATIONS) - 2  # (a map dropped, a roll of 13: no rules line)


# -- exactly what apply accepts ------------------------------------------------------------------


@settings(max_examples=scaled(6))
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([3, 4, 5, 6]),
    kind=st.sampled_from(sorted(KINDS)),
    pick=st.integers(0, 1000),
    view=st.sampled_from(["whole", "spectator", "rich"]),
)
def test_what_is_listed_is_what_apply_accepts_among_every_candidate(seed, players, kind, pick, view):
    messages = random_game(seed, players)
    if view == "spectator":
        messages = [hide(m, None) for m in messages]
    line, state = position_of(messages, kind, pick)
    if view == "rich":
        enriched(state)
    before_setup = not state.setup_order
    taken = {
        move_key(m) for m in candidates(state, messages[0]) if is_listed(m, before_setup) and accepted(state, m, line)
    }
    assert listed_keys(state, hidden_outcomes="always") == taken


@pytest.mark.parametrize("players", [5, 6])
def test_the_special_build_phase_is_what_apply_accepts(players):
    """Every position of a Special Build Phase in generated games, every hand rich enough to
    build anything: the builds listed are those `apply` accepts, in the phase's order."""
    messages = random_game(4000 + players, players)
    seen = 0
    for n, _, state in positions(messages):
        if state.special_built and n % 2 == 0:
            seen += 1
            enriched(state)
            builds = [m for m in candidates(state, messages[0]) if m[1] in ("BS", "BC", "BR", "BD")]
            taken = {move_key(m) for m in builds if accepted(state, m, n)}
            assert {
                move_key(m) for m in state.legal_moves(hidden_outcomes="always") if m[1] in ("BS", "BC", "BR", "BD")
            } == taken, n
    assert seen > 3


# -- the game is not changed; the order ------------------------------------------------------------


def _everything(state):
    return (state.public_key(), state.snapshot(), state.unseen.doubt.key() if state.unseen.doubt else None, state.line)


def test_listing_moves_changes_nothing():
    rng = random.Random(4)
    for players, spectator in ((4, False), (5, True), (6, False), (3, True)):
        messages = random_game(rng.randrange(10**6), players)
        if spectator:
            messages = [hide(m, None) for m in messages]
        for n, _, state in positions(messages):
            if n % 5 == 0 or state.unseen.roll:
                before = _everything(state)
                state.legal_moves(hidden_outcomes="always")
                assert _everything(state) == before, n


ORDER = (ROLL, DISCARD, ROBBER, STEAL, SETTLEMENT, CITY, ROAD, BUY, PLAY, BANK_TRADE)
CODES = {"RD": ROLL, "MR": ROBBER, "ST": STEAL, "BS": SETTLEMENT, "BC": CITY, "BR": ROAD, "BD": BUY, "PD": PLAY}


def _kind(message):
    if message[1] == "TR":
        return DISCARD if all(n > 0 for n in message[2][1]["resources"].values()) else BANK_TRADE
    return CODES[message[1]]


def test_the_moves_come_by_player_then_by_kind():
    assert ORDER == tuple(range(10))
    messages = random_game(5, 6)
    for n, _, state in positions(messages):
        listed = state.legal_moves()
        keys = [(int(m[0]), _kind(m)) for m in listed]
        assert keys == sorted(keys), n
        assert state.legal_moves() == listed  # the same each time


def test_the_first_turn_begins_with_player_1s_eleven_rolls():
    messages = random_game(7, 4)
    state = Game()
    for n, message in enumerate(messages[:17], 1):
        state.apply(message, n)
    assert state.phase == "turns"
    assert state.legal_moves() == [["1", "RD", {"result": n}] for n in range(2, 13)]
    assert state.legal_moves(hidden_outcomes="always")[-1] == ["1", "RD", {"result": "?"}]


def test_the_setup_offers_the_counts_the_maps_rules_are_for():
    """In the first round the player count is not known: player 3 may place a second
    settlement (three players) or player 4 a first, and no more than the rules are for."""
    messages = random_game(8, 4)
    state = Game()
    for n, message in enumerate(messages[:7], 1):  # the map, then players 1 to 3
        state.apply(message, n)
    assert {m[0] for m in state.legal_moves()} == {"3", "4"}
    assert {m[0] for m in state.legal_moves(players=4)} == {"4"}
    assert {m[0] for m in state.legal_moves(players=3)} == {"3"}
    for n, message in enumerate(messages[7:9], 8):  # player 4
        state.apply(message, n)
    assert {m[0] for m in state.legal_moves()} == {"4"}
    with pytest.raises(ValueError):
        state.legal_moves(players=7)
    with pytest.raises(ValueError):
        state.legal_moves(hidden_outcomes="sometimes")


# -- perft -----------------------------------------------------------------------------------------


def test_perft_counts_the_sequences_of_legal_moves():
    messages = random_game(9, 4)
    start = Game()
    start.apply(messages[0], 1)
    assert perft(start, 0) == 1
    assert perft(start, 1) == len(start.legal_moves()) == 54  # a first settlement: any corner on land
    assert perft(start, 2) == sum(len(child_moves) for child_moves in _children(start))
    from sgn.game.perft import divide

    state = Game()
    for n, message in enumerate(messages[:40], 1):
        state.apply(message, n)
    split = list(divide(state, 2))
    assert [m for m, _ in split] == state.legal_moves()
    assert sum(count for _, count in split) == perft(state, 2)


def _children(state):
    for message in state.legal_moves():
        child = state.clone()
        child.apply(message, state.line + 1)
        yield child.legal_moves()
