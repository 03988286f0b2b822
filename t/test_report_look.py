"""The report page as a newcomer sees it: the charts have a legend and a turn axis, the
winner is marked, an invalid log says that the board follows the replay's reading of its
faults, and the move list's badges fit (no cut text, no horizontal scrollbar) at a wide
and a narrow window, in Chromium."""

import re
import xml.etree.ElementTree as ET

import pytest

from chromium import open_page
from conftest import CORPUS
from sgn import page
from sgn.pipeline.replay import replay

VALID = CORPUS / "games" / "random-3p.sgn"  # player 3 wins, no error
FAULTY = CORPUS / "games" / "faulty-cards-played-when-bought.sgn"  # player 1 wins, 5 errors
SVG = "{http://www.w3.org/2000/svg}"


def _winner(path):
    """The player who ends the game with 10 points or more, as the replay counts them."""
    game = replay(str(path), name=str(path))[0].game
    (winner,) = [p for p in game.players if game.points(p) >= 10]
    return winner


@pytest.fixture(scope="module")
def pages():
    return {path: page.report_html(str(path), path.name) for path in (VALID, FAULTY)}


def _charts(html):
    return [ET.fromstring(svg) for svg in re.findall(r'<svg [^>]*class="chart".*?</svg>', html, re.S)]


@pytest.mark.parametrize("path", [VALID, FAULTY], ids=["valid", "faulty"])
def test_the_charts_have_a_legend_and_a_turn_axis_and_mark_the_winner(pages, path):
    html = pages[path]
    winner = _winner(path)
    assert winner in ("3" if path == VALID else "1",)
    charts = _charts(html)
    assert len(charts) == 2
    for chart in charts:
        keys = {
            g.get("data-player"): "".join(g.itertext())
            for g in chart.iter(SVG + "g")
            if "key" in (g.get("class") or "").split()
        }
        assert set(keys) == {"1", "2", "3"}
        assert keys[winner] == f"player {winner} (won)"
        assert all(keys[p] == f"player {p}" for p in keys if p != winner)
        axis = next(g for g in chart.iter(SVG + "g") if g.get("class") == "turn-axis")
        ticks = [int(t.text) for t in axis.iter(SVG + "text") if t.get("class") == "tick"]
        assert ticks == sorted(ticks) and len(ticks) >= 3 and ticks[0] > 0
        assert "turn" in [t.text for t in axis.iter(SVG + "text")]


@pytest.mark.parametrize("path", [VALID, FAULTY], ids=["valid", "faulty"])
def test_the_summary_names_the_winner_and_an_invalid_log_says_how_the_board_reads_it(pages, path):
    html = pages[path]
    summary = re.search(r'<p id="summary">(.*?)</p>', html).group(1)
    assert summary.endswith(f"player {_winner(path)} won")
    assert ('id="reading"' in html) == (path == FAULTY)
    if path == FAULTY:
        assert "the replay&#39;s\nreading of each fault" in html or "replay's\nreading of each fault" in html


def test_a_log_of_several_games_names_each_winner():
    assert page._outcome(["2", None]) == "; game 1: player 2 won, game 2: no winner"
    assert page._outcome([]) == ""
    assert page._outcome(["1"] * 6).endswith("game 4: player 1 won, and 2 more")


FIT = """() => {
  const out = [];
  const list = document.getElementById('moves');
  if (list.scrollWidth > list.clientWidth) out.push('moves: ' + list.scrollWidth + ' > ' + list.clientWidth);
  if (document.documentElement.scrollWidth > window.innerWidth) out.push('page wider than the window');
  list.querySelectorAll('li').forEach(li => {
    const box = li.getBoundingClientRect();
    li.querySelectorAll('mark').forEach(m => {
      const r = m.getBoundingClientRect();
      if (m.scrollWidth > m.clientWidth + 1 || r.right > box.right + 0.5 || r.left < box.left - 0.5)
        out.push(li.dataset.line + ': ' + m.textContent);
    });
  });
  return out;
}"""


@pytest.mark.parametrize("size", [(1400, 1000), (800, 600)], ids=["1400x1000", "800x600"])
def test_the_badges_fit_and_the_winner_is_marked_in_a_browser(browser, tmp_path_factory, pages, size):
    tab = open_page(browser, tmp_path_factory, pages[FAULTY], "faulty.html")
    try:
        tab.set_viewport_size({"width": size[0], "height": size[1]})
        assert tab.locator("#moves mark").count() == 5
        assert tab.evaluate(FIT) == []
        assert tab.locator("#legend tr.winner").count() == 1
        row = tab.locator('#legend tr[data-player="1"]')
        assert "winner" in row.get_attribute("class") and row.locator(".winner-mark").is_visible()
        assert not tab.locator('#legend tr[data-player="2"] .winner-mark').is_visible()
        assert tab.locator("#reading").is_visible()
        for chart in tab.locator(".chart").all():  # a chart is never wider than it reads well
            assert chart.bounding_box()["width"] <= 461
        assert tab.errors == [] and tab.blocked == []
    finally:
        tab.close()


def test_the_turn_axis_of_a_log_of_several_games_starts_again_at_each_game():
    root = page.chart(
        "points", "points", {"1": [0] * 10, "2": [1] * 10}, 10, turns=[0, 0, 1, 2, 3, 0, 0, 1, 2, 3], winners=["2"]
    )
    svg = ET.fromstring(page.text_of(root))
    starts = [e for e in svg.iter(SVG + "line") if e.get("class") == "game-start"]
    assert len(starts) == 1
    assert [t.text for t in svg.iter(SVG + "text") if t.get("class") == "tick"] == ["1", "2", "3", "1", "2", "3"]
    xs = [float(t.get("x")) for t in svg.iter(SVG + "text") if t.get("class") == "tick"]
    assert xs[2] < float(starts[0].get("x1")) < xs[3]
    keys = [g for g in svg.iter(SVG + "g") if g.get("class") == "key winner"]
    assert [g.get("data-player") for g in keys] == ["2"]
