"""A run's scorecard: as text for a person, JSON for a program, JUnit XML for CI.

What an implementation says of itself (its name, language, version), what it prints and
the bundle's own words (a case's description) are anyone's: the text shows each line's
control characters as their escapes (`words.visible`, as `sgn validate` shows a file
name), JSON as its own escapes (ASCII only), JUnit as the shared XML escapes, so that
nothing of theirs reaches a terminal raw."""

from __future__ import annotations

import json
from typing import Dict, Iterable, List, Sequence

from ..words import count, visible
from .outcome import CASE_LEVELS, ERRORED, FAILED, PASSED, SKIPPED, STATUSES, STDERR_LINES, UNDECLARED, Outcome
from .run import Run

ACTION_CODES = ("BC", "BD", "BR", "BS", "DM", "MR", "PD", "RD", "ST", "TR")


def by_status(outcomes: Iterable[Outcome], key) -> Dict[str, Dict[str, int]]:
    """How many outcomes of each group (`key` of a case: its groups) ended in each status."""
    table: Dict[str, Dict[str, int]] = {}
    for o in outcomes:
        for group in key(o.case):
            row = table.setdefault(group, dict.fromkeys(STATUSES, 0))
            row[o.status] += 1
    return table


def _actions(case: dict) -> List[str]:
    return [t for t in case.get("tags", []) if t in ACTION_CODES] or ["(none)"]


def _scored(run: Run):
    """A rules engine's positions grouped by the classes of moves they score: a class it
    declares a departure in is no group (its moves were not compared: no pass is credited)."""
    from .moves import departures_of, scored_classes

    named = [d["moves"] for d in run.metadata.get("options", {}).get("departures") or [] if isinstance(d, dict)]
    declared = departures_of(run.info, named)
    return lambda case: scored_classes(case, declared)


def totals(run: Run) -> Dict[str, int]:
    """How many cases of the run ended in each status."""
    return dict(by_status(run.outcomes, lambda c: ["all"]).get("all", dict.fromkeys(STATUSES, 0)))


def summary(run: Run) -> dict:
    return {
        "metadata": run.metadata,
        "implementation": run.info,
        "mode": run.mode,
        "seconds": round(run.seconds, 2),
        "ok": run.ok,
        "problem": run.problem,
        "gave_up": run.gave_up,
        "not_run": run.not_run,
        "baselines": run.baselines,
        "totals": totals(run),
        "by_level": by_status(run.outcomes, lambda c: [c["level"]]),
        "by_action": by_status(run.outcomes, _scored(run)) if run.moves else by_status(run.outcomes, _actions),
        "cases": [o.to_dict() for o in run.outcomes],
    }


def _table(title: str, table: Dict[str, Dict[str, int]], order: Sequence[str]) -> List[str]:
    rows = [k for k in order if k in table] + sorted(k for k in table if k not in order)
    width = max([len(title)] + [len(r) for r in rows])
    out = [f"{title:{width}}  " + "  ".join(f"{s:>7}" for s in STATUSES)]
    out += [f"{r:{width}}  " + "  ".join(f"{table[r][s]:>7}" for s in STATUSES) for r in rows]
    return out


def language_and_version(info: Dict) -> str:
    """What an implementation said of itself, for a heading: "python 3.12", or what is
    unknown said in words (simple mode asks nothing: `info` has neither)."""
    language, version = info.get("language"), info.get("version")
    if not language and not version:
        return "language and version unknown"
    return f"{language or 'language unknown'} {version or 'version unknown'}"


def render_text(run: Run) -> str:
    data = summary(run)
    info = run.info
    totals = data["totals"]
    out = [
        f"conformance of {info.get('name', '?')} ({language_and_version(info)}), {run.mode} mode, "
        f"{count(len(run.outcomes), 'case')} in {run.seconds:.1f} s: " + ", ".join(f"{totals[s]} {s}" for s in STATUSES)
    ]
    base = run.baselines
    out += [
        f"baselines on the same positions: answering every move passes {base['accept_everything']}, "
        f"answering none passes {base['reject_everything']}"
        if run.moves
        else f"baselines on the same cases: accepting everything passes {base['accept_everything']}, "
        f"rejecting everything passes {base['reject_everything']}",
        "",
    ]
    departures = run.metadata.get("options", {}).get("departures") or []
    if departures:
        out[-1:] = [
            "departures declared, not compared: " + "; ".join(f"{d['moves']} ({d['rule']})" for d in departures),
            "",
        ]
    corpus = run.metadata.get("corpus", {})
    if corpus:
        out[-1:] = [
            f"corpus {corpus.get('version') or '(no version)'}, sha256 {str(corpus.get('sha256'))[:12]}; "
            f"harness sgn {run.metadata.get('harness', {}).get('version', '?')}; {run.metadata.get('date', '')}",
            "",
        ]
    if run.gave_up:
        out[-1:] = [
            f"gave up on the implementation ({run.gave_up}): {count(run.untried, 'case')} not run (errored)",
            "",
        ]
    if run.not_run:
        out[-1:] = [
            f"stopped after {count(run.max_fail or 0, 'case')} failed or errored (--max-fail): "
            f"{count(run.not_run, 'case')} not run",
            "",
        ]
    out += _table("level", data["by_level"], CASE_LEVELS) + [""]
    if run.moves:
        from .moves import CLASSES

        out += _table("class of moves", data["by_action"], CLASSES) + [""]
    else:
        out += _table("action", data["by_action"], ACTION_CODES) + [""]
    bad = [o for o in run.outcomes if o.status in (FAILED, ERRORED)]
    if bad:
        out.append(f"{count(len(bad), 'case')} failed or errored:")
        for o in bad:
            out.append(f"  {o.status.upper()} {o.case['id']} [{o.case['level']}]: {o.case['description']}")
            out.append(f"      {o.detail}")
            out += [f"      | {line}" for line in o.stderr.splitlines()[-STDERR_LINES:]]
    out.append("CONFORMS" if run.ok else f"DOES NOT CONFORM: {run.problem}")
    return "\n".join(map(visible, out)) + "\n"  # each a line: a line break of theirs is escaped too


def render_json(run: Run) -> str:
    return json.dumps(summary(run), indent=1) + "\n"


def junit_suites(run: Run, prefix: str = "") -> List[str]:
    """The JUnit test suites of a run, one per level (named after the implementation too
    when several are reported together). An implementation's standard error may hold any
    character (a colour escape): the shared escapes keep the XML well-formed."""
    from ..output import xml as junit

    out = []
    for level in CASE_LEVELS:
        members = [o for o in run.outcomes if o.case["level"] == level]
        if not members:
            continue
        counts = {s: sum(o.status == s for o in members) for s in STATUSES}
        tally = junit.counts(len(members), counts[FAILED], counts[ERRORED], counts[SKIPPED] + counts[UNDECLARED])
        lines = [f"  <testsuite{junit.attributes(dict(name=prefix + level, **tally))}>"]
        for o in members:
            head = f"    <testcase{junit.attributes(dict(classname=prefix + level, name=o.case['id'], time=f'{o.seconds:.4f}'))}"
            if o.status == PASSED:
                lines.append(head + "/>")
                continue
            tag = {FAILED: "failure", ERRORED: "error", SKIPPED: "skipped", UNDECLARED: "skipped"}[o.status]
            lines += [
                head + ">",
                f"      <{tag} message={junit.attribute(o.detail)}>{junit.text(o.case['description'])}</{tag}>",
            ]
            if o.stderr:
                lines.append(f"      <system-err>{junit.text(o.stderr)}</system-err>")
            lines.append("    </testcase>")
        lines.append("  </testsuite>")
        out.append("\n".join(lines) + "\n")
    return out


def render_junit(run: Run) -> str:
    from ..output import xml as junit

    name = "sgn conformance: " + str(run.info.get("name", "?"))
    return (
        junit.HEADER
        + f"<testsuites{junit.attributes(dict(name=name, time=f'{run.seconds:.3f}'))}>\n"
        + "".join(junit_suites(run))
        + "</testsuites>\n"
    )


def render_smoke_junit(run: Run, wired: bool, why: str) -> str:
    """`sgn smoke -o junit`: the wiring is what smoke judges, so a case passes when it was
    answered, right or wrong (a wrong answer is said, for `sgn conformance` to score), errs
    when the program failed on it, and is skipped when declined; one more test case, the
    wiring, fails when smoke's verdict does. A failure in the document, a non-zero exit."""
    from ..output import xml as junit

    errored = sum(o.status == ERRORED for o in run.outcomes)
    declined = sum(o.status in (SKIPPED, UNDECLARED) for o in run.outcomes)
    tally = junit.counts(len(run.outcomes) + 1, 0 if wired else 1, errored, declined)
    lines = [
        f"  <testsuite{junit.attributes(dict(name='smoke', **tally))}>",
        f"    <testcase{junit.attributes(dict(classname='smoke', name='wiring'))}"
        + ("/>" if wired else f"><failure message={junit.attribute(why)}/></testcase>"),
    ]
    for o in run.outcomes:
        head = (
            f"    <testcase{junit.attributes(dict(classname='smoke.' + o.case['level'], name=o.case['id']))}"
            f"{junit.attributes(dict(time=f'{o.seconds:.4f}'))}"
        )
        if o.status == PASSED:
            lines.append(head + "/>")
        elif o.status == FAILED:
            lines.append(head + f"><system-out>{junit.text('answered; ' + o.detail)}</system-out></testcase>")
        else:
            tag = "error" if o.status == ERRORED else "skipped"
            lines.append(head + f"><{tag} message={junit.attribute(o.detail)}/></testcase>")
    lines.append("  </testsuite>")
    name = "sgn smoke: " + str(run.info.get("name", "?"))
    return (
        junit.HEADER
        + f"<testsuites{junit.attributes(dict(name=name, time=f'{run.seconds:.3f}'))}>\n"
        + "\n".join(lines)
        + "\n</testsuites>\n"
    )


RENDERERS = {"text": render_text, "json": render_json, "junit": render_junit}
