"""The SVG board (`sgn.svg.board`, `sgn render`) is inert whatever a game holds: quotes,
`<!--`, `</script>`, `<svg onload=...>`, `javascript:` and CSS `url()` in a player's name or a
caption stay values and text (checked by parsing the picture with html.parser and as XML)."""
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings, strategies as st

import sgn.svg
from sgn.game import Game
from sgn.pictures import tree
from sgn.play import random_game

INJECTIONS = [
    'x" onmouseover="alert(1)" y="', "x' onmouseover='alert(1)' y='", "<!--<script>", "<!--", "-->",
    "</script><script>alert(1)</script>", "<svg onload=alert(1)>", "<img src=x onerror=alert(1)>",
    "javascript:alert(1)", 'x" style="fill:url(http://127.0.0.1:9/x.png)"', "url(http://127.0.0.1:9/y.png)",
    "</style><style>*{background:url(http://127.0.0.1:9/z.png)}</style>", "</template><b onclick=alert(1)>",
    "]]>&amp;&lt;\u2028\u2029{{ 7 * 7 }}", "\x01\x7f\ufffe",
]
# what the pictures are made of: anything else was made by a game
SVG_TAGS = {"svg", "g", "polygon", "title", "circle", "text", "line", "ellipse", "rect", "path"}


class _Scan(HTMLParser):
    """Every element (tag, attributes) and the text of each <script>, <style> and <title>."""

    def __init__(self):
        super().__init__()
        self.elements, self.raw, self.text, self._in = [], [], [], None

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, attrs))
        if tag in ("script", "style", "title", "h1"):
            self.raw.append([tag, dict(attrs), ""])
            self._in = self.raw[-1]

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in is not None:
            self._in[2] += data
        if self._in is None or self._in[0] not in ("script", "style"):
            self.text.append(data)


def scan(html):
    parsed = _Scan()
    parsed.feed(html)
    parsed.close()
    return parsed


def assert_inert(elements, tags):
    for tag, attrs in elements:
        assert tag in tags, f"<{tag}> is not the page's own"
        for name, _ in attrs:
            assert not name.startswith("on") and name not in ("style", "href", "xlink:href", "src", "action"), \
                (tag, name)


def hostile_game(names):
    """A whole game whose players are named `names` (the API takes any name; a log cannot)."""
    game = Game()
    for line, m in enumerate(random_game(seed=2, players=len(names)), 1):
        game.apply(m, line)
    game.players = dict(zip(names, game.players.values()))
    return game


def test_the_board_of_hostile_players_is_inert():
    names = INJECTIONS[:4]
    game = hostile_game(names)
    svg = sgn.svg.board(game, caption=" ".join(INJECTIONS), highlight=("tile", (0, 0)))
    root = ET.fromstring(svg)                   # well-formed, a control character or not
    assert_inert(scan(svg).elements, SVG_TAGS)
    players = {e.get("data-player") for e in root.iter() if e.get("data-player") is not None}
    assert set(names) <= players                # each name kept as it was, as a value
    assert all(len(e.attrib) == len(set(e.attrib)) for e in root.iter())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=12), min_size=3, max_size=3, unique=True), st.text(max_size=30))
def test_any_name_and_caption_draw_an_inert_board(names, caption):
    svg = sgn.svg.board(hostile_game(names), caption=caption)
    ET.fromstring(svg)
    assert_inert(scan(svg).elements, SVG_TAGS)


def test_no_attribute_that_runs_fetches_or_styles_can_be_drawn():
    for name in ("onload", "ONCLICK", "href", "xlink:href", "src", "style"):
        with pytest.raises(ValueError):
            tree.el("g", {name: "x"})
    assert tree.text_of(tree.el("g", {"data-player": '"><x onload="', "class": "a"}, "\x00</g>")) == \
        '<g data-player="&quot;&gt;&lt;x onload=&quot;" class="a">\ufffd&lt;/g&gt;</g>'
