#!/usr/bin/env node
// A punycheck pipe: adapter in JavaScript (Node). Copy it, and replace the
// bodies of encode() and decode() with calls into your implementation; as it
// stands it checks Node's bundled punycode module:
//
//     punycheck check --impl 'pipe:node pipe_template.js' \
//         --domain unicode --errors failure-only --no-annotations
//
// For the label codec (--codec label: ToASCII and ToUnicode of one label),
// encode() gets a U-label's code points and returns its A-label ("xn--..."),
// and decode() gets a label (text that may hold non-ASCII) and returns the
// U-label's code points. An API that signals failure by returning an empty
// string (url.domainToASCII) or its input unchanged must throw Refused here:
// such an answer is no answer. adapters/label/ has real ones.
// For the domain codec (--codec domain: ToASCII and ToUnicode of a whole
// name), encode() gets the name's code points and returns the ASCII name,
// and a decode question carries tokens as well ("decode u+0078 ..."):
// parse them as encode's and return ToUnicode's code points.
// adapters/domain/ has real ones.
// encodex/decodex carry any bytes as hexadecimal: see "Escaped questions" in docs/checking.md.
'use strict';
const readline = require('node:readline');
const punycode = require('node:punycode');

// The implementation refused the input. The message is one of the
// convention's: "invalid input", "arithmetic overflow", "input or output is
// too large", or "failed: ..." when it does not say why.
class Refused extends Error {}

// Code points (an array of numbers) to Punycode (a string).
function encode(codePoints) {
	try {
		return punycode.encode(codePoints.map((cp) => String.fromCodePoint(cp)).join(''));
	} catch (e) {
		if (e instanceof RangeError) throw new Refused('failed: ' + e.message);
		throw e;
	}
}

// Punycode (a string, one character a byte) to code points (an array of numbers).
function decode(text) {
	try {
		return Array.from(punycode.decode(text), (c) => c.codePointAt(0));
	} catch (e) {
		if (e instanceof RangeError) throw new Refused('failed: ' + e.message);
		throw e;
	}
}

// One answer line to one question line.
function answer(question) {
	const space = question.indexOf(' ');
	const verb = space < 0 ? question : question.slice(0, space);
	const payload = space < 0 ? '' : question.slice(space + 1);
	try {
		if (verb === 'encode' || verb === 'encodex') {
			const tokens = payload.split(' ').filter(Boolean);
			const result = encode(tokens.map((token) => parseInt(token.slice(2), 16)));
			return 'ok ' + (verb === 'encodex' ? Buffer.from(result, 'utf8').toString('hex') : result);
		}
		if (verb === 'decode' || verb === 'decodex') {
			const text = verb === 'decodex' ? Buffer.from(payload, 'hex').toString('latin1') : payload;
			const hex = (cp) => 'u+' + cp.toString(16).toUpperCase().padStart(4, '0');
			return 'ok ' + decode(text).map(hex).join(' ');
		}
		return 'error invalid input';
	} catch (e) {
		if (e instanceof Refused) return 'error ' + e.message;
		throw e;
	}
}

readline.createInterface({ input: process.stdin, crlfDelay: Infinity })
	.on('line', (line) => process.stdout.write(answer(line).trimEnd() + '\n'));
