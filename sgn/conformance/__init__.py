"""The conformance harness: run another SGN implementation, in any language, against the corpus.

An implementation is a command (never run through a shell: pass one yourself
if you need it). Simple mode runs the command once per case, with the case's
file on standard input, and reads its exit code: 0 valid, 1 invalid, anything
else (a crash, another code, a time-out) is `errored`. Persistent mode starts
the command once and speaks the protocol of `schema/harness/v1/protocol.json`;
replies are checked against that schema, and an implementation that crashes,
hangs, prints garbage or answers out of order gets `errored` for that case and
is restarted, so that the run always finishes in bounded time.

One module per concern: `selection` (which cases), `runners` (the two modes),
`process` (time-outs, output limits, process groups), `reply` (reading
replies into the little kept of them), `crash` (a crash is not a verdict),
`outcome` (judging a case), `run` (a whole run), `scorecard` (its renderings: text, JSON, JUnit).
`docs/conformance.md` gives the worst-case time of a run.

A case passes when the verdict (valid or not) is the corpus's; with
`codes=True` the error codes must match too.
"""

from __future__ import annotations

import importlib
from typing import Any

# The public names, each from its module; imported when first used, so that `sgn` starts
# without loading the harness (subprocess, selectors, jsonschema).
_FROM = {
    name: module
    for module, names in {
        "outcome": "CASE_LEVELS ERRORED FAILED PASSED SKIPPED STATUSES UNDECLARED Outcome",
        "scorecard": "RENDERERS by_status render_json render_junit render_text summary",
        "run": "Run run_cases",
        "runners": "RUNNERS CannotStart PersistentRunner SimpleRunner",
        "selection": "command read_skip_file select smoke_cases",
    }.items()
    for name in names.split()
}
__all__ = sorted(_FROM)


def __getattr__(name: str) -> Any:
    if name not in _FROM:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_FROM[name]}", __name__), name)
