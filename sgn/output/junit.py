"""`sgn validate -o junit`: JUnit XML as pytest writes it, for CI test reports.

One test suite; one test case per file, named by its path. A file with errors has a
<failure>, a file that cannot be read an <error> (as a test that cannot run), each
listing the file's diagnostics as the text report writes them; warnings alone do not
fail a file, and are listed in its <system-out>. No time, timestamp or host name: the
report is the same, byte for byte, for the same files and any --jobs.

The counts go on the <testsuite> element, before the test cases, and are known only at
the end: the test cases wait in a temporary file (in memory while small), so that memory
stays bounded however many diagnostics a run has.
"""

from __future__ import annotations

import contextlib
from typing import IO, Iterator

from ..pipeline.result import UNREADABLE, Streamed
from ..words import count
from . import xml as junit
from .reporters import Reporter, ReportError, Tally, shown_verdict, text_lines

_IN_MEMORY = 1 << 20  # bytes of each temporary file kept in memory before it goes to disk
SUITE = "sgn validate"


def _spool() -> IO[str]:
    import tempfile  # here: the import costs every command's start-up a few milliseconds

    return tempfile.SpooledTemporaryFile(max_size=_IN_MEMORY, mode="w+", encoding="utf-8", newline="")


@contextlib.contextmanager
def _spooling() -> Iterator[None]:
    """Writing to the temporary files: a failure (a full disk) is the run's, said in a line."""
    try:
        yield
    except OSError as error:
        raise ReportError(f"-o junit cannot write a temporary file: {error.strerror or error}") from None


def _copy(source: IO[str], target: IO[str]) -> None:
    """All of `source`, from its start, to `target`, a piece at a time."""
    source.seek(0)
    for piece in iter(lambda: source.read(1 << 16), ""):
        target.write(piece)


class JunitReporter(Reporter):
    """The test cases as each file is done; the suite, with its counts, at the end."""

    def start(self) -> None:
        self.cases = _spool()  # the test cases written so far
        self.listed = _spool()  # the diagnostics of the file being checked

    def diagnostic(self, d) -> None:
        with _spooling():
            self.listed.write(junit.text(text_lines(d)))

    def file_done(self, summary: Streamed) -> None:
        with _spooling():
            self._case(summary)

    def _case(self, summary: Streamed) -> None:
        head = f"    <testcase{junit.attributes({'classname': SUITE, 'name': summary.file})}"
        has_listed = self.listed.tell() > 0
        if summary.valid and not has_listed:
            self.cases.write(head + "/>\n")
            return
        if summary.valid:
            opening, closing = "      <system-out>", "</system-out>\n"
        else:
            tag = "error" if summary.verdict == UNREADABLE else "failure"
            message = (
                f"{shown_verdict(summary)}: {count(summary.errors, 'error')}, {count(summary.warnings, 'warning')}"
            )
            opening, closing = f"      <{tag} message={junit.attribute(message)}>", f"</{tag}>\n"
        self.cases.write(head + ">\n" + opening)
        _copy(self.listed, self.cases)
        self.listed.seek(0)
        self.listed.truncate()
        self.cases.write(closing + "    </testcase>\n")

    def finish(self, tally: Tally) -> None:
        files = tally.files
        errors = sum(f.verdict == UNREADABLE for f in files)
        failures = sum(not f.valid for f in files) - errors
        counts = junit.attributes(dict(name=SUITE, **junit.counts(len(files), failures, errors, 0)))
        self.out.write(f"{junit.HEADER}<testsuites{counts}>\n  <testsuite{counts}>\n")
        _copy(self.cases, self.out)
        self.out.write("  </testsuite>\n</testsuites>\n")
        self.cases.close()
        self.listed.close()
