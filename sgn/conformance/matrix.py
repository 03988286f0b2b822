"""Several implementations side by side, as Bowtie shows JSON Schema validators: a matrix
of case × implementation, led by the cases where they disagree with each other or with
the corpus."""

from __future__ import annotations

import json
from typing import List, Sequence

from ..words import count, visible
from .outcome import ERRORED, FAILED, PASSED, SKIPPED, STATUSES, UNDECLARED, Outcome
from .run import Run
from .scorecard import language_and_version, summary, totals

LEGEND = (
    "each cell is the implementation's answer: valid, invalid, moves (a rules engine's, --moves), error "
    "(no answer), skip (skipped), - (a level or profile it does not declare); ! marks an answer that is not "
    "the corpus's, or a case that failed on its errors or state (a position: on its moves)"
)


def names(runs: Sequence[Run]) -> List[str]:
    """A column name for each run: the implementation's name, numbered when it repeats."""
    out: List[str] = []
    for run in runs:
        name = str(run.info.get("name", "?"))
        out.append(name if name not in out else f"{name} #{sum(n.split(' #')[0] == name for n in out) + 1}")
    return out


def answer(outcome: Outcome) -> str:
    """What an implementation said of a case, in a word."""
    if outcome.status == UNDECLARED:
        return "-"
    if outcome.status == SKIPPED:
        return "skip"
    if outcome.status == ERRORED:
        return "error"
    if outcome.case.get("kind") == "moves":  # a rules engine's answer (moves.py): the moves, right or not
        return "moves"
    return "valid" if outcome.got_valid else "invalid"


def cell(outcome: Outcome) -> str:
    return ("!" if outcome.status in (FAILED, ERRORED) else "") + answer(outcome)


def rows(runs: Sequence[Run]) -> List[dict]:
    """One row per case (in the order of the first run), with each run's outcome."""
    by_run = [{o.case["id"]: o for o in run.outcomes} for run in runs]
    return [{"case": o.case, "outcomes": [table.get(o.case["id"]) for table in by_run]} for o in runs[0].outcomes]


def disagrees(row: dict) -> bool:
    """Whether the implementations disagree with the corpus (a case failed or errored) or
    with each other (among those that answered)."""
    present = [o for o in row["outcomes"] if o is not None]
    answered = {o.got_valid for o in present if o.status in (PASSED, FAILED)}
    return any(o.status in (FAILED, ERRORED) for o in present) or len(answered) > 1


def matrix_summary(runs: Sequence[Run]) -> dict:
    """The JSON form: metadata, each implementation's totals and baselines, the cases of
    disagreement, and every case's outcome under each implementation."""
    columns = names(runs)
    table = rows(runs)
    return {
        "metadata": runs[0].metadata,
        "implementations": [
            dict({k: v for k, v in summary(run).items() if k not in ("cases", "metadata")}, column=name)
            for name, run in zip(columns, runs)
        ],
        "disagreements": [r["case"]["id"] for r in table if disagrees(r)],
        "matrix": [
            {
                "id": r["case"]["id"],
                "level": r["case"]["level"],
                "expected_valid": r["case"]["valid"],
                "results": {
                    name: None if o is None else {"status": o.status, "answer": answer(o), "detail": o.detail}
                    for name, o in zip(columns, r["outcomes"])
                },
            }
            for r in table
        ],
    }


def _grid(head: List[str], body: List[List[str]]) -> List[str]:
    """Columns aligned, each cell as it is shown (`visible`: a name may hold any character)."""
    head, body = [visible(c) for c in head], [[visible(c) for c in row] for row in body]
    widths = [max(len(row[i]) for row in [head] + body) for i in range(len(head))]
    return ["  ".join(text.ljust(w) for text, w in zip(row, widths)).rstrip() for row in [head] + body]


def render_matrix_text(runs: Sequence[Run]) -> str:
    columns = names(runs)
    table = rows(runs)
    meta = runs[0].metadata
    corpus = meta.get("corpus", {})
    out = [
        f"conformance of {count(len(runs), 'implementation')}, {runs[0].mode} mode, "
        f"{count(len(table), 'case')}; corpus {corpus.get('version') or '?'} "
        f"(sha256 {str(corpus.get('sha256', '?'))[:12]}), harness sgn {meta.get('harness', {}).get('version', '?')}, "
        f"{meta.get('date', '')}",
        "",
    ]
    head = ["implementation", *STATUSES, "accept-all", "reject-all"]
    body = []
    for name, run in zip(columns, runs):
        counted = totals(run)
        body.append(
            [
                f"{name} ({language_and_version(run.info)})",
                *(str(counted[s]) for s in STATUSES),
                str(run.baselines["accept_everything"]),
                str(run.baselines["reject_everything"]),
            ]
        )
    out += _grid(head, body) + ["", LEGEND, ""]
    split = [r for r in table if disagrees(r)]
    head = ["case", "level", "corpus", *columns]

    def line(r):
        return [
            r["case"]["id"],
            r["case"]["level"],
            "moves" if r["case"].get("kind") == "moves" else "valid" if r["case"]["valid"] else "invalid",
            *("" if o is None else cell(o) for o in r["outcomes"]),
        ]

    out.append(
        f"{count(len(split), 'case')} where the implementations disagree with each other or with the corpus:"
        if split
        else "no case where the implementations disagree with each other or with the corpus"
    )
    if split:
        out += _grid(head, [line(r) for r in split])
    out += ["", "every case:"] + _grid(head, [line(r) for r in table])
    ok = all(run.ok for run in runs)
    out += [""] * (not ok) + [
        f"{name} does not conform: {run.problem}" for name, run in zip(columns, runs) if not run.ok
    ]
    out.append(
        "ALL CONFORM"
        if ok
        else "NOT ALL CONFORM: " + ", ".join(name for name, run in zip(columns, runs) if not run.ok) + " do not"
    )
    return "\n".join(map(visible, out)) + "\n"  # as the report of one (report.render_text)


def render_matrix_json(runs: Sequence[Run]) -> str:
    return json.dumps(matrix_summary(runs), indent=1) + "\n"


def render_matrix_junit(runs: Sequence[Run]) -> str:
    from ..output import xml as junit
    from .scorecard import junit_suites

    suites = [s for name, run in zip(names(runs), runs) for s in junit_suites(run, f"{name}: ")]
    return junit.HEADER + '<testsuites name="sgn conformance">\n' + "".join(suites) + "</testsuites>\n"
