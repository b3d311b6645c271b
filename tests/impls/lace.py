#!/usr/bin/env python3
"""lace: an independent LACE (draft-ietf-idn-lace-00) codec behind the
command-line convention of the RFC 3492 test wrapper.

Written from the draft's text (sections 2.2 to 2.5), apart from
src/lace.rs, to cross-check it: it works on bit strings and Python's own
UTF-16 codec, and makes its decoder strict differently. It decodes the way
the draft's steps say (with the corrections below), then encodes the result
again and refuses the input unless that gives back the very same string.
Section 3 asks for exactly one spelling per name, and this is that
requirement checked directly.

Usage:  lace.py -e         code points in, LACE out
        lace.py -d         LACE in, code points out
        lace.py --batch    many requests, one per line (for tests)

  -e  Standard input holds whitespace-separated tokens u+XXXX (or U+XXXX;
      LACE has no case flags, so both mean the same). The LACE string and a
      newline go to standard output.
  -d  Standard input holds one line (the newline is optional and not part
      of it). Each decoded code point goes to standard output on its own
      line as u+XXXX (uppercase hex, at least 4 digits).
  --batch
      Each line of standard input is "e TOKENS" or "d HEX" (the LACE
      string's bytes in hex); each gets one line of output: "ok LACE",
      "ok TOKENS" (space-separated, empty when none), "error invalid" or
      "error too-large".

  Failure is exit status 1 with one line on standard error:
    "invalid input"                 a bad token, or input LACE refuses
    "input or output is too large"  the compressed string would be (or is)
                                    longer than 36 octets (section 2.2.2)
  Usage errors exit with status 2.

What this codec decides where the draft is silent or wrong (the same as
src/lace.rs; its module docs give the reasons):
  - the tag and the Base32 letters must be lower case (the encoder's);
  - Base32 padding bits are zero, and lengths no octet count gives are bad;
  - more than 36 octets of well-formed Base32 is "too large";
  - a run must not end before its count of low octets (2.4.2 step 5);
  - 2.4.2 step 9 fails when the compressed string is longer than the
    UTF-16 string (the draft's text has the comparison the wrong way);
  - surrogate code points and values above U+10FFFF are invalid input, and
    so is decompressed UTF-16 with an unpaired surrogate;
  - a name of ASCII letters, digits and hyphens only is invalid both ways;
  - zero counts and split runs need no rule of their own here: the
    re-encoding refuses them.
"""

import itertools
import string
import os
import sys

TAG = "bq--"
LIMIT = 36  # octets of the compressed string (2.2.2)

# Table 1, from its "hex" column: 00000-11001 are 0x61-0x7a, 11010-11111 are
# 0x32-0x37.
TABLE = bytes(list(range(0x61, 0x7B)) + list(range(0x32, 0x38))).decode("ascii")
VALUE = {char: value for value, char in enumerate(TABLE)}

# STD 13 host name characters.
LDH = set(string.ascii_letters + string.digits + "-")


class Invalid(Exception):
    message = "invalid input"


class TooLarge(Exception):
    message = "input or output is too large"


def no_encoding_needed(code_points: list[int]) -> bool:
    """2.2/2.3: a name of host name characters only must not be LACE."""
    return all(cp < 0x80 and chr(cp) in LDH for cp in code_points)


def to_utf16(code_points: list[int]) -> bytes:
    """2.2: big-endian UTF-16, surrogate pairs above U+FFFF."""
    for cp in code_points:
        if not 0 <= cp <= 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
            raise Invalid
    return "".join(map(chr, code_points)).encode("utf-16-be")


def compress(octets: bytes) -> bytes:
    """2.4.1, step by step over (high, low) pairs."""
    if len(octets) % 2 or len(octets) < 2:
        raise Invalid  # step 1
    pairs = [(octets[i], octets[i + 1]) for i in range(0, len(octets), 2)]
    buffer = bytearray()
    # Steps 3-6: runs of consecutive pairs with the same first octet (the
    # third example of 2.4.3 shows it is the run, not every later pair).
    for high, run in itertools.groupby(pairs, key=lambda pair: pair[0]):
        lows = [low for _, low in run]
        if len(lows) > 0xFF:
            raise TooLarge  # no count octet holds it; far beyond 36 octets
        buffer += bytes([len(lows), high, *lows])
    if len(buffer) <= len(octets):  # step 7
        return bytes(buffer)
    return b"\xff" + octets


def base32(octets: bytes) -> str:
    """2.5.1: five bits per character, the last padded with zero bits."""
    bits = "".join(format(octet, "08b") for octet in octets)
    bits += "0" * (-len(bits) % 5)
    return "".join(TABLE[int(bits[i : i + 5], 2)] for i in range(0, len(bits), 5))


def encode(code_points: list[int]) -> str:
    """2.2: the steps in order."""
    if not code_points:
        raise Invalid  # 2.4.1 step 1: fewer than 2 octets
    utf16 = to_utf16(code_points)
    if no_encoding_needed(code_points):
        raise Invalid
    compressed = compress(utf16)  # 2.2.1
    if len(compressed) > LIMIT:  # 2.2.2
        raise TooLarge
    return TAG + base32(compressed)  # 2.2.3, 2.2.4


def unbase32(text: str) -> bytes:
    """2.5.2, plus what it leaves out: the bits after the last whole octet
    must be fewer than five and zero."""
    bits = "".join(format(VALUE[char], "05b") for char in text)
    whole = len(bits) // 8 * 8
    spare = bits[whole:]
    if len(spare) >= 5 or "1" in spare:
        raise Invalid
    return bytes(int(bits[i : i + 8], 2) for i in range(0, whole, 8))


def decompress(data: bytes) -> bytes:
    """2.4.2, step by step, with the corrections listed in the docstring."""
    if not data:
        raise Invalid  # step 1
    if data[0] == 0xFF:  # step 2
        rest = data[1:]  # step 10
        if len(compress(rest)) <= len(rest):
            raise Invalid  # the wrong form
        return rest
    out = bytearray()
    ip = 0
    while True:
        count = data[ip]  # step 3
        ip += 1
        if ip == len(data):
            raise Invalid
        high = data[ip]  # step 4
        ip += 1
        if ip == len(data):
            raise Invalid
        while True:
            if ip == len(data):
                raise Invalid  # the run is shorter than its count
            low = data[ip]  # step 5
            ip += 1
            out += bytes([high, low])  # step 6
            count -= 1  # step 7
            if count <= 0:
                break
        if ip == len(data):  # step 8
            break
    if len(data) > len(out):  # step 9, comparison turned the right way
        raise Invalid
    return bytes(out)


def decode(line: bytes) -> list[int]:
    """2.3, then the uniqueness check of section 3."""
    try:
        text = line.decode("ascii")
    except UnicodeDecodeError:
        raise Invalid from None
    if not text.startswith(TAG):  # 2.3.1
        raise Invalid
    stripped = text[len(TAG) :]
    if any(char not in VALUE for char in stripped):  # 2.3.2
        raise Invalid
    data = unbase32(stripped)
    if len(data) > LIMIT:
        raise TooLarge
    utf16 = decompress(data)  # 2.3.3
    try:
        code_points = [ord(char) for char in utf16.decode("utf-16-be")]
    except UnicodeDecodeError:
        raise Invalid from None  # an unpaired surrogate
    try:
        again = encode(code_points)
    except (Invalid, TooLarge):
        raise Invalid from None
    if again != text:
        raise Invalid  # another spelling: not what the encoder writes
    return code_points


def parse_tokens(text: str) -> list[int]:
    code_points = []
    for token in text.split():
        if token[:2] not in ("u+", "U+") or not token[2:]:
            raise Invalid
        if any(c not in string.hexdigits for c in token[2:]):
            raise Invalid
        value = int(token[2:], 16)
        if value > 0xFFFFFFFF:
            raise Invalid
        code_points.append(value)
    return code_points


def tokens(code_points: list[int]) -> str:
    return " ".join(f"u+{cp:04X}" for cp in code_points)


def batch() -> int:
    for line in sys.stdin.buffer.read().decode("ascii").splitlines():
        op, _, arg = line.partition(" ")
        try:
            if op == "e":
                answer = "ok " + encode(parse_tokens(arg))
            elif op == "d":
                answer = "ok " + tokens(decode(bytes.fromhex(arg)))
            else:
                print(f"lace.py: bad batch line {line!r}", file=sys.stderr)
                return 2
        except Invalid:
            answer = "error invalid"
        except TooLarge:
            answer = "error too-large"
        print(answer.rstrip())
    return 0


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[1] not in ("-e", "-d", "--batch"):
        print("usage: lace.py -e | -d | --batch", file=sys.stderr)
        return 2
    if argv[1] == "--batch":
        return batch()
    data = sys.stdin.buffer.read()
    try:
        if argv[1] == "-e":
            try:
                text = data.decode("ascii")
            except UnicodeDecodeError:
                raise Invalid from None
            output = encode(parse_tokens(text)) + "\n"
        else:
            line = data.split(b"\n", 1)[0]
            # A planted bug for the tests: the draft's lenient reading
            # (lower-case the input first), which breaks uniqueness.
            if os.environ.get("LACE_PY_BUG") == "ignore-case":
                line = line.lower()
            output = "".join(f"u+{cp:04X}\n" for cp in decode(line))
    except (Invalid, TooLarge) as failure:
        print(failure.message, file=sys.stderr)
        return 1
    sys.stdout.write(output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
