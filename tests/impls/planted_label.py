#!/usr/bin/env python3
"""A label-layer implementation with one advisory of 2022-2026 planted in it.

Usage: planted_label.py PUNYCHECK --bug BUG [SWITCH...]   (a pipe: program,
--codec label)

Its base is correct: every question goes to punycheck's own reference
(`PUNYCHECK serve --codec label --impl label-ref`, UTS #46 with every switch
on, or with the SWITCHes given, such as `--std3-rules false`), and its answer
is kept, except where the planted bug answers first. The
bugs are the A-label layer's real ones, each written as the implementation
that had it went wrong:

  ascii-payload  Go's x/net/idna (CVE-2026-39821), the idna crate before 1.0
                 (RUSTSEC-2024-0421), Node 20: an xn-- label whose Punycode
                 decodes to ASCII only is that ASCII label (xn--go- is go).
  empty          Go's x/net/idna: xn-- is the empty label.
  non-ascii      Go, ICU before 68.1: non-ASCII inside an A-label is decoded
                 anyway (xn--が- is が).
  no-validation  WebKit: the statuses of the decoded code points are not
                 checked (xn--a-ecp is a U+2488, which is disallowed).
  prefix-case    CPython's encodings.idna: only a lowercase xn-- is an ACE
                 prefix, so XN--BCHER-KVA is refused.
  crash          miekg/dns: Punycode that does not decode crashes the program
                 (xn--a000000000).
  double-prefix  ada: a U-label that begins with xn-- is encoded behind
                 another xn-- (xn--xn--...).
  leading-delimiter  the Python idna package: a delimiter first in the
                 Punycode, and its only one, is taken as the delimiter of an
                 empty literal part (Xn---00XA), and the
                 label it decodes to is then checked as any other.
  zwnj-context   Erlang's idna 6.1.1 (idna_context.erl 45-62): the ContextJ
                 rule of U+200C ZERO WIDTH NON-JOINER (RFC 5892 A.1) is
                 inverted, so U+0628 U+200C U+0628 is refused and U+0628
                 U+0627 U+200C U+0627 U+0628 taken (a virama before it is
                 still taken).
  ascii-unchecked  Erlang's idna 6.1.1: ToASCII of a label of ASCII code
                 points returns a lowercase xn-- label as given, unchecked
                 (xn--go- stays xn--go-), and refuses one whose prefix is not
                 lowercase (XN--BCHER-KVA).
  std3-inverted  Erlang's idna 6.1.1: its UTS #46 mapping inverts
                 UseSTD3ASCIIRules, so with the switch off a label holding an
                 ASCII code point that only the switch forbids is refused
                 (a_é); checked with --std3-rules false.
  bidi-digits    the Bidi rule's condition 4 (RFC 5893 section 2) not checked:
                 an RTL label with European and Arabic-Indic digits together
                 is taken.
  first-joiner   Net::IDN::Encode 2.500 (its CheckJoiners pattern,
                 m/...|(\\x{200C})/ and defined($1), stops at the first
                 match) and ada 2.9.2 (Node 20 takes U+0915 U+094D U+200C
                 U+0915 a U+200C b, a case the JSON Schema test suite added
                 in 2026): only the first ZWNJ or ZWJ of a label is judged,
                 so a later one out of its context is taken, both ways.
  table-XXXX[,YYYY...]  the PyPI idna package 3.12 (kjd/idna#220: its table
                 generator read Python's Unicode 16 data and classed U+A7F1
                 PVALID): a table error on these code points alone, each taken
                 as valid wherever it stands, so a label holding one is
                 encoded as it stands and an A-label holding one decoded
                 without a check (what check --sweep finds, tests/sweep.rs).
  die-XXXX, hang-XXXX  a question holding U+XXXX (to encode, or inside an
                 A-label) kills the program (exit status 3, its words on
                 standard error) or never answers: how a sweep meets a
                 crash and a hang.
  lowercase-to-unicode, refuse-after-X.Y  table bugs of UTS #46
                 implementations: see unicode_plants.py.
  slow-refusal   CPython's encodings.idna (python/cpython#157675), the
                 Python idna package: a label's length is checked only after
                 a quadratic step, so a long label is refused, rightly, after
                 CPU time that grows with its length squared: 300 s * (n /
                 65536)^2 for n code points (a loop on the process's own
                 CPU clock, the same on any machine however busy): 1.2 s at
                 4,096, a hundred times the probe's margin at 65,536.
"""
import time
import subprocess
import sys
import unicodedata

import unicode_plants

JOINERS = (0x200C, 0x200D)


def tokens(code_points):
    return " ".join("u+%04X" % cp for cp in code_points)


def punycode_decode(payload):
    """Python's own Punycode codec on the payload, or None."""
    try:
        return [ord(c) for c in payload.encode("ascii").decode("punycode")]
    except (UnicodeError, ValueError):
        return None


def first_joiner_only(ask, code_points):
    """Whether the reference refuses `code_points` for a joiner after the
    first: it refuses the label, and takes it with every joiner but the
    first removed."""
    joiners = [i for i, cp in enumerate(code_points) if cp in JOINERS]
    if len(joiners) < 2 or ask("encode " + tokens(code_points)).startswith("ok"):
        return False
    first_only = [cp for i, cp in enumerate(code_points) if cp not in JOINERS or i == joiners[0]]
    return ask("encode " + tokens(first_only)).startswith("ok")


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--bug":
        sys.exit("usage: planted_label.py PUNYCHECK --bug BUG [SWITCH...]")
    bug = sys.argv[3]
    base = subprocess.Popen(
        [sys.argv[1], "serve", "--codec", "label", "--impl", "label-ref"] + sys.argv[4:],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )

    def ask(line):
        base.stdin.write(line + "\n")
        base.stdin.flush()
        return base.stdout.readline().rstrip("\n")

    for line in sys.stdin.buffer:
        question = line.rstrip(b"\n").decode("utf-8", "surrogateescape")
        verb, _, rest = question.partition(" ")
        answer = None
        if bug == "slow-refusal":
            if verb == "decode":
                n = len(punycode_decode(rest[4:].lower()) or [])
            else:
                n = len(rest.split())
            end = time.process_time() + 300 * (n / 65536) ** 2
            while time.process_time() < end:
                pass
        if bug == "first-joiner" and verb == "decode" and rest[:4].lower() == "xn--":
            decoded = punycode_decode(rest[4:].lower()) if rest.isascii() else None
            if decoded and first_joiner_only(ask, decoded):
                answer = "ok " + tokens(decoded)
        elif bug == "first-joiner" and verb == "encode":
            try:
                cps = [int(t[2:], 16) for t in rest.split()]
            except ValueError:
                cps = []
            if first_joiner_only(ask, cps):
                text = unicodedata.normalize("NFC", "".join(map(chr, cps)).lower())
                answer = "ok xn--" + text.encode("punycode").decode("ascii")
        elif verb == "decode":
            prefixed = rest[:4].lower() == "xn--"
            payload = rest[4:]
            if bug == "ascii-payload" and prefixed and payload.endswith("-") and payload.isascii():
                decoded = punycode_decode(payload.lower())
                if decoded:
                    answer = "ok " + tokens(decoded)
            elif bug == "empty" and prefixed and payload == "":
                answer = "ok"
            elif bug == "non-ascii" and prefixed and not payload.isascii():
                answer = "ok " + tokens(ord(c) for c in payload.rstrip("-"))
            elif bug == "no-validation" and prefixed and payload.isascii():
                said = ask(question)
                decoded = punycode_decode(payload.lower())
                if "UTS #46 status" in said and decoded:
                    answer = "ok " + tokens(decoded)
            elif bug == "prefix-case" and prefixed and not rest.startswith("xn--"):
                answer = "error the label has no ACE prefix"
            elif bug == "crash" and prefixed and payload.isascii():
                if "does not decode" in ask(question):
                    # As Go says it (miekg/dns), the input not in the words.
                    raise IndexError("runtime error: index out of range [%d]" % len(payload))
            elif bug == "leading-delimiter" and prefixed and payload.rfind("-") == 0:
                decoded = punycode_decode(payload[1:].lower())
                if decoded and ask("encode " + tokens(decoded)).startswith("ok "):
                    answer = "ok " + tokens(decoded)
        elif verb == "encode" and bug == "zwnj-context":
            try:
                cps = [int(t[2:], 16) for t in rest.split()]
            except ValueError:
                cps = []
            judged = [i for i, cp in enumerate(cps) if cp == 0x200C and (i == 0 or cps[i - 1] != 0x094D)]
            if judged:
                said = ask(question)
                if "u+200C is out of the context" in said:
                    answer = "ok xn--" + "".join(map(chr, cps)).encode("punycode").decode("ascii")
                elif said.startswith("ok"):
                    answer = "error the ZWNJ is out of its context"
        elif verb == "encode" and bug in ("ascii-unchecked", "std3-inverted", "bidi-digits"):
            try:
                cps = [int(t[2:], 16) for t in rest.split()]
            except ValueError:
                cps = []
            text = "".join(map(chr, cps))
            if bug == "ascii-unchecked" and text.isascii() and text[:4].lower() == "xn--":
                if text.startswith("xn--"):
                    answer = "ok " + text
                else:
                    answer = "error the label is not an A-label"
            elif bug == "std3-inverted" and any(c in "_!$&'()*+,;=`{}~\"" for c in text):
                answer = "error disallowed ASCII code point"
            elif bug == "bidi-digits":
                said = ask(question)
                if "RFC 5893 section 2 condition 4" in said:
                    answer = "ok xn--" + text.encode("punycode").decode("ascii")
        elif verb == "encode" and bug == "double-prefix":
            try:
                text = "".join(chr(int(t[2:], 16)) for t in rest.split())
            except ValueError:
                text = ""
            if text.lower().startswith("xn--") and not text.isascii():
                answer = "ok xn--" + text.encode("punycode").decode("ascii")
        if bug.startswith(("die-", "hang-")):
            deadly = int(bug.split("-")[1], 16)
            try:
                cps = [int(t[2:], 16) for t in rest.split()] if verb == "encode" else None
            except ValueError:
                cps = []
            if cps is None and rest[:4].lower() == "xn--" and rest.isascii():
                cps = punycode_decode(rest[4:].lower()) or []
            if deadly in (cps or []):
                if bug.startswith("die-"):
                    sys.stderr.write("planted: a table lookup failed on U+%04X\n" % deadly)
                    sys.exit(3)
                time.sleep(3600)
        if bug.startswith("table-") and answer is None:
            wrong = {int(h, 16) for h in bug[len("table-"):].split(",")}
            if verb == "encode":
                try:
                    cps = [int(t[2:], 16) for t in rest.split()]
                except ValueError:
                    cps = []
                if wrong & set(cps):
                    answer = "ok xn--" + "".join(map(chr, cps)).encode("punycode").decode("ascii")
            elif verb == "decode" and rest[:4].lower() == "xn--" and rest.isascii():
                decoded = punycode_decode(rest[4:].lower())
                if decoded and wrong & set(decoded):
                    answer = "ok " + tokens(decoded)
        if bug.startswith("refuse-after-") and answer is None:
            if verb == "decode":
                cps = [ord(c) for c in rest]
            else:
                try:
                    cps = [int(t[2:], 16) for t in rest.split()]
                except ValueError:
                    cps = []
            cp = unicode_plants.refused_after(bug, cps)
            if cp is not None:
                answer = "error u+%04X is not in its tables" % cp
        if answer is None:
            answer = ask(question)
        if bug == "lowercase-to-unicode" and verb == "decode" and answer.startswith("ok"):
            answer = unicode_plants.lowercased(answer)
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


main()
