"""The board as SVG (`sgn.svg.board`, `sgn render`): valid XML, one hex per tile of the map,
one shape per piece, the highlighted place where a diagnostic names it, for every map `sgn`
accepts (the extension's, moved, rotated), and no crash on any log of the corpus."""

import io
import json
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import sgn.svg
from sgn import board as geo
from sgn.cli import main
from sgn.corpus import load_cases
from sgn.game import Game
from sgn.pictures import style
from sgn.pictures.places import corner_key, edge_key, tile_key
from sgn.play import random_game

SVG = "{http://www.w3.org/2000/svg}"


def _replayed(messages):
    game = Game()
    for line, m in enumerate(messages, 1):
        game.apply(m, line)
    return game


def _rotated(messages):
    """The same game turned by 60 degrees about [0, 0]: (q, r) -> (-r, q + r)."""

    def turn(value):
        if isinstance(value, list):
            if len(value) == 2 and all(type(n) is int for n in value):
                return [-value[1], value[0] + value[1]]
            return [turn(v) for v in value]
        if isinstance(value, dict):
            return {k: turn(v) for k, v in value.items()}
        return value

    return [[p, a, turn(v)] for p, a, v in messages]


def _shapes(svg, cls):
    root = ET.fromstring(svg)
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def _check_structure(game, svg):
    root = ET.fromstring(svg)  # valid XML
    assert root.tag == SVG + "svg"
    tiles = _shapes(svg, "tile")
    assert sorted(t.get("data-tile") for t in tiles) == sorted(tile_key(t) for t in game.board.kinds)
    for t in tiles:
        assert t.get("fill") == style.TERRAIN[game.board.kinds[tuple(map(int, t.get("data-tile").split(",")))]]
    for kind, attr, pieces in (
        ("road", "data-edge", lambda p: {edge_key(e) for e in p.roads}),
        ("settlement", "data-corner", lambda p: {corner_key(c) for c in p.settlements}),
        ("city", "data-corner", lambda p: {corner_key(c) for c in p.cities}),
    ):
        drawn = _shapes(svg, kind)
        for name, p in game.players.items():
            mine = [e.get(attr) for e in drawn if e.get("data-player") == name]
            assert len(mine) == len(set(mine)) and set(mine) == pieces(p), (kind, name)
        assert len(drawn) == sum(len(pieces(p)) for p in game.players.values())
    robbers = _shapes(svg, "robber")
    assert [r.get("data-tile") for r in robbers] == ([tile_key(game.robber)] if game.robber else [])
    assert len(_shapes(svg, "token")) == len(game.board.numbers)
    assert len(_shapes(svg, "harbor")) == len(game.board.harbors)
    assert len(_shapes(svg, "legend-row")) == len(game.players)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_whole_game_is_drawn_piece_by_piece(players):
    game = _replayed(random_game(seed=players, players=players))
    assert sum(len(p.roads) for p in game.players.values()) > 10
    _check_structure(game, sgn.svg.board(game))


@pytest.mark.parametrize(
    "transform",
    [lambda g: g, _rotated, lambda g: _rotated(_rotated(_rotated(g)))],
    ids=["as-is", "turned-60", "turned-180"],
)
def test_a_map_in_any_rotation_is_drawn(transform):
    messages = transform(random_game(seed=11))
    game = _replayed(messages)
    assert game.phase == "over"  # still a legal game, so the pieces are all there
    _check_structure(game, sgn.svg.board(game))


def test_every_position_of_a_game_is_drawn():
    messages = random_game(seed=3)
    game = Game()
    for line, m in enumerate(messages, 1):
        game.apply(m, line)
        if line % 7 == 0:
            _check_structure(game, sgn.svg.board(game, size=None))


def test_jupyter_shows_the_board():
    game = _replayed(random_game(seed=5))
    assert game._repr_svg_() == sgn.svg.board(game)


def test_no_map_yet_is_said_in_the_picture():
    svg = sgn.svg.board(Game())
    assert "no map yet" in svg and ET.fromstring(svg) is not None


def test_a_highlight_marks_each_kind_of_place():
    game = _replayed(random_game(seed=2))
    corner = next(iter(next(iter(game.players.values())).settlements))
    edge = next(iter(next(iter(game.players.values())).roads))
    for place, attr, key in (
        (("corner", corner), "data-corner", corner_key(corner)),
        (("edge", edge), "data-edge", edge_key(edge)),
        (("tile", (0, 0)), "data-tile", "0,0"),
    ):
        svg = sgn.svg.board(game, highlight=place, caption="why & <how>")
        marks = _shapes(svg, "highlight")
        assert [m.get(attr) for m in marks] == [key]
        assert "why &amp; &lt;how&gt;" in svg


@pytest.mark.parametrize(
    "pointer,message,expected",
    [
        ("/2/intersection", ["1", "BS", {"intersection": [[0, -1], [1, -1], [0, 0]]}], "corner"),
        ("/2/intersection/1", ["1", "BS", {"intersection": [[0, -1], [1, -1], [0, 0]]}], "tile"),
        ("/2/path/0", ["1", "BR", {"path": [[[0, -1], [1, -1], [0, 0]], [[1, -1], [1, 0], [0, 0]]]}], "corner"),
        ("/2/path", ["1", "BR", {"path": [[[0, -1], [1, -1], [0, 0]], [[1, -1], [1, 0], [0, 0]]]}], "edge"),
        ("/2/tile", ["1", "MR", {"tile": [0, 3]}], "tile"),
        ("/0", ["2", "BC", {"intersection": [[0, -1], [1, -1], [0, 0]]}], "corner"),
        ("/2/result", ["1", "RD", {"result": 13}], None),
        ("/2/intersection", ["1", "BS", {"intersection": [[0, 0], [5, 5], [0, 1]]}], None),
        ("/9/x", "not a message", None),
    ],
)
def test_the_place_a_diagnostic_names(pointer, message, expected):
    found = sgn.svg.named_by(message, pointer)
    assert (found[0] if found else None) == expected


def test_every_log_of_the_corpus_is_drawn_without_a_fault():
    """Whatever a log holds (maps that are no board, tiles twice, pieces off the map), the
    picture of its end is drawn, and is XML."""
    cases = [c for c in load_cases() if c.get("kind") == "log" and c.get("notation", "sgn") == "sgn"]
    assert len(cases) > 200
    for case in cases:
        game = Game()
        for line, raw in enumerate(case["text"].splitlines(), 1):
            try:
                m = json.loads(raw)
                if isinstance(m, list) and len(m) == 3:
                    game.apply(m, line)
            except Exception:  # what the replay refuses is another layer's to report
                continue
        ET.fromstring(sgn.svg.board(game))


def _render(*args):
    out = io.StringIO()
    return main(["render", *map(str, args)], out=out), out.getvalue()


def _log(tmp_path, messages, name="game.sgn"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(m) + "\n" for m in messages))
    return path


def test_render_draws_the_board_after_a_line(tmp_path):
    messages = random_game(seed=8)
    path = _log(tmp_path, messages)
    status, svg = _render(path, "--at", 30)
    assert status == 0
    _check_structure(_replayed(messages[:30]), svg)


def test_render_marks_the_place_a_fault_names_and_says_why(tmp_path, capsys):
    messages = random_game(seed=8)[:20]
    taken = next(m for m in messages if m[1] == "BS")
    messages.append([taken[0], "BS", taken[2]])  # the same corner again
    path = _log(tmp_path, messages)
    status, svg = _render(path)
    assert status == 1
    marks = _shapes(svg, "highlight")
    assert [m.get("data-corner") for m in marks] == [corner_key(geo.corner_from_json(taken[2]["intersection"]))]
    assert "[site-occupied]" in svg and "site-occupied" in capsys.readouterr().err
    status, svg = _render(path, "--highlight", "none")
    assert status == 1 and not _shapes(svg, "highlight") and "[site-occupied]" not in svg


def test_render_writes_svg_and_png_files(tmp_path, monkeypatch, capsys):
    path = _log(tmp_path, random_game(seed=8))
    status, _ = _render(path, "-o", tmp_path / "board.svg")
    assert status == 0 and ET.parse(tmp_path / "board.svg").getroot().tag == SVG + "svg"
    monkeypatch.setitem(__import__("sys").modules, "cairosvg", None)  # as if not installed
    status, _ = _render(path, "-o", tmp_path / "board.png")
    assert status == 2 and "pip install 'settlers-game-notation[png]'" in capsys.readouterr().err
    assert not (tmp_path / "board.png").exists()


def test_render_writes_png_with_the_extra(tmp_path):
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as error:
        pytest.skip(f"cairosvg cannot be loaded ({error}): pip install cairosvg, apt-get install libcairo2")
    path = _log(tmp_path, random_game(seed=8))
    status, _ = _render(path, "-o", tmp_path / "board.png")
    assert status == 0
    assert (tmp_path / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("content,status", [(b"", 1), (b"\xff\xfe not json\n", 1), (b'["B","DM",7]\n', 1)])
def test_render_of_bad_input_says_so_without_a_traceback(tmp_path, capsys, content, status):
    path = tmp_path / "bad.sgn"
    path.write_bytes(content)
    got, svg = _render(path)
    err = capsys.readouterr().err
    assert got == status and "Traceback" not in err
    ET.fromstring(svg)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(
        st.one_of(st.binary(max_size=60), st.sampled_from([json.dumps(m).encode() for m in random_game(seed=4)[:40]])),
        max_size=25,
    )
)
def test_render_of_any_bytes_is_a_picture_or_a_clear_refusal(tmp_path, lines):
    path = tmp_path / "any.sgn"
    path.write_bytes(b"\n".join(lines))
    status, svg = _render(path, "--highlight", "auto")
    assert status in (0, 1)
    ET.fromstring(svg)


def test_render_of_a_missing_file_is_exit_2(tmp_path, capsys):
    status, svg = _render(tmp_path / "none.sgn")
    assert status == 2 and svg == "" and "Traceback" not in capsys.readouterr().err


def test_render_of_a_line_nested_past_any_stack_is_a_diagnostic_twice_in_one_process(tmp_path, capsys):
    """The line of the highlight is read with the careful parser: 5,000 brackets deep is the
    data's fault (exit 1), not an internal error, and a second run in the process says the same."""
    path = tmp_path / "deep.sgn"
    path.write_text("[" * 5000 + "]" * 5000 + "\n")
    for _ in range(2):
        status, svg = _render(path)
        err = capsys.readouterr().err
        assert status == 1 and "[json-too-deep]" in err and "internal error" not in err
        ET.fromstring(svg)


def _texts(svg, cls):
    return {e.get("data-tile") or e.get("data-corner"): "".join(e.itertext()) for e in _shapes(svg, cls)}


def test_coordinates_are_written_on_tiles_and_corners_on_request():
    game = _replayed(random_game(seed=4))
    assert not _shapes(sgn.svg.board(game), "coordinates")
    plain = sgn.svg.board(game, coordinates=True)
    assert plain == sgn.svg.board(game, coordinates="tiles")
    _check_structure(game, plain)
    written = _texts(plain, "tile-coordinates")
    assert written == {tile_key(t): tile_key(t) for t in game.board.kinds}
    assert not _shapes(plain, "corner-coordinates")
    corners = _texts(sgn.svg.board(game, coordinates="corners"), "corner-coordinates")
    land = {t for t, kind in game.board.kinds.items() if kind != geo.SEA}
    expected = {c for t in land for c in geo.corners_of(t)}
    assert len(corners) == len(expected) == 54  # the standard map's intersections
    for c in expected:  # clockwise from the top, one tile a line
        assert corners[corner_key(c)] == "".join(tile_key(t) for t in geo.canonical_corner(c))
    with pytest.raises(ValueError):
        sgn.svg.board(game, coordinates="edges")


def test_render_writes_coordinates_on_request(tmp_path):
    path = _log(tmp_path, random_game(seed=8))
    _, svg = _render(path)
    assert not _shapes(svg, "tile-coordinates")
    _, svg = _render(path, "--coordinates")
    assert _shapes(svg, "tile-coordinates") and not _shapes(svg, "corner-coordinates")
    _, svg = _render(path, "--corners")
    assert len(_shapes(svg, "corner-coordinates")) == 54 and _shapes(svg, "tile-coordinates")


def test_the_legend_counts_a_hand_in_doubt_by_its_cards_not_its_kinds():
    """A hand whose kinds are in doubt still has a known number of cards: a spectator's view
    says it (a hand of 8 that gave 4 unseen holds 4, though any kind may be 0)."""
    from sgn.notation.redact import hide
    from sgn.svg import legend_rows

    met = 0
    for seed in range(30):
        whole = random_game(seed, 4)
        game, view = Game(), Game()
        for line, (m, seen) in enumerate(zip(whole, (hide(m, None) for m in whole)), 1):
            game.apply(m, line)
            view.apply(seen, line)
            doubt = view.unseen.doubt
            if doubt is None:
                continue
            for name, text in legend_rows(view):
                least, most = view.card_counts(name)
                held = sum(game.players[name].hand.values())
                assert least <= held <= most
                assert f"{least} card" in text if least == most else f"{least} to {most} cards" in text
                if name in doubt and least == most:
                    met += 1
        if met > 50:
            break
    assert met > 50
