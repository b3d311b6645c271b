#!/usr/bin/env python3
"""A validator (--answers verdict) with one bug planted, or none.

Usage: planted_validator.py PUNYCHECK CODEC BUG [SWITCHES...]
       (a pipe: program; CODEC is label or domain; SWITCHES are punycheck's
       profile options, such as --label-rules idna2008, passed to its base)

It answers only whether a question's input is valid: "valid", or "invalid"
and the reason. Its base is correct: every question goes to punycheck's own
reference (`PUNYCHECK serve --codec CODEC --impl CODEC-ref SWITCHES`), and
its verdict is whether the reference succeeds, except where the planted bug
answers first:

  none        no bug: the reference's verdict.
  accept-all  every input is valid (a validator that checks nothing, as
              JSON Schema validators that leave idn-hostname unchecked).
  digit       an input holding an ASCII digit is invalid (a pattern that
              forgot [0-9]).
"""
import subprocess
import sys


def text_of(verb, rest):
    """The text a question asks about: its u+XXXX tokens (encode, and the
    domain codec's decode) or its text (the label codec's decode, in
    hexadecimal when it is decodex)."""
    if verb == "decodex":
        try:
            rest = bytes.fromhex(rest).decode("utf-8", "replace")
        except ValueError:
            return ""
    tokens = rest.split()
    if tokens and all(t[:2].lower() == "u+" for t in tokens):
        try:
            return "".join(chr(int(t[2:], 16)) for t in tokens)
        except ValueError:
            return rest
    return rest


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: planted_validator.py PUNYCHECK CODEC BUG [SWITCHES...]")
    punycheck, codec, bug, switches = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    base = subprocess.Popen(
        [punycheck, "serve", "--codec", codec, "--impl", codec + "-ref"] + switches,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    for line in sys.stdin:
        question = line.rstrip("\n")
        verb, _, rest = question.partition(" ")
        if bug == "accept-all":
            answer = "valid"
        elif bug == "digit" and any("0" <= c <= "9" for c in text_of(verb, rest)):
            answer = "invalid digit"
        else:
            base.stdin.write(question + "\n")
            base.stdin.flush()
            said = base.stdout.readline().rstrip("\n")
            answer = "valid" if said.startswith("ok") else "invalid " + said.partition(" ")[2]
        sys.stdout.write(answer.rstrip(" ") + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
