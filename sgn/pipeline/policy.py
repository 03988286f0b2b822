"""What a run reports of what it finds, and whether it fails: `--select`, `--ignore`,
`--per-file-ignores` and `--max-errors`, applied in one place, inside each file's stream of
diagnostics; `-q` (which of those are shown) and `--fail-on` (which severities fail the run,
and so the exit status), asked of the same `Policy` by the run and its reporters, which are
handed only what to show.

Every executor (this process, `--jobs` workers, Dask workers) runs a file's check through
`Policy.apply`, so that the report does not depend on where the file was checked, and so
that `--max-errors N` counts the errors that will be shown: the first N *selected* errors,
in line order. A file that cannot be read (layer `io`, such as `read-error` or
`internal-error`) and the `info` that says the check stopped are always reported: no
selection can hide them.

Selectors are checked before anything runs (`unknown_selectors`): a code that does not
exist, or a glob that matches none, is a usage error, as ruff makes it, so that a typo
never silently selects nothing.

What is reported of a file is bounded too (`capped`): the warnings of one code past the
first MAX_PROBLEMS are told of in one, at the end, that stands for them in the counts,
as the problems of one message past MAX_PROBLEMS are.
"""

from __future__ import annotations

import fnmatch
import os
from typing import Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ..codes import CODES
from ..diagnostic import ERROR, MAX_PROBLEMS, WARNING, Diagnostic, make
from ..words import count
from .result import INVALID, VALID, VERDICTS, Streamed, worst

ALL = "ALL"
FAIL_ON = (ERROR, WARNING)  # `--fail-on`: the least severity that fails the run
# reported whatever the selection says: the run stopped, or a file was not checked at all
_ALWAYS = frozenset({"max-errors-reached"})


class Policy(NamedTuple):
    """The reporting policy of a run: picklable, so that workers apply the same.

    `per_file` pairs a glob with the codes it ignores; `base` is the folder of the
    configuration file, against which those globs match relative paths (as ruff's do).
    `quiet` (`-q`) shows only what fails the run; `fail_on` is the least severity that
    does (`error`, or `warning` too)."""

    select: Tuple[str, ...] = (ALL,)
    ignore: Tuple[str, ...] = ()
    per_file: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    max_errors: Optional[int] = None
    base: Optional[str] = None
    quiet: bool = False
    fail_on: str = ERROR

    @property
    def failing(self) -> Tuple[str, ...]:
        """The severities that fail the run: errors, and warnings too under `--fail-on warning`."""
        return FAIL_ON[: FAIL_ON.index(self.fail_on) + 1]

    def shows(self, diagnostic: Diagnostic) -> bool:
        """Whether a reported diagnostic is shown: every one, or under `-q` those that fail the run."""
        return not self.quiet or diagnostic.severity in self.failing

    def settle(self, result: Streamed) -> None:
        """A file's verdict once its diagnostics are all read (they are counted as they pass):
        under `--fail-on warning` a file with a warning is invalid, as one with an error is."""
        if result.verdict == VALID and result.warnings and WARNING in self.failing:
            result.verdict = INVALID

    def exit_code(self, results: Iterable[Streamed]) -> int:
        """The run's exit status, from its files' settled verdicts: 0 when each is valid, 1 when
        some data fails, 2 when some file could not be read at all, 3 when some log is
        undecided (a bound reached) and none worse (the worst wins: `result.worst`)."""
        return VERDICTS.index(worst(result.verdict for result in results))

    def keeps(self, path: str, code: str) -> bool:
        """Whether a diagnostic with `code`, in the file `path`, is reported (and counted)."""
        if code in _ALWAYS or CODES[code].layer == "io":
            return True
        return self._selected(code) and not any(_matches(code, codes) for _, codes in self.per_file_of(path))

    def _selected(self, code: str) -> bool:
        return _matches(code, self.select) and not _matches(code, self.ignore)

    def per_file_of(self, path: str) -> List[Tuple[str, Tuple[str, ...]]]:
        """The per-file patterns that match the file `path`, each with the codes it ignores."""
        return [(glob, codes) for glob, codes in self.per_file if path_matches(path, glob, self.base)]

    def reports_nothing(self, names: Optional[Iterable[str]] = None) -> bool:
        """Whether no code of the data is left to report, so that every file would pass,
        whatever it holds: in no file at all once selection and ignores apply (without
        `names`), or in none of the files `names` (a run's, as their diagnostics name
        them) once their per-file ignores apply too. Decided by what each pattern matches,
        as the check matches it (`keeps`), never by how it is written: `*`, `?*` and
        `*.sgn` are alike to a run of .sgn files. A few patterns, many files: each set of
        matching patterns is decided once."""
        data = [code for code, entry in CODES.items() if entry.layer != "io" and code not in _ALWAYS]
        left = [code for code in data if self._selected(code)]
        if not left or names is None or not self.per_file:
            return not left
        decided: Dict[Tuple[Tuple[str, ...], ...], bool] = {}
        for name in names:
            ignored = tuple(codes for _, codes in self.per_file_of(name))
            empty = decided.get(ignored)
            if empty is None:
                empty = decided[ignored] = not any(not any(_matches(code, codes) for codes in ignored) for code in left)
            if not empty:
                return False
        return True

    def apply(self, name: str, found: Iterator[Diagnostic]) -> Iterator[Diagnostic]:
        """The diagnostics of the file `name` this policy reports, up to the `max_errors`-th
        reported error; then one `info` that says the rest is not checked, and the file's
        check stops there (`found` is closed)."""
        everything = self.select == (ALL,) and not self.ignore and not self.per_file
        limit = self.max_errors
        if everything and limit is None:
            yield from found
            return
        keeps = _Keeper(self, name)
        errors = 0
        for diagnostic in found:
            if not (everything or keeps(diagnostic.code)):
                continue
            yield diagnostic
            if diagnostic.is_error and limit is not None:
                errors += 1
                if errors >= limit:
                    close = getattr(found, "close", None)
                    if close is not None:
                        close()
                    yield make(
                        "max-errors-reached",
                        f"stopped after {count(limit, 'error')} (--max-errors); the rest of the file is not checked",
                        file=name,
                        line=diagnostic.line,
                    )
                    return


def capped(found: Iterable[Diagnostic], limit: int = MAX_PROBLEMS) -> Iterator[Diagnostic]:
    """A file's diagnostics (in line order, as reported), the warnings of each code past the
    first `limit` left out: at the end, one warning a code stands for them (`occurrences`),
    so that the verdict and the counts are those of the whole list. Ten million blank lines
    are a hundred warnings and "... and 9,999,900 more like these", not 589 MB of them."""
    listed: Dict[str, Tuple[int, int]] = {}  # code -> (warnings listed, the line of the last)
    rest: Dict[str, List[int]] = {}  # code -> [warnings left out, the line of the last]
    name, last = "", 0
    for diagnostic in found:
        if diagnostic.severity == WARNING:
            code = diagnostic.code
            shown = listed.get(code, (0, 0))[0]
            if shown >= limit:
                held = rest.setdefault(code, [0, 0])
                held[0] += diagnostic.occurrences
                held[1] = max(held[1], diagnostic.line)
                name = diagnostic.file
                continue
            listed[code] = (shown + 1, diagnostic.line)
        last = max(last, diagnostic.line)
        yield diagnostic
    for code, (left_out, upto) in sorted(rest.items(), key=lambda item: item[1][1]):
        yield make(
            code,
            f"... and {left_out:,} more like these after line {listed[code][1]:,}, up to line {upto:,}, "
            "not listed one by one",
            file=name,
            line=max(last, upto),
            severity=WARNING,
            hint=f"a file lists at most {limit} warnings of one code; the counts hold them all",
            occurrences=left_out,
        )


class _Keeper:
    """`Policy.keeps` for one file, each code decided once (a file may have millions)."""

    def __init__(self, policy: Policy, path: str):
        self.policy, self.path = policy, path
        self.decided: Dict[str, bool] = {}

    def __call__(self, code: str) -> bool:
        kept = self.decided.get(code)
        if kept is None:
            kept = self.decided[code] = self.policy.keeps(self.path, code)
        return kept


def _matches(code: str, patterns: Iterable[str]) -> bool:
    return any(p == ALL or fnmatch.fnmatchcase(code, p) for p in patterns)


def path_matches(path: str, pattern: str, base: Optional[str]) -> bool:
    """A file matches a per-file pattern by its path relative to the configuration's folder
    (or as given), or by its name alone, as ruff matches them."""
    candidates = [path, os.path.basename(path)]
    if base is not None:
        try:
            candidates.append(os.path.relpath(os.path.abspath(path), base))
        except ValueError:  # another drive (Windows)
            pass
    return any(fnmatch.fnmatch(c.replace(os.sep, "/"), pattern) for c in candidates)


def unknown_selector(selector: str) -> Optional[str]:
    """Why `selector` selects nothing (a sentence), or None when it names a code, a glob
    that matches at least one, or ALL."""
    if selector == ALL or selector in CODES:
        return None
    if any(ch in selector for ch in "*?[") and any(fnmatch.fnmatchcase(code, selector) for code in CODES):
        return None
    if not selector:
        return "an empty code"
    if any(ch in selector for ch in "*?["):
        return f"{selector!r} matches no diagnostic code"
    import difflib  # here, not at start-up: only a wrong selector needs it

    near = difflib.get_close_matches(selector, list(CODES), n=3, cutoff=0.6)
    also = f" (did you mean {', '.join(near)}?)" if near else ""
    return f"{selector!r} is no diagnostic code{also}"


def check_selectors(selectors: Sequence[str], where: str, *, may_be_empty: bool = False) -> List[str]:
    """The problems of a list of selectors given at `where` (an option, or a file and key):
    each unknown one, and, unless `may_be_empty`, an empty list (`--select ''`), which
    would select nothing and pass every file."""
    if not selectors and not may_be_empty:
        return [f"{where} names no code"]
    return [f"{where}: {why}; `sgn codes` lists the codes" for why in map(unknown_selector, selectors) if why]
