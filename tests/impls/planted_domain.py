#!/usr/bin/env python3
"""A whole-name implementation with one class of the 2025-2026 IDN bugs planted.

Usage: planted_domain.py PUNYCHECK --bug BUG [SWITCHES...]
       (a pipe: program, --codec domain; SWITCHES are punycheck's profile
       options, e.g. --verify-dns-length false, passed to its base; it
       answers encodex as encode, the answer in hexadecimal)

Its base is correct: every question goes to punycheck's own whole-name
reference (`PUNYCHECK serve --codec domain --impl domain-ref SWITCHES`), and
its answer is kept, except where the planted bug answers first. Each bug is
written as the implementations that had it went wrong:

  bidi-per-label   ada before ada-url/idna#91, the Python idna package 3.13:
                   the Bidi rule is checked label by label, so a label with
                   no right-to-left character of its own passes beside one
                   that has (Node's url.domainToASCII('\u0627.1x')).
  trailing-dot     addressable#609: a trailing dot is dropped, so
                   example.com. is example.com.
  length-before-mapping  the lengths of 63 and 253 octets are counted on the
                   input's UTF-8 before mapping, so 63 U+FF41 (189 octets,
                   63 after mapping) is refused.
  ascii-fast-path  bun#41464: a name of ASCII only is lowercased and
                   answered as it is, its xn-- labels and STD3 rules
                   unchecked.
  empty-label      an empty label (a..b) is accepted under VerifyDnsLength.
  u3002            url-parse#241: U+3002 IDEOGRAPHIC FULL STOP is not taken
                   as a separator, so it stays inside its label.
  contexto-scan    CVE-2026-45409, the Python idna package 3.13's
                   ToUnicode: each U+0660 is checked against the whole
                   label before any length is, so a run of them costs
                   quadratic time (planted as CPU time, 300 s * (n/65536)^2
                   for n of them, a hundred times the probe's margin at its
                   limit), though every answer is right.
  label-bound      ICU's bound (ICU-13727, whatwg/url#824: u_strToPunycode
                   and u_strFromPunycode take at most 1,000 code points): a
                   label holding a non-ASCII code point and more than 1,000
                   code points in its Unicode form is refused, which no IDNA
                   rule or the URL Standard says.
  ascii-case-kept  Net::IDN::Encode 2.500's ASCII fast path: a name of
                   ASCII only that the base takes is answered as it was
                   given, its case kept (S for S).
  xn-upper-z       a planted regression: XN-- for xn-- in the answer of
                   every name holding a z.
  first-joiner     Net::IDN::Encode 2.500 and ada 2.9.2: only the first
                   ZWNJ or ZWJ of a label is judged, so a later one out of
                   its context is taken (Node 20 takes U+0915 U+094D U+200C
                   U+0915 a U+200C b); ToASCII only.
  label-walk       a ToUnicode that walks the whole name once per label
                   (a split by repeated search from the start, a join that
                   copies what came before), quadratic in the number of
                   labels though every answer is right (a runtime's
                   domainToUnicode took 5 s on 32,768 labels, issue 38):
                   planted as CPU time, 300 s * (L/32768)^2 for a name of
                   L labels, a hundred times the probe's margin at 65,536
                   bytes of one-letter labels.
  label-walk-linear  the same ToUnicode walking each label once: 1 s *
                   (L/32768), linear.
  invalid-punycode-as-is  an xn-- label whose Punycode does not decode is
                   kept as it is and the name answered (lowercased), no
                   error: IgnoreInvalidPunycode read as "continue without
                   an error", where UTS #46 revision 36's step 4, item 3,
                   refuses the kept label (ASCII only). Names of ASCII only.
  lowercase-to-unicode, refuse-after-X.Y  table bugs: see unicode_plants.py.
  none             no bug: the base's answers.

Bugs combine with +: ascii-case-kept+xn-upper-z has both.
"""
import subprocess
import sys
import time
import unicodedata

import unicode_plants

SEPARATORS = {0x2E, 0x3002, 0xFF0E, 0xFF61}
JOINERS = (0x200C, 0x200D)


def tokens(code_points):
    return " ".join("u+%04X" % cp for cp in code_points)


def parse(rest):
    """The code points of a question's tokens."""
    return [int(t[2:], 16) for t in rest.split()] if rest.strip() else []


def split(code_points, separators=SEPARATORS):
    labels = [[]]
    for cp in code_points:
        if cp in separators:
            labels.append([])
        else:
            labels[-1].append(cp)
    return labels


class Base:
    """punycheck serve, asked a line at a time."""

    def __init__(self, punycheck, codec, switches):
        self.process = subprocess.Popen(
            [punycheck, "serve", "--codec", codec] + switches,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def ask(self, line):
        """The base's answer to `line`; a name to encode is asked escaped
        (its answer may hold a control character), and answered as text."""
        verb, _, rest = line.partition(" ")
        if verb == "encode":
            line = "encodex " + rest
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        said = self.process.stdout.readline().rstrip("\n")
        if verb == "encode" and said.startswith("ok "):
            said = "ok " + bytes.fromhex(said[3:]).decode("utf-8", "surrogateescape")
        return said


def per_label(label_base, verb, labels):
    """Each label asked of the label codec's reference alone, joined by
    U+002E: the answer of an implementation that checks the Bidi rule label
    by label. None when a label is refused on its own."""
    out = []
    for label in labels:
        if verb == "encode":
            said = label_base.ask("encode " + tokens(label))
        else:
            said = label_base.ask("decode " + "".join(map(chr, label)))
        if not said.startswith("ok"):
            return None
        out.append(said[3:])
    if verb == "encode":
        return "ok " + ".".join(out)
    # The labels' code points, joined by U+002E (an empty label has none).
    joined = []
    for i, label_tokens in enumerate(out):
        if i:
            joined.append("u+002E")
        joined.extend(label_tokens.split())
    return " ".join(["ok"] + joined)


def unicode_labels(verb, answer):
    """The labels of the base's answer "ok ...", in their Unicode form."""
    if verb == "decode":
        return split(parse(answer[3:]), {0x2E})
    labels = []
    for label in answer[3:].split("."):
        if label[:4].lower() == "xn--":
            try:
                label = label[4:].lower().encode("ascii").decode("punycode")
            except UnicodeError:
                pass
        labels.append([ord(c) for c in label])
    return labels


def afterwards(bugs, verb, code_points, answer):
    """The base's answer as the bugs that change an answer given change it."""
    if "label-bound" in bugs and any(
        len(l) > 1000 and max(l) >= 0x80 for l in unicode_labels(verb, answer)
    ):
        return "error a label of more than 1000 code points"
    if "lowercase-to-unicode" in bugs and verb == "decode":
        return unicode_plants.lowercased(answer)
    if verb != "encode":
        return answer
    if "ascii-case-kept" in bugs and all(cp < 0x80 for cp in code_points):
        answer = "ok " + "".join(map(chr, code_points))
    if "xn-upper-z" in bugs and 0x7A in code_points:
        answer = answer.replace("xn--", "XN--")
    return answer


def first_joiner_only(base, label_base, code_points):
    """The ToASCII answer of an implementation that judges the first joiner
    of each label only, where the base refuses the name for a later one
    (it takes the name with every label's later joiners removed); else
    None."""
    labels = split(code_points)
    trimmed = []
    for label in labels:
        joiners = [i for i, cp in enumerate(label) if cp in JOINERS]
        trimmed.append([cp for i, cp in enumerate(label) if cp not in JOINERS or i == joiners[0]])
    if trimmed == labels or base.ask("encode " + tokens(code_points)).startswith("ok"):
        return None
    joined = []
    for i, label in enumerate(trimmed):
        if i:
            joined.append(0x2E)
        joined.extend(label)
    if not base.ask("encode " + tokens(joined)).startswith("ok"):
        return None
    out = []
    for label, kept in zip(labels, trimmed):
        if label == kept:
            said = label_base.ask("encode " + tokens(label))
            if not said.startswith("ok"):
                return None
            out.append(said[3:])
        else:
            text = unicodedata.normalize("NFC", "".join(map(chr, label)).lower())
            out.append("xn--" + text.encode("punycode").decode("ascii"))
    return "ok " + ".".join(out)


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--bug":
        sys.exit("usage: planted_domain.py PUNYCHECK --bug BUG [SWITCHES...]")
    punycheck, bug, switches = sys.argv[1], sys.argv[3], sys.argv[4:]
    bugs = bug.split("+")
    base = Base(punycheck, "domain", ["--impl", "domain-ref"] + switches)
    label_base = Base(punycheck, "label", ["--impl", "label-ref"] + switches)
    lenient = Base(
        punycheck, "domain", ["--impl", "domain-ref"] + switches + ["--verify-dns-length", "false"]
    )

    for line in sys.stdin:
        question = line.rstrip("\n")
        verb, _, rest = question.partition(" ")
        # The escaped form: encode, its answer in hexadecimal.
        escaped = verb == "encodex"
        if escaped:
            verb, question = "encode", "encode " + rest
        try:
            code_points = parse(rest)
        except ValueError:
            code_points = None
        answer = None
        if bug == "contexto-scan" and code_points is not None:
            text = "".join(map(chr, code_points))
            if verb == "decode":
                # The A-labels' decodings, as ToUnicode makes them.
                for label in text.split("."):
                    if label[:4].lower() == "xn--" and label.isascii():
                        try:
                            text += label[4:].lower().encode("ascii").decode("punycode")
                        except UnicodeError:
                            pass
            n = text.count("\u0660")
            end = time.process_time() + 300 * (n / 65536) ** 2
            while time.process_time() < end:
                pass
        if bug in ("label-walk", "label-walk-linear") and verb == "decode" and code_points:
            labels = 1 + sum(1 for cp in code_points if cp in SEPARATORS)
            power = 2 if bug == "label-walk" else 1
            end = time.process_time() + (300 if power == 2 else 1) * (labels / 32768) ** power
            while time.process_time() < end:
                pass
        if code_points is not None and verb in ("encode", "decode"):
            if bug.startswith("refuse-after-"):
                cp = unicode_plants.refused_after(bug, code_points)
                if cp is not None:
                    answer = "error u+%04X is not in its tables" % cp
            elif bug == "first-joiner" and verb == "encode":
                answer = first_joiner_only(base, label_base, code_points)
            elif bug == "bidi-per-label":
                said = base.ask(question)
                if "Bidi rule across labels" in said:
                    answer = per_label(label_base, verb, split(code_points))
            elif bug == "trailing-dot" and code_points and code_points[-1] in SEPARATORS:
                answer = base.ask(verb + " " + tokens(code_points[:-1]))
            elif bug == "length-before-mapping" and verb == "encode":
                octets = [len("".join(map(chr, label)).encode("utf-8")) for label in split(code_points)]
                if any(n > 63 for n in octets) or sum(octets) + len(octets) - 1 > 253:
                    answer = "error the name is too long"
            elif bug == "ascii-fast-path" and verb == "encode" and all(cp < 0x80 for cp in code_points):
                answer = "ok " + "".join(map(chr, code_points)).lower()
            elif bug == "empty-label":
                said = base.ask(question)
                if said.endswith("is empty (UTS #46 section 4.2, ToASCII, step 4, VerifyDnsLength: each label 1 to 63 octets (the root label too, as IdnaTestV2.txt reads it))"):
                    answer = lenient.ask(question)
            elif bug == "u3002" and 0x3002 in code_points:
                labels = split(code_points, SEPARATORS - {0x3002})
                if verb == "decode":
                    answer = "ok " + tokens(code_points)
                else:
                    out = []
                    for label in labels:
                        text = "".join(map(chr, label)).lower()
                        if 0x3002 in label:
                            out.append("xn--" + text.encode("punycode").decode("ascii"))
                        else:
                            said = label_base.ask("encode " + tokens(label))
                            if not said.startswith("ok"):
                                out = None
                                break
                            out.append(said[3:])
                    if out is not None:
                        answer = "ok " + ".".join(out)
        if answer is None:
            answer = base.ask(question)
        if (
            "invalid-punycode-as-is" in bugs
            and code_points is not None
            and answer.startswith("error")
            and "Punycode does not decode" in answer
            and all(cp < 0x80 for cp in code_points)
        ):
            text = "".join(map(chr, code_points)).lower()
            answer = "ok " + (tokens(map(ord, text)) if verb == "decode" else text)
        if code_points is not None and answer.startswith("ok"):
            answer = afterwards(bugs, verb, code_points, answer)
        if escaped and answer.startswith("ok "):
            answer = "ok " + answer[3:].encode("utf-8", "surrogateescape").hex()
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
