"""One case's outcome: the statuses, and how an answer is judged against the corpus."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from ..corpus.expectations import difference
from ..game.endstate import difference as state_difference
from ..layers.stages import LEVELS
from .reply import Error, Reply, as_dict

PASSED, FAILED, ERRORED, SKIPPED = "passed", "failed", "errored", "skipped"
UNDECLARED = "undeclared"  # a level or profile the implementation does not declare it checks
STATUSES = (PASSED, FAILED, ERRORED, SKIPPED, UNDECLARED)
STDERR_LINES = 5  # of an implementation's standard error, shown in a message or the text report
CASE_LEVELS = LEVELS  # the cases of SGN logs (not of HAN)


@dataclass
class Outcome:
    """One case's result, with a bounded summary of the implementation's answer
    (`reply.kept_errors`) and the tail of what it wrote to standard error while the
    case ran (kept for a case that failed or errored): a run keeps one for each case."""

    case: dict
    status: str
    got_valid: Optional[bool] = None
    got_codes: Tuple[str, ...] = ()  # distinct, sorted
    got_errors: Tuple[Error, ...] = ()  # the first (code, line, pointer, column)
    detail: str = ""
    seconds: float = 0.0
    stderr: str = ""
    # a rules engine's position (moves.py): its legal moves compared, of those it has (the
    # classes of the departures it declares are not compared)
    compared: Tuple[int, int] = (0, 0)

    def to_dict(self) -> dict:
        data = {
            "id": self.case["id"],
            "level": self.case["level"],
            "status": self.status,
            "expected_valid": self.case["valid"],
            "got_valid": self.got_valid,
            "expected_errors": sorted({e["code"] for e in self.case["errors"]}),
            "got_errors": list(self.got_codes),
            "detail": self.detail,
            "seconds": round(self.seconds, 4),
        }
        if self.stderr:
            data["stderr"] = self.stderr
        if self.compared != (0, 0):
            data["moves_compared"] = list(self.compared)
        return data


def judge(
    case: dict, valid: bool, *, reply: Optional[Reply] = None, codes: bool = False, state: bool = False
) -> Outcome:
    """A case's outcome from the verdict, and with `codes` or `state` from the rest of the
    reply: its errors and warnings paired with the expected ones (`expectations`), its end
    state compared with the case's (`endstate`)."""
    got: Dict[str, Any] = dict(
        got_valid=valid, got_codes=reply.codes if reply else (), got_errors=reply.errors if reply else ()
    )
    if valid != case["valid"]:
        want = "valid" if case["valid"] else "invalid (" + ", ".join(sorted({e["code"] for e in case["errors"]})) + ")"
        return Outcome(case, FAILED, **got, detail=f"expected {want}, got {'valid' if valid else 'invalid'}")
    problem = ""
    if codes and reply is not None:
        problem = difference("error", case["errors"], [as_dict(e) for e in reply.errors], reply.error_count)
        if not problem and reply.warnings is not None:
            problem = difference(
                "warning", case.get("warnings", []), [as_dict(w) for w in reply.warnings], reply.warning_count
            )
    if not problem and state and "state" in case and reply is not None:
        if reply.state_problem:
            problem = f"end state: {reply.state_problem}"
        elif reply.state is None:
            problem = "end state: none reported (--state asks for it on valid rules cases)"
        else:
            problem = state_difference(case["state"], reply.state)
            problem = problem and f"end state: {problem}"
    return Outcome(case, FAILED if problem else PASSED, **got, detail=problem)


def with_stderr(outcome: Outcome, stderr: str) -> Outcome:
    """The outcome, keeping what the implementation wrote to standard error (its tail,
    `process.STDERR_TAIL`) when the case failed or errored: the log a reader needs."""
    if outcome.status in (FAILED, ERRORED):
        outcome.stderr = stderr.strip()
    return outcome
