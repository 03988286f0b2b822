"""Reports: render diagnostics as they stream by, then a summary.

Collecting (the `Tally`) is separate from rendering (the reporters). A reporter is
handed only the diagnostics to show (`-q` is the policy's, sgn/pipeline/policy.py: the
run asks it), and reads whether the run fails from the tally, which asks the same
policy. It writes each diagnostic as soon as it is found, so output starts at once and
memory stays constant however many problems a file has; `-o json` streams its
list too. Text, json, jsonl and github are here; junit and sarif, for CI, in their
own modules; `sgn.output` registers them all by name for `-o`.
"""

from __future__ import annotations

import json
from typing import List, Optional, TextIO

from ..diagnostic import ERROR, INFO, WARNING, Diagnostic
from ..layers.records import ENDED
from ..packaged import VERSION
from ..pipeline.policy import Policy
from ..pipeline.result import UNDECIDED, VALID, VERDICTS, Streamed
from ..words import count, printable, visible
from .colour import Painter
from .source import source_lines


def shown_verdict(f: Streamed) -> str:
    """A file's verdict as the text says it: valid, INVALID, UNREADABLE (not checked at all:
    exit 2) or NOT DECIDED (a bound reached, no error: exit 3)."""
    return said_verdict(f.verdict)


def said_verdict(verdict: str) -> str:
    return verdict if verdict == VALID else "NOT DECIDED" if verdict == UNDECIDED else verdict.upper()


def file_dict(f: Streamed) -> dict:
    """A file's counts as `-o json` lists them. `level` is null when no level was run (the file
    could not be read, or held no message); `verdict` is valid, invalid, unreadable (not
    checked at all: exit 2) or undecided (a bound reached, no error: exit 3)."""
    return {
        "file": f.file,
        "level": f.level,
        "messages": f.messages,
        "errors": f.errors,
        "warnings": f.warnings,
        "valid": f.valid,
        "verdict": f.verdict,
        "fragment": f.fragment,
        "games": f.games,
        "game_count": f.game_count,
    }


def described(f: Streamed) -> str:
    """What was checked, for the text summary: the level, and a fragment or the games."""
    if f.fragment:
        return f"{f.level}, a fragment: no map at its start, no game replayed"
    if f.game_count > 1:
        return f"{f.level}, {count(f.game_count, 'game')}"
    rules = f.games[0].get("rules") if f.games else None
    return f"{f.level}, {rules}" if rules and rules != "base game" else str(f.level)


def kind(f: Streamed) -> str:
    """What the file held, as a noun a count goes before in the total line."""
    if f.fragment:
        return "fragment"
    if f.game_count > 1:
        return "file of several games"
    rules = f.games[0].get("rules") if f.games else None
    return f"{rules} game" if rules and rules != "base game" else "base game" if rules else "file"


def total_levels(files: List[Streamed]) -> List[str]:
    """What several files were, for the total line: their one description when they share it,
    else each level with how many files of each kind (`rules: 1 base game, 1 5-6 player
    extension game`), rather than every file's description side by side."""
    checked = [f for f in files if f.level]
    if len({described(f) for f in checked}) <= 1:
        return sorted({described(f) for f in checked})
    kinds: dict = {}
    for f in checked:
        at = kinds.setdefault(f.level, {})
        at[kind(f)] = at.get(kind(f), 0) + 1
    return [
        "; ".join(
            f"{level}: " + ", ".join(_counted(n, kind) for kind, n in sorted(at.items()))
            for level, at in sorted(kinds.items())
        )
    ]


def _counted(n: int, kind: str) -> str:
    if kind == "file of several games":
        return f"{n} {'file' if n == 1 else 'files'} of several games"
    return count(n, kind)


class Tally:
    """The files of the run, each a `Result` (sgn/pipeline/result.py), and the policy that
    settles their verdicts and the run's exit status (`--fail-on`, `-q`)."""

    def __init__(self, policy: Policy = Policy()) -> None:
        self.files: List[Streamed] = []
        self.policy = policy

    def start(self, result: Streamed) -> None:
        """A file whose diagnostics are about to be read (its counts grow as they are)."""
        self.files.append(result)

    def done(self, result: Streamed) -> None:
        """A file whose diagnostics have all been read: its verdict is settled by the policy."""
        self.policy.settle(result)

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
    def exit_code(self) -> int:
        """0 valid, 1 some data fails the run, 2 some file could not be read at all (the policy's)."""
        return self.policy.exit_code(self.files)

    @property
    def valid(self) -> bool:
        return self.exit_code == 0


class ReportError(Exception):
    """A reporter cannot keep what it holds until the end of the run (a full disk)."""


class Reporter:
    """Base reporter: `diagnostic` for each problem to show, as found, `file_done` after each
    file's last (with its counts), `finish` once at the end, with the tally (the verdict).
    Only text is ever in colour."""

    def __init__(self, out: TextIO, *, color: bool = False):
        self.out = out
        self.paint = Painter(color)

    def start(self) -> None:
        pass

    def diagnostic(self, diagnostic: Diagnostic) -> None:
        raise NotImplementedError

    def file_done(self, result: Streamed) -> None:
        pass

    def finish(self, tally: Tally) -> None:
        pass


_PLAIN = Painter(False)


def text_lines(d: Diagnostic, paint: Painter = _PLAIN) -> str:
    """A diagnostic as text: its line, and its hint on the next (both ending in a newline)."""
    where = visible(d.file) + (f":{d.line}" if d.line else "") + (f":{d.column}" if d.line and d.column else "") + ":"
    role = d.severity if d.severity in (ERROR, WARNING, INFO) else ERROR
    severity = "" if d.severity == ERROR else " " + paint(f"{d.severity}:", role)
    pointer = f" {visible(d.pointer)}:" if d.pointer else ""
    hint = f"    {paint('hint:', 'hint')} {visible(d.hint)}\n" if d.hint else ""
    return printable(
        f"{paint(where, 'location')}{severity}{pointer} {visible(d.message)} [{paint(d.code, role)}]\n{hint}"
    )


class TextReporter(Reporter):
    """Each diagnostic like a compiler's, `file:line:column:` first (so that editors jump to
    it), then its line with carets under the value its pointer names (sgn/output/source.py),
    and its hint, if it has one, as ruff shows them:

        game.sgn:12:20: /2/result: 13 is greater than the maximum of 12 [schema-maximum]
           |
        12 | [0,"R",{"result":13}]
           |                   ^^
            hint: a roll of two dice is 2 to 12

    then a summary: of each game of a log of several, of each file when there are several,
    and of the whole run.
    """

    concise = False  # `-o concise`: the line alone, without the source or the hint (as ruff's)

    def diagnostic(self, d: Diagnostic) -> None:
        if self.concise:
            self.out.write(text_lines(d, self.paint).partition("\n")[0] + "\n")
            return
        if d.source is None:
            self.out.write(text_lines(d, self.paint))
            return
        first, _, hint = text_lines(d, self.paint).partition("\n")
        role = d.severity if d.severity in (ERROR, WARNING, INFO) else ERROR
        self.out.write(first + "\n" + source_lines(d, self.paint, role) + hint + "\n")

    def _verdict(self, verdict: str) -> str:
        return self.paint(verdict, "valid" if verdict == "valid" else "error")

    def _games(self, f: Streamed) -> None:
        if len(f.games) < 2:
            return
        for game in f.games:
            verdict = self._verdict("valid" if not game["errors"] else "INVALID")
            end = f"player {game['winner']} won" if game["winner"] else "no winner"
            if game.get("result") and game["result"] != "won":
                end += f" ({ENDED[game['result']]}, as its header says)"
            if game.get("rules") not in (None, "base game"):
                end += f" ({game['rules']})"
            self.out.write(
                printable(
                    f"{visible(f.file)}: game {game['game']} (from line {game['line']}): {verdict}: "
                    f"{count(game['errors'], 'error')}, "
                    f"{count(game['warnings'], 'warning')}; {end}\n"
                )
            )
        if f.game_count > len(f.games):
            self.out.write(
                printable(
                    f"{visible(f.file)}: {count(f.game_count - len(f.games), 'more game')} "
                    f"(not listed: the first {len(f.games)} are)\n"
                )
            )

    def _summary(self, what: str, verdict: str, levels: List[str], messages: int, errors: int, warnings: int) -> None:
        checked = f" ({', '.join(levels)})" if levels else ""
        self.out.write(
            printable(
                f"{visible(what)}: {self._verdict(verdict)}{checked}: {count(messages, 'message')}, "
                f"{count(errors, 'error')}, {count(warnings, 'warning')}\n"
            )
        )

    def finish(self, tally: Tally) -> None:
        if tally.policy.quiet:  # -q: what fails the run, no summary
            return
        files = tally.files
        for f in files:
            self._games(f)
            if len(files) > 1:
                self._summary(
                    f.file, shown_verdict(f), [described(f)] if f.level else [], f.messages, f.errors, f.warnings
                )
        if len(files) == 1:
            verdict = shown_verdict(files[0])
            what = files[0].file
        else:
            verdict = said_verdict(VERDICTS[tally.exit_code])  # the worst of the files
            what = count(len(files), "file")
        self._summary(what, verdict, total_levels(files), tally.messages, tally.errors, tally.warnings)


def json_line(d: Diagnostic) -> str:
    """A diagnostic as one line of JSON (no newline), as `-o json` and `-o jsonl` write it."""
    return printable(json.dumps(d.to_dict(), ensure_ascii=False))


class JsonReporter(Reporter):
    """One JSON object: `tool` (the name and version of what checked), `diagnostics`, streamed
    as found, then `valid`, `exit_code`, `messages`, `errors`, `warnings` and `files`."""

    def start(self) -> None:
        self.first = True
        tool = json.dumps({"name": "sgn", "version": VERSION})
        self.out.write('{"tool": ' + tool + ', "diagnostics": [')

    def diagnostic(self, d: Diagnostic) -> None:
        self.out.write(("\n  " if self.first else ",\n  ") + json_line(d))
        self.first = False

    def finish(self, tally: Tally) -> None:
        tail = {
            "valid": tally.valid,
            "exit_code": tally.exit_code,
            "messages": tally.messages,
            "errors": tally.errors,
            "warnings": tally.warnings,
            "files": [file_dict(f) for f in tally.files],
        }
        body = printable(json.dumps(tail, ensure_ascii=False))[1:]
        self.out.write(("\n" if not self.first else "") + "], " + body + "\n")


def _escape_data(text: str) -> str:
    """GitHub's escapes of a workflow command (`%`, CR, LF), then any other control
    character written as the text report writes it (`visible`): none reaches the log raw."""
    return visible(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


class ConciseReporter(TextReporter):
    """`-o concise`: one line per diagnostic (no source, no hint: `--show-fixes`-less ruff's
    concise form), then the summary."""

    concise = True


class JsonLinesReporter(Reporter):
    """One JSON object a line, a diagnostic each (the fields of `-o json`'s diagnostics), and
    nothing else, as ruff's json-lines: for `jq` and `grep`. The exit status is the verdict."""

    def diagnostic(self, d: Diagnostic) -> None:
        self.out.write(json_line(d) + "\n")


def one_line(d: Diagnostic) -> str:
    """The pointer, the message and the hint in one line, for a CI annotation."""
    text = f"{d.pointer}: {d.message}" if d.pointer else d.message
    return text + (f" (hint: {d.hint})" if d.hint else "")


class GithubReporter(Reporter):
    """GitHub Actions workflow commands, so problems show as annotations on the file, as ruff
    writes them: `::error title=sgn (CODE),file=F,line=L,col=C,endLine=L,endColumn=E::F:L:C:
    CODE message`, the path as given but for a leading `./` (GitHub's paths are the
    repository's)."""

    def diagnostic(self, d: Diagnostic) -> None:
        command = {"error": "error", "warning": "warning"}.get(d.severity, "notice")
        name = d.file
        while name.startswith("./"):
            name = name[2:]
        props = [f"title={_escape_property(f'sgn ({d.code})')}", f"file={_escape_property(name)}"]
        where = name
        if d.line:
            props.append(f"line={d.line}")
            where += f":{d.line}"
            if d.column:
                props.append(f"col={d.column}")
                where += f":{d.column}"
                if d.end_column:
                    props += [f"endLine={d.line}", f"endColumn={d.end_column}"]
        body = f"{where}: {d.code} {one_line(d)}"
        self.out.write(printable(f"::{command} {','.join(props)}::{_escape_data(body)}\n"))


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
        self.stream.write(
            f"\r{len(tally.files)}/{self.total} files, {tally.messages:,} messages, {tally.errors:,} errors"
        )
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown and self.stream is not None:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False
