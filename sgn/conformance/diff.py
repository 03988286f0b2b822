"""`sgn conformance diff OLD.json NEW.json`: the cases whose outcome changed between two
runs (JSON reports of one implementation or of several), as a regression check in CI."""

from __future__ import annotations

import json
from typing import Dict, List

from ..words import visible

Table = Dict[str, Dict[str, dict]]  # implementation -> case id -> {"status", "detail"}


class NotAReport(ValueError):
    """The file is not a JSON report of `sgn conformance`."""


def outcomes_of(report) -> Table:
    """Each implementation's outcome of each case, from either form of JSON report; a
    report of another shape is NotAReport, naming the first part that is not as written."""
    if isinstance(report, dict) and isinstance(report.get("matrix"), list):
        table: Table = {}
        for number, row in enumerate(report["matrix"], 1):
            results = row.get("results") if isinstance(row, dict) else None
            if not isinstance(results, dict) or not all(isinstance(r, (dict, type(None))) for r in results.values()):
                raise NotAReport(f"matrix row {number} is not a case with its results by implementation")
            for name, result in results.items():
                if result is not None:
                    table.setdefault(name, {})[str(row.get("id"))] = result
        return table
    if isinstance(report, dict) and isinstance(report.get("cases"), list):
        described = report.get("implementation")
        if not isinstance(described, dict) or not all(isinstance(c, dict) for c in report["cases"]):
            raise NotAReport("its implementation and each of its cases are objects")
        return {str(described.get("name", "?")): {str(c.get("id")): c for c in report["cases"]}}
    raise NotAReport("not a JSON report of sgn conformance (-o json)")


def changes(old: Table, new: Table) -> List[dict]:
    """The outcomes that differ, case by case; when each side has one implementation they
    are compared whatever their names."""
    if len(old) == 1 and len(new) == 1:
        pairs = [(next(iter(new)), next(iter(old.values())), next(iter(new.values())))]
    else:
        pairs = [(name, old.get(name, {}), new.get(name, {})) for name in sorted(set(old) | set(new))]
    out = []
    for name, before, after in pairs:
        for case in list(before) + [c for c in after if c not in before]:
            was = before.get(case, {}).get("status", "absent")
            now = after.get(case, {}).get("status", "absent")
            if was != now:
                out.append(
                    {
                        "implementation": name,
                        "id": case,
                        "old": was,
                        "new": now,
                        "detail": after.get(case, {}).get("detail", ""),
                    }
                )
    return out


def load(path: str) -> Table:
    with open(path, encoding="utf-8") as handle:
        try:
            return outcomes_of(json.load(handle))
        except (ValueError, RecursionError) as error:
            raise NotAReport(str(error) if isinstance(error, NotAReport) else f"not JSON ({error})") from None


def render_text(found: List[dict]) -> str:
    if not found:
        return "no case changed its outcome\n"
    width = max(len(c["id"]) for c in found)
    lines = [
        f"{c['implementation']}: {c['id']:{width}}  {c['old']} -> {c['new']}"
        + (f"  ({c['detail']})" if c["detail"] and c["new"] in ("failed", "errored") else "")
        for c in found
    ]
    better = sum(c["new"] == "passed" for c in found)
    worse = sum(c["old"] == "passed" for c in found)
    shown = "\n".join(map(visible, lines))  # names and details are the implementations' words
    return shown + f"\n{len(found)} changed: {better} now pass, {worse} no longer pass\n"
