"""The report page (`sgn report`) and the SVG board (`sgn.svg.board`, `sgn render`) are inert
whatever a log holds: quotes, `<!--`, `</script>`, `<svg onload=...>`, `javascript:` and CSS
`url()` in file names, message values and diagnostics stay text. Checked by parsing the page
(html.parser, no browser needed), then in Chromium: no element has an `on...` attribute,
nothing is fetched, the page's own script still steps through the moves, and the page's
Content-Security-Policy stops what a mistake would let in."""

import json
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings, strategies as st

import sgn.svg
from chromium import open_page
from conftest import CORPUS, run_cli
from sgn import page
from sgn.game import Game
from sgn.pictures import tree
from sgn.play import random_game

BASE = CORPUS / "games" / "game.sgn"
INJECTIONS = [
    'x" onmouseover="alert(1)" y="',
    "x' onmouseover='alert(1)' y='",
    "<!--<script>",
    "<!--",
    "-->",
    "</script><script>alert(1)</script>",
    "<svg onload=alert(1)>",
    "<img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    'x" style="fill:url(http://127.0.0.1:9/x.png)"',
    "url(http://127.0.0.1:9/y.png)",
    "</style><style>*{background:url(http://127.0.0.1:9/z.png)}</style>",
    "</template><b onclick=alert(1)>",
    "]]>&amp;&lt;\u2028\u2029{{ 7 * 7 }}",
    "\x01\x7f\ufffe",
]
# what the page and the pictures are made of: anything else was made by a log
HTML_TAGS = {
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "header",
    "h1",
    "h2",
    "p",
    "main",
    "section",
    "button",
    "ol",
    "li",
    "i",
    "b",
    "mark",
    "div",
    "input",
    "span",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "template",
    "script",
}
SVG_TAGS = {"svg", "g", "polygon", "title", "circle", "text", "line", "ellipse", "rect", "path"}
FILE_NAME = '<!--<script>" onload="x.sgn'


def hostile_lines():
    """The bundled 25-line game with, after its 10th line, each injection in each field."""
    lines = BASE.read_text(encoding="utf-8").splitlines()
    extra = []
    for s in INJECTIONS:
        extra += [
            json.dumps(m)
            for m in (
                [s, "RD", {"result": 8}],
                ["1", s, {}],
                ["1", "RD", {s: 1}],
                ["1", "RD", {"result": s}],
                ["1", "PD", {"cCode": s, "rCodes": [s]}],
                ["1", "MR", {"tile": [0, s]}],
                ["1", "BS", {"intersection": s}],
                ["1", "TR", [{"player": "1", "resources": {s: -1, "W": 1}}, {"player": s, "resources": {s: 1}}]],
                ["1", "ST", [{"player": "1", "resources": {s: 1}}, {"player": "2", "resources": {s: -1}}]],
                ["1", "BD", {"cCode": s}],
            )
        ]
    return lines[:10] + extra + [json.dumps(INJECTIONS)] + lines[10:]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """(the log's path, its page written by `sgn report`): its name is hostile too."""
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / FILE_NAME
    path.write_text("\n".join(hostile_lines()) + "\n", encoding="utf-8")
    result = run_cli("report", FILE_NAME, "-o", "page.html", cwd=folder)
    assert result.returncode == 1 and b"Traceback" not in result.stderr
    return path, (folder / "page.html").read_text(encoding="utf-8")


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
            assert not name.startswith("on") and name not in ("style", "href", "xlink:href", "src", "action"), (
                tag,
                name,
            )


def test_the_page_of_a_hostile_log_is_inert_and_its_script_intact(hostile):
    path, html = hostile
    for html, name in ((html, FILE_NAME), (page.report_html(str(path), "".join(INJECTIONS)), "".join(INJECTIONS))):
        parsed = scan(html)
        assert_inert(parsed.elements, HTML_TAGS | SVG_TAGS)
        raw = {}
        for tag, attrs, text in parsed.raw:  # the first of each: the page's <title>, not a tile's
            raw.setdefault((tag, attrs.get("id")), text)
        assert [(tag, attrs) for tag, attrs, _ in parsed.raw if tag == "script"] == [
            ("script", {"id": "sgn-data", "type": "application/json"}),
            ("script", {}),
        ]
        assert raw["script", None] == (page.HERE / "page.js").read_text(encoding="utf-8")
        blob = raw["script", "sgn-data"]
        assert blob.isascii() and not set("<>&") & set(blob)  # nothing that could end or bend it
        data = json.loads(blob)
        assert data["name"] == name and raw["title", None] == f"{name}: SGN game report" and raw["h1", None] == name
        assert "<" not in raw["style", None]
        policy = next(
            dict(attrs) for tag, attrs in parsed.elements if ("http-equiv", "Content-Security-Policy") in attrs
        )
        assert parsed.elements.index(("meta", list(policy.items()))) < parsed.elements.index(("style", []))
        assert policy["content"] == page.policy(raw["script", None], raw["style", None])
        assert "default-src 'none'" in policy["content"] and "unsafe" not in policy["content"]
    text = "".join(parsed.text)
    for s in INJECTIONS:  # each is on the page as it was written: text in the moves and diagnostics
        assert s in text


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
    root = ET.fromstring(svg)  # well-formed, a control character or not
    assert_inert(scan(svg).elements, SVG_TAGS)
    players = {e.get("data-player") for e in root.iter() if e.get("data-player") is not None}
    assert set(names) <= players  # each name kept as it was, as a value
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
    assert (
        tree.text_of(tree.el("g", {"data-player": '"><x onload="', "class": "a"}, "\x00</g>"))
        == '<g data-player="&quot;&gt;&lt;x onload=&quot;" class="a">\ufffd&lt;/g&gt;</g>'
    )


def test_the_page_refuses_a_script_or_style_that_would_end_early():
    assert page.raw_text("if (a < b) x = 1;", "x") == "if (a < b) x = 1;"
    for bad in ("a = '</script>'", "a = '<!--'", "/* </STYLE> */", "<script"):
        with pytest.raises(ValueError):
            page.raw_text(bad, "x")
    assert page.script_json(["</script><!--\u2028&"]) == '["\\u003c/script\\u003e\\u003c!--\\u2028\\u0026"]'


# --- in Chromium -------------------------------------------------------------------------

ATTRIBUTES = """() => {
  const all = [...document.querySelectorAll('*'), ...document.getElementById('sgn-store').content.querySelectorAll('*')];
  return all.flatMap(e => [...e.attributes].map(a => [e.tagName.toLowerCase(), a.name]));
}"""
PIECES = "() => document.querySelectorAll('#board svg .road, #board svg .settlement, #board svg .city').length"


def test_in_a_browser_a_hostile_page_runs_nothing_fetches_nothing_and_still_steps(browser, tmp_path_factory, hostile):
    path, html = hostile
    tab = open_page(browser, tmp_path_factory, html, "hostile.html")
    try:
        names = {name for _, name in tab.evaluate(ATTRIBUTES)}
        assert not [n for n in names if n.startswith("on")] and not names & {"style", "href", "src"}
        assert tab.title() == f"{FILE_NAME}: SGN game report"
        assert tab.locator("h1").inner_text() == FILE_NAME
        data = json.loads(tab.evaluate("document.getElementById('sgn-data').textContent"))
        assert tab.locator("#diagnostics li").count() == len(data["diags"]) > 50
        count = len(data["lines"]) - 1
        assert tab.evaluate("document.body.dataset.line") == str(data["lines"][-1])  # the script ran
        assert tab.evaluate(PIECES) > 0
        tab.keyboard.press("Home")
        assert tab.evaluate("document.body.dataset.line") == "0" and tab.evaluate(PIECES) == 0
        for _ in range(6):
            tab.keyboard.press("ArrowRight")
        assert tab.evaluate("document.body.dataset.line") == str(data["lines"][6]) and tab.evaluate(PIECES) > 0
        tab.locator("#diagnostics li").nth(3).click()
        assert "[" in tab.locator("#caption").inner_text()
        tab.locator("#moves li").nth(count - 1).hover()
        assert tab.errors == [] and tab.requests == [tab.url_of_file] and tab.blocked == []
        assert [m for m in tab.console if "Content Security Policy" in m] == []
        assert tab.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(246, 244, 239)"  # styled
    finally:
        tab.close()


def test_in_a_browser_the_policy_stops_what_a_mistake_would_let_in(browser, tmp_path_factory):
    """Markup slipped into the page by a fault of ours (an inline handler, an inline script,
    a style attribute, a fetch) does not run; the page's own script does."""
    html = page.report_html(str(BASE), "game.sgn")
    slipped = (
        '<img src="http://127.0.0.1:9/a.png" onerror="document.body.dataset.ran=1">'
        '<script>document.body.dataset.ran = 2</script><p style="background:url(http://127.0.0.1:9/b.png)">x</p>'
        '<svg><rect width="5" height="5" onload="document.body.dataset.ran=3"/></svg>'
    )
    assert html.count("</body>") == 1
    tab = open_page(browser, tmp_path_factory, html.replace("</body>", slipped + "</body>"), "slipped.html")
    try:
        tab.wait_for_timeout(200)
        assert tab.evaluate("document.body.dataset.ran") is None
        assert tab.requests == [tab.url_of_file] and tab.blocked == ["http://127.0.0.1:9/a.png"]
        assert any("Content Security Policy" in m for m in tab.console)
        assert tab.evaluate("document.body.dataset.line") != "0"
        tab.keyboard.press("Home")
        assert tab.evaluate("document.body.dataset.line") == "0" and tab.errors == []
        with pytest.raises(Exception, match="TrustedHTML"):  # markup from a string is refused
            tab.evaluate("document.getElementById('caption').innerHTML = '<b>x</b>'")
    finally:
        tab.close()
