"""A bot that is a program in any language: started once, spoken to in JSON lines on its
standard input and output (docs/protocol.md), its standard error kept.

Nothing a program does can hang or crash the referee: every read has a deadline, a line
longer than `protocol.MAX_LINE_BYTES` or too many lines that answer nothing are a flood, a
closed pipe or an exit is a crash, and a line that is no reply is garbage. A program that
faulted is stopped and started afresh for its next game.
"""

from __future__ import annotations

import os
import selectors
import shlex
import subprocess
import time
from typing import Any, Dict, List, Optional, Tuple

from . import protocol
from .protocol import CRASH, FLOOD, GARBAGE, TIMEOUT, Fault

HELLO_SECONDS = 10.0  # how long a program may take to start and say hello
SPIN_SECONDS = 0.0003  # how long a reply is looked for before the referee sleeps on it, where a core is free
STDERR_KEPT = 64 * 1024  # the last bytes of a program's standard error kept for the report


class Program:
    """A program at a seat (`command`: a command line, split as a shell would, not run by one)."""

    def __init__(self, name: str, command: str, options: Optional[Dict[str, Any]] = None, spin: float = 0.0):
        self.name, self.command, self.options = name, command, options or {}
        self.spin = spin  # seconds a reply is looked for without sleeping (`_spin`)
        self.process: Optional[subprocess.Popen] = None
        self.buffer = b""
        self.err_tail = bytearray()  # the last STDERR_KEPT bytes of its standard error, drained as it is read
        self.hello: Dict[str, Any] = {}
        self.broken: Optional[Fault] = None  # why the program cannot go on (it is restarted for the next game)
        self.outbox: List[Dict[str, Any]] = []  # events told, sent with the next request (one write)
        self.selector: Any = None

    # -- the process -------------------------------------------------------------------------
    def _launch(self) -> Optional[Fault]:
        self.close()
        try:
            self.process = subprocess.Popen(
                shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        except (OSError, ValueError) as error:
            return Fault(CRASH, f"cannot start {self.command!r}: {error}")
        assert self.process.stdout is not None and self.process.stderr is not None
        os.set_blocking(self.process.stdout.fileno(), False)
        os.set_blocking(self.process.stderr.fileno(), False)
        self.err_tail = bytearray()
        self.buffer, self.broken, self.outbox = b"", None, []
        fault = self._send([protocol.hello(self.options)])
        if fault is not None:
            return fault
        line = self._line(time.monotonic() + HELLO_SECONDS)
        if isinstance(line, Fault):
            return line
        try:
            self.hello = protocol.read_hello(protocol.decode(line))
        except (ValueError, RecursionError) as error:
            return Fault(GARBAGE, f"no hello: {error}")
        return None

    def _send(self, messages: List[Dict[str, Any]]) -> Optional[Fault]:
        process = self.process
        assert process is not None and process.stdin is not None
        data = protocol.encode(self.outbox + messages)
        self.outbox = []
        try:
            process.stdin.write(data)
            process.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            return self._crashed()
        return None

    def _crashed(self) -> Fault:
        process = self.process
        code = process.poll() if process is not None else None
        return Fault(
            CRASH, f"the program exited (status {code})" if code is not None else "the program closed its input"
        )

    def _line(self, deadline: float) -> Any:
        """The next line from the program (bytes, without its end), or a `Fault`."""
        process = self.process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        if self.selector is None:
            self.selector = selectors.DefaultSelector()
            self.selector.register(fd, selectors.EVENT_READ)
            assert process.stderr is not None
            self.selector.register(process.stderr.fileno(), selectors.EVENT_READ, "stderr")
        if self.spin and b"\n" not in self.buffer:
            self._spin(fd, deadline)
        while b"\n" not in self.buffer:
            if len(self.buffer) > protocol.MAX_LINE_BYTES:
                return Fault(FLOOD, f"a line longer than {protocol.MAX_LINE_BYTES} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                return Fault(TIMEOUT, "no answer before the deadline")
            ready = self.selector.select(left)
            if not ready:
                continue
            if any(key.data == "stderr" for key, _ in ready):
                self._drain()
                if all(key.data == "stderr" for key, _ in ready):
                    continue
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                process.wait(timeout=1) if process.poll() is None else None
                return self._crashed()
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        if len(line) > protocol.MAX_LINE_BYTES:
            return Fault(FLOOD, f"a line longer than {protocol.MAX_LINE_BYTES} bytes")
        return line

    def _spin(self, fd: int, deadline: float) -> None:
        """What the program writes within `spin` seconds, read without sleeping. A process
        that sleeps on a pipe is woken from another core, which costs a virtual machine more
        than a random bot's whole move. Looked for only where a core is free for it (`sgn play
        -j 1` on two), and never past the reply's deadline (docs/performance.md, "Playing")."""
        end = min(time.monotonic() + self.spin, deadline)
        while time.monotonic() < end and len(self.buffer) <= protocol.MAX_LINE_BYTES:
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                continue
            except OSError:
                return
            if not chunk:
                return  # (its end: the loop after sees it)
            self.buffer += chunk
            if b"\n" in chunk:
                return

    def _drain(self, process: Optional[subprocess.Popen] = None) -> None:
        """What the program wrote to standard error since, its tail kept (never more than
        STDERR_KEPT bytes held, however much it writes)."""
        process = process or self.process
        if process is None or process.stderr is None or process.stderr.closed:
            return
        for _ in range(64):  # (at most 4 MiB a call: a program that writes without end waits its turn)
            try:
                chunk = os.read(process.stderr.fileno(), 1 << 16)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                if self.selector is not None:
                    try:
                        self.selector.unregister(process.stderr.fileno())
                    except (KeyError, ValueError):
                        pass
                return
            self.err_tail += chunk
            if len(self.err_tail) > STDERR_KEPT:
                del self.err_tail[: len(self.err_tail) - STDERR_KEPT]

    # -- the seat ----------------------------------------------------------------------------
    def start(self, info: Dict[str, Any]) -> Optional[Fault]:
        if self.process is None or self.broken is not None or self.process.poll() is not None:
            fault = self._launch()
            if fault is not None:
                self.broken = fault
                return fault
        fault = self._send([info])
        if fault is not None:
            self.broken = fault
        return fault

    def tell(self, messages: List[Dict[str, Any]]) -> None:
        """Events wait for the next request (one write for both); the result goes at once."""
        if self.broken is None and self.process is not None:
            self.outbox += messages
            if messages and messages[-1]["type"] == "result":
                fault = self._send([])
                if fault is not None:
                    self.broken = fault

    def ask(self, request: Dict[str, Any], offers: bool) -> Tuple[Any, float]:
        start = time.monotonic()
        if self.broken is not None:
            return self.broken, 0.0
        fault = self._send([request])
        if fault is not None:
            self.broken = fault
            return fault, time.monotonic() - start
        deadline = start + request["deadline_ms"] / 1000
        for _ in range(protocol.MAX_STRAY_LINES):
            line = self._line(deadline)
            if isinstance(line, Fault):
                self.broken = line  # (a late answer would answer the wrong request: start afresh)
                return line, time.monotonic() - start
            try:
                value = protocol.decode(line)
            except (ValueError, RecursionError):  # (RecursionError: arrays nested past the parser's depth)
                return Fault(GARBAGE, f"not JSON: {line[:80]!r}"), time.monotonic() - start
            if isinstance(value, dict) and value.get("type") == "log":
                continue  # (a bot's own note: allowed, and kept out of the game)
            return protocol.read_reply(
                value, request["id"], request["moves"], offers, request
            ), time.monotonic() - start
        self.broken = Fault(FLOOD, f"{protocol.MAX_STRAY_LINES} lines that answer nothing")
        return self.broken, time.monotonic() - start

    @property
    def offers(self) -> bool:
        """Whether the program may offer trades: not when its hello said `"offers": false`."""
        return self.hello.get("offers") is not False

    @property
    def stderr(self) -> str:
        """The last bytes the program wrote to its standard error."""
        if self.process is not None:
            self._drain()
        return self.err_tail.decode("utf-8", "replace")

    def close(self) -> None:
        process, self.process = self.process, None
        if self.selector is not None:
            self.selector.close()
            self.selector = None
        self.outbox = []
        if process is not None:
            try:
                if process.stdin is not None:
                    process.stdin.close()
            except OSError:
                pass
            try:
                process.wait(timeout=0 if self.broken is not None else 1)  # (a program that faulted is not waited for)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
            if process.stderr is not None:
                self._drain(process)  # (what it said last, kept for the report)
                process.stderr.close()
