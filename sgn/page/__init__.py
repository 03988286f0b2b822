"""`sgn report`: a game as one self-contained HTML page (no network, nothing to install).

The page shows the move list, the board at the selected move, each player's points and
cards, the diagnostics beside their moves (each marking the place it names), and two charts.
`steps.py` gathers the data: the state after each line is the one `sgn replay --at LINE`
prints, for every game of the log. Python draws everything once (SVG as an ElementTree);
`page.js` only moves those drawings in and out at each step, building no markup.

Whatever a log, a file name or a diagnostic holds is inert on the page by construction:
the page is a Jinja template that escapes every value (`page.html`), the SVG's serializer
escapes every attribute, the data is JSON with `<`, `>` and `&` written as \\u escapes, and
a Content-Security-Policy lets only the page's own script and style run, fetch nothing, and
refuses markup made from strings.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import re
import secrets
from pathlib import Path
from typing import Any, Dict, Iterator, List, NamedTuple, Optional

from ..pictures import style
from ..pictures.tree import SVG_NS, Element, el, svg, text_of
from ..pipeline.checking import Checking
from ..rules import RESOURCE_NAMES, RESOURCES
from ..words import player_label
from .charts import bands, chart
from .steps import LAYERS, Collected, PageError, collect, label

HERE = Path(__file__).parent
__all__ = ["LAYERS", "Report", "PageError", "build", "chart", "collect", "label", "page", "page_parts", "report_html"]
# what would end or confuse a <script> or <style> element (its text is not escaped)
_RAW_TEXT_ENDS = re.compile(r"</?(script|style)|<!--", re.I)


class Report(NamedTuple):
    html: str
    errors: int
    warnings: int
    messages: int


def _css(name: str) -> str:
    """A player's class name: the name when it is letters and digits, else `-`."""
    return name if name.isalnum() and name.isascii() else "-"


def script_json(value: Any) -> str:
    """JSON that can stand in a <script> element: ASCII (U+2028 and U+2029 escaped too), and
    no `<`, `>` or `&`, so that no `</script>` or `<!--` in a string can end or bend it."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def script_json_parts(data: Dict[str, Any], batch: int = 4096) -> Iterator[str]:
    """`script_json(data)` in parts: each long list a batch of its items at a time, so that
    the data of a long log is never one string (nor its escaped copies) in memory."""
    yield "{"
    for n, (key, value) in enumerate(data.items()):
        yield ("," if n else "") + script_json(key) + ":"
        if isinstance(value, list) and len(value) > batch:
            yield "["
            for start in range(0, len(value), batch):
                yield ("," if start else "") + script_json(value[start : start + batch])[1:-1]
            yield "]"
        else:
            yield script_json(value)
    yield "}"


def raw_text(text: str, what: str) -> str:
    """The text of a <script> or <style> element, which HTML does not unescape: the package's
    own files, refused should one ever hold what would end the element early."""
    found = _RAW_TEXT_ENDS.search(text)
    if found:
        raise ValueError(f"{what} holds {found.group(0)!r}, which would end its element")
    return text


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def policy(script: str, css: str) -> str:
    """The Content-Security-Policy: nothing from the network, no script or style but the
    page's own (by their hashes: no inline handler or style attribute runs), and no markup
    made from strings (trusted types)."""
    return (
        f"default-src 'none'; script-src {_digest(script)}; style-src {_digest(css)}; "
        "base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types 'none'"
    )


def _template():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    environment = Environment(
        loader=FileSystemLoader(str(HERE)), autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True
    )
    return environment.get_template("page.html")


def _board(collected: Collected) -> Element:
    """The board's frame; the script puts the map, pieces and marks of a line in it."""
    views = collected.data["views"]
    root = svg({"class": "sgn-board", "viewBox": views[-1] if views else "0 0 400 40"})
    if not views:
        el(
            "text",
            {"x": 10, "y": 25, "font-family": "sans-serif", "font-size": 16},
            "no map: the log has no valid DM",
            parent=root,
        )
    for layer in ("map", "pieces", "highlights"):
        el("g", {"id": layer}, parent=root)
    return root


def page(collected: Collected) -> str:
    """The HTML text of the page."""
    return "".join(page_parts(collected))


def page_parts(collected: Collected, names: Optional[Dict[str, str]] = None) -> Iterator[str]:
    """The HTML text of the page, in parts, as it is written: a long log's page is never
    all in memory twice. `names`: the engine's names of the players, shown beside their
    numbers (docs/format.md, "Players' names")."""
    from markupsafe import Markup

    data, moves = collected.data, collected.moves
    players = data["players"]
    palette = style.palette(collected.colors)  # (the engine's colours, where the header gives them)
    stats = data["stats"]
    winners = [w for w in data["winners"] if w]
    counts = {"points": 0, "cards": 1}
    charts = (
        text_of(
            draw_chart(
                kind,
                title,
                {
                    p: [_least(s[j][counts[kind]]) if j < len(s) and s[j] else 0 for s in stats]
                    for j, p in enumerate(players)
                },
                len(stats),
                data["turns"],
                winners,
                palette,
            )
        )
        for draw_chart, kind, title in ((chart, "points", "points"), (bands, "cards", "cards in hand"))
    )  # (written in turn where the template holds their place: never all joined in memory)
    flagged: Dict[int, List[dict]] = {}
    for d in data["diags"]:
        flagged.setdefault(d["i"], []).append(d)

    def items():  # one move at a time, as the template writes it
        for i, (line, who, text) in enumerate(moves, 1):
            marks = flagged.get(i, ())
            kind = "error" if any(d["severity"] == "error" for d in marks) else "warning" if marks else ""
            yield {
                "line": line,
                "player": who,
                "text": text,
                "kind": kind,
                "css": _css(who),
                "codes": [d["code"] for d in marks],
            }

    # the drawings, each serialized alone (the maps are kept as text: a long log has many)
    store = itertools.chain(
        [f'<svg xmlns="{SVG_NS}">'],
        collected.maps,
        (text_of(node) for node in collected.pieces + collected.marks),
        ["</svg>"],
    )
    errors, warnings = collected.errors, collected.warnings
    summary = (
        f"{len(moves)} messages; "
        + (f"{errors} errors" if errors else "no errors")
        + (f", {warnings} warnings" if warnings else "")
        + _outcome(data["winners"], data.get("may_have_won"))
    )
    css = raw_text(
        (HERE / "page.css").read_text(encoding="utf-8")
        + "".join(
            f".p{_css(p)}{{--c:{style.player_color(p, palette)}}}" for p in sorted(set(style.PLAYERS) | set(players))
        ),
        "the style",
    )
    script = raw_text((HERE / "page.js").read_text(encoding="utf-8"), "page.js")
    # where the data, the charts and the drawings go, written in parts: no log can foresee a marker
    token = secrets.token_hex(16)
    marked: Dict[str, Iterator[str]] = {
        f"\x00{token}:{what}\x00": parts
        for what, parts in (("data", script_json_parts(data)), ("charts", charts), ("store", store))
    }
    data_at, charts_at, store_at = marked
    parts = _template().generate(
        name=data["name"],
        summary=summary,
        moves=items(),
        count=len(moves),
        diags=data["diags"],
        errors=errors,
        players=[{"name": p, "label": player_label(p, names), "css": _css(p)} for p in players],
        resources=[{"code": r, "name": RESOURCE_NAMES[r]} for r in RESOURCES],
        policy=policy(script, css),
        css=Markup(css),
        script=Markup(script),
        data=Markup(data_at),
        board=Markup(text_of(_board(collected))),
        charts=Markup(charts_at),
        store=Markup(store_at),
    )
    for part in parts:  # what is marked written in parts too, where the template holds its place
        yield from _unmarked(part, marked)


def _unmarked(part: str, marked: Dict[str, Iterator[str]]) -> Iterator[str]:
    """`part` with each marker in it replaced by the parts it stands for."""
    for marker, parts in marked.items():
        if marker in part:
            before, after = part.split(marker)
            yield from _unmarked(before, marked)
            yield from parts
            yield from _unmarked(after, marked)
            return
    yield part


def _least(count: Any) -> int:
    """A count, or the least of a range (the charts draw what is known)."""
    return count[0] if isinstance(count, (list, tuple)) else count


def _outcome(winners: List[Any], may_have_won: Optional[List[Any]] = None) -> str:
    """ "; player 2 won", or per game in a log of several ("; game 1: player 2 won, game 2: no
    winner"), the first few; a last game that may have ended unseen: "player 3 may have won
    at line 414"."""
    said = [f"player {w} won" if w else "no winner" for w in winners]
    if said and not winners[-1] and may_have_won:
        said[-1] = f"player {may_have_won[0]} may have won at line {may_have_won[1]} (cards drawn unseen)"
    if len(said) == 1:
        return "; " + said[0]
    shown = [f"game {n}: {s}" for n, s in enumerate(said[:4], 1)]
    return ("; " + ", ".join(shown) + (f", and {len(said) - 4} more" if len(said) > 4 else "")) if said else ""


def build(source, name: str, checking: Checking = Checking("rules")) -> Report:
    collected = collect(source, name, checking)
    return Report(page(collected), collected.errors, collected.warnings, len(collected.moves))


def report_html(source, name: str) -> str:
    """The report page of the log `source` (a path or a binary stream) as HTML text."""
    return build(source, name).html
