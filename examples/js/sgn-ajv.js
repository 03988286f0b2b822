#!/usr/bin/env node
// A small SGN validator in JavaScript: each line of a log must be JSON and match
// schema/v1.0/message.json (draft-04, checked with ajv). It checks the schema level
// only: no semantic checks, no rules replay. It speaks the sgn conformance protocol
// (persistent mode, schema/harness/v1/protocol.json); with --simple it checks the log
// on standard input and exits 0 when valid, 1 when invalid.
"use strict";
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const readline = require("readline");
const Ajv = require("ajv-draft-04");

const schemaPath = process.env.SGN_SCHEMA ||
  path.join(__dirname, "..", "..", "schema", "v1.0", "message.json");
const ajv = new Ajv({ allErrors: false, strict: false });
const validateMessage = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, "utf8")));

// The verdict on one log file's bytes: { valid, errors: [{ code, line, message }] }.
// At the syntax level each line need only be JSON; at every other level it must match
// the schema (this example checks no more than that).
function check(bytes, level) {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = zlib.gunzipSync(bytes);
    } catch (e) {
      return { valid: false, errors: [{ code: "gzip-corrupt", line: 0, message: e.message }] };
    }
  }
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    return { valid: false, errors: [{ code: "invalid-utf8", line: 0, message: e.message }] };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const errors = [];
  let messages = 0;
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    messages += 1;
    let value;
    try {
      value = JSON.parse(line);
    } catch (e) {
      errors.push({ code: "invalid-json", line: i + 1, message: e.message });
      return;
    }
    if (level !== "syntax" && !validateMessage(value)) {
      errors.push({ code: "schema", line: i + 1, message: ajv.errorsText(validateMessage.errors) });
    }
  });
  if (messages === 0) errors.push({ code: "empty-file", line: 0, message: "no message" });
  return { valid: errors.length === 0, errors };
}

function serve() {
  const rl = readline.createInterface({ input: process.stdin });
  rl.on("line", (line) => {
    if (!line.trim()) return;
    let request;
    let reply;
    try {
      request = JSON.parse(line);
      if (request.cmd === "stop") process.exit(0);
      if (request.cmd === "start") {
        reply = { ready: true, version: 1, implementation: {
          name: "sgn-ajv-example", language: "javascript", version: "1.0.0",
          levels: ["syntax", "schema"], profiles: ["strict"] } };
      } else if (request.case.profile !== "strict") {
        reply = { seq: request.seq, skipped: true, reason: "only the strict profile" };
      } else {
        reply = { seq: request.seq, ...check(Buffer.from(request.case.data, "base64"), request.case.level) };
      }
    } catch (e) {
      reply = { seq: request && Number.isInteger(request.seq) ? request.seq : 0, errored: true, message: String(e) };
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
}

if (process.argv.includes("--simple")) {
  const chunks = [];
  process.stdin.on("data", (c) => chunks.push(c));
  process.stdin.on("end", () =>
    process.exit(check(Buffer.concat(chunks), process.env.SGN_LEVEL || "schema").valid ? 0 : 1));
} else {
  serve();
}
