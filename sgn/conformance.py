"""The conformance harness: run another SGN implementation, in any language, against the corpus.

An implementation is a command (never run through a shell: pass one yourself
if you need it). Simple mode runs the command once per case, with the case's
file on standard input, and reads its exit code: 0 valid, 1 invalid, anything
else (a crash, another code, a time-out) is `errored`. Persistent mode starts
the command once and speaks the protocol of `schema/harness/v1/protocol.json`;
replies are checked against that schema, and an implementation that crashes,
hangs, prints garbage or answers out of order gets `errored` for that case and
is restarted, so that the run always finishes in bounded time.

The processes themselves (time-outs, output limits, process groups) are
`impl_process`'s concern, and reading replies into the little kept of them
`impl_reply`'s; `docs/conformance.md` gives the worst-case time of a run.

A case passes when the verdict (valid or not) is the corpus's; with
`codes=True` the error codes must match too.
"""
from __future__ import annotations

import base64
import fnmatch
import json
import os
import shlex
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from . import corpus
from .crash import crash_signature
from .impl_process import ImplError, ImplProcess, TimedOut
from .impl_reply import Error, ProtocolError, Replies
from .words import count

PASSED, FAILED, ERRORED, SKIPPED = "passed", "failed", "errored", "skipped"
UNDECLARED = "undeclared"     # a level or profile the implementation does not declare it checks
STATUSES = (PASSED, FAILED, ERRORED, SKIPPED, UNDECLARED)
CASE_LEVELS = ("syntax", "schema", "semantic", "rules")   # the cases of SGN logs (not of HAN)
ACTION_CODES = ("BC", "BD", "BR", "BS", "DM", "MR", "PD", "RD", "ST", "TR")
MAX_RESTARTS = 3              # persistent mode: then the remaining cases are errored without trying
MAX_TIMEOUTS_IN_A_ROW = 3     # simple mode: likewise


@dataclass
class Outcome:
    """One case's result, with a bounded summary of the implementation's answer
    (`impl_reply.kept_errors`): a run keeps one for each case."""
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


def command(impl: str | Sequence[str]) -> List[str]:
    """The argument list of an implementation command (split like a shell would, run without one)."""
    return shlex.split(impl) if isinstance(impl, str) else list(impl)


# -- choosing cases ------------------------------------------------------------------------

def select(cases: Iterable[dict], *, run: Sequence[str] = (), skip: Sequence[str] = (),
           level: Optional[str] = None, profile: Optional[str] = None) -> List[dict]:
    """The cases to run: matching a --run glob (id or tag) if any, no --skip glob, at or below
    level, of the profile if one is named."""
    def hits(case, globs):
        names = [case["id"], *case.get("tags", [])]
        return any(fnmatch.fnmatchcase(n, g) for g in globs for n in names)
    top = CASE_LEVELS.index(level) if level else len(CASE_LEVELS) - 1
    return [c for c in cases
            if c["level"] in CASE_LEVELS and CASE_LEVELS.index(c["level"]) <= top and (not run or hits(c, run))
            and not hits(c, skip) and (profile is None or c.get("profile", "strict") == profile)]


def read_skip_file(path: str) -> List[str]:
    """Globs, one a line; '#' starts a comment."""
    with open(path, encoding="utf-8") as handle:
        return [line.split("#", 1)[0].strip() for line in handle if line.split("#", 1)[0].strip()]


def _judge(case: dict, valid: bool, codes: bool, got_codes: Tuple[str, ...] = (),
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


class CannotStart(Exception):
    """The implementation cannot be run at all (no such command, or it does not answer
    `start`): one message, not an errored case for each case."""


# -- simple mode ---------------------------------------------------------------------------------

class SimpleRunner:
    """One process per case: the file on stdin, the verdict in the exit code. It gives up
    on an implementation that gives no verdict in time on MAX_TIMEOUTS_IN_A_ROW cases."""

    def __init__(self, impl, timeout: float, *, invalid_exit: int = 1):
        self.argv = command(impl)
        self.timeout = timeout
        self.invalid_exit = invalid_exit
        self.info: Dict[str, Any] = {"name": " ".join(self.argv), "language": "?"}
        self.late = 0      # cases in a row with no verdict in time
        self.broken: Optional[str] = None

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def kill(self) -> None:
        pass    # each case's process group is killed when the case ends

    def run(self, case: dict, codes: bool) -> Outcome:
        if self.broken:
            return Outcome(case, ERRORED, detail=self.broken)
        deadline = time.monotonic() + self.timeout
        env = dict(os.environ, SGN_CASE_ID=case["id"], SGN_LEVEL=case["level"],
                   SGN_PROFILE=case.get("profile", "strict"))
        try:
            process = ImplProcess(self.argv, lines=False, env=env)
        except OSError as error:
            raise CannotStart(f"cannot run {self.argv[0]}: {error.strerror or error}") from None
        try:
            code = process.communicate(corpus.case_bytes(case), deadline)
        except TimedOut as error:
            self.late += 1
            if self.late >= MAX_TIMEOUTS_IN_A_ROW:
                self.broken = f"gave up after {self.late} cases in a row with no verdict within {self.timeout:g} s"
            return Outcome(case, ERRORED, detail=f"{error} within {self.timeout:g} s")
        except ImplError as error:
            self.late = 0
            return Outcome(case, ERRORED, detail=str(error))
        finally:
            process.kill()
        self.late = 0
        stderr = process.stderr_tail
        tail = (stderr.strip().splitlines()[-1:] or [""])[0][:200]
        if code == self.invalid_exit:
            runtime = crash_signature(stderr)
            if runtime is not None:     # an uncaught exception, not a verdict (sgn/crash.py)
                return Outcome(case, ERRORED, detail=f"crashed: an uncaught {runtime} exception {tail}".strip())
        if code not in (0, self.invalid_exit):
            return Outcome(case, ERRORED, detail=f"exit code {code} {tail}".strip())
        return _judge(case, code == 0, codes=False)


# -- persistent mode -------------------------------------------------------------------------------

def _line(message: dict) -> bytes:
    return (json.dumps(message) + "\n").encode()


class PersistentRunner:
    """One long-lived process speaking newline-delimited JSON. A reply is read into what
    is kept of it (`impl_reply`) before the next is read, and a failure's exception is
    gone before the process is restarted: it would hold the parsed reply."""

    def __init__(self, impl, timeout: float, *, invalid_exit: int = 1):
        self.argv = command(impl)
        self.timeout = timeout
        self.process: Optional[ImplProcess] = None
        self.info: Dict[str, Any] = {"name": " ".join(self.argv), "language": "?"}
        self.seq = 0
        self.restarts = 0
        self.broken: Optional[str] = None
        self.replies = Replies()

    def _explain(self, error: Exception) -> str:
        return f"{error} within {self.timeout:g} s" if isinstance(error, TimedOut) else str(error)

    def start(self) -> None:
        deadline = time.monotonic() + self.timeout
        try:
            self.process = ImplProcess(self.argv, lines=True)
            self.process.send(_line({"cmd": "start", "version": 1}), deadline)
            self.info = self.replies.started(self.process.receive(deadline), deadline)
        except OSError as error:
            self.kill()
            raise CannotStart(f"cannot run {self.argv[0]}: {error.strerror or error}") from None
        except (ProtocolError, ImplError) as error:
            self.kill()
            raise CannotStart(f"{' '.join(self.argv)} did not start: {self._explain(error)}") from None

    def stop(self) -> None:
        """Ask the process to stop, give it the time-out to do so, then kill its group."""
        if self.process is not None:
            deadline = time.monotonic() + self.timeout
            try:
                self.process.send(_line({"cmd": "stop"}), deadline)
                self.process.wait(deadline)
            except ImplError:
                pass
        self.kill()

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process = None

    def _undeclared(self, case: dict) -> str:
        """Why the implementation is not asked this case ('' when it is): a level or profile
        that its answer to `start` lists none of (an implementation that lists none does all)."""
        levels, profiles = self.info.get("levels"), self.info.get("profiles")
        if isinstance(levels, list) and case["level"] not in levels:
            return f"level {case['level']} is not among the levels it checks ({', '.join(map(str, levels))})"
        profile = case.get("profile", "strict")
        if isinstance(profiles, list) and profile not in profiles:
            return f"profile {profile} is not among the profiles it reads ({', '.join(map(str, profiles))})"
        return ""

    def _restart(self) -> None:
        self.kill()
        if self.restarts >= MAX_RESTARTS:
            self.broken = f"gave up after {MAX_RESTARTS} restarts"
            return
        self.restarts += 1
        try:
            self.start()
        except CannotStart as error:        # it started before: the cases left are errored
            self.broken = str(error)

    def run(self, case: dict, codes: bool) -> Outcome:
        if self.process is None and self.broken is None:
            self.start()
        if self.process is None:
            return Outcome(case, ERRORED, detail=self.broken or "not running")
        undeclared = self._undeclared(case)
        if undeclared:
            return Outcome(case, UNDECLARED, detail=undeclared)
        self.seq += 1
        payload = {k: case[k] for k in ("id", "level", "kind", "input", "input_encoding") if k in case}
        payload.update(profile=case.get("profile", "strict"),
                       data=base64.b64encode(corpus.case_bytes(case)).decode())
        deadline = time.monotonic() + self.timeout      # for sending the case, receiving and checking the reply
        try:
            self.process.send(_line({"cmd": "run", "seq": self.seq, "case": payload}), deadline)
            reply = self.replies.run(self.process.receive(deadline), self.seq, deadline)
            failure = None
        except (ProtocolError, ImplError) as error:
            failure = self._explain(error)
        if failure is not None:
            self._restart()
            return Outcome(case, ERRORED, detail=failure)
        if reply.kind == "skipped":
            return Outcome(case, SKIPPED, detail=reply.text)
        if reply.kind == "errored":
            return Outcome(case, ERRORED, detail=reply.text)
        return _judge(case, reply.valid, codes, reply.codes, reply.errors)


RUNNERS = {"simple": SimpleRunner, "persistent": PersistentRunner}


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


# -- reports -------------------------------------------------------------------------------------

def tally(outcomes: Iterable[Outcome], key) -> Dict[str, Dict[str, int]]:
    table: Dict[str, Dict[str, int]] = {}
    for o in outcomes:
        for group in key(o.case):
            row = table.setdefault(group, dict.fromkeys(STATUSES, 0))
            row[o.status] += 1
    return table


def _actions(case: dict) -> List[str]:
    return [t for t in case.get("tags", []) if t in ACTION_CODES] or ["(none)"]


def summary(run: Run) -> dict:
    return {
        "implementation": run.info, "mode": run.mode, "seconds": round(run.seconds, 2), "ok": run.ok,
        "gave_up": run.gave_up, "baselines": run.baselines,
        "totals": dict(tally(run.outcomes, lambda c: ["all"]).get("all", dict.fromkeys(STATUSES, 0))),
        "by_level": tally(run.outcomes, lambda c: [c["level"]]),
        "by_action": tally(run.outcomes, _actions),
        "cases": [o.to_dict() for o in run.outcomes],
    }


def _table(title: str, table: Dict[str, Dict[str, int]], order: Sequence[str]) -> List[str]:
    rows = [k for k in order if k in table] + sorted(k for k in table if k not in order)
    width = max([len(title)] + [len(r) for r in rows])
    out = [f"{title:{width}}  " + "  ".join(f"{s:>7}" for s in STATUSES)]
    out += [f"{r:{width}}  " + "  ".join(f"{table[r][s]:>7}" for s in STATUSES) for r in rows]
    return out


def render_text(run: Run) -> str:
    data = summary(run)
    info = run.info
    totals = data["totals"]
    out = [f"conformance of {info.get('name', '?')} ({info.get('language', '?')}"
           + (f" {info['version']}" if info.get("version") else "") + f"), {run.mode} mode, "
           f"{count(len(run.outcomes), 'case')} in {run.seconds:.1f} s: "
           + ", ".join(f"{totals[s]} {s}" for s in STATUSES)]
    base = run.baselines
    out += [f"baselines on the same cases: accepting everything passes {base['accept_everything']}, "
            f"rejecting everything passes {base['reject_everything']}", ""]
    if run.gave_up:
        out[-1:] = [f"gave up on the implementation ({run.gave_up}): {count(run.untried, 'case')} not run (errored)", ""]
    out += _table("level", data["by_level"], CASE_LEVELS) + [""]
    out += _table("action", data["by_action"], ACTION_CODES) + [""]
    bad = [o for o in run.outcomes if o.status in (FAILED, ERRORED)]
    if bad:
        out.append(f"{count(len(bad), 'case')} failed or errored:")
        for o in bad:
            out.append(f"  {o.status.upper()} {o.case['id']} [{o.case['level']}]: {o.case['description']}")
            out.append(f"      {o.detail}")
    out.append("CONFORMS" if run.ok else "DOES NOT CONFORM")
    return "\n".join(out) + "\n"


def render_json(run: Run) -> str:
    return json.dumps(summary(run), indent=1) + "\n"


def render_junit(run: Run) -> str:
    from xml.sax.saxutils import escape, quoteattr
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name={quoteattr("sgn conformance: " + str(run.info.get("name", "?")))} '
           f'time="{run.seconds:.3f}">']
    for level in CASE_LEVELS:
        members = [o for o in run.outcomes if o.case["level"] == level]
        if not members:
            continue
        counts = {s: sum(o.status == s for o in members) for s in STATUSES}
        out.append(f'  <testsuite name="{level}" tests="{len(members)}" failures="{counts[FAILED]}" '
                   f'errors="{counts[ERRORED]}" skipped="{counts[SKIPPED] + counts[UNDECLARED]}">')
        for o in members:
            head = f'    <testcase classname="{level}" name={quoteattr(o.case["id"])} time="{o.seconds:.4f}"'
            if o.status == PASSED:
                out.append(head + "/>")
                continue
            tag = {FAILED: "failure", ERRORED: "error", SKIPPED: "skipped", UNDECLARED: "skipped"}[o.status]
            out += [head + ">", f"      <{tag} message={quoteattr(o.detail)}>{escape(o.case['description'])}</{tag}>",
                    "    </testcase>"]
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


RENDERERS = {"text": render_text, "json": render_json, "junit": render_junit}


def smoke_cases(cases: List[dict]) -> List[dict]:
    """A handful of cases to check the wiring: one valid and one invalid of each level."""
    picked = []
    for level in CASE_LEVELS:      # (never a notation case)
        for valid in (True, False):
            match = next((c for c in cases if c["level"] == level and c["valid"] == valid
                          and c.get("profile", "strict") == "strict"), None)
            if match:
                picked.append(match)
    return picked
