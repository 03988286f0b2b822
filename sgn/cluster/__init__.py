"""Archives that outgrow one machine: logs read through fsspec (`remote`), checked on a Dask
cluster (`dask_run`), results written as a Parquet table (`parquet`). Each piece needs its own
optional extra, imported only when it is asked for: `sgn validate` on local files needs none.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from ..layers.reader import STDIN_NAME
from ..pipeline.files import is_url


def expand(paths: Sequence[str]) -> List[str]:
    """Before `sgn validate` reports: the files to check, URLs expanded (their globs), and the
    extras the URLs need found (SetupError when one is missing): what must be
    known of the inputs before the output is judged (sgn/cli/output_file.py) and opened. The
    cluster is reached or started after (`connect`)."""
    from . import remote

    if any(is_url(path) for path in paths):
        return remote.expand(paths)
    return list(paths)


def connect(dask: Optional[str], *, stdin: Any = None, stdin_name: str = STDIN_NAME) -> Any:
    """The DaskRunner for --dask (the cluster reached or started), or None without it; '-'
    is read here, from `stdin`, named `stdin_name`."""
    if dask is None:
        return None
    from .dask_run import DaskRunner

    return DaskRunner(dask, stdin=stdin, stdin_name=stdin_name)
