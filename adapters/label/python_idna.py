#!/usr/bin/env python3
"""punycheck `label` adapter for the PyPI `idna` package (Kim Davies).

Wraps:   idna.decode(label, ...) and idna.encode(ulabel, ...) of the `idna`
         package importable by the running python3 (checked: idna 3.13 on
         CPython 3.11.7, idna/core.py), one label as the whole domain.
Install: pip install idna   (pin what you check, e.g. pip install 'idna==3.13').
         The package lives in site-packages: if punycheck starts python with
         -S, the adapter runs site.main() itself and imports it again, so
         `pipe:python3 -S adapters/label/python_idna.py` works as well.
Spec:    pipe:python3 adapters/label/python_idna.py [idna2008|uts46]

Modes (profiles):
  idna2008 (default)  idna.decode(label) / idna.encode(ulabel): IDNA2008
                      (RFC 5891 section 5 with the RFC 5892 tables of the
                      package's Unicode version), no mapping: uts46=False,
                      strict=False.
  uts46               idna.decode(label, uts46=True, std3_rules=False) /
                      idna.encode(ulabel, uts46=True, std3_rules=False,
                      transitional=False): the UTS #46 mapping table
                      (uts46_remap, core.py lines 333-359) applied first, then
                      the same IDNA2008 label checks (check_label: NFC,
                      CheckHyphens-like hyphen rules always on, PVALID /
                      CONTEXTJ / CONTEXTO, Bidi). So this is UTS #46 mapping
                      with IDNA2008 validity, not UTS #46 rev 33 validity.

What the package does with an A-label (ulabel, core.py lines 304-330): it
lowercases the whole label (line 314), so the ACE prefix is taken in any
case; refuses "xn--" alone (lines 317-318) and an A-label ending in "-"
(lines 319-320; this is what refuses xn--go- and xn--example-); decodes the
Punycode with CPython's codec (line 326); and checks the decoded label with
check_label (line 329). It does not re-encode the U-label and compare
(RFC 5891 section 5.3's round trip). ToASCII (alabel, lines 285-301) checks
the U-label and refuses an A-label longer than 63 octets (lines 298-299).

Failures: the package's documented failure is idna.IDNAError (a UnicodeError
subclass; its subclasses IDNABidiError, InvalidCodepoint and
InvalidCodepointContext), which becomes "error <ClassName>: <message>".
Everything the package raises for a failed label is an IDNAError subclass
(ulabel turns the punycode codec's UnicodeError into IDNAError "Invalid
A-label", line 327-328); any other exception, a plain UnicodeError included,
propagates and is a crash for punycheck.

Escaped verbs: "decodex HEX" is decode with the label given as hexadecimal
of its UTF-8 bytes; "encodex TOKENS" is encode with the A-label's bytes
answered as lowercase hexadecimal (any byte can cross, so no printable check).

Adapter-side refusals, worded "error adapter: ...": a decode label that is
not UTF-8, malformed hexadecimal (decodex), a malformed token, a code point
above U+10FFFF, an encode (not encodex) A-label result that is not printable
ASCII, an unknown verb. Lone surrogates are passed (a Python str holds
them); check_label refuses them (not PVALID). ToUnicode never signals
failure by returning its input here: idna.decode raises.
"""
import sys

try:
    import idna
except ImportError:  # started with -S: site-packages is not on sys.path
    import site
    site.main()
    import idna


class Refused(Exception):
    """A question the adapter cannot put to the package (adapter-side)."""


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


def failure(e):
    return "error %s: %s" % (type(e).__name__, one_line(e))


def decode(mode, label):
    try:
        if mode == "uts46":
            out = idna.decode(label, uts46=True, std3_rules=False)
        else:
            out = idna.decode(label)
    except idna.IDNAError as e:  # the package's documented failure
        return failure(e)
    return " ".join(["ok"] + ["u+%04X" % ord(c) for c in out])


def encode(mode, ulabel, escaped=False):
    try:
        if mode == "uts46":
            out = idna.encode(ulabel, uts46=True, std3_rules=False, transitional=False)
        else:
            out = idna.encode(ulabel)
    except idna.IDNAError as e:  # the package's documented failure
        return failure(e)
    return ("ok " + out.hex()).rstrip(" ") if escaped else "ok " + printable_ascii(out)


def unhex(data):
    """The bytes of an escaped question (decodex HEX)."""
    try:
        return bytes.fromhex(data.decode("ascii"))
    except ValueError:
        raise Refused("adapter: bad hexadecimal")


def answer(mode, raw):
    verb, _, rest = raw.partition(b" ")
    try:
        if verb == b"decodex":
            verb, rest = b"decode", unhex(rest)
        if verb == b"decode":
            try:
                label = rest.decode("utf-8")
            except UnicodeDecodeError:
                raise Refused("adapter: label is not UTF-8")
            return decode(mode, label)
        if verb in (b"encode", b"encodex"):
            try:
                text = rest.decode("ascii")
            except UnicodeDecodeError:
                raise Refused("adapter: tokens are not ASCII")
            return encode(mode, parse_tokens(text), escaped=verb == b"encodex")
        raise Refused("adapter: unknown request")
    except Refused as e:
        return "error " + one_line(e)


def main():
    args = sys.argv[1:]
    if args not in ([], ["idna2008"], ["uts46"]):
        sys.stderr.write("usage: python_idna.py [idna2008|uts46]\n")
        sys.exit(2)
    mode = args[0] if args else "idna2008"
    for raw in sys.stdin.buffer:
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        sys.stdout.write(answer(mode, raw) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
