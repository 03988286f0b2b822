"""The diagnostic: one problem found in one place, the currency of the whole package.

Every stage (reading, parsing, schema, and later semantic and rules) reports
what it finds as `Diagnostic` records; reports only render them.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, NamedTuple, Optional, Tuple

from .codes import CODES, IO_LAYER

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)
MAX_PROBLEMS = 100  # listed for one message by one layer: a message of thousands of faults costs no more


class SourceTypeError(TypeError):
    """A source, or an item of an iterable source, of a type no log is read from: raised to
    the caller (the user's mistake, not a fault of the file), never a diagnostic. Defined
    here, in a module that is not compiled: mypyc compiles no subclass of a builtin type."""


class Problem(NamedTuple):
    """A rule broken by one message, before it has a place in a file: what the semantic
    checks and the rules replay find (`make` with a file and line makes it a Diagnostic).

    Its four fields are (code, pointer, message, hint), as they always were; `severity` and
    `layer` are those of its code in the registry (`sgn.codes.CODES`), which is where a
    `Diagnostic` takes them from too. `diagnostic(file, line)` makes the `Diagnostic`."""

    code: str
    pointer: str
    message: str
    hint: Optional[str] = None

    @property
    def severity(self) -> str:
        """ "error", "warning" or "info", as `sgn validate` reports this code."""
        return CODES[self.code].severity

    @property
    def layer(self) -> str:
        """The layer of the code ("semantic", "rules", ...)."""
        return CODES[self.code].layer

    def diagnostic(self, file: str = "<input>", line: int = 0) -> "Diagnostic":
        """This problem as a `Diagnostic` at `line` of `file`."""
        return make(self.code, self.message, file=file, line=line, pointer=self.pointer, hint=self.hint)


class Diagnostic(NamedTuple):
    """A problem with a stable `code`, where it is, and a sentence about it.

    `line` is 1-based (0 when the problem concerns the whole file), `pointer`
    is an RFC 6901 JSON pointer into the message ("" for the whole line),
    `column` the 1-based character column of the value the pointer names (or of the fault
    below JSON level), `end_column` one past that value's end (both placed by
    `sgn.layers.columns.place`; None where the line holds no value on the pointer's way).
    `occurrences` is 1, or how many alike it stands for when it closes a list cut short
    ("... and 9,999,900 more like these"): the counts of a check count each of them.
    `source` is the excerpt of the line the text report prints under the diagnostic
    (text, its first column, whether the line goes on), kept from the file as it is read;
    it is not part of `to_dict`.
    """

    code: str
    layer: str
    severity: str
    message: str
    file: str = "<input>"
    line: int = 0
    pointer: str = ""
    hint: Optional[str] = None
    column: Optional[int] = None
    occurrences: int = 1
    end_column: Optional[int] = None
    source: Optional[Tuple[str, int, bool]] = None

    @property
    def is_error(self) -> bool:
        """True for an error, the only severity that makes a log invalid."""
        return self.severity == ERROR

    @property
    def is_io(self) -> bool:
        """True for problems that stop a file from being read at all (exit 2)."""
        return self.layer == IO_LAYER

    def to_dict(self) -> Dict[str, Any]:
        """A JSON-ready mapping; optional fields are omitted when unset."""
        data = self._asdict()
        del data["source"]
        for key in ("hint", "column", "end_column"):
            if data[key] is None:
                del data[key]
        if data["occurrences"] == 1:
            del data["occurrences"]
        return data


def make(
    code: str,
    message: str,
    *,
    file: str = "<input>",
    line: int = 0,
    pointer: str = "",
    hint: Optional[str] = None,
    column: Optional[int] = None,
    severity: Optional[str] = None,
    occurrences: int = 1,
) -> Diagnostic:
    """Build a diagnostic whose layer and default severity come from the registry."""
    entry = CODES[code]
    return Diagnostic(
        code=code,
        layer=entry.layer,
        severity=severity or entry.severity,
        message=message,
        file=file,
        line=line,
        pointer=pointer,
        hint=hint,
        column=column,
        occurrences=occurrences,
    )


def escape_pointer_token(token: Any) -> str:
    """Escape one reference token as RFC 6901 requires."""
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer_from_path(path: Iterable[Any], prefix: str = "") -> str:
    """Join a sequence of keys and indexes into a JSON pointer."""
    return prefix + "".join("/" + escape_pointer_token(p) for p in path)


def more_problems(code: str, file: str, line: int) -> Diagnostic:
    """The `info` that closes a list cut at MAX_PROBLEMS."""
    return make(
        code,
        f"the message has more problems than the {MAX_PROBLEMS} listed; the rest are not listed",
        file=file,
        line=line,
        hint="fix those listed and check again",
    )


def internal_error(error: BaseException, name: str, line: int) -> Diagnostic:
    """What a file gets when sgn fails on it: the place, and what failed, to be reported."""
    where = f" at line {line}" if line else ""
    return make(
        "internal-error",
        f"sgn failed while checking this file{where} "
        f"({type(error).__name__}: {error}); the rest of the file is not checked",
        file=name,
        line=line,
        hint="this is a bug in sgn: please report it with the file (SGN_DEBUG=1 shows the traceback)",
    )
