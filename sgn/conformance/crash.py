"""Telling a crash from a verdict.

In simple mode an implementation's exit code is its verdict: 0 valid, 1 invalid
(`--invalid-exit` names another code). But most runtimes also exit with 1 on an
uncaught exception, so a program that only crashes would score every invalid case.
An exit with the invalid code whose output shows an uncaught exception of a common
runtime (or a fatal signal reported by a shell) is therefore a crash (the case is
errored), whatever it printed before or after. The signatures are data: a runtime's
name, what the crash is called, and a pattern that its report of the crash has and a
deliberate verdict does not. A report need not start its line (output before it may not
have ended one), and a carriage return alone ends a line, as a terminal shows progress
output. A report in colour is the same report: the terminal's escape sequences (colours,
a window's title) are taken out of each line before it is searched (Python 3.13 paints its
`File "...", line N` and its `SyntaxError`, Deno its `error:`), whatever the environment
made the implementation print (`process.colourless` asks it for none). An explicit exit
(Python's `sys.exit("message")`) is a verdict, not a crash.

The output is scanned as it is read (`CrashScanner`), all of it and in bounded
memory: a signature is found however much was printed around it (an exception's
message of a megabyte included), and wherever the reads split it.
"""

from __future__ import annotations

import codecs
import re
from collections import deque
from typing import Deque, List, NamedTuple, Optional, Pattern, Tuple

_FATAL_SIGNALS = "Segmentation fault|Aborted|Bus error|Illegal instruction|Floating point exception"
# A terminal's escape sequence (ECMA-48): a control sequence (colours: `ESC [ 1;35 m`, or its
# 8-bit CSI), a string command (a window's title: `ESC ] 0;title BEL`), or ESC and one character.
_ESCAPES = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -/]*[0-~])?|\x9b[0-?]*[ -/]*[@-~]"
)


class Signature(NamedTuple):
    name: str  # the runtime (or "signal")
    what: str  # what the crash is called in a case's detail
    pattern: Pattern[str]
    needs: Tuple[str, ...]  # texts one of which the pattern cannot match without: looked for first


def _signature(name: str, what: str, pattern: str, *needs: str) -> Signature:
    return Signature(name, what, re.compile(pattern, re.M), needs)


# A Python frame at the top level, as Python prints it before a SyntaxError of the main
# script (which has no Traceback line): `  File "impl.py", line 3`
_PYTHON_FRAME = r'^[ \t]*File "[^"\n]*", line \d+(?:, in .*)?$'

SIGNATURES = (
    # anywhere in a line, as the last thing on it: after output that did not end its line,
    # and indented in an exception group (`  + Exception Group Traceback (most recent call last):`)
    _signature(
        "Python",
        "an uncaught Python exception",
        r"Traceback \(most recent call last\):$",
        "Traceback (most recent call last):",
    ),
    # a SyntaxError of the main script: its frame, the line and its caret, then the error
    _signature(
        "Python",
        "a Python syntax error",
        _PYTHON_FRAME + r"(?:\n.*){0,4}?\n[A-Z]\w*(?:Error|Exception): "
        r"|^SyntaxError: Non-UTF-8 code starting with ",
        '", line ',
        "SyntaxError: Non-UTF-8 code",
    ),
    # `python -m MODULE` of a module that is not there (or a program that cannot import one)
    _signature("Python", "a missing Python module", r"No module named '?\w", "No module named "),
    _signature("Python", "a fatal Python error", r"Fatal Python error: ", "Fatal Python error: "),
    # a stack, then (within a few lines: its properties, a blank line) the version
    _signature(
        "Node.js",
        "an uncaught Node.js exception",
        r"^[ \t]+at .*(?:\(.*:\d+:\d+\)|:\d+:\d+)$(?:\n.*){0,32}?\nNode\.js v\d+",
        "\nNode.js v",
    ),
    # a value thrown that is no Error (no stack): where it was thrown (file:line, the line, a
    # caret under it), the value, then (within a few lines) the version
    _signature(
        "Node.js",
        "an uncaught Node.js exception",
        r"^.*:\d+\n.*\n[ \t]*\^+[ \t]*\n(?:.*\n){0,32}?\nNode\.js v\d+",
        "\nNode.js v",
    ),
    # an error, then its stack: a frame with a place (file:line:column) first, or after
    # frames without one (`at JSON.parse (<anonymous>)`); no version line need follow
    _signature(
        "Node.js",
        "an uncaught Node.js exception",
        r"^\w*(?:Error|Exception)\b.*\n(?:[ \t]+at .*\n){0,16}?[ \t]+at .*:\d+:\d+\)?$",
        "Error",
        "Exception",
    ),
    # Deno: `error: Uncaught Error: boom`, `error: Uncaught (in promise) SyntaxError: ...`
    _signature("Deno", "an uncaught Deno exception", r"^error: Uncaught\b", "error: Uncaught"),
    # Bun: the error (`error: boom`, `TypeError: ...`), its place and stack, then the version
    _signature(
        "Bun",
        "an uncaught Bun exception",
        r"^(?:error|\w*Error)\b.*(?:\n.*){0,32}?\nBun v\d+\.\d+",
        "\nBun v",
    ),
    _signature("Ruby", "an uncaught Ruby exception", r":in [`'].*': .* \([A-Z]\w*(?:::\w+)*\)$", ":in `", ":in '"),
    _signature(
        "Java", "an uncaught Java exception", r"Exception in thread \"[^\"]*\" [\w.$]+", 'Exception in thread "'
    ),
    _signature("Go", "a Go panic", r"(?:panic|fatal error): .*\n\ngoroutine \d+ \[", "\n\ngoroutine "),
    _signature("Rust", "a Rust panic", r"thread '.*' panicked at ", "' panicked at "),
    _signature(
        "C++",
        "an uncaught C++ exception",
        r"terminate called after throwing an instance of ",
        "terminate called after throwing an instance of ",
    ),
    _signature(".NET", "an uncaught .NET exception", r"^Unhandled exception\. [\w.]+", "Unhandled exception. "),
    _signature(
        "PHP", "a PHP fatal error", r"PHP (?:Fatal error|Parse error): ", "PHP Fatal error: ", "PHP Parse error: "
    ),
    _signature(
        "shell", "a shell error", r"^.*: line \d+: .*(?:command not found|syntax error|unbound variable)", ": line "
    ),
    # a fatal signal as a shell reports it: alone on a line (dash), or after the pid and before the command (bash)
    _signature(
        "signal",
        "a fatal signal",
        rf"^(?:(?:{_FATAL_SIGNALS})(?: \(core dumped\))?"
        rf"|.*: +\d+ +(?:{_FATAL_SIGNALS})(?: +\(core dumped\))?(?: +.*)?)$",
        *_FATAL_SIGNALS.split("|"),
    ),
)


class CrashScanner:
    """Looks for a crash signature in a stream fed in chunks (bytes, UTF-8 or not), in
    bounded memory and linear time. The stream is cut into lines (at LF, CR LF, or a CR
    alone, as a terminal shows them: a CR LF is one break even when the reads split it);
    of a line longer than LINE characters its first and last LINE/2 are kept, joined by
    an ellipsis (a signature is a line's start or its end, and `.` matches the ellipsis). Whole lines
    are gathered up to BATCH characters, then searched together with the CONTEXT lines
    before them, so that a signature of several lines is found whatever chunks brought
    them. `found` is the first signature found (the stream is not searched after it);
    `finish` searches what is left, the last line even without its newline."""

    LINE = 1024
    CONTEXT = 64
    BATCH = 1 << 16
    _ELLIPSIS = "\u2026"

    def __init__(self) -> None:
        self.found: Optional[Signature] = None
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._partial = ""
        self._after_cr = False
        self._context: Deque[str] = deque(maxlen=self.CONTEXT)
        self._lines: List[str] = []
        self._size = 0

    def _bounded(self, line: str) -> str:
        if len(line) <= self.LINE:
            return line
        half = self.LINE // 2
        return line[:half] + self._ELLIPSIS + line[-half:]

    def feed(self, data: bytes) -> None:
        if self.found is None:
            self._text(self._decoder.decode(data))
            if self._size >= self.BATCH:
                self._search()

    def _text(self, text: str) -> None:
        if text and self._after_cr:  # a CR at the end of the last text: with this LF, one break
            self._after_cr = False
            text = text[1:] if text[0] == "\n" else text
        if "\r" in text:  # a CR alone ends a line as a terminal shows it (progress output)
            self._after_cr = text[-1] == "\r"
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        parts = text.split("\n")
        if len(parts) > 1:
            parts[0], self._partial = self._partial + parts[0], ""
            lines = parts[:-1]
            if "\x1b" in text or "\x9b" in text or "\x1b" in parts[0] or "\x9b" in parts[0]:
                lines = [_ESCAPES.sub("", line) for line in lines]  # a whole line: no sequence is cut
            self._lines += [line if len(line) <= self.LINE else self._bounded(line) for line in lines]
            self._size += sum(map(len, lines)) + len(lines)
        self._partial = self._bounded(self._partial + parts[-1])

    def finish(self) -> Optional[Signature]:
        """Search what is left (the last line too); the signature found, or None."""
        if self.found is None:
            self._text(self._decoder.decode(b"", True))
            if self._partial:
                self._text("\n")
            self._search()
        return self.found

    def _search(self) -> None:
        if not self._lines:
            return
        window = "\n".join([*self._context, *self._lines])
        for signature in SIGNATURES:
            if any(text in window for text in signature.needs) and signature.pattern.search(window):
                self.found = signature
                self._context.clear()
                break
        else:
            self._context.extend(self._lines)
        self._lines = []
        self._size = 0


def find_crash(text: str) -> Optional[Signature]:
    """The crash signature of a whole text, as the scanner finds it."""
    scanner, data = CrashScanner(), text.encode("utf-8", "surrogateescape")
    for start in range(0, len(data), CrashScanner.BATCH):
        scanner.feed(data[start : start + CrashScanner.BATCH])
    return scanner.finish()


def crash_signature(text: str) -> Optional[str]:
    """The runtime whose crash `text` shows, or None."""
    found = find_crash(text)
    return None if found is None else found.name
