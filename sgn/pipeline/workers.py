"""The work of `--jobs N`, shared by this process and N - 1 worker processes: items 0 to
count - 1, in chunks, given back in their order.

This process works too, rather than only waiting on N workers: on N cores it would
otherwise take a share of them (reading the results, writing the report) from the workers,
and each item it does itself needs no way back. An item it does in its turn is given as it
is done (`here`); an item done before its turn, here or in a worker, is kept as `away`
makes it (small, to travel or wait) until its turn comes.

Whoever is free takes the next chunk (a counter shared by all, under a lock held only to
move it on), so that no chunk waits behind a slow file while a process is idle. A worker
that raises sends the error back, raised here at that item's turn. A worker that dies
(killed, out of memory) loses the items it had taken and not sent: this process does them
itself once the other workers have ended, so that no item is ever missing.
"""

from __future__ import annotations

import os
import select
import signal
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

Away = Callable[[int], Any]  # an item done before its turn: what travels back, or waits
Here = Callable[[int], Any]  # an item done in its turn, in this process
Chunk = Tuple[int, int]  # items start to stop - 1


class Workers:
    """`jobs - 1` worker processes of `context` (a multiprocessing context) and this one,
    sharing items 0 to `count - 1`; started by `results`, ended by `end`."""

    def __init__(self, context: Any, count: int, jobs: int, away: Away, here: Here):
        self.context, self.count, self.jobs, self.away, self.here = context, count, jobs, away, here
        # a chunk small enough that all end together, large enough that taking one is rare
        # (32 a job: one idle while another ends its last chunk costs little)
        self.size = max(1, count // (jobs * 32))
        self.next = context.Value("q", 0)  # the first item nobody has taken yet
        self.processes: List[Any] = []
        self.links: List[Any] = []
        # whether any worker has sent something, asked after every item: one system call,
        # where `multiprocessing.connection.wait` builds a selector each time
        self.poller = select.poll() if hasattr(select, "poll") else None

    def results(self) -> Iterator[Tuple[bool, Any]]:
        """Each item in order: (True, what `here` gave) when done in its turn here, else
        (False, what `away` gave)."""
        self._start()
        kept: Dict[int, Any] = {}  # items done before their turn, here or in a worker
        turn = 0
        while turn < self.count:
            self._receive(kept, wait=False)
            if turn in kept:
                yield False, _raised(kept.pop(turn))
                turn += 1
                continue
            taken = _take(self.next, self.count, self.size, self.jobs)
            if taken is not None:
                for item in range(*taken):
                    while turn in kept:  # a worker's, come back while this chunk is done
                        yield False, _raised(kept.pop(turn))
                        turn += 1
                    if item == turn:
                        yield True, self.here(item)
                        turn += 1
                    else:
                        kept[item] = _attempted(self.away, item)
                    self._receive(kept, wait=False)  # a worker never waits long on a full pipe
            elif self.links:
                self._receive(kept, wait=True)
            else:  # every worker has ended, and this item never came back: its worker died
                yield True, self.here(turn)
                turn += 1

    def end(self) -> None:
        """End the workers (at the end, on an error, or on Ctrl-C) and wait for them."""
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join()
        for link in self.links:
            link.close()
        self.processes, self.links = [], []

    def _start(self) -> None:
        # Ctrl-C is held back while the workers start (one forked before it ignores Ctrl-C
        # would die of it, with a traceback), and arrives here as soon as they are up
        hold = hasattr(signal, "pthread_sigmask")
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hold else None
        try:
            for _ in range(min(self.jobs, self.count) - 1):
                link, back = self.context.Pipe(duplex=False)
                process = self.context.Process(
                    target=_work, args=(self.next, self.count, self.size, self.jobs, self.away, back), daemon=True
                )
                process.start()
                back.close()  # the worker's end: once it ends, reading here says so
                self.processes.append(process)
                self.links.append(link)
                if self.poller is not None:
                    self.poller.register(link.fileno(), select.POLLIN)
        finally:
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def _receive(self, kept: Dict[int, Any], wait: bool) -> None:
        """What the workers have sent, into `kept`; with `wait`, at least one message or
        the end of a worker."""
        from multiprocessing.connection import wait as ready

        if not wait and self.poller is not None and not self.poller.poll(0):
            return
        timeout = None if wait else 0
        while self.links:
            heard: List[Any] = ready(self.links, timeout)
            if not heard:
                return
            for link in heard:
                try:
                    item, value = link.recv()
                except (EOFError, OSError):  # the worker has ended, and nothing is on its way
                    self.links.remove(link)
                    if self.poller is not None:
                        self.poller.unregister(link.fileno())
                    link.close()
                    continue
                kept[item] = value
            timeout = 0


class _Failed:
    """An error raised in a worker, to be raised here at its item's turn."""

    def __init__(self, error: BaseException):
        self.error = error


def _attempted(away: Away, item: int) -> Any:
    """What `away` makes of an item, or the error it raises (to be raised at the item's turn)."""
    try:
        return away(item)
    except Exception as error:
        return _Failed(error)


def _raised(value: Any) -> Any:
    if isinstance(value, _Failed):
        raise value.error
    return value


def _take(next: Any, count: int, size: int, jobs: int) -> Optional[Chunk]:
    """The next chunk of items nobody has taken, None when none is left: at most `size`,
    fewer toward the end, so that all end at about the same time."""
    with next.get_lock():
        start = next.value
        if start >= count:
            return None
        next.value = start + max(1, min(size, (count - start) // (2 * jobs)))
    return start, next.value


def _work(next: Any, count: int, size: int, jobs: int, away: Away, back: Any) -> None:
    """A worker: chunk after chunk, each item sent back as `away` makes it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is this process's to handle
    try:
        while True:
            taken = _take(next, count, size, jobs)
            if taken is None:
                break
            for item in range(*taken):
                back.send((item, _attempted(away, item)))
    except Exception:
        pass  # this process has gone, or an error would not pickle: it is done again here
    finally:
        back.close()
        os._exit(0)  # no exit handlers: they belong to the process this one was forked from
