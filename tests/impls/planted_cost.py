#!/usr/bin/env python3
"""planted_cost: the clean-room codec behind punycheck's pipe: protocol
(through `punycheck serve --impl cleanroom`), with a planted cost in CPU
time and, optionally, a planted allocation.

Usage:  planted_cost.py PUNYCHECK linear|quadratic|cubic SECONDS [--allocate MB]

  Before each answer it spends SECONDS * (n / 65536) ** k seconds of CPU
  time (k = 1, 2 or 3), n the number of distinct non-basic code points
  encoded or decoded: a loop that reads time.process_time(), so the CPU
  time spent is the same on any machine, however busy, and only the
  wall-clock time moves with the load. What the cost probe measures is
  this process's CPU time, so a cost planted here is seen whatever the
  machine does meanwhile.

  --allocate MB: asked to decode text holding the letter q, it first
  fills MB megabytes of memory (touched, so resident), then answers: an
  implementation that allocates without bound on one input.
"""

import subprocess
import sys
import time


def spend(seconds: float) -> None:
    """Spends `seconds` of this process's CPU time in a loop."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def main(args: list[str]) -> int:
    if len(args) not in (3, 5) or args[1] not in ("linear", "quadratic", "cubic"):
        print(__doc__, file=sys.stderr)
        return 2
    punycheck, growth, scale = args[0], args[1], float(args[2])
    power = {"linear": 1, "quadratic": 2, "cubic": 3}[growth]
    allocate = int(args[4]) if len(args) == 5 and args[3] == "--allocate" else 0
    server = subprocess.Popen(
        [punycheck, "serve", "--impl", "cleanroom"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    hold = None
    for line in sys.stdin.buffer:
        server.stdin.write(line)
        server.stdin.flush()
        reply = server.stdout.readline()
        words = line.split()
        if allocate and words[:1] == [b"decode"] and b"q" in line[7:]:
            hold = b"\x01" * (allocate << 20)
        tokens = words[1:] if words[:1] == [b"encode"] else reply.split()[1:]
        distinct = {t.lower() for t in tokens if t[:2] in (b"u+", b"U+") and int(t[2:], 16) >= 0x80}
        spend(scale * (len(distinct) / 65536) ** power)
        hold = None
        sys.stdout.buffer.write(reply)
        sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
