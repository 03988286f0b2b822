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
  if (message.type === "game") { // seeded by the game: the same games whatever sgn play's -j
    seed = 12345;
    for (const c of `${message.game}:${message.seat}`) seed = (seed * 31 + c.charCodeAt(0)) % 2147483648;
  } else if (message.type === "hello") {
    send({ type: "hello", name: "random-js", author: "sgn examples", protocol: 1, offers: false });
  } else if (message.type === "request") {
    const moves = message.moves;
    const move = moves.length ? moves[Math.floor(random() * moves.length)] : discard(message);
    send({ type: "reply", id: message.id, move: move });
  }
  // events, games and results need no answer
});

// A discard of `count` cards of the hand, where its ways are too many to be listed.
function discard(request) {
  const cards = [];
  for (const [r, n] of Object.entries(request.hand)) for (let i = 0; i < n; i++) cards.push(r);
  const given = {};
  for (let i = 0; i < request.count; i++) {
    const card = cards.splice(Math.floor(random() * cards.length), 1)[0];
    given[card] = (given[card] || 0) + 1;
  }
  const mine = {}, bank = {};
  for (const [r, n] of Object.entries(given)) { mine[r] = -n; bank[r] = n; }
  return [request.seat, "TR", [{ player: request.seat, resources: mine }, { player: "B", resources: bank }]];
}

function send(value) {
  process.stdout.write(JSON.stringify(value) + "\n");
}
