"""`sgn validate --jobs N`: the output of one job, byte for byte, in bounded memory; the
spools cleaned up whatever happens."""

import contextlib
import errno
import gzip
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sgn
from conftest import run_cli, sgn_in_process
from sgn.diagnostic import make
from sgn.pipeline import executors
from sgn.pipeline.result import VALID, Result, counting

GOOD = '["1","RD",{"result":8}]\n'
BAD = '["1","RD",{"result":13}]\n'
PACKAGE_ROOT = str(Path(sgn.__file__).resolve().parent.parent)
GUARD = 600  # seconds: a guard against a deadlock, never a measure of speed


def sgn_process(args, tmp, cwd, **options):
    """`python -m sgn ARGS` in `cwd`, its temporary files in `tmp` (to see what it leaves there)."""
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT, TMPDIR=str(tmp))
    return [sys.executable, "-m", "sgn", *map(str, args)], dict(env=env, cwd=str(cwd), **options)


def run_sgn(args, tmp, cwd, **options):
    command, options = sgn_process(args, tmp, cwd, capture_output=True, **options)
    return subprocess.run(command, timeout=GUARD, **options)


def one_job(args, cwd):
    """The reference output of one job (which forks no worker and writes no spool), run in
    this process: t/test_in_process.py checks that it is a process's, byte for byte."""
    return sgn_in_process(*args, cwd=cwd)


@contextlib.contextmanager
def started(args, tmp, cwd, **options):
    """`python -m sgn ARGS` running while the test drives it; killed (its whole session,
    when it has one of its own) and waited for if the test ends before it does."""
    command, options = sgn_process(args, tmp, cwd, **options)
    process = subprocess.Popen(command, **options)
    try:
        yield process
    finally:
        if process.poll() is None:
            if options.get("start_new_session"):
                os.killpg(process.pid, signal.SIGKILL)
            else:
                process.kill()
            process.wait()


@pytest.fixture
def spools(tmp_path):
    """A folder to be the runs' TMPDIR; the test fails if a run leaves anything in it."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    yield folder
    assert list(folder.iterdir()) == []


@pytest.fixture
def logs(tmp_path):
    """Files of every kind: valid, with errors and warnings, many errors, gzip, unreadable."""
    folder = tmp_path / "logs"
    folder.mkdir()
    game = run_cli("example", "game").stdout
    files = {
        "game.sgn": game,
        "errors.sgn": (GOOD + BAD + "\n" + GOOD.replace("\n", "\r\n") + "1\n" + BAD).encode(),
        # 600 errors: past both executors' inline counts (32 for -j, 256 for --dask), so spooled
        "many.sgn": (BAD + GOOD + "[1]\n") * 200,
        "inline.sgn": BAD * executors.INLINE,  # as many as travel with the result
        "past-inline.sgn": BAD * (executors.INLINE + 1),  # one more: a spool
        "packed.sgn.gz": gzip.compress((GOOD + BAD * 3).encode()),
        "surrogate.sgn": b'["1","RD",{"result":"\\udcff"}]\n["1","\\ud800",1]\n',
        "empty.sgn": b"",
        "no-newline.sgn": GOOD.rstrip("\n").encode(),
        "locked.sgn": (BAD * 5).encode(),
        b"odd\xff.sgn": (BAD * 2).encode(),
    }
    for name, data in files.items():
        path = folder / os.fsdecode(name)
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
    (folder / "locked.sgn").chmod(0)  # unreadable, unless the tests run as root
    (folder / "a-folder").mkdir()
    names = [os.fsdecode(n) for n in files] + ["missing.sgn", "a-folder", "game.sgn", "many.sgn"]
    yield folder, names
    (folder / "locked.sgn").chmod(0o644)


@pytest.mark.parametrize(
    "output",
    [
        ["-o", "text"],
        ["-o", "json"],
        ["-o", "github"],
        ["-q"],
        ["-o", "jsonl"],
        ["-o", "junit"],
        ["-o", "sarif"],
        ["--color", "always"],
    ],
)
def test_several_jobs_give_the_output_of_one_byte_for_byte(logs, spools, output):
    folder, names = logs
    one = one_job(["validate", *output, "-j", "1", *names], folder)
    # some files cannot be read, one (named twice) has 600 errors
    assert one.returncode == 2 and b"file-not-found" in one.stdout
    assert one.stdout.count(b"schema-maximum") >= 400 and one.stderr == b""
    for jobs in ("2", "3"):
        several = run_sgn(["validate", *output, "-j", jobs, *names], spools, folder)
        assert (several.returncode, several.stdout, several.stderr) == (one.returncode, one.stdout, one.stderr)


def test_several_jobs_from_another_folder_name_files_the_same_way(logs, spools, tmp_path):
    folder, names = logs
    paths = [folder / name for name in names]
    one = one_job(["validate", "-j", "1", *paths], tmp_path)
    assert run_sgn(["validate", "-j", "2", *paths], spools, tmp_path).stdout == one.stdout


def test_many_diagnostics_with_jobs_in_bounded_memory(tmp_path, spools):
    """150,000 errors in one file: no process holds them all (before: 186 MB for twice as
    many, about 110 MB for these; now about 35 MB for the parent, 20 MB a worker)."""
    (tmp_path / "small.sgn").write_text(GOOD * 3)
    (tmp_path / "many.sgn").write_bytes(b"1\n" * 150_000)
    # the parent's peak is its VmHWM: its ru_maxrss would be that of the test run that forked
    # it, kept across exec; the workers', forked from it, are in RUSAGE_CHILDREN once ended
    script = (
        "import resource, sys\nfrom sgn.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "peak = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:')).split()[1]\n"
        "print(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code, file=sys.stderr)\n"
    )
    with open(tmp_path / "out.txt", "wb") as out:
        env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT, TMPDIR=str(spools))
        result = subprocess.run(
            [
                sys.executable,
                "-c",
                script,
                "validate",
                "-q",
                "-o",
                "concise",
                "-j",
                "2",
                "small.sgn",
                "many.sgn",
                "small.sgn",
            ],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.PIPE,
            timeout=GUARD,
        )
    parent, workers, code = map(int, result.stderr.split())
    assert code == 1 and result.returncode == 0
    with open(tmp_path / "out.txt", "rb") as out:
        assert sum(1 for _ in out) == 150_000
    assert parent < 64 * 1024 and 0 < workers < 64 * 1024  # KiB


def test_a_spool_that_cannot_be_written_is_a_clear_error_and_is_cleaned_up(tmp_path, spools):
    """Files may grow to 64 KiB at most: the spool of 3,000 errors cannot be written. The
    file before them is a FIFO this test holds open, so that the file of 3,000 is checked
    before its turn (by whichever process does not wait on the FIFO), and must be spooled."""
    (tmp_path / "small.sgn").write_text(GOOD)
    (tmp_path / "many.sgn").write_text(BAD * 3_000)
    held = tmp_path / "held.sgn"
    os.mkfifo(held)
    limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))  # noqa: E731
    with started(
        ["validate", "-j", "2", "small.sgn", "held.sgn", "many.sgn", "small.sgn"],
        spools,
        tmp_path,
        preexec_fn=limit,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        writer = until(lambda: opened_for_writing(held), process, "process reading held.sgn")
        # held.sgn is held until many.sgn is being spooled (or the run has ended on it): let go
        # sooner, and many.sgn could come in its turn, and stream, not spool
        until(
            lambda: list(spools.glob("sgn-jobs-*/*.spool")) or process.poll() is not None,
            process,
            "spool of many.sgn",
        )
        with contextlib.suppress(BrokenPipeError):  # (the run may have ended: nobody reads)
            os.write(writer, GOOD.encode())
        os.close(writer)  # the FIFO's end: its reader goes on
        _, errors = process.communicate(timeout=GUARD)
    assert process.returncode == 2
    message = errors.decode()
    assert message.startswith(f"sgn validate: cannot write a temporary file in {spools}{os.sep}sgn-jobs-")
    assert message.endswith(": File too large\n") and "Traceback" not in message


def until(event, process, what):
    """Wait for `event()` to be true (a state the run reaches, not a time) while the process
    runs, and return it; GUARD seconds at most: a guard against a deadlock, not a measure of speed."""
    deadline = time.monotonic() + GUARD
    while True:
        happened = event()
        if happened:
            return happened
        assert process.poll() is None, f"sgn ended (exit {process.returncode}) before the {what}"
        assert time.monotonic() < deadline, f"no {what} after {GUARD} s: a deadlock?"
        time.sleep(0.01)


def opened_for_writing(fifo):
    """The FIFO opened for writing, once a process has it open for reading; None before."""
    try:
        return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as error:
        if error.errno != errno.ENXIO:  # ENXIO: nobody reads it (yet)
            raise
        return None


def test_ctrl_c_ends_the_workers_and_removes_the_spools(tmp_path, spools):
    """Ctrl-C while a worker is in the middle of a file, and another's spool waits to be read.
    The file is a FIFO this test holds open: the worker reading it cannot finish before the
    interrupt, however fast the machine; the file after it is checked meanwhile by the other
    worker, and its spool waits for the FIFO's turn."""
    (tmp_path / "small.sgn").write_text(GOOD)
    (tmp_path / "bad.sgn").write_text(BAD * (executors.INLINE + 1))  # too many to travel inline
    held = tmp_path / "held.sgn"
    os.mkfifo(held)
    writer = None
    try:
        with started(
            ["validate", "-j", "2", "small.sgn", "held.sgn", "bad.sgn"],
            spools,
            tmp_path,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=_ctrl_c_as_in_a_terminal,
        ) as process:
            writer = until(lambda: opened_for_writing(held), process, "worker reading held.sgn")
            os.write(writer, BAD.encode())  # a line, and no end: it waits
            until(lambda: any(spools.glob("sgn-jobs-*/1.spool")), process, "spool of bad.sgn")
            os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
            _, errors = process.communicate(timeout=GUARD)
    finally:
        if writer is not None:
            os.close(writer)
    assert process.returncode == 130 and errors == b"sgn: interrupted\n"
    assert opened_for_writing(held) is None  # its worker is gone: nobody reads the FIFO any more


def _ctrl_c_as_in_a_terminal():
    """In the child, before it runs: SIGINT to its default, which Python turns into Ctrl-C's
    KeyboardInterrupt, even where the tests were started with SIGINT ignored (as a shell
    starts a job in the background, and its children inherit)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _checked(count):
    """A file's `Result` as a worker has it, with `count` diagnostics still to stream."""
    result = Result(VALID, "f.sgn", None)
    found = (make("turn-order", f"line {n}", file="f.sgn", line=n) for n in range(1, count + 1))
    result.diagnostics = counting(result, found)
    return result


@pytest.mark.parametrize("count", [0, 1, executors.INLINE - 1, executors.INLINE, executors.INLINE + 1, 300])
def test_a_file_packed_for_the_way_back_keeps_every_diagnostic_in_order(tmp_path, count):
    """Up to INLINE diagnostics travel with the result and no spool is made; past that,
    all of them go to the spool, the first ones too, and the spool is gone once read."""
    spool = tmp_path / "0.spool"
    result, path = executors.pack(_checked(count), executors.INLINE, lambda: str(spool))
    assert result.errors == count
    if count <= executors.INLINE:
        assert path is None and not spool.exists() and len(result.diagnostics) == count
    else:
        assert path == str(spool) and spool.exists() and result.diagnostics == []
    received = list(executors.unpacked((result, path)).diagnostics)
    assert [d.line for d in received] == list(range(1, count + 1))
    assert not spool.exists()


def test_without_a_spool_the_first_diagnostics_travel_and_the_rest_are_counted():
    """A cluster with no shared disk: INLINE diagnostics go back, every one is counted."""
    result, path = executors.pack(_checked(50), 10, None)
    assert path is None and [d.line for d in result.diagnostics] == list(range(1, 11))
    assert result.errors == 50


def holds_open(pid, path):
    """Whether process `pid` has the file open."""
    folder = Path(f"/proc/{pid}/fd")
    return any(os.path.realpath(link) == str(path) for link in folder.iterdir())


def ended(pid):
    """Whether process `pid` has ended (a zombie until its parent waits for it, or gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"
    except FileNotFoundError:
        return True


def test_a_worker_killed_loses_no_file(tmp_path, spools):
    """A worker killed in the middle of a run (as by the system, out of memory): the files
    it had taken are checked by the parent once it has gone, and the output is that of one
    job. held.sgn is a FIFO: the worker is killed once some process reads it, and it is fed
    once the parent holds it (the parent opens it again if the worker had it)."""
    content = (GOOD + BAD) * 3
    files = ["small.sgn", "held.sgn"] + [f"f{n}.sgn" for n in range(8)]
    for n in range(8):
        (tmp_path / f"f{n}.sgn").write_text(GOOD * n + BAD * (n % 3) + GOOD)
    (tmp_path / "small.sgn").write_text(GOOD)
    held = (tmp_path / "held.sgn").resolve()
    os.mkfifo(held)
    writer = None
    try:
        with started(
            ["validate", "-o", "jsonl", "-j", "2", *files],
            spools,
            tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ) as process:
            writer = until(lambda: opened_for_writing(held), process, "process reading held.sgn")
            workers = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
            assert len(workers) == 1  # -j 2: one worker, and this process
            worker = int(workers[0])
            # the reader's open returns once the FIFO has a writer: then it holds it
            until(lambda: holds_open(worker, held) or holds_open(process.pid, held), process, "reader's open")
            os.kill(worker, signal.SIGKILL)
            until(lambda: ended(worker), process, "worker's end")  # its files closed, the FIFO's too
            # fed only once the parent holds it: it opens held.sgn again if the worker had it
            # (at once: this writer is still open), and nothing was written to the dead worker
            until(lambda: holds_open(process.pid, held), process, "parent reading held.sgn")
            os.write(writer, content.encode())
            os.close(writer)  # the FIFO's end: its reader goes on
            writer = None
            output, errors = process.communicate(timeout=GUARD)
    finally:
        if writer is not None:
            os.close(writer)
    held.unlink()
    held.write_text(content)
    one = one_job(["validate", "-o", "jsonl", "-j", "1", *files], tmp_path)
    assert (process.returncode, output, errors) == (one.returncode, one.stdout, one.stderr)
    assert one.returncode == 1 and one.stdout.count(b'"file": "held.sgn"') == 3
