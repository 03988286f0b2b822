"""How a file is checked, as one frozen value: the level, the reading profile, whether a
hidden value (`?`) is allowed, the rule profile with its per-file patterns, and the longest
line. It is checked once, when it is made (a ValueError naming the choices), and resolved
for each file by `for_path`, as ruff resolves its settings per path: the reading loop
(`engine.FileCheck`), the executors, the replay, the page, the harness, the API and every
command take this one value, whatever made it (the command line, a configuration file, a
keyword). What is *reported* of a file (select, ignore, the error cap) is the policy's
(`policy.py`), not this."""

from __future__ import annotations

from typing import Any, Optional, Tuple

from ..game.rule_profiles import DEFAULT as DEFAULT_RULES, departures
from ..layers.hidden import ALLOW
from ..layers.reader import DEFAULT_MAX_LINE_BYTES
from ..layers.schema import STRICT
from ..layers.stages import DEFAULT_LEVEL, check_options
from .policy import path_matches


class Checking:
    """How the files of a run are checked. `rules` is the rule profile of a file no
    pattern of `per_file_rules` ((glob, profile) pairs, the first match wins) names; the
    patterns match a path as the per-file ignores do, relative to `base` (the folder of the
    configuration file) or as given. Frozen (`replace` makes another), compared and hashed
    by its fields, picklable, so that workers check alike. (A plain class, not a dataclass:
    the `dataclasses` module would cost every run of `sgn` a tenth of its start.)"""

    __slots__ = ("level", "profile", "hidden", "rules", "max_line_bytes", "per_file_rules", "base")
    level: str
    profile: str
    hidden: str
    rules: str
    max_line_bytes: int
    per_file_rules: Tuple[Tuple[str, str], ...]
    base: Optional[str]

    def __init__(
        self,
        level: str = DEFAULT_LEVEL,
        profile: str = STRICT,
        hidden: str = ALLOW,
        rules: str = DEFAULT_RULES,
        max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
        per_file_rules: Tuple[Tuple[str, str], ...] = (),
        base: Optional[str] = None,
    ) -> None:
        values = (level, profile, hidden, rules, max_line_bytes, per_file_rules, base)
        for name, value in zip(self.__slots__, values):
            object.__setattr__(self, name, value)
        for field in ("level", "profile", "hidden", "rules"):  # (a ValueError in both builds)
            value = getattr(self, field)
            if not isinstance(value, str):
                raise ValueError(f"unknown {field} {value!r}: the name of one of its choices is expected")
        check_options(self.level, self.profile, self.hidden)
        for _, name in self.per_file_rules:
            departures(name)
        departures(self.rules)  # (a ValueError naming the profiles for another)
        if not isinstance(self.max_line_bytes, int) or self.max_line_bytes < 1:
            raise ValueError(f"max_line_bytes must be a positive number of bytes, not {self.max_line_bytes!r}")

    def _fields(self) -> Tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Checking is frozen: cannot set {name} (replace makes another)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Checking is frozen: cannot delete {name}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Checking) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Checking(" + ", ".join(f"{n}={v!r}" for n, v in zip(self.__slots__, self._fields())) + ")"

    def __reduce__(self) -> Tuple[Any, Tuple[Any, ...]]:
        return Checking, self._fields()

    def replace(self, **changes: Any) -> "Checking":
        """The same, but for the fields given."""
        return Checking(**{**dict(zip(self.__slots__, self._fields())), **changes})

    def for_path(self, path: str) -> "Checking":
        """How the file `path` is checked: its rule profile chosen by the first per-file
        pattern it matches, else the run's."""
        if not self.per_file_rules:
            return self
        rules = next((name for glob, name in self.per_file_rules if path_matches(path, glob, self.base)), self.rules)
        return self.replace(rules=rules, per_file_rules=(), base=None)

    def at_level(self, level: str) -> "Checking":
        """The same, read at `level` (a command that replays reads at `rules`)."""
        return self if level == self.level else self.replace(level=level)


DEFAULT = Checking()

__all__ = ["DEFAULT", "Checking"]
