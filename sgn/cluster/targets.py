"""What `sgn validate --dask` names, read before anything is started: `local[:N]`, a
cluster of N workers on this machine (at most WORKERS_PER_CORE a core), or the address of a
scheduler, as Dask reads it; and the client of that scheduler, closed at once if it cannot
connect (`dask_run.py` runs the files on it)."""

from __future__ import annotations

import os
from typing import Any, Optional, Tuple

WORKERS_PER_CORE = 4  # `local:N` at most: more only wait their turn (see docs/archives.md)


def parse_target(text: str) -> Tuple[Optional[str], int]:
    """`local` or `local:N` (a cluster of N workers on this machine; N defaults to its cores,
    and is at most WORKERS_PER_CORE a core: a worker is a process, and thousands never
    start), or a scheduler's address: (None, N) or (address, 0). ValueError when malformed."""
    if text == "local" or text.startswith("local:"):
        cores = os.cpu_count() or 1
        count = text[6:] or str(cores)
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"local:N needs a number of workers of 1 or more, not {count!r}")
        if int(count) > WORKERS_PER_CORE * cores:
            raise ValueError(
                f"{count} workers are more than this machine runs: at most "
                f"{WORKERS_PER_CORE * cores} ({WORKERS_PER_CORE} for each of its {cores} cores)"
            )
        return None, int(count)
    if not text.strip():
        raise ValueError("give a scheduler's address (tcp://host:8786) or local[:N]")
    return text, 0


def check_address(address: str) -> None:
    """ValueError when Dask cannot read `address` as a scheduler's: an unknown scheme
    (foo://bar), no port (tcp://). Checked before a Client is made: one made for such an
    address fails half built, and its clean-up waits 40 s at exit, then prints a traceback."""
    from distributed.comm.addressing import parse_address
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        backend = get_backend(scheme)
    except (TypeError, ValueError) as error:
        raise ValueError(str(error)) from None
    try:
        port = backend.get_address_host_port(location)[1]
    except NotImplementedError:  # a scheme with no host and port (inproc://)
        return
    if not 0 < port < 65536:
        raise ValueError(f"port {port} is out of range (1 to 65535)")


def client(client_class: Any, address: str, timeout: str) -> Any:
    """A Client (of `client_class`, Dask's) of the scheduler at `address`. One that fails to connect with anything but an
    OSError (an address Dask reads but cannot use: inproc://, ucx:// without its package) is
    left half built by Dask, and its clean-up waits 40 s when it is collected, then prints a
    traceback: this one is closed at once instead, while its event loop still runs."""

    class Closing(client_class):
        def __init__(self, *args: Any, **kwargs: Any):
            try:
                super().__init__(*args, **kwargs)
            except BaseException:
                try:
                    self.close(timeout=timeout)
                except Exception:
                    pass  # closing on the way out: the error that stopped it is what matters
                raise

    return Closing(address, timeout=timeout, set_as_default=False)
