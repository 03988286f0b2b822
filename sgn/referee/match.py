"""A match: bots named on the command line play games with balanced seats, in one process
or several, each game checked by the rules replay as it ends.

Seats are balanced by duplicate games: each board (with its dice and deck) is played once
in each rotation of the seating, so that every bot sits in every seat on the same chance.
A game depends only on the match's seed, its board and its rotation, so a match gives the
same games, byte for byte, whatever `jobs`.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ..game.rule_profiles import STANDARD
from .referee import FORFEIT, MAX_TURNS, Record, Referee, RefereeError
from .seats import InProcess

BUILTIN_PREFIX, PYTHON_PREFIX = "builtin:", "python:"


class BotSpec(NamedTuple):
    """A bot of the match: its name, and how to run it: `builtin:random`, `builtin:greedy`,
    `python:module:Class`, or a command line (a program speaking docs/protocol.md)."""

    name: str
    command: str
    options: Tuple[Tuple[str, Any], ...] = ()  # `--bot-option NAME:KEY=VALUE`: a program's hello, a class's keywords

    def with_option(self, text: str) -> "BotSpec":
        """This bot with the option `KEY=VALUE` (the value read as JSON where it is JSON: 64,
        true, "a"; else as text)."""
        import json

        key, sep, value = text.partition("=")
        if not sep or not key:
            raise ValueError(f"a bot's option is NAME:KEY=VALUE, not {self.name}:{text}")
        try:
            read: Any = json.loads(value)
        except ValueError:
            read = value
        return self._replace(options=self.options + ((key, read),))

    @classmethod
    def parse(cls, text: str) -> "BotSpec":
        """`NAME=COMMAND`, or a builtin's name alone (`random`, `greedy`)."""
        from .bots import BUILTIN

        name, sep, command = text.partition("=")
        if not sep:
            if text in BUILTIN:
                return cls(text, BUILTIN_PREFIX + text)
            raise ValueError(f"a bot is NAME=COMMAND (or one of {', '.join(BUILTIN)}), not {text!r}")
        if not name or not command.strip():
            raise ValueError(f"a bot is NAME=COMMAND, with both, not {text!r}")
        if command.startswith(BUILTIN_PREFIX) and command[len(BUILTIN_PREFIX) :] not in BUILTIN:
            raise ValueError(f"no builtin bot {command[len(BUILTIN_PREFIX) :]!r}: there are {', '.join(BUILTIN)}")
        return cls(name, command)


class Settings(NamedTuple):
    players: int = 4
    seed: int = 0
    rules: str = STANDARD
    move_ms: int = 1000
    on_fault: str = FORFEIT
    max_turns: int = MAX_TURNS
    ask_forced: bool = False  # ask a seat a decision it has one move for (else the referee makes it)
    openings: Tuple[Tuple[str, ...], ...] = ()  # deal d starts from openings[d % len]: sgn/referee/openings.py


class Job(NamedTuple):
    number: int  # 0, 1, ... in the order the games are reported
    deal: int  # the board, dice and deck
    rotation: int
    lineup: Tuple[str, ...]  # the bot at each seat, by name


def schedule(bots: Sequence[BotSpec], players: int, games: int) -> List[Job]:
    """`games` rounded up to whole deals: each deal is played in every rotation of the seats."""
    lineup = [bots[i % len(bots)].name for i in range(players)]
    deals = -(-games // players)
    jobs: List[Job] = []
    for deal in range(deals):
        for r in range(players):
            jobs.append(Job(len(jobs), deal, r, tuple(lineup[r:] + lineup[:r])))
    return jobs


def is_program(spec: BotSpec) -> bool:
    """Whether the bot is a program (started as a process), not a Python class."""
    return not spec.command.startswith((BUILTIN_PREFIX, PYTHON_PREFIX))


def make_seat(spec: BotSpec, spin: float = 0.0) -> Any:
    """The seat of a bot; a program looks for its replies `spin` seconds before it sleeps on
    them (`Program._spin`)."""
    command = spec.command
    if command.startswith(BUILTIN_PREFIX):
        from .bots import BUILTIN

        try:
            builtin = BUILTIN[command[len(BUILTIN_PREFIX) :]](**dict(spec.options))
        except TypeError as error:
            raise ValueError(f"the bot {spec.name!r} takes no such option: {error}") from None
        return InProcess(spec.name, builtin, trusted=True)
    if command.startswith(PYTHON_PREFIX):
        module, _, name = command[len(PYTHON_PREFIX) :].rpartition(":")
        try:
            bot = getattr(importlib.import_module(module), name)(**dict(spec.options))
        except Exception as error:  # (named on the command line: the user's to fix)
            raise ValueError(f"cannot load the bot {command!r}: {type(error).__name__}: {error}") from None
        return InProcess(spec.name, bot)
    from .program import Program

    return Program(spec.name, command, dict(spec.options), spin)


def spin_for(jobs: int) -> float:
    """How long a program's reply is looked for before sleeping on it: only where a core is
    free for it, that is more cores than games played at once."""
    from .program import SPIN_SECONDS

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return SPIN_SECONDS if cores > jobs else 0.0


class _Table:
    """The seats of one process: a program is started once and plays game after game (a
    bot that sits twice in a game has a program for each of its seats)."""

    def __init__(self, bots: Sequence[BotSpec], settings: Settings, spin: float = 0.0):
        self.specs = {b.name: b for b in bots}
        self.settings, self.spin = settings, spin
        self.programs: Dict[Tuple[str, int], Any] = {}

    def seats(self, lineup: Sequence[str]) -> List[Any]:
        seats: List[Any] = []
        seen: Dict[str, int] = {}
        for name in lineup:
            slot = seen.get(name, 0)
            seen[name] = slot + 1
            spec = self.specs[name]
            if not is_program(spec):
                seats.append(make_seat(spec))
            else:
                key = (name, slot)
                if key not in self.programs:
                    self.programs[key] = make_seat(spec, self.spin)
                seats.append(self.programs[key])
        return seats

    def play(self, job: Job) -> Record:
        s = self.settings
        referee = Referee(
            self.seats(job.lineup),
            game=f"{s.seed}-{job.deal}-{job.rotation}",
            seed=f"{s.seed}:{job.deal}",
            rules=s.rules,
            move_ms=s.move_ms,
            on_fault=s.on_fault,
            max_turns=s.max_turns,
            ask_forced=s.ask_forced,
            opening=s.openings[job.deal % len(s.openings)] if s.openings else (),
        )
        record = referee.play()
        check(record, s.rules)
        return record

    def close(self) -> None:
        for program in self.programs.values():
            program.close()


def check(record: Record, rules: str) -> None:
    """The game's log, judged by the replay at the rules level: an error is the referee's bug."""
    import io

    from ..pipeline.checking import Checking
    from ..pipeline.engine import FileCheck
    from .protocol import encode

    if not record.log:  # (forfeited before the map: no game to judge)
        return
    data = encode(record.log)
    for d in FileCheck(io.BytesIO(data), Checking("rules", rules=rules)):
        if d.is_error:
            raise RefereeError(f"game {record.game}: the referee let an illegal move in: line {d.line}: {d.message}")


_TABLE: Optional[_Table] = None


def _start_worker(bots: Sequence[BotSpec], settings: Settings, spin: float) -> None:
    global _TABLE
    _TABLE = _Table(bots, settings, spin)


def _play_in_worker(job: Job) -> Record:
    assert _TABLE is not None
    return _TABLE.play(job)


def _play_on_dask(bots: Sequence[BotSpec], settings: Settings, job: Job) -> Record:
    """One game on a Dask worker, at a table kept by the worker for the match's games."""
    global _TABLE
    if _TABLE is None or _TABLE.settings != settings or list(_TABLE.specs.values()) != list(bots):
        if _TABLE is not None:
            _TABLE.close()
        _TABLE = _Table(bots, settings)
    return _TABLE.play(job)


def _run_on_dask(
    bots: Sequence[BotSpec], jobs_list: Sequence[Job], settings: Settings, target: str
) -> Iterator[Record]:
    """The games on a Dask cluster (`--dask ADDRESS|local[:N]`, as `sgn validate` takes it), in
    their order, a bounded window of them in flight."""
    from collections import deque

    from ..cluster.dask_run import DaskRunner

    runner = DaskRunner(target)
    try:
        waiting = iter(jobs_list)
        window: Any = deque()
        for job in waiting:
            window.append(runner.client.submit(_play_on_dask, list(bots), settings, job, pure=False))
            if len(window) >= 4 * runner.workers:
                break
        while window:
            record = window.popleft().result()
            for job in waiting:
                window.append(runner.client.submit(_play_on_dask, list(bots), settings, job, pure=False))
                break
            yield record
    finally:
        runner.close()


def run(
    bots: Sequence[BotSpec], jobs_list: Sequence[Job], settings: Settings, jobs: int = 1, dask: Optional[str] = None
) -> Iterator[Record]:
    """The games of `jobs_list`, in their order, played in `jobs` processes (or on a Dask
    cluster: ClusterError, from `sgn.cluster`, when it cannot be reached)."""
    if dask is not None:
        yield from _run_on_dask(bots, jobs_list, settings, dask)
        return
    if jobs <= 1 or len(jobs_list) <= 1:
        table = _Table(bots, settings, spin_for(1))
        try:
            for job in jobs_list:
                yield table.play(job)
        finally:
            table.close()
        return
    threads = _has_threads()
    if not threads:  # (workers forked after this start with the checks' tables built)
        from ..pipeline.executors import warm_up

        warm_up()
    context = multiprocessing.get_context("spawn" if threads else "fork")
    with context.Pool(jobs, initializer=_start_worker, initargs=(list(bots), settings, spin_for(jobs))) as pool:
        yield from pool.imap(_play_in_worker, jobs_list, chunksize=max(1, min(8, len(jobs_list) // (8 * jobs))))


def _has_threads() -> bool:
    import threading

    return threading.active_count() > 1
