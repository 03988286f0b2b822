"""The two ways of talking to an implementation: a process per case (simple), or one
process speaking the protocol (persistent)."""

from __future__ import annotations

import base64
import json
import os
import time
from typing import Any, Dict, Optional

from .. import corpus
from ..layers.jsontext import MAX_DEPTH, too_deep
from . import moves
from .crash import Signature
from .outcome import ERRORED, SKIPPED, STDERR_LINES, UNDECLARED, Outcome, judge, with_stderr
from .process import ImplError, ImplProcess, TimedOut, ended_by
from .reply import ProtocolError, Replies
from .selection import command

MAX_RESTARTS = 3  # persistent mode: then the remaining cases are errored without trying
MAX_TIMEOUTS_IN_A_ROW = 3  # simple mode: likewise


class CannotStart(Exception):
    """The implementation cannot be run at all (no such command, or it does not answer
    `start`): one message, not an errored case for each case."""


# -- simple mode ---------------------------------------------------------------------------------


class SimpleRunner:
    """One process per case: the file on stdin, the verdict in the exit code. It gives up
    on an implementation that gives no verdict in time on MAX_TIMEOUTS_IN_A_ROW cases."""

    def __init__(self, impl, timeout: float, *, invalid_exit: int = 1, depth=None, departures=(), **_):
        self.argv = command(impl)
        self.timeout = timeout
        self.invalid_exit = invalid_exit
        self.depth, self.departures = depth, list(departures)  # (a rules engine's positions: moves.py)
        self.info: Dict[str, Any] = {"name": " ".join(self.argv), "language": "?"}
        self.late = 0  # cases in a row with no verdict in time
        self.broken: Optional[str] = None
        self.current: Optional[ImplProcess] = None  # the process of the case running

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def interrupt(self) -> None:
        """End the case running (its process group), from any thread; each case's process
        is cleaned up when its case ends."""
        if self.current is not None:
            self.current.terminate()

    def kill(self) -> None:
        self.interrupt()

    def run(self, case: dict) -> Outcome:
        if self.broken:
            return Outcome(case, ERRORED, detail=self.broken)
        if case.get("kind") == moves.TAG:
            return moves.judge(self.ask, case, self.departures, self.depth, self.timeout)
        if "extension" in case:  # (nothing is declared in simple mode: an extension is opt in)
            return Outcome(
                case, UNDECLARED, detail=f"the extension {case['extension']} needs declaring (persistent mode)"
            )
        deadline = time.monotonic() + self.timeout
        env = dict(
            os.environ, SGN_CASE_ID=case["id"], SGN_LEVEL=case["level"], SGN_PROFILE=case.get("profile", "strict")
        )
        try:
            process = ImplProcess(self.argv, lines=False, env=env)
        except OSError as error:
            raise CannotStart(f"cannot run {self.argv[0]}: {error.strerror or error}") from None
        self.current = process
        try:
            return with_stderr(self._verdict(case, process, deadline), process.stderr_tail)
        finally:
            self.current = None
            process.kill()

    def _verdict(self, case: dict, process: ImplProcess, deadline: float) -> Outcome:
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
        self.late = 0
        tail = (process.stderr_tail.strip().splitlines()[-1:] or [""])[0][:200]
        if code < 0:
            return Outcome(case, ERRORED, detail=f"crashed: {ended_by(code)} {tail}".strip())
        if code == self.invalid_exit:
            crash = process.crash()  # anywhere in what it printed (sgn/conformance/crash.py)
            if crash is not None:  # an uncaught exception, not a verdict
                return Outcome(case, ERRORED, detail=f"crashed: {crash.what} {tail}".strip())
        if code not in (0, self.invalid_exit):
            return Outcome(case, ERRORED, detail=f"exit code {code} {tail}".strip())
        return judge(case, code == 0)

    def ask(self, position: dict, depth: Optional[int]) -> moves.Answer:
        """One request of a rules engine: the prefix on standard input, the request in the
        environment (SGN_REQUEST=moves, SGN_PLAYERS, SGN_HIDDEN, SGN_DEPTH), the answer on
        standard output (a move a line, or the count) with the exit code 0."""
        if self.broken:
            return moves.Answer("errored", text=self.broken)
        env = dict(os.environ, SGN_REQUEST="moves", SGN_CASE_ID=position["id"], SGN_HIDDEN=position["hidden"])
        env.update({"SGN_PLAYERS": str(position["players"])} if position["players"] else {})
        env.update({"SGN_DEPTH": str(depth)} if depth else {})
        try:
            process = ImplProcess(self.argv, lines=True, env=env)
        except OSError as error:
            raise CannotStart(f"cannot run {self.argv[0]}: {error.strerror or error}") from None
        self.current = process
        try:
            code = process.communicate(position["data"].encode("utf-8"), time.monotonic() + self.timeout)
            said = process.output()
        except TimedOut as error:
            self.late += 1
            if self.late >= MAX_TIMEOUTS_IN_A_ROW:
                self.broken = f"gave up after {self.late} requests in a row with no answer within {self.timeout:g} s"
            return moves.Answer("errored", text=f"{error} within {self.timeout:g} s", stderr=process.stderr_tail)
        except ImplError as error:
            return moves.Answer("errored", text=str(error), stderr=process.stderr_tail)
        finally:
            self.current = None
            process.kill()
        self.late = 0
        if code != 0:
            crash = process.crash()
            why = f"crashed: {crash.what}" if crash is not None else ended_by(code)
            return moves.Answer("errored", text=why, stderr=process.stderr_tail)
        answer = _answer(said, depth)
        answer.stderr = process.stderr_tail  # (kept where the position fails: moves.judge)
        return answer


MAX_COUNT_DIGITS = 40  # a perft count longer than this is no count (10**40 moves)


def _answer(said: bytes, depth: Optional[int]) -> moves.Answer:
    """A rules engine's answer in simple mode: the count, or one JSON move a line."""
    text = said.decode("utf-8", "replace")
    if depth:
        count = text.strip()
        # (digits of ASCII only: "²" is a digit to Python, and int() refuses it, and a count
        # past MAX_COUNT_DIGITS is none a perft reaches; int() refuses 4,301 digits)
        if not (count.isascii() and count.isdigit()) or len(count) > MAX_COUNT_DIGITS:
            return moves.Answer("errored", text=f"not a count: {count[:80]!r}")
        return moves.Answer("count", count=int(count))
    found = []
    for line in text.splitlines():
        if line.strip():
            try:
                if too_deep(line, MAX_DEPTH) is not None:
                    raise ValueError("nested too deep")
                found.append(json.loads(line))
            except (ValueError, RecursionError):
                return moves.Answer("errored", text=f"not a JSON move a line: {line[:80]!r}")
    return moves.Answer("moves", moves=found)


# -- persistent mode -------------------------------------------------------------------------------


def _line(message: dict) -> bytes:
    return (json.dumps(message) + "\n").encode()


def _shows(crash: Optional[Signature]) -> str:
    """What a failure's detail adds when standard error showed a crash."""
    return "" if crash is None else f"; its standard error shows {crash.what}"


class PersistentRunner:
    """One long-lived process speaking newline-delimited JSON. A reply is read into what
    is kept of it (`reply`) before the next is read, and a failure's exception is
    gone before the process is restarted: it would hold the parsed reply."""

    def __init__(self, impl, timeout: float, *, codes=False, state=False, depth=None, departures=(), **_):
        self.argv = command(impl)
        self.timeout = timeout
        self.compare = dict(codes=codes, state=state)
        self.depth, self.departures = depth, list(departures)  # (a rules engine's positions: moves.py)
        self.process: Optional[ImplProcess] = None
        self.info: Dict[str, Any] = {"name": " ".join(self.argv), "language": "?"}
        self.seq = 0
        self.restarts = 0
        self.broken: Optional[str] = None
        self.interrupted = False  # the run is ending: no process is started again
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
            stderr, crash = self.process.take_stderr() if self.process is not None else ("", None)
            self.kill()
            said = "".join(f"\n  | {line}" for line in stderr.strip().splitlines()[-STDERR_LINES:])
            raise CannotStart(
                f"{' '.join(self.argv)} did not start: {self._explain(error)}{_shows(crash)}"
                + (f"; its standard error ends:{said}" if said else "")
            ) from None

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

    def interrupt(self) -> None:
        """Kill the process group, from any thread: the case running ends, and the process is
        not started again (that one could outlive the run); `kill` cleans up."""
        self.interrupted = True
        process = self.process
        if process is not None:
            process.terminate()

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
        extension = case.get("extension")
        extensions = self.info.get("extensions")
        if extension is not None and not (isinstance(extensions, list) and extension in extensions):
            # (opt in, unlike levels and profiles: an extension is read only where said)
            return f"the extension {extension} (schema/ERRATA.md) is not among those it reads"
        return ""

    def _restart(self) -> None:
        self.kill()
        if self.interrupted:
            self.broken = "the run was interrupted"
            return
        if self.restarts >= MAX_RESTARTS:
            self.broken = f"gave up after {MAX_RESTARTS} restarts"
            return
        self.restarts += 1
        try:
            self.start()
        except CannotStart as error:  # it started before: the cases left are errored
            self.broken = str(error)

    def run(self, case: dict) -> Outcome:
        if self.process is None and self.broken is None:
            self.start()
        if self.process is None:
            return Outcome(case, ERRORED, detail=self.broken or "not running")
        if case.get("kind") == moves.TAG:
            if not isinstance(self.info.get("moves"), dict):
                return Outcome(
                    case, UNDECLARED, detail="it does not declare moves (a rules engine) in its answer to start"
                )
            return moves.judge(
                self.ask, case, moves.departures_of(self.info, self.departures), self.depth, self.timeout
            )
        undeclared = self._undeclared(case)
        if undeclared:
            return Outcome(case, UNDECLARED, detail=undeclared)
        self.seq += 1
        payload = {k: case[k] for k in ("id", "level", "kind", "input", "input_encoding") if k in case}
        payload.update(profile=case.get("profile", "strict"), data=base64.b64encode(corpus.case_bytes(case)).decode())
        deadline = time.monotonic() + self.timeout  # for sending the case, receiving and checking the reply
        try:
            self.process.send(_line({"cmd": "run", "seq": self.seq, "case": payload}), deadline)
            reply = self.replies.run(self.process.receive(deadline), self.seq, deadline)
            failure = None
        except (ProtocolError, ImplError) as error:
            failure = self._explain(error)
        stderr, crash = self.process.take_stderr()
        if failure is not None:  # a reply is the implementation's word, whatever it logged; a failure may be a crash
            failure += _shows(crash)
            self._restart()
            return with_stderr(Outcome(case, ERRORED, detail=failure), stderr)
        if reply.kind == "skipped":
            return Outcome(case, SKIPPED, detail=reply.text)
        if reply.kind == "errored":
            return with_stderr(Outcome(case, ERRORED, detail=reply.text), stderr)
        return with_stderr(judge(case, bool(reply.valid), reply=reply, **self.compare), stderr)

    def ask(self, position: dict, depth: Optional[int]) -> moves.Answer:
        """One `moves` request (schema/harness/v1/protocol.json), its reply read as `run`'s is."""
        if self.process is None and self.broken is None:
            self.start()
        if self.process is None:
            return moves.Answer("errored", text=self.broken or "not running")
        self.seq += 1
        data = base64.b64encode(position["data"].encode("utf-8")).decode()
        request = {"cmd": "moves", "seq": self.seq, "position": dict(position, data=data)}
        request.update({"depth": depth} if depth else {})
        deadline = time.monotonic() + self.timeout
        try:
            self.process.send(_line(request), deadline)
            kind, said, why = self.replies.moves(self.process.receive(deadline), self.seq)
            failure = None
        except (ProtocolError, ImplError) as error:
            failure = self._explain(error)
        stderr, crash = self.process.take_stderr()
        if failure is not None:
            self._restart()
            return moves.Answer("errored", text=failure + _shows(crash), stderr=stderr)
        if kind == "count":  # (standard error kept for every answer: judge keeps it where the position fails)
            return moves.Answer(kind, count=said, stderr=stderr)
        return moves.Answer(kind, moves=said, text=why, stderr=stderr)


RUNNERS = {"simple": SimpleRunner, "persistent": PersistentRunner}
