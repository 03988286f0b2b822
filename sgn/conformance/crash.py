"""Telling a crash from a verdict in simple mode.

In simple mode an implementation's exit code is its verdict: 0 valid, 1 invalid
(`--invalid-exit` names another code). But most runtimes also exit with 1 on an
uncaught exception, so a program that only crashes would score every invalid case.
An exit with the invalid code whose standard error shows an uncaught exception of a
common runtime is therefore a crash (the case is errored), whatever it printed before.
The signatures are data: a runtime's name and a pattern that its report of an
uncaught exception has and a deliberate verdict does not.
"""
from __future__ import annotations

import re
from typing import Optional, Pattern, Tuple

SIGNATURES: Tuple[Tuple[str, Pattern[str]], ...] = tuple((name, re.compile(pattern, re.M)) for name, pattern in (
    ("Python", r"^Traceback \(most recent call last\):$"),
    ("Node.js", r"^\s+at .*(?:\(.*:\d+:\d+\)|:\d+:\d+)$(?:\n.*)*\nNode\.js v\d+"),
    ("Node.js", r"^\w*(?:Error|Exception)\b.*\n\s+at .*:\d+:\d+\)?$"),
    ("Ruby", r":in [`'].*': .* \([A-Z]\w*(?:::\w+)*\)$"),
    ("Java", r"^Exception in thread \"[^\"]*\" [\w.$]+"),
    ("Go", r"^panic: .*\n\ngoroutine \d+ \["),
    ("Rust", r"^thread '.*' panicked at "),
    (".NET", r"^Unhandled exception\. [\w.]+"),
    ("PHP", r"^PHP (?:Fatal error|Parse error): "),
    ("shell", r"^.*: line \d+: .*(?:command not found|syntax error|unbound variable)"),
))


def crash_signature(stderr: str) -> Optional[str]:
    """The runtime whose uncaught exception `stderr` shows, or None."""
    for name, pattern in SIGNATURES:
        if pattern.search(stderr):
            return name
    return None
