#!/usr/bin/env python3
"""punycheck `domain` adapter for the PyPI `idna` package on whole names.

Wraps:   idna.encode(name) and idna.decode(name) of the `idna` package the
         running python3 imports (checked: idna 3.13 on CPython 3.11.7,
         idna/core.py encode 362-405, decode 408-440): IDNA2008 on each
         label, the name broken at U+002E (and, with uts46=True, after the
         UTS #46 mapping, which makes U+3002 and the other dots U+002E).
Install: pip install 'idna==3.13' (adapters/install.sh does it).
Spec:    pipe:python3 adapters/domain/python_idna.py [idna2008|uts46]

Modes:
  idna2008 (default)  idna.encode(name) / idna.decode(name).
  uts46               idna.encode(name, uts46=True, std3_rules=True,
                      transitional=False) / idna.decode(name, uts46=True,
                      std3_rules=True).

The pipe protocol of the domain codec, a line each way:
  encode TOKENS  -> ok NAME      | error MESSAGE   (ToASCII of the name)
  decode TOKENS  -> ok TOKENS    | error MESSAGE   (ToUnicode of the name)
  encodex TOKENS -> ok HEX       | error MESSAGE   (encode, the answer's bytes
                                                    in hexadecimal, whatever
                                                    they are: asked for a name
                                                    that is not printable ASCII)
Failures: idna.IDNAError (and its subclasses) is "error <Class>: <message>";
anything else propagates, a crash. Adapter-side refusals, "error adapter:
...": a malformed token, a value above U+10FFFF, an answer to encode (not
encodex) that is not printable ASCII, an unknown verb.
"""
import sys

try:
    import idna
except ImportError:  # started with -S: site-packages is not on sys.path
    import site

    site.main()
    import idna


class Refused(Exception):
    """A question the adapter cannot put to the package."""


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


def answer(mode, line):
    verb, _, rest = line.partition(" ")
    uts46 = mode == "uts46"
    try:
        name = parse_tokens(rest)
        if verb in ("encode", "encodex"):
            if uts46:
                out = idna.encode(name, uts46=True, std3_rules=True, transitional=False)
            else:
                out = idna.encode(name)
            if verb == "encodex":
                return ("ok " + out.hex()).rstrip(" ")
            if any(not 0x20 <= b <= 0x7E for b in out):
                raise Refused("adapter: the answer is not printable ASCII")
            return ("ok " + out.decode("ascii")).rstrip(" ")
        if verb == "decode":
            out = idna.decode(name, uts46=True, std3_rules=True) if uts46 else idna.decode(name)
            return " ".join(["ok"] + ["u+%04X" % ord(c) for c in out])
        raise Refused("adapter: unknown request")
    except idna.IDNAError as e:
        return "error %s: %s" % (type(e).__name__, one_line(e))
    except Refused as e:
        return "error " + str(e)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "idna2008"
    if mode not in ("idna2008", "uts46") or len(sys.argv) > 2:
        sys.exit("usage: python_idna.py [idna2008|uts46]")
    for line in sys.stdin.buffer:
        text = line.rstrip(b"\n").decode("latin-1")
        sys.stdout.write(answer(mode, text) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
