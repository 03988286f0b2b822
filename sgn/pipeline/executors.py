"""`sgn validate` over many files: checked here, one after another (`InProcess`), or by
this process and worker processes (`Pool`, sgn/pipeline/workers.py); each an `Executor`,
giving a file's `Result` (sgn/pipeline/result.py).

With `--jobs N`, a file checked in its turn (by this process) streams its diagnostics as
they are found. A file checked before its turn (by a worker, or here while a worker has
the files before it) is packed: its `Result` with its diagnostics when they are few
(INLINE at most, as most files with any have). Past that, they are all written, as they
are found, to a spool file of the file's own (one pickled tuple a diagnostic) in a private
temporary folder, and the spool's name goes with the `Result` instead. This process reads
the spools in the order of the files, hands each diagnostic on as it reads it, and deletes
each spool once read. So no process holds more than INLINE diagnostics of a file, however
many it has, and the output is the same, byte for byte, as with one job. (A spool costs a
file about 0.1 ms, made, written, read and deleted: 3% of checking an engine's game.)
The folder goes when the run ends, on an error or Ctrl-C too.
"""

from __future__ import annotations

import contextlib
import os
from typing import IO, Any, Callable, Generator, Iterator, List, NamedTuple, Optional, Protocol, Sequence, Tuple

from ..diagnostic import Diagnostic
from ..layers.reader import STDIN_NAME, describe
from ..layers.stages import AUTO
from .checking import DEFAULT as DEFAULT_CHECKING, Checking
from .engine import FileCheck
from .policy import Policy
from .remote import source_of
from .result import UNREADABLE, VALID, Result, Streamed, counting

INLINE = 32  # diagnostics of a file sent back with its result, at most (more: a spool)

# What a worker sends back of a file: its `Result`, with its diagnostics when they travel
# with it, and else the spool that holds them all (or None: the rest were only counted)
Packed = Tuple[Streamed, Optional[str]]


class Options(NamedTuple):
    """How each file of a run is checked and what is reported of it, the same in every
    executor (pickled to workers)."""

    checking: Checking = DEFAULT_CHECKING  # resolved for each file (`Checking.for_path`)
    policy: Optional[Policy] = None  # None: every diagnostic, no limit


class Executor(Protocol):
    """What runs the checks of a run: this process (`InProcess`), `--jobs` workers (`Pool`),
    or a Dask cluster (`sgn.cluster.dask_run.DaskRunner`)."""

    def results(self, paths: Sequence[str], options: Options) -> Generator[Streamed, None, None]:
        """Each file's `Result`, in the order given ('-' is standard input): its diagnostics
        stream by, what the run's policy reports of it, and its counts and verdict are whole
        once they are read. Close the iterator when done with it early: that ends the work."""
        ...


class JobsError(Exception):
    """The spools of `--jobs` cannot be made, written or read (a full disk, say)."""


def check_one(source: Any, name: Optional[str], options: Options) -> Streamed:
    """One file's check, as a `Result` whose diagnostics stream (what the run's policy,
    sgn/pipeline/policy.py, reports of it): what every executor runs on a file, so that
    the report is the same with any of them."""
    check = FileCheck(source, options.checking, name=name or describe(source), policy=options.policy)
    result: Streamed = Result(VALID, check.name, None)
    result.diagnostics = _completing(result, check)
    return result


def _completing(result: Streamed, check: FileCheck) -> Iterator[Diagnostic]:
    """The check's diagnostics, counted as they pass; then what the check tells of the file."""
    found = iter(check)
    try:
        yield from counting(result, found)
    finally:
        getattr(found, "close", lambda: None)()
    ran = check.level != AUTO and result.verdict != UNREADABLE  # a level was run
    result.messages, result.level = check.messages, (check.level if ran else None)
    result.fragment, result.games, result.game_count = check.fragment, check.games, check.game_count


class InProcess:
    """The files checked here, one after another; '-' is `stdin`, named `stdin_name` in
    the diagnostics (`--stdin-filename`)."""

    def __init__(self, stdin: Any = None, stdin_name: str = STDIN_NAME):
        self.stdin = stdin
        self.stdin_name = stdin_name

    def results(self, paths: Sequence[str], options: Options) -> Generator[Streamed, None, None]:
        """Each file's `Result`, in the order given (see `Executor`)."""
        for path in paths:
            if path == "-":
                yield check_one(self.stdin, self.stdin_name, options)
            else:
                yield check_one(source_of(path), describe(path), options)


class Pool(InProcess):
    """`--jobs N`: the files checked by this process and N - 1 workers (with one job, or
    with '-', here alone)."""

    def __init__(self, jobs: int, stdin: Any = None, stdin_name: str = STDIN_NAME):
        super().__init__(stdin, stdin_name)
        self.jobs = jobs

    def results(self, paths: Sequence[str], options: Options) -> Generator[Streamed, None, None]:
        """Each file's `Result`, in the order given (see `Executor`). With several jobs (and
        no '-'), the first file is checked here before the workers fork: they start with the
        lines it verified in their memory, and with everything it loaded (warm_up loads the
        rest)."""
        if self.jobs > 1 and len(paths) > 2 and "-" not in paths:
            yield from super().results(paths[:1], options)
            yield from _in_workers(paths[1:], options, self.jobs)
        else:
            yield from super().results(paths, options)


def pack(result: Streamed, inline: int, new_spool: Optional[Callable[[], str]]) -> Packed:
    """A worker's checked file, for the way back: its `Result` with its diagnostics when
    there are `inline` at most; past that, all of them written, as they are found, to the
    spool whose path `new_spool` gives, and that path. Without `new_spool` (a cluster with no
    shared disk), the first `inline` go back and the rest are only counted."""
    import pickle  # here, not at start-up: only workers and the spools' reader need it

    found: List[Diagnostic] = []
    spool: Optional[str] = None
    out: Optional[IO[bytes]] = None
    try:
        for diagnostic in result.diagnostics:
            if out is not None:
                pickle.dump(tuple(diagnostic), out, pickle.HIGHEST_PROTOCOL)
            elif len(found) < inline:
                found.append(diagnostic)
            elif new_spool is not None:
                spool = new_spool()
                out = open(spool, "wb")
                for record in (*found, diagnostic):
                    pickle.dump(tuple(record), out, pickle.HIGHEST_PROTOCOL)
                found = []
        if out is not None:
            out.close()  # in here: a failure of the last flush is reported too
    except OSError as error:
        if spool is None:
            raise
        if out is not None:
            with contextlib.suppress(OSError):  # what is left to flush fails again
                out.close()
        raise JobsError(
            f"cannot write a temporary file in {describe(os.path.dirname(spool))}: {error.strerror or error}"
        ) from None
    result.diagnostics = found
    return result, spool


def unpacked(packed: Packed) -> Streamed:
    """A file's `Result` as a worker packed it, its diagnostics to come (from the spool, if any)."""
    result, spool = packed
    if spool is not None:
        result.diagnostics = spooled(spool)
    return result


def spooled(spool: Optional[str]) -> Iterator[Diagnostic]:
    """The diagnostics a worker spooled, one at a time; the spool is deleted once read."""
    if spool is None:
        return
    import pickle

    try:
        with open(spool, "rb") as spooled:
            while True:
                try:
                    record = pickle.load(spooled)
                except EOFError:
                    break
                yield Diagnostic(*record)
    except OSError as error:
        raise JobsError(
            f"cannot read a temporary file in {describe(os.path.dirname(spool))}: {error.strerror or error}"
        ) from None
    finally:
        try:
            os.remove(spool)
        except OSError:
            pass  # the folder goes at the end anyway


def _in_workers(paths: Sequence[str], options: Options, jobs: int) -> Iterator[Streamed]:
    """The files checked by this process and `jobs - 1` workers (sgn/pipeline/workers.py)."""
    import multiprocessing
    import shutil
    import tempfile
    from functools import partial

    from .workers import Workers

    try:
        folder = tempfile.mkdtemp(prefix="sgn-jobs-")  # readable by its owner only
    except OSError as error:
        raise JobsError(f"cannot make a temporary folder for --jobs: {error.strerror or error}") from None
    workers = None
    try:
        warm_up()
        # fork where the system has it: the workers start at once, with what is loaded
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        away, here = partial(_checked_away, paths, folder, options), partial(_checked_here, paths, options)
        workers = Workers(context, len(paths), jobs, away, here)
        for in_turn, done in workers.results():
            yield done if in_turn else unpacked(done)
    finally:
        if workers is not None:
            workers.end()  # ends the workers and waits for them
        shutil.rmtree(folder, ignore_errors=True)


def _checked_away(paths: Sequence[str], folder: str, options: Options, index: int) -> Packed:
    """A file checked before its turn (in a worker, or here): packed to travel or wait."""
    result = _checked_here(paths, options, index)
    return pack(result, INLINE, lambda: os.path.join(folder, f"{index}.spool"))


def _checked_here(paths: Sequence[str], options: Options, index: int) -> Streamed:
    """A file checked here in its turn: its diagnostics stream as they are found."""
    path = paths[index]
    return check_one(source_of(path), describe(path), options)


def warm_up() -> None:
    """Load and build now what checking a file would load on first use (the layers, the
    compiled schema, the geometry tables), so that worker processes forked after this
    start with it ready."""
    from .. import game  # noqa: F401
    from ..layers import fastpath, places

    if fastpath.COMPILED:
        fastpath.schema_valid_value(None)
    places.warm_up()
