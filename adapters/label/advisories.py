#!/usr/bin/env python3
"""Asks every `label` adapter the advisory questions of NOTES.md and prints
the answers as a Markdown table (or verbatim with --raw).

    python3 adapters/label/advisories.py          # table, from the repo root
    python3 adapters/label/advisories.py --raw    # every answer line as is

Each adapter is started once as a pipe: program and asked all questions in
order. An adapter whose program is missing (not built) is skipped with a
note. A cell is marked with ** when the answer differs from what UTS #46
revision 33 (or, for the IDNA2008 profile, RFC 5891) prescribes for the
adapter's flags; see EXPECT below.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join(ROOT, "adapters", "build")


def toks(s):
    return " ".join("u+%04X" % ord(c) for c in s)


A63 = "a" * 55 + "\u00e9"  # xn--<55 a>-u3e: 63 octets
A64 = "a" * 56 + "\u00e9"  # 64 octets
A66 = "a" * 58 + "\u00e9"  # 66 octets

# (question line, short name, expected(flags) -> "error" | "ok ...")
# flags: ch = CheckHyphens, vdl = VerifyDnsLength (ToASCII), i2008 = IDNA2008.
ERR = lambda f: "error"
QUESTIONS = [
    ("decode xn--go-", "d xn--go-", ERR),
    ("decode xn--example-", "d xn--example-", ERR),
    ("decode XN--BCHER-KVA", "d XN--BCHER-KVA", lambda f: "ok " + toks("b\u00fccher")),
    ("decode Xn--bcher-kva", "d Xn--bcher-kva", lambda f: "ok " + toks("b\u00fccher")),
    ("decode xn--bcher-kva", "d xn--bcher-kva", lambda f: "ok " + toks("b\u00fccher")),
    ("decode xn--a-ecp", "d xn--a-ecp", ERR),
    ("decode xn--", "d xn--", ERR),
    ("decode xn--\u304c-", "d xn--\u304c-", ERR),
    ("decode xn--a000000000", "d xn--a000000000", ERR),
    ("decode Xn---00XA", "d Xn---00XA", ERR),
    ("decode xn---00xa", "d xn---00xa", ERR),
    ("decode xn--xn--qh33b", "d xn--xn--qh33b",
     lambda f: "error" if f["ch"] or f["i2008"] else "ok " + toks("\U0001F600xn-")),
    ("encode " + toks("\U0001F600xn-"), "e \U0001F600xn-",
     lambda f: "error" if f["ch"] or f["i2008"] else "ok xn--xn--qh33b"),
    ("decode xn--xn---epa", "d xn--xn---epa", ERR),
    ("encode " + toks("b\u00fccher"), "e b\u00fccher", lambda f: "ok xn--bcher-kva"),
    ("encode " + toks("xn--\u00e9"), "e xn--\u00e9", ERR),
    ("encode " + toks(A63), "e 55a+\u00e9 (63 o.)",
     lambda f: "ok xn--" + A63.encode("punycode").decode()),
    ("encode " + toks(A64), "e 56a+\u00e9 (64 o.)",
     lambda f: "error" if f["vdl"] or f["i2008"] else "ok xn--" + A64.encode("punycode").decode()),
    ("encode " + toks(A66), "e 58a+\u00e9 (66 o.)",
     lambda f: "error" if f["vdl"] or f["i2008"] else "ok xn--" + A66.encode("punycode").decode()),
]


def flags(ch, vdl, i2008=False):
    return {"ch": ch, "vdl": vdl, "i2008": i2008}


# (column name, argv, flags it is compared with)
ADAPTERS = [
    ("node url", ["node", os.path.join(HERE, "node_url.js")], flags(False, False)),
    ("cpython idna", [sys.executable, os.path.join(HERE, "cpython_idna.py")], flags(False, True)),
    ("idna 3.13 idna2008", [sys.executable, os.path.join(HERE, "python_idna.py"), "idna2008"], flags(True, True, True)),
    ("idna 3.13 uts46", [sys.executable, os.path.join(HERE, "python_idna.py"), "uts46"], flags(True, True, True)),
    ("go lookup", [os.path.join(BUILD, "label-go-idna"), "lookup"], flags(True, False)),
    ("go display", [os.path.join(BUILD, "label-go-idna"), "display"], flags(True, False)),
    ("rust 0.5.0 url", [os.path.join(BUILD, "label-idna-0.5.0"), "url"], flags(False, False)),
    ("rust 0.5.0 strict", [os.path.join(BUILD, "label-idna-0.5.0"), "strict"], flags(True, True)),
    ("rust 1.1.0 url", [os.path.join(BUILD, "label-idna-1.1.0"), "url"], flags(False, False)),
    ("rust 1.1.0 strict", [os.path.join(BUILD, "label-idna-1.1.0"), "strict"], flags(True, True)),
]


def ask(argv):
    data = "".join(q + "\n" for q, _, _ in QUESTIONS).encode("utf-8")
    p = subprocess.run(argv, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    lines = p.stdout.decode("utf-8", "replace").split("\n")
    return lines[:len(QUESTIONS)]


def text_of(tokens):
    try:
        return "".join(chr(int(t[2:], 16)) for t in tokens.split())
    except ValueError:
        return tokens


def short(ans):
    if ans.startswith("ok u+") or ans == "ok":
        return "ok \u201c%s\u201d" % text_of(ans[3:])
    if ans.startswith("ok "):
        return ans if len(ans) < 30 else ans[:22] + "\u2026" + ans[-5:]
    return ans if len(ans) <= 34 else ans[:32] + "\u2026"


def main():
    raw = sys.argv[1:] == ["--raw"]
    cols, answers, missing = [], [], []
    for name, argv, fl in ADAPTERS:
        if not os.path.exists(argv[0]) and os.sep in argv[0]:
            missing.append("%s (%s not built)" % (name, argv[0]))
            continue
        cols.append((name, fl))
        answers.append(ask(argv))
    if raw:
        for (name, _), ans in zip(cols, answers):
            print("== " + name)
            for (q, _, _), a in zip(QUESTIONS, ans):
                print("%s\n  -> %s" % (q if len(q) < 120 else q[:110] + "...", a))
    else:
        print("| question | " + " | ".join(n for n, _ in cols) + " |")
        print("|---" * (len(cols) + 1) + "|")
        for i, (q, label, expect) in enumerate(QUESTIONS):
            cells = []
            for (name, fl), ans in zip(cols, answers):
                a = ans[i] if i < len(ans) else "(no answer)"
                e = expect(fl)
                good = a.startswith("error") if e == "error" else a == e
                cell = short(a).replace("|", "\\|")
                cells.append(cell if good else "**" + cell + "**")
            print("| " + label + " | " + " | ".join(cells) + " |")
    for m in missing:
        print("skipped: " + m, file=sys.stderr)


if __name__ == "__main__":
    main()
