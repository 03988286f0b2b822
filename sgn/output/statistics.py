"""`sgn validate --statistics`: how many diagnostics of each code the run found, instead of
the diagnostics, as ruff's `--statistics` counts them: the most frequent first (then by
code), each with its severity and what the code means. The exit status is the run's, as
without it. `-o json` writes the same as a list of {count, code, severity, summary}."""

from __future__ import annotations

import json
from typing import Dict, List, TextIO, Tuple

from ..codes import CODES
from ..diagnostic import Diagnostic
from .reporters import Reporter, Tally


def counted(counts: Dict[str, int]) -> List[Tuple[int, str]]:
    """(count, code), the largest count first, then by code."""
    return sorted(((n, code) for code, n in counts.items()), key=lambda item: (-item[0], item[1]))


class StatisticsReporter(Reporter):
    """Counts each code as the diagnostics stream by (a count per code: constant memory),
    and writes the table at the end."""

    def __init__(self, out: TextIO, *, as_json: bool = False, **options) -> None:
        super().__init__(out, **options)
        self.as_json = as_json
        self.counts: Dict[str, int] = {}

    def diagnostic(self, d: Diagnostic) -> None:
        self.counts[d.code] = self.counts.get(d.code, 0) + d.occurrences

    def finish(self, tally: Tally) -> None:
        rows = counted(self.counts)
        if self.as_json:
            table = [
                {"count": n, "code": code, "severity": CODES[code].severity, "summary": CODES[code].summary}
                for n, code in rows
            ]
            self.out.write(json.dumps(table, ensure_ascii=False, indent=2) + "\n")
            return
        width = max((len(f"{n:,}") for n, _ in rows), default=0)
        name = max((len(code) for _, code in rows), default=0)
        for n, code in rows:
            self.out.write(f"{n:>{width},}  {code:<{name}}  {CODES[code].severity:<7}  {CODES[code].summary}\n")
