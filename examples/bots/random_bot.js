#!/usr/bin/env node
// A random bot for `sgn play`, speaking the bot protocol (docs/protocol.md) on standard
// input and output: it answers the hello, then each request with one of its legal moves.
// Run: sgn play --bot js="node examples/bots/random_bot.js" --bot random
"use strict";
const readline = require("readline");

let seed = 12345;
function random() { // a small seeded generator: the same game gives the same choices
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") {
    send({ type: "hello", name: "random-js", author: "sgn examples", protocol: 1 });
  } else if (message.type === "request") {
    const moves = message.moves;
    send({ type: "reply", id: message.id, move: moves[Math.floor(random() * moves.length)] });
  }
  // events, games and results need no answer
});

function send(value) {
  process.stdout.write(JSON.stringify(value) + "\n");
}
