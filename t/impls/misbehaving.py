"""A fake SGN implementation that misbehaves on purpose, to test the harness.

Usage: misbehaving.py BEHAVIOUR [--simple]. In persistent mode it answers start
properly (except for `silent`) and then, on each run: crash, hang, garbage,
out-of-order, or invalid-reply. In simple mode: crash (exit 3) or hang.
"""
import json
import sys
import time

behaviour = sys.argv[1]
if "--simple" in sys.argv:
    sys.stdin.buffer.read()
    if behaviour == "hang":
        time.sleep(600)
    sys.exit(3)

for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "stop":
        sys.exit(0)
    if request["cmd"] == "start":
        if behaviour == "silent":
            time.sleep(600)
        reply = {"ready": True, "version": 1, "implementation": {"name": "misbehaving", "language": "python"}}
    elif behaviour == "crash":
        sys.exit(3)
    elif behaviour == "hang":
        time.sleep(600)
        continue
    elif behaviour == "garbage":
        sys.stdout.write("this is not JSON\n")
        sys.stdout.flush()
        continue
    elif behaviour == "out-of-order":
        reply = {"seq": request["seq"] + 100, "valid": True}
    else:   # invalid-reply: JSON, but not the protocol
        reply = {"seq": request["seq"], "verdict": "ok"}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
