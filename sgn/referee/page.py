"""A match as one self-contained page (`sgn play --page FILE.html`): the summary's tables
(each bot's wins with its interval drawn as a bar, the seats, the ratings, the SPRT) and one
row per game, linked to its SGN file where the match wrote them (`--out`). No script, no
request: every name a bot gave is escaped, so the page shows what a bot calls itself and
runs nothing of it."""

from __future__ import annotations

import html
import os
from typing import Any, Dict, List, Optional, Sequence

from .referee import Record
from .store import game_file

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{padding:.2em .7em;text-align:right}
th{border-bottom:1px solid #999}td:first-child,th:first-child{text-align:left}
.bar{position:relative;width:200px;height:12px;background:#eee}
.bar span{position:absolute;top:0;height:12px;background:#7a9cc6}
.bar i{position:absolute;top:-2px;width:2px;height:16px;background:#222}
"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _bar(rate: float, interval: Sequence[float]) -> str:
    low, high = interval
    return (
        f'<div class="bar" title="{rate:.3f} [{low:.3f}, {high:.3f}]">'
        f'<span style="left:{100 * low:.1f}%;width:{100 * (high - low):.1f}%"></span>'
        f'<i style="left:{100 * rate:.1f}%"></i></div>'
    )


def page(
    summary: Dict[str, Any], records: Sequence[Record], folder: Optional[str] = None, title: str = "sgn play"
) -> str:
    """The page, as text. `folder`: where the games were written (`--out`), for the links."""
    out: List[str] = [
        f"<!DOCTYPE html><html lang=en><meta charset=utf-8><title>{_e(title)}</title><style>{_STYLE}</style>",
        f"<h1>{_e(title)}</h1><p>{summary['games']} games: "
        + ", ".join(f"{n} {_e(k)}" for k, n in sorted(summary["how"].items()))
        + "</p>",
        "<h2>Bots</h2><table><tr><th>bot<th>seats<th>wins<th>win rate<th>95% interval<th><th>points<th>faults</tr>",
    ]
    for name, b in summary["bots"].items():
        faults = ", ".join(f"{n} {_e(k)}" for k, n in sorted(b["faults"].items())) or "none"
        low, high = b["win_interval"]
        out.append(
            f"<tr><td>{_e(name)}<td>{b['seats']}<td>{b['wins']}<td>{b['win_rate']:.3f}"
            f"<td>[{low:.3f}, {high:.3f}]<td>{_bar(b['win_rate'], b['win_interval'])}"
            f"<td>{b['points']:.2f}<td>{faults}</tr>"
        )
    out.append("</table><h2>Each bot in each seat</h2><table><tr><th>bot<th>seat<th>games<th>wins<th><th>points</tr>")
    for name, b in summary["bots"].items():
        for seat, v in b["by_seat"].items():
            rate = v["wins"] / v["games"] if v["games"] else 0.0
            out.append(
                f"<tr><td>{_e(name)}<td>{_e(seat)}<td>{v['games']}<td>{v['wins']}"
                f"<td>{_bar(rate, v['win_interval'])}<td>{v['points']:.2f}</tr>"
            )
    out.append("</table><h2>Seats</h2><table><tr><th>seat<th>games<th>wins<th>win rate<th></tr>")
    for seat, v in summary["seats"].items():
        out.append(
            f"<tr><td>{_e(seat)}<td>{v['games']}<td>{v['wins']}<td>{v['win_rate']:.3f}"
            f"<td>{_bar(v['win_rate'], v['win_interval'])}</tr>"
        )
    out.append("</table>")
    ratings = summary.get("ratings")
    if ratings:
        out.append("<h2>Ratings (Plackett-Luce)</h2><table><tr><th>bot<th>mu<th>sigma<th>mu - 3 sigma</tr>")
        out += [
            f"<tr><td>{_e(n)}<td>{r['mu']:.2f}<td>{r['sigma']:.2f}<td>{r['ordinal']:.2f}</tr>"
            for n, r in ratings.items()
        ]
        out.append("</table>")
    test = summary.get("sprt")
    if test:
        out.append(
            f"<h2>SPRT</h2><p>{_e(test['a'])} against {_e(test['b'])} (elo0 {test['elo0']:g}, elo1 {test['elo1']:g}): "
            f"{test['games']} games, LLR {test['llr']:.2f} in ({test['bounds'][0]:.2f}, {test['bounds'][1]:.2f}): "
            f"<b>{_e(test['verdict'])}</b></p>"
        )
    out.append("<h2>Games</h2><table><tr><th>game<th>seats<th>winner<th>points<th>how<th>lines</tr>")
    for i, r in enumerate(records):
        name = _e(r.game)
        if folder is not None:
            name = f'<a href="{_e(os.path.join(folder, game_file(i)))}">{name}</a>'
        winner = _e(f"{r.winner} ({r.bots[int(r.winner) - 1]})") if r.winner else "none"
        points = " ".join(f"{_e(s)}:{p}" for s, p in r.points.items())
        out.append(
            f"<tr><td>{name}<td>{_e(', '.join(r.bots))}<td>{winner}<td>{points}<td>{_e(r.how)}<td>{len(r.log)}</tr>"
        )
    out.append("</table></html>\n")
    return "\n".join(out)
