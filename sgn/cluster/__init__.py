"""Dask: the files of a run checked on a cluster (`dask_run.DaskRunner`, an `Executor`), what
`--dask` names (`targets`). Dask is an optional extra, imported only when `--dask` asks for it.
The remote files it may read are the pipeline's (`sgn/pipeline/remote.py`), as the Parquet
table is an output's (`sgn/output/parquet.py`).
"""

from __future__ import annotations

from typing import Any, Optional

from ..layers.reader import STDIN_NAME


def connect(dask: Optional[str], *, stdin: Any = None, stdin_name: str = STDIN_NAME) -> Any:
    """The DaskRunner for --dask (the cluster reached or started), or None without it; '-'
    is read here, from `stdin`, named `stdin_name`."""
    if dask is None:
        return None
    from .dask_run import DaskRunner

    return DaskRunner(dask, stdin=stdin, stdin_name=stdin_name)
