#!/usr/bin/env python3
"""rfc2279: an independent UTF-8 codec written from RFC 2279 (January 1998),
sections 2 and 6: one to six octets, UCS-4 values 0 to 0x7FFFFFFF.

Usage:  rfc2279.py -e      code points in, UTF-8 out (as hex)
        rfc2279.py -d      UTF-8 in (as hex), code points out
        rfc2279.py --help

Protocol:

  -e  Standard input holds whitespace-separated tokens u+XXXX (or U+XXXX:
      UTF-8 has no case flags, the case of the u is ignored), 1 to 8 hex
      digits. The encoded octets are printed as one line of lowercase hex
      (an empty line for no input).
  -d  Standard input holds one line of hex digits (either case, whitespace
      ignored), two per octet. One line u+XXXX (uppercase hex, at least 4
      digits) is printed per decoded code point.

  Success is exit status 0. On invalid input (a malformed token or hex
  line, a value above 0x7FFFFFFF to encode, or octets that are not RFC 2279
  UTF-8) nothing goes to standard output, "invalid input" goes to standard
  error, and the exit status is 1.

It deliberately works differently from punycheck's src/utf8.rs, so that the
two check each other: it reads a whole sequence by its lead octet's count
of high-order 1 bits, then rejects an overlong form by comparing the value
with the first column of the RFC's table, and uses no codec of Python's.
"""

import sys

# RFC 2279 section 2, the table: (first value, last value) of each row; row
# k (from 0) holds the sequences of k + 1 octets.
ROWS = [
    (0x00000000, 0x0000007F),
    (0x00000080, 0x000007FF),
    (0x00000800, 0x0000FFFF),
    (0x00010000, 0x001FFFFF),
    (0x00200000, 0x03FFFFFF),
    (0x04000000, 0x7FFFFFFF),
]


class Invalid(Exception):
    pass


def octet_count(value):
    """Step 1: the number of octets, from the first column of the table."""
    for k, (first, last) in enumerate(ROWS):
        if first <= value <= last:
            return k + 1
    raise Invalid("no row of the table holds %X" % value)


def encode_one(value):
    n = octet_count(value)
    if n == 1:
        return [value]
    # Step 2: the high-order bits: n ones and a zero in the first octet,
    # "10" in the others.
    octets = [(0xFF << (8 - n)) & 0xFF] + [0x80] * (n - 1)
    # Step 3: the bits of the value, lower-order first, into the last octet,
    # then the next to last, ...: six per following octet, the rest (7 - n
    # bits) into the first.
    bits = value
    for k in range(n - 1, 0, -1):
        octets[k] |= bits & 0x3F
        bits >>= 6
    if bits >> (7 - n):
        raise Invalid("value does not fit")
    octets[0] |= bits
    return octets


def encode(values):
    out = []
    for value in values:
        out.extend(encode_one(value))
    return bytes(out)


def leading_ones(octet):
    count = 0
    mask = 0x80
    while mask and octet & mask:
        count += 1
        mask >>= 1
    return count


def decode(data):
    values = []
    i = 0
    while i < len(data):
        ones = leading_ones(data[i])
        if ones == 0:
            n = 1
        elif ones == 1:
            raise Invalid("continuation octet at %d" % i)
        elif ones <= 6:
            n = ones
        else:
            # FE and FF "never appear" (section 1).
            raise Invalid("FE or FF at %d" % i)
        if i + n > len(data):
            raise Invalid("truncated sequence at %d" % i)
        # Steps 1 to 3 of decoding: start from zero and distribute the x
        # bits, the first octet's (7 - n of them) highest.
        value = data[i] & ((1 << (7 - n)) - 1) if n > 1 else data[i]
        for octet in data[i + 1 : i + n]:
            if octet >> 6 != 0b10:
                raise Invalid("missing continuation octet after %d" % i)
            value = (value << 6) | (octet & 0x3F)
        # The rows are mutually exclusive; anything else is the overlong
        # form the NOTE of section 2 and section 6 warn about.
        first, last = ROWS[n - 1]
        if not first <= value <= last:
            raise Invalid("overlong form at %d" % i)
        values.append(value)
        i += n
    return values


def parse_tokens(text):
    values = []
    for token in text.split():
        if token[:2] not in ("u+", "U+"):
            raise Invalid("bad token")
        digits = token[2:]
        if not 1 <= len(digits) <= 8 or any(
            c not in "0123456789abcdefABCDEF" for c in digits
        ):
            raise Invalid("bad token")
        values.append(int(digits, 16))
    return values


def parse_hex(text):
    digits = "".join(text.split())
    if len(digits) % 2 or any(c not in "0123456789abcdefABCDEF" for c in digits):
        raise Invalid("bad hex")
    return [int(digits[k : k + 2], 16) for k in range(0, len(digits), 2)]


def main(argv):
    if len(argv) != 2 or argv[1] not in ("-e", "-d"):
        sys.stdout.write(__doc__)
        return 0 if argv[1:] == ["--help"] else 2
    text = sys.stdin.buffer.read().decode("ascii", "replace")
    try:
        if argv[1] == "-e":
            output = encode(parse_tokens(text)).hex() + "\n"
        else:
            lines = text.split("\n")
            if len([l for l in lines[1:] if l.strip()]):
                raise Invalid("more than one line")
            output = "".join("u+%04X\n" % v for v in decode(parse_hex(lines[0])))
    except Invalid:
        sys.stderr.write("invalid input\n")
        return 1
    sys.stdout.write(output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
