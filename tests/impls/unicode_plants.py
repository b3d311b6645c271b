"""Two table bugs of UTS #46 implementations, shared by planted_label.py and
planted_domain.py (each wraps punycheck's own reference, which is correct):

  lowercase-to-unicode  ToUnicode's answer lowercased, as one library did
                 after its mapping (issue 45: found by reading its source,
                 after 30,000 generated questions passed): valid Cherokee
                 capitals (U+13A0..U+13F5) come back as the small letters
                 (U+AB70..U+ABBF, U+13F8..U+13FD), which UTS #46 maps to
                 them.
  refuse-after-X.Y  tables of Unicode X.Y: every code point assigned after
                 X.Y (DerivedAge, crates/punycheck/src/unicode_age.txt) is
                 refused, in the question or inside one of its A-labels,
                 whatever version the implementation is declared to cover.
"""
import bisect
import os

_AGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "crates", "punycheck", "src", "unicode_age.txt")
_RANGES = []
for _line in open(_AGE, encoding="utf-8"):
    if _line.startswith("#") or ";" not in _line:
        continue
    _range, _version = _line.strip().split(";")
    _first, _last = _range.split("..")
    _RANGES.append((int(_first, 16), int(_last, 16), tuple(int(p) for p in _version.split("."))))
_LASTS = [last for _, last, _ in _RANGES]


def age(cp):
    """The version that assigned cp, as (major, minor), or None."""
    at = bisect.bisect_left(_LASTS, cp)
    if at < len(_RANGES) and _RANGES[at][0] <= cp:
        return _RANGES[at][2]
    return None


def decoded(text):
    """The code points of text and of each xn-- label's Punycode in it."""
    out = [ord(c) for c in text]
    for label in text.replace("\u3002", ".").replace("\uff0e", ".").replace("\uff61", ".").split("."):
        if label[:4].lower() == "xn--" and label.isascii():
            try:
                out.extend(ord(c) for c in label[4:].lower().encode("ascii").decode("punycode"))
            except (UnicodeError, ValueError):
                pass
    return out


def refused_after(bug, code_points):
    """For bug refuse-after-X.Y: the first code point of code_points (with
    its A-labels' decodings) assigned after X.Y, or None."""
    version = tuple(int(p) for p in bug[len("refuse-after-"):].split("."))
    text = "".join(chr(cp) for cp in code_points if cp < 0xD800 or 0xDFFF < cp <= 0x10FFFF)
    for cp in decoded(text):
        a = age(cp)
        if a is not None and a > version:
            return cp
    return None


def lowercased(answer):
    """An answer 'ok TOKENS' with its code points lowercased (str.lower)."""
    cps = [int(t[2:], 16) for t in answer[3:].split()]
    text = "".join(chr(cp) for cp in cps).lower()
    return ("ok " + " ".join("u+%04X" % ord(c) for c in text)).rstrip()
