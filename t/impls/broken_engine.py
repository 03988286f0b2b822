"""A rules engine with one fault, to show that the harness's moves mode cannot be fooled
(docs/conformance.md, "Rules engines"): sgn's own generator, but for FAULT.

Usage: broken_engine.py FAULT [--simple]. FAULT is one of: none (sgn itself), nothing (no
move ever), everything (every settlement, city and road of every player added), twice
(each move twice), garbage (an item that is no move added), no-city (never a city: a
count off deep down), extra-roll (a roll of 13 where a roll is listed), count-plus-one
(every perft count one more), noisy-nothing (nothing, said on standard error), rolls-only (departures declared in every class but the roll,
and rolls alone answered).
"""

import base64
import json
import os
import sys

from sgn.game.move_forms import move_key
from sgn.harness import moves

fault = sys.argv[1]


def answer(data, players, hidden, depth):
    if fault == "no-city" and depth:  # (counted from this engine's own moves)
        return {"count": count(data, players, hidden, depth)}
    found = moves(data, players, hidden, depth)
    if "count" in found:
        return {"count": found["count"] + (fault == "count-plus-one")}
    listed = found["moves"]
    if fault == "nothing":
        listed = []
    elif fault == "noisy-nothing":  # (a failed position's standard error is kept)
        sys.stderr.write("looking for the moves of the position\n")
        sys.stderr.flush()
        listed = []
    elif fault == "twice":
        listed = listed + listed
    elif fault == "garbage":
        listed = listed + [["1", "XX", {}]]
    elif fault == "no-city":
        listed = [m for m in listed if m[1] != "BC"]
    elif fault == "extra-roll" and any(m[1] == "RD" for m in listed):
        listed = listed + [[listed[0][0], "RD", {"result": 13}]]
    elif fault == "rolls-only":
        listed = [m for m in listed if m[1] == "RD"]
    elif fault == "everything":
        seen = {move_key(m) for m in listed}
        pieces = [m for m in moves(data.split(b"\n", 1)[0] + b"\n", 4, hidden, None)["moves"]]
        for player in "123456":
            for m in pieces:
                more = [player, m[1], m[2]]
                if move_key(more) not in seen:
                    listed.append(more)
                    listed.append([player, "BC", m[2]] if m[1] == "BS" else more)
    return {"moves": listed}


def count(data, players, hidden, depth):
    listed = answer(data, players, hidden, None)["moves"]
    if depth == 1:
        return len(listed)
    return sum(count(data + (json.dumps(m) + "\n").encode(), players, hidden, depth - 1) for m in listed)


if "--simple" in sys.argv:
    players, depth = os.environ.get("SGN_PLAYERS"), os.environ.get("SGN_DEPTH")
    found = answer(
        sys.stdin.buffer.read(), int(players) if players else None, os.environ["SGN_HIDDEN"], int(depth or 0)
    )
    if "count" in found:
        print(found["count"])
    else:
        sys.stdout.write("".join(json.dumps(m) + "\n" for m in found["moves"]))
    sys.exit(0)

for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "stop":
        break
    if request["cmd"] == "start":
        reply = {"ready": True, "version": 1, "implementation": {"name": f"broken-{fault}", "language": "python"}}
        reply["implementation"]["moves"] = {}
        if fault == "rolls-only":
            from sgn.conformance.moves import CLASSES

            departures = [{"moves": c, "rule": "not this engine's"} for c in CLASSES if c != "roll"]
            reply["implementation"]["moves"] = {"departures": departures}
    else:
        position = request["position"]
        data = base64.b64decode(position["data"])
        reply = {"seq": request["seq"], **answer(data, position["players"], position["hidden"], request.get("depth"))}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
