#!/usr/bin/env python3
"""pyny: an independent Punycode (RFC 3492) codec behind the command-line
convention of the RFC's Appendix C test wrapper, with optional planted bugs.

Usage:  pyny.py [--unicode] [--buffer N] [--bug NAME] -e      code points in, Punycode out
        pyny.py [--unicode] [--buffer N] [--bug NAME] -d      Punycode in, code points out
        pyny.py [--unicode] [--buffer N] [--bug NAME] --pipe  punycheck's pipe: protocol
        pyny.py --help

  --delay S  wait S seconds (a decimal number) before each answer: a
             correct but slow implementation, for tests of what a check
             does when its time runs out or it is interrupted.
  --cost quadratic|cubic
             a planted cost that grows with n, the number of distinct
             non-basic code points encoded or decoded (what the RFC
             encoder's passes grow with): before answering, wait
             10 s * (n/1024)^2 (or ^3) when n >= 1024, and not at all
             below: ten times the cost probe's 1 s budget and more from
             1024 on, nothing under it, whatever the machine's speed.
             Long vectors (runs of a few code points) cost nothing.

  --buffer N decode into an array of N code points (1 to 100000), as a C
             program with a fixed buffer does, its space check right: a
             decoding of more than N code points is "input or output is too
             large". A limit to declare (--max-encode N), and kept.

  --unicode  take and return only Unicode scalar values, as an implementation
             built on Python's str and UTF-8 would: a code point above
             U+10FFFF or a surrogate (U+D800-U+DFFF) to encode, or decoded
             from Punycode where RFC 3492 would return it, is "invalid
             input". Inside Unicode it answers exactly as without the option.

Protocol (the compiled Appendix C wrapper, reproduced byte for byte):

  -e  Standard input holds tokens u+XXXX or U+XXXX (the case of the u is the
      Appendix A uppercase flag). They are read the way the wrapper's
      scanf("%2s%lx") reads them: two non-blank characters, then a
      hexadecimal number (blanks before it allowed, tokens need not be
      separated, optional sign and 0x prefix, 64-bit strtoul arithmetic),
      and the value must not exceed 0xFFFFFFFF. The Punycode string and a
      newline go to standard output. With flags, ASCII letters are forced
      to the flag's case and the last digit of each delta takes the flag's
      case. Basic code points the wrapper cannot print (U+0000-U+001F and
      U+007F) come out as newlines, as its print_ascii table makes them:
      "u+0000" gives a newline, "-" and the final newline.
  -d  Standard input holds one line of printable ASCII ended by a newline
      (anything after the newline is ignored). Each decoded code point is
      printed on its own line as u+XXXX or U+XXXX ("%04X"), U when the last
      character of its delta (or the basic letter itself) is uppercase.

  Success is exit status 0 with nothing on standard error. Failure is exit
  status 1 with exactly one line on standard error and nothing on standard
  output:
    "invalid input"           malformed token, value above 0xFFFFFFFF,
                              a character that is not printable ASCII, a
                              line without its newline, or invalid Punycode
                              (RFC 3492 section 6.2)
    "arithmetic overflow"     a 32-bit overflow check of sections 6.2/6.3
    "input or output is too large, recompile with larger limits"
                              more than 100000 code points or characters
                              (the wrapper's limit is 256), or a NUL byte
                              inside the line after its first character
                              (the wrapper measures the line with strlen)
                              (with --unicode, "invalid input" also means a
                              code point that is not a Unicode scalar value)
    "I/O error"               reading or writing failed
  --pipe  Many questions, one line each on standard input: "encode TOKENS"
      (tokens as for -e) or "decode TEXT" (as the line of -d), the verb
      alone when there is nothing to encode or decode. Each is answered by
      one line on standard output, flushed: "ok RESULT" (the Punycode
      string, or the tokens separated by single spaces; "ok" alone for an
      empty result) or "error MESSAGE" with a message below. A question
      with another verb is "error invalid input".

  A NUL byte as the first character of the line is undefined behaviour in
  the wrapper (it crashes); pyny reports "invalid input". Usage errors exit
  with status 2, internal errors with status 70 and a one-line message.

Planted bugs (--bug NAME changes exactly one thing, and may be given more than
once to plant several; sections of RFC 3492):
  bias-damp              adapt() divides by damp 701 instead of 700 (6.1)
  bias-firsttime         adapt() always halves, never divides by damp (6.1)
  threshold              t is tmax already when k >= bias + tmax - 1, in
                         both the encoder and the decoder (6.2, 6.3)
  no-overflow-digit      decoder: no check on i + digit*w; i wraps mod 2^32
  no-overflow-codepoint  decoder: no check on n + i div (length+1); n wraps
  no-overflow-delta      encoder: no check on delta + (m-n)*(h+1); wraps
  no-overflow-increment  encoder: no check on "increment delta"; wraps
  signed-int             every overflow check uses 2^31-1 instead of
                         2^32-1, as if the integers were signed (6.4)
  bignum                 no overflow checks at all, unbounded integers
  first-delimiter        decoder splits at the first delimiter, not the
                         last (a delimiter at position 0 still counts as
                         none) (6.2)
  leading-delimiter      decoder takes a delimiter at position 0 as the end
                         of an empty basic part, so "-abc" decodes "abc"
  always-delimiter       encoder writes the delimiter even when there are
                         no basic code points (6.3)
  underscore-digit       decoder accepts "_" as a digit of value 0 (5)
  del-non-basic          encoder takes U+007F for non-basic, as if basic
                         code points ended at 0x7E (5)
  digit-offset           decoder maps 0-9 to 27-36 instead of 26-35, so
                         "9" has no value (5)
  uppercase-rejected     decoder rejects the digits A-Z (5)
  no-end-check           decoder accepts input that ends inside a delta,
                         as if the last digit were the final one (6.2)
  no-i-increment         decoder does not increment i after inserting a
                         code point (6.2)
  flag-lost              decoder reports every non-basic code point with a
                         lowercase flag (Appendix A)
  basic-case-kept        encoder copies ASCII letters without forcing them
                         to the case of their flag (Appendix A)
  signed-encoder         the encoder's overflow checks use 2^31-1, the
                         decoder's 2^32-1: signed 32-bit integers on one
                         side only (6.4)
  int26                  every overflow check uses 2^26-1: the 26 bits that
                         section 6.4 says suffice for IDNA labels, used for
                         any input
  weight-strict          decoder: the weight check tests w * base instead of
                         w * (base - t), so it refuses some valid deltas
                         from about 3.46 * 10^9 on (inputs of more than
                         3100 code points) (6.2)
  trailing-zero          decoder: a "0" at the end of the input is taken for
                         the end of the input, as if it were a terminator
  buffer-256             output silently cut to 256 units: bytes when
                         encoding, code points when decoding (success, no
                         message)
  buffer-512-overrun     decoder with a 512-entry output array whose space
                         check is off by one (> instead of >=, as in OpenSSL
                         CVE-2022-3602): the 513th code point inserted is
                         written past the array, an uncaught IndexError
                         (exit status 70)
  buffer-512-silent      decoder with a 512-entry output array whose space
                         check is off by one, as OpenSSL 3.0.6's was
                         (CVE-2022-3602), where the 513th entry is not
                         checked: it answers 513 code points as if nothing
                         happened (C wrote one entry past the array), and
                         says "too large" from the 514th on
  buffer-512-bare        decoder with a 512-entry output array whose space
                         check is right, as OpenSSL 3.0.7's is, and which
                         only says "failed" when it is full (not a bug, a
                         limit: undeclared, it is one cause)
"""

import bisect
import os
import re
import sys
import time

# The bug list is kept once, in the docstring above: a name is a word two
# spaces in on a line of that list.
BUGS = re.findall(r"^  ([a-z][a-z0-9-]+) ", __doc__.split("Planted bugs")[1], re.M)

# Bootstring parameters for Punycode (RFC 3492 section 5).
BASE, TMIN, TMAX, SKEW, DAMP = 36, 1, 26, 38, 700
INITIAL_BIAS, INITIAL_N = 72, 0x80
DELIMITER = ord("-")

UINT32_MAX = 0xFFFFFFFF  # the C code's punycode_uint is 32 bits wide
ULONG_MAX = 2**64 - 1  # scanf's %lx reads an LP64 unsigned long

# Our limits where the wrapper has 256.
MAX_CODE_POINTS = 100_000
MAX_LINE = 100_000

# The planted buffer sizes (--bug buffer-256, --bug buffer-512-overrun,
# --bug buffer-512-silent).
SHORT_BUFFER = 256
FIXED_OUTPUT = 512

# The overflow checks of sections 6.2 and 6.3, by the bug that removes one.
UNCHECKED = {
    "no-overflow-digit": "i + digit*w",
    "no-overflow-codepoint": "n + i div (len+1)",
    "no-overflow-delta": "delta + (m-n)*(h+1)",
    "no-overflow-increment": "increment delta",
}


class Failure(Exception):
    """A failure the wrapper reports with a message and exit status 1."""

    message = ""


class BadInput(Failure):
    message = "invalid input"


class Overflow(Failure):
    message = "arithmetic overflow"


class TooBig(Failure):
    message = "input or output is too large, recompile with larger limits"


class Failed(Failure):
    message = "failed"


class IOFailure(Failure):
    message = "I/O error"


def is_scalar(code_point: int) -> bool:
    """A Unicode scalar value: what a Python str holds once encoded."""
    return code_point <= 0x10FFFF and not 0xD800 <= code_point <= 0xDFFF


class Punycode:
    """Sections 6.1-6.3 with Appendix A annotations, planted bugs optional."""

    def __init__(self, bugs: str | set[str] | None = None, unicode: bool = False, buffer: int | None = None):
        # One bug by its name, or a set of them.
        self.bugs = {bugs} if isinstance(bugs, str) else set(bugs or ())
        self.unicode = unicode
        if self.bugs & {"buffer-512-overrun", "buffer-512-silent", "buffer-512-bare"}:
            buffer = FIXED_OUTPUT
        self.buffer = buffer  # the decoder's array, in code points
        self.maxint = UINT32_MAX

    def full(self) -> Failure:
        """The decoder's array is full: "too large", or a bare "failed"."""
        return Failed() if "buffer-512-bare" in self.bugs else TooBig()

    def _limit(self, encoding: bool) -> int:
        """The largest value the integers of one direction hold (6.4)."""
        if "int26" in self.bugs:
            return 2**26 - 1
        if "signed-int" in self.bugs or ("signed-encoder" in self.bugs and encoding):
            return 0x7FFFFFFF
        return UINT32_MAX

    def _fit(self, value: int, check: str) -> int:
        """An arithmetic result that must fit a punycode_uint (6.4)."""
        if value <= self.maxint or "bignum" in self.bugs:
            return value
        if any(UNCHECKED.get(b) == check for b in self.bugs):
            return value & UINT32_MAX  # what C's unsigned arithmetic does
        raise Overflow

    # 6.1 Bias adaptation function
    def adapt(self, delta: int, numpoints: int, firsttime: bool) -> int:
        damp = 701 if "bias-damp" in self.bugs else DAMP
        if firsttime and "bias-firsttime" not in self.bugs:
            delta //= damp
        else:
            delta //= 2
        delta += delta // numpoints
        k = 0
        while delta > (BASE - TMIN) * TMAX // 2:
            delta //= BASE - TMIN
            k += BASE
        return k + (BASE - TMIN + 1) * delta // (delta + SKEW)

    def threshold(self, k: int, bias: int) -> int:
        """t clamped to tmin..tmax; "+ tmin" omitted as 6.2/6.3 allow."""
        top = bias + TMAX - (1 if "threshold" in self.bugs else 0)
        if k <= bias:
            return TMIN
        return TMAX if k >= top else k - bias

    # Section 5: digit values a-z/A-Z = 0-25, 0-9 = 26-35.
    def digit_value(self, char: int) -> int | None:
        if ord("a") <= char <= ord("z"):
            return char - ord("a")
        if ord("A") <= char <= ord("Z"):
            return None if "uppercase-rejected" in self.bugs else char - ord("A")
        if ord("0") <= char <= ord("9"):
            value = char - ord("0") + (27 if "digit-offset" in self.bugs else 26)
            return value if value < BASE else None
        if char == ord("_") and "underscore-digit" in self.bugs:
            return 0
        return None

    @staticmethod
    def digit_char(value: int, upper: bool) -> int:
        # 0-25 are a-z (A-Z with the flag), 26-35 are 0-9. Only the last
        # digit of a delta takes a flag, and it is below t <= tmax = 26, so a
        # decimal digit is never asked for in uppercase (Appendix A).
        if value < 26:
            return value + (ord("A") if upper else ord("a"))
        return value - 26 + ord("0")

    def basic_char(self, char: int, upper: bool) -> int:
        """Appendix A: the flag forces an ASCII letter to its case."""
        if "basic-case-kept" in self.bugs or not bytes([char]).isalpha():
            return char  # bytes.isalpha() is true exactly for a-z, A-Z
        return char & ~0x20 if upper else char | 0x20

    def delta_digits(self, q: int, bias: int, upper: bool) -> list[int]:
        """A delta as a generalized variable-length integer (section 3.3)."""
        digits, k = [], BASE
        while q >= (t := self.threshold(k, bias)):
            digits.append(self.digit_char(t + (q - t) % (BASE - t), False))
            q, k = (q - t) // (BASE - t), k + BASE
        digits.append(self.digit_char(q, upper))  # Appendix A: flag here
        return digits

    def _encode_del_non_basic(self, code_points: list[int], flags: list[bool]) -> list[int]:
        """The encoding with U+007F moved out of the basic code points: the
        literal part without it, then its deltas as if the encoder's n
        started at 0x7F (the planted bug's reading of section 5)."""
        literal = [self.basic_char(c, f) for c, f in zip(code_points, flags) if c < 0x7F]
        output = literal + ([DELIMITER] if literal else [])
        h, n, delta, bias = len(literal), 0x7F, 0, INITIAL_BIAS
        for m in sorted({c for c in code_points if c >= 0x7F}):
            delta += (m - n) * (h + 1)
            n = m
            for c, f in zip(code_points, flags):
                if c < n:
                    delta += 1
                if c == n:
                    output += self.delta_digits(delta, bias, f)
                    bias = self.adapt(delta, h + 1, h == len(literal))
                    delta, h = 0, h + 1
            delta, n = delta + 1, n + 1
        return output

    # 6.3 Encoding procedure
    def encode(self, code_points: list[int], flags: list[bool]) -> list[int]:
        self.maxint = self._limit(encoding=True)
        if self.unicode and not all(map(is_scalar, code_points)):
            raise BadInput
        output = self._encode(code_points, flags)
        if "buffer-256" in self.bugs:
            del output[SHORT_BUFFER:]
        return output

    def _encode(self, code_points: list[int], flags: list[bool]) -> list[int]:
        if "del-non-basic" in self.bugs and 0x7F in code_points:
            return self._encode_del_non_basic(code_points, flags)
        output = [self.basic_char(c, f) for c, f in zip(code_points, flags) if c < INITIAL_N]
        h = b = len(output)
        if b > 0 or "always-delimiter" in self.bugs:
            output.append(DELIMITER)
        # Positions of the code points below n, i.e. already handled: the RFC
        # walks the whole input per round, incrementing delta at each of them;
        # counting them between two positions gives the same delta, and one
        # check of the sum is the same as one check per increment.
        handled = [j for j, c in enumerate(code_points) if c < INITIAL_N]
        rounds: dict[int, list[int]] = {}
        for j, c in enumerate(code_points):
            if c >= INITIAL_N:
                rounds.setdefault(c, []).append(j)

        def below_n(start: int, stop: int) -> int:
            return bisect.bisect_left(handled, stop) - bisect.bisect_left(handled, start)

        n, delta, bias = INITIAL_N, 0, INITIAL_BIAS
        for m in sorted(rounds):  # m: the least code point >= n left
            delta = self._fit(delta + (m - n) * (h + 1), "delta + (m-n)*(h+1)")
            n = m
            start = 0
            for j in rounds[m]:
                delta = self._fit(delta + below_n(start, j), "increment delta")
                output += self.delta_digits(delta, bias, flags[j])
                bias = self.adapt(delta, h + 1, h == b)
                delta, h, start = 0, h + 1, j + 1
            delta = self._fit(delta + below_n(start, len(code_points)), "increment delta")
            for j in rounds[m]:
                bisect.insort(handled, j)
            # Cannot overflow (end of 6.3); n is not read again after the
            # round of 0xFFFFFFFF, where C's ++n would wrap.
            delta, n = delta + 1, n + 1
        return output

    # 6.2 Decoding procedure
    def decode(self, text: bytes) -> tuple[list[int], list[bool]]:
        self.maxint = self._limit(encoding=False)
        if "trailing-zero" in self.bugs and text.endswith(b"0"):
            text = text[:-1]
        output, upper = self._decode(text)
        if "buffer-256" in self.bugs:
            del output[SHORT_BUFFER:], upper[SHORT_BUFFER:]
        return output, upper

    def _decode(self, text: bytes) -> tuple[list[int], list[bool]]:
        split = text.find(DELIMITER) if "first-delimiter" in self.bugs else text.rfind(DELIMITER)
        # Appendix C counts a delimiter at position 0 as no delimiter at all:
        # nothing is consumed before it, so it must then be read as a digit.
        if split > 0 or (split == 0 and "leading-delimiter" in self.bugs):
            basic, pos = text[:split], split + 1
        else:
            basic, pos = b"", 0
        if any(c >= INITIAL_N for c in basic):
            raise BadInput
        if self.buffer is not None and len(basic) > self.buffer:
            raise self.full()
        output = list(basic)
        upper = [ord("A") <= c <= ord("Z") for c in basic]  # Appendix A

        n, i, bias = INITIAL_N, 0, INITIAL_BIAS
        while pos < len(text):
            oldi, w, k = i, 1, BASE
            while True:
                if pos == len(text):
                    if "no-end-check" in self.bugs:
                        break
                    raise BadInput  # input ends inside a delta
                digit = self.digit_value(text[pos])
                pos += 1
                if digit is None:
                    raise BadInput
                i = self._fit(i + digit * w, "i + digit*w")
                t = self.threshold(k, bias)
                if digit < t:
                    break
                if "weight-strict" in self.bugs and w * BASE > self.maxint:
                    raise Overflow
                w = self._fit(w * (BASE - t), "w*(base-t)")
                k += BASE
            size = len(output) + 1
            # i - oldi is negative only after a planted wrap of i; C's
            # unsigned subtraction then wraps it back.
            bias = self.adapt((i - oldi) & UINT32_MAX if i < oldi else i - oldi, size, oldi == 0)
            n = self._fit(n + i // size, "n + i div (len+1)")
            if self.unicode and not is_scalar(n):
                raise BadInput
            i %= size
            if self.bugs & {"buffer-512-overrun", "buffer-512-silent"}:
                # C: "if (out > max_out) return big_output;" where >= was
                # meant; the memmove then writes output[512]: past the
                # array (overrun), or where nothing else lives (silent).
                if len(output) > FIXED_OUTPUT:
                    raise TooBig
                if len(output) == FIXED_OUTPUT and "buffer-512-overrun" in self.bugs:
                    raise IndexError("list assignment index out of range")
            elif self.buffer is not None and len(output) >= self.buffer:
                raise self.full()
            output.insert(i, n)
            # Appendix A: the case of the delta's last character.
            last = text[pos - 1]
            upper.insert(i, ord("A") <= last <= ord("Z") and "flag-lost" not in self.bugs)
            if "no-i-increment" not in self.bugs:
                i += 1
        return output, upper


# The wrapper's input and output (Appendix C, main).

SPACE = frozenset(b" \t\n\v\f\r")  # isspace() in the C locale
HEX = frozenset(b"0123456789abcdefABCDEF")


def skip_space(data: bytes, pos: int) -> int:
    while pos < len(data) and data[pos] in SPACE:
        pos += 1
    return pos


def scan_hex(data: bytes, pos: int) -> tuple[int | None, int]:
    """glibc scanf("%lx"): the value (None if no number) and the new pos."""
    pos = skip_space(data, pos)
    negative = False
    if pos < len(data) and data[pos] in b"+-":
        negative = data[pos] == ord("-")
        pos += 1
    digits = bytearray()
    if pos < len(data) and data[pos] == ord("0"):
        digits.append(data[pos])
        pos += 1
        if pos < len(data) and data[pos] in b"xX":
            pos += 1  # consumed even when no hexadecimal digit follows
    while pos < len(data) and data[pos] in HEX:
        digits.append(data[pos])
        pos += 1
    if not digits:
        return None, pos
    value = int(digits, 16)
    if value > ULONG_MAX:
        return ULONG_MAX, pos  # strtoul: ERANGE
    return (-value & ULONG_MAX if negative else value), pos


def read_code_points(data: bytes) -> tuple[list[int], list[bool]]:
    """The wrapper's loop over scanf("%2s%lx", uplus, &codept)."""
    values: list[int] = []
    flags: list[bool] = []
    pos = skip_space(data, 0)
    while pos < len(data):  # scanf returns EOF only at the end of blanks
        start = pos
        while pos < len(data) and pos - start < 2 and data[pos] not in SPACE:
            pos += 1
        uplus = data[start:pos]
        value, pos = scan_hex(data, pos)
        if value is None or uplus[1:] != b"+" or value > UINT32_MAX:
            raise BadInput
        if len(values) == MAX_CODE_POINTS:
            raise TooBig
        if uplus[0] not in b"uU":
            raise BadInput
        values.append(value)
        flags.append(uplus[0] == ord("U"))
        pos = skip_space(data, pos)
    return values, flags


def read_punycode_line(stdin) -> bytes:
    """The wrapper's fgets() of one line and its check for printable ASCII."""
    line = stdin.readline(MAX_LINE + 1)
    if not line.endswith(b"\n"):
        if len(line) <= MAX_LINE:
            raise BadInput  # end of input before the newline
        raise TooBig
    nul = line.find(b"\0")
    if nul == 0:
        raise BadInput  # undefined behaviour in the wrapper
    if nul > 0:
        raise TooBig  # strlen() stops at the NUL, before the newline
    line = line[:-1]
    if any(not 0x20 <= c < 0x7F for c in line):
        raise BadInput
    return line


def printable(codes: list[int]) -> bytes:
    """The wrapper's print_ascii table: controls become newlines."""
    return bytes(c if 0x20 <= c < 0x7F else 0x0A for c in codes)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def usage(message: str) -> int:
    text = (
        f"pyny.py: {message}\n"
        "usage: pyny.py [--unicode] [--buffer N] [--bug NAME] -e|-d|--pipe (--help lists the bugs)\n"
    )
    write_all(2, text.encode())
    return 2


def answer(codec: Punycode, question: bytes) -> bytes:
    """The answer line to one question of the pipe: protocol."""
    verb, _, payload = question.partition(b" ")
    try:
        # The escaped verbs carry the encoded text in hexadecimal.
        if verb in (b"encode", b"encodex"):
            values, flags = read_code_points(payload)
            output = codec.encode(values, flags)
            if verb == b"encodex":
                return b"ok " + bytes(output).hex().encode()
            return b"ok " + printable(output)
        if verb in (b"decode", b"decodex"):
            if verb == b"decodex":
                try:
                    payload = bytes.fromhex(payload.decode("ascii"))
                except ValueError:
                    raise BadInput from None
            if len(payload) > MAX_LINE:
                raise TooBig
            if verb == b"decode" and any(not 0x20 <= c < 0x7F for c in payload):
                raise BadInput
            code_points, upper = codec.decode(payload)
            return b"ok " + " ".join(
                f"{'U' if u else 'u'}+{c:04X}" for c, u in zip(code_points, upper)
            ).encode()
        raise BadInput
    except Failure as failure:
        return b"error " + failure.message.encode()


def planted_cost(cost: str | None, code_points: list[int]) -> None:
    """Waits as --cost says for these code points (encoded or decoded)."""
    n = len({c for c in code_points if c >= 0x80})
    if cost is not None and n >= 1024:
        time.sleep(10 * (n / 1024) ** (2 if cost == "quadratic" else 3))


def serve(codec: Punycode, delay: float, cost: str | None) -> int:
    """Answers pipe: questions until the end of standard input."""
    with open(0, "rb", closefd=False) as stdin:
        for line in stdin:
            time.sleep(delay)
            reply = answer(codec, line.rstrip(b"\n")).rstrip(b" ")
            if cost is not None and reply.startswith(b"ok"):
                question = line.rstrip(b"\n").split(b" ")
                tokens = question[1:] if question[0] == b"encode" else reply.split(b" ")[1:]
                planted_cost(cost, [int(t[2:], 16) for t in tokens if t[:2] in (b"u+", b"U+")])
            try:
                write_all(1, reply + b"\n")
            except OSError:
                return 1
    return 0


def main(args: list[str]) -> int:
    mode = buffer = None
    bugs: set[str] = set()
    unicode = False
    delay = 0.0
    cost = None
    rest = iter(args)
    for arg in rest:
        if arg in ("-h", "--help"):
            write_all(1, __doc__.encode())
            return 0
        if arg == "--unicode":
            unicode = True
        elif arg == "--cost":
            cost = next(rest, None)
            if cost not in ("quadratic", "cubic"):
                return usage("--cost takes quadratic or cubic")
        elif arg == "--delay":
            try:
                delay = float(next(rest, ""))
            except ValueError:
                return usage("--delay takes a number of seconds")
            if not 0 <= delay <= 60:
                return usage("--delay takes 0 to 60 seconds")
        elif arg == "--buffer":
            try:
                buffer = int(next(rest, ""))
            except ValueError:
                return usage("--buffer takes a number of code points")
            if not 1 <= buffer <= MAX_CODE_POINTS:
                return usage(f"--buffer takes 1 to {MAX_CODE_POINTS} code points")
        elif arg == "--bug" or arg.startswith("--bug="):
            name = next(rest, None) if arg == "--bug" else arg[len("--bug="):]
            if name is None:
                return usage("--bug takes a NAME")
            if name not in BUGS:
                return usage(f"unknown bug {name!r}; known: {', '.join(BUGS)}")
            bugs.add(name)
        elif arg in ("-e", "-d", "--pipe") and mode is None:
            mode = arg
        else:
            return usage(f"unexpected argument {arg!r}")
    if mode is None:
        return usage("needs -e, -d or --pipe")

    fixed = bugs & {"buffer-512-overrun", "buffer-512-silent", "buffer-512-bare"}
    if buffer is not None and fixed:
        return usage(f"--bug {min(fixed)} has its own buffer; --buffer cannot change it")
    codec = Punycode(bugs, unicode, buffer)
    if mode == "--pipe":
        return serve(codec, delay, cost)
    time.sleep(delay)
    try:
        try:
            with open(0, "rb", closefd=False) as stdin:
                if mode == "-e":
                    values, flags = read_code_points(stdin.read())
                    out = printable(codec.encode(values, flags)) + b"\n"
                    planted_cost(cost, values)
                else:
                    code_points, upper = codec.decode(read_punycode_line(stdin))
                    planted_cost(cost, code_points)
                    out = "".join(
                        f"{'U' if u else 'u'}+{c:04X}\n" for c, u in zip(code_points, upper)
                    ).encode()
            write_all(1, out)
        except OSError as e:
            raise IOFailure from e
    except Failure as failure:
        write_all(2, failure.message.encode() + b"\n")
        return 1
    return 0


if __name__ == "__main__":
    try:
        status = main(sys.argv[1:])
    except KeyboardInterrupt:
        status = 130
    except BaseException as e:  # noqa: BLE001 - never a traceback
        try:
            detail = " ".join(str(e).split())[:300]
            os.write(2, f"pyny.py: internal error: {type(e).__name__}: {detail}\n".encode())
        except OSError:
            pass
        status = 70
    sys.exit(status)
