"""The report page shows the game, not counts (sgn/page/holdings.py, steps.py): at every
line, each player's hand per resource (a range where it is in doubt), their development
cards (those drawn unseen as `?`), the bank and the deck are what `sgn replay --at LINE`
prints; each trade, steal, discard and draw names its cards; each roll says who received
what. Over generated games, whole and as a spectator sees them (steals and draws hidden)."""

import json
import re

from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import CORPUS, scaled
from sgn import page
from sgn.notation.redact import redact
from sgn.page import holdings
from sgn.pipeline.replay import replay
from sgn.play import random_game
from sgn.rules import DECK, RESOURCE_NAMES, RESOURCES
from test_report_page import data_of


def filled(data, key):
    """A column of the page's holdings with the lines that changed nothing filled in, as the
    script fills them."""
    out = []
    for value in data[key]:
        out.append(out[-1] if value is None else value)
    return out


def as_snapshot(hand):
    """A hand of the page as `sgn replay` writes one: each resource's count, or [least, most]."""
    return dict(zip(RESOURCES, hand))


def cards_as_snapshot(cards):
    held, new, unseen, unseen_new = cards
    out = {c: held[n] + new[n] for n, c in enumerate(DECK)}
    if unseen + unseen_new:
        out["?"] = unseen + unseen_new
    return out


def write_log(tmp_path, messages, seat="whole"):
    lines = [json.dumps(m, separators=(",", ":")).encode() for m in messages]
    if seat != "whole":
        lines = list(redact(lines, seat))
    path = tmp_path / "game.sgn"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def check_holdings(path, every=1):
    """The page's holdings at every `every`th line (and the last) against `sgn replay --at`."""
    data = data_of(page.report_html(str(path), path.name))
    hands, cards, bank, deck = (filled(data, k) for k in ("hands", "cards", "bank", "deck"))
    last = len(data["lines"]) - 1
    checked = 0
    for i, line in enumerate(data["lines"]):
        if line == 0 or (i % every and i != last):
            continue
        # possible=False: the same hands; only the hidden values' search (unread here) is skipped
        state = replay(str(path), name=path.name, at=line, possible=False)[0].game.snapshot()
        assert as_snapshot(bank[i]) == state["bank"], line
        # (the page's deck counts the kinds not drawn in sight; the snapshot's ranges are those
        # counts less the cards drawn unseen, and what is left is the same number)
        unseen = sum(c[2] + c[3] for c in cards[i] if c)
        assert {k: [max(0, n - unseen), n] if unseen and n else n for k, n in zip(DECK, deck[i])} == state["deck"], line
        assert sum(deck[i]) - unseen == state["deck_left"], line
        for j, name in enumerate(data["players"]):
            if name not in state["players"]:
                assert j >= len(hands[i]) or hands[i][j] is None
                continue
            assert as_snapshot(hands[i][j]) == state["players"][name]["hand"], (line, name)
            assert cards_as_snapshot(cards[i][j]) == state["players"][name]["cards"], (line, name)
        checked += 1
    return data, checked


SEATS = st.sampled_from(["whole", None, "1"])  # the whole log, a spectator's view, player 1's


@settings(max_examples=scaled(4), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), players=st.integers(3, 4), seat=SEATS)
def test_at_each_line_the_hands_cards_bank_and_deck_are_those_of_sgn_replay(tmp_path, seed, players, seat):
    path = write_log(tmp_path, random_game(seed, players), seat)
    data, checked = check_holdings(path, every=9)
    assert checked >= len(data["lines"]) // 9


def test_a_spectator_sees_ranges_and_unseen_cards_at_every_line(tmp_path):
    """A spectator's view of a game with hidden steals and draws: ranges and `?` on the page,
    every line of them the replay's."""
    for seed in range(40):
        game = random_game(seed, 3)
        if sum(m[1] == "ST" for m in game) >= 2 and sum(m[1] == "BD" for m in game) >= 2:
            break
    path = write_log(tmp_path, game, None)
    data, checked = check_holdings(path)
    assert checked == len(data["lines"]) - 1
    shown = filled(data, "hands")
    assert any(isinstance(c, list) for row in shown for hand in row if hand for c in hand)  # a range
    assert any(cards[2] + cards[3] for row in filled(data, "cards") for cards in row if cards)  # a `?` card


def _named(side):
    return [
        f"{abs(n)} {RESOURCE_NAMES.get(code, 'card not seen' if abs(n) == 1 else 'cards not seen')}"
        for code, n in side.items()
        if n
    ]


@settings(max_examples=scaled(4), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), seat=SEATS)
def test_each_trade_steal_discard_and_draw_names_its_cards(tmp_path, seed, seat):
    path = write_log(tmp_path, random_game(seed, 4), seat)
    html = page.report_html(str(path), path.name)
    texts = dict(re.findall(r'<li data-line="(\d+)".*?<span class="what">(.*?)</span>', html, re.S))
    messages = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]
    seen = set()
    for line, (who, action, value) in enumerate(messages, 1):
        text = texts[str(line)].replace("&#39;", "'")
        if action in ("TR", "ST"):
            own = next(s["resources"] for s in value if s["player"] == who)
            for said in _named(own):
                assert said in text, (line, text)
            seen.add(action)
        elif action == "BD":
            card = value["cCode"]
            assert ("a card not seen (?)" if card == "?" else holdings.CARD_NAMES[card]) in text, (line, text)
            seen.add(action)
    assert {"TR", "BD"} <= seen


def test_each_roll_says_who_received_what(tmp_path):
    path = write_log(tmp_path, random_game(3, 4))
    html = page.report_html(str(path), path.name)
    texts = dict(re.findall(r'<li data-line="(\d+)".*?<span class="what">(.*?)</span>', html, re.S))
    messages = [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]
    rolls = 0
    for line, (who, action, value) in enumerate(messages, 1):
        if action != "RD" or value["result"] == 7:
            continue
        before, after = (
            replay(str(path), name="g", at=at, possible=False)[0].game.snapshot() for at in (line - 1, line)
        )
        said = texts[str(line)].split(": ", 1)[1]
        gains = []
        for name, p in sorted(after["players"].items()):
            got = [
                f"{p['hand'][r] - before['players'][name]['hand'][r]} {RESOURCE_NAMES[r]}"
                for r in RESOURCES
                if p["hand"][r] > before["players"][name]["hand"][r]
            ]
            if got:
                gains.append(f"player {name}: {', '.join(got)}")
        assert said == ("; ".join(gains) or "no one receives a card"), line
        rolls += 1
        if rolls >= 25:
            break
    assert rolls >= 10


def test_the_bundled_game_with_faults_shows_the_replays_holdings():
    """After a fault the replay reads on, and the page's holdings are its reading."""
    check_holdings(CORPUS / "games" / "faulty-cards-played-when-bought.sgn", every=5)


# a string that would be markup, marked so that it is found only where it was written raw (a
# `'` is not one: the data's JSON holds it as it is, in a <script> block where it is text;
# a `&` alone neither: its escape begins with it)
UNSAFE = st.tuples(st.text(max_size=6), st.sampled_from('<>"'), st.text(max_size=6)).map(lambda t: "sgnX" + "".join(t))


@settings(max_examples=scaled(20), deadline=None)
@given(st.lists(UNSAFE, min_size=1, max_size=3))
def test_no_string_of_a_trade_steal_or_draw_reaches_the_page_raw(strings):
    """Whatever a log writes as a resource, a player or a card, the page escapes it (the
    labels with their cards, the data, the rolls' income)."""
    import tempfile
    from pathlib import Path

    base = (CORPUS / "games" / "game.sgn").read_text(encoding="utf-8").splitlines()
    extra = []
    for s in strings:
        extra += [
            ["1", "TR", [{"player": "1", "resources": {s: -1, "W": 1}}, {"player": s, "resources": {s: 1}}]],
            ["1", "TR", [{"player": "1", "resources": {s: -2}}, {"player": "B", "resources": {s: 2}}]],
            ["1", "ST", [{"player": "1", "resources": {s: 1}}, {"player": s, "resources": {s: -1}}]],
            ["1", "BD", {"cCode": s}],
        ]
    lines = base[:12] + [json.dumps(m) for m in extra] + base[12:]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.sgn"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        html = page.report_html(str(path), "x.sgn")
    for s in strings:
        assert s not in html
