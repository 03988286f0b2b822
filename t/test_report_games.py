"""The report page of a log of several games: at every line, the state on the page is the
one `sgn replay FILE --at LINE` gives (pieces, points, cards, knights, awards, the map),
faults after which the replay recovers included; in Chromium, stepping into the second game
shows its map."""

import json

import pytest

from chromium import open_page
from conftest import CORPUS
from sgn import page
from sgn.cli import main
from sgn.game.ledger import total_range
from sgn.pictures.places import corner_key, edge_key, tile_key
from sgn.pipeline.replay import replay
from test_report_page import data_of, store_of


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """Two games of `sgn generate`, the second with faults the replay reads past: a
    settlement on a taken intersection, a roll that is no roll, a map defined again, a line
    that is not JSON, a blank line."""
    folder = tmp_path_factory.mktemp("games")
    assert main(["generate", "--games", "2", "--players", "3", "--seed", "2", "-o", str(folder / "two.sgn")]) == 0
    lines = (folder / "two.sgn").read_text(encoding="utf-8").splitlines()
    second = [n for n, text in enumerate(lines) if '"DM"' in text][1]
    taken = next(text for text in lines[second:] if '"BS"' in text)
    at = second + 40
    lines[at:at] = [taken, '["1","RD",{"result":13}]', lines[second], "not json", ""]
    path = folder / "two-faulty.sgn"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, second + 1


def tiles(game):
    if game.board is None:
        return None
    return sorted((tile_key(t), k, game.board.numbers.get(t)) for t, k in game.board.kinds.items())


def replayed(path, line):
    """What the page shows after `line`, as `sgn replay --at LINE` has it."""
    if line == 0:
        return (set(), {}, ["", ""], None)
    game = replay(str(path), name=path.name, at=line)[0].game
    pieces = set()
    for name, p in game.players.items():
        pieces |= {("road", edge_key(e), name) for e in p.roads}
        pieces |= {("settlement", corner_key(c), name) for c in p.settlements}
        pieces |= {("city", corner_key(c), name) for c in p.cities}
    if game.robber is not None:
        pieces.add(("robber", tile_key(game.robber), ""))

    def count(span):  # (a range where it is in doubt, as the page has it)
        return span[0] if span[0] == span[1] else list(span)

    stats = {
        name: [count(game.points_range(name)), count(total_range(game, name)), p.knights]
        for name, p in game.players.items()
    }
    return (pieces, stats, [game.longest_road or "", game.largest_army or ""], tiles(game))


def on_the_page(html):
    """What the page shows after each of its lines, rebuilt from its data and drawings."""
    data, store = data_of(html), store_of(html)
    pieces = {}
    for k, node in store["piece"].items():
        shape = node[0]
        pieces[int(k)] = (
            shape.get("class"),
            shape.get("data-edge") or shape.get("data-corner") or shape.get("data-tile"),
            shape.get("data-player") or "",
        )
    maps = {}
    for k, node in store["map"].items():
        maps[int(k)] = sorted(
            (t.get("data-tile"), t.get("data-kind"), _number(node, t.get("data-tile")))
            for t in node.iter()
            if t.get("class") == "tile"
        )
    on = set()
    for i, line in enumerate(data["lines"]):
        on = (on - set(data["del"][i])) | set(data["add"][i])
        stats = {p: s for p, s in zip(data["players"], data["stats"][i]) if s is not None}
        yield (
            line,
            ({pieces[k] for k in on}, stats, data["awards"][i], maps[data["map"][i]] if data["map"][i] >= 0 else None),
        )


def _number(node, key):
    token = [t for t in node.iter() if t.get("class") == "token" and t.get("data-tile") == key]
    return int("".join(token[0].itertext()).strip()) if token else None


@pytest.mark.parametrize("log", ["two games", "faulty-cards-played-when-bought"])
def test_at_every_line_the_page_shows_the_state_of_sgn_replay(games, log):
    path = games[0] if log == "two games" else CORPUS / "games" / f"{log}.sgn"
    html = page.report_html(str(path), path.name)
    data = data_of(html)
    assert len(data["views"]) == len(data["games"]) == (2 if log == "two games" else 1)
    checked = 0
    for line, shown in on_the_page(html):
        assert shown == replayed(path, line), line
        checked += 1
    assert checked == 1 + sum(bool(text.strip()) for text in path.read_text(encoding="utf-8").splitlines())


def test_in_a_browser_stepping_into_the_second_game_shows_its_map(browser, tmp_path_factory, games):
    path, second = games
    tab = open_page(browser, tmp_path_factory, page.report_html(str(path), path.name), "two.html")
    shown = """() => Array.from(document.querySelectorAll('#board svg .tile')).map(t => [t.dataset.tile, t.dataset.kind])
                     .sort()"""
    try:
        maps = []
        for line in (second - 1, second, second + 30):
            tab.click(f'#moves li[data-line="{line}"]')
            assert tab.evaluate("document.body.dataset.line") == str(line)
            game = replay(str(path), name=path.name, at=line)[0].game
            maps.append(tab.evaluate(shown))
            assert maps[-1] == sorted([tile_key(t), k] for t, k in game.board.kinds.items())
            assert ("game 2 of 2" in tab.locator("#where").inner_text()) == (line >= second)
        assert maps[0] != maps[1] == maps[2]
        viewbox = tab.evaluate("document.querySelector('#board svg').getAttribute('viewBox')")
        assert viewbox == data_of(tab.content())["views"][1]
        assert tab.errors == [] and tab.requests == [tab.url_of_file]
    finally:
        tab.close()


@pytest.fixture(scope="module")
def engine_game(tmp_path_factory):
    """A game recorded from catanatron with the most faults among the first ten (cards played
    the turn they were bought: readings held for many lines), and a line lost in transit."""
    from test_engine_faults import _error_lines, recorded_games  # (each found once in a process)

    chosen = max(range(10), key=lambda i: len(_error_lines(i)))
    game = recorded_games()[chosen]
    assert len(_error_lines(chosen)) >= 3
    lines = [json.dumps(m, separators=(",", ":")) for m in game]
    del lines[len(lines) // 2]
    path = tmp_path_factory.mktemp("engine") / "engine.sgn"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_on_an_engine_game_with_faults_every_line_of_the_page_is_sgn_replay_at_it(engine_game):
    html = page.report_html(str(engine_game), engine_game.name)
    lines = 0
    for line, shown in on_the_page(html):
        assert shown == replayed(engine_game, line), line
        lines += 1
    assert lines == 1 + len(engine_game.read_text(encoding="utf-8").splitlines())


def test_replay_at_a_line_reports_what_validate_reports_up_to_it(engine_game):
    """A fault's reading is chosen as the whole log chooses it, whatever line one stops at."""
    import sgn

    whole = [(d.line, d.code) for d in sgn.check(str(engine_game), level="rules").diagnostics]
    faults = sorted({line for line, _ in whole})
    assert len(faults) >= 3
    for at in sorted({f + k for f in faults for k in (0, 1, 5)}):
        seen = []
        replay(str(engine_game), name=engine_game.name, at=at, report=lambda d: seen.append((d.line, d.code)))
        assert seen == [(line, code) for line, code in whole if line <= at], at
