"""A fake SGN implementation that misbehaves on purpose, to test the harness.

Usage: misbehaving.py BEHAVIOUR [--simple]. In persistent mode it answers start
properly (except for `silent`, and `deaf`, which then stops reading) and then,
on each run: crash, hang, garbage, out-of-order, invalid-reply, deep (a reply
nested 200,000 deep), flood (50 MB without a newline) or bulky (a valid reply
of almost 1 MiB, the limit, that parses into some 6 MB of Python objects). In
simple mode: crash (exit 3), hang, flood, fork (leaves a child holding its pipes
and says valid), or ignore-input (says valid without reading its input).

With SGN_TEST_PIDFILE set, it appends its pid, and its child's, to that file:
the tests check that none is left running. With SGN_TEST_RUNFILE set, it appends
a line to that file when it has a case (persistent: a run request; simple: its
input read), before misbehaving: the tests wait for that, not for a time.
"""

import json
import os
import subprocess
import sys
import time

FLOOD_BYTES = 50 << 20
BULKY_BYTES = (1 << 20) - 64  # the reply line's limit, less room for the seq
behaviour = sys.argv[1]
pidfile = os.environ.get("SGN_TEST_PIDFILE")
runfile = os.environ.get("SGN_TEST_RUNFILE")


def note_pid(pid):
    if pidfile:
        with open(pidfile, "a") as handle:
            handle.write(f"{pid}\n")


def note_run():
    if runfile:
        with open(runfile, "a") as handle:
            handle.write(f"{os.getpid()}\n")


def flood():
    for _ in range(FLOOD_BYTES >> 20):
        sys.stdout.buffer.write(b"x" * (1 << 20))
    sys.stdout.buffer.flush()


note_pid(os.getpid())
if "--simple" in sys.argv:
    if behaviour == "ignore-input":
        sys.exit(0)
    sys.stdin.buffer.read()
    note_run()
    if behaviour == "hang":
        time.sleep(600)
    elif behaviour == "flood":
        flood()
        sys.exit(0)
    elif behaviour == "fork":  # the child inherits stdout and stderr, and holds them for 300 s
        note_pid(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"]).pid)
        sys.exit(0)
    sys.exit(3)

for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "stop":
        sys.exit(0)
    if request["cmd"] == "run":
        note_run()
    if request["cmd"] == "start":
        if behaviour == "silent":
            time.sleep(600)
        reply = {"ready": True, "version": 1, "implementation": {"name": "misbehaving", "language": "python"}}
        if behaviour == "deaf":  # answers, then never reads again
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
            time.sleep(600)
    elif behaviour == "crash":
        sys.exit(3)
    elif behaviour == "hang":
        time.sleep(600)
        continue
    elif behaviour == "garbage":
        sys.stdout.write("this is not JSON\n")
        sys.stdout.flush()
        continue
    elif behaviour == "deep":
        sys.stdout.write("[" * 200_000 + "]" * 200_000 + "\n")
        sys.stdout.flush()
        continue
    elif behaviour == "flood":
        flood()
        time.sleep(600)
        continue
    elif behaviour == "bulky":  # an error with an extra property (the protocol allows them) of short strings
        filler = ",".join(['"abcdefgh"'] * ((BULKY_BYTES - 60) // 11))
        sys.stdout.write(f'{{"seq":{request["seq"]},"valid":false,"errors":[{{"code":"x","z":[{filler}]}}]}}\n')
        sys.stdout.flush()
        continue
    elif behaviour == "out-of-order":
        reply = {"seq": request["seq"] + 100, "valid": True}
    else:  # invalid-reply: JSON, but not the protocol
        reply = {"seq": request["seq"], "verdict": "ok"}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
