"""An implementation's process under the conformance harness, in bounded time, memory and processes.

The process starts in a session of its own, so that its whole process group
(whatever it forked) is killed when its case or its run is over. Its pipes are
non-blocking and served by one loop with a deadline, so that writing into a
pipe nobody reads, waiting for a reply that never comes or for a process that
never exits all end at the deadline; what it prints is read in bounded memory
(MAX_OUTPUT_BYTES). The end of the process, not of its pipes, is its answer: a
child holding them cannot make the harness wait. What it prints besides its replies
(standard error; in simple mode standard output too) is scanned for a crash as it is
read, all of it (`crash.CrashScanner`), though only its tail is kept. It runs with colour
off (`colourless`): what it prints is read by the harness, not shown on a terminal, and a
runtime's crash report in colour is not the report its signature describes. POSIX only.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from typing import Callable, Dict, List, Mapping, Optional, Tuple

from .crash import CrashScanner, Signature

MAX_OUTPUT_BYTES = 1 << 20  # one reply line (persistent mode); all a case prints, stdout and stderr (simple mode)
STDERR_TAIL = 4096  # what is kept of standard error, for the report
_CHUNK = 1 << 16
_POLL = (0.001, 0.05)  # without a pidfd, how often to look whether the process ended (backing off)
_LONGEST_WAIT = 3600.0  # one wait of the loop at most (a time-out of 1e300 s is one, and the system takes no such wait)
_DONE, _ENDED, _LATE = "done", "ended", "late"
# What asks the runtimes an implementation may be written in for no colour (NO_COLOR is
# everyone's; Python 3.13 reads PYTHON_COLORS first), and what would force colour on.
COLOUR_OFF = {"NO_COLOR": "1", "PYTHON_COLORS": "0", "NODE_DISABLE_COLORS": "1"}
COLOUR_FORCED = ("FORCE_COLOR", "CLICOLOR_FORCE")


def colourless(environ: Mapping[str, str]) -> Dict[str, str]:
    """`environ` asking for no colour: FORCE_COLOR (common in CI) and its like taken out,
    NO_COLOR and each runtime's own switch put in. An implementation that must have colour
    says so in its command (`env FORCE_COLOR=1 node impl.js`): the command runs after this."""
    env = {key: value for key, value in environ.items() if key not in COLOUR_FORCED}
    env.update(COLOUR_OFF)
    return env


class ImplError(Exception):
    """The implementation did not do its part: the message says what happened."""


class TimedOut(ImplError):
    """The deadline passed (the message says what was missing, the caller adds the time-out)."""


class TooMuchOutput(ImplError):
    """The implementation printed more than MAX_OUTPUT_BYTES."""


class Ended(ImplError):
    """The process ended, or closed its pipes, in the middle of a conversation."""


def _pidfd(pid: int) -> Optional[int]:
    """A descriptor that becomes readable when the process ends (Linux), so that no polling is needed."""
    try:
        # only Linux has it: the ignore is needed when mypy checks for another platform
        return os.pidfd_open(pid)  # type: ignore[attr-defined, unused-ignore]
    except (AttributeError, OSError):
        return None


def ended_by(code: int) -> str:
    """How a process with this exit code ended (negative: the signal that ended it)."""
    if code >= 0:
        return f"exit code {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"


class ImplProcess:
    """One process of an implementation. `lines`: keep standard output as reply lines
    (persistent mode); otherwise count and discard it (simple mode). Either way the tail
    of standard error is kept; in simple mode it counts against MAX_OUTPUT_BYTES with
    standard output, in persistent mode (a long-lived process may log much) it does not.
    Whatever is not a reply is scanned for a crash's signature (`crash`, `take_stderr`).
    `env` is its environment (by default this one's), with colour off (`colourless`).

    Longer than 250 lines: one process's whole life (start, send, the reply or the crash,
    the time-out, the end) in one place, so that no state of it is shared with another.
    """

    def __init__(self, argv: List[str], *, lines: bool, env: Optional[Mapping[str, str]] = None):
        self.lines = lines
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env=colourless(os.environ if env is None else env),
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None  # both are PIPE
        self._streams = {f.fileno(): f for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr) if f}
        for fd in self._streams:
            os.set_blocking(fd, False)
        self._stdin: Optional[int] = self.proc.stdin.fileno()
        self._stdout = self.proc.stdout.fileno()
        self._reading = [fd for fd in self._streams if fd != self._stdin]
        self._pending = memoryview(b"")
        self._close_when_written = False
        self.input_refused = False  # it closed its standard input (or ended) before reading it all
        self._out = bytearray()  # standard output not yet taken as a line (lines mode)
        self._err = bytearray()  # the tail of standard error
        self.printed = 0  # bytes counted against MAX_OUTPUT_BYTES (simple mode)
        self._scanners = {fd: CrashScanner() for fd in self._reading if not (lines and fd == self._stdout)}
        self._selector = selectors.DefaultSelector()
        self._watched: Dict[int, int] = {}
        self._pidfd = _pidfd(self.proc.pid)
        if self._pidfd is not None:
            self._selector.register(self._pidfd, selectors.EVENT_READ)
        self._killed = False

    # -- what the callers use --------------------------------------------------------------

    def send(self, data: bytes, deadline: float) -> None:
        """Write all of `data` to standard input before the deadline."""
        self._pending = memoryview(data)
        state = self._pump(deadline, lambda: not self._pending)
        if state == _LATE:
            raise TimedOut("the request was not read")
        if self.input_refused or state == _ENDED:
            raise Ended(self._gone(deadline, "stopped reading"))

    def receive(self, deadline: float) -> bytes:
        """The next line of standard output (without its newline), read before the deadline."""

        def ready():
            return (
                self._out.find(b"\n", 0, MAX_OUTPUT_BYTES + 1) >= 0
                or len(self._out) > MAX_OUTPUT_BYTES
                or self._stdout not in self._reading
            )

        state = self._pump(deadline, ready)
        end = self._out.find(b"\n", 0, MAX_OUTPUT_BYTES + 1)
        if end >= 0:
            line = bytes(self._out[:end])
            del self._out[: end + 1]
            return line
        if len(self._out) > MAX_OUTPUT_BYTES:
            raise TooMuchOutput(f"a reply longer than {MAX_OUTPUT_BYTES} bytes (the limit)")
        if self._out and self._stdout not in self._reading:  # a last line without its newline
            line = bytes(self._out)
            self._out.clear()
            return line
        if state == _LATE:
            raise TimedOut("no answer")
        raise Ended(self._gone(deadline, "closed its output"))

    def communicate(self, data: bytes, deadline: float) -> int:
        """Feed `data` to standard input while reading the output, until the process ends
        (it may end before reading its input: that is its answer); then kill its group.
        The exit code (negative: the signal that ended it)."""
        self._pending = memoryview(data)
        self._close_when_written = True
        if not data:
            self._close(self._stdin)
        if self._pump(deadline, lambda: False) == _LATE:
            raise TimedOut("no verdict")
        return self.kill()

    def output(self) -> bytes:
        """What it wrote to standard output not taken as a line yet (lines mode): all of it,
        once it ended, for a simple-mode answer that is more than an exit code."""
        said = bytes(self._out)
        self._out.clear()
        return said

    def wait(self, deadline: float) -> bool:
        """Whether the process ended before the deadline (reading its output meanwhile)."""
        return self._pump(deadline, lambda: False) == _ENDED

    @property
    def stderr_tail(self) -> str:
        return self._err.decode("utf-8", "replace")

    def crash(self) -> Optional[Signature]:
        """The signature of a crash in what it printed (besides its replies) since the
        last `take_stderr`, or None; its last line is searched even without a newline."""
        found = [scanner.finish() for scanner in self._scanners.values()]
        return next((f for f in found if f is not None), None)

    def take_stderr(self) -> Tuple[str, Optional[Signature]]:
        """The tail of what it wrote to standard error since the last call (what is waiting
        in the pipe included), for the case that just ran, and the signature of a crash
        in all of it (None when none)."""
        stderr = self._stderr_fd()
        while stderr in self._reading and self._read(stderr):
            pass
        text, crash = self.stderr_tail, self.crash()
        self._err.clear()
        self._scanners = {fd: CrashScanner() for fd in self._scanners}
        return text, crash

    def _stderr_fd(self) -> Optional[int]:
        return self.proc.stderr.fileno() if self.proc.stderr and not self.proc.stderr.closed else None

    def terminate(self) -> None:
        """Kill the whole process group and nothing more: safe from another thread, whose
        loop then sees the process end and cleans up with `kill`."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass

    def kill(self) -> int:
        """Kill the whole process group, reap the process and close the pipes (again: a no-op).
        The exit code; -9 when it was killed, or could not be reaped."""
        if not self._killed:
            self._killed = True
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            for fd in list(self._streams):
                self._close(fd)
            self._selector.close()
            if self._pidfd is not None:
                os.close(self._pidfd)
        return self.proc.returncode if self.proc.returncode is not None else -signal.SIGKILL

    # -- the loop ------------------------------------------------------------------------------

    def _pump(self, deadline: float, done: Callable[[], bool]) -> str:
        """Write the pending input and read the output until done(), the process's end
        (what it printed before is read first) or the deadline."""
        delay = _POLL[0]
        while not done():
            if self._status() is not None:
                self._drain()
                return _DONE if done() else _ENDED
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return _LATE
            if self._stdin is not None:
                self._watch(self._stdin, selectors.EVENT_WRITE if self._pending else 0)
            for fd in self._reading:
                self._watch(fd, selectors.EVENT_READ if self._wants(fd) else 0)
            events = self._selector.select(min(remaining, _LONGEST_WAIT if self._pidfd is not None else delay))
            if not events:
                delay = min(delay * 2, _POLL[1])
            for key, _ in events:
                if key.fd == self._stdin:
                    self._write(key.fd)
                elif key.fd in self._reading:
                    self._read(key.fd)
        return _DONE

    def _status(self) -> Optional[int]:
        """The exit code once the process has ended, without reaping it: its group id
        stays taken until the group is killed."""
        if self.proc.returncode is not None:
            return self.proc.returncode
        if not hasattr(os, "waitid"):
            return self.proc.poll()
        try:
            ended = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.proc.poll()
        if ended is None or ended.si_pid == 0:
            return None
        return ended.si_status if ended.si_code == os.CLD_EXITED else -ended.si_status

    def _gone(self, deadline: float, alive: str) -> str:
        """Why the conversation stopped: the exit code, once the process ends (given a moment)."""
        if self._status() is None:
            self._pump(min(deadline, time.monotonic() + 1), lambda: False)
        code = self._status()
        return f"the process ended ({ended_by(code)})" if code is not None else f"the process {alive}"

    def _wants(self, fd: int) -> bool:
        return not (self.lines and fd == self._stdout and len(self._out) > MAX_OUTPUT_BYTES)

    def _watch(self, fd: int, events: int) -> None:
        old = self._watched.get(fd, 0)
        if events == old:
            return
        if not events:
            try:
                self._selector.unregister(fd)
            except (KeyError, ValueError):  # (unwatched already: an interrupted run's kill, from another thread)
                pass
            self._watched.pop(fd, None)
        else:
            (self._selector.modify if old else self._selector.register)(fd, events)
            self._watched[fd] = events

    def _close(self, fd: Optional[int]) -> None:
        if fd is None or fd not in self._streams:
            return
        self._watch(fd, 0)
        stream = self._streams.pop(fd, None)  # (None: closed meanwhile, by an interrupted run's kill)
        if stream is None:
            return
        if fd == self._stdin:
            self._stdin = None
            self._pending = memoryview(b"")
        if fd in self._reading:
            self._reading.remove(fd)
        try:
            stream.close()
        except OSError:
            pass

    def _write(self, stdin: int) -> None:
        try:
            written = os.write(stdin, self._pending[:_CHUNK])
        except BlockingIOError:
            return
        except OSError:  # a broken pipe: it closed its input, or ended
            self.input_refused = True
            self._close(stdin)
            return
        self._pending = self._pending[written:]
        if not self._pending and self._close_when_written:
            self._close(stdin)

    def _read(self, fd: int) -> bool:
        """Read once what is there; False when nothing was (or at the end of the stream)."""
        size = _CHUNK
        if self.lines and fd == self._stdout:
            size = min(size, MAX_OUTPUT_BYTES + 1 - len(self._out))
        try:
            chunk = os.read(fd, size)
        except BlockingIOError:
            return False
        except OSError:
            chunk = b""
        if not chunk:
            self._close(fd)
            return False
        if fd in self._scanners:
            self._scanners[fd].feed(chunk)
        if self.lines and fd == self._stdout:
            self._out += chunk
            return True
        if fd != self._stdout:
            self._err += chunk
            del self._err[:-STDERR_TAIL]
            if self.lines:
                return True
        self.printed += len(chunk)
        if self.printed > MAX_OUTPUT_BYTES:
            raise TooMuchOutput(f"printed more than {MAX_OUTPUT_BYTES} bytes (the limit for one case)")
        return True

    def _drain(self) -> None:
        """Read what the ended process left in its pipes (what its children add, to the limit)."""
        for fd in list(self._reading):
            while fd in self._reading and self._wants(fd) and self._read(fd):
                pass
