"""Worker-side faults for t/test_dask.py: a check that kills its own worker process.
Importable by the workers of the tests' LocalCluster (they start with the tests' sys.path)."""

import os
import signal

from sgn.cluster.dask_run import check_one


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def kill_once(file, options, spools):
    path = file[1]
    """The first try at a file named victim.sgn kills the worker; the next one checks it."""
    if os.path.basename(path) == "victim.sgn":
        marker = path + ".killed"
        if not os.path.exists(marker):
            open(marker, "w").close()
            _die()
    return check_one(file, options, spools)


def kill_always(file, options, spools):
    path = file[1]
    """Every try at a file whose name begins with poison kills the worker."""
    if os.path.basename(path).startswith("poison"):
        _die()
    return check_one(file, options, spools)


def raise_on_bug(file, options, spools):
    """A check that raises (as a bug in it would) on a file named bug.sgn."""
    if os.path.basename(file[1]) == "bug.sgn":
        raise RuntimeError("a bug in the check")
    return check_one(file, options, spools)


def main(paths):
    """`python -c`: the files checked on a local cluster of one worker, every try at a poison
    file killing it; each file's name and diagnostic codes printed, one JSON line."""
    import json

    from sgn.cluster.dask_run import DaskRunner
    from sgn.pipeline import executors as jobs
    from sgn.pipeline.checking import Checking

    results = DaskRunner("local:1", check=kill_always).results(paths, jobs.Options(Checking(max_line_bytes=1 << 18)))
    print(json.dumps([[result.file, [d.code for d in result.diagnostics]] for result in results]))
