"""sgn's own harness with one twist, to test what `--codes` and `--state` compare.

Usage: twisted.py TWIST. It answers as `python -m sgn.harness` does, except:
repeat (each first error reported twice), no-pointer (errors without pointers),
shifted (errors one line later), no-warnings (an empty list of warnings),
drop-warnings (no warnings field at all), wrong-hand (player 1 holds one more
brick in the end state), no-state (no end state), shuffled (pieces listed in
another order, tiles of each intersection reversed: the same state), chatty
(says so on standard error, and calls everything valid).
"""

import sys

from sgn import harness

twist = sys.argv[1]


def twisted(request):
    reply = harness.cmd_run(request)
    errors, state = reply.get("errors", []), reply.get("state")
    if twist == "repeat" and errors:
        errors.insert(0, dict(errors[0]))
    elif twist == "no-pointer":
        for error in errors:
            error.pop("pointer", None)
    elif twist == "shifted":
        for error in errors:
            error["line"] = error.get("line", 0) + 1
    elif twist == "no-warnings":
        reply["warnings"] = []
    elif twist == "drop-warnings":
        reply.pop("warnings", None)
    elif twist == "wrong-hand" and state:
        state["players"]["1"]["hand"]["B"] += 1
    elif twist == "no-state":
        reply.pop("state", None)
    elif twist == "shuffled" and state:
        for player in state["players"].values():
            player["settlements"] = [list(reversed(s)) for s in reversed(player["settlements"])]
            player["roads"] = [list(reversed(r)) for r in player["roads"]]
    elif twist == "chatty":
        sys.stderr.write(f"case {request['case']['id']}: looked at it\nand said valid\n")
        sys.stderr.flush()
        reply = {"seq": request["seq"], "valid": True}
    return reply


harness.COMMANDS["run"] = twisted
sys.exit(harness.serve())
