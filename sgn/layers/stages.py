"""The layers after the syntax, as stages of one message: the schema, then the meaning of
the message (`semantic`); and the checks of one parsed message (`sgn.validate_message`).

A stage is a callable that takes one parsed message and returns its diagnostics and the
message as the next stage should read it (a legacy form read as 1.0). The rules replay is
the last stage of a whole log (`sgn/pipeline/engine.py` adds it); a single message is no
game, and is checked at most at the semantic level.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

from ..diagnostic import Diagnostic
from .hidden import ALLOW, CHOICES as HIDDEN_CHOICES
from .jsonline import value_problem
from .schema import PROFILES, STRICT, default_schema

LEVELS = ("syntax", "schema", "semantic", "rules")
AUTO = "auto"
LEVEL_CHOICES = LEVELS + (AUTO,)
DEFAULT_LEVEL = AUTO

Stage = Callable[[Any, str, int], Tuple[List[Diagnostic], Any]]


def schema_stage(profile: str, hidden: str = ALLOW) -> Stage:
    def check(message: Any, file: str, line: int) -> Tuple[List[Diagnostic], Any]:
        # built on first use: a run whose lines all pass the compiled check never loads jsonschema
        return default_schema().check(message, profile=profile, hidden=hidden, file=file, line=line)

    return check


def semantic_stage(profile: str, hidden: str = ALLOW) -> Stage:
    from .semantic import SemanticChecker

    return SemanticChecker()


# The stage factories of the layers of one message, in order.
MESSAGE_STAGES: Dict[str, Callable[[str, str], Stage]] = {"schema": schema_stage, "semantic": semantic_stage}


def check_options(level: str, profile: str, hidden: str = ALLOW) -> None:
    if level not in LEVEL_CHOICES:
        raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVEL_CHOICES)}")
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILES)}")
    if hidden not in HIDDEN_CHOICES:
        raise ValueError(f"unknown setting hidden={hidden!r}; expected one of {', '.join(HIDDEN_CHOICES)}")


def blocks(d: Diagnostic) -> bool:
    """Whether a diagnostic stops a message at its layer: an error, but for a hidden value
    refused (`hidden-value`), after which the message is still read, as hidden."""
    return d.is_error and d.code != "hidden-value"


def run_stages(stages: List[Stage], message: Any, file: str, line: int) -> Tuple[List[Diagnostic], Any]:
    """Run one message through the stages, stopping after the first that finds an error:
    the diagnostics, and the message as the stages leave it (a legacy form read as 1.0)."""
    found: List[Diagnostic] = []
    for stage in stages:
        more, message = stage(message, file, line)
        found += more
        if any(blocks(d) for d in more):
            break
    return found, message


def validate_message(
    value: Any,
    *,
    level: str = DEFAULT_LEVEL,
    profile: str = STRICT,
    hidden: str = ALLOW,
    file: str = "<input>",
    line: int = 0,
) -> List[Diagnostic]:
    """`sgn.validate_message` (documented in sgn/api.py, which the compiled build keeps readable)."""
    check_options(level, profile, hidden)
    problem = value_problem(value, file=file, line=line)
    if problem is not None:
        return [problem]
    level = "semantic" if level in (AUTO, "rules") else level
    layers = LEVELS[1 : LEVELS.index(level) + 1]
    return run_stages([MESSAGE_STAGES[layer](profile, hidden) for layer in layers], value, file, line)[0]
