"""`sgn validate --dask`: on a real Dask cluster (two worker processes), the report of one
process byte for byte, whatever a file holds; no file lost when a worker dies."""

import io
import json
import os
import signal
import subprocess
import sys
from types import SimpleNamespace

import pytest

import test_jobs
from sgn.cli import main
from sgn.layers.reader import describe
from sgn.pipeline import executors as jobs
from sgn.pipeline.checking import Checking
from test_jobs import BAD, GOOD, one_job, run_sgn

logs, spools = test_jobs.logs, test_jobs.spools  # the fixtures of --jobs's own tests

distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed (the extra 'dask')")
dask_run = pytest.importorskip("sgn.cluster.dask_run")
OPTIONS = jobs.Options(Checking(max_line_bytes=1 << 18))


# a worker (re)started as a fork of a server that has Dask imported already, as Dask's own
# tests do, not a fresh interpreter importing it: the killing tests restart workers a dozen
# times (half their CPU time). Only for the shared cluster: a forkserver keeps the environment
# it started with, and the tests of sgn's own clusters check what their workers are given.
FORKSERVER = {"distributed.worker.multiprocessing-method": "forkserver"}


@pytest.fixture(scope="module")
def shared_cluster():
    """Two worker processes of one thread each; a task whose worker dies is tried twice at
    most; a worker killed time after time is started again however long it takes (as sgn's
    own local cluster does)."""
    import dask

    with dask.config.set({**dask_run.KEEP_WORKERS, "distributed.scheduler.allowed-failures": 1}):
        with dask.config.set(FORKSERVER):
            local = distributed.LocalCluster(
                n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None, silence_logs=50
            )
        with local:
            yield local.scheduler_address


@pytest.fixture
def cluster(shared_cluster):
    """The shared cluster's address; its workers killed in the test come back by FORKSERVER."""
    import dask

    with dask.config.set(FORKSERVER):
        yield shared_cluster


def read(results):
    """Each file's name, diagnostics and count of messages (read after its diagnostics)."""
    return [(result.file, list(result.diagnostics), (result.messages,)) for result in results]


def files(folder, count, named, content=lambda i: GOOD + BAD):
    """`count` files in `folder`, 00.sgn, 01.sgn...; those at the places of `named` named so."""
    paths = []
    for i in range(count):
        path = folder / named.get(i, f"{i:02d}.sgn")
        path.write_text(content(i))
        paths.append(str(path))
    return paths


def one_process(paths):
    return read(jobs.InProcess().results(paths, OPTIONS))


def on_cluster(paths, address, **options):
    return read(dask_run.DaskRunner(address, **options).results(paths, OPTIONS))


@pytest.mark.parametrize("output", [["-o", "text"], ["-o", "json"]])
def test_the_report_on_a_cluster_is_that_of_one_process_byte_for_byte(logs, spools, cluster, output):
    folder, names = logs
    one = one_job(["validate", *output, *names], folder)
    assert one.returncode == 2 and one.stdout.count(b"schema-maximum") >= 400  # many.sgn: 600 errors
    on = run_sgn(["validate", *output, "--dask", cluster, *names], spools, folder)
    assert (on.returncode, on.stdout, on.stderr) == (one.returncode, one.stdout, one.stderr)
    if output[1] == "json":
        # an empty folder, walked, gives no file
        assert [f["file"] for f in json.loads(on.stdout)["files"]] == [describe(n) for n in names if n != "a-folder"]


def test_a_local_cluster_started_for_the_run_gives_the_same_report_and_leaves_nothing(logs, spools):
    """local:2: sgn starts and stops the cluster; past 256 diagnostics a file's go by a spool."""
    folder, names = logs
    one = one_job(["validate", "-o", "json", *names], folder)
    on = run_sgn(["validate", "-o", "json", "--dask", "local:2", *names], spools, folder)
    assert (on.returncode, on.stdout, on.stderr) == (one.returncode, one.stdout, one.stderr)


@pytest.mark.parametrize("given", [None, "131072"])
def test_a_local_clusters_workers_run_in_the_environment_sgn_was_given(monkeypatch, capfd, given):
    """Dask would have them hand freed memory back to the system at once (every file paying
    its page faults again); a threshold this environment sets is theirs too; the user's Dask
    configuration is left as it was. And what Dask logs there below CRITICAL does not reach
    sgn's standard error (an ERROR line did: a heartbeat meeting the scheduler's close)."""
    import logging

    import dask

    if given is None:
        monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    else:
        monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", given)
    settings = ("distributed.nanny.pre-spawn-environ", "distributed.deploy.lost-worker-timeout")
    before = [dask.config.get(setting) for setting in settings]
    runner = dask_run.DaskRunner("local:1")
    try:
        seen = runner.client.run(os.environ.get, "MALLOC_TRIM_THRESHOLD_")
        capfd.readouterr()
        runner.client.run(lambda: logging.getLogger("distributed.worker").error("a line of Dask's"))
        said = capfd.readouterr().err
    finally:
        runner.close()
    assert list(seen.values()) == [given]
    assert "a line of Dask's" not in said
    assert [dask.config.get(setting) for setting in settings] == before


def test_many_diagnostics_come_back_in_parts(tmp_path, cluster, monkeypatch):
    """A file's diagnostics past the first 256 are fetched in parts (here of 100), in order."""
    monkeypatch.setattr(dask_run, "PART", 100)
    many = tmp_path / "many.sgn"
    many.write_text((BAD + GOOD + "[1]\n") * 400)  # 1,200 errors
    small = tmp_path / "small.sgn"
    small.write_text(GOOD)
    paths = [str(small), str(many), str(small)]
    expected = one_process(paths)
    assert len(expected[1][1]) == 1200
    assert on_cluster(paths, cluster) == expected


def test_warnings_past_the_cap_are_not_fetched_in_parts(tmp_path, cluster, monkeypatch):
    """The counts of a file hold the warnings its report does not list (past a hundred of a
    code, one stands for the rest): the parts are asked for until one comes back short, not
    up to the counts (a part for every 100 of 100,000 blank lines, each checking the file)."""
    monkeypatch.setattr(dask_run, "PART", 100)
    parts = []
    real = dask_run.DaskRunner._submit

    def submit(self, function, *args):
        parts.append(function.__name__)
        return real(self, function, *args)

    monkeypatch.setattr(dask_run.DaskRunner, "_submit", submit)
    (tmp_path / "blank.sgn").write_text(GOOD + "\n" * 100_000 + BAD * 300)
    paths = [str(tmp_path / "blank.sgn")]
    expected = one_process(paths)
    assert len(expected[0][1]) == 100 + 300 + 1
    assert on_cluster(paths, cluster) == expected
    assert parts.count("check_part") == 2  # 256 came with the result: 145 more, in two parts


def test_standard_input_is_read_here_in_its_place(tmp_path, cluster, monkeypatch):
    (tmp_path / "a.sgn").write_text(BAD)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((BAD * 2).encode())))
    out = io.StringIO()
    code = main(
        ["validate", "-o", "concise", "--dask", cluster, str(tmp_path / "a.sgn"), "-", str(tmp_path / "a.sgn")], out=out
    )
    lines = out.getvalue().splitlines()
    assert code == 1 and [line.split(":")[0] for line in lines[:4]] == [
        str(tmp_path / "a.sgn"),
        "<stdin>",
        "<stdin>",
        str(tmp_path / "a.sgn"),
    ]


def test_a_worker_killed_mid_run_loses_no_file(tmp_path, cluster):
    """The first try at victim.sgn kills its worker: Dask runs the batch again elsewhere."""
    paths = files(tmp_path, 12, {5: "victim.sgn"}, lambda i: GOOD + BAD * (i % 3))
    expected = one_process(paths)
    assert on_cluster(paths, cluster, check=_faults().kill_once) == expected
    assert (tmp_path / "victim.sgn.killed").exists()  # the worker was killed indeed


@pytest.mark.parametrize("poison", [{2: "poison.sgn"}, {1: "poison-1.sgn", 4: "poison-4.sgn", 5: "poison-5.sgn"}])
def test_a_file_that_kills_every_worker_is_reported_not_lost(tmp_path, cluster, poison):
    """Each file that kills its worker is reported lost, and no other: a worker that dies
    takes every task it held with it, the innocent files' queued behind a poison file too."""
    paths = files(tmp_path, 10, poison)
    expected = one_process(paths)
    found = on_cluster(paths, cluster, check=_faults().kill_always)
    assert [name for name, _, _ in found] == [name for name, _, _ in expected]
    for (name, diagnostics, counts), want in zip(found, expected):
        if os.path.basename(name).startswith("poison"):
            [lost] = diagnostics
            assert lost.code == "worker-lost" and lost.is_io and lost.file == name and counts == (0,)
        else:
            assert (name, diagnostics, counts) == want


def test_a_local_cluster_keeps_its_workers_however_long_they_take_to_come_back(tmp_path):
    """Dask closes a worker for good when it has not come back within lost-worker-timeout of
    its death: here no time at all, as on a loaded machine a worker killed time after time
    may take longer than the 15 s of the default. The run waited for ever on a cluster of no
    worker; sgn's own local cluster keeps its workers, and the run ends."""
    paths = files(tmp_path, 3, {1: "poison.sgn"}, lambda i: GOOD)
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([test_jobs.PACKAGE_ROOT, os.path.dirname(__file__)]),
        DASK_DISTRIBUTED__DEPLOY__LOST_WORKER_TIMEOUT="0s",
        DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0",  # three deaths in all, not twelve
    )
    script = "import sys, dask_faults; dask_faults.main(sys.argv[1:])"
    process = subprocess.Popen(
        [sys.executable, "-c", script, *paths], env=env, stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        out, _ = process.communicate(timeout=test_jobs.GUARD / 2)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        pytest.fail("the run waited for a worker that never came back")
    assert process.returncode == 0
    assert json.loads(out) == [[paths[0], []], [paths[1], ["worker-lost"]], [paths[2], []]]


def test_a_scheduler_with_no_worker_yet_is_said_and_the_files_wait_for_one(tmp_path, spools):
    """A cluster still scaling up: sgn says why nothing moves, and checks the files once a
    worker comes."""
    import select

    paths = files(tmp_path, 3, {}, lambda i: GOOD + BAD * i)
    one = one_job(["validate", *paths], tmp_path)
    with distributed.LocalCluster(
        n_workers=0, processes=True, threads_per_worker=1, dashboard_address="127.0.0.1:0", silence_logs=50
    ) as local:
        address = local.scheduler_address
        with test_jobs.started(
            ["validate", "--dask", address, *paths], spools, tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        ) as process:
            heard, _, _ = select.select([process.stderr], [], [], test_jobs.GUARD / 2)
            assert heard, "nothing said while the files wait"
            said = process.stderr.readline().decode()
            assert said == (
                f"sgn validate: the Dask scheduler at {address} has no worker yet: "
                "the files wait for one (Ctrl-C to stop)\n"
            )
            local.scale(1)
            out, err = process.communicate(timeout=test_jobs.GUARD)
    assert (process.returncode, out, err) == (one.returncode, one.stdout, one.stderr)


class _Planned:
    """A task's future whose outcome the test decides: what it sends back, or the error."""

    def __init__(self, outcome, log, path):
        self.outcome, self.log, self.path = outcome, log, path

    def result(self):
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return self.outcome

    def exception(self):
        self.log.append(("waited", self.path))
        return self.outcome if isinstance(self.outcome, Exception) else None


class _Unreachable(_Planned):
    """A task this process can no longer hear of: the connection to the scheduler is lost."""

    def exception(self):
        raise OSError("the connection is closed")


class _PlannedClient:
    """Each try at a file takes the next outcome planned for it."""

    status = "running"

    def __init__(self, plans):
        self.plans, self.log = plans, []

    def submit(self, function, file, *args, pure=True):
        path = file[0]
        self.log.append(("submitted", path))
        return _Planned(self.plans[path].pop(0), self.log, path)


@pytest.mark.parametrize("dies_alone", [False, True])
def test_a_file_whose_worker_died_is_tried_again_alone_before_it_is_called_lost(tmp_path, dies_alone):
    """The batch a.sgn b.sgn c.sgn failed; tried one by one, b.sgn's worker dies (a poison
    file elsewhere may have killed it): b.sgn is tried again once every other task of the
    run has ended, and reported lost only if its worker dies then too."""
    paths = files(tmp_path, 3, {0: "a.sgn", 1: "b.sgn", 2: "c.sgn"})
    shipped = {path: dask_run.check_one(dask_run.located(path), OPTIONS, None) for path in paths}
    killed = distributed.KilledWorker("check", SimpleNamespace(address="tcp://127.0.0.1:1"), 1)
    a, b, c = paths
    client = _PlannedClient({a: [shipped[a]], b: [killed, killed if dies_alone else shipped[b]], c: [shipped[c]]})
    runner = object.__new__(dask_run.DaskRunner)
    runner.client, runner.check, runner.spools = client, dask_run.check_one, None
    elsewhere = _Planned(None, client.log, "elsewhere.sgn")  # another batch of the run, in flight
    found = read(runner._one_by_one(paths, OPTIONS, [elsewhere]))
    expected = one_process(paths)
    assert [name for name, _, _ in found] == [name for name, _, _ in expected]
    assert (found[0], found[2]) == (expected[0], expected[2])
    if dies_alone:
        [lost] = found[1][1]
        assert lost.code == "worker-lost" and "no other file on the cluster" in lost.message
    else:
        assert found[1] == expected[1]
    again = client.log.index(("submitted", b), client.log.index(("submitted", c)) + 1)
    assert {path for event, path in client.log[:again] if event == "waited"} == {a, b, c, "elsewhere.sgn"}


def test_a_connection_lost_while_a_file_waits_to_be_tried_alone_is_said_so(tmp_path):
    """The other tasks, waited for, can no longer end: the run ends saying why (exit 2),
    never with an internal error."""
    paths = files(tmp_path, 1, {0: "a.sgn"})
    client = _PlannedClient({})
    client.status = "closed"
    runner = object.__new__(dask_run.DaskRunner)
    runner.client, runner.check, runner.spools = client, dask_run.check_one, None
    with pytest.raises(dask_run.ClusterError, match="lost the connection"):
        runner._alone(paths[0], OPTIONS, [_Unreachable(None, client.log, "elsewhere.sgn")])


def test_an_error_of_the_check_itself_ends_the_run_at_its_file(tmp_path, cluster):
    """Not a worker's death: the files before it come, then the error, as in one process."""
    paths = files(tmp_path, 6, {3: "bug.sgn"})
    found = []
    results = dask_run.DaskRunner(cluster, check=_faults().raise_on_bug).results(paths, OPTIONS)
    with pytest.raises(RuntimeError, match="a bug in the check"):
        for result in results:
            found.append((result.file, list(result.diagnostics), (result.messages,)))
    assert found == one_process(paths[:3])


def _faults():
    import dask_faults

    return dask_faults


def test_bad_targets_and_unreachable_schedulers_are_usage_errors(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(dask_run, "CONNECT_TIMEOUT", "1s")
    (tmp_path / "a.sgn").write_text(GOOD)
    for target, said in [
        ("local:0", "1 or more"),
        ("local:x", "1 or more"),
        ("tcp://127.0.0.1:9", "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
    ]:
        out = io.StringIO()
        assert main(["validate", "--dask", target, str(tmp_path / "a.sgn")], out=out) == 2
        error = capsys.readouterr().err
        assert said in error and "Traceback" not in error and out.getvalue() == ""
    assert main(["validate", "--dask", "local:1", "-j", "2", str(tmp_path / "a.sgn")], out=io.StringIO()) == 2
    assert "cannot be used together" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["foo://bar", "tcp://", "tcp://host:99999", "inproc://x"])
def test_an_address_dask_cannot_use_is_one_line_and_nothing_after(tmp_path, target):
    """The error came at once, then Dask's half-built client waited 40 s at exit and printed a
    traceback: now no client is left behind, and the one line is all there is."""
    (tmp_path / "a.sgn").write_text(GOOD)
    result = run_sgn(["validate", "--isolated", "--dask", target, "a.sgn"], tmp_path, tmp_path)
    said = result.stderr.decode()
    assert result.returncode == 2 and result.stdout == b"", said
    assert len(said.splitlines()) == 1 and said.startswith("sgn validate: "), said
    assert target in said and "Traceback" not in said and "Exception ignored" not in said


def test_a_local_cluster_has_at_most_four_workers_a_core(tmp_path, capsys, monkeypatch):
    """`local:100000` started for ever: a worker is a process, and a machine runs so many."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert dask_run.parse_target("local:8") == (None, 8) and dask_run.parse_target("local") == (None, 2)
    for many in ("local:9", "local:100000"):
        with pytest.raises(ValueError, match=r"more than this machine runs: at most 8 \(4 for each of its 2 cores\)"):
            dask_run.parse_target(many)
    (tmp_path / "a.sgn").write_text(GOOD)
    out = io.StringIO()
    assert main(["validate", "--isolated", "--dask", "local:100000", str(tmp_path / "a.sgn")], out=out) == 2
    said = capsys.readouterr().err
    assert "at most 8" in said and len(said.splitlines()) == 1 and out.getvalue() == ""
