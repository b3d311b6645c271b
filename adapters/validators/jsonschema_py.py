#!/usr/bin/env python3
"""punycheck validator adapter (--answers verdict) for Python's `jsonschema`.

Wraps:   jsonschema 4.26.0's format checker, as a schema with
         {"format": "idn-hostname"} or {"format": "hostname"} runs it
         (Draft202012Validator.FORMAT_CHECKER.conforms(name, FORMAT)):
         idn-hostname is idna.encode(name) of the PyPI idna package, caught
         IDNAError and UnicodeError (jsonschema/_format.py 286-300);
         hostname is fqdn.FQDN(name, min_labels=1).is_valid, caught
         ValueError (lines 265-283), when fqdn is installed.
Install: pip install 'jsonschema==4.26.0' 'idna==3.13' (adapters/install.sh).
Spec:    pipe:python3 adapters/validators/jsonschema_py.py [idn-hostname|hostname]

The pipe protocol of a validator, a line each way: a question of either
verb carries a name (encode TOKENS, decode TOKENS, encodex TOKENS as
encode, decodex HEX as decode) and is answered "valid" or "invalid
REASON". An exception the checker does not catch is "crash <Class>:
<message>": a validator that raises on a string is a crash, not a verdict.
"""
import sys

try:
    import jsonschema
except ImportError:  # started with -S: site-packages is not on sys.path
    import site

    site.main()
    import jsonschema


def name_of(verb, payload):
    """The name a question asks about, or None when it is not one."""
    if verb == "decodex":
        try:
            return bytes.fromhex(payload).decode("utf-8", "surrogateescape")
        except ValueError:
            return None
    cps = []
    for tok in payload.split():
        digits = tok[2:]
        if (len(tok) < 3 or tok[0] not in "uU" or tok[1] != "+" or len(digits) > 8
                or any(c not in "0123456789abcdefABCDEF" for c in digits)):
            return None
        cp = int(digits, 16)
        if cp > 0x10FFFF:
            return None
        cps.append(chr(cp))
    return "".join(cps)


def main():
    fmt = sys.argv[1] if len(sys.argv) > 1 else "idn-hostname"
    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    if fmt not in checker.checkers:
        sys.exit("jsonschema_py.py: no checker for format %r (is its package installed?)" % fmt)
    for line in sys.stdin:
        verb, _, payload = line.rstrip("\n").partition(" ")
        name = name_of(verb, payload) if verb in ("encode", "encodex", "decode", "decodex") else None
        if name is None:
            answer = "error adapter: not a question this adapter can put"
        else:
            try:
                answer = "valid" if checker.conforms(name, fmt) else "invalid"
            except Exception as e:  # what the checker does not catch
                answer = "crash %s: %s" % (type(e).__name__, e)
        answer = answer.encode("ascii", "backslashreplace").decode("ascii")
        sys.stdout.write(answer.replace("\n", " ") + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
