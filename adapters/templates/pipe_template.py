#!/usr/bin/env python3
"""A punycheck pipe: adapter in Python. Copy it, and replace the bodies of
encode() and decode() with calls into your implementation; as it stands it
checks CPython's own punycode codec:

    punycheck check --impl 'pipe:python3 pipe_template.py' \
        --domain unicode-with-surrogates --errors failure-only --no-annotations

With --codec label, a U-label encodes to its A-label; an API that fails by
returning its input unchanged or "" must raise Refused (adapters/label/).

The escaped verbs carry any bytes: "encodex TOKENS" answers the encoded
text's bytes in lowercase hexadecimal ("ok 612d62676a" for a-bga), and
"decodex HEX" decodes the bytes HEX spells, each byte read as the code point
of the same number (Latin-1; a label adapter reads them as UTF-8 instead).
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
    """Punycode (a str: printable ASCII, or any of U+0000..U+00FF from
    decodex) to code points (a list of ints)."""
    try:
        return [ord(c) for c in text.encode("latin-1").decode("punycode")]
    except UnicodeError as e:
        raise Refused("failed: %s" % e)


def answer(question):
    """One answer line to one question line."""
    verb, _, payload = question.partition(" ")
    try:
        if verb in ("encode", "encodex"):
            result = encode([int(token[2:], 16) for token in payload.split()])
            return "ok " + (result.encode("utf-8").hex() if verb == "encodex" else result)
        if verb in ("decode", "decodex"):
            if verb == "decodex":
                payload = bytes.fromhex(payload).decode("latin-1")
            return "ok " + " ".join("u+%04X" % cp for cp in decode(payload))
        return "error invalid input"
    except Refused as refused:  # one line: escape what is not printable ASCII
        return "error " + "".join(c if " " <= c <= "~" else ascii(c)[1:-1] for c in str(refused))


for line in sys.stdin:
    sys.stdout.write(answer(line.rstrip("\n")).rstrip(" ") + "\n")
    sys.stdout.flush()
