#!/usr/bin/env python3
"""A punycheck pipe: adapter in Python. Copy it, and replace the bodies of
encode() and decode() with calls into your implementation; as it stands it
checks CPython's own punycode codec:

    punycheck check --impl 'pipe:python3 pipe_template.py' \
        --domain unicode-with-surrogates --errors failure-only --no-annotations

With --codec label, a U-label encodes to its A-label; an API that fails by
returning its input unchanged or "" must raise Refused (adapters/label/).
With --codec domain, a whole name's code points encode to the ASCII name
(ToASCII), and a decode question carries tokens too ("decode u+0078 ..."):
parse them as encode's, and answer ToUnicode's code points
(adapters/domain/).
encodex/decodex carry any bytes as hexadecimal: see "Escaped questions" in docs/checking.md.
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
    """Punycode (a str, one character a byte) to code points (a list of ints)."""
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
            return "ok " + (result.encode().hex() if verb == "encodex" else result)
        if verb in ("decode", "decodex"):
            text = bytes.fromhex(payload).decode("latin-1") if verb == "decodex" else payload
            return "ok " + " ".join("u+%04X" % cp for cp in decode(text))
        return "error invalid input"
    except Refused as refused:  # one line: escape what is not printable ASCII
        return "error " + "".join(c if " " <= c <= "~" else ascii(c)[1:-1] for c in str(refused))


for line in sys.stdin:
    sys.stdout.write(answer(line.rstrip("\n")).rstrip(" ") + "\n")
    sys.stdout.flush()
