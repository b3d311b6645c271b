#!/usr/bin/env node
// punycheck `domain` adapter for whole domain names in Node: Node's own
// url.domainToASCII / url.domainToUnicode, and the npm package tr46
// (jsdom's UTS #46, behind whatwg-url).
//
// Spec:    pipe:node adapters/domain/node_domain.js MODE
// Modes:
//   node-url     require('node:url').domainToASCII(name) and
//                domainToUnicode(name) of the running node (checked: Node
//                v20.20.2, ada 2.9.2 inside). Both run the URL Standard's
//                host parser on the name (src/node_url.cc: an ada::url of
//                "ws://x" and set_hostname), so the profile is UTS #46 with
//                the URL Standard's switches (CheckHyphens, UseSTD3ASCIIRules
//                and VerifyDnsLength false; CheckBidi and CheckJoiners true).
//                Failure is '' (no exception).
//   tr46-strict  tr46 7.0.0's toASCII(name, {checkHyphens, checkBidi,
//                checkJoiners, useSTD3ASCIIRules, verifyDNSLength: true,
//                transitionalProcessing: false}) and toUnicode(name, same):
//                UTS #46 with every switch on. Failure is null (toASCII) or
//                error: true (toUnicode).
//   tr46-url     the same with checkHyphens, useSTD3ASCIIRules and
//                verifyDNSLength false: the URL Standard's "domain to ASCII"
//                with beStrict false (whatwg-url's own call).
//   tr46-defaults  tr46 7.0.0's toASCII(name) and toUnicode(name) with no
//                options: the package's own defaults (index.js 269-277,
//                321-327), every check off (CheckHyphens, CheckBidi,
//                CheckJoiners, UseSTD3ASCIIRules, VerifyDnsLength false),
//                Nontransitional, IgnoreInvalidPunycode false.
//   tr46-transitional  tr46-strict's options with transitionalProcessing
//                and ignoreInvalidPunycode true: UTS #46 with every check
//                on, Transitional Processing (deprecated), invalid
//                Punycode kept.
// The URL Standard's host parser (--label-rules url), through a whole URL,
// "http://" + host + "/", its hostname the answer (an IPv4 address is
// serialized by the parser); ToASCII only (declare --encode-only: no URL
// API gives the Standard's "domain to Unicode"):
//   node-host        new URL() of the running node (Node 20: ada 2.9.2, the
//                    text before the ASCII fallback).
//   node-url-host    url.domainToASCII of the running node asked the same
//                    hosts, so that a check of node-host can name it as an
//                    entry point (--entry-point): domainToASCII runs the
//                    hostname setter (src/node_url.cc: set_hostname on an
//                    ada::url of "ws://x"), which ends a host at the same
//                    delimiters as a URL does (ada 2.9.2,
//                    src/url-setters.cpp 21-24 and
//                    helpers::get_host_delimiter_location), so the hosts a
//                    URL cannot carry are refused here as for node-host;
//                    and '' is a failure whatever the input, since the
//                    host parser never gives a special URL an empty host.
//   whatwg-url       new URL() of whatwg-url 17.3.0 (jsdom's URL Standard,
//                    the text since the ASCII fallback, whatwg/url a8d5ca37).
//   whatwg-url-16    new URL() of whatwg-url 16.0.1 (the text before it).
//   A host the URL parser splits or strips before the host parser sees it
//   is refused here, "error adapter: ...": TAB, LF and CR (removed from any
//   URL), / \ ? # (end the host), @ (ends the userinfo), : (begins the
//   port), and a leading [ (an IPv6 address, outside the domain codec).
//   The host parser refuses each of them too (forbidden host code points,
//   which mapping never removes), so no answer of the implementation is
//   hidden.
// Install: tr46 and whatwg-url from npm, pinned in adapters/node/package.json
//          (npm install in adapters/node; adapters/install.sh does it).
//
// The pipe protocol of the domain codec, a line each way:
//   encode TOKENS  -> ok NAME      | error MESSAGE   (ToASCII of the name)
//   decode TOKENS  -> ok TOKENS    | error MESSAGE   (ToUnicode of the name)
//   encodex TOKENS -> ok HEX       | error MESSAGE   (encode, the answer's
//                     UTF-8 bytes in hexadecimal, whatever they are: asked
//                     for a name that is not printable ASCII)
// TOKENS are u+XXXX code points separated by spaces. Adapter-side
// refusals, "error adapter: ...": a malformed token, a surrogate or a value
// above U+10FFFF (a JavaScript string passes only scalar values faithfully),
// an answer to encode (not encodex) that is not printable ASCII, an unknown
// verb.
'use strict';
const path = require('node:path');

const mode = process.argv[2];
const modes = ['node-url', 'tr46-strict', 'tr46-url', 'tr46-defaults', 'tr46-transitional', 'node-host', 'node-url-host', 'whatwg-url', 'whatwg-url-16'];
if (process.argv.length !== 3 || !modes.includes(mode)) {
	process.stderr.write('usage: node node_domain.js ' + modes.join('|') + '\n');
	process.exit(2);
}

class Refused extends Error {}

function hex(cp) {
	return 'u+' + cp.toString(16).toUpperCase().padStart(4, '0');
}

function parseTokens(text) {
	let s = '';
	for (const tok of text.split(/[ \t]+/).filter(Boolean)) {
		if (!/^[uU]\+[0-9A-Fa-f]{1,8}$/.test(tok)) throw new Refused('adapter: bad token');
		const cp = parseInt(tok.slice(2), 16);
		if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
			throw new Refused('adapter: cannot pass ' + hex(cp) + ' in a JavaScript string');
		}
		s += String.fromCodePoint(cp);
	}
	return s;
}

function tokens(s) {
	const out = [];
	for (const ch of s) out.push(hex(ch.codePointAt(0)));
	return out.join(' ');
}

// A host the URL parser would split or strip before its host parser.
function urlCarries(host) {
	const cut = host.match(/[\t\n\r\/\\?#@:]/);
	if (cut) throw new Refused('adapter: a URL ends or strips its host at ' + hex(cut[0].codePointAt(0)));
	if (host.startsWith('[')) throw new Refused('adapter: a host beginning with [ is an IPv6 address');
}

// The hostname of "http://" + host + "/" by the URL class URL, or null.
function hostParser(URL) {
	return (host) => {
		urlCarries(host);
		try {
			return new URL('http://' + host + '/').hostname;
		} catch (e) {
			if (e instanceof TypeError) return null;
			throw e;
		}
	};
}

function noToUnicode() {
	throw new Refused('adapter: no URL API gives domain to Unicode (declare --encode-only)');
}

let toASCII;
let toUnicode;
if (mode === 'node-host') {
	toASCII = hostParser(URL);
	toUnicode = noToUnicode;
} else if (mode === 'node-url-host') {
	const url = require('node:url');
	toASCII = (host) => {
		urlCarries(host);
		const out = url.domainToASCII(host);
		return out === '' ? null : out;
	};
	toUnicode = noToUnicode;
} else if (mode === 'whatwg-url' || mode === 'whatwg-url-16') {
	const version = mode === 'whatwg-url' ? '17.3.0' : '16.0.1';
	const whatwg = require(path.join(__dirname, '..', 'node', 'node_modules', 'whatwg-url-' + version));
	toASCII = hostParser(whatwg.URL);
	toUnicode = noToUnicode;
} else if (mode === 'node-url') {
	const url = require('node:url');
	toASCII = (name) => {
		const out = url.domainToASCII(name);
		return out === '' && name !== '' ? null : out;
	};
	toUnicode = (name) => {
		const out = url.domainToUnicode(name);
		return out === '' && name !== '' ? null : out;
	};
} else {
	const tr46 = require(path.join(__dirname, '..', 'node', 'node_modules', 'tr46-7.0.0'));
	const strict = mode === 'tr46-strict' || mode === 'tr46-transitional';
	const transitional = mode === 'tr46-transitional';
	const options = mode === 'tr46-defaults' ? undefined : {
		checkHyphens: strict,
		checkBidi: true,
		checkJoiners: true,
		useSTD3ASCIIRules: strict,
		verifyDNSLength: strict,
		transitionalProcessing: transitional,
		ignoreInvalidPunycode: transitional,
	};
	toASCII = (name) => tr46.toASCII(name, options);
	toUnicode = (name) => {
		const result = tr46.toUnicode(name, options);
		return result.error ? null : result.domain;
	};
}

function answer(line) {
	const sp = line.indexOf(' ');
	const verb = sp < 0 ? line : line.slice(0, sp);
	const rest = sp < 0 ? '' : line.slice(sp + 1);
	try {
		if (verb === 'encode' || verb === 'encodex') {
			const out = toASCII(parseTokens(rest));
			if (out === null) return 'error failed';
			if (verb === 'encodex') return out === '' ? 'ok' : 'ok ' + Buffer.from(out, 'utf8').toString('hex');
			if (!/^[\x20-\x7e]*$/.test(out)) throw new Refused('adapter: the answer is not printable ASCII');
			return out === '' ? 'ok' : 'ok ' + out;
		}
		if (verb === 'decode') {
			const out = toUnicode(parseTokens(rest));
			if (out === null) return 'error failed';
			return out === '' ? 'ok' : 'ok ' + tokens(out);
		}
		throw new Refused('adapter: unknown request');
	} catch (e) {
		if (e instanceof Refused) return 'error ' + e.message;
		throw e;
	}
}

let pending = '';
process.stdin.setEncoding('latin1');
process.stdin.on('data', (chunk) => {
	pending += chunk;
	let nl;
	while ((nl = pending.indexOf('\n')) >= 0) {
		process.stdout.write(answer(pending.slice(0, nl)) + '\n');
		pending = pending.slice(nl + 1);
	}
});
process.stdin.on('end', () => {
	if (pending) process.stdout.write(answer(pending) + '\n');
});
