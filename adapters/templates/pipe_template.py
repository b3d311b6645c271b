#!/usr/bin/env python3
"""A punycheck pipe: adapter in Python. Copy it, and replace the bodies of
encode() and decode() with calls into your implementation; as it stands it
checks CPython's own punycode codec:

    punycheck check --impl 'pipe:python3 pipe_template.py' \
        --domain unicode-with-surrogates --errors failure-only --no-annotations

With --codec label, a U-label encodes to its A-label; an API that fails by
returning its input unchanged or "" must raise Refused (adapters/label/).
"""
import sys


class Refused(Exception):
    """The implementation refused the input. The message is one of the
    convention's: "invalid input", "arithmetic overflow", "input or output
    is too large", or "failed: ..." when it does not say why."""


def encode(code_points):
    """Code points (a list of ints) to Punycode (a str)."""
    try:
        return "".join(map(chr, code_points)).encode("punycode").decode("ascii")
    except UnicodeError as e:
        raise Refused("failed: %s" % e)


def decode(text):
    """Punycode (a str of printable ASCII) to code points (a list of ints)."""
    try:
        return [ord(c) for c in text.encode("ascii").decode("punycode")]
    except UnicodeError as e:
        raise Refused("failed: %s" % e)


def answer(question):
    """One answer line to one question line."""
    verb, _, payload = question.partition(" ")
    try:
        if verb == "encode":
            return "ok " + encode([int(token[2:], 16) for token in payload.split()])
        if verb == "decode":
            return "ok " + " ".join("u+%04X" % cp for cp in decode(payload))
        return "error invalid input"
    except Refused as refused:
        return "error %s" % refused


for line in sys.stdin:
    sys.stdout.write(answer(line.rstrip("\n")).rstrip(" ") + "\n")
    sys.stdout.flush()
