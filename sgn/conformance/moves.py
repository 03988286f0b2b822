"""Rules engines under the harness (`sgn conformance --moves`, docs/conformance.md "Rules
engines"): positions given as log prefixes, the implementation answers the legal next
messages (or a perft count), scored against `sgn`'s own generator position by position.

Each position is a case of the run (kind `moves`), so that the runners, the reports and
the matrix hold it as they hold a corpus case: the perft table's positions
(`test-corpus/perft.json`) and positions along the corpus's whole games. A list of moves
passes when it is, as a set of moves (`move_forms.move_key`: one key for every form of a
move), ours: nothing missing, nothing more, nothing twice, every item a move, so that
answering nothing, everything or the same move over and over scores nothing. A perft
count that differs is followed down as `sgn perft --divide` would: the first move whose
count differs, one level at a time, to the moves that differ.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from .. import packaged
from ..game.move_forms import is_discard, move_key
from .outcome import ERRORED, FAILED, PASSED, SKIPPED, UNDECLARED, Outcome, with_stderr

TAG = "moves"
HIDDEN_OUTCOMES = "never"  # where a `?` outcome is listed (`hidden_outcomes`): nowhere, every game is seen whole
# The whole games of the corpus whose positions are asked, every STEP-th line (full
# information, the base game's and the extension's maps, 3 to 6 players).
LOGS = ("logs/short-3p.sgn", "logs/jsettlers-knight-win-4p.sgn", "logs/random-5p.sgn", "logs/random-6p.sgn")
STEP = 3
CLASSES = (
    "roll",
    "discard",
    "robber",
    "steal",
    "settlement",
    "city",
    "road",
    "buy",
    "knight",
    "road-building",
    "year-of-plenty",
    "monopoly",
    "victory-point",
    "bank-trade",
)
_BY_CODE = {"RD": "roll", "MR": "robber", "ST": "steal", "BS": "settlement", "BC": "city", "BR": "road", "BD": "buy"}
_CARDS = {"KN": "knight", "RB": "road-building", "YP": "year-of-plenty", "MO": "monopoly", "VP": "victory-point"}
SHOWN = 3  # moves shown of each difference
MAX_DETAIL = 2000  # characters of a position's detail


def move_class(message: Sequence[Any]) -> str:
    """The class of a move, as a departure names it (CLASSES); '' for none of them."""
    code, value = message[1], message[2]
    if code in _BY_CODE:
        return _BY_CODE[code]
    if code == "PD":
        return _CARDS.get(value.get("cCode"), "")
    if code == "TR":
        return "discard" if is_discard(value) else "bank-trade"
    return ""


@dataclass
class Answer:
    """What an implementation answered to one request: `kind` is "moves", "count",
    "skipped" or "errored" (then `text` says why)."""

    kind: str
    moves: Optional[list] = None
    count: Optional[int] = None
    text: str = ""
    stderr: str = ""


Ask = Callable[[dict, Optional[int]], Answer]  # (position, depth) -> the implementation's answer


def _replayed(prefix: str):
    from ..game.position import from_messages

    return from_messages(prefix.splitlines())


def _case(ident: str, description: str, position: dict, expected: List[list], counts: Sequence[int] = ()) -> dict:
    codes = sorted({m[1] for m in expected})
    return {
        "id": ident,
        "description": description,
        "level": "rules",
        "kind": TAG,
        "valid": True,
        "errors": [],
        "tags": [TAG] + codes,
        "position": position,
        "expected": expected,
        "counts": list(counts),
    }


def positions(table: Optional[dict] = None, logs: Iterable[str] = LOGS, step: int = STEP) -> List[dict]:
    """The positions a rules engine is asked, as cases: the perft table's, then every
    `step`-th line of each log (its moves worked out as the game is replayed once)."""
    from ..corpus import perft

    table = table if table is not None else perft.load_table()
    found = []
    for entry in table["positions"]:
        game = perft.position(entry)
        position = {"id": entry["id"], "data": entry["prefix"], "players": entry["players"], "hidden": HIDDEN_OUTCOMES}
        moves = game.legal_moves(entry["players"], HIDDEN_OUTCOMES)
        found.append(_case(f"perft/{entry['id']}", entry["description"], position, moves, entry["counts"]))
    for name in logs:
        lines = (packaged.corpus_dir() / name).read_text(encoding="utf-8").splitlines()
        game = _replayed("")
        stem = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        for at, text in enumerate(lines, 1):
            game.apply(json.loads(text), at)
            if at % step == 0 or at == 1:
                position = {"id": f"{stem}/{at}", "data": "".join(t + "\n" for t in lines[:at]), "players": None}
                position["hidden"] = HIDDEN_OUTCOMES
                moves = game.legal_moves(None, HIDDEN_OUTCOMES)
                found.append(_case(f"{stem}/{at}", f"the moves after line {at} of {name}", position, moves))
    return found


def _shown(messages: List[Any]) -> str:
    more = f" (and {len(messages) - SHOWN} more)" if len(messages) > SHOWN else ""
    return ", ".join(json.dumps(m, separators=(",", ":")) for m in messages[:SHOWN]) + more


def _read(item: Any) -> Optional[Tuple[tuple, str]]:
    """A move's key and class, or None for an item that is no move (whatever it holds)."""
    try:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)):
            return None
        key = move_key(item)
        hash(key)  # (a list where a number should be)
        return key, move_class(item)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None


def compare(expected: List[list], got: List[Any], departures: Iterable[str] = ()) -> Tuple[str, int]:
    """Why a list of moves is not `expected` ('' when it is), and how many moves were
    compared: as sets of moves, those of the classes of `departures` left out."""
    left_out = set(departures)
    ours = {move_key(m): m for m in expected if move_class(m) not in left_out}
    theirs: Dict[tuple, Any] = {}
    twice: List[Any] = []
    unread: List[Any] = []
    seen = set()
    for item in got:
        read = _read(item)
        if read is None:
            unread.append(item)
        elif read[0] in seen:
            twice.append(item)
        else:
            seen.add(read[0])
            if read[1] not in left_out:
                theirs[read[0]] = item
    problems = []
    missing = [m for k, m in ours.items() if k not in theirs]
    extra = [m for k, m in theirs.items() if k not in ours]
    if missing:
        problems.append(f"missing {len(missing)} of {len(ours)}: {_shown(missing)}")
    if extra:
        problems.append(f"{len(extra)} not legal: {_shown(extra)}")
    if twice:
        problems.append(f"{len(twice)} answered twice: {_shown(twice)}")
    if unread:
        problems.append(f"{len(unread)} not an SGN move: {_shown(unread)}")
    return "; ".join(problems), len(ours)


def _declined(case: dict, answer: Answer) -> Optional[Outcome]:
    if answer.kind == "skipped":
        return Outcome(case, SKIPPED, detail=answer.text)
    if answer.kind == "errored":
        return Outcome(case, ERRORED, detail=answer.text, stderr=answer.stderr)
    return None


def _with(position: dict, move: list) -> dict:
    return dict(position, data=position["data"] + json.dumps(move, separators=(",", ":")) + "\n")


def divide(ask: Ask, position: dict, depth: int, departures: Iterable[str] = (), budget: Optional[float] = None) -> str:
    """Where the implementation's perft from `position` parts from ours, as `--divide`
    shows it: the first move whose count differs, one level down at a time, then the moves
    that differ where the lists do. The whole follow-up takes at most `budget` seconds (the
    run's --timeout: each request had it whole, 69 s for one position at --timeout 3)."""
    from ..game.perft import perft

    end = time.monotonic() + budget if budget is not None else None
    path: List[str] = []
    game = _replayed(position["data"])
    for level in range(depth, 0, -1):
        ours = game.legal_moves(position["players"], position["hidden"])
        answer = ask(position, None)
        if answer.kind != "moves":
            return "; ".join(path + [f"its moves: {answer.kind} {answer.text}".strip()])
        problem, _ = compare(ours, answer.moves or [], departures)
        if problem or level == 1:
            return "; ".join(path + [problem or "the moves agree"])
        for move in ours:
            if end is not None and time.monotonic() > end:
                return "; ".join(path + [f"the follow-up stopped at --timeout ({budget:g} s for the position)"])
            child = game.clone()
            child.apply(move, game.line + 1)
            expected = perft(child, level - 1, position["players"], position["hidden"])
            got = ask(_with(position, move), level - 1)
            if got.kind != "count" or got.count != expected:
                said = f"{got.count:,}" if got.kind == "count" else f"{got.kind} {got.text}".strip()  # (as expected is)
                path.append(f"under {json.dumps(move, separators=(',', ':'))}: expected {expected:,}, got {said}")
                position, game = _with(position, move), child
                break
        else:
            return "; ".join(path + ["every move's count agrees (the moves are not those above)"])
    return "; ".join(path)


def judge(
    ask: Ask, case: dict, departures: Iterable[str] = (), depth: Optional[int] = None, budget: Optional[float] = None
) -> Outcome:
    """A position's outcome: its moves, or with `depth` its perft count (the table's where
    it has one), against ours."""
    position = case["position"]
    if depth is not None:
        counts = case.get("counts") or []
        depth = min(depth, len(counts)) if counts else depth
        answer = ask(position, depth)
        declined = _declined(case, answer)
        if declined is not None:
            return declined
        if answer.kind != "count":
            failed = Outcome(case, FAILED, got_valid=True, detail="answered moves where a perft count was asked")
            return with_stderr(failed, answer.stderr)
        expected = counts[depth - 1] if counts else _perft(position, depth)
        if answer.count == expected:
            return Outcome(case, PASSED, got_valid=True)
        where = divide(ask, position, depth, departures, budget)
        detail = f"perft({depth}): expected {expected:,}, got {answer.count:,}; {where}"
        return with_stderr(Outcome(case, FAILED, got_valid=True, detail=detail[:MAX_DETAIL]), answer.stderr)
    answer = ask(position, None)
    declined = _declined(case, answer)
    if declined is not None:
        return declined
    if answer.kind != "moves":
        failed = Outcome(case, FAILED, got_valid=True, detail="answered a count where the moves were asked")
        return with_stderr(failed, answer.stderr)
    problem, compared = compare(case["expected"], answer.moves or [], departures)
    scope = (compared, len(case["expected"]))
    if not problem and not compared and case["expected"]:
        return Outcome(case, UNDECLARED, detail="every move here is of a departure it declares", compared=scope)
    judged = Outcome(case, FAILED if problem else PASSED, got_valid=True, detail=problem[:MAX_DETAIL], compared=scope)
    return with_stderr(judged, answer.stderr)


MIN_COMPARED = 0.5  # of the legal moves of the positions run, the share a conforming engine is compared on


def too_little(outcomes: Sequence[Outcome]) -> str:
    """Why a rules engine's run compared too little to conform ('' when it compared enough):
    the departures it declares leave less than MIN_COMPARED of the positions' moves compared
    (an engine that declares 13 classes of 14 and answers rolls alone would pass each
    position, and prove nothing)."""
    compared = sum(o.compared[0] for o in outcomes)
    total = sum(o.compared[1] for o in outcomes)
    if not total or compared >= MIN_COMPARED * total:
        return ""
    return (
        f"its moves were compared on {compared:,} of the {total:,} legal moves of the positions "
        f"({100 * compared / total:.0f}%): the departures it declares leave too little to judge "
        f"(at least {100 * MIN_COMPARED:.0f}% must be compared)"
    )


def scored_classes(case: dict, departures: Iterable[str]) -> List[str]:
    """The classes of a position's legal moves that are scored: those of no departure."""
    left_out = set(departures)
    found = {move_class(m) for m in case.get("expected") or []} - left_out - {""}
    return sorted(found, key=CLASSES.index) or ["(none)"]


def _perft(position: dict, depth: int) -> int:
    from ..game.perft import perft

    return perft(_replayed(position["data"]), depth, position["players"], position["hidden"])


def departures_of(info: Dict[str, Any], more: Iterable[str] = ()) -> List[str]:
    """The classes of moves an implementation declares departures in (its answer to
    `start`), with those named on the command line."""
    declared = info.get("moves")
    listed = declared.get("departures", []) if isinstance(declared, dict) else []
    found = [d.get("moves") for d in listed if isinstance(d, dict)]
    return sorted({c for c in list(found) + list(more) if c in CLASSES})


__all__ = [
    "CLASSES",
    "Answer",
    "compare",
    "departures_of",
    "divide",
    "judge",
    "move_class",
    "positions",
    "scored_classes",
    "too_little",
]
