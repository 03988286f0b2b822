"""How a case's expected diagnostics meet the reported ones: one rule, for the corpus's
self-check (against `sgn`) and for the harness's `--codes` (against any implementation).

An expectation is `{code, line?, pointer?, column?}`; a field it leaves out matches
anything. Expected and reported diagnostics are paired one to one, by a maximum
matching (so the order of neither list matters): every expected one needs a reported
one of its own, and every reported one must meet an expected one. A code expected once
and reported twice fails, and so does a code nobody expected.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

FIELDS = ("code", "line", "pointer", "column")


def meets(expected: Mapping[str, Any], reported: Mapping[str, Any]) -> bool:
    """Whether a reported diagnostic is the one an expectation describes."""
    return all(reported.get(key) == value for key, value in expected.items() if key in FIELDS)


def unmatched(
    expected: Sequence[Mapping[str, Any]], reported: Sequence[Mapping[str, Any]]
) -> Tuple[List[Mapping[str, Any]], List[Mapping[str, Any]]]:
    """The expected diagnostics no reported one meets, and the reported ones left over,
    after the largest pairing (augmenting paths: the lists are a few dozen long)."""
    partner: Dict[int, int] = {}  # reported index -> expected index

    def place(e: int, seen: set) -> bool:
        for r, item in enumerate(reported):
            if r not in seen and meets(expected[e], item):
                seen.add(r)
                if r not in partner or place(partner[r], seen):
                    partner[r] = e
                    return True
        return False

    paired = {e for e in range(len(expected)) if place(e, set())}
    return (
        [x for e, x in enumerate(expected) if e not in paired],
        [x for r, x in enumerate(reported) if r not in partner],
    )


def describe(diagnostic: Mapping[str, Any]) -> str:
    """`schema-maximum at line 1, /2/result`: a diagnostic's fields in a few words."""
    where = [f"{key} {diagnostic[key]}" for key in ("line", "column") if diagnostic.get(key) is not None]
    if diagnostic.get("pointer") is not None:
        where.append(diagnostic["pointer"] or '"" (the whole message)')
    return str(diagnostic.get("code")) + (" at " + ", ".join(where) if where else "")


def difference(
    kind: str, expected: Sequence[Mapping[str, Any]], reported: Sequence[Mapping[str, Any]], total: Optional[int] = None
) -> str:
    """What differs, in one sentence ('' when they match); `total` is how many were reported
    when only the first of them were kept."""
    if total is not None and total > len(reported):
        return f"{total} {kind}s reported, {len(expected)} expected"
    missing, extra = unmatched(expected, reported)
    parts = [f"expected {kind} {describe(m)} not reported" for m in missing[:3]]
    parts += [f"unexpected {kind} {describe(x)}" for x in extra[:3]]
    more = len(missing) + len(extra) - min(len(missing), 3) - min(len(extra), 3)
    return "; ".join(parts) + (f" (and {more} more)" if more else "")
