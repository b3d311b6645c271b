#!/usr/bin/env node
// punycheck `label` adapter for Node's url.domainToUnicode / url.domainToASCII.
//
// Wraps:   require('node:url').domainToUnicode(label) and
//          require('node:url').domainToASCII(ulabel) of the running node
//          (checked: Node v20.20.2, which bundles ada 2.9.2,
//          process.versions.ada). Both are C++ in src/node_url.cc (read in a
//          version found through a code index, not Node 20.20.2's own tree;
//          the behaviour below matches what v20.20.2 does): each makes
//          an ada::url of "ws://x" and calls set_hostname(input), i.e. the URL
//          Standard's host parser (percent-decoding, then ada::idna::to_ascii,
//          then the forbidden-domain-code-point check and the IPv4 parser);
//          domainToASCII returns get_hostname(), domainToUnicode returns
//          ada::idna::to_unicode(get_hostname()). On failure both return ''.
// Install: nothing beyond node (Debian: apt-get install nodejs); no npm package.
// Spec:    pipe:node adapters/label/node_url.js
//
// Profile: UTS #46 Nontransitional with the URL Standard's flags:
//          CheckHyphens=false, UseSTD3ASCIIRules=false (plus the URL
//          Standard's forbidden domain code points), VerifyDnsLength=false,
//          CheckBidi=true, CheckJoiners=true, as ada implements them.
// Modes:   none; the pipe protocol only:
//            decode LABEL   -> ok u+XXXX ...  |  error MESSAGE
//            encode TOKENS  -> ok xn--...     |  error MESSAGE
//            decodex HEX    -> as decode, the label given as hexadecimal of
//                              its UTF-8 bytes
//            encodex TOKENS -> as encode, the A-label's UTF-8 bytes as
//                              lowercase hexadecimal (no printable check)
//
// The label is passed as the whole domain, with no dot added. What that
// means for these APIs: a '.' inside the label would make several labels;
// '%XX' is percent-decoded first; a result whose last label is a number
// (e.g. fullwidth digits mapped to ASCII digits) is parsed and serialized as
// an IPv4 address, as the URL host parser does; the empty string answers ''.
//
// Failures: neither function throws for a bad domain; they return ''. The
// adapter answers "error returned '' (Node's failure signal)" for ''. ada's
// to_unicode keeps a label whose Punycode it cannot decode ("ToUnicode never
// fails. If any step fails, then the original input sequence is returned"),
// so a domainToUnicode result equal to the (ASCII-lowercased) input label is
// answered "error returned its input unchanged (RFC 3490 ToUnicode failure)".
// Only for an input with an ACE prefix: decoding an A-label always changes it.
// Anything the functions throw (they only throw for a non-string argument,
// which the adapter never passes) propagates: a crash for punycheck.
//
// Adapter-side refusals, "error adapter: ...": a decode label that is not
// UTF-8; malformed hexadecimal (decodex); a malformed token; a surrogate or a
// value above U+10FFFF (Node converts the argument to UTF-8 with Utf8Value,
// which turns a lone surrogate into U+FFFD, so it cannot be passed
// faithfully); an encode (not encodex) A-label result that is not printable
// ASCII; an unknown verb. Results are read back by code point.
'use strict';
const url = require('node:url');

if (process.argv.length > 2) {
	process.stderr.write('usage: node node_url.js   (pipe protocol on stdin/stdout)\n');
	process.exit(2);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

class Refused extends Error {}

function hex(cp) {
	return 'u+' + cp.toString(16).toUpperCase().padStart(4, '0');
}

// A message as one line of printable ASCII.
function oneLine(s) {
	let out = '';
	for (const ch of String(s)) {
		const cp = ch.codePointAt(0);
		out += cp >= 0x20 && cp <= 0x7e ? ch : '\\u{' + cp.toString(16) + '}';
	}
	return out;
}

function parseTokens(text) {
	let s = '';
	for (const tok of text.split(/[ \t]+/).filter(Boolean)) {
		if (!/^[uU]\+[0-9A-Fa-f]{1,8}$/.test(tok)) throw new Refused('adapter: bad token ' + JSON.stringify(tok.slice(0, 40)));
		const cp = parseInt(tok.slice(2), 16);
		if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
			throw new Refused('adapter: cannot pass ' + hex(cp) + ' (a JavaScript string reaches ada as UTF-8 only for scalar values)');
		}
		s += String.fromCodePoint(cp);
	}
	return s;
}

function asciiLower(s) {
	return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function decode(label) {
	const out = url.domainToUnicode(label);
	if (out === '') return "error returned '' (Node's failure signal)";
	if (/^xn--/i.test(label) && out === asciiLower(label)) {
		return 'error returned its input unchanged (RFC 3490 ToUnicode failure)';
	}
	const toks = ['ok'];
	for (const ch of out) toks.push(hex(ch.codePointAt(0)));
	return toks.join(' ');
}

function encode(ulabel, escaped) {
	const out = url.domainToASCII(ulabel);
	if (out === '') return "error returned '' (Node's failure signal)";
	if (escaped) return 'ok ' + Buffer.from(out, 'utf8').toString('hex');
	for (let i = 0; i < out.length; i++) {
		const c = out.charCodeAt(i);
		if (c < 0x20 || c > 0x7e) {
			throw new Refused('adapter: cannot pass the answer ' + JSON.stringify(oneLine(out.slice(0, 80)))
				+ ': ' + hex(c) + ' is not printable ASCII');
		}
	}
	return 'ok ' + out;
}

// The bytes of an escaped question (decodex HEX).
function unhex(buf) {
	const text = buf.toString('latin1');
	if (!/^(?:[0-9A-Fa-f]{2})*$/.test(text)) throw new Refused('adapter: bad hexadecimal');
	return Buffer.from(text, 'hex');
}

function answer(line) {
	const sp = line.indexOf(0x20);
	const verb = (sp < 0 ? line : line.subarray(0, sp)).toString('latin1');
	const rest = sp < 0 ? line.subarray(line.length) : line.subarray(sp + 1);
	try {
		if (verb === 'decode' || verb === 'decodex') {
			let label;
			try {
				label = utf8.decode(verb === 'decodex' ? unhex(rest) : rest);
			} catch (e) {
				if (!(e instanceof TypeError)) throw e;
				throw new Refused('adapter: label is not UTF-8');
			}
			return decode(label);
		}
		if (verb === 'encode' || verb === 'encodex') {
			return encode(parseTokens(rest.toString('latin1')), verb === 'encodex');
		}
		throw new Refused('adapter: unknown request');
	} catch (e) {
		if (e instanceof Refused) return 'error ' + oneLine(e.message);
		throw e;
	}
}

// Lines are split on bytes, so that a line that is not UTF-8 is seen as such
// (readline would decode it with U+FFFD replacements).
let pending = [];
function onLine(buf) {
	// Writes to a pipe are synchronous on Linux: each answer is flushed.
	process.stdout.write(answer(buf) + '\n');
}
process.stdin.on('data', (chunk) => {
	let start = 0;
	for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
		pending.push(chunk.subarray(start, nl));
		onLine(Buffer.concat(pending));
		pending = [];
		start = nl + 1;
	}
	if (start < chunk.length) pending.push(chunk.subarray(start));
});
process.stdin.on('end', () => {
	if (pending.length) onLine(Buffer.concat(pending));
});
