"""Archives that outgrow one machine: logs read through fsspec (`remote`), checked on a Dask
cluster (`dask_run`), results written as a Parquet table (`parquet`). Each piece needs its own
optional extra, imported only when it is asked for: `sgn validate` on local files needs none.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from ..packaged import DISTRIBUTION


class SetupError(Exception):
    """What is asked for cannot be done in this installation or setting (an extra missing, a
    scheduler out of reach): a usage error, told before any file is checked."""


def install_hint(extra: str, packages: str) -> str:
    """How to install what an optional extra brings, for the message of a missing dependency:
    the packages themselves first (the distribution is not on the package index yet), then
    the extra."""
    return f"pip install {packages} (or install the package with its extra: pip install '{DISTRIBUTION}[{extra}]')"


def prepare(paths: Sequence[str], *, dask: Optional[str], output: str) -> Tuple[List[str], Any]:
    """Before `sgn validate` reports: URLs expanded (their globs), the extras each option needs
    found, the cluster reached or started. The files, and the DaskRunner (None without --dask)."""
    from . import remote
    if output == "parquet":
        from .parquet import require
        require()
    if any(remote.is_url(path) for path in paths):
        paths = remote.expand(paths)
    if dask is None:
        return list(paths), None
    from .dask_run import DaskRunner
    return list(paths), DaskRunner(dask)
