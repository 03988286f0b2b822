"""A seat at the referee's table: what the referee asks of a bot, one interface for a Python
bot (`InProcess`) and a program speaking JSON lines (`sgn/referee/program.py`), so that both
are told the same messages and judged by the same reading of their replies (`protocol`).

A Python bot is any object with `decide(view, request)`, which returns one of
`request["moves"]` or `{"offer": {...}}` (docs/play.md); `new_game(view)` and
`end_game(view, result)` are called where it has them. Its `view` holds the seat, the game's
description, and the events the seat was told (each an SGN line as that seat sees it).
"""

from __future__ import annotations

import signal
import threading
import time
from typing import Any, Dict, List, Optional, Tuple

from ..game.rule_profiles import STANDARD
from . import protocol
from .protocol import CRASH, TIMEOUT, Fault

GRACE_SECONDS = 1.0  # past the deadline, before a Python bot still deciding is stopped
RING_AGAIN = 0.1  # seconds between two attempts to stop it, should one be swallowed


class _Collections:
    """The processor time the garbage collector has taken in each thread (`gc.callbacks`),
    so that a bot's decision is not charged for the process's collections."""

    def __init__(self) -> None:
        self._taken: Dict[int, float] = {}
        self._began: Dict[int, float] = {}
        import gc

        gc.callbacks.append(self._note)

    @property
    def seconds(self) -> float:
        """The collections' processor time in this thread, so far."""
        return self._taken.get(threading.get_ident(), 0.0)

    def collecting(self) -> bool:
        """Whether the collector runs in this thread now (between its callbacks' start and stop)."""
        return threading.get_ident() in self._began

    def _note(self, phase: str, info: Dict[str, Any]) -> None:
        here = threading.get_ident()
        if phase == "start":
            self._began[here] = time.thread_time()
        else:
            began = self._began.pop(here, None)
            if began is not None:
                self._taken[here] = self._taken.get(here, 0.0) + time.thread_time() - began


_COLLECTIONS = _Collections()


class _Late(BaseException):
    """Raised in a Python bot that is still deciding past its deadline and grace."""


class _Alarm:
    """A timer that interrupts the main thread at `seconds` (SIGALRM): nothing elsewhere, or
    where the system has no such timer (a bot that never returns then hangs its match: run
    a bot you do not trust as a program, docs/play.md), nor for sgn's own bots (`armed`
    False: the timer's two system calls a decision would cost them a fifth of their speed).
    Its handler is set while a bot decides, and the one before is put back. It rings again
    every RING_AGAIN seconds until the bot stops: Python swallows an exception raised while a
    garbage collector's callback runs, and a bot may catch one itself."""

    def __init__(self, seconds: float, armed: bool = True):
        self.seconds = seconds
        self.armed = armed and _CAN_RING and threading.current_thread() is threading.main_thread()

    def __enter__(self) -> "_Alarm":
        if self.armed:
            self.before = signal.signal(signal.SIGALRM, _ring)
            signal.setitimer(signal.ITIMER_REAL, self.seconds, RING_AGAIN)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.before)


_CAN_RING = hasattr(signal, "setitimer")


def _ring(signum: int, frame: Any) -> None:
    # Not while the collector runs: Python would swallow the exception in one of its callbacks
    # and hand it to `sys.unraisablehook`, into which the next ring could fall (under pytest, a
    # failed test). The next ring, RING_AGAIN later, stops the bot.
    if _COLLECTIONS.collecting():
        return
    raise _Late()


class View:
    """What one seat knows: its game (`info`: the protocol's `game` message) and the events it
    was told, in order; `game` replays them (hidden values and all), when first asked."""

    def __init__(self, info: Dict[str, Any]):
        self.info = info
        self.seat: str = info["seat"]
        self.told: List[Any] = []  # each event as the referee wrote it, copied when the bot first asks for it
        self._events: List[Any] = []
        self._game: Any = None
        self._applied = 0

    @property
    def events(self) -> List[Any]:
        """The SGN lines this seat was told, in order: values of its own (copies through JSON,
        made when first asked for: a bot that never reads them costs nothing, and the
        referee's own messages are never changed once told)."""
        events = self._events
        if len(events) < len(self.told):
            events += [protocol.decode(line) for line in protocol.encode(self.told[len(events) :]).splitlines()]
        return events

    @property
    def game(self) -> Any:
        """The game as this seat sees it (`sgn.game.Game`, a partial view: docs/hidden.md)."""
        if self._game is None:
            from ..game.core import Game

            self._game = Game(self.info.get("rules", STANDARD), as_played=True)
        while self._applied < len(self.events):
            self._applied += 1
            self._game.apply(self.events[self._applied - 1], self._applied)
        return self._game


class InProcess:
    """A Python bot at a seat: asked directly, timed, its exceptions caught."""

    def __init__(self, name: str, bot: Any, trusted: bool = False):
        self.name, self.bot = name, bot
        # sgn's own bots are trusted: not stopped past their deadline (`_Alarm`: its two system
        # calls would cost them a fifth of their speed), and given the request itself, not a
        # copy of their own (which cost them a tenth): they change nothing they are given
        self.trusted = trusted
        self.view: Optional[View] = None
        self.stderr = ""

    @property
    def offers(self) -> bool:
        """Whether the bot may offer trades: not when its class says `offers = False`."""
        return getattr(self.bot, "offers", True) is not False

    def start(self, info: Dict[str, Any]) -> Optional[Fault]:
        self.view = View(info)
        begin = getattr(self.bot, "new_game", None)
        if begin is not None:
            try:
                begin(self.view)
            except Exception as error:  # a bot's bug costs only its games
                return Fault(CRASH, f"new_game raised {type(error).__name__}: {error}")
        return None

    def tell(self, messages: List[Dict[str, Any]]) -> None:
        assert self.view is not None
        for message in messages:
            if message["type"] == "event":
                self.view.told.append(message["message"])
            elif message["type"] == "result":
                end = getattr(self.bot, "end_game", None)
                if end is not None:
                    try:
                        end(self.view, message)
                    except Exception as error:
                        self.stderr += f"end_game raised {type(error).__name__}: {error}\n"

    def ask(self, request: Dict[str, Any], offers: bool) -> Tuple[Any, float]:
        """The bot's choice (a listed move, an `Offer`) or a `Fault`, and the seconds it took.
        The deadline counts the processor time the bot's decision used (`time.thread_time`:
        a busy machine's load does not count against a bot in the referee's process), less
        the garbage collector's (`_Collections`: a collection in the decision's thread frees
        the whole process's garbage, the referee's too, and may take longer than a move); a bot
        still deciding a second past its deadline, by the clock, is stopped (`_Alarm`), where
        the system allows it: in the main thread of a Unix process."""
        start, used, collecting = time.perf_counter(), time.thread_time(), _COLLECTIONS.seconds
        given = request if self.trusted else protocol.decode(protocol.encode([request]))
        try:  # (a bot not trusted is given JSON values of its own, as a program reads them: it may change them)
            with _Alarm(request["deadline_ms"] / 1000 + GRACE_SECONDS, not self.trusted):
                chosen = self.bot.decide(self.view, given)
        except _Late:
            took = time.perf_counter() - start
            return Fault(TIMEOUT, f"stopped after {took:.1f} s; the deadline was {request['deadline_ms']} ms"), took
        except Exception as error:
            return Fault(CRASH, f"decide raised {type(error).__name__}: {error}"), time.perf_counter() - start
        took = time.perf_counter() - start
        used = time.thread_time() - used - (_COLLECTIONS.seconds - collecting)
        if used * 1000 > request["deadline_ms"]:
            return Fault(
                TIMEOUT, f"used {used * 1000:.0f} ms deciding; the deadline was {request['deadline_ms']} ms"
            ), took
        reply = {"type": "reply", "id": request["id"]}
        if isinstance(chosen, protocol.Offer):
            reply["offer"] = chosen.to_json()
        elif isinstance(chosen, dict) and set(chosen) == {"offer"}:
            reply["offer"] = chosen["offer"]
        else:
            reply["move"] = chosen
        try:
            return protocol.read_reply(reply, request["id"], request["moves"], offers, request), took
        except Exception as error:  # (an object of the bot's own whose comparison raises)
            return Fault(protocol.GARBAGE, f"the reply cannot be read: {type(error).__name__}: {error}"), took

    def close(self) -> None:
        pass
