#!/usr/bin/env python3
"""punycheck `label` adapter for CPython's built-in IDNA2003 codec module.

Wraps:   Lib/encodings/idna.py of the running interpreter (checked with
         CPython 3.11.7): its module functions
           encodings.idna.ToUnicode(label) -> str      (RFC 3490 section 4.2)
           encodings.idna.ToASCII(label) -> bytes      (RFC 3490 section 4.1)
         on one label, never the codec's domain splitting.
Install: nothing; any python3 has it. Runs with or without -S.
Spec:    pipe:python3 adapters/label/cpython_idna.py

Profile: IDNA2003 (RFC 3490 with Nameprep, RFC 3491), as the module
         implements it: AllowUnassigned=true ("This assumes query strings",
         idna.py line 13), UseSTD3ASCIIRules=false (lines 67-68, 76), Unicode
         3.2 data (unicodedata.ucd_3_2_0, line 4). No IDNA2008/UTS #46 rules:
         every code point Nameprep allows is allowed. ToASCII checks the
         1..63 octet label length (lines 69, 84, 99) like VerifyDnsLength.
Modes:   none; the pipe protocol only:
           decode LABEL   -> ok u+XXXX ...  |  error MESSAGE
           encode TOKENS  -> ok xn--...     |  error MESSAGE
           decodex HEX    -> as decode, the label given as hexadecimal of its
                             UTF-8 bytes
           encodex TOKENS -> as encode, the A-label's bytes as lowercase
                             hexadecimal (any byte, so no printable check)

How the label is passed: decode sends the label as a str (the UTF-8 line
decoded); an ASCII str is what ToUnicode turns into bytes itself (line 109),
so for an ASCII label this is ToUnicode(label_bytes); a non-ASCII label goes
through Nameprep first (lines 113-120), as the function is written for str.

Failures:
- The module's only documented failure is UnicodeError (it raises it, or
  the punycode codec's UnicodeError / UnicodeDecodeError); that becomes
  "error <message>". Any other exception propagates (a crash for punycheck).
- RFC 3490's ToUnicode never fails: it returns its input unchanged. CPython's
  raises UnicodeError instead, except in one place: a label that does not
  begin with the lowercase bytes b"xn--" is returned as it is (line 122:
  `if not label.startswith(ace_prefix): return str(label, "ascii")`, a
  case-sensitive test against ace_prefix = b"xn--", line 10). So `XN--...`
  and `Xn--...` come back unchanged where RFC 3490 section 5 says the ACE
  prefix is compared case-insensitively. The adapter answers
  "error returned its input unchanged (RFC 3490 ToUnicode failure)" whenever
  ToUnicode's result equals the label it was given.
- Adapter-side refusals, worded "error adapter: ...": a decode label that is
  not UTF-8, malformed hexadecimal (decodex), a malformed token, a code
  point above U+10FFFF (not a Python str), an encode (not encodex) A-label
  result that is not printable ASCII (RFC 3490 without UseSTD3ASCIIRules
  lets ASCII controls through; the answer line cannot carry them), an
  unknown verb. Lone surrogates are passed (a Python str holds them);
  Nameprep refuses them (table C.5).
"""
import encodings.idna as cpython_idna
import sys


class Refused(Exception):
    """A question the adapter cannot put to the module (adapter-side)."""


def parse_tokens(text):
    cps = []
    for tok in text.split():
        hexpart = tok[2:]
        if (len(tok) < 3 or tok[0] not in "uU" or tok[1] != "+" or len(hexpart) > 8
                or any(c not in "0123456789abcdefABCDEF" for c in hexpart)):
            raise Refused("adapter: bad token %r" % tok[:40])
        cp = int(hexpart, 16)
        if cp > 0x10FFFF:
            raise Refused("adapter: cannot pass u+%04X (not a Python code point)" % cp)
        cps.append(cp)
    return "".join(map(chr, cps))


def one_line(text):
    """The message as one line of printable ASCII (non-ASCII escaped)."""
    text = str(text).encode("ascii", "backslashreplace").decode("ascii")
    text = "".join(c if " " <= c <= "~" else "\\x%02x" % ord(c) for c in text)
    return " ".join(text.split())


def printable_ascii(data):
    bad = [b for b in data if not 0x20 <= b <= 0x7E]
    if bad:
        raise Refused("adapter: cannot pass the answer %r: byte 0x%02X is not printable ASCII"
                      % (data[:80], bad[0]))
    return data.decode("ascii")


def decode(label):
    try:
        out = cpython_idna.ToUnicode(label)
    except UnicodeError as e:  # the module's documented failure
        return "error " + one_line(e)
    if out == label:
        return "error returned its input unchanged (RFC 3490 ToUnicode failure)"
    return " ".join(["ok"] + ["u+%04X" % ord(c) for c in out])


def encode(ulabel, escaped=False):
    try:
        out = cpython_idna.ToASCII(ulabel)
    except UnicodeError as e:  # the module's documented failure
        return "error " + one_line(e)
    return ("ok " + out.hex()).rstrip(" ") if escaped else "ok " + printable_ascii(out)


def unhex(data):
    """The bytes of an escaped question (decodex HEX)."""
    try:
        return bytes.fromhex(data.decode("ascii"))
    except ValueError:
        raise Refused("adapter: bad hexadecimal")


def answer(raw):
    verb, _, rest = raw.partition(b" ")
    try:
        if verb == b"decodex":
            verb, rest = b"decode", unhex(rest)
        if verb == b"decode":
            try:
                label = rest.decode("utf-8")
            except UnicodeDecodeError:
                raise Refused("adapter: label is not UTF-8")
            return decode(label)
        if verb in (b"encode", b"encodex"):
            try:
                text = rest.decode("ascii")
            except UnicodeDecodeError:
                raise Refused("adapter: tokens are not ASCII")
            return encode(parse_tokens(text), escaped=verb == b"encodex")
        raise Refused("adapter: unknown request")
    except Refused as e:
        return "error " + one_line(e)


def main():
    if sys.argv[1:]:
        sys.stderr.write("usage: cpython_idna.py   (pipe protocol on stdin/stdout)\n")
        sys.exit(2)
    for raw in sys.stdin.buffer:
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        sys.stdout.write(answer(raw) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
