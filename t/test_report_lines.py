"""The report page in Chromium, as a reader of a game uses it: `#line=N` in the address
opens the page at line N (and stepping writes it there, as lichess writes the move), the
pieces the move shown placed are marked on the board (python-chess's `lastmove`), the
cards at the line are the replay's, and the cards-in-hand chart of a game of over 600 lines
is one band per player, never a tangle. Screenshots go to the tests' artefacts
(`chromium.artefact`, CONTRIBUTING.md)."""

import json
import re
import xml.etree.ElementTree as ET

import pytest

from chromium import artefact, open_page
from conftest import CORPUS
from sgn import page
from sgn.notation.redact import redact
from sgn.pictures.places import corner_key, tile_key
from sgn.pipeline.replay import replay
from sgn.rules import CARD_NAMES, RESOURCES
from test_report_page import messages_of, replayed_pieces, shown

VALID = CORPUS / "games" / "random-3p.sgn"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def spectator(tmp_path_factory):
    """random-3p as a spectator sees it: steals and draws hidden, hands in doubt."""
    lines = VALID.read_bytes().splitlines()
    path = tmp_path_factory.mktemp("spectator") / "spectator.sgn"
    path.write_bytes(b"\n".join(redact(lines, None)) + b"\n")
    return path


@pytest.fixture(scope="module")
def valid_html():
    """The page of random-3p, built once: the tests only read it."""
    return page.report_html(str(VALID), VALID.name)


@pytest.fixture(scope="module")
def long_game(tmp_path_factory):
    """A game recorded from catanatron of more than 600 lines (its faults included)."""
    from test_engine_faults import recorded_games

    game = next(g for g in recorded_games() if 600 <= len(g) <= 700)
    path = tmp_path_factory.mktemp("long") / "long.sgn"
    path.write_text("\n".join(json.dumps(m, separators=(",", ":")) for m in game) + "\n", encoding="utf-8")
    return path


HANDS = """() => Array.from(document.querySelectorAll('#hands tr[data-player], #hands tr#bank')).map(tr =>
  [tr.dataset.player || 'B', Array.from(tr.querySelectorAll('td.r')).map(td => td.textContent),
   tr.querySelector('.dev').textContent])"""


def hands_shown(tab):
    return {who: (cells, dev) for who, cells, dev in tab.evaluate(HANDS)}


def written(count):
    """A count as the page writes it: 3, or 1–3 where it is in doubt."""
    return f"{count[0]}\u2013{count[1]}" if isinstance(count, list) else str(count)


def check_cards(tab, path, line):
    # possible=False: the hands are the same; only the hidden values' search (unread here) is skipped
    state = replay(str(path), name=path.name, at=line, possible=False)[0].game.snapshot()
    cells = hands_shown(tab)
    assert cells["B"][0] == [written(state["bank"][r]) for r in RESOURCES]
    assert cells["B"][1].startswith(f"deck: {state['deck_left']} left")
    drawn = state.get("unseen", {}).get("cards_drawn_unseen")
    if drawn:  # (in a view: who holds the cards drawn unseen, the deck's kinds as ranges)
        assert f"{sum(drawn['held_by'].values())} drawn unseen, held by " in cells["B"][1]
        assert all(f"{k} {written(n)}".replace("\u2013", "-") in cells["B"][1] for k, n in state["deck"].items())
    for name, p in state["players"].items():
        assert cells[name][0] == [written(p["hand"][r]) for r in RESOURCES], (line, name)
        unseen = sum(int(n) for n in re.findall(r"\? (\d+)", cells[name][1]))
        assert unseen == p["cards"].get("?", 0), (line, name, cells[name][1])


def test_line_n_in_the_address_opens_the_page_at_line_n(browser, tmp_path_factory, valid_html):
    html = valid_html
    lines = sorted(messages_of(VALID))
    for line in (lines[0], lines[57], lines[140], lines[-1]):
        tab = open_page(browser, tmp_path_factory, html, "valid.html", f"#line={line}")
        try:
            assert tab.evaluate("document.body.dataset.line") == str(line)
            assert tab.locator("#moves li.current").get_attribute("data-line") == str(line)
            assert tab.locator("#moves li.current").is_visible()
            assert shown(tab) == replayed_pieces(VALID, line)
            check_cards(tab, VALID, line)
            if line == lines[57]:
                tab.screenshot(path=str(artefact(f"report/line-{line}.png")))
            assert tab.errors == [] and tab.requests == [tab.url_of_file] and tab.blocked == []
        finally:
            tab.close()


def test_stepping_writes_the_line_in_the_address_and_an_address_changed_shows_its_line(
    browser, tmp_path_factory, valid_html
):
    html = valid_html
    lines = sorted(messages_of(VALID))
    tab = open_page(browser, tmp_path_factory, html, "valid.html")
    try:
        assert tab.evaluate("document.body.dataset.line") == str(lines[-1])  # no line asked: the end
        tab.click(f'#moves li[data-line="{lines[30]}"]')
        assert tab.evaluate("location.hash") == f"#line={lines[30]}"
        tab.keyboard.press("ArrowRight")
        assert tab.evaluate("location.hash") == f"#line={lines[31]}"
        tab.evaluate(f"() => {{ location.hash = '#line={lines[90]}'; }}")
        tab.wait_for_function(f"document.body.dataset.line === '{lines[90]}'")
        assert shown(tab) == replayed_pieces(VALID, lines[90])
        tab.evaluate("() => { location.hash = '#line=99999'; }")  # past the end: the last line
        tab.wait_for_function(f"document.body.dataset.line === '{lines[-1]}'")
        tab.evaluate("() => { location.hash = '#line=x'; }")  # not a line: stays
        assert tab.evaluate("document.body.dataset.line") == str(lines[-1])
        assert tab.errors == [] and tab.requests == [tab.url_of_file]
    finally:
        tab.close()


def test_a_line_that_is_no_move_opens_at_the_move_before(browser, tmp_path_factory, write):
    text = VALID.read_text(encoding="utf-8").splitlines()
    path = write("\n".join(text[:20] + ["", ""] + text[20:]) + "\n")
    tab = open_page(browser, tmp_path_factory, page.report_html(str(path), "gaps.sgn"), "gaps.html", "#line=22")
    try:
        assert tab.evaluate("document.body.dataset.line") == "20"
    finally:
        tab.close()


def test_the_last_move_is_marked_on_the_board(browser, tmp_path_factory, valid_html):
    html = valid_html
    messages = messages_of(VALID)
    tab = open_page(browser, tmp_path_factory, html, "valid.html")
    marked = """() => Array.from(document.querySelectorAll('#pieces .last')).map(g => {
        const e = g.firstElementChild; return [e.getAttribute('class'), e.dataset.corner || e.dataset.tile || ''];})"""
    try:
        kinds = {}
        for line, (who, action, value) in messages.items():
            if action in kinds and len(kinds[action]) >= 3:
                continue
            tab.click(f'#moves li[data-line="{line}"]')
            found = sorted(map(tuple, tab.evaluate(marked)))
            if action in ("BS", "BC"):
                corner = frozenset(map(tuple, value["intersection"]))
                kind = "settlement" if action == "BS" else "city"
                assert found == [(kind, corner_key(corner))], line
            elif action == "MR":
                assert found == [("robber", tile_key(tuple(value["tile"])))], line
            elif action == "BR":
                assert [k for k, _ in found] == ["road"], line
            elif action in ("RD", "TR", "BD"):
                assert found == [], line
            if action == "BD":  # the card drawn, held and new this turn
                dev = tab.locator(f'#hands tr[data-player="{who}"] .dev').inner_text()
                assert f"{CARD_NAMES[value['cCode']]} 1 (new)" in dev, (line, dev)
            kinds.setdefault(action, []).append(line)
            if action == "BC":
                tab.locator("#board").screenshot(path=str(artefact("report/last-move-city.png")))
        assert {"BS", "BR", "BC", "MR", "RD"} <= set(kinds)
        assert tab.errors == []
    finally:
        tab.close()


def test_a_spectators_page_shows_the_hands_in_doubt_as_ranges(browser, tmp_path_factory, spectator):
    html = page.report_html(str(spectator), spectator.name)
    tab = open_page(browser, tmp_path_factory, html, "spectator.html")
    try:
        lines = sorted(messages_of(spectator))
        doubtful = [
            line
            for line in lines[::10]
            if any(
                isinstance(c, list)
                for p in replay(str(spectator), name="s", at=line, possible=False)[0]
                .game.snapshot()["players"]
                .values()
                for c in p["hand"].values()
            )
        ]
        assert doubtful
        for line in doubtful[:4] + lines[-1:]:
            tab.click(f'#moves li[data-line="{line}"]')
            check_cards(tab, spectator, line)
        tab.click(f'#moves li[data-line="{doubtful[0]}"]')
        assert tab.locator("#hands td.doubt").count() >= 1
        tab.locator("#side-pane").screenshot(path=str(artefact("report/hands-in-doubt.png")))
        assert "(one of" in tab.locator("#hands").inner_text()  # a card drawn unseen: one of the kinds left
        assert tab.errors == []
    finally:
        tab.close()


def test_over_600_lines_the_cards_chart_gives_each_player_a_band(browser, tmp_path_factory, long_game):
    html = page.report_html(str(long_game), long_game.name)
    assert len(messages_of(long_game)) > 600
    chart = next(
        ET.fromstring(s) for s in re.findall(r'<svg [^>]*class="chart".*?</svg>', html, re.S) if 'id="chart-cards"' in s
    )
    bands = [g for g in chart.iter(SVG + "g") if g.get("class") == "band"]
    assert [b.get("data-player") for b in bands] == ["1", "2", "3", "4"]
    spans = []
    for band in bands:
        (series,) = [p for p in band.iter(SVG + "path") if p.get("class") == "series"]
        ys = [float(y) for y in re.findall(r"(?:,|V)([\d.]+)", series.get("d"))]
        spans.append((min(ys), max(ys)))
    for (top, bottom), (next_top, _) in zip(spans, spans[1:]):
        assert bottom <= next_top, spans  # no band reaches into the next one
    ticks = [t for t in chart.iter(SVG + "text") if t.get("class") == "tick"]
    xs = [float(t.get("x")) for t in ticks]
    assert 3 <= len(ticks) <= 9 and min(b - a for a, b in zip(xs, xs[1:])) >= 25  # no label on another
    tab = open_page(browser, tmp_path_factory, html, "long.html", "#line=300")
    try:
        assert tab.evaluate("document.body.dataset.line") == "300"
        tab.locator("#charts").screenshot(path=str(artefact("report/charts-600-lines.png")))
        tab.screenshot(path=str(artefact("report/long-game-line-300.png")))
        assert tab.locator("#hands").is_visible()  # above the diagnostics, however many
        assert tab.errors == []
    finally:
        tab.close()
