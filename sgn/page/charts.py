"""The report page's charts over the game: points as lines (few, rising: they read well
together), cards in hand as one small band per player (a player's count goes up and down
at every roll: over hundreds of lines, lines of several players drawn on one another are a
tangle, bands one under another are not). Both share the turn axis (at most 8 ticks, on
round numbers, starting again at each game of a log) and a cursor the page moves."""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from ..pictures import style
from ..pictures.tree import Element, el, svg

WIDTH, LEFT, RIGHT = 360.0, 28.0, 6.0
BAND = 26.0  # the height of one player's band
FONT = "sans-serif"


def chart(
    kind: str,
    title: str,
    series: Dict[str, List[int]],
    count: int,
    turns: Sequence[int] = (),
    winners: Sequence[str] = (),
    palette: Optional[Dict[str, str]] = None,
) -> Element:
    """A small line chart of one number per player over the moves, with a cursor, a legend
    (each player's colour; a winner's line drawn thicker and said), and the turns under it."""
    h, top, bottom = 166.0, 34.0, 30.0
    top_value = max([10] + [v for s in series.values() for v in s])
    step = (WIDTH - LEFT - RIGHT) / max(count - 1, 1)

    def y(v: int) -> str:
        return f"{top + (h - top - bottom) * (1 - v / top_value):.1f}"

    root = _frame(kind, title, h, step)
    legend = el("g", {"class": "chart-legend", "font-size": 10, "font-family": FONT}, parent=root)
    x = LEFT
    for name in series:
        x += _key(legend, name, name in winners, x, 18, palette)
    el("line", {"x1": LEFT, "y1": y(0), "x2": WIDTH - RIGHT, "y2": y(0), "stroke": "#999"}, parent=root)
    for value in (top_value, 0):
        _value(root, LEFT - 4, float(y(value)) + 4, value)
    _axis(root, turns, step, top, float(y(0)), h)
    for name, values in series.items():
        path = _steps(values, step, lambda v: y(v))
        thick = 1.5 if name in winners else 1.0
        el("path", {"d": path, "fill": "none", "stroke": style.PIECE_EDGE, "stroke-width": 3 * thick}, parent=root)
        el(
            "path",
            {
                "class": "series",
                "data-player": name,
                "d": path,
                "fill": "none",
                "stroke": style.player_color(name, palette),
                "stroke-width": 1.6 * thick,
            },
            parent=root,
        )
    _cursor(root, top, float(y(0)))
    return root


def bands(
    kind: str,
    title: str,
    series: Dict[str, List[int]],
    count: int,
    turns: Sequence[int] = (),
    winners: Sequence[str] = (),
    palette: Optional[Dict[str, str]] = None,
) -> Element:
    """One band per player, one under another, each its own filled step chart on the same
    scale: its colour and name at its left (a winner's said), its most at its top."""
    top, bottom = 34.0, 30.0
    h = top + BAND * max(len(series), 1) + bottom
    top_value = max([1] + [v for s in series.values() for v in s])
    step = (WIDTH - LEFT - RIGHT) / max(count - 1, 1)
    root = _frame(kind, f"{title} (each band 0 to {top_value})", h, step)
    legend = el("g", {"class": "chart-legend", "font-size": 10, "font-family": FONT}, parent=root)
    x = LEFT
    for n, (name, values) in enumerate(series.items()):
        x += _key(legend, name, name in winners, x, 18, palette)
        base = top + BAND * (n + 1)

        def y(v: int, base: float = base) -> str:
            return f"{base - (BAND - 4) * v / top_value:.1f}"

        color = style.player_color(name, palette)
        band = el("g", {"class": "band", "data-player": name}, parent=root)
        el("line", {"x1": LEFT, "y1": base, "x2": WIDTH - RIGHT, "y2": base, "stroke": "#bbb"}, parent=band)
        swatch = {"x": 8, "y": f"{base - BAND / 2 - 6:.1f}", "width": 12, "height": 12, "fill": color}
        el("rect", {**swatch, "stroke": style.PIECE_EDGE}, parent=band)
        path = _steps(values, step, y)
        el("path", {"d": f"{path}V{base:.1f}H{LEFT:.1f}Z", "fill": color, "fill-opacity": 0.35}, parent=band)
        width = 1.6 if name in winners else 1.0
        el("path", {"d": path, "fill": "none", "stroke": style.PIECE_EDGE, "stroke-width": 2.6 * width}, parent=band)
        el(
            "path",
            {"class": "series", "data-player": name, "d": path, "fill": "none", "stroke": color, "stroke-width": width},
            parent=band,
        )
    _axis(root, turns, step, top, top + BAND * len(series), h)
    _cursor(root, top, top + BAND * len(series))
    return root


def _frame(kind: str, title: str, h: float, step: float) -> Element:
    root = svg(
        {
            "class": "chart",
            "id": f"chart-{kind}",
            "viewBox": f"0 0 {WIDTH:.0f} {h:.0f}",
            "data-x0": LEFT,
            "data-step": f"{step:.4f}",
        }
    )
    el("text", {"x": LEFT, "y": 12, "font-size": 11, "font-family": FONT, "font-weight": "bold"}, title, parent=root)
    return root


def _key(legend: Element, name: str, won: bool, x: float, y: float, palette: Optional[Dict[str, str]] = None) -> float:
    """A player's colour and name (a winner's said, in bold): its width."""
    item = el("g", {"class": "key" + (" winner" if won else ""), "data-player": name}, parent=legend)
    square = {"x": f"{x:.1f}", "y": f"{y:.1f}", "width": 10, "height": 10, "fill": style.player_color(name, palette)}
    el("rect", {**square, "stroke": style.PIECE_EDGE}, parent=item)
    words = f"player {name}" + (" (won)" if won else "")
    el("text", {"x": f"{x + 13:.1f}", "y": f"{y + 9:.1f}", "font-weight": "bold" if won else None}, words, parent=item)
    return 20 + 5.6 * len(words)


def _value(root: Element, x: float, y: float, value: int) -> None:
    attributes = {"x": x, "y": f"{y:.1f}", "font-size": 10, "text-anchor": "end", "font-family": FONT}
    el("text", attributes, value, parent=root)


def _steps(values: List[int], step: float, y) -> str:
    """A step line through the values: a point only where the value changes."""
    d = [f"M{LEFT:.1f},{y(values[0] if values else 0)}"]
    for i in range(1, len(values)):
        if values[i] != values[i - 1]:
            d.append(f"H{LEFT + i * step:.1f}V{y(values[i])}")
    d.append(f"H{LEFT + (len(values) - 1) * step:.1f}" if values else "")
    return "".join(d)


def _axis(root: Element, turns: Sequence[int], step: float, top: float, zero: float, h: float) -> None:
    """The turns under the chart: at most 8 ticks on round numbers, a dashed line where the
    next game of a log begins (its turns counted from 1 again)."""
    axis = el(
        "g",
        {"class": "turn-axis", "font-size": 9, "font-family": FONT, "text-anchor": "middle", "fill": "#555"},
        parent=root,
    )
    ends = [turns[i - 1] for i in range(1, len(turns)) if turns[i] < turns[i - 1]]  # a game's last turn
    every = _tick_every(sum(ends) + (turns[-1] if turns else 0))
    for i in range(1, len(turns)):
        tx = f"{LEFT + i * step:.1f}"
        if turns[i] < turns[i - 1]:  # the next game of the log begins
            attributes = {"class": "game-start", "x1": tx, "x2": tx, "y1": top, "y2": f"{zero:.1f}"}
            el("line", {**attributes, "stroke": "#999", "stroke-dasharray": "3 3"}, parent=axis)
        elif turns[i] != turns[i - 1] and turns[i] % every == 0:
            el(
                "line",
                {"x1": tx, "x2": tx, "y1": f"{zero:.1f}", "y2": f"{zero + 4:.1f}", "stroke": "#999"},
                parent=axis,
            )
            el("text", {"class": "tick", "x": tx, "y": f"{zero + 13:.1f}"}, turns[i], parent=axis)
    el("text", {"x": WIDTH - RIGHT, "y": h - 3, "text-anchor": "end"}, "turn", parent=axis)


def _cursor(root: Element, top: float, zero: float) -> None:
    attributes = {"class": "cursor", "x1": LEFT, "x2": LEFT, "y1": top, "y2": f"{zero:.1f}"}
    el("line", {**attributes, "stroke": style.HIGHLIGHT, "stroke-width": 1.5}, parent=root)


def _tick_every(last: int) -> int:
    """The turns between two ticks: at most 8 ticks, on round numbers."""
    for every in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if last <= 8 * every:
            return every
    return max(1, last // 8)
