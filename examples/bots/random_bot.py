#!/usr/bin/env python3
"""A random bot for `sgn play`, speaking the bot protocol (docs/protocol.md) on standard
input and output, with nothing but the standard library.

Run: sgn play --bot py="python3 examples/bots/random_bot.py" --bot random
"""

import json
import random
import sys

rng = random.Random(0)


def discard(request):
    """A discard of `count` cards of the hand, where its ways are too many to be listed."""
    cards = rng.sample([r for r, n in sorted(request["hand"].items()) for _ in range(n)], request["count"])
    given = {r: cards.count(r) for r in sorted(set(cards))}
    me, bank = {r: -n for r, n in given.items()}, dict(given)
    return [request["seat"], "TR", [{"player": request["seat"], "resources": me}, {"player": "B", "resources": bank}]]


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "game":  # (seeded by the game: the same games whatever sgn play's -j)
        rng.seed(f"{message['game']}:{message['seat']}")
        continue
    if message["type"] == "hello":
        reply = {"type": "hello", "name": "random-py", "author": "sgn examples", "protocol": 1, "offers": False}
    elif message["type"] == "request":
        move = rng.choice(message["moves"]) if message["moves"] else discard(message)
        reply = {"type": "reply", "id": message["id"], "move": move}
    else:
        continue  # a game, an event, a result: nothing to answer
    print(json.dumps(reply), flush=True)
