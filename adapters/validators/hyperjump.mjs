#!/usr/bin/env node
// punycheck validator adapter (--answers verdict) for @hyperjump/json-schema.
//
// Wraps:   @hyperjump/json-schema 1.18.0's idn-hostname format, as a schema
//          with {"format": "idn-hostname"} runs it (formats/handlers/
//          idn-hostname.js: isIdn of @hyperjump/json-schema-formats 1.0.7,
//          src/uts46.js 14-26, which refuses a name ending in a separator and
//          otherwise is isIdnHostname of the idn-hostname package 15.1.19,
//          any exception caught as invalid).
// Install: npm install in adapters/node (adapters/install.sh does it).
// Spec:    pipe:node adapters/validators/hyperjump.mjs
//
// The pipe protocol of a validator, a line each way: a question of either
// verb carries a name (encode TOKENS, decode TOKENS, encodex TOKENS as
// encode, decodex HEX as decode) and is answered "valid" or "invalid".
// isIdn prints each exception it catches with console.log (src/uts46.js
// 23): the adapter sends console.log to standard error, so that standard
// output carries the protocol alone.
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const formats = path.join(here, "../node/node_modules/@hyperjump/json-schema-formats/src/index.js");
const { isIdn } = await import(pathToFileURL(formats).href);
console.log = (...args) => process.stderr.write(args.map(String).join(" ") + "\n");

function nameOf(verb, payload) {
  if (verb === "decodex") {
    if (!/^([0-9a-fA-F]{2})*$/.test(payload)) return null;
    return Buffer.from(payload, "hex").toString("utf8");
  }
  const out = [];
  for (const tok of payload.split(" ").filter((t) => t !== "")) {
    if (!/^[uU]\+[0-9a-fA-F]{1,8}$/.test(tok)) return null;
    const cp = parseInt(tok.slice(2), 16);
    if (cp > 0x10ffff) return null;
    // A lone surrogate stays a lone UTF-16 unit, as a JavaScript string holds it.
    out.push(cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp));
  }
  return out.join("");
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  const space = line.indexOf(" ");
  const verb = space < 0 ? line : line.slice(0, space);
  const payload = space < 0 ? "" : line.slice(space + 1);
  const name = ["encode", "encodex", "decode", "decodex"].includes(verb) ? nameOf(verb, payload) : null;
  let answer;
  if (name === null) {
    answer = "error adapter: not a question this adapter can put";
  } else {
    try {
      answer = isIdn(name) ? "valid" : "invalid";
    } catch (e) {
      answer = `crash ${e.name}: ${e.message}`.replace(/[^\x20-\x7e]/g, "?");
    }
  }
  process.stdout.write(answer + "\n");
}
