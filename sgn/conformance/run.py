"""A whole run of an implementation over a selection of cases: one runner, or `jobs`
runners side by side (each its own process in persistent mode), stopping early after
`max_fail` failed or errored cases."""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from ..words import count
from .moves import too_little
from .outcome import ERRORED, FAILED, PASSED, SKIPPED, UNDECLARED, Outcome
from .runners import RUNNERS, CannotStart


@dataclass
class Run:
    info: Dict[str, Any]
    mode: str
    outcomes: List[Outcome]
    seconds: float
    gave_up: Optional[str] = None  # why the harness stopped trying the implementation
    untried: int = 0  # the cases it then marked errored without running them
    codes: bool = False  # whether codes were compared (--codes)
    state: bool = False  # whether end states were compared (--state)
    not_run: int = 0  # cases left when --max-fail stopped the run
    max_fail: Optional[int] = None
    metadata: Dict[str, Any] = field(default_factory=dict)  # the corpus, the harness, the date, the options
    moves: bool = False  # a rules engine's positions (moves.py), not validation cases

    @property
    def baselines(self) -> Dict[str, int]:
        """What a program that accepts everything, and one that rejects everything, would
        pass of the cases run (not skipped): the floor any score must be read against.
        With --codes rejecting passes nothing; with --state accepting passes no case that
        carries an end state."""
        run = [o.case for o in self.outcomes if o.status not in (SKIPPED, UNDECLARED)]
        if self.moves:  # (every move of every position is never right; no move is where there is none)
            return {"accept_everything": 0, "reject_everything": sum(not c["expected"] for c in run)}
        valid = sum(bool(c["valid"]) and not (self.state and "state" in c) for c in run)
        invalid = sum(not c["valid"] for c in run)
        return {"accept_everything": valid, "reject_everything": 0 if self.codes else invalid}

    @property
    def problem(self) -> str:
        """Why the run does not conform ('' when it does): cases failed or errored, cases
        not run (--max-fail), or no case passed at all (every one skipped or undeclared:
        a run that shows nothing right proves nothing)."""
        statuses = [o.status for o in self.outcomes]
        bad = [f"{statuses.count(s)} {s}" for s in (FAILED, ERRORED) if s in statuses]
        if self.not_run:
            bad.append(f"{self.not_run} not run (--max-fail)")
        if bad:
            return ", ".join(bad)
        if PASSED not in statuses:
            return (
                f"no case passed: of {count(len(statuses), 'case')}, {statuses.count(SKIPPED)} skipped and "
                f"{statuses.count(UNDECLARED)} undeclared"
            )
        if self.moves:
            return too_little(self.outcomes)
        return ""

    @property
    def ok(self) -> bool:
        return not self.problem


class _Shared:
    """What the runners of one run share: the cases left, the count of failures, the first
    exception of a runner's thread."""

    def __init__(self, cases: List[dict], max_fail: Optional[int], progress: Optional[Callable]):
        self.lock = threading.Lock()
        self.cases: Iterator[dict] = iter(cases)
        self.max_fail = max_fail
        self.failures = 0
        self.progress = progress
        self.outcomes: List[Outcome] = []
        self.error: Optional[BaseException] = None
        self.stopped = False

    def next_case(self) -> Optional[dict]:
        with self.lock:
            return None if self.stopped else next(self.cases, None)

    def record(self, outcome: Outcome) -> None:
        with self.lock:
            self.outcomes.append(outcome)
            self.failures += outcome.status in (FAILED, ERRORED)
            if self.max_fail is not None and self.failures >= self.max_fail:
                self.stopped = True
            if self.progress:
                self.progress(outcome)


def _work(runner, shared: _Shared) -> int:
    """Run cases until none is left or the run stops; the number run after the runner broke."""
    untried = 0
    for case in iter(shared.next_case, None):
        untried += runner.broken is not None
        began = time.monotonic()
        outcome = runner.run(case)
        outcome.seconds = time.monotonic() - began
        shared.record(outcome)
    return untried


def _in_thread(runner, shared: _Shared, untried: List[int]) -> None:
    try:
        untried.append(_work(runner, shared))
    except BaseException as error:  # CannotStart on a restart of a simple runner, a bug: end the run
        with shared.lock:
            shared.error = shared.error or error
            shared.stopped = True


def _metadata(info: Dict[str, Any], mode: str, codes: bool, state: bool, started: float) -> Dict[str, Any]:
    """What a report says of its own making (the corpus is added by whoever loaded it)."""
    from datetime import datetime, timezone

    from ..packaged import VERSION as __version__

    return {
        "harness": {"name": "sgn", "version": __version__},
        "implementation": {key: info[key] for key in ("name", "version") if key in info},
        "date": datetime.fromtimestamp(started, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "options": {"mode": mode, "codes": codes, "state": state},
    }


def _end(runners: list, threads: List[threading.Thread]) -> None:
    """Kill every runner's processes. With several runners their threads may be in a case:
    their process groups are killed first (`interrupt`), which ends the case, and the
    threads are given a moment to clean up before the runners are."""
    for runner in runners:
        runner.interrupt()
    deadline = time.monotonic() + 5
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    for runner in runners:
        runner.kill()


def run_cases(
    impl,
    cases: List[dict],
    *,
    mode: str = "simple",
    timeout: float = 10.0,
    codes: bool = False,
    state: bool = False,
    skipped: Sequence[dict] = (),
    progress=None,
    invalid_exit: int = 1,
    jobs: int = 1,
    max_fail: Optional[int] = None,
    depth: Optional[int] = None,
    departures: Sequence[str] = (),
) -> Run:
    """Run every case against an implementation; cases in `skipped` are only reported.
    `invalid_exit` is the exit code of the verdict "invalid" in simple mode; `codes` and
    `state` (persistent mode only: ValueError otherwise) compare more than the verdict.
    `timeout` is a finite number of seconds greater than 0 (ValueError otherwise). Cases of
    kind `moves` (`moves.positions`) ask a rules engine its moves, or with `depth` a perft
    count, the classes of moves in `departures` left out of the comparison."""
    if not (isinstance(timeout, (int, float)) and math.isfinite(timeout) and timeout > 0):
        raise ValueError(f"the time-out is a finite number of seconds greater than 0, not {timeout!r}")
    if mode == "simple" and (codes or state):
        raise ValueError("--codes and --state need --mode persistent: in simple mode the exit code is the only answer")
    runners = [
        RUNNERS[mode](
            impl, timeout, invalid_exit=invalid_exit, codes=codes, state=state, depth=depth, departures=departures
        )
        for _ in range(max(1, jobs))
    ]
    began, started = time.monotonic(), time.time()
    shared = _Shared(cases, max_fail, progress)
    untried: List[int] = []
    threads: List[threading.Thread] = []
    try:
        for runner in runners:
            runner.start()
        if len(runners) == 1:
            untried.append(_work(runners[0], shared))
        else:
            threads += [threading.Thread(target=_in_thread, args=(r, shared, untried), daemon=True) for r in runners]
            for thread in threads:
                thread.start()
            for thread in threads:
                while thread.is_alive():
                    thread.join(0.1)  # (a join with no time-out would not see Ctrl-C)
        if shared.error is not None:
            raise shared.error
    except BaseException:  # an interruption: no process may outlive the run
        shared.stopped = True
        _end(runners, threads)
        raise
    for runner in runners:
        runner.stop()
    order = {c["id"]: i for i, c in enumerate(list(skipped) + list(cases))}
    outcomes = [Outcome(c, SKIPPED, detail="skipped by --skip") for c in skipped] + shared.outcomes
    outcomes.sort(key=lambda o: order[o.case["id"]])
    broken = next((r.broken for r in runners if r.broken), None)
    return Run(
        runners[0].info,
        mode,
        outcomes,
        time.monotonic() - began,
        broken if sum(untried) else None,
        sum(untried),
        codes,
        state,
        len(cases) - len(shared.outcomes),
        max_fail,
        _metadata(runners[0].info, mode, codes, state, started),
        any(c.get("kind") == "moves" for c in cases),
    )


__all__ = ["CannotStart", "Run", "run_cases"]
