"""`sgn validate --dask ADDRESS|local[:N]`: the files checked on a Dask cluster, the report
the same, byte for byte, as one process's, in the files' order.

A task checks a batch of consecutive files, each whole, with the code `--jobs` runs
(`jobs.check_one`), and sends back each file's `Result` (sgn/pipeline/result.py). The batches in flight are a bounded window, so that
neither the scheduler nor this process holds a task or a result per file of a million.
Batches shrink toward the end (`_batches`): a task costs its worker a few milliseconds of
Dask's own work, so the early ones are large, and the last ones small, so that the workers
end together.

A file's diagnostics are bounded on their way back. Up to INLINE of them travel with the
file's result. Past that, on a local cluster (`local[:N]`, which shares this machine's disk),
the worker writes them all to a spool in a private folder, which this process reads, one
diagnostic at a time, and deletes; on a cluster given by its address (no shared disk), the
result says how many there are, and this process asks for the rest in parts of PART, each a
task that checks the file again and keeps only its part. Either way no process holds more
than PART diagnostics of a file; the price of a file with millions on a remote cluster is a
check per part.

A worker that dies takes its tasks with it: Dask runs them again on another worker, up to
`distributed.scheduler.allowed-failures` times. A batch that still fails is split, each file
tried alone. A worker that dies takes with it every task it held, an innocent file's too,
so a file whose worker died again is tried once more with nothing else of the run on the
cluster, and only a file that kills its worker then too is reported with a `worker-lost`
diagnostic: no file is ever missing from the report, and no file is reported lost for
another's fault. An error the check itself raises (not a worker's death)
ends the run at its file, as in one process.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import deque
from itertools import islice
from typing import Any, Callable, Deque, Generator, Iterator, List, Optional, Sequence, Tuple

from ..diagnostic import Diagnostic, make
from ..layers.reader import STDIN_NAME, describe
from ..packaged import SetupError, install_hint
from ..pipeline import executors as jobs
from ..pipeline.executors import warm_up
from ..pipeline.files import is_url
from ..pipeline.remote import source_of
from ..pipeline.result import VALID, Result, Streamed, count
from .targets import check_address, client, parse_target

DASK_PACKAGE = "'dask[distributed]'"  # what --dask needs, as pip is told it

INLINE = 256  # diagnostics of a file sent back with its result
PART = 10_000  # diagnostics of a file sent back by one later task, on a remote cluster
BATCH = 128  # files checked by one task, at most
LAST_BATCH = 4  # files of the smallest batch, toward the end (unless fewer are left)
CONNECT_TIMEOUT = "20s"  # to reach a scheduler given by its address
# Dask closes a worker for good when it has not come back within `lost-worker-timeout` of
# its death (15 s: meant for a batch job that is gone). A local cluster's nanny starts it
# again, which on a loaded machine, a file killing it time after time, can outlast that; the
# run then waited for ever on a cluster of no worker. Read at each death, so held while the
# local cluster lives.
KEEP_WORKERS = {"distributed.deploy.lost-worker-timeout": "100000 days"}


class ClusterError(jobs.JobsError, SetupError):
    """The cluster cannot be used: Dask missing, a scheduler out of reach, the connection lost."""


Where = Tuple[str, str]  # a file as named on the command line, and where a worker opens it
# What a worker sends back of one file (see `jobs.pack`): its `Result`, with its diagnostics,
# all of them or the first INLINE, or the file they are all written to (local cluster, past INLINE)
Shipped = jobs.Packed


def located(path: str) -> Where:
    """A file as named here, and where a worker opens it: a local path made absolute (the
    workers have another working folder; on other machines, a shared disk must hold it)."""
    return path, (path if is_url(path) else os.path.abspath(path))


def check_one(file: Where, options: jobs.Options, spools: Optional[str]) -> Shipped:
    """On a worker: check one file and keep its diagnostics for the way back (see above)."""
    result = jobs.check_one(source_of(file[1]), describe(file[0]), options)
    return jobs.pack(result, INLINE, None if spools is None else lambda: _new_spool(spools))


def _new_spool(spools: str) -> str:
    fd, spool = tempfile.mkstemp(suffix=".spool", dir=spools)
    os.close(fd)
    return spool


def check_part(file: Where, options: jobs.Options, start: int, stop: int) -> List[tuple]:
    """On a worker: the diagnostics `start` to `stop` of a file, checked again."""
    found = jobs.check_one(source_of(file[1]), describe(file[0]), options).diagnostics
    try:
        return [tuple(diagnostic) for diagnostic in islice(found, start, stop)]
    finally:
        getattr(found, "close")()


CheckOne = Callable[[Where, jobs.Options, Optional[str]], Shipped]


def check_batch(
    files: Sequence[Where], options: jobs.Options, spools: Optional[str], one: CheckOne = check_one
) -> List[Shipped]:
    """On a worker: the files of a batch, one after another."""
    return [one(file, options, spools) for file in files]


class DaskRunner:
    """A connection to a cluster (or a local cluster started for the run): an `Executor`
    (sgn/pipeline/executors.py) whose `results` closes the connection when done."""

    def __init__(self, target: str, *, check: CheckOne = check_one, stdin: Any = None, stdin_name: str = STDIN_NAME):
        """Connect, or start the local cluster: a ClusterError says why not. `check` is what
        a worker runs on one file (the tests give one that kills its worker); '-' is read
        here, from `stdin`, named `stdin_name`."""
        try:
            address, workers = parse_target(target)
        except ValueError as error:
            raise ClusterError(f"--dask {target}: {error}") from None
        try:
            import logging

            from distributed import Client, LocalCluster
        except ImportError:
            raise ClusterError(
                f"--dask needs Dask's distributed scheduler: {install_hint('dask', DASK_PACKAGE)}"
            ) from None
        self.check = check
        self.here = jobs.InProcess(stdin, stdin_name)
        self.cluster: Any = None
        self.folder = self.spools = None  # type: Optional[str]
        self.kept: Any = None  # KEEP_WORKERS, while the local cluster lives
        try:
            if address is None:
                import dask

                self.kept = dask.config.set(KEEP_WORKERS)
                # one private folder for the workers' scratch space and the spools, removed at the end
                self.folder = tempfile.mkdtemp(prefix="sgn-dask-")
                self.spools = os.path.join(self.folder, "spools")
                os.mkdir(self.spools)
                # the workers' own statistical profiler samples the running task every 10 ms,
                # for a dashboard nobody reads here: about 4% of their time on 1,000 games;
                # the other timers (dashboard figures, memory, event-loop ticks) woken less
                # often, and no stealing (the batches are handed out as workers free up):
                # together about 2% of the run, most of it this process's (the nannies');
                # and the workers keep the memory they free (Dask sets MALLOC_TRIM_THRESHOLD_
                # so that they hand it back at once, and every file then pays its page faults
                # again: 4% of their time on 1,000 games), unless this environment sets it
                quiet = {
                    "temporary-directory": self.folder,
                    "distributed.worker.profile.enabled": False,
                    "distributed.admin.system-monitor.interval": "10s",
                    "distributed.worker.memory.monitor-interval": "1s",
                    "distributed.admin.tick.interval": "1s",
                    "distributed.scheduler.work-stealing": False,
                    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                }
                with dask.config.set(quiet):
                    self.cluster = LocalCluster(
                        n_workers=workers,
                        threads_per_worker=1,
                        processes=True,
                        local_directory=self.folder,
                        dashboard_address="127.0.0.1:0",
                        # standard error holds sgn's words only, as with one process: a
                        # worker's failure reaches sgn by its task (the file's diagnostic), and
                        # Dask's own ERROR lines were noise (a heartbeat that meets the
                        # scheduler closing, on a busy machine, printed a traceback)
                        silence_logs=logging.CRITICAL,
                    )
                self.client = Client(self.cluster, set_as_default=False)
                # what checking loads on first use, loaded now by every worker (as `--jobs`
                # workers start with it): part of the cluster's start, not of the first files
                self.client.run(warm_up)
            else:
                try:
                    check_address(address)
                except ValueError as error:
                    raise ClusterError(f"--dask {target}: not a Dask scheduler's address: {error}") from None
                self.client = client(Client, address, CONNECT_TIMEOUT)
        except ClusterError:
            self.close()
            raise
        except Exception as error:
            self.close()
            where = f"the Dask scheduler at {address}" if address else f"a local Dask cluster of {workers}"
            raise ClusterError(f"cannot reach {where}: {type(error).__name__}: {error}") from None
        present = len(self.client.scheduler_info().get("workers", {}))
        # a scheduler with no worker yet (a cluster still scaling up): the files wait for one,
        # as any Dask client's tasks do, and the command line says so (`without_workers`)
        self.without_workers = address is not None and present == 0
        self.workers = present or workers or 1

    def close(self) -> None:
        for part in ("client", "cluster"):
            thing = getattr(self, part, None)
            if thing is not None:
                try:
                    thing.close()
                except Exception:
                    pass  # closing on the way out: nothing more to tell
                setattr(self, part, None)
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = self.spools = None
        if self.kept is not None:
            self.kept.__exit__(None, None, None)
            self.kept = None

    def results(self, paths: Sequence[str], options: jobs.Options) -> Generator[Streamed, None, None]:
        """Each file's `Result`, in the order given ('-' is read here); see `jobs.Executor`."""
        try:
            yield from self._results(paths, options)
        finally:
            self.close()

    def _results(self, paths: Sequence[str], options: jobs.Options) -> Iterator[Streamed]:
        batches = _batches(paths, self.workers)
        window: Deque[Tuple[List[str], Any]] = deque()
        ahead = 4 * self.workers
        while True:
            while len(window) < ahead:
                batch = next(batches, None)
                if batch is None:
                    break
                files = [located(path) for path in batch]
                window.append(
                    (
                        batch,
                        None if batch == ["-"] else self._submit(check_batch, files, options, self.spools, self.check),
                    )
                )
            if not window:
                return
            batch, future = window.popleft()
            if future is None:
                yield from self.here.results(batch, options)
                continue
            try:
                shipped = future.result()
            except Exception as error:
                self._connected(error)
                yield from self._one_by_one(batch, options, [f for _, f in window if f is not None])
                continue
            for path, (result, spool) in zip(batch, shipped):
                yield self._received(path, options, result, spool)

    def _submit(self, function: Callable[..., Any], *args: Any) -> Any:
        return self.client.submit(function, *args, pure=False)

    def _connected(self, error: Exception) -> None:
        if self.client.status != "running":
            raise ClusterError(f"lost the connection to the Dask scheduler: {type(error).__name__}: {error}")

    def _one_by_one(self, batch: List[str], options: jobs.Options, others: List[Any]) -> Iterator[Streamed]:
        """A batch that failed, each file tried alone (`others`: the run's other tasks in
        flight); a file whose worker died again is tried once more, alone (`_alone`)."""
        futures = [self._submit(self.check, located(path), options, self.spools) for path in batch]
        for path, future in zip(batch, futures):
            try:
                shipped: Shipped = future.result()
            except Exception as error:
                self._connected(error)
                _raised_by_check(error)
                tried = self._alone(path, options, futures + others)
                if isinstance(tried, Exception):
                    yield _lost(self._lost_file(path, tried))
                    continue
                shipped = tried
            yield self._received(path, options, *shipped)

    def _alone(self, path: str, options: jobs.Options, others: List[Any]) -> Any:
        """A file checked once all the run's other tasks have ended (whose workers' deaths
        would count against it): what it sends back, or the error if its worker dies again."""
        for other in others:
            try:
                other.exception()  # waits for it to end, without fetching its result
            except Exception as error:  # it cannot end: the connection is lost, or it was cancelled
                self._connected(error)
        try:
            return self._submit(self.check, located(path), options, self.spools).result()
        except Exception as error:
            self._connected(error)
            _raised_by_check(error)
            return error

    @staticmethod
    def _lost_file(path: str, error: Exception) -> Diagnostic:
        name = describe(path)
        return make(
            "worker-lost",
            f"{name} could not be checked: the Dask worker checking it died, "
            f"on every try, the last with no other file on the cluster ({type(error).__name__}: {error})",
            file=name,
            hint="check it alone (sgn validate FILE) to see whether the file is the cause",
        )

    def _received(self, path: str, options: jobs.Options, result: Streamed, spool: Optional[str]) -> Streamed:
        """A file's `Result` as a worker sent it back, its diagnostics to come."""
        result.diagnostics = self._diagnostics(path, options, list(result.diagnostics), result, spool)
        return result

    def _diagnostics(
        self, path: str, options: jobs.Options, found: List[Diagnostic], result: Streamed, spool: Optional[str]
    ) -> Iterator[Diagnostic]:
        if spool is not None:
            yield from jobs.spooled(spool)
            return
        yield from found
        start = len(found)
        # the counts bound how many there are (one may stand for many: `occurrences`); a
        # part that comes back short is the last
        total = result.errors + result.warnings + result.infos
        while start < total:
            stop = min(total, start + PART)
            try:
                part = self._submit(check_part, located(path), options, start, stop).result()
            except Exception as error:
                self._connected(error)
                _raised_by_check(error)
                name = describe(path)
                lost = make(
                    "worker-lost",
                    f"the diagnostics of {name} after the {start:,}th were lost: the Dask "
                    f"worker checking it died ({type(error).__name__}: {error})",
                    file=name,
                )
                count(result, lost)
                yield lost
                return
            for record in part:
                yield Diagnostic(*record)
            if len(part) < stop - start:
                return
            start = stop


def _raised_by_check(error: Exception) -> None:
    """Raise `error` again unless its worker died (Dask gave up on the task): an error the
    check itself raised ends the run as it does in one process, never a worker 'lost'."""
    from distributed import KilledWorker

    if not isinstance(error, KilledWorker):
        raise error


def _lost(diagnostic: Diagnostic) -> Streamed:
    """The `Result` of a file no worker could check: `diagnostic` alone."""
    result: Streamed = Result(VALID, diagnostic.file, None)
    count(result, diagnostic)
    result.diagnostics = [diagnostic]
    return result


def batch_size(left: int, workers: int) -> int:
    """How many of the `left` files the next batch takes: a quarter of each worker's share,
    within LAST_BATCH to BATCH. (Measured on 1,000 games and 2 workers: 1.84 s once started,
    against 1.96 s with batches of 32 throughout, the same figure with 256 at most.)"""
    return max(LAST_BATCH, min(BATCH, left // (2 * workers)))


def _batches(paths: Sequence[str], workers: int) -> Iterator[List[str]]:
    """Consecutive files, fewer a batch toward the end (`batch_size` of those left when a
    batch begins); standard input alone in its own."""
    batch: List[str] = []
    size = 0
    for at, path in enumerate(paths):
        if path == "-":
            if batch:
                yield batch
            yield ["-"]
            batch = []
            continue
        if not batch:
            size = batch_size(len(paths) - at, workers)
        batch.append(path)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
