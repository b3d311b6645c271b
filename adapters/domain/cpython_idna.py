#!/usr/bin/env python3
"""punycheck `domain` adapter for CPython's built-in `idna` codec on names.

Wraps:   name.encode("idna") and name_bytes.decode("idna") of the running
         interpreter (checked: CPython 3.11.7, Lib/encodings/idna.py
         Codec.encode 145-180, Codec.decode 182-214): IDNA2003 (RFC 3490
         with Nameprep, AllowUnassigned true, UseSTD3ASCIIRules false) on
         each label, the name broken at U+002E, U+3002, U+FF0E and U+FF61
         (line 7) in ToASCII, at b"." in ToUnicode (line 202).
Install: nothing; any python3 has it. Runs with or without -S.
Spec:    pipe:python3 adapters/domain/cpython_idna.py

How the name is passed: encode gives the codec the name as a str;
decode gives it the name's UTF-8 bytes, since the codec decodes bytes
(line 193: a str is refused with TypeError, "XXX obviously wrong, see
#3232"). The codec reads those bytes as ASCII (lines 195-199, and
ToUnicode's step 3, line 123: str(label, "ascii")), so a name with a
U-label in it is refused with UnicodeDecodeError: it decodes the wire form
only.

The pipe protocol of the domain codec, a line each way:
  encode TOKENS  -> ok NAME      | error MESSAGE   (ToASCII of the name)
  decode TOKENS  -> ok TOKENS    | error MESSAGE   (ToUnicode of the name)
  encodex TOKENS -> ok HEX       | error MESSAGE   (encode, the answer's bytes
                                                    in hexadecimal, whatever
                                                    they are: asked for a name
                                                    that is not printable ASCII)
Failures: UnicodeError (the codec's, Nameprep's and the punycode codec's,
UnicodeDecodeError included) is "error <message>"; anything else
propagates, a crash. Unlike encodings.idna.ToUnicode of one label
(adapters/label/cpython_idna.py), the codec's decode has no "input
unchanged" failure to tell: an ASCII name without an ACE prefix is its own
ToUnicode (RFC 3490 section 4.2, step 3). Adapter-side refusals, "error
adapter: ...": a malformed token, a value above U+10FFFF, an answer to
encode (not encodex) that is not printable ASCII, an unknown verb. Lone
surrogates are passed to encode (a Python str holds them; Nameprep refuses
them, table C.5); decode writes them with "surrogatepass", as UTF-8 cannot.
"""
import sys


class Refused(Exception):
    """A question the adapter cannot put to the codec."""


def parse_tokens(text):
    cps = []
    for tok in text.split():
        digits = tok[2:]
        if (len(tok) < 3 or tok[0] not in "uU" or tok[1] != "+" or len(digits) > 8
                or any(c not in "0123456789abcdefABCDEF" for c in digits)):
            raise Refused("adapter: bad token")
        cp = int(digits, 16)
        if cp > 0x10FFFF:
            raise Refused("adapter: cannot pass u+%04X" % cp)
        cps.append(cp)
    return "".join(map(chr, cps))


def one_line(text):
    text = str(text).encode("ascii", "backslashreplace").decode("ascii")
    return " ".join("".join(c if " " <= c <= "~" else "?" for c in text).split())


def answer(line):
    verb, _, rest = line.partition(" ")
    try:
        name = parse_tokens(rest)
        if verb in ("encode", "encodex"):
            out = name.encode("idna")
            if verb == "encodex":
                return ("ok " + out.hex()).rstrip(" ")
            if any(not 0x20 <= b <= 0x7E for b in out):
                raise Refused("adapter: the answer is not printable ASCII")
            return ("ok " + out.decode("ascii")).rstrip(" ")
        if verb == "decode":
            out = name.encode("utf-8", "surrogatepass").decode("idna")
            return " ".join(["ok"] + ["u+%04X" % ord(c) for c in out])
        raise Refused("adapter: unknown request")
    except UnicodeError as e:  # the codec's documented failure
        return "error %s: %s" % (type(e).__name__, one_line(e))
    except Refused as e:
        return "error " + str(e)


def main():
    if sys.argv[1:]:
        sys.exit("usage: cpython_idna.py   (pipe protocol on stdin/stdout)")
    for line in sys.stdin.buffer:
        text = line.rstrip(b"\n").decode("latin-1")
        sys.stdout.write(answer(text) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
