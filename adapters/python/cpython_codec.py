#!/usr/bin/env python3
"""punycheck adapter for CPython's built-in `punycode` codec.

Wraps:   Lib/encodings/punycode.py of the running interpreter (written by
         Martin v. Loewis; checked here with CPython 3.11.7):
         str.encode("punycode") and bytes.decode("punycode") (errors="strict").
Install: nothing; any python3 has it.
Supports: encode and decode; no Appendix A case flags (U+ tokens are sent as
         plain code points, decoded code points are always printed u+);
         domain: code points 0..U+10FFFF (Python str also holds lone
         surrogates); errors: only UnicodeError, without a kind.

Modes (see adapters/FINDINGS.md):
  cpython_codec.py -e    RFC 3492 Appendix C wrapper convention, encode
  cpython_codec.py -d    same, decode
  cpython_codec.py       pipe: lines "encode TOKENS" / "decode TEXT" on stdin,
                         one "ok RESULT" / "error MESSAGE" line each.
  -ex, -dx, and the pipe verbs "encodex" / "decodex": the escaped forms, the
  encoded text as lowercase hexadecimal of its bytes (answer of -ex and
  encodex, question of -dx and decodex), so that any byte can cross; the
  codec gets and gives bytes, so the bytes are passed as they are.

Only the codec's documented failure (UnicodeError, which includes
UnicodeDecodeError) becomes "failed: <message>". Anything else propagates.
A code point above U+10FFFF cannot be put in a Python str: the adapter itself
answers "failed: adapter: ..." for it (it is never handed to the codec).
"""
import sys


def printable(message):
    """The message with each character outside printable ASCII escaped as
    Python's ascii() does: the codec quotes the offending character, which
    in an escaped question may be a control character such as a newline."""
    return "".join(c if " " <= c <= "~" else ascii(c)[1:-1] for c in str(message))


class NotPassed(Exception):
    """A request that the codec's interface cannot carry (adapter-side)."""


def parse_tokens(text):
    cps = []
    for tok in text.split():
        if len(tok) < 3 or tok[0] not in "uU" or tok[1] != "+":
            raise ValueError("bad token %r" % tok)
        cp = int(tok[2:], 16)
        if cp > 0x10FFFF:
            raise NotPassed("adapter: u+%04X is not a Python code point" % cp)
        cps.append(cp)
    return cps


def encode(tokens_text):
    """Returns (ok, text)."""
    try:
        cps = parse_tokens(tokens_text)
    except NotPassed as e:
        return False, "failed: %s" % e
    s = "".join(chr(c) for c in cps)
    try:
        out = s.encode("punycode")
    except UnicodeError as e:  # the codec's documented failure
        return False, "failed: %s" % printable(e)
    return True, out.decode("ascii")


def decode(text):
    """Returns (ok, list of tokens or message)."""
    try:
        out = text.encode("latin-1").decode("punycode")
    except UnicodeError as e:  # the codec's documented failure
        return False, "failed: %s" % printable(e)
    return True, ["u+%04X" % ord(c) for c in out]


def unhex(text):
    """The text of an escaped question: its bytes, as decode() takes them."""
    return bytes.fromhex(text).decode("latin-1")


def main():
    args = sys.argv[1:]
    if args in (["-e"], ["-ex"]):
        ok, res = encode(sys.stdin.read())
        if not ok:
            sys.stderr.write(res + "\n")
            sys.exit(1)
        sys.stdout.write((res.encode("ascii").hex() if args == ["-ex"] else res) + "\n")
        return
    if args in (["-d"], ["-dx"]):
        line = sys.stdin.buffer.readline().decode("latin-1")
        if line.endswith("\n"):
            line = line[:-1]
        ok, res = decode(unhex(line) if args == ["-dx"] else line)
        if not ok:
            sys.stderr.write(res + "\n")
            sys.exit(1)
        sys.stdout.write("".join(t + "\n" for t in res))
        return
    if args:
        sys.stderr.write("usage: cpython_codec.py [-e|-d|-ex|-dx]\n")
        sys.exit(2)
    # pipe mode
    for raw in sys.stdin.buffer:
        line = raw.decode("latin-1")
        if line.endswith("\n"):
            line = line[:-1]
        verb, _, rest = line.partition(" ")
        if verb in ("encode", "encodex"):
            ok, res = encode(rest)
            if ok and verb == "encodex":
                res = res.encode("ascii").hex()
        elif verb in ("decode", "decodex"):
            ok, res = decode(unhex(rest) if verb == "decodex" else rest)
            if ok:
                res = " ".join(res)
        else:
            raise SystemExit("unknown request: %r" % line)
        reply = ("ok" if ok else "error") + (" " + res if res else "")
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
