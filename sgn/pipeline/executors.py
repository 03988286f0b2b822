"""`sgn validate` over many files: checked here, one after another, or in worker processes.

With `--jobs N`, each worker writes a file's diagnostics, as it finds them, to a spool
file of its own (one pickled tuple a diagnostic) in a private temporary folder, and
sends back only the spool's name and the file's counts. This process reads the spools
in the order of the files, hands each diagnostic on as it reads it, and deletes each
spool once read. No process holds more than the diagnostics of one line at a time,
however many a file has, and the output is the same, byte for byte, as with one job. A file with no
diagnostic has no spool. The folder goes when the run ends, on an error or Ctrl-C too.
"""
from __future__ import annotations

import contextlib
import os
import pickle
import signal
from typing import Any, Dict, Generator, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from ..diagnostic import Diagnostic
from ..layers.reader import STDIN_NAME, describe
from .engine import FileCheck, warm_up
from .policy import Policy


class Options(NamedTuple):
    """How each file of a run is checked, the same in every executor (pickled to workers)."""

    level: str
    profile: str
    max_line_bytes: int
    policy: Optional[Policy] = None      # None: every diagnostic, no limit


class Counts(NamedTuple):
    """What a worker tells of a file besides its diagnostics (read like a `FileCheck`'s)."""

    messages: int
    level: str
    fragment: bool
    games: List[Dict[str, Any]]
    game_count: int


# (name, its diagnostics, then its counts: read them once the diagnostics are exhausted)
Result = Tuple[str, Iterator[Diagnostic], Union[FileCheck, Counts]]


class JobsError(Exception):
    """The spools of `--jobs` cannot be made, written or read (a full disk, say)."""


def results(paths: Sequence[str], options: Options, *, jobs: int = 1,
            stdin: Any = None, stdin_name: str = STDIN_NAME) -> Generator[Result, None, None]:
    """Each file's diagnostics and counts, in the order given. With several jobs (and no
    '-'), the first file is checked here before the workers fork: they start with the lines
    it verified in their memory, and with everything it loaded (warm_up loads the rest).
    '-' is standard input, named `stdin_name` in the diagnostics (`--stdin-filename`).
    Close the iterator when done with it early: that ends the workers and removes the spools."""
    if jobs > 1 and len(paths) > 2 and "-" not in paths:
        yield from _here(paths[:1], options, stdin, stdin_name)
        yield from _in_workers(paths[1:], options, jobs)
    else:
        yield from _here(paths, options, stdin, stdin_name)


def source_of(path: str) -> Any:
    """What the reader opens for a name: the path itself, or a URL read through fsspec."""
    from ..cluster.remote import RemoteFile
    from .files import is_url
    return RemoteFile(path) if is_url(path) else path


def check_file(source: Any, name: str, options: Options) -> Tuple[FileCheck, Iterator[Diagnostic]]:
    """One file's check, and the diagnostics the run's policy reports of it (sgn/pipeline/policy.py):
    what every executor runs on a file, so that the report is the same with any of them."""
    level, profile, max_line_bytes, policy = options
    check = FileCheck(source, level=level, profile=profile, name=name, max_line_bytes=max_line_bytes,
                      policy=policy)
    return check, iter(check)


def counts(check: FileCheck) -> Counts:
    return Counts(check.messages, check.level, check.fragment, check.games, check.game_count)


def _here(paths: Sequence[str], options: Options, stdin: Any, stdin_name: str) -> Iterator[Result]:
    for path in paths:
        source, name = (stdin, stdin_name) if path == "-" else (source_of(path), describe(path))
        check, found = check_file(source, name, options)
        yield name, found, check


def _ignore_interrupt() -> None:
    """Workers leave Ctrl-C to this process, which ends them and cleans up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _check_file(task: Tuple[str, str, Options]) -> Tuple[Optional[str], Counts]:
    """In a worker: check one file, its diagnostics written to `spool` as found (made only
    when there is one); the spool's path, or None, and the counts."""
    path, spool, options = task
    check, found = check_file(source_of(path), describe(path), options)
    out = None
    try:
        for diagnostic in found:
            if out is None:
                out = open(spool, "wb")
            pickle.dump(tuple(diagnostic), out, pickle.HIGHEST_PROTOCOL)
        if out is not None:
            out.close()         # in here: a failure of the last flush is reported too
    except OSError as error:
        if out is not None:
            with contextlib.suppress(OSError):      # what is left to flush fails again
                out.close()
        raise JobsError(f"cannot write a temporary file in {describe(os.path.dirname(spool))}: "
                        f"{error.strerror or error}") from None
    return (spool if out is not None else None), counts(check)


def _spooled(spool: Optional[str]) -> Iterator[Diagnostic]:
    """The diagnostics a worker spooled, one at a time; the spool is deleted once read."""
    if spool is None:
        return
    try:
        with open(spool, "rb") as spooled:
            while True:
                try:
                    record = pickle.load(spooled)
                except EOFError:
                    break
                yield Diagnostic(*record)
    except OSError as error:
        raise JobsError(f"cannot read a temporary file in {describe(os.path.dirname(spool))}: "
                        f"{error.strerror or error}") from None
    finally:
        try:
            os.remove(spool)
        except OSError:
            pass                # the folder goes at the end anyway


def _in_workers(paths: Sequence[str], options: Options, jobs: int) -> Iterator[Result]:
    import multiprocessing
    import shutil
    import tempfile

    try:
        folder = tempfile.mkdtemp(prefix="sgn-jobs-")      # readable by its owner only
    except OSError as error:
        raise JobsError(f"cannot make a temporary folder for --jobs: {error.strerror or error}") from None
    pool = None
    try:
        tasks = [(path, os.path.join(folder, f"{i}.spool"), options) for i, path in enumerate(paths)]
        jobs = min(jobs, len(paths))
        chunk = max(1, len(paths) // (jobs * 8))       # fewer round trips, still balanced
        warm_up()
        # fork where the system has it: the workers start at once, with what is loaded
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        # Ctrl-C is held back while the workers start (one forked before it ignores Ctrl-C
        # would die of it, with a traceback), and arrives here as soon as they are up
        hold = hasattr(signal, "pthread_sigmask")
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hold else None
        try:
            pool = context.Pool(jobs, initializer=_ignore_interrupt)
        finally:
            if mask is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for path, (spool, counts) in zip(paths, pool.imap(_check_file, tasks, chunksize=chunk)):
            yield describe(path), _spooled(spool), counts
    finally:
        if pool is not None:
            pool.terminate()            # ends the workers and waits for them
        shutil.rmtree(folder, ignore_errors=True)
