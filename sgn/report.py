"""Reports: render diagnostics as they stream by, then a summary.

Collecting (the `Tally`) is separate from rendering (the reporters). A reporter
writes each diagnostic as soon as it is found, so output starts at once and
memory stays constant however many problems a file has; `-o json` streams its
list too. Reporters are registered by name for `-o`.
"""
from __future__ import annotations

import json
from typing import Dict, List, Optional, TextIO, Type

from .diagnostic import ERROR, WARNING, Diagnostic
from .words import count


class FileSummary:
    """What one file gave: its counts, and whether it could be read at all."""

    def __init__(self, file: str):
        self.file = file
        self.level = ""
        self.messages = self.errors = self.warnings = 0
        self.unreadable = False
        self.fragment = False       # no map at the start: checked message by message, not replayed
        self.games: List[dict] = []  # each game of the log (rules level): line, errors, warnings, winner
        self.game_count = 0          # the games of the log, listed or not (past the first 1,000)

    def to_dict(self) -> dict:
        return {"file": self.file, "level": self.level, "messages": self.messages, "errors": self.errors,
                "warnings": self.warnings, "valid": self.errors == 0 and not self.unreadable,
                "fragment": self.fragment, "games": self.games, "game_count": self.game_count}

    def describe(self) -> str:
        """What was checked, for the text summary: the level, and a fragment or the games."""
        if self.fragment:
            return f"{self.level}, a fragment: no map at its start, no game replayed"
        if self.game_count > 1:
            return f"{self.level}, {count(self.game_count, 'game')}"
        rules = self.games[0].get("rules") if self.games else None
        return f"{self.level}, {rules}" if rules and rules != "base game" else self.level


class Tally:
    """Counts what the run found; decides the exit code."""

    def __init__(self) -> None:
        self.files: List[FileSummary] = []

    def start(self, name: str) -> FileSummary:
        summary = FileSummary(name)
        self.files.append(summary)
        return summary

    @staticmethod
    def count(summary: FileSummary, diagnostic: Diagnostic) -> None:
        if diagnostic.is_io:
            summary.unreadable = True
        if diagnostic.severity == ERROR:
            summary.errors += 1
        elif diagnostic.severity == WARNING:
            summary.warnings += 1

    @property
    def errors(self) -> int:
        return sum(f.errors for f in self.files)

    @property
    def warnings(self) -> int:
        return sum(f.warnings for f in self.files)

    @property
    def messages(self) -> int:
        return sum(f.messages for f in self.files)

    @property
    def valid(self) -> bool:
        return self.errors == 0

    @property
    def exit_code(self) -> int:
        """0 valid, 1 some error in the data, 2 some file could not be read at all."""
        if any(f.unreadable for f in self.files):
            return 2
        return 0 if self.valid else 1


class Reporter:
    """Base reporter: `diagnostic` for each problem as found, `finish` once at the end."""

    def __init__(self, out: TextIO, *, quiet: bool = False):
        self.out = out
        self.quiet = quiet

    def wants(self, diagnostic: Diagnostic) -> bool:
        return not self.quiet or diagnostic.severity == ERROR

    def start(self) -> None:
        pass

    def diagnostic(self, diagnostic: Diagnostic) -> None:
        raise NotImplementedError

    def finish(self, tally: Tally) -> None:
        pass


def printable(text: str) -> str:
    """`text` with any lone surrogate (from a JSON string such as "\\udcff" in the input)
    written as its escape `\\udcff`, so that no output stream, however strict, fails on
    it. In JSON text the escape is also the JSON escape of the same character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


class TextReporter(Reporter):
    """One line per diagnostic, like a compiler, `file:line:column:` first (so that editors
    jump to it), and its hint, if it has one, on the next line:

        game.sgn:12:20: /2/result: 13 is greater than the maximum of 12 [schema-maximum]
            hint: a roll of two dice is 2 to 12
    """

    def diagnostic(self, d: Diagnostic) -> None:
        where = d.file + (f":{d.line}" if d.line else "") + (f":{d.column}" if d.line and d.column else "") + ":"
        severity = "" if d.severity == ERROR else f" {d.severity}:"
        pointer = f" {d.pointer}:" if d.pointer else ""
        hint = f"    hint: {d.hint}\n" if d.hint else ""
        self.out.write(printable(f"{where}{severity}{pointer} {d.message} [{d.code}]\n{hint}"))

    def finish(self, tally: Tally) -> None:
        if self.quiet:
            return
        files = tally.files
        for f in files:
            if len(f.games) > 1:
                for game in f.games:
                    verdict = "valid" if not game["errors"] else "INVALID"
                    end = f"player {game['winner']} won" if game["winner"] else "no winner"
                    if game.get("rules") not in (None, "base game"):
                        end += f" ({game['rules']})"
                    self.out.write(printable(f"{f.file}: game {game['game']} (from line {game['line']}): {verdict}: "
                                             f"{count(game['errors'], 'error')}, "
                                             f"{count(game['warnings'], 'warning')}; {end}\n"))
                if f.game_count > len(f.games):
                    self.out.write(printable(f"{f.file}: {count(f.game_count - len(f.games), 'more game')} "
                                             f"(not listed: the first {len(f.games)} are)\n"))
        what = files[0].file if len(files) == 1 else count(len(files), "file")
        levels = sorted({f.describe() for f in files if f.level})
        verdict = ("valid" if tally.exit_code == 0 else "INVALID") + (f" ({', '.join(levels)})" if levels else "")
        self.out.write(printable(f"{what}: {verdict}: {count(tally.messages, 'message')}, "
                                 f"{count(tally.errors, 'error')}, {count(tally.warnings, 'warning')}\n"))


class JsonReporter(Reporter):
    """One JSON object: `valid`, `exit_code`, `files`, `diagnostics`, streamed as found."""

    def start(self) -> None:
        self.first = True
        self.out.write('{"diagnostics": [')

    def diagnostic(self, d: Diagnostic) -> None:
        self.out.write(("\n  " if self.first else ",\n  ") + printable(json.dumps(d.to_dict(), ensure_ascii=False)))
        self.first = False

    def finish(self, tally: Tally) -> None:
        tail = {"valid": tally.valid and tally.exit_code == 0, "exit_code": tally.exit_code,
                "messages": tally.messages, "errors": tally.errors, "warnings": tally.warnings,
                "files": [f.to_dict() for f in tally.files]}
        body = printable(json.dumps(tail, ensure_ascii=False))[1:]
        self.out.write(("\n" if not self.first else "") + "], " + body + "\n")


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


class GithubReporter(Reporter):
    """GitHub Actions workflow commands, so problems show as annotations on the file."""

    def diagnostic(self, d: Diagnostic) -> None:
        command = {"error": "error", "warning": "warning"}.get(d.severity, "notice")
        props = [f"file={_escape_property(d.file)}"]
        if d.line:
            props.append(f"line={d.line}")
        if d.column:
            props.append(f"col={d.column}")
        props.append(f"title={_escape_property(d.code)}")
        text = f"{d.pointer}: {d.message}" if d.pointer else d.message
        if d.hint:
            text += f" (hint: {d.hint})"
        self.out.write(printable(f"::{command} {','.join(props)}::{_escape_data(text)}\n"))


REPORTERS: Dict[str, Type[Reporter]] = {
    "text": TextReporter,
    "json": JsonReporter,
    "github": GithubReporter,
}


def _parquet(out, *, quiet: bool = False) -> Reporter:
    """-o parquet (sgn/cluster/parquet.py), loaded when asked: pyarrow is an optional extra."""
    from .cluster.parquet import ParquetReporter
    return ParquetReporter(out, quiet=quiet)


REPORTERS["parquet"] = _parquet     # type: ignore[assignment]


class Progress:
    """A one-line progress report on a terminal (never in a pipe or on CI), for long runs."""

    def __init__(self, stream: Optional[TextIO], total: int):
        self.stream = stream
        self.total = total
        self.shown = False
        self.last = 0.0

    @classmethod
    def for_terminal(cls, stream: TextIO, total: int) -> "Progress":
        import os
        on_terminal = hasattr(stream, "isatty") and stream.isatty() and not os.environ.get("CI")
        return cls(stream if on_terminal and total > 1 else None, total)

    def advance(self, tally: "Tally") -> None:
        import time
        if self.stream is None or time.monotonic() - self.last < 0.2:
            return
        self.last = time.monotonic()
        self.stream.write(f"\r{len(tally.files)}/{self.total} files, {tally.messages:,} messages, "
                          f"{tally.errors:,} errors")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown and self.stream is not None:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False
