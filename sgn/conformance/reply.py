"""An implementation's replies (persistent mode), read into what the harness keeps of them.

A reply line may be 1 MiB (`process.MAX_OUTPUT_BYTES`), which parses into
up to 40 MB of Python objects and may hold 90,000 errors, each with extra
properties of any size (the protocol allows them). So a reply is parsed, checked
against the protocol and reduced to a bounded summary in one call, and the parsed
value is dropped on return: a run holds one parsed reply at a time, and a few
kilobytes a case for the report. Its errors are checked one at a time, stopping
at the first problem and at the case's deadline.
"""

from __future__ import annotations

import gc
import json
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

from .. import packaged
from ..layers import jsonline
from .process import TimedOut

PROTOCOL_FILE = "harness/v1/protocol.json"
MAX_CODES = 16  # distinct error codes kept of a reply; then MORE_CODES marks that there were more
MAX_ERRORS = 20  # (code, line, pointer, column) kept of a reply's errors (and warnings), the first ones
MAX_CHARS = 200  # of any string kept (a code, a pointer, a reason, a message)
MAX_LINE = 2**63 - 1  # a larger line number is kept as this one
MORE_CODES = "..."
MAX_STATE_CHARS = 1 << 16  # a reported end state longer than this, as JSON, is not kept
_DEADLINE_EVERY = 256  # items checked between two looks at the clock (a few milliseconds)
_DESCRIBED = ("name", "language", "version", "homepage", "levels", "profiles", "extensions")
_DEPARTURES = 32  # a rules engine's departures kept (there are 14 classes of moves)

Error = Tuple[str, Optional[int], Optional[str], Optional[int]]  # code, line, pointer, column


class ProtocolError(Exception):
    """The implementation broke the protocol: the message says how."""


def cut(text: str, limit: int = MAX_CHARS) -> str:
    """A string kept for the report: at most `limit` characters, and '...' when cut."""
    return text if len(text) <= limit else text[:limit] + "..."


def parse_reply(line: bytes) -> Any:
    """A reply's JSON value; nesting deeper than jsonline.MAX_DEPTH is refused before parsing.
    The garbage collector is paused meanwhile (parsing makes no cycles): a reply of 1 MiB
    of small arrays would have it run over and over, 0.3 s instead of 0.03."""
    deep = jsonline.too_deep(line, jsonline.MAX_DEPTH)
    if deep is not None:
        raise ProtocolError(f"a reply nested more than {jsonline.MAX_DEPTH} deep (from byte {deep})")
    paused = gc.isenabled()
    gc.disable()
    try:
        return json.loads(line)
    except RecursionError:
        raise ProtocolError("a reply nested too deep to parse") from None
    except ValueError:
        raise ProtocolError(f"not JSON: {line[:120]!r}") from None
    finally:
        if paused:
            gc.enable()


def kept_errors(errors: List[dict]) -> Tuple[Tuple[str, ...], Tuple[Error, ...]]:
    """Of a checked reply's errors: the distinct codes, sorted (the first MAX_CODES, then
    MORE_CODES if there were more), and the first MAX_ERRORS (code, line, pointer, column)."""
    codes: Dict[str, None] = {}
    more = False
    first: List[Error] = []
    for error in errors:
        code = cut(error["code"])
        if len(first) < MAX_ERRORS:
            line, pointer, column = error.get("line"), error.get("pointer"), error.get("column")
            first.append(
                (
                    code,
                    None if line is None else min(line, MAX_LINE),
                    None if pointer is None else cut(pointer),
                    None if column is None else min(column, MAX_LINE),
                )
            )
        if code not in codes:
            more |= len(codes) >= MAX_CODES
            if not more:
                codes[code] = None
    return tuple(sorted(codes)) + ((MORE_CODES,) if more else ()), tuple(first)


def as_dict(error: Error) -> Dict[str, Any]:
    """A kept error as the fields `expectations` compares."""
    return dict(zip(("code", "line", "pointer", "column"), error))


def _kept_state(state: Any) -> Tuple[Optional[dict], str]:
    """A reported end state, and why it is not kept ('' when it is)."""
    if state is None:
        return None, ""
    size = len(json.dumps(state))
    if size > MAX_STATE_CHARS:
        return None, f"a state of {size} characters as JSON (the limit is {MAX_STATE_CHARS})"
    return state, ""


@dataclass(frozen=True)
class Reply:
    """What is kept of a reply to `run`: `kind` is "result", "skipped" or "errored".
    `warnings` is None when the reply gives none (then they are not compared)."""

    kind: str
    valid: Optional[bool] = None
    codes: Tuple[str, ...] = ()
    errors: Tuple[Error, ...] = ()
    error_count: int = 0
    warnings: Optional[Tuple[Error, ...]] = None
    warning_count: int = 0
    state: Optional[dict] = None
    state_problem: str = ""
    text: str = ""  # the reason (skipped) or message (errored)


def _text(value: dict, key: str, default: str) -> str:
    return cut(value[key]) if isinstance(value.get(key), str) else default


class Replies:
    """Checks replies against the protocol's schema, giving the first problem only (the
    schema's anyOf gathers every problem of every branch: 350 MB for a reply of 1 MiB with
    a bad code in each of its errors). The long arrays a reply may hold (errors, levels,
    profiles) are checked item by item after the rest, looking at the clock: 80,000
    errors are a second's work."""

    def __init__(self):
        from jsonschema import Draft4Validator

        definitions = packaged.load_json(PROTOCOL_FILE)["definitions"]

        def validator(schema: dict) -> Draft4Validator:
            return Draft4Validator(dict(schema, definitions=definitions))

        def items(array: dict) -> Draft4Validator:  # the items are a $ref
            return validator(definitions[array["items"]["$ref"].rsplit("/", 1)[1]])

        self._started = validator(definitions["started"])
        described = definitions["started"]["properties"]["implementation"]["properties"]
        self._listed = {key: items(described[key]) for key in ("levels", "profiles", "extensions")}
        self._reply = validator(definitions["reply"])
        self._moves = validator(definitions["moves_reply"])
        self._others = [validator(definitions[name]) for name in ("skipped", "errored")]
        self._error = items(definitions["result"]["properties"]["errors"])

    @staticmethod
    def _problem(validator, value: Any) -> Optional[str]:
        error = next(validator.iter_errors(value), None)
        return None if error is None else cut(error.message)

    def _each(self, validator, items: list, deadline: float, where: str) -> Optional[str]:
        for index, item in enumerate(items):
            if index % _DEADLINE_EVERY == _DEADLINE_EVERY - 1 and time.monotonic() > deadline:
                raise TimedOut(f"the {len(items)} items of {where} were not checked")
            problem = self._problem(validator, item)
            if problem:
                return f"{where}[{index}]: {problem}"
        return None

    def started(self, line: bytes, deadline: float) -> Dict[str, Any]:
        """The implementation's description from its answer to start: the protocol's
        properties only, strings cut, levels and profiles each once."""
        value = parse_reply(line)
        problem = self._check_started(value, deadline)
        if problem:
            raise ProtocolError(f"bad answer to start: {problem}")
        described: Dict[str, Any] = {
            key: cut(v) if isinstance(v, str) else list(dict.fromkeys(v))
            for key, v in value["implementation"].items()
            if key in _DESCRIBED
        }
        if "moves" in value["implementation"]:  # a rules engine (moves.py): its departures, each cut
            listed = value["implementation"]["moves"].get("departures", [])[:_DEPARTURES]
            described["moves"] = {"departures": [{"moves": d["moves"], "rule": cut(d["rule"])} for d in listed]}
        return described

    def _check_started(self, value: Any, deadline: float) -> Optional[str]:
        described = value.get("implementation") if isinstance(value, dict) else None
        lists = (
            {key: v for key, v in described.items() if key in self._listed and isinstance(v, list)}
            if isinstance(described, dict)
            else {}
        )
        if lists and isinstance(described, dict):  # (lists are found only in a dict)
            value = dict(value, implementation=dict(described, **dict.fromkeys(lists, [])))
        problem = self._problem(self._started, value)
        for key, items in lists.items():
            problem = problem or self._each(self._listed[key], items, deadline, f"implementation.{key}")
        return problem

    def run(self, line: bytes, seq: int, deadline: float) -> Reply:
        """The reply to run number `seq`. TimedOut when its errors are not all checked by the deadline."""
        value = parse_reply(line)
        problem = self._check_run(value, deadline)
        if problem:
            raise ProtocolError(f"bad reply: {problem}")
        if value["seq"] != seq:
            raise ProtocolError(cut(f"answered seq {value['seq']}, expected {seq} (out of order)"))
        if value.get("skipped"):
            return Reply("skipped", text=_text(value, "reason", "skipped by the implementation"))
        if value.get("errored"):
            return Reply("errored", text=_text(value, "message", "errored"))
        errors = value.get("errors", [])
        codes, first = kept_errors(errors)
        warnings = value.get("warnings")
        state, state_problem = _kept_state(value.get("state"))
        return Reply(
            "result",
            value["valid"],
            codes,
            first,
            len(errors),
            None if warnings is None else kept_errors(warnings)[1],
            len(warnings or ()),
            state,
            state_problem,
        )

    def moves(self, line: bytes, seq: int) -> Tuple[str, Any, str]:
        """The reply to `moves` number `seq`: ("moves", the list, ""), ("count", n, ""), or
        ("skipped" or "errored", None, why). Its moves are read by `moves.compare`."""
        value = parse_reply(line)
        listed = isinstance(value, dict) and isinstance(value.get("moves"), list)
        problem = self._problem(self._moves, dict(value, moves=[]) if listed else value)  # (each move: moves.compare)
        if problem:
            raise ProtocolError(f"bad reply: {problem}")
        if value["seq"] != seq:
            raise ProtocolError(cut(f"answered seq {value['seq']}, expected {seq} (out of order)"))
        if value.get("skipped"):
            return "skipped", None, _text(value, "reason", "skipped by the implementation")
        if value.get("errored"):
            return "errored", None, _text(value, "message", "errored")
        if ("moves" in value) == ("count" in value):
            raise ProtocolError("bad reply: a reply to moves gives moves or a count, one of them")
        return ("moves", value["moves"], "") if "moves" in value else ("count", value["count"], "")

    def _check_run(self, value: Any, deadline: float) -> Optional[str]:
        """The rest of the reply first, with no errors or warnings: a skipped or errored reply
        may hold any."""
        lists = {
            key: value[key]
            for key in ("errors", "warnings")
            if isinstance(value, dict) and isinstance(value.get(key), list)
        }
        if not lists:
            return self._problem(self._reply, value)
        rest = dict(value, **dict.fromkeys(lists, []))
        if any(v.is_valid(rest) for v in self._others):
            return None
        problem = self._problem(self._reply, rest)
        for key, items in lists.items():
            problem = problem or self._each(self._error, items, deadline, key)
        return problem
