"""One case's outcome: the statuses, and how an answer is judged against the corpus."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from .reply import Error


PASSED, FAILED, ERRORED, SKIPPED = "passed", "failed", "errored", "skipped"
UNDECLARED = "undeclared"     # a level or profile the implementation does not declare it checks
STATUSES = (PASSED, FAILED, ERRORED, SKIPPED, UNDECLARED)
CASE_LEVELS = ("syntax", "schema", "semantic", "rules")   # the cases of SGN logs (not of HAN)


@dataclass
class Outcome:
    """One case's result, with a bounded summary of the implementation's answer
    (`reply.kept_errors`): a run keeps one for each case."""
    case: dict
    status: str
    got_valid: Optional[bool] = None
    got_codes: Tuple[str, ...] = ()       # distinct, sorted
    got_errors: Tuple[Error, ...] = ()    # the first (code, line, pointer)
    detail: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict:
        return {"id": self.case["id"], "level": self.case["level"], "status": self.status,
                "expected_valid": self.case["valid"], "got_valid": self.got_valid,
                "expected_errors": sorted({e["code"] for e in self.case["errors"]}),
                "got_errors": list(self.got_codes),
                "detail": self.detail, "seconds": round(self.seconds, 4)}


def judge(case: dict, valid: bool, codes: bool, got_codes: Tuple[str, ...] = (),
           got_errors: Tuple[Error, ...] = ()) -> Outcome:
    got = dict(got_valid=valid, got_codes=got_codes, got_errors=got_errors)
    if valid != case["valid"]:
        want = "valid" if case["valid"] else "invalid (" + ", ".join(sorted({e["code"] for e in case["errors"]})) + ")"
        return Outcome(case, FAILED, **got, detail=f"expected {want}, got {'valid' if valid else 'invalid'}")
    if codes and not valid:
        want = sorted({e["code"] for e in case["errors"]})
        if want != list(got_codes):
            return Outcome(case, FAILED, **got, detail=f"expected codes {want}, got {list(got_codes)}")
    return Outcome(case, PASSED, **got)

