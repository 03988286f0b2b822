"""Archives that outgrow one machine: logs read through fsspec (`remote`), checked on a Dask
cluster (`dask_run`), results written as a Parquet table (`parquet`). Each piece needs its own
optional extra, imported only when it is asked for: `sgn validate` on local files needs none.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence

from ..packaged import DISTRIBUTION


class SetupError(Exception):
    """What is asked for cannot be done in this installation or setting (an extra missing, a
    scheduler out of reach): a usage error, told before any file is checked."""


def install_hint(extra: str, packages: str) -> str:
    """How to install what an optional extra brings, for the message of a missing dependency:
    the packages themselves first (the distribution is not on the package index yet), then
    the extra."""
    return f"pip install {packages} (or install the package with its extra: pip install '{DISTRIBUTION}[{extra}]')"


def expand(paths: Sequence[str], *, output: str) -> List[str]:
    """Before `sgn validate` reports: the files to check, URLs expanded (their globs), and the
    extras the output and the URLs need found (SetupError when one is missing): what must be
    known of the inputs before the output is judged (sgn/cli/output_file.py) and opened. The
    cluster is reached or started after (`connect`)."""
    from . import remote
    if output == "parquet":
        from ..output.parquet import require
        require()
    if any(remote.is_url(path) for path in paths):
        return remote.expand(paths)
    return list(paths)


def connect(dask: Optional[str]) -> Any:
    """The DaskRunner for --dask (the cluster reached or started), or None without it."""
    if dask is None:
        return None
    from .dask_run import DaskRunner
    return DaskRunner(dask)
