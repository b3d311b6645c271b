//! Clean-room Punycode, written from RFC 3492 sections 3 to 6.
//!
//! Code points are 32-bit unsigned integers, as in the RFC (not only Unicode
//! scalar values), and all arithmetic is done in `u32` with overflow detected
//! exactly where section 6.2 and 6.3 say "fail on overflow": the same points as
//! the RFC's C sample implementation (Appendix C), so that every input gets the
//! same output, flags and error kind from both.
//!
//! Mixed-case annotation (Appendix A) is supported in both directions: the
//! decoder returns one flag per code point ([`CaseFlags`], a bitset that keeps
//! a label's flags inline), and the encoder takes optional
//! flags that force the case of ASCII letters and choose the case of the last
//! digit of each delta.
//!
//! [`encode_traced`] and [`decode_traced`] expose every delta, its digits and
//! the new bias, as in the traces of RFC 3492 sections 7.2 and 7.3.
//!
//! # Performance
//!
//! Section 6 read literally is quadratic: the encoder rescans the whole input
//! for each distinct code point, and the decoder inserts into the middle of
//! its output. [`encode`] and [`decode`] give exactly the same outputs and
//! errors (checked against [`encode_naive`], [`decode_naive`] and the C
//! reference) in O(n log n):
//!
//! - short input allocates nothing but the result: the encoder keeps its
//!   positions in one `u64` bitmask (up to 64 code points); the decoder
//!   decodes labels (up to 64 bytes of Punycode) nearly without branches
//!   that depend on the data, placing the code points through a list or a
//!   bitmask of free slots (`label.rs`), up to 256 bytes places the same
//!   way what decodes to at most 64 code points and inserts the rest
//!   straight into its output;
//! - both decoders run section 6.2's main loop with the thresholds of each
//!   bias tabled, reading most integers four digits at once, and with the
//!   next integer's thresholds looked up from the delta adapt() scales
//!   (`tabled.rs`);
//! - the encoder copies the basic code points and writes one-digit deltas
//!   without a branch per code point, and after a small delta without
//!   adapt(); it sorts the non-basic code points once and counts the
//!   smaller code points before each one with a Fenwick tree. While there
//!   are only a few distinct ones (at most 8, judged from a sample), it
//!   ranks every code point once, in a byte, and each round reads 16
//!   ranks at a time (`ranked.rs`, SSE2 on x86-64); where a code point
//!   escaped the sample, it scans instead, one pass per round that also
//!   finds the next round's code point (on long input, over the non-basic
//!   code points gathered once), and hands over to the sort after 8;
//! - the decoder records each insertion of long input, then places them all
//!   in one reverse pass over the free slots: blocks of 64-bit words with
//!   their running counts in 16-bit lanes up to 4096 code points
//!   (`blocks.rs`, without branches that depend on the data, and with
//!   BMI2's `pdep` to find a slot in its word where the processor has it),
//!   a Fenwick tree beyond. Its divisions by the output's length go
//!   through a reciprocal computed ahead of the data.
//!
//! Overflow is still detected at exactly the RFC's points: where a sum
//! computed at once would pass `maxint`, the position of the element at
//! which the RFC's one-by-one increments would fail is found in the tree.

use std::fmt;

mod blocks;
pub mod case_flags;
mod fast;
mod fenwick;
mod label;
mod ranked;
mod simple;
mod steps;
mod tabled;

pub use case_flags::CaseFlags;

/// `base`, the number of digit values (RFC 3492 section 5).
pub const BASE: u32 = 36;
/// `tmin`, the smallest threshold (RFC 3492 section 5).
pub const T_MIN: u32 = 1;
/// `tmax`, the largest threshold (RFC 3492 section 5).
pub const T_MAX: u32 = 26;
/// `skew`, used by bias adaptation (RFC 3492 section 5).
pub const SKEW: u32 = 38;
/// `damp`, the damping factor of the first adaptation (RFC 3492 section 5).
pub const DAMP: u32 = 700;
/// `initial_bias` (RFC 3492 section 5).
pub const INITIAL_BIAS: u32 = 72;
/// `initial_n`, the first non-basic code point (RFC 3492 section 5).
pub const INITIAL_N: u32 = 0x80;
/// The delimiter, U+002D HYPHEN-MINUS (RFC 3492 section 5).
pub const DELIMITER: u8 = b'-';
/// `maxint`, the largest value of the integer type (RFC 3492 section 6.4).
pub const MAXINT: u32 = u32::MAX;
/// The most digits any delta takes: `maxint` needs 10 at the worst reachable
/// bias (test `max_delta_digits_is_tight`), and fewer digits never suffice for
/// a larger delta. Used to size output buffers.
pub const MAX_DELTA_DIGITS: u32 = 10;

/// The three failure statuses of RFC 3492 Appendix C (`punycode_status`
/// without `punycode_success`), shared by every implementation under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// `punycode_bad_input`: the input is invalid.
    BadInput,
    /// `punycode_big_output`: the output would exceed the space provided.
    BigOutput,
    /// `punycode_overflow`: the input needs wider integers to process.
    Overflow,
}

impl ErrorKind {
    /// The name used in vector files and reports (`bad_input`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::BadInput => "bad_input",
            ErrorKind::BigOutput => "big_output",
            ErrorKind::Overflow => "overflow",
        }
    }

    /// Parses a name produced by [`ErrorKind::name`].
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "bad_input" => Some(ErrorKind::BadInput),
            "big_output" => Some(ErrorKind::BigOutput),
            "overflow" => Some(ErrorKind::Overflow),
            _ => None,
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an input was rejected as bad (the error conditions of RFC 3492 section 6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BadInputReason {
    /// A non-basic code point (a byte >= 0x80) before the last delimiter.
    NonBasicInLiteral,
    /// A character with no digit value where a digit was expected.
    NotADigit,
    /// The input ended inside a generalized variable-length integer.
    UnexpectedEnd,
    /// Encoding was given a flag array whose length differs from the input's.
    FlagsLength,
    /// Decoding to a Rust `String` produced a code point that is not a Unicode
    /// scalar value (only from [`decode_to_string`]).
    NotUnicodeScalar,
}

/// Which "fail on overflow" of RFC 3492 section 6 was hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OverflowCheck {
    /// Decoder: `i + digit * w`.
    DecodeDigit,
    /// Decoder: `w * (base - t)`. Unreachable with Punycode's parameters
    /// (see the test `weight_overflow_is_unreachable`), kept because the RFC
    /// and the C reference check it.
    DecodeWeight,
    /// Decoder: `n + i div (length(output) + 1)`.
    DecodeCodePoint,
    /// Encoder: `delta + (m - n) * (h + 1)`.
    EncodeDelta,
    /// Encoder: `increment delta` for a code point smaller than `n`.
    EncodeIncrement,
    /// The input is longer than `maxint` elements, so lengths themselves
    /// would need wider integers (the C reference cannot even be called).
    Length,
}

impl OverflowCheck {
    /// Every check, in the order of the RFC's text.
    pub const ALL: [OverflowCheck; 6] = [
        OverflowCheck::DecodeDigit,
        OverflowCheck::DecodeWeight,
        OverflowCheck::DecodeCodePoint,
        OverflowCheck::EncodeDelta,
        OverflowCheck::EncodeIncrement,
        OverflowCheck::Length,
    ];

    /// The name used in vector files (`decode_digit`, ...).
    pub fn name(self) -> &'static str {
        match self {
            OverflowCheck::DecodeDigit => "decode_digit",
            OverflowCheck::DecodeWeight => "decode_weight",
            OverflowCheck::DecodeCodePoint => "decode_code_point",
            OverflowCheck::EncodeDelta => "encode_delta",
            OverflowCheck::EncodeIncrement => "encode_increment",
            OverflowCheck::Length => "length",
        }
    }

    /// Parses a name produced by [`OverflowCheck::name`].
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// An error of the clean-room encoder or decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// The input is invalid; `position` is the index of the offending input
    /// element (or the input length for an unexpected end).
    BadInput {
        /// Index into the input.
        position: usize,
        /// What is wrong there.
        reason: BadInputReason,
    },
    /// The output would exceed the limit given to
    /// [`encode_with_limit`] or [`decode_with_limit`].
    BigOutput,
    /// A value needs more than 32 bits.
    Overflow {
        /// Which check of RFC 3492 section 6 fired.
        check: OverflowCheck,
        /// Index of the input element being processed when it fired.
        position: usize,
    },
}

impl Error {
    /// The RFC status this error corresponds to.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::BadInput { .. } => ErrorKind::BadInput,
            Error::BigOutput => ErrorKind::BigOutput,
            Error::Overflow { .. } => ErrorKind::Overflow,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadInput { position, reason } => {
                let what = match reason {
                    BadInputReason::NonBasicInLiteral => {
                        "non-basic code point before the delimiter"
                    }
                    BadInputReason::NotADigit => "character has no digit value",
                    BadInputReason::UnexpectedEnd => "input ends inside a delta",
                    BadInputReason::FlagsLength => "case flags and input differ in length",
                    BadInputReason::NotUnicodeScalar => {
                        "decoded code point is not a Unicode scalar value"
                    }
                };
                write!(f, "bad input at {position}: {what}")
            }
            Error::BigOutput => f.write_str("output would exceed the space provided"),
            Error::Overflow { check, position } => {
                write!(f, "arithmetic overflow ({}) at {position}", check.name())
            }
        }
    }
}

impl std::error::Error for Error {}

/// The result of decoding: code points and their Appendix A case flags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decoded {
    /// The decoded code points.
    pub code_points: Vec<u32>,
    /// One flag per code point: `true` suggests forcing it to uppercase.
    pub flags: CaseFlags,
}

/// The bias adaptation function of RFC 3492 section 6.1.
pub fn adapt(delta: u32, numpoints: u32, firsttime: bool) -> u32 {
    let mut delta = if firsttime { delta / DAMP } else { delta / 2 };
    delta += delta / numpoints;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + ((BASE - T_MIN + 1) * delta) / (delta + SKEW)
}

/// The threshold `t` for position `k` (sections 6.2 and 6.3; "+ tmin" omitted
/// as the RFC allows).
pub const fn threshold(k: u32, bias: u32) -> u32 {
    if k <= bias {
        T_MIN
    } else if k >= bias + T_MAX {
        T_MAX
    } else {
        k - bias
    }
}

/// The digit value of a basic code point (section 5): `a`-`z` and `A`-`Z` are
/// 0 to 25, `0`-`9` are 26 to 35; anything else has none.
pub fn digit_value(c: u8) -> Option<u32> {
    match c {
        b'a'..=b'z' => Some(u32::from(c - b'a')),
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 26),
        _ => None,
    }
}

/// The basic code point for digit `d` (< 36), uppercase when `upper` and the
/// digit is a letter (digits 26 to 35 are numerals and have no case).
pub fn digit_char(d: u32, upper: bool) -> u8 {
    debug_assert!(d < BASE);
    // d < 36, so the narrowing is exact.
    let d = d as u8;
    match d {
        0..=25 if upper => b'A' + d,
        0..=25 => b'a' + d,
        _ => b'0' + (d - 26),
    }
}

/// Whether `cp` is a basic code point (section 5: below 0x80).
pub fn is_basic(cp: u32) -> bool {
    cp < 0x80
}

/// Encodes the integer `q` as a generalized variable-length integer
/// (section 3.3) with the given bias, lowercase, appending to `out`. The last
/// digit is uppercase when `upper_last`.
pub fn encode_integer(mut q: u32, bias: u32, upper_last: bool, out: &mut Vec<u8>) {
    let mut k = BASE;
    loop {
        let t = threshold(k, bias);
        if q < t {
            break;
        }
        out.push(digit_char(t + (q - t) % (BASE - t), false));
        q = (q - t) / (BASE - t);
        k += BASE;
    }
    out.push(digit_char(q, upper_last));
}

/// One step of an encoding: a non-basic code point inserted (section 7.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeStep {
    /// The code point inserted.
    pub code_point: u32,
    /// The delta that advances the decoder to it.
    pub delta: u32,
    /// The digits emitted for `delta`.
    pub digits: String,
    /// The bias after adaptation.
    pub bias: u32,
}

/// One step of a decoding: a delta consumed and a code point inserted
/// (section 7.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeStep {
    /// The digits consumed (as they appear in the input).
    pub digits: String,
    /// The delta they decode to.
    pub delta: u32,
    /// The value of `i` after the delta was added, before it wrapped around
    /// the output length (used to show a case lands exactly on `maxint`).
    pub i_before_wrap: u32,
    /// The bias after adaptation.
    pub bias: u32,
    /// The code point inserted (the new `n`).
    pub code_point: u32,
    /// Where it was inserted.
    pub position: u32,
    /// The output after the insertion.
    pub output: Vec<u32>,
}

/// Checks that `len` fits the RFC's integer type (section 6.4 assumes the
/// input length is representable).
fn check_length(len: usize) -> Result<u32, Error> {
    u32::try_from(len).map_err(|_| Error::Overflow {
        check: OverflowCheck::Length,
        position: 0,
    })
}

/// Encodes code points to Punycode (section 6.3).
///
/// `case_flags`, when given, must hold one flag per code point: ASCII letters
/// are forced to uppercase (flag set) or lowercase, and the last digit of each
/// delta is uppercase when its code point's flag is set (Appendix A). Without
/// flags ASCII is copied as it is and digits are lowercase.
pub fn encode(input: &[u32], case_flags: Option<&[bool]>) -> Result<Vec<u8>, Error> {
    let mut output = Vec::new();
    fast::encode(input, case_flags, u32::MAX, &mut output)?;
    Ok(output)
}

/// [`encode`] into a buffer the caller keeps: `output` is cleared, then
/// filled (and left empty on error). Encoding many labels through one
/// buffer allocates nothing once it has grown to the longest.
pub fn encode_into(
    input: &[u32],
    case_flags: Option<&[bool]>,
    output: &mut Vec<u8>,
) -> Result<(), Error> {
    fast::encode(input, case_flags, u32::MAX, output)
}

/// [`encode`] with the output limited to `max_output` bytes, as the C
/// reference's `*output_length` does: [`Error::BigOutput`] when it would not fit
/// (the basic code points need one spare byte for the delimiter).
pub fn encode_with_limit(
    input: &[u32],
    case_flags: Option<&[bool]>,
    max_output: u32,
) -> Result<Vec<u8>, Error> {
    let mut output = Vec::new();
    fast::encode(input, case_flags, max_output, &mut output)?;
    Ok(output)
}

/// [`encode`], also returning one [`EncodeStep`] per non-basic code point
/// (everything encoded before an error).
pub fn encode_traced(
    input: &[u32],
    case_flags: Option<&[bool]>,
) -> (Result<Vec<u8>, Error>, Vec<EncodeStep>) {
    let mut recorder = simple::Recorder::default();
    let result = simple::encode(input, case_flags, u32::MAX, &mut recorder);
    (result, recorder.encode)
}

/// Decodes Punycode to code points and case flags (section 6.2).
///
/// The input is raw bytes: bytes >= 0x80 are never basic code points nor
/// digits, so they are rejected as [`Error::BadInput`] wherever they appear.
pub fn decode(input: &[u8]) -> Result<Decoded, Error> {
    let mut output = Decoded::default();
    decode_by_length(input, u32::MAX, &mut output)?;
    Ok(output)
}

/// [`decode`] into buffers the caller keeps: `output` is cleared, then
/// filled (and left empty on error). Decoding many labels through one
/// [`Decoded`] allocates nothing once it has grown to the longest.
pub fn decode_into(input: &[u8], output: &mut Decoded) -> Result<(), Error> {
    decode_by_length(input, u32::MAX, output)
}

/// [`decode`] with the output limited to `max_output` code points, as the C
/// reference's `*output_length` does.
pub fn decode_with_limit(input: &[u8], max_output: u32) -> Result<Decoded, Error> {
    let mut output = Decoded::default();
    decode_by_length(input, max_output, &mut output)?;
    Ok(output)
}

/// Decodes into `output` (cleared first; left empty on error): a label (at
/// most 64 bytes) through `label.rs`, longer input through `fast.rs`.
fn decode_by_length(input: &[u8], max_out: u32, output: &mut Decoded) -> Result<(), Error> {
    output.code_points.clear();
    output.flags.clear();
    let result = if input.len() <= label::LABEL {
        label::decode(input, max_out, output)
    } else {
        fast::decode(input, max_out, output)
    };
    if result.is_err() {
        output.code_points.clear();
        output.flags.clear();
    }
    result
}

/// [`decode`], also returning one [`DecodeStep`] per delta (everything decoded
/// before an error).
pub fn decode_traced(input: &[u8]) -> (Result<Decoded, Error>, Vec<DecodeStep>) {
    let mut recorder = simple::Recorder::default();
    let result = simple::decode(input, u32::MAX, &mut recorder);
    (result, recorder.decode)
}

/// The digits of each delta of `input`, as ranges of `input` in order
/// (section 6.2's generalized variable-length integers, each ending at its
/// first digit below its threshold), when `input` decodes; its error when
/// it does not. The last digit of each range is the one Appendix A's
/// annotation is in. Decodes once with [`decode`], then walks the digits
/// and the bias alone: no insertion, no trace, unlike [`decode_traced`].
pub fn delta_digits(input: &[u8]) -> Result<DeltaDigits<'_>, Error> {
    let basic = input.iter().rposition(|&c| c == DELIMITER).unwrap_or(0);
    // Decoding checks everything the walk relies on: the digits are digits,
    // no integer is cut short, and none overflows.
    let mut scratch = Decoded::default();
    decode_by_length(input, u32::MAX, &mut scratch)?;
    Ok(DeltaDigits {
        input,
        pos: if basic > 0 { basic + 1 } else { 0 },
        bias: INITIAL_BIAS,
        // The input fits in u32 (decoding checked its length).
        points: basic as u32,
        first: true,
    })
}

/// The iterator of [`delta_digits`]: each delta's digits as a range of the
/// input.
#[derive(Clone, Debug)]
pub struct DeltaDigits<'a> {
    input: &'a [u8],
    /// Where the next delta starts.
    pos: usize,
    /// The bias its digits are read with.
    bias: u32,
    /// The output's length before its code point is inserted.
    points: u32,
    /// Whether the next delta is the first (adapt() damps it by `damp`).
    first: bool,
}

impl Iterator for DeltaDigits<'_> {
    type Item = std::ops::Range<usize>;

    fn next(&mut self) -> Option<Self::Item> {
        let start = self.pos;
        let (mut delta, mut w, mut k) = (0u64, 1u64, BASE);
        loop {
            let digit = digit_value(*self.input.get(self.pos)?)?;
            self.pos += 1;
            delta = delta.saturating_add(u64::from(digit).saturating_mul(w));
            let t = threshold(k, self.bias);
            if digit < t {
                break;
            }
            w = w.saturating_mul(u64::from(BASE - t));
            k += BASE;
        }
        self.points = self.points.saturating_add(1);
        // The delta fits in u32 (decoding checked `i`, which it is part of).
        self.bias = adapt(
            u32::try_from(delta).unwrap_or(MAXINT),
            self.points,
            self.first,
        );
        self.first = false;
        Some(start..self.pos)
    }
}

/// [`decode`], also returning the code points it inserted, in order, up to
/// an error: how far a decoding that fails got before it failed. Cheaper
/// than [`decode_traced`], which copies the output at every step. The
/// values only grow (section 6.2 never lowers `n`).
pub fn decode_inserted(input: &[u8]) -> (Result<Decoded, Error>, Vec<u32>) {
    let mut inserted = simple::Inserted::default();
    let result = simple::decode(input, u32::MAX, &mut inserted);
    (result, inserted.0)
}

/// The plain reading of section 6.3 (O(n^2) in the worst case): the naive
/// reference that [`encode_with_limit`] is tested against. Same results.
pub fn encode_naive(
    input: &[u32],
    case_flags: Option<&[bool]>,
    max_output: u32,
) -> Result<Vec<u8>, Error> {
    simple::encode(input, case_flags, max_output, &mut simple::Silent)
}

/// The plain reading of section 6.2 (O(n^2) in the worst case): the naive
/// reference that [`decode_with_limit`] is tested against. Same results.
pub fn decode_naive(input: &[u8], max_output: u32) -> Result<Decoded, Error> {
    simple::decode(input, max_output, &mut simple::Silent)
}

/// Encodes a Rust string (Unicode scalar values, no annotations).
pub fn encode_str(input: &str) -> Result<String, Error> {
    let code_points: Vec<u32> = input.chars().map(u32::from).collect();
    let bytes = encode(&code_points, None)?;
    // Without flags every output byte is basic, hence valid UTF-8.
    Ok(String::from_utf8(bytes).expect("Punycode output without flags is ASCII"))
}

/// Decodes Punycode text to a Rust string, ignoring the case flags; a decoded
/// code point that is not a Unicode scalar value is
/// [`BadInputReason::NotUnicodeScalar`].
pub fn decode_to_string(input: &str) -> Result<String, Error> {
    let decoded = decode(input.as_bytes())?;
    decoded
        .code_points
        .iter()
        .enumerate()
        .map(|(position, &cp)| {
            char::from_u32(cp).ok_or(Error::BadInput {
                position,
                reason: BadInputReason::NotUnicodeScalar,
            })
        })
        .collect()
}

/// Takes every slot of `0..total`, at random ranks drawn from `rng`,
/// through `take_nth`, and checks each against the slot of that rank in a
/// list of the free ones: the oracle of every structure of free slots.
#[cfg(test)]
fn check_takes_each_rank(total: usize, rng: &mut u64, mut take_nth: impl FnMut(u32) -> usize) {
    let mut free: Vec<usize> = (0..total).collect();
    while !free.is_empty() {
        *rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let rank = (*rng >> 33) as usize % free.len();
        assert_eq!(
            take_nth(rank as u32),
            free.remove(rank),
            "{total} slots, rank {rank}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_delta_digits_is_tight() {
        // Every reachable bias is below 216 (see weight_overflow_is_unreachable).
        let longest = (0..216)
            .map(|bias| {
                let mut out = Vec::new();
                encode_integer(MAXINT, bias, false, &mut out);
                out.len()
            })
            .max();
        assert_eq!(longest, Some(MAX_DELTA_DIGITS as usize));
    }

    #[test]
    fn a_failing_decoding_says_what_it_inserted() {
        // The first delta gives U+1504F616; the second overflows.
        let (result, inserted) = decode_inserted(b"zz8898z8z8z098m");
        assert!(matches!(
            result,
            Err(Error::Overflow {
                check: OverflowCheck::DecodeDigit,
                ..
            })
        ));
        assert_eq!(inserted, [0x1504_F616]);
        let (result, inserted) = decode_inserted(b"a-bga");
        assert_eq!(result.unwrap().code_points, [0x61, 0xE9]);
        assert_eq!(inserted, [0xE9]);
    }

    #[test]
    fn delta_digits_are_the_traces() {
        // Sample (B)'s deltas, and sample (L)'s after its literal part.
        let spelled = |input: &'static [u8]| {
            delta_digits(input)
                .unwrap()
                .map(|range| std::str::from_utf8(&input[range]).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            spelled(b"ihqwcrb4cv8a8dqg056pqjye"),
            ["ihq", "wc", "rb", "4c", "v8a", "8d", "qg", "056p", "qjye"]
        );
        assert_eq!(
            spelled(b"3B-ww4c5e180e575a65lsy2b"),
            decode_traced(b"3B-ww4c5e180e575a65lsy2b")
                .1
                .iter()
                .map(|step| step.digits.as_str())
                .collect::<Vec<_>>()
        );
        assert_eq!(spelled(b"abc-"), Vec::<&str>::new());
        assert!(matches!(
            delta_digits(b"zz8898z8z8z098m"),
            Err(Error::Overflow { .. })
        ));
        assert!(delta_digits(b"-a").is_err());
    }

    #[test]
    fn digits_round_trip() {
        for d in 0..BASE {
            assert_eq!(digit_value(digit_char(d, false)), Some(d));
            assert_eq!(digit_value(digit_char(d, true)), Some(d));
        }
        for c in 0..=255u8 {
            assert_eq!(digit_value(c).is_some(), c.is_ascii_alphanumeric());
        }
    }

    /// `w * (base - t)` cannot overflow before `i + digit * w` does. At each
    /// step the decoder only continues when `digit >= t`, so `i` has grown by at
    /// least `t * w`; the smallest `i` that reaches a given `w` comes from
    /// choosing `digit = t` every time from `i = 0`. Adapt() returns
    /// `k + 36 * d / (d + 38)` with `k <= 5 * 36` (delta < 2^32 is divided by
    /// 35 at most five times before it drops to 455) and the second term below
    /// 36, so every reachable bias is below 216. For each, the cheapest path
    /// trips the digit check first.
    #[test]
    fn weight_overflow_is_unreachable() {
        // adapt()'s loop divides by 35 while delta > 455: five divisions take
        // any u32 to 455 or less, so k <= 180, and 36 * d / (d + 38) < 36.
        const {
            assert!(455 * 35u64.pow(5) > MAXINT as u64);
            assert!((BASE - T_MIN + 1) * 455 / (455 + SKEW) < 36);
        }
        for bias in 0..216 {
            let (mut i, mut w, mut k) = (0u32, 1u32, BASE);
            let tripped = loop {
                let t = threshold(k, bias);
                match t.checked_mul(w).and_then(|add| i.checked_add(add)) {
                    None => break OverflowCheck::DecodeDigit,
                    Some(next) => i = next,
                }
                match w.checked_mul(BASE - t) {
                    None => break OverflowCheck::DecodeWeight,
                    Some(next) => w = next,
                }
                k += BASE;
            };
            assert_eq!(tripped, OverflowCheck::DecodeDigit, "bias {bias}");
        }
    }
}
