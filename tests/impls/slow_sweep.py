#!/usr/bin/env python3
"""slow_sweep: the clean-room codec behind punycheck's pipe: protocol
(through `punycheck serve --impl cleanroom`), every answer right, that
takes SECONDS (wall clock, asleep) to answer a decoding of the small cases'
byte sweep: one byte alone, or "ab-cja0f" with one byte replaced or one
appended. Every other question it answers at once.

Usage:  slow_sweep.py PUNYCHECK SECONDS

A check bounded by --seconds alone cannot ask it the whole sweep (2,048
decodings), whatever the machine: what it leaves out must be a sample, not
an incomplete check.
"""

import subprocess
import sys
import time

BASE = b"ab-cja0f"


def swept(text: bytes) -> bool:
    """Whether `text` is one of the byte sweep's decodings."""
    if len(text) == 1:
        return True
    if len(text) == len(BASE) + 1 and text[:-1] == BASE:
        return True
    return len(text) == len(BASE) and sum(a != b for a, b in zip(text, BASE)) == 1


def main(args: list[str]) -> int:
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    punycheck, seconds = args[0], float(args[1])
    server = subprocess.Popen(
        [punycheck, "serve", "--impl", "cleanroom"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    for line in sys.stdin.buffer:
        server.stdin.write(line)
        server.stdin.flush()
        reply = server.stdout.readline()
        verb, _, payload = line.rstrip(b"\n").partition(b" ")
        if verb == b"decode" and swept(payload):
            time.sleep(seconds)
        sys.stdout.buffer.write(reply)
        sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
