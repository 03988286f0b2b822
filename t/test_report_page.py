"""`sgn report`: the game as one self-contained HTML page (sgn/page/__init__.py, page.js).

The structure is checked without a browser (the SVG parses as XML, one entry per message,
nothing fetched from the network, the steps replay to the replay's pieces); then the page
is driven in Chromium with Playwright: the board at a line shows exactly the pieces
`sgn replay --at LINE` has, a diagnostic clicked marks the place it names, and a
screenshot shows the terrain colours where the hexes are.
"""

import json
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from html.parser import HTMLParser

import pytest
from hypothesis import example, given, strategies as st

from chromium import open_page
from conftest import CORPUS, any_message, run_cli
from sgn import page
from sgn.pictures import style
from sgn.pictures.places import corner_key, edge_key, named_by, tile_key
from sgn.pipeline.replay import replay

VALID = CORPUS / "games" / "random-3p.sgn"
BASE = CORPUS / "games" / "game.sgn"
LONG = CORPUS / "logs" / "random-6p-whole-deck.sgn"
SVG_NS = "http://www.w3.org/2000/svg"


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    """The bundled 25-line game with player 2's first settlement on player 1's (line 5)."""
    lines = BASE.read_text(encoding="utf-8").splitlines()
    first, second = json.loads(lines[2]), json.loads(lines[4])
    assert first[1] == second[1] == "BS"
    second[2] = first[2]
    lines[4] = json.dumps(second, separators=(",", ":"))
    path = tmp_path_factory.mktemp("report") / "faulty.sgn"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def messages_of(path):
    """line number -> the message, for every non-blank line."""
    out = {}
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text.strip():
            try:
                out[number] = json.loads(text)
            except ValueError:
                out[number] = None
    return out


def data_of(html):
    blob = re.search(r'<script id="sgn-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    return json.loads(blob.replace("<\\/", "</"))


def replayed_pieces(path, line):
    """The pieces of `sgn replay --at LINE`, as (class, place key, player)."""
    if line == 0:
        return set()
    game = replay(str(path), name=str(path), at=line, possible=False)[0].game  # (hidden values unread)
    out = set()
    for name, p in game.players.items():
        out |= {("road", edge_key(e), name) for e in p.roads}
        out |= {("settlement", corner_key(c), name) for c in p.settlements}
        out |= {("city", corner_key(c), name) for c in p.cities}
    if game.robber is not None:
        out.add(("robber", tile_key(game.robber), ""))
    return out


def store_of(html):
    """The drawings the script moves in and out: {"piece"|"map"|"place": {key: element}}."""
    svg = re.search(r'<template id="sgn-store">(.*?)</template>', html, re.S).group(1)
    out = {"piece": {}, "map": {}, "place": {}}
    for node in ET.fromstring(svg):
        kind, key = next((k, node.get(f"data-{k}")) for k in out if node.get(f"data-{k}") is not None)
        out[kind][key] = node
    return out


def pieces_of(html):
    """The pieces of the page, in the order of its data's ids."""
    pieces = store_of(html)["piece"]
    return [pieces[str(k)] for k in range(len(pieces))]


def piece_of(node):
    element = node[0]
    kind = element.get("class")
    return (
        kind,
        element.get("data-edge") or element.get("data-corner") or element.get("data-tile"),
        element.get("data-player") or "",
    )


# --- the page's structure, without a browser ---------------------------------------------


class _Tags(HTMLParser):
    """Checks that the elements nest (void elements aside) and counts some of them."""

    VOID = {"meta", "input", "br", "img", "link", "hr"}

    def __init__(self):
        super().__init__()
        self.stack, self.problems, self.moves, self.diagnostics, self.inside = [], [], 0, 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "ol":
            self.inside.append(attrs.get("id"))
        if tag == "li" and "data-line" in attrs and self.inside:
            self.moves += self.inside[-1] == "moves"
            self.diagnostics += self.inside[-1] == "diagnostics"
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag == "ol":
            self.inside.pop()
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()


@pytest.fixture(scope="module")
def valid_html():
    return page.report_html(str(VALID), "random-3p.sgn")


@pytest.fixture(scope="module")
def faulty_html(faulty):
    return page.report_html(str(faulty), "faulty.sgn")


def test_the_page_is_html_whose_elements_nest_with_one_entry_per_message(valid_html, faulty_html):
    for html, path in ((valid_html, VALID), (faulty_html, None)):
        assert html.startswith("<!DOCTYPE html>")
        tags = _Tags()
        tags.feed(html)
        tags.close()
        assert tags.problems == [] and tags.stack == []
        data = data_of(html)
        if path is not None:
            count = len(messages_of(path))
            assert tags.moves == count == len(data["lines"]) - 1
            assert len(data["add"]) == len(data["del"]) == len(data["stats"]) == len(data["awards"]) == count + 1
            assert data["lines"][1:] == sorted(messages_of(path))
        assert tags.diagnostics == len(data["diags"])


def test_the_svg_parses_as_xml(valid_html, faulty_html):
    for html in (valid_html, faulty_html):
        svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
        assert len(svgs) == 4  # the board, the drawings it shows, and two charts
        for svg in svgs:
            assert ET.fromstring(svg).tag == f"{{{SVG_NS}}}svg"
        data = data_of(html)
        store = store_of(html)
        assert len(store["piece"]) == len(data["ids"]) and len(store["map"]) == len(data["views"]) == 1
        assert set(store["place"]) == {d["place"] for d in data["diags"]} - {""}


def test_nothing_is_fetched_from_the_network(valid_html):
    assert set(re.findall(r"https?://[^\s\"'<>)]*", valid_html)) == {SVG_NS}
    assert not re.search(r"<(link|img|iframe)\b|<script\b[^>]*\bsrc=|@import|url\(", valid_html)


def test_the_steps_replay_to_the_pieces_of_sgn_replay(valid_html):
    data = data_of(valid_html)
    pieces = [piece_of(m) for m in pieces_of(valid_html)]
    assert [p[0] for p in pieces] == sorted((p[0] for p in pieces), key=page.LAYERS.index)  # roads first
    on = set()
    for i, line in enumerate(data["lines"]):
        on = (on - set(data["del"][i])) | set(data["add"][i])
        if i % 25 == 0 or i == len(data["lines"]) - 1:
            assert {pieces[k] for k in on} == replayed_pieces(VALID, line), line
    game = replay(str(VALID), name="v")[0].game
    players = data["players"]
    assert data["stats"][-1] == [
        [game.points(p), sum(game.players[p].hand.values()), game.players[p].knights] for p in players
    ]


def test_each_diagnostic_names_its_place(faulty, faulty_html):
    data = data_of(faulty_html)
    messages = messages_of(faulty)
    found = [(d["line"], d["code"]) for d in data["diags"]]
    assert found[:2] == [(5, "site-occupied"), (6, "setup-road-not-at-settlement")]
    for d in data["diags"]:
        where = named_by(messages[d["line"]], d["pointer"])
        assert d["place"] == (
            "" if where is None else {"corner": corner_key, "edge": edge_key, "tile": tile_key}[where[0]](where[1])
        )
        assert (d["place"] in store_of(faulty_html)["place"]) == (where is not None)
    assert data["diags"][0]["place"] == corner_key(frozenset(map(tuple, messages[3][2]["intersection"])))


def test_a_line_that_is_no_message_changes_nothing(write):
    lines = BASE.read_text(encoding="utf-8").splitlines()
    broken = lines[:4] + ["not json", "[1, 2]", '["2","BS",{"intersection":[[0]]}]', '["2","BR",7]'] + lines[4:]
    data = data_of(page.report_html(str(write("\n".join(broken) + "\n")), "broken.sgn"))
    assert len(data["lines"]) - 1 == len(broken)
    assert all(data["add"][i] == data["del"][i] == [] for i in range(5, 9))
    assert data["stats"][4] == data["stats"][8]
    plain = data_of(page.report_html(str(BASE), "game.sgn"))
    assert data["stats"][-1] == plain["stats"][-1] and data["ids"] == plain["ids"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(
    st.one_of(
        any_message(),
        st.lists(JSON, min_size=3, max_size=3).map(lambda m: ["1", m[1], m[2]]),
        st.tuples(st.sampled_from(["PD", "TR", "ST", "RD"]), JSON).map(lambda m: ["1", m[0], m[1]]),
        JSON,
    )
)
@example(["1", "PD", {"cCode": [], "rCodes": [[1], {}]}])
@example(["2", "TR", [{"player": "2", "resources": {"O": -4, "W": 1}}, {"player": "B", "resources": []}]])
def test_every_message_has_a_label_whatever_it_holds(message):
    who, text = page.label(message)
    assert isinstance(who, str) and isinstance(text, str) and text


def test_the_command_writes_the_page_and_exits_by_the_errors(tmp_path, faulty):
    out = tmp_path / "game.html"
    result = run_cli("report", VALID, "-o", out)
    assert result.returncode == 0, result.stderr
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    result = run_cli("report", faulty, "-o", out)
    assert result.returncode == 1 and b"Traceback" not in result.stderr
    assert len(data_of(out.read_text(encoding="utf-8"))["diags"]) >= 2
    result = run_cli("report", "-", "-o", "-", stdin=BASE.read_bytes())
    assert result.returncode == 0 and result.stdout.startswith(b"<!DOCTYPE html>")
    for missing in (tmp_path / "nothing.sgn", tmp_path):
        result = run_cli("report", missing, "-o", tmp_path / "x.html")
        assert result.returncode == 2 and result.stdout == b""
        assert len(result.stderr.decode().splitlines()) == 1 and b"Traceback" not in result.stderr
    assert not (tmp_path / "x.html").exists()
    assert run_cli("report", VALID).returncode == 2  # -o is required


# --- in a browser --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def valid_tab(browser, tmp_path_factory, valid_html):
    tab = open_page(browser, tmp_path_factory, valid_html, "valid.html")
    yield tab
    assert tab.errors == [] and tab.requests == [tab.url_of_file] and tab.blocked == []
    assert [m for m in tab.console if "Content Security Policy" in m] == []  # its own script and style run
    tab.close()


@pytest.fixture(scope="module")
def faulty_tab(browser, tmp_path_factory, faulty_html):
    tab = open_page(browser, tmp_path_factory, faulty_html, "faulty.html")
    yield tab
    assert tab.errors == [] and tab.requests == [tab.url_of_file] and tab.blocked == []
    assert [m for m in tab.console if "Content Security Policy" in m] == []  # its own script and style run
    tab.close()


SHOWN = """() => Array.from(document.querySelectorAll(
  '#board svg .road, #board svg .settlement, #board svg .city, #board svg .robber')).map(e =>
  [e.getAttribute('class'), e.dataset.edge || e.dataset.corner || e.dataset.tile, e.dataset.player || ''])"""


def shown(tab):
    return {tuple(p) for p in tab.evaluate(SHOWN)}


def line_of(tab):
    return int(tab.evaluate("document.body.dataset.line"))


def test_the_move_list_has_one_entry_per_message(valid_tab, faulty_tab, faulty):
    assert valid_tab.locator("#moves li[data-line]").count() == len(messages_of(VALID))
    assert faulty_tab.locator("#moves li[data-line]").count() == len(messages_of(faulty))
    assert line_of(valid_tab) == max(messages_of(VALID))  # it opens at the end


def test_clicks_arrow_keys_and_the_slider_show_the_pieces_of_sgn_replay(valid_tab):
    lines = sorted(messages_of(VALID))
    for line in (lines[3], lines[20], lines[57], lines[-1]):
        valid_tab.click(f'#moves li[data-line="{line}"]')
        assert line_of(valid_tab) == line
        assert shown(valid_tab) == replayed_pieces(VALID, line), line
    valid_tab.click(f'#moves li[data-line="{lines[120]}"]')
    for _ in range(5):
        valid_tab.keyboard.press("ArrowRight")
    assert line_of(valid_tab) == lines[125]
    assert shown(valid_tab) == replayed_pieces(VALID, lines[125])
    valid_tab.keyboard.press("ArrowLeft")
    assert line_of(valid_tab) == lines[124]
    assert shown(valid_tab) == replayed_pieces(VALID, lines[124])
    valid_tab.keyboard.press("Home")
    assert line_of(valid_tab) == 0 and shown(valid_tab) == set()
    valid_tab.keyboard.press("ArrowRight")
    assert line_of(valid_tab) == lines[0] and shown(valid_tab) == replayed_pieces(VALID, lines[0])
    valid_tab.keyboard.press("End")
    assert line_of(valid_tab) == lines[-1]
    valid_tab.evaluate(
        "() => { const s = document.getElementById('slider'); s.value = 40; s.dispatchEvent(new Event('input')); }"
    )
    assert line_of(valid_tab) == lines[39] and shown(valid_tab) == replayed_pieces(VALID, lines[39])
    legend = valid_tab.locator('#legend tr[data-player="1"] td.points').inner_text()
    game = replay(str(VALID), name="v", at=lines[39], possible=False)[0].game
    assert int(legend) == game.points("1")


def test_a_diagnostic_clicked_shows_its_move_and_marks_its_place(faulty_tab, faulty):
    messages = messages_of(faulty)
    items = faulty_tab.locator("#diagnostics li[data-line]")
    assert items.count() >= 2
    for n in range(items.count()):
        item = items.nth(n)
        line = int(item.get_attribute("data-line"))
        item.click()
        assert line_of(faulty_tab) == line
        where = named_by(
            messages[line],
            faulty_tab.evaluate(f"JSON.parse(document.getElementById('sgn-data').textContent).diags[{n}].pointer"),
        )
        marks = faulty_tab.locator("#board svg .highlight")
        if where is None:
            assert marks.count() == 0
        else:
            kind, at = where
            key = {"corner": corner_key, "edge": edge_key, "tile": tile_key}[kind](at)
            assert marks.count() == 1 and marks.first.get_attribute(f"data-{kind}") == key
            assert marks.first.is_visible()
        code = item.get_attribute("data-code")
        assert code in faulty_tab.locator("#caption").inner_text()
    faulty_tab.click('#moves li[data-line="2"]')
    assert faulty_tab.locator("#board svg .highlight").count() == 0


def read_png(data):
    """(width, height, rows of RGB tuples) of a PNG of 8 bits a channel (RGB or RGBA)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, idat = 8, {}, b""
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + size]
        if kind == b"IDAT":
            idat += body
        chunks.setdefault(kind, body)
        at += 12 + size
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert depth == 8 and color in (2, 6) and interlace == 0
    channels = 3 if color == 2 else 4
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        if kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind in (1, 3, 4):
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                up = previous[i]
                if kind == 1:
                    line[i] = (line[i] + left) & 255
                elif kind == 3:
                    line[i] = (line[i] + (left + up) // 2) & 255
                else:
                    corner = previous[i - channels] if i >= channels else 0
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[i : i + 3]) for i in range(0, stride, channels)])
        previous = line
    return width, height, rows


def test_a_screenshot_shows_the_terrain_colours_on_the_hexes(valid_tab):
    valid_tab.keyboard.press("End")
    board = valid_tab.locator("#board svg")
    box = board.bounding_box()
    width, height, rows = read_png(board.screenshot())
    assert len({pixel for row in rows[::7] for pixel in row[::7]}) > 20  # not blank
    tiles = valid_tab.evaluate("""() => Array.from(document.querySelectorAll('#board svg .tile')).map(t => {
        const r = t.getBoundingClientRect(); return [t.dataset.kind, r.x + r.width / 2, r.y + r.height * 0.2]; })""")
    assert len(tiles) >= 19
    matched = set()
    for kind, x, y in tiles:  # between the centre (its number token) and the top corner
        px, py = int(round((x - box["x"]) * width / box["width"])), int(round((y - box["y"]) * height / box["height"]))
        expected = tuple(int(style.TERRAIN[kind][i : i + 2], 16) for i in (1, 3, 5))
        if max(abs(a - b) for a, b in zip(rows[py][px], expected)) <= 8:
            matched.add(kind)
        else:
            pytest.fail(f"{kind} at ({px},{py}) is {rows[py][px]}, not {expected}")
    assert matched >= {"FO", "P", "F", "H", "M", "D", "S"}


def test_a_long_game_is_one_page_that_steps_to_every_line(browser, tmp_path_factory):
    """1,000 messages: the 6-player game, then rolls after its end up to 1,000 lines. How fast
    it is written and stepped through is measured by bench/bench_report.py, not here."""
    lines = LONG.read_text(encoding="utf-8").splitlines()
    rolls = [text for text in lines if '"RD"' in text]
    lines += (rolls * 10)[: 1000 - len(lines)]
    path = tmp_path_factory.mktemp("long") / "long.sgn"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    html = page.report_html(str(path), "long.sgn")
    assert len(html) < 600_000
    tab = open_page(browser, tmp_path_factory, html, "long.html")
    try:
        assert tab.locator("#moves li[data-line]").count() == 1000
        shown = tab.evaluate("""() => { const s = document.getElementById('slider'), seen = [];
            for (let i = 0; i <= 1000; i += 10) { s.value = i; s.dispatchEvent(new Event('input'));
                                                  seen.push(document.body.dataset.line); }
            return seen; }""")
        assert shown == [str(i) for i in range(0, 1001, 10)]
        assert tab.errors == []
    finally:
        tab.close()


def test_a_line_nested_past_any_stack_is_reported_not_an_internal_error(tmp_path):
    path = tmp_path / "deep.sgn"
    path.write_bytes(b"[" * 5000 + b"]" * 5000 + b"\n" + BASE.read_bytes())
    result = run_cli("report", path, "-o", tmp_path / "deep.html")
    assert result.returncode == 1 and b"internal error" not in result.stderr
    assert (tmp_path / "deep.html").read_text(encoding="utf-8").count("json-too-deep") >= 1
