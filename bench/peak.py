"""The peak resident memory of a process, read by the process itself as it ends: `VmHWM`
(Linux), which starts afresh when a program is executed. `ru_maxrss` would not: it keeps
the peak of the process it was forked from, so that a child of a benchmark holding 32 MB
reports 32 MB however little it used (elsewhere than Linux, it is all there is)."""

# Python source, run last in the measured process: prints "PEAK <kB>" on standard error.
PRINT_PEAK = (
    "import sys as _sys\n"
    "try:\n"
    "    _peak = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
    "except (OSError, IndexError):\n"
    "    import resource as _resource\n"
    "    _peak = _resource.getrusage(_resource.RUSAGE_SELF).ru_maxrss\n"
    "print('PEAK', _peak, file=_sys.stderr)\n"
)


def megabytes(stderr: str) -> float:
    """The peak `PRINT_PEAK` printed, in MB (NaN when it printed none)."""
    found = [line.split()[1] for line in stderr.splitlines() if line.startswith("PEAK ")]
    return int(found[-1]) / 1024 if found else float("nan")
