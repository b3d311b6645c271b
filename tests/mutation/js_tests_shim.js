#!/usr/bin/env node
// Runs punycode.js's own test file (tests/tests.js of its repository, which
// is written for mocha) without mocha: a minimal describe()/it() for its
// synchronous tests (a helper of study.py).
//
//     node js_tests_shim.js PACKAGE/tests/tests.js
//
// The test file requires '../punycode.js', so it must sit in tests/ of the
// package directory holding the code under test. Exit 0 when every test
// passes, 1 when one fails or the file cannot be loaded.
'use strict';
const path = require('path');

const tests = [];
let prefix = [];

global.describe = function (name, body) {
	prefix.push(name);
	try {
		body();
	} finally {
		prefix.pop();
	}
};

global.it = function (name, body) {
	tests.push([prefix.concat(name).join(' > '), body]);
};

require(path.resolve(process.argv[2]));

let failed = 0;
for (const [name, body] of tests) {
	try {
		body();
	} catch (e) {
		failed += 1;
		if (failed <= 5) process.stdout.write('FAIL ' + name + ': ' + String(e && e.message).split('\n')[0] + '\n');
	}
}
process.stdout.write((tests.length - failed) + ' passing, ' + failed + ' failing\n');
process.exitCode = failed ? 1 : 0;
