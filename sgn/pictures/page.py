"""`sgn report`: a game as one self-contained HTML page (no network, nothing to install).

The page shows the move list, the board at the selected move, each player's points and
cards, the diagnostics beside their moves (each marking the place it names), and two charts.
Python draws everything once: the map, each piece that is ever on the board (keyed by an
id: `road:<edge>:<player>`, `settlement:<corner>:<player>`, `city:...`, `robber:<tile>`),
each diagnostic's highlight and the charts. Per line the data holds only what changed (the
pieces added and removed, points, cards, knights, awards); `report.js` rebuilds the pieces
at a line from those steps. The state at each line is the log's reading: a `sgn.game.Game`
applying every message that is an array of three (a message it cannot apply changes nothing).
"""
from __future__ import annotations

import bisect
import io
import json
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Set, Tuple
from xml.sax.saxutils import escape, quoteattr

from ..diagnostic import Diagnostic
from ..game import Game
from ..jsonline import parse_line
from ..reader import LogReader
from ..validate import FileCheck
from . import draw, style
from .geometry import bounds
from .places import corner_key, edge_key, named_by, tile_key
from .tree import el, text_of

HERE = Path(__file__).parent
RESOURCE_NAMES = {"B": "brick", "G": "grain", "L": "lumber", "O": "ore", "W": "wool"}
CARD_NAMES = {"KN": "plays a knight", "RB": "plays road building", "VP": "shows a victory point card",
              "YP": "plays year of plenty", "MO": "plays a monopoly"}
LAYERS = ("road", "settlement", "city", "robber")      # drawn in this order, each over the one before


class ReportError(Exception):
    """The log cannot be read at all."""


class Report(NamedTuple):
    html: str
    errors: int
    warnings: int
    messages: int


def label(message: Any) -> Tuple[str, str]:
    """(player, a short readable label) of one message."""
    if not (isinstance(message, list) and len(message) == 3):
        return ("?", "not a message (an array of three)")
    who, action, value = message
    value = value if isinstance(value, (dict, list)) else {}
    get = value.get if isinstance(value, dict) else (lambda key, default=None: default)
    if action == "RD":
        return (str(who), f"rolls {get('result', '?')}")
    if action == "PD":
        text = CARD_NAMES.get(str(get("cCode")), "plays a development card")
        codes = get("rCodes") if isinstance(get("rCodes"), list) else []
        names = [RESOURCE_NAMES.get(str(c), str(c)) for c in codes]
        return (str(who), text + (f" ({', '.join(names)})" if names else ""))
    if action in ("TR", "ST"):
        sides = [s for s in value if isinstance(s, dict)] if isinstance(value, list) else []
        others = [str(s.get("player")) for s in sides if s.get("player") != who]
        if action == "ST":
            return (str(who), f"steals from player {others[0]}" if others else "steals")
        if others == ["B"]:
            own = [s.get("resources") for s in sides if s.get("player") == who]
            gets = any(isinstance(r, dict) and any(isinstance(n, int) and n > 0 for n in r.values()) for r in own)
            return (str(who), "trades with the bank" if gets else "discards")
        return (str(who), f"trades with player {others[0]}" if others else "trades")
    return (str(who), {"DM": "defines the map", "BS": "builds a settlement", "BR": "builds a road",
                       "BC": "builds a city", "BD": "buys a development card",
                       "MR": "moves the robber"}.get(str(action), f"does {action}"))


def _pieces(game: Game) -> Dict[str, Tuple[Any, ...]]:
    """Every piece on the board: id -> how to draw it (drawn once, when it first appears)."""
    out: Dict[str, Tuple[Any, ...]] = {}
    for name, p in game.players.items():
        out.update({f"road:{edge_key(e)}:{name}": (draw.road, e, name) for e in p.roads})
        out.update({f"settlement:{corner_key(c)}:{name}": (draw.building, c, name, "settlement")
                    for c in p.settlements})
        out.update({f"city:{corner_key(c)}:{name}": (draw.building, c, name, "city") for c in p.cities})
    if game.robber is not None:
        out[f"robber:{tile_key(game.robber)}"] = (draw.robber, game.robber)
    return out


def _source_bytes(source, name: str) -> Any:
    """A path is read twice as it is; a stream is read once into memory."""
    if hasattr(source, "read"):
        try:
            data = source.read()
        except OSError as error:
            raise ReportError(f"cannot read {name}: {error.strerror or error}") from None
        return lambda: io.BytesIO(data.encode("utf-8") if isinstance(data, str) else data)
    return lambda: source


def collect(source, name: str, profile: str = "strict") -> Tuple[dict, int, int]:
    """The page's data, with the numbers of errors and warnings."""
    again = _source_bytes(source, name)
    game = Game()
    moves: List[dict] = []
    messages: Dict[int, Any] = {}
    markup: Dict[str, str] = {}
    now: Set[str] = set()
    players: List[str] = []
    states: List[Tuple[Set[str], Set[str], Dict[str, Tuple[int, int, int]], str, str]] = []
    map_index = None
    reader = LogReader(again(), name=name)
    for item in reader:
        if isinstance(item, Diagnostic):
            if reader.unreadable:
                raise ReportError(item.message)
            continue
        number, raw = item
        line, _ = reader.decode(number, raw)
        if line is None:
            continue
        parsed = parse_line(line.text)     # the careful parser: too deep or not JSON is no message
        message = parsed[0] if isinstance(parsed, tuple) else None
        messages[number] = message
        if isinstance(message, list) and len(message) == 3:
            before = game.clone()
            try:
                game.apply(message, number)
            except Exception:           # a malformed message: the line changes nothing
                game = before
        pieces = _pieces(game)
        new = set(pieces) - now
        for k in new - set(markup):
            markup[k] = _markup(*pieces[k])
        players += [p for p in sorted(game.players) if p not in players]
        stats = {p: (game.points(p), sum(game.players[p].hand.values()), game.players[p].knights)
                 for p in game.players}
        states.append((new, now - set(pieces), stats, game.longest_road or "", game.largest_army or ""))
        if map_index is None and game.board is not None:
            map_index = len(moves) + 1
        now = set(pieces)
        who, text = label(message)
        moves.append({"line": number, "player": who, "text": text})
    players.sort()
    order = sorted(markup, key=lambda k: (LAYERS.index(k.split(":")[0]), k))
    index = {k: i for i, k in enumerate(order)}
    zero = (0, 0, 0)
    data: Dict[str, Any] = {
        "name": name, "players": players, "lines": [0] + [m["line"] for m in moves],
        "pieces": [markup[k] for k in order], "ids": order,
        "add": [[]] + [sorted(index[k] for k in s[0]) for s in states],
        "del": [[]] + [sorted(index[k] for k in s[1]) for s in states],
        "stats": [[[0, 0, 0] for _ in players]] + [[list(s[2].get(p, zero)) for p in players] for s in states],
        "awards": [["", ""]] + [[s[3], s[4]] for s in states],
        "map": map_index if map_index is not None else -1,
    }
    errors = warnings = 0
    diags = []
    lines = data["lines"]
    for d in FileCheck(again(), level="rules", profile=profile, name=name):
        if d.is_io:
            raise ReportError(d.message)
        errors += d.is_error
        warnings += not d.is_error
        shown = bisect.bisect_right(lines, d.line or 0) - 1      # its move, or the one before
        where = named_by(messages.get(d.line), d.pointer) if d.line in messages else None
        diags.append({"line": d.line or 0, "i": shown, "code": d.code, "severity": d.severity,
                      "message": d.message, "pointer": d.pointer,
                      "place": _key(where), "hl": _markup(draw.mark, where) if where else ""})
    data["diags"] = diags
    data["board"] = _board(game)
    data["moves"] = moves
    return data, errors, warnings


def _markup(drawer, *args) -> str:
    """What `drawer` draws, as SVG text (escaped by the tree's serializer)."""
    node = el("g")
    drawer(node, *args)
    return "".join(text_of(child) for child in node)


def _css(name: str) -> str:
    return name if name.isalnum() and name.isascii() else "-"


def _key(where) -> str:
    if where is None:
        return ""
    kind, at = where
    return {"tile": tile_key, "corner": corner_key, "edge": edge_key}[kind](at)


def _board(game: Game) -> str:
    if game.board is None:
        return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 40"><text x="10" y="25" '
                'font-family="sans-serif" font-size="16">no map: the log has no valid DM</text>'
                '<g id="map"></g><g id="pieces"></g><g id="highlights"></g></svg>')
    x0, y0, x1, y1 = bounds(game.board.kinds, draw.RADIUS)
    m = 10.0
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="sgn-board" viewBox="{x0 - m:.1f} {y0 - m:.1f} '
            f'{x1 - x0 + 2 * m:.1f} {y1 - y0 + 2 * m:.1f}"><g id="map">{_markup(draw.board_layer, game.board)}</g>'
            '<g id="pieces"></g><g id="highlights"></g></svg>')


def chart(kind: str, title: str, series: Dict[str, List[int]], count: int) -> str:
    """A small line chart of one number per player over the moves, with a cursor."""
    w, h, left, top, bottom = 360.0, 130.0, 28.0, 18.0, 16.0
    top_value = max([10] + [v for s in series.values() for v in s])
    step = (w - left - 6) / max(count - 1, 1)

    def y(v: int) -> float:
        return top + (h - top - bottom) * (1 - v / top_value)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="chart-{kind}" viewBox="0 0 {w:.0f} {h:.0f}" '
           f'data-x0="{left}" data-step="{step:.4f}">',
           f'<text x="{left}" y="12" font-size="11" font-family="sans-serif">{escape(title)}</text>',
           f'<line x1="{left}" y1="{y(0):.1f}" x2="{w - 6}" y2="{y(0):.1f}" stroke="#999"/>',
           f'<text x="{left - 4}" y="{y(top_value) + 4:.1f}" font-size="10" text-anchor="end" '
           f'font-family="sans-serif">{top_value}</text>',
           f'<text x="{left - 4}" y="{y(0) + 4:.1f}" font-size="10" text-anchor="end" font-family="sans-serif">0</text>']
    for name, values in series.items():
        d = [f"M{left:.1f},{y(values[0]) if values else y(0):.1f}"]
        for i in range(1, len(values)):         # steps: a point where the value changes
            if values[i] != values[i - 1]:
                d.append(f"H{left + i * step:.1f}V{y(values[i]):.1f}")
        d.append(f"H{left + (len(values) - 1) * step:.1f}")
        path = "".join(d)
        out.append(f'<path d="{path}" fill="none" stroke="{style.PIECE_EDGE}" stroke-width="3"/>'
                   f'<path class="series" data-player={quoteattr(name)} d="{path}" fill="none" '
                   f'stroke="{style.player_color(name)}" stroke-width="1.6"/>')
    out.append(f'<line class="cursor" x1="{left}" x2="{left}" y1="{top}" y2="{y(0):.1f}" '
               f'stroke="{style.HIGHLIGHT}" stroke-width="1.5"/></svg>')
    return "".join(out)


def page(data: dict, errors: int, warnings: int) -> str:
    """The HTML text of the page."""
    moves = data.pop("moves")
    board_svg = data.pop("board")
    players = data["players"]
    stats = data["stats"]
    charts = "".join(chart(kind, title, {p: [s[j][k] for s in stats] for j, p in enumerate(players)}, len(stats))
                     for k, (kind, title) in enumerate((("points", "points"), ("cards", "cards in hand"))))
    flagged: Dict[int, List[dict]] = {}
    for d in data["diags"]:
        flagged.setdefault(d["i"], []).append(d)
    items = []
    for i, m in enumerate(moves, 1):
        marks = flagged.get(i, [])
        kind = ' class="error"' if any(d["severity"] == "error" for d in marks) else ' class="warning"' if marks else ""
        badge = "".join(f'<mark>{escape(d["code"])}</mark>' for d in marks)
        who = m["player"]
        items.append(f'<li data-line="{m["line"]}"{kind}><i>{m["line"]}</i><b class="p{_css(who)}">{escape(who)}</b>'
                     f'{escape(m["text"])}{badge}</li>')
    diags = [f'<li data-line="{d["line"]}" data-index="{d["i"]}" data-diag="{n}" data-code={quoteattr(d["code"])} '
             f'data-place={quoteattr(d["place"])} class="{escape(d["severity"])}"><span class="n">line {d["line"]}</span> '
             f'{escape(d["message"])} <span class="code">[{escape(d["code"])}]</span></li>'
             for n, d in enumerate(data["diags"])]
    legend = "".join(f'<tr data-player={quoteattr(p)}><td><span class="swatch" style="background:{style.player_color(p)}">'
                     f'</span></td><td>{escape(p)}</td><td class="points"></td><td class="cards"></td>'
                     f'<td class="knights"></td><td class="awards"></td></tr>' for p in players)
    summary = (f"{len(moves)} messages; " + (f"{errors} errors" if errors else "no errors")
               + (f", {warnings} warnings" if warnings else ""))
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    css = (HERE / "report.css").read_text(encoding="utf-8") + "".join(
        f".p{_css(p)}{{--c:{style.player_color(p)}}}" for p in sorted(set(style.PLAYERS) | set(players)))
    js = (HERE / "report.js").read_text(encoding="utf-8")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(data["name"])}: SGN game report</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{css}</style></head>
<body data-line="0"><header><h1>{escape(data["name"])}</h1><p id="summary">{escape(summary)}</p></header>
<main><section id="moves-pane"><h2>Moves</h2><button id="start" data-index="0">start (line 0)</button>
<ol id="moves">{"".join(items)}</ol></section>
<section id="board-pane"><div id="controls"><button id="first" title="Home">&laquo;</button>
<button id="prev" title="Left">&#x25C0;</button><input type="range" id="slider" min="0" max="{len(moves)}" value="0">
<button id="next" title="Right">&#x25B6;</button><button id="last" title="End">&raquo;</button>
<span id="where">line 0</span></div><div id="board">{board_svg}</div><div id="caption"></div>
<table id="legend"><thead><tr><th></th><th>player</th><th>points</th><th>cards in hand</th><th>knights</th>
<th>awards</th></tr></thead><tbody>{legend}</tbody></table></section>
<section id="side-pane"><h2>Diagnostics</h2><ol id="diagnostics">{"".join(diags) or ""}</ol>
{"" if diags else '<p class="none">none: the log is valid</p>'}<h2>Over the game</h2><div id="charts">{charts}</div></section>
</main><script id="sgn-data" type="application/json">{blob}</script><script>{js}</script></body></html>
"""


def build(source, name: str, profile: str = "strict") -> Report:
    data, errors, warnings = collect(source, name, profile)
    messages = len(data["lines"]) - 1
    return Report(page(data, errors, warnings), errors, warnings, messages)


def report_html(source, name: str) -> str:
    """The report page of the log `source` (a path or a binary stream) as HTML text."""
    return build(source, name).html
