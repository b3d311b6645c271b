#!/usr/bin/env python3
"""A planted bug in front of another pipe: program (issue 46's gates).

Usage: plant_in_front.py PLANT COMMAND [ARGS...]

Every question goes to COMMAND, a pipe: program started once, and its
answer is relayed, except where PLANT answers otherwise:

  refuse-letter:L:DIRECTION  refuses every question of DIRECTION (encode
                             or decode) holding the letter L (its code
                             point in encode's tokens, its character in
                             decode's text or tokens), without asking
                             COMMAND: a new refusal of valid input.
  refuse-longer:N:DIRECTION  refuses every question of DIRECTION whose
                             answer from COMMAND is longer than N bytes
                             as the line carries it (a fixed buffer).
  xn-upper:L                 writes XN-- for each xn-- in encode's answer
                             to a question holding the letter L: a wrong
                             output whose ACE prefix's case the question
                             never carried.

A refusal is answered `error failed: planted ...`.
"""
import subprocess
import sys


def code_points(rest, hexadecimal):
    """The code points (or bytes) a question holds."""
    if hexadecimal:
        try:
            return list(bytes.fromhex(rest))
        except ValueError:
            return []
    tokens = rest.split(" ") if rest else []
    if tokens and all(t[:2] in ("u+", "U+") for t in tokens):
        try:
            return [int(t[2:], 16) for t in tokens]
        except ValueError:
            return []
    return [ord(c) for c in rest]


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: plant_in_front.py PLANT COMMAND [ARGS...]")
    plant = sys.argv[1].split(":")
    inner = subprocess.Popen(
        sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    answers = inner.stdout
    for line in sys.stdin.buffer:
        text = line.rstrip(b"\n").decode("latin-1")
        verb, _, rest = text.partition(" ")
        direction = verb[:6]
        held = code_points(rest, verb.endswith("x"))
        if plant[0] == "refuse-letter" and plant[2] == direction and ord(plant[1]) in held:
            sys.stdout.write("error failed: planted: refuses %s\n" % plant[1])
            sys.stdout.flush()
            continue
        inner.stdin.write(line if line.endswith(b"\n") else line + b"\n")
        inner.stdin.flush()
        answer = answers.readline()
        if not answer:
            sys.exit("plant_in_front.py: %s closed its output" % sys.argv[2])
        if (
            plant[0] == "refuse-longer"
            and plant[2] == direction
            and answer.startswith(b"ok ")
            and len(answer) - 4 > int(plant[1])
        ):
            answer = b"error failed: planted: too long\n"
        if plant[0] == "xn-upper" and direction == "encode" and ord(plant[1]) in held:
            if verb == "encode":
                answer = answer.replace(b"xn--", b"XN--")
            else:
                answer = answer.replace(b"786e2d2d", b"584e2d2d")
        sys.stdout.buffer.write(answer)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
