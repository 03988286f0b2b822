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
from .jsonline import value_problem
from .schema import PROFILES, STRICT, default_schema

LEVELS = ("syntax", "schema", "semantic", "rules")
AUTO = "auto"
LEVEL_CHOICES = LEVELS + (AUTO,)
DEFAULT_LEVEL = AUTO

Stage = Callable[[Any, str, int], Tuple[List[Diagnostic], Any]]


def schema_stage(profile: str) -> Stage:
    def check(message: Any, file: str, line: int) -> Tuple[List[Diagnostic], Any]:
        # built on first use: a run whose lines all pass the compiled check never loads jsonschema
        return default_schema().check(message, profile=profile, file=file, line=line)

    return check


def semantic_stage(profile: str) -> Stage:
    from .semantic import SemanticChecker

    return SemanticChecker()


# The stage factories of the layers of one message, in order.
MESSAGE_STAGES: Dict[str, Callable[[str], Stage]] = {"schema": schema_stage, "semantic": semantic_stage}


def check_options(level: str, profile: str) -> None:
    if level not in LEVEL_CHOICES:
        raise ValueError(f"unknown level {level!r}; expected one of {', '.join(LEVEL_CHOICES)}")
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILES)}")


def run_stages(stages: List[Stage], message: Any, file: str, line: int) -> Tuple[List[Diagnostic], Any]:
    """Run one message through the stages, stopping after the first that finds an error:
    the diagnostics, and the message as the stages leave it (a legacy form read as 1.0)."""
    found: List[Diagnostic] = []
    for stage in stages:
        more, message = stage(message, file, line)
        found += more
        if any(d.is_error for d in more):
            break
    return found, message


def validate_message(
    value: Any, *, level: str = DEFAULT_LEVEL, profile: str = STRICT, file: str = "<input>", line: int = 0
) -> List[Diagnostic]:
    """`sgn.validate_message` (documented in sgn/api.py, which the compiled build keeps readable)."""
    check_options(level, profile)
    problem = value_problem(value, file=file, line=line)
    if problem is not None:
        return [problem]
    level = "semantic" if level in (AUTO, "rules") else level
    layers = LEVELS[1 : LEVELS.index(level) + 1]
    return run_stages([MESSAGE_STAGES[layer](profile) for layer in layers], value, file, line)[0]
