"""`python -m sgn.harness`: sgn itself as an implementation under the conformance harness.

Persistent mode (the default) speaks the protocol of
`schema/harness/v1/protocol.json` on standard input and output. With
`--simple` it checks the one case on standard input (its level and profile from
the environment variables SGN_LEVEL and SGN_PROFILE) and exits 0 when valid,
1 when invalid; or, with SGN_REQUEST=moves, prints the legal moves after the log
prefix on standard input, a message a line (SGN_DEPTH: the perft count instead).

It is also the reference for other implementations' adapters: one function per
command, and every exception becomes an `errored` reply.
"""

from __future__ import annotations

import base64
import io
import json
import os
import sys
from typing import Any, Callable, Dict, Optional

from .game.endstate import end_state
from .layers.stages import LEVELS
from .packaged import VERSION as __version__
from .pipeline.checking import Checking
from .pipeline.engine import FileCheck

PROTOCOL_VERSION = 1
INFO = {
    "name": "sgn",
    "language": "python",
    "version": __version__,
    "levels": list(LEVELS),
    "profiles": ["strict", "compat", "v1.0"],
    "extensions": ["hidden", "records"],
    "moves": {"departures": []},  # a rules engine too: sgn moves and sgn perft (docs/moves.md)
}


def _reported(d) -> Dict[str, Any]:
    found = {"code": d.code, "line": d.line, "pointer": d.pointer, "column": d.column, "message": d.message}
    return {key: value for key, value in found.items() if value is not None}


def check(data: bytes, level: str, profile: str) -> Dict[str, Any]:
    """The verdict, errors and warnings of sgn on one file's bytes, and at the rules level
    the game's end state (`sgn.game.endstate`)."""
    checked = FileCheck(io.BytesIO(data), Checking(level, profile))
    found = list(checked)
    errors = [_reported(d) for d in found if d.is_error]
    reply = {
        "valid": not errors,
        "errors": errors,
        "warnings": [_reported(d) for d in found if d.severity == "warning"],
    }
    if level == "rules" and checked.replay is not None:
        reply["state"] = end_state(checked.replay.game.snapshot())
    return reply


def cmd_start(request: dict) -> dict:
    return {"ready": True, "version": PROTOCOL_VERSION, "implementation": INFO}


def cmd_run(request: dict) -> dict:
    case = request["case"]
    reply = check(base64.b64decode(case["data"]), case["level"], case.get("profile", "strict"))
    return {"seq": request["seq"], **reply}


def moves(data: bytes, players: Optional[int], hidden: str, depth: Optional[int]) -> Dict[str, Any]:
    """A rules engine's answer (docs/conformance.md, "Rules engines"): the legal messages
    after the log prefix, or with `depth` the perft count from there."""
    from .game.perft import perft
    from .game.position import from_messages

    game = from_messages(data.decode("utf-8").splitlines())
    if depth:
        return {"count": perft(game, depth, players, hidden)}
    return {"moves": game.legal_moves(players, hidden)}


def cmd_moves(request: dict) -> dict:
    position = request["position"]
    found = moves(base64.b64decode(position["data"]), position.get("players"), position["hidden"], request.get("depth"))
    return {"seq": request["seq"], **found}


COMMANDS: Dict[str, Callable[[dict], Optional[dict]]] = {"start": cmd_start, "run": cmd_run, "moves": cmd_moves}


def serve(requests=None, replies=None) -> int:
    """Answer requests line by line until `stop` or the end of input."""
    requests = requests or sys.stdin
    replies = replies or sys.stdout
    for line in requests:
        if not line.strip():
            continue
        seq = None
        try:
            request = json.loads(line)
            seq = request.get("seq")
            if request.get("cmd") == "stop":
                return 0
            reply = COMMANDS[request["cmd"]](request)
        except Exception as error:  # every failure is a reply, never a crash
            reply = {
                "seq": seq if isinstance(seq, int) else 0,
                "errored": True,
                "message": f"{type(error).__name__}: {error}",
            }
        replies.write(json.dumps(reply) + "\n")
        replies.flush()
    return 0


def simple() -> int:
    if os.environ.get("SGN_REQUEST") == "moves":  # a rules engine's request: the answer on standard output
        players, depth = os.environ.get("SGN_PLAYERS"), os.environ.get("SGN_DEPTH")
        found = moves(
            sys.stdin.buffer.read(), int(players) if players else None, os.environ["SGN_HIDDEN"], int(depth or 0)
        )
        if "count" in found:
            sys.stdout.write(f"{found['count']}\n")
        else:
            sys.stdout.write("".join(json.dumps(m) + "\n" for m in found["moves"]))
        return 0
    verdict = check(
        sys.stdin.buffer.read(), os.environ.get("SGN_LEVEL", "rules"), os.environ.get("SGN_PROFILE", "strict")
    )
    return 0 if verdict["valid"] else 1


def main(argv=None) -> int:
    """`--simple`: one case, the verdict in the exit code; else the persistent protocol.
    `--levels a,b` and `--profiles p` declare less than sgn does (to try a harness)."""
    argv = sys.argv[1:] if argv is None else argv
    for option in ("--levels", "--profiles"):
        if option in argv[:-1]:
            INFO[option[2:]] = argv[argv.index(option) + 1].split(",")
    return simple() if "--simple" in argv else serve()


if __name__ == "__main__":
    sys.exit(main())
