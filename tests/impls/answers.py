#!/usr/bin/env python3
"""answers: pyny's correct Punycode codec (tests/impls/pyny.py, imported)
behind punycheck's pipe: protocol (--pipe), with answers that test how
punycheck describes and judges them (tests/answers.rs).

Usage:  answers.py [--failed] [--max N] [--huge TEXT] --pipe

  --failed     every failure is said the way a program that does not know
               why it failed says it: "failed: " and words of its own, which
               name the input's length ("failed: Illegal char found in 12
               characters"), so that they differ from input to input
  --max N      refuse any input or result longer than N: code points to
               encode or decoded, bytes to decode or encoded (as "input or
               output is too large", or as a failure with --failed)
  --huge TEXT  the answer to decoding TEXT is one 10,000,000-byte line that
               is not in the protocol
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyny  # noqa: E402

HUGE = 10_000_000


def serve(failed: bool, limit: int | None, huge: bytes | None) -> int:
    codec = pyny.Punycode()

    def bounded(length: int) -> None:
        if limit is not None and length > limit:
            raise pyny.TooBig

    def answer(question: bytes) -> bytes:
        verb, _, payload = question.partition(b" ")
        if verb == b"decode" and payload == huge:
            return b"0123456789" * (HUGE // 10)
        try:
            if verb == b"encode":
                values, flags = pyny.read_code_points(payload)
                bounded(len(values))
                encoded = pyny.printable(codec.encode(values, flags))
                bounded(len(encoded))
                return b"ok " + encoded
            if verb == b"decode":
                bounded(len(payload))
                if any(not 0x20 <= c < 0x7F for c in payload):
                    raise pyny.BadInput
                code_points, upper = codec.decode(payload)
                bounded(len(code_points))
                return b"ok " + " ".join(
                    f"{'U' if u else 'u'}+{c:04X}" for c, u in zip(code_points, upper)
                ).encode()
            raise pyny.BadInput
        except pyny.Failure as failure:
            if failed:
                words = f"failed: Illegal char found in {len(payload)} characters"
                return b"error " + words.encode()
            return b"error " + failure.message.encode()

    with open(0, "rb", closefd=False) as stdin:
        for line in stdin:
            pyny.write_all(1, answer(line.rstrip(b"\n")).rstrip(b" ") + b"\n")
    return 0


def main(args: list[str]) -> int:
    failed, limit, huge, pipe = False, None, None, False
    rest = iter(args)
    for arg in rest:
        if arg == "--failed":
            failed = True
        elif arg == "--max":
            limit = int(next(rest))
        elif arg == "--huge":
            huge = next(rest).encode()
        elif arg == "--pipe":
            pipe = True
        else:
            sys.stderr.write(__doc__)
            return 2
    if not pipe:
        sys.stderr.write(__doc__)
        return 2
    return serve(failed, limit, huge)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
