#!/usr/bin/env python3
"""Lists the tests of test.test_codecs that call into CPython's punycode
codec (a helper of study.py): every test of the module is run once with a
profiler watching Lib/encodings/punycode.py, and the ids of the tests during
which one of its functions was called are printed, one a line.
getregentry() does not count: the codec registry calls it once, for
whichever test looks the codec up first.

    python3 py_find_tests.py
"""
import sys
import unittest

import encodings.punycode as target

hits, current = set(), [None]


def watch(frame, event, arg):
    code = frame.f_code
    if event == "call" and code.co_filename == target.__file__ and code.co_name != "getregentry":
        hits.add(current[0])


def flatten(suite):
    for test in suite:
        yield from flatten(test) if isinstance(test, unittest.TestSuite) else [test]


for test in flatten(unittest.defaultTestLoader.loadTestsFromName("test.test_codecs")):
    current[0] = test.id()
    sys.setprofile(watch)
    test.run(unittest.TestResult())
    sys.setprofile(None)
print("\n".join(sorted(hits)))
