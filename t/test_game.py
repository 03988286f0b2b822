"""The rules replay: scenarios whose outcome is worked out by hand, and generated games."""

import json

import pytest

import sgn
from conftest import CORPUS
from sgn import rules
from sgn.game import Game, Player, placing
from sgn.game.pieces import bank_rate_problems, rates_of
from sgn.play import random_game

EXAMPLE = (CORPUS / "games" / "game.sgn").read_text().splitlines()
SETUP = EXAMPLE[:14]  # the map, the robber on the desert, three players' setup
# Player 1: settlements at S of [0,0] (F11, P9, P10) and N of [2,-1] (P10, F9, sea): holds G1 W1.
# Player 2: N of [1,-1] (H5, P12, F9) and S of [0,1] (P9, FO6, F2): holds G1 L1 W1.
# Player 3: SE of [1,0] (FO4, F8, M3) and N of [-1,0] (FO3, H4, M6): holds B1 L1 O1.


def replay(lines):
    game = Game()
    found = []
    for number, line in enumerate(lines, 1):
        found += [(number, p.code) for p in game.apply(json.loads(line), number)]
    return game, found


def hand(game, name):
    return {r: game.players[name].hand[r] for r in rules.RESOURCES if game.players[name].hand[r]}


def test_setup_gives_the_second_settlements_resources_and_counts_players():
    game, found = replay(SETUP)
    assert found == [] and game.count == 3 and game.phase == "turns"
    assert hand(game, "1") == {"G": 1, "W": 1}
    assert hand(game, "2") == {"G": 1, "L": 1, "W": 1}
    assert hand(game, "3") == {"B": 1, "L": 1, "O": 1}


def test_production_follows_the_numbers_and_the_robber():
    game, found = replay(SETUP + ['["1","RD",{"result":9}]'])
    # 9: P[0,1] gives W to player 1 (S of [0,0]) and to player 2 (S of [0,1]); F[2,-2] gives G to 1 and 2
    assert found == [] and hand(game, "1") == {"G": 2, "W": 2} and hand(game, "2") == {"G": 2, "L": 1, "W": 2}


def test_a_city_without_ore_is_refused_with_the_hand_shown():
    game = Game()
    for number, line in enumerate(SETUP + ['["1","RD",{"result":9}]'], 1):
        game.apply(json.loads(line), number)
    [problem] = game.apply(["1", "BC", {"intersection": [[0, 0], [0, 1], [-1, 1]]}], 16)
    assert problem.code == "cannot-afford"
    assert problem.message == "player 1 holds B0 G2 L0 O0 W2; a city costs O3 G2"
    assert game.players["1"].cities and hand(game, "1") == {"W": 2}  # applied as far as it can be


def test_bank_shortage_rule():
    game, _ = replay(SETUP)
    game.bank["W"] = 1  # players 1 and 2 are both owed wool on a 9: nobody gets any
    game.apply(["1", "RD", {"result": 9}], 15)
    assert game.players["1"].hand["W"] == 1 and game.players["2"].hand["W"] == 1 and game.bank["W"] == 1


def test_bank_shortage_with_one_player_owed_gives_what_is_left():
    game, _ = replay(SETUP)
    game.bank["W"] = 1  # a 10: only player 1 is owed wool, two of it
    game.apply(["1", "RD", {"result": 10}], 15)
    assert game.players["1"].hand["W"] == 2 and game.bank["W"] == 0


def test_turn_order_and_rolls():
    _, found = replay(SETUP + ['["2","RD",{"result":8}]'])
    assert found == [(15, "turn-order")]
    _, found = replay(SETUP + ['["1","RD",{"result":8}]', '["1","RD",{"result":8}]'])
    assert found == [(16, "already-rolled")]
    _, found = replay(SETUP + ['["1","RD",{"result":8}]', '["2","BD",{"cCode":"KN"}]'])
    assert [c for _, c in found] == ["not-your-turn", "cannot-afford"]
    _, found = replay(SETUP + ['["1","BR",{"path":[[[-1,0],[0,0],[-1,1]],[[-1,0],[-1,1],[-2,1]]]}]'])
    assert [c for _, c in found] == ["roll-first", "cannot-afford"]


def test_a_seven_asks_for_discards_robber_and_steal():
    # [0,0] touches player 1's own settlement only: no one to steal from
    game, found = replay(SETUP + ['["1","RD",{"result":7}]', '["1","MR",{"tile":[0,0]}]'])
    assert found == [] and game.steal_from is None
    game, found = replay(SETUP + ['["1","RD",{"result":7}]', '["1","MR",{"tile":[1,-1]}]'])
    assert found == [] and game.steal_from == {"2"}
    game, found = replay(SETUP + ['["1","RD",{"result":7}]', '["1","MR",{"tile":[1,-1]}]', '["1","RD",{"result":8}]'])
    assert [c for _, c in found] == ["steal-missing", "already-rolled"]


def test_steal_moves_one_card_the_victim_holds():
    base = SETUP + ['["1","RD",{"result":7}]', '["1","MR",{"tile":[1,-1]}]']
    game, found = replay(base + ['["1","ST",[{"player":"1","resources":{"L":1}},{"player":"2","resources":{"L":-1}}]]'])
    assert found == [] and hand(game, "1") == {"G": 1, "L": 1, "W": 1}
    _, found = replay(base + ['["1","ST",[{"player":"1","resources":{"O":1}},{"player":"2","resources":{"O":-1}}]]'])
    assert [c for _, c in found] == ["not-held"]
    _, found = replay(base + ['["1","ST",[{"player":"1","resources":{"O":1}},{"player":"3","resources":{"O":-1}}]]'])
    assert [c for _, c in found] == ["steal-wrong-victim"]


def test_bank_trade_rates_use_harbors():
    # player 1's second settlement, N of [2,-1], is on the generic harbor: 3:1
    base = SETUP + ['["1","RD",{"result":10}]']  # player 1 now holds G1 W3
    _, found = replay(
        base + ['["1","TR",[{"player":"1","resources":{"W":-3,"L":1}},{"player":"B","resources":{"W":3,"L":-1}}]]']
    )
    assert found == []
    _, found = replay(
        base + ['["1","TR",[{"player":"1","resources":{"W":-2,"L":1}},{"player":"B","resources":{"W":2,"L":-1}}]]']
    )
    assert [c for _, c in found] == ["trade-rate"]


@pytest.mark.parametrize(
    "harbors, given, gets, legal",
    [
        ((), {"W": 4}, 1, True),
        (("HR",), {"W": 4}, 1, True),  # 4:1 stays open with a generic harbor
        (("HR",), {"W": 3}, 1, True),
        (("HR",), {"W": 7}, 2, True),  # a lot at 3:1 and one at 4:1
        (("HR",), {"W": 5}, 1, False),
        (("HRW",), {"W": 6}, 2, True),  # 2:1 and 4:1
        (("HRW",), {"W": 5}, 2, False),  # odd: no mix of 2:1 and 4:1 makes 5
        (("HRW", "HR"), {"W": 5}, 2, True),  # 2:1 and 3:1
        (("HRW", "HR"), {"W": 3}, 1, True),  # the generic harbor for a resource with its own
        ((), {"W": 4, "O": 4}, 2, True),  # several lots in one message
        (("HRO",), {"W": 4, "O": 2}, 2, True),
        (("HRO",), {"W": 4, "O": 2}, 3, False),
    ],
)
def test_a_bank_trade_may_use_any_rate_the_player_has(harbors, given, gets, legal):
    p = Player("1")
    p.harbors = set(harbors)
    resources = {r: -n for r, n in given.items()}
    resources["B"] = gets
    found = bank_rate_problems(p, resources)
    assert (found == []) is legal
    if found:
        assert found[0].code == "trade-rate" and "that buys" in found[0].message


@pytest.mark.parametrize("harbors", [(), ("HR",), ("HRW",), ("HRW", "HR"), ("HRO", "HR")])
def test_a_player_s_rates_are_listed_lowest_first(harbors):
    """`bank_rate_problems` reads the lowest and highest rate at the ends of the list."""
    p = Player("1")
    p.harbors = set(harbors)
    rates = rates_of(p, "W")
    assert rates == sorted(set(rates)) and rates[-1] == rules.RATE_DEFAULT


def test_trade_between_players_needs_the_cards():
    base = SETUP + ['["1","RD",{"result":8}]']
    _, found = replay(
        base + ['["1","TR",[{"player":"1","resources":{"G":-1,"B":1}},{"player":"3","resources":{"G":1,"B":-1}}]]']
    )
    assert found == []
    _, found = replay(
        base + ['["1","TR",[{"player":"1","resources":{"O":-1,"B":1}},{"player":"3","resources":{"O":1,"B":-1}}]]']
    )
    assert [c for _, c in found] == ["not-held"]


def test_placement_rules():
    base = SETUP + ['["1","RD",{"result":8}]']
    game, _ = replay(base)
    _give(game.players["1"], {"B": 5, "L": 5, "W": 5, "G": 5})
    # next to player 1's own settlement: the distance rule
    assert [p.code for p in game.apply(["1", "BS", {"intersection": [[-1, 0], [0, 0], [-1, 1]]}], 16)] == [
        "distance-rule"
    ]
    game, _ = replay(base)
    _give(game.players["1"], {"B": 5, "L": 5, "W": 5, "G": 5})
    # far from any road of player 1
    assert [p.code for p in game.apply(["1", "BS", {"intersection": [[-2, 2], [-1, 2], [-2, 3]]}], 16)] == [
        "settlement-not-connected"
    ]
    # a road that touches nothing of player 1's
    game, _ = replay(base)
    _give(game.players["1"], {"B": 5, "L": 5})
    assert [
        p.code
        for p in game.apply(["1", "BR", {"path": [[[-2, 2], [-1, 2], [-2, 3]], [[-1, 2], [-1, 3], [-2, 3]]]}], 17)
    ] == ["road-not-connected"]


def test_development_cards():
    game, _ = replay(SETUP + ['["1","RD",{"result":8}]'])
    _give(game.players["1"], {"O": 3, "W": 3, "G": 3})
    assert game.apply(["1", "BD", {"cCode": "KN"}], 16) == []
    assert [p.code for p in game.apply(["1", "PD", {"cCode": "KN"}], 17)] == ["card-bought-this-turn"]
    # the Knight, though played too early, still owes a robber move
    assert [p.code for p in game.apply(["1", "PD", {"cCode": "YP", "rCodes": ["O", "O"]}], 18)] == [
        "robber-not-moved",
        "card-not-held",
        "card-second-play",
    ]
    game.deck["MO"] = 0
    assert [p.code for p in game.apply(["1", "BD", {"cCode": "MO"}], 19)] == ["deck-empty"]


def test_road_building_roads_come_at_once_and_anything_in_between_ends_them():
    for between in (
        ['["1","TR",[{"player":"1","resources":{"G":-1}},{"player":"2","resources":{"G":1}}]]'],
        [],
        ['["1","MR",{"tile":[0,0]}]'],
    ):
        game, _ = replay(SETUP + ['["1","RD",{"result":8}]'])
        game.players["1"].cards["RB"] = 1
        game.players["1"].hand.update({"B": 0, "L": 0})
        game.apply(["1", "PD", {"cCode": "RB"}], 16)
        for n, line in enumerate(between, 17):
            game.apply(json.loads(line), n)
        assert game.free_roads == (2 if not between else 0)


def _give(p, cards):
    for r, n in cards.items():
        p.hand[r] += n


def test_longest_road_needs_five_and_is_broken_by_a_settlement():
    game, _ = replay(SETUP + ['["1","RD",{"result":8}]'])
    p1 = game.players["1"]
    _give(p1, {"B": 10, "L": 10})
    # extend player 1's road from S of [0,0] westwards along the bottom of row 0..1
    path = [
        [[[-1, 0], [0, 0], [-1, 1]], [[-1, 0], [-1, 1], [-2, 1]]],
        [[[-1, 0], [-1, 1], [-2, 1]], [[-2, 0], [-1, 0], [-2, 1]]],
        [[[-2, 0], [-1, 0], [-2, 1]], [[-2, 0], [-2, 1], [-3, 1]]],
        [[[-2, 0], [-2, 1], [-3, 1]], [[-3, 0], [-2, 0], [-3, 1]]],
    ]
    for i, road in enumerate(path[:3]):
        assert game.apply(["1", "BR", {"path": road}], 16 + i) == []
    assert p1.road_length == 4 and game.longest_road is None
    assert game.apply(["1", "BR", {"path": path[3]}], 19) == []
    assert p1.road_length == 5 and game.longest_road == "1"
    assert game.points("1") == 4


def test_generated_games_are_legal_and_end_with_a_winner():
    for seed, players in ((11, 3), (12, 4)):
        messages = random_game(seed, players)
        lines = [json.dumps(m) for m in messages]
        found = [d for d in sgn.iter_diagnostics(lines) if d.severity != "info"]
        assert found == []
        game, _ = replay(lines)
        assert game.phase == "over" and game.points(game.current) >= rules.POINTS_TO_WIN


def test_the_game_ends_at_ten_points_and_nothing_may_follow():
    lines = (CORPUS / "games" / "random-3p.sgn").read_text().splitlines()
    found = [(d.line, d.code) for d in sgn.iter_diagnostics(lines + [lines[-1], lines[-1]], level="rules")]
    assert found == [(len(lines) + 1, "after-game-end")]


def test_a_compat_log_of_object_messages_is_replayed_as_its_1_0_form():
    """The legacy object form is read as [player, aCode, value]; the replay sees that form."""
    game = random_game(5, 3)
    objects = [json.dumps({"player": p, "aCode": a, "value": v}) for p, a, v in game]
    diagnostics = list(sgn.iter_diagnostics(objects, level="rules", profile="compat"))
    found = [(d.code, d.severity) for d in diagnostics]
    # (a file lists 100 warnings of one code, then one standing for the rest)
    assert set(found) == {("legacy-object-message", "warning")}
    assert sum(d.occurrences for d in diagnostics) == len(game)
    broken = objects[:20] + objects[21:]  # a gap: the same rule errors as the 1.0 form
    plain = [json.dumps(m) for m in game[:20] + game[21:]]
    errors = [
        [(d.code, d.line) for d in sgn.iter_diagnostics(log, level="rules", profile="compat") if d.is_error]
        for log in (broken, plain)
    ]
    assert errors[0] == errors[1] != []


def test_a_log_that_stops_while_something_is_owed_warns():
    found = [(d.code, d.severity) for d in sgn.iter_diagnostics(SETUP + ['["1","RD",{"result":7}]'], level="rules")]
    assert found == [("log-ends-unfinished", "warning")]
    assert list(sgn.iter_diagnostics(SETUP[:5], level="rules"))[0].code == "log-ends-unfinished"


def test_discards_after_a_seven():
    def seven(*after):
        game, _ = replay(SETUP)
        _give(game.players["2"], {"O": 5, "B": 4})  # 12 cards: discards 6
        found = []
        for number, message in enumerate(['["1","RD",{"result":7}]', *after], 15):
            found += [p.code for p in game.apply(json.loads(message), number)]
        return game, found

    discard = '["2","TR",[{"player":"2","resources":{"O":-5,"B":-1}},{"player":"B","resources":{"O":5,"B":1}}]]'
    game, found = seven(discard, '["1","MR",{"tile":[0,0]}]')
    assert found == [] and game.players["2"].hand["O"] == 0
    _, found = seven('["1","MR",{"tile":[0,0]}]')
    assert found == ["discard-missing"]
    _, found = seven(discard.replace('"O":-5', '"O":-4').replace('"O":5', '"O":4'), '["1","MR",{"tile":[0,0]}]')
    assert found == ["discard-wrong-amount"]
    _, found = seven(discard.replace('"2"', '"3"'))
    assert found == ["discard-not-owed", "not-held"]


from hypothesis import (  # noqa: E402
    given,
    settings,
    strategies as st,  # noqa: E402
)

from sgn import strategies as sgs  # noqa: E402


@settings(max_examples=200)
@given(
    st.lists(
        sgs.messages(action_codes=st.sampled_from(["BC", "BD", "BR", "BS", "MR", "PD", "RD", "ST", "TR"])), max_size=40
    ),
    st.integers(0, 14),
)
def test_the_replay_never_raises_on_any_sequence_of_valid_messages(messages, cut):
    """Well-formed messages in any order: errors to report, never an exception."""
    lines = EXAMPLE[:cut] + [json.dumps(m) for m in messages]
    for d in sgn.iter_diagnostics(lines, level="rules"):
        assert (d.layer in ("semantic", "rules") or d.code == "empty-file") and d.message  # an empty log


def _longest_trail_every_start(game, p):
    """The longest trail by the plain search from every corner (the reference)."""
    blocked = {c for c, (owner, _) in game.building_at.items() if owner != p.name}
    best = 0

    def walk(c, used, length):
        nonlocal best
        best = max(best, length)
        if length and c in blocked:
            return
        for e in p.roads:
            if c in e and e not in used:
                (other,) = e - {c}
                walk(other, used | {e}, length + 1)

    for c in {c for e in p.roads for c in e}:
        walk(c, frozenset(), 0)
    return best


_NEAR_CENTRE = sorted(
    {e for t in sgn.board.hexagon(1) for c in sgn.board.corners_of(t) for e in sgn.board.edges_of_corner(c)},
    key=lambda e: sorted(map(sorted, e)),
)
_CORNERS = sorted({c for e in _NEAR_CENTRE for c in e}, key=sorted)


@settings(max_examples=300, deadline=None)
@given(
    st.sets(st.sampled_from(range(len(_NEAR_CENTRE))), max_size=15),
    st.sets(st.sampled_from(range(len(_CORNERS))), max_size=4),
)
def test_the_longest_trail_search_agrees_with_searching_from_every_corner(roads, others):
    """Rings, forks and opponents' buildings: starting only where a trail can begin loses nothing."""
    game = Game()
    p = game.player("1")
    for i in roads:
        e = _NEAR_CENTRE[i]
        p.add_road(e)
    for i in others:
        game.building_at[_CORNERS[i]] = ("2", "settlement")
    assert placing.longest_trail(game, p) == _longest_trail_every_start(game, p)


def test_a_ring_of_roads_alone_counts_all_its_roads():
    game = Game()
    p = game.player("1")
    corners = sgn.board.corners_of((0, 0))
    ring = {e for c in corners for e in sgn.board.edges_of_corner(c) if all(end in corners for end in e)}
    for e in ring:
        p.add_road(e)
    assert len(ring) == 6 and placing.longest_trail(game, p) == 6 == _longest_trail_every_start(game, p)


def _winner_holding_victory_points():
    for seed in range(60):
        game = random_game(seed, 4)
        state = Game()
        for n, message in enumerate(game, 1):
            state.apply(message, n)
        winner = state.players[state.current]
        if winner.cards["VP"] + winner.new_cards["VP"] > 0:
            return game, state.current, winner.cards["VP"] + winner.new_cards["VP"]
    raise AssertionError("no generated game ends with the winner holding a Victory Point card")


def test_the_winner_may_show_the_victory_point_cards_that_won_after_the_winning_message():
    game, winner, held = _winner_holding_victory_points()
    reveal = [winner, "PD", {"cCode": "VP"}]
    lines = [json.dumps(m) for m in game + [reveal] * held]
    assert [d.code for d in sgn.iter_diagnostics(lines, level="rules") if d.is_error] == []
    lines.append(json.dumps(reveal))  # one more than the player holds
    assert [d.code for d in sgn.iter_diagnostics(lines, level="rules") if d.is_error] == ["after-game-end"]


def test_the_second_free_road_of_the_road_building_that_won_is_part_of_its_play():
    """The first free road of a Road Building card gives the longest road and the 10th point:
    the card's second road is its play, not a move after the win (docs/rules.md, "The end")."""
    game, _ = replay(SETUP + ['["1","RD",{"result":8}]'])
    p1 = game.players["1"]
    _give(p1, {"B": 3, "L": 3})
    path = [  # from player 1's road at S of [0,0], westwards (as in the longest road's test)
        [[[-1, 0], [0, 0], [-1, 1]], [[-1, 0], [-1, 1], [-2, 1]]],
        [[[-1, 0], [-1, 1], [-2, 1]], [[-2, 0], [-1, 0], [-2, 1]]],
        [[[-2, 0], [-1, 0], [-2, 1]], [[-2, 0], [-2, 1], [-3, 1]]],
        [[[-2, 0], [-2, 1], [-3, 1]], [[-3, 0], [-2, 0], [-3, 1]]],
        [[[-3, 0], [-2, 0], [-3, 1]], [[-3, 0], [-3, 1], [-4, 1]]],
    ]
    for i, road in enumerate(path[:3]):
        assert game.apply(["1", "BR", {"path": road}], 16 + i) == []
    p1.cards.update({"VP": 6, "RB": 1})  # 2 settlements and 6 cards: 8 points
    assert game.apply(["1", "PD", {"cCode": "RB"}], 19) == []
    assert game.apply(["1", "BR", {"path": path[3]}], 20) == []  # the longest road: 10 points
    assert game.phase == "over" and game.points("1") == 10
    assert game.apply(["1", "BR", {"path": path[4]}], 21) == []  # the card's second road
    assert len(p1.roads) == 7
    assert [p.code for p in game.apply(["1", "BR", {"path": path[4]}], 22)] == ["after-game-end"]


def test_showing_a_victory_point_card_is_not_playing_a_card():
    game, _ = replay(SETUP + ['["1","RD",{"result":8}]'])
    _give(game.players["1"], {"O": 3, "W": 3, "G": 3})
    game.players["1"].cards["YP"] = 1
    assert game.apply(["1", "BD", {"cCode": "VP"}], 16) == []
    points = game.points("1")
    assert game.apply(["1", "PD", {"cCode": "YP", "rCodes": ["O", "O"]}], 17) == []  # the card of the turn
    assert game.apply(["1", "PD", {"cCode": "VP"}], 19) == []  # bought this turn, shown
    assert game.points("1") == points
    assert [p.code for p in game.apply(["1", "PD", {"cCode": "VP"}], 20)] == ["card-not-held"]
