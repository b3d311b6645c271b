#!/usr/bin/env node
// punycheck adapter for punycode.js (Mathias Bynens), three ways:
//
//   node punycode_js.js builtin [-e|-d]   Node's bundled `punycode` module
//                                         (require('node:punycode'); deprecated,
//                                         DEP0040; Node 20.20.2 bundles the 2.3.1
//                                         code under the version string '2.1.0')
//   node punycode_js.js 1.4.1 [-e|-d]     npm punycode@1.4.1
//   node punycode_js.js 2.3.1 [-e|-d]     npm punycode@2.3.1
//
// Install: `npm ci` (or `npm install`) in adapters/node/: package.json pins
// both releases exactly, as the aliases punycode-1.4.1 and punycode-2.3.1.
// Wraps punycode.encode(string) and punycode.decode(string) (labels, no xn--).
// Supports: encode and decode; no Appendix A case flags (U+ is sent as u+,
// decoded code points are printed u+); strings are UTF-16, so a code point
// above U+10FFFF or a surrogate cannot be passed faithfully (the adapter
// answers "failed: adapter: ..."). Decoded strings are read back by code
// point, as JavaScript iterates them (a decoded surrogate pair reads as one).
// Errors: punycode.js throws RangeError (documented in its source: "Throws a
// `RangeError` with the applicable error message"). Its three messages map to
// "arithmetic overflow" / "invalid input"; any other RangeError becomes
// "failed: <message>"; anything else is not caught.
//
// With -e / -d: RFC 3492 Appendix C wrapper convention (one request, exit 1
// with the message on stderr on failure). With no mode: pipe protocol, lines
// "encode TOKENS" / "decode TEXT" in, "ok RESULT" / "error MESSAGE" out.
// Escaped forms (any byte can cross): -ex / -dx and the pipe verbs
// "encodex" / "decodex" carry the encoded text as lowercase hexadecimal of
// its bytes; a decodex byte reaches punycode.decode as the character of the
// same number (Latin-1), the encoded string leaves as its UTF-8 bytes.
'use strict';
const path = require('path');

const which = process.argv[2];
const mode = process.argv[3];
if (!which || (mode !== undefined && !['-e', '-d', '-ex', '-dx'].includes(mode)) || process.argv.length > 4) {
	process.stderr.write('usage: punycode_js.js builtin|1.4.1|2.3.1|PATH [-e|-d|-ex|-dx]\n');
	process.exit(2);
}
const punycode = which === 'builtin'
	? require('node:punycode')
	: require(which.includes('/') ? path.resolve(which) : path.join(__dirname, 'node_modules', 'punycode-' + which));

const KINDS = {
	'Overflow: input needs wider integers to process': 'arithmetic overflow',
	'Illegal input >= 0x80 (not a basic code point)': 'invalid input',
	'Invalid input': 'invalid input',
};

function failure(e) {
	if (!(e instanceof RangeError)) throw e; // not their documented failure
	return KINDS[e.message] || ('failed: ' + e.message);
}

// Returns [ok, text].
function encode(tokensText) {
	const cps = [];
	for (const tok of tokensText.split(/\s+/).filter(Boolean)) {
		if (!/^[uU]\+[0-9A-Fa-f]+$/.test(tok)) throw new Error('bad token ' + tok);
		const cp = parseInt(tok.slice(2), 16);
		// A value above U+10FFFF has no UTF-16 form, and surrogate tokens would
		// join into one code point: the adapter refuses both itself.
		if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
			return [false, 'failed: adapter: u+' + cp.toString(16).toUpperCase().padStart(4, '0') + ' cannot be passed faithfully in a JavaScript string'];
		}
		cps.push(cp);
	}
	let out;
	try {
		out = punycode.encode(String.fromCodePoint(...cps));
	} catch (e) {
		return [false, failure(e)];
	}
	return [true, out];
}

// Returns [ok, tokens array | message]. The result string is read back the
// way JavaScript iterates a string: by code point, lone surrogates as is.
function decode(text) {
	let out;
	try {
		out = punycode.decode(text);
	} catch (e) {
		return [false, failure(e)];
	}
	const toks = [];
	for (const ch of out) toks.push('u+' + ch.codePointAt(0).toString(16).toUpperCase().padStart(4, '0'));
	return [true, toks];
}

// The escaped forms: the encoded text to and from hexadecimal.
const toHex = (text) => Buffer.from(text, 'utf8').toString('hex');
const fromHex = (hex) => Buffer.from(hex, 'hex').toString('latin1');

if (mode !== undefined) {
	const input = require('fs').readFileSync(0, 'latin1');
	let ok, res;
	if (mode === '-e' || mode === '-ex') {
		[ok, res] = encode(input);
		if (ok) res = (mode === '-ex' ? toHex(res) : res) + '\n';
	} else {
		const nl = input.indexOf('\n');
		const line = nl < 0 ? input : input.slice(0, nl);
		[ok, res] = decode(mode === '-dx' ? fromHex(line) : line);
		if (ok) res = res.map((t) => t + '\n').join('');
	}
	if (!ok) {
		process.stderr.write(res + '\n');
		process.exitCode = 1;
	} else {
		process.stdout.write(res);
	}
} else {
	process.stdin.setEncoding('latin1');
	const rl = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
	rl.on('line', (line) => {
		const sp = line.indexOf(' ');
		const verb = sp < 0 ? line : line.slice(0, sp);
		const rest = sp < 0 ? '' : line.slice(sp + 1);
		let ok, res;
		if (verb === 'encode' || verb === 'encodex') {
			[ok, res] = encode(rest);
			if (ok && verb === 'encodex') res = toHex(res);
		} else if (verb === 'decode' || verb === 'decodex') {
			[ok, res] = decode(verb === 'decodex' ? fromHex(rest) : rest);
			if (ok) res = res.join(' ');
		} else {
			throw new Error('unknown request: ' + line);
		}
		// Writes to a pipe are synchronous on Linux: each answer is flushed.
		process.stdout.write((ok ? 'ok' : 'error') + (res ? ' ' + res : '') + '\n');
	});
}
