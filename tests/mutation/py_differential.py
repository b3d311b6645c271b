#!/usr/bin/env python3
"""Differential of one mutant of CPython's Lib/encodings/punycode.py against
the unmutated file, in process (a helper of study.py).

    python3 py_differential.py ORIGINAL.py MUTANT.py CORPUS.json

Both files are loaded as modules of their own, and each input of the corpus
goes through the codec entry of each (getregentry(): encode, decode with
errors strict, replace and ignore, the incremental encoder and decoder).
Outputs and exceptions (type and message) are compared. A call that takes
more than 2 s is a hang: the run stops there. Prints one JSON object.
"""
import importlib.util
import json
import signal
import sys

CALL_SECONDS = 2.0


class Hang(Exception):
    """A call ran longer than CALL_SECONDS."""


def on_alarm(signum, frame):
    raise Hang()


def load(name, path):
    """The module in the file at path, under a name of its own."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def outcome(call):
    """What one call does: ["ok", repr] or ["exc", type, message] or ["hang"]."""
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        return ["ok", repr(call())]
    except Hang:
        return ["hang"]
    except Exception as e:  # the mutant's failure, whatever it is
        return ["exc", type(e).__name__, str(e)[:200]]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def shorten(result):
    """An outcome with its text cut to 120 characters, for the report."""
    return [part if len(part) <= 120 else part[:120] + "... (%d)" % len(part) for part in result]


def calls(module, corpus):
    """(name, input, function) for every call of the corpus, in order."""
    info = outcome(module.getregentry)
    entry = module.getregentry() if info[0] == "ok" else None

    def via(attribute, *arguments):
        return lambda: getattr(entry, attribute)(*arguments)

    def incremental_encode(text):
        return lambda: entry.incrementalencoder().encode(text, True)

    def incremental_decode(data):
        return lambda: entry.incrementaldecoder().decode(data, True)

    yield "getregentry().name", "", lambda: entry.name
    for points in corpus["encode"]:
        text = "".join(map(chr, points))
        yield "encode", text, via("encode", text)
        yield "incremental encode", text, incremental_encode(text)
    for text in corpus["decode"]:
        data = text.encode("latin-1")
        yield "decode", text, via("decode", data)
        yield "decode replace", text, via("decode", data, "replace")
        yield "decode ignore", text, via("decode", data, "ignore")
        yield "incremental decode", text, incremental_decode(data)
    for text in corpus["decode_edges"]:
        data = text.encode("latin-1")
        yield "decode str", text, via("decode", text)
        yield "decode memoryview", text, via("decode", memoryview(data))
        yield "decode bogus-errors", text, via("decode", data, "bogus")


def main():
    original_path, mutant_path, corpus_path = sys.argv[1:4]
    with open(corpus_path) as f:
        corpus = json.load(f)
    signal.signal(signal.SIGALRM, on_alarm)
    original = load("punycode_original", original_path)
    mutant = load("punycode_mutant", mutant_path)
    report = {"calls": 0, "differing": 0, "message_only": 0, "hang": False, "first": None}
    pairs = zip(calls(original, corpus), calls(mutant, corpus))
    for (name, text, expected_call), (_, _, got_call) in pairs:
        expected = outcome(expected_call)
        got = outcome(got_call)
        report["calls"] += 1
        if expected == got:
            continue
        report["differing"] += 1
        if expected[0] == got[0] == "exc" and expected[1] == got[1]:
            report["message_only"] += 1
        if report["first"] is None or report["first"]["message_only"]:
            report["first"] = {
                "call": name,
                "input": text if len(text) <= 80 else text[:80] + "... (%d)" % len(text),
                "original": shorten(expected),
                "mutant": shorten(got),
                "message_only": expected[0] == got[0] == "exc" and expected[1] == got[1],
            }
        if got == ["hang"]:
            report["hang"] = True
            break
    print(json.dumps(report, ensure_ascii=True))


if __name__ == "__main__":
    main()
