"""A whole run of an implementation over a selection of cases."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

from .outcome import PASSED, SKIPPED, UNDECLARED, Outcome
from .runners import RUNNERS, SimpleRunner


@dataclass
class Run:
    info: Dict[str, Any]
    mode: str
    outcomes: List[Outcome]
    seconds: float
    gave_up: Optional[str] = None     # why the harness stopped trying the implementation
    untried: int = 0                  # the cases it then marked errored without running them
    codes: bool = False               # whether codes were compared (--codes)

    @property
    def baselines(self) -> Dict[str, int]:
        """What a program that accepts everything, and one that rejects everything, would
        pass of the cases run (not skipped): the floor any score must be read against."""
        run = [o.case for o in self.outcomes if o.status not in (SKIPPED, UNDECLARED)]
        valid = sum(bool(c["valid"]) for c in run)
        return {"accept_everything": valid, "reject_everything": 0 if self.codes else len(run) - valid}

    @property
    def ok(self) -> bool:
        return all(o.status in (PASSED, SKIPPED, UNDECLARED) for o in self.outcomes)


def run_cases(impl, cases: List[dict], *, mode: str = "simple", timeout: float = 10.0,
              codes: bool = False, skipped: Sequence[dict] = (), progress=None, invalid_exit: int = 1) -> Run:
    """Run every case against an implementation; cases in `skipped` are only reported.
    `invalid_exit` is the exit code of the verdict "invalid" in simple mode."""
    runner = SimpleRunner(impl, timeout, invalid_exit=invalid_exit) if mode == "simple" else RUNNERS[mode](impl, timeout)
    began = time.monotonic()
    outcomes = [Outcome(c, SKIPPED, detail="skipped by --skip") for c in skipped]
    untried = 0
    try:
        runner.start()
        for case in cases:
            untried += runner.broken is not None
            t0 = time.monotonic()
            outcome = runner.run(case, codes)
            outcome.seconds = time.monotonic() - t0
            outcomes.append(outcome)
            if progress:
                progress(outcome)
    except BaseException:      # an interruption: no process may outlive the run
        runner.kill()
        raise
    runner.stop()
    order = {c["id"]: i for i, c in enumerate(list(skipped) + list(cases))}
    outcomes.sort(key=lambda o: order[o.case["id"]])
    return Run(runner.info, mode, outcomes, time.monotonic() - began, runner.broken if untried else None, untried,
               codes)

