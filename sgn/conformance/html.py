"""The matrix of several implementations as one self-contained HTML page: no network,
nothing to install to view it. Each cell's title holds the case's detail. Every word of an
implementation or of the bundle is written by `_shown`: its control characters as their
escapes (`words.visible`, as the text report), then as HTML text. Should a mistake let
markup through anyway, the page's Content-Security-Policy is the `sgn report` page's
(`sgn.page.policy`): nothing fetched, no script or style but its own."""

from __future__ import annotations

from html import escape
from typing import List, Sequence

from ..page import policy
from ..words import count, visible
from .matrix import LEGEND, answer, disagrees, names, rows
from .outcome import STATUSES
from .run import Run
from .scorecard import totals

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
th { background: #f3f3f3; position: sticky; top: 0; }
td.passed { background: #d9f2d9; } td.failed { background: #f8caca; font-weight: bold; }
td.errored { background: #f6dfa6; font-weight: bold; } td.skipped { background: #e8e8e8; }
td.undeclared { background: #fafafa; color: #999; } td.num { text-align: right; }
tr.agree.hidden { display: none; }
.meta { color: #555; }
"""
SCRIPT = """
document.getElementById('only').addEventListener('change', function (e) {
  document.querySelectorAll('tr.agree').forEach(function (row) { row.classList.toggle('hidden', e.target.checked); });
});
"""


def _shown(value: object) -> str:
    """A value of theirs as HTML text: no control character, no markup."""
    return escape(visible(str(value)))


def _row(cells: List[str], tag: str = "td", css: str = "") -> str:
    """A table row; a cell that is already an element (`<td ...>`) is kept as it is."""
    opening = f'<tr class="{css}">' if css else "<tr>"
    return opening + "".join(c if c.startswith("<t") else f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>"


def page(runs: Sequence[Run]) -> str:
    columns = names(runs)
    table = rows(runs)
    meta = runs[0].metadata
    corpus = meta.get("corpus", {})
    split = sum(disagrees(r) for r in table)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{escape(policy(SCRIPT, STYLE))}">',
        "<title>SGN conformance</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>SGN conformance: {_shown(', '.join(columns))}</h1>",
        f'<p class="meta">{count(len(table), "case")}, {_shown(runs[0].mode)} mode; corpus '
        f"{_shown(corpus.get('version') or '?')} (sha256 {_shown(corpus.get('sha256', '?'))}); "
        f"harness sgn {_shown(meta.get('harness', {}).get('version', '?'))}; {_shown(meta.get('date', ''))}</p>",
        "<h2>Implementations</h2><table>",
        _row(
            ["implementation", "language", "version", *STATUSES, "accepting all passes", "rejecting all passes"], "th"
        ),
    ]
    for name, run in zip(columns, runs):
        counted = totals(run)
        out.append(
            _row(
                [
                    _shown(name),
                    _shown(run.info.get("language") or "unknown"),
                    _shown(run.info.get("version") or "unknown"),
                    *(f'<td class="num">{counted[s]}</td>' for s in STATUSES),
                    f'<td class="num">{run.baselines["accept_everything"]}</td>',
                    f'<td class="num">{run.baselines["reject_everything"]}</td>',
                ]
            )
        )
    out += [
        "</table>",
        f"<h2>Cases</h2><p>{escape(LEGEND)}.</p>",
        f'<p><label><input type="checkbox" id="only" checked> only the {count(split, "case")} where the '
        "implementations disagree with each other or with the corpus</label></p>",
        "<table>",
        _row(["case", "level", "corpus", *(_shown(c) for c in columns)], "th"),
    ]
    for r in table:
        case = r["case"]
        cells = [
            f'<td title="{_shown(case["description"])}">{_shown(case["id"])}</td>',
            _shown(case["level"]),
            "valid" if case["valid"] else "invalid",
        ]
        for o in r["outcomes"]:
            if o is None:
                cells.append("<td></td>")
                continue
            cells.append(f'<td class="{o.status}" title="{_shown(o.detail or o.status)}">{_shown(answer(o))}</td>')
        out.append(_row(cells, css="disagree" if disagrees(r) else "agree hidden"))
    out += ["</table>", f"<script>{SCRIPT}</script>", "</body></html>"]
    return "\n".join(out) + "\n"
