#!/usr/bin/env node
// Differential of one mutant of punycode.js against the unmutated file, in
// process (a helper of study.py).
//
//     node js_differential.js ORIGINAL.js MUTANT.js CORPUS.json
//
// Each file is run as a CommonJS module in a vm context of its own, and each
// input of the corpus goes through encode() and decode() of both. Outputs and
// exceptions (name and message) are compared. A call that takes more than
// 2 s is a hang (the vm's timeout ends it): the run stops there. Prints one
// JSON object, as py_differential.py does. Calls run in batches of 500
// (a batch's time limit 20 s); a batch that times out is asked again call by
// call.
'use strict';
const fs = require('fs');
const vm = require('vm');

const CALL_MS = 2000;
const BATCH_MS = 20000;
const BATCH_SIZE = 500;

// A context in which `P` is the module's exports.
function load(path) {
	const context = vm.createContext({ module: { exports: {} } });
	const source = fs.readFileSync(path, 'utf8');
	vm.runInContext('(function (module, exports) {' + source + '\n})(module, module.exports); var P = module.exports;', context);
	return context;
}

// A batch of calls, run inside the context so that the vm's timeout applies.
const BATCH = new vm.Script(
	'calls.map(([fn, arg]) => { try { return ["ok", P[fn](arg)]; }' +
	' catch (e) { return ["exc", String(e && e.name), String(e && e.message).slice(0, 200)]; } })'
);

// Outcomes of a batch of [fn, arg] calls: ["ok", value], ["exc", name,
// message] or ["hang"]. A batch that times out is asked again call by call,
// with the time limit per call, to find the call that hangs.
function outcomes(context, calls, ms = BATCH_MS) {
	context.calls = calls;
	try {
		return Array.from(BATCH.runInContext(context, { timeout: ms }), (o) => Array.from(o));
	} catch (e) {
		if (!(e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')) throw e;
		if (calls.length === 1) return [['hang']];
		const each = [];
		for (const call of calls) {
			each.push(outcomes(context, [call], CALL_MS)[0]);
			if (each[each.length - 1][0] === 'hang') break;
		}
		return each;
	}
}

// An outcome with its text cut to 120 characters, for the report.
const shorten = (result) => result.map((part) => part.length <= 120 ? part : part.slice(0, 120) + '... (' + part.length + ')');

function main() {
	const [originalPath, mutantPath, corpusPath] = process.argv.slice(2);
	const corpus = JSON.parse(fs.readFileSync(corpusPath, 'utf8'));
	const original = load(originalPath);
	const mutant = load(mutantPath);
	const inputs = [];
	for (const points of corpus.encode) inputs.push(['encode', String.fromCodePoint(...points)]);
	for (const text of corpus.decode) inputs.push(['decode', text]);
	const report = { calls: 0, differing: 0, message_only: 0, hang: false, first: null };
	for (let at = 0; at < inputs.length && !report.hang; at += BATCH_SIZE) {
		const batch = inputs.slice(at, at + BATCH_SIZE);
		const expected = outcomes(original, batch);
		const got = outcomes(mutant, batch);
		for (let k = 0; k < got.length; k++) {
			report.calls += 1;
			if (JSON.stringify(expected[k]) === JSON.stringify(got[k])) continue;
			report.differing += 1;
			const messageOnly = expected[k][0] === 'exc' && got[k][0] === 'exc' && expected[k][1] === got[k][1];
			if (messageOnly) report.message_only += 1;
			if (report.first === null || report.first.message_only) {
				const text = batch[k][1];
				report.first = {
					call: batch[k][0],
					input: text.length <= 80 ? text : text.slice(0, 80) + '... (' + text.length + ')',
					original: shorten(expected[k]),
					mutant: shorten(got[k]),
					message_only: messageOnly,
				};
			}
			if (got[k][0] === 'hang') report.hang = true;
		}
	}
	process.stdout.write(JSON.stringify(report) + '\n');
}

main();
