#!/usr/bin/env python3
"""A random bot for `sgn play`, speaking the bot protocol (docs/protocol.md) on standard
input and output, with nothing but the standard library.

Run: sgn play --bot py="python3 examples/bots/random_bot.py" --bot random
"""

import json
import random
import sys

rng = random.Random(0)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        reply = {"type": "hello", "name": "random-py", "author": "sgn examples", "protocol": 1}
    elif message["type"] == "request":
        reply = {"type": "reply", "id": message["id"], "move": rng.choice(message["moves"])}
    else:
        continue  # a game, an event, a result: nothing to answer
    print(json.dumps(reply), flush=True)
