//! Bootstring: the general algorithm of RFC 3492 and of
//! draft-ietf-idn-amc-ace-z-01 (sections 3 to 6 of both), for any parameter
//! set that section 4 allows.
//!
//! Punycode (RFC 3492) and AMC-ACE-Z 0.3.1 (the draft) are two instances.
//! Their section 5 values are the same (base 36, tmin 1, tmax 26, skew 38,
//! damp 700, initial_bias 72, initial_n 0x80, delimiter `-`, digits `a`-`z`
//! then `0`-`9`, letters in either case); what differs is the annotation of
//! basic code points (see [`BasicCase`]) and the draft's signature
//! ([`Signature`]). [`Params::PUNYCODE`] and [`Params::AMC_ACE_Z`] are the
//! two; [`crate::punycode`] stays the dedicated Punycode codec, and tests
//! hold both equal on random inputs (tests/bootstring.rs).
//!
//! # Parameters and their constraints
//!
//! [`Params`] is a parameter set as section 4 describes it, and
//! [`Coder::new`] checks it, naming the violated constraint in a
//! [`ParamError`]. Section 4 says that, "provided the constraints are
//! satisfied", tmin, tmax, skew, damp and initial_bias "affect efficiency
//! but not correctness". That is not quite so, and three constraints of
//! ours are added (the tests of this module show each):
//!
//! - **tmax >= 1.** With tmin = tmax = 0 every threshold is 0, no digit is
//!   below it, and no integer ever ends: the encoder of section 6.3 loops
//!   forever on any delta.
//! - **tmin <= base - 2.** With tmin = tmax = base - 1, `base - tmin` is 1,
//!   and the loop of adapt() (section 6.1) divides delta by 1 for ever as
//!   soon as delta exceeds `(base - 1) div 2`.
//! - **A 32-bit delta takes at most [`MAX_INTEGER_DIGITS`] digits**, at
//!   initial_bias and at every bias adapt() can return. This excludes
//!   tmax = base - 1, where the weight stops growing (`base - t` is 1) and
//!   a delta is written in unary, up to 2^32 / (base - 1) digits for one
//!   code point; and, with tmin = 0, an initial_bias so large that the
//!   first delta starts with tens of millions of zero digits. Both end,
//!   but the output of one code point would be gigabytes long.
//!
//! One gap is left, because its results are finite and short: with
//! tmin = 0 and an initial_bias of a few times `base`, the encoder writes
//! one digit 0 per position up to the bias, but the decoder multiplies its
//! weight by `base` at each of them and fails on overflow: in 32-bit
//! arithmetic the parameters do affect correctness (test
//! `tmin_zero_with_a_large_bias_breaks_the_round_trip`).
//!
//! Basic code points are bytes (a [`BasicSet`] of up to 256), so basic
//! strings are byte strings as in both C samples. The encoder implements
//! the pseudocode's brace-enclosed parts, which both documents drop for
//! their own parameters: it fails on a non-basic code point below
//! initial_n, skips basic code points when looking for the next code point,
//! and the decoder fails on a delta that decodes to a basic code point.
//!
//! # Arithmetic
//!
//! All state is `u32` as in both C samples, with overflow detected where
//! sections 6.2 and 6.3 say "fail on overflow", at the same points and in
//! the same order as both C samples (which agree on every check; see
//! `docs/c-samples.md`). `k`, which counts `base, 2 * base, ...`, cannot
//! wrap for a checked parameter set: an encoded integer has at most
//! [`MAX_INTEGER_DIGITS`] digits, and the decoder's weight grows at least
//! twofold with every digit that does not end an integer, so it overflows
//! within 33 digits.
//!
//! # Annotations
//!
//! Mixed-case annotation (RFC 3492 Appendix A, the draft's Appendix B) is
//! supported both ways when the parameters allow it (digits 0 to tmax - 1
//! have an uppercase form): the decoder returns one flag per code point, the
//! encoder takes optional flags that choose the case of the last digit of
//! each delta and, with [`BasicCase::Force`], of basic code points.
//!
//! # Size
//!
//! About 1,250 lines of code and 500 of unit tests. The coder, the checks
//! of section 4's constraints (each with the tests that show why it is
//! needed) and the signature handling are one algorithm over one parameter
//! set; the unit tests sit here because they test private helpers
//! (the threshold and digit-count tables). Splitting would scatter a
//! single section-by-section reading of the draft.

use std::fmt;

use crate::punycode::{self, CaseFlags, Decoded, ErrorKind};

/// `maxint`, the largest value of the integer type (section 6.4 of
/// RFC 3492, section 6.2 of the draft).
pub const MAXINT: u32 = u32::MAX;

/// The most digits a checked parameter set may need for one 32-bit delta
/// (ours, see [`ParamError::DeltaTooLong`]): twice what base 3, the
/// smallest base that passes, needs for `maxint`. Punycode needs 10.
pub const MAX_INTEGER_DIGITS: u32 = 64;

/// A set of basic code points: some of the 256 byte values.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BasicSet {
    bits: [u64; 4],
}

impl BasicSet {
    /// No code point.
    pub const EMPTY: BasicSet = BasicSet { bits: [0; 4] };

    /// The code points below `limit` (at most 256): `below(0x80)` is ASCII,
    /// the basic code points of both documents.
    pub const fn below(limit: u16) -> BasicSet {
        let mut set = BasicSet::EMPTY;
        let mut b = 0;
        while b < limit && b < 256 {
            set = set.with(b as u8);
            b += 1;
        }
        set
    }

    /// This set and `byte`.
    pub const fn with(self, byte: u8) -> BasicSet {
        let mut bits = self.bits;
        bits[(byte / 64) as usize] |= 1 << (byte % 64);
        BasicSet { bits }
    }

    /// This set without `byte`.
    pub const fn without(self, byte: u8) -> BasicSet {
        let mut bits = self.bits;
        bits[(byte / 64) as usize] &= !(1 << (byte % 64));
        BasicSet { bits }
    }

    /// Whether `byte` is in the set.
    pub const fn contains_byte(&self, byte: u8) -> bool {
        self.bits[(byte / 64) as usize] & (1 << (byte % 64)) != 0
    }

    /// Whether the code point `cp` is in the set (never above 0xFF).
    pub const fn contains(&self, cp: u32) -> bool {
        cp < 256 && self.contains_byte(cp as u8)
    }

    /// How many code points it holds.
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The smallest code point that is not basic (at most 256).
    pub fn min_non_basic(&self) -> u32 {
        (0..256).find(|&cp| !self.contains(cp)).unwrap_or(256)
    }
}

impl fmt::Debug for BasicSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As ranges: {00-7F}.
        let mut ranges = Vec::new();
        let mut cp = 0u32;
        while cp < 256 {
            if self.contains(cp) {
                let start = cp;
                while cp + 1 < 256 && self.contains(cp + 1) {
                    cp += 1;
                }
                ranges.push(if start == cp {
                    format!("{start:02X}")
                } else {
                    format!("{start:02X}-{cp:02X}")
                });
            }
            cp += 1;
        }
        write!(f, "{{{}}}", ranges.join(","))
    }
}

/// What the encoder does with the flags of basic code points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BasicCase {
    /// With flags, a basic code point that has a case is forced to
    /// uppercase (flag set) or lowercase (flag clear); without flags it is
    /// copied. RFC 3492 Appendix C (`encode_basic()`), and Appendix A:
    /// "the annotations do not alter the output, except to influence the
    /// uppercase/lowercase form of ASCII letters".
    Force,
    /// Basic code points are always copied as they are, flags or not. The
    /// draft's Appendix C ("ASCII code points are always encoded literally,
    /// regardless of the corresponding flags") and Appendix B ("Basic code
    /// points are represented literally, and can therefore use mixed case
    /// directly").
    Literal,
}

/// A Bootstring parameter set (section 4 of both documents), as given: see
/// [`Coder::new`] for the checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// `base`, the number of digit values.
    pub base: u32,
    /// `tmin`, the smallest threshold.
    pub tmin: u32,
    /// `tmax`, the largest threshold.
    pub tmax: u32,
    /// `skew`, used by bias adaptation.
    pub skew: u32,
    /// `damp`, the divisor of the first adaptation.
    pub damp: u32,
    /// `initial_bias`.
    pub initial_bias: u32,
    /// `initial_n`, the first code point a delta can reach.
    pub initial_n: u32,
    /// The delimiter, a basic code point that is not a digit.
    pub delimiter: u8,
    /// Digit value `d` is `digits[d]`, or its other case (see `case_pairs`):
    /// `base` entries, all basic, none the delimiter, no two the same
    /// letter.
    pub digits: &'static [u8],
    /// The basic code points.
    pub basic: BasicSet,
    /// The basic code points that have a case, as `[lowercase, uppercase]`:
    /// what annotations read and write, for digits and literal code points
    /// alike. A code point is "flagged" (uppercase) when it is the second of
    /// a pair.
    pub case_pairs: &'static [[u8; 2]],
    /// How the encoder treats the flags of basic code points (not a section
    /// 4 parameter: the two documents' Appendix C differ on it).
    pub basic_case: BasicCase,
}

const fn ascii_letter_pairs() -> [[u8; 2]; 26] {
    let mut pairs = [[0u8; 2]; 26];
    let mut k = 0;
    while k < 26 {
        pairs[k] = [b'a' + k as u8, b'A' + k as u8];
        k += 1;
    }
    pairs
}

/// The case pairs of ASCII: `[b'a', b'A']` to `[b'z', b'Z']`.
pub const ASCII_LETTERS: [[u8; 2]; 26] = ascii_letter_pairs();

/// The digits of both documents' section 5: `a`-`z` are 0 to 25, `0`-`9`
/// are 26 to 35 (and `A`-`Z` through the case pairs).
pub const DIGITS_A_Z_0_9: &[u8; 36] = b"abcdefghijklmnopqrstuvwxyz0123456789";

impl Params {
    /// Punycode, RFC 3492 section 5, with Appendix A's annotations as in
    /// its Appendix C ([`BasicCase::Force`]).
    pub const PUNYCODE: Params = Params {
        base: 36,
        tmin: 1,
        tmax: 26,
        skew: 38,
        damp: 700,
        initial_bias: 72,
        initial_n: 0x80,
        delimiter: b'-',
        digits: DIGITS_A_Z_0_9,
        basic: BasicSet::below(0x80),
        case_pairs: &ASCII_LETTERS,
        basic_case: BasicCase::Force,
    };

    /// AMC-ACE-Z 0.3.1, draft-ietf-idn-amc-ace-z-01 section 5: the same
    /// values as Punycode, with Appendix B's annotations as in its
    /// Appendix C ([`BasicCase::Literal`]). The signature is separate
    /// ([`Signature`]).
    pub const AMC_ACE_Z: Params = Params {
        basic_case: BasicCase::Literal,
        ..Params::PUNYCODE
    };
}

/// A constraint a parameter set violates ([`Coder::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamError {
    /// Ours: `base >= 2`. With fewer digit values nothing can be
    /// represented.
    BaseTooSmall {
        /// The base given.
        base: u32,
    },
    /// Section 4: "The digit-values in the range 0 through base-1" each need
    /// a code point: the alphabet must have `base` entries.
    AlphabetLength {
        /// The base given.
        base: u32,
        /// How many digits were given.
        digits: usize,
    },
    /// Section 4: digit values are "associated with distinct non-delimiter
    /// basic code points": this one is not basic.
    DigitNotBasic {
        /// The digit value.
        digit: u32,
        /// Its code point.
        code_point: u8,
    },
    /// Section 4: this digit is the delimiter.
    DigitIsDelimiter {
        /// The digit value.
        digit: u32,
    },
    /// Section 4: two digit values share a code point (directly or through
    /// a case pair).
    DigitsNotDistinct {
        /// The smaller digit value.
        first: u32,
        /// The larger one.
        second: u32,
        /// The code point both use.
        code_point: u8,
    },
    /// Section 4: "one needs to be designated as the delimiter" from the
    /// basic code points: this one is not basic.
    DelimiterNotBasic {
        /// The delimiter given.
        delimiter: u8,
    },
    /// Section 4: `0 <= tmin <= tmax`.
    TminAboveTmax {
        /// tmin.
        tmin: u32,
        /// tmax.
        tmax: u32,
    },
    /// Section 4: `tmax <= base - 1`.
    TmaxAboveBaseMinusOne {
        /// tmax.
        tmax: u32,
        /// base.
        base: u32,
    },
    /// Ours: `tmax >= 1`. With tmax = 0 every threshold is 0 and no integer
    /// ends: the encoder of section 6.3 never stops.
    TmaxZero,
    /// Ours: `tmin <= base - 2`. With tmin = base - 1 adapt() (section 6.1)
    /// divides by `base - tmin = 1` and never stops.
    TminBaseMinusOne {
        /// tmin.
        tmin: u32,
        /// base.
        base: u32,
    },
    /// Section 4: `skew >= 1`.
    SkewZero,
    /// Section 4: `damp >= 2`.
    DampBelowTwo {
        /// damp.
        damp: u32,
    },
    /// Section 4: `initial_bias mod base <= base - tmin`.
    InitialBiasResidue {
        /// initial_bias.
        initial_bias: u32,
        /// base.
        base: u32,
        /// tmin.
        tmin: u32,
    },
    /// A case pair has a code point that is not basic.
    CasePairNotBasic {
        /// The pair.
        pair: [u8; 2],
    },
    /// A case pair's two forms are the same code point.
    CasePairSame {
        /// The code point.
        code_point: u8,
    },
    /// A code point is in two case pairs.
    CasePairsOverlap {
        /// The code point.
        code_point: u8,
    },
    /// The delimiter has a case: the decoder finds the last delimiter by
    /// its exact code point, so a case-forced delimiter would be lost.
    DelimiterHasCase {
        /// The delimiter.
        delimiter: u8,
    },
    /// Ours: at this bias, `maxint` takes more than [`MAX_INTEGER_DIGITS`]
    /// digits (tmax = base - 1 writes deltas in unary; tmin = 0 with a
    /// large initial_bias starts them with a long run of zeros).
    DeltaTooLong {
        /// A reachable bias where it happens.
        bias: u32,
    },
}

impl ParamError {
    /// The violated constraint, as written in section 4 (or "ours" with the
    /// reason).
    pub fn constraint(&self) -> &'static str {
        match self {
            ParamError::BaseTooSmall { .. } => "base >= 2 (ours: fewer digits represent nothing)",
            ParamError::AlphabetLength { .. } => {
                "section 4: the digit-values 0 through base-1 each have a code point"
            }
            ParamError::DigitNotBasic { .. } => "section 4: digits are basic code points",
            ParamError::DigitIsDelimiter { .. } => "section 4: digits are non-delimiter",
            ParamError::DigitsNotDistinct { .. } => "section 4: digits are distinct code points",
            ParamError::DelimiterNotBasic { .. } => {
                "section 4: the delimiter is a basic code point"
            }
            ParamError::TminAboveTmax { .. } => "section 4: 0 <= tmin <= tmax",
            ParamError::TmaxAboveBaseMinusOne { .. } => "section 4: tmax <= base-1",
            ParamError::TmaxZero => "tmax >= 1 (ours: otherwise no integer ends)",
            ParamError::TminBaseMinusOne { .. } => {
                "tmin <= base-2 (ours: otherwise adapt() never ends)"
            }
            ParamError::SkewZero => "section 4: skew >= 1",
            ParamError::DampBelowTwo { .. } => "section 4: damp >= 2",
            ParamError::InitialBiasResidue { .. } => {
                "section 4: initial_bias mod base <= base - tmin"
            }
            ParamError::CasePairNotBasic { .. } => "case pairs are basic code points",
            ParamError::CasePairSame { .. } => "a case pair has two different code points",
            ParamError::CasePairsOverlap { .. } => "a code point is in at most one case pair",
            ParamError::DelimiterHasCase { .. } => "the delimiter has no case",
            ParamError::DeltaTooLong { .. } => {
                "every 32-bit delta fits in MAX_INTEGER_DIGITS digits (ours: otherwise one code point can take gigabytes)"
            }
        }
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "violates {}: {self:?}", self.constraint())
    }
}

impl std::error::Error for ParamError {}

/// Why an input was rejected as bad.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BadInputReason {
    /// A non-basic code point before the last delimiter (section 6.2).
    NonBasicInLiteral,
    /// A byte with no digit value where a digit was expected (section 6.2).
    NotADigit,
    /// The input ended inside a generalized variable-length integer
    /// (section 6.2).
    UnexpectedEnd,
    /// Encoding was given flags whose length differs from the input's.
    FlagsLength,
    /// Encoding: a non-basic code point below initial_n (section 6.3, in
    /// braces; never with either document's parameters).
    NonBasicBelowInitialN,
    /// Decoding: a delta decoded to a basic code point (section 6.2, in
    /// braces; never with either document's parameters).
    BasicCodePointDecoded,
    /// Encoding: a non-basic code point is flagged, but the parameters'
    /// digits 0 to tmax - 1 do not all have an uppercase form (section 4).
    NoUppercaseDigit,
    /// The signature is not where it belongs, nor anywhere else.
    MissingSignature,
    /// The signature is at the other end of the label.
    SignatureInWrongPlace,
}

/// Which overflow check fired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OverflowCheck {
    /// Decoder: `i + digit * w`.
    DecodeDigit,
    /// Decoder: `w * (base - t)`.
    DecodeWeight,
    /// Decoder: `n + i div (length(output) + 1)`.
    DecodeCodePoint,
    /// Encoder: `delta + (m - n) * (h + 1)`.
    EncodeDelta,
    /// Encoder: `increment delta`.
    EncodeIncrement,
    /// The input is longer than `maxint` elements.
    Length,
}

impl OverflowCheck {
    /// The same check of [`crate::punycode`].
    pub fn to_punycode(self) -> Option<punycode::OverflowCheck> {
        Some(match self {
            OverflowCheck::DecodeDigit => punycode::OverflowCheck::DecodeDigit,
            OverflowCheck::DecodeWeight => punycode::OverflowCheck::DecodeWeight,
            OverflowCheck::DecodeCodePoint => punycode::OverflowCheck::DecodeCodePoint,
            OverflowCheck::EncodeDelta => punycode::OverflowCheck::EncodeDelta,
            OverflowCheck::EncodeIncrement => punycode::OverflowCheck::EncodeIncrement,
            OverflowCheck::Length => punycode::OverflowCheck::Length,
        })
    }
}

/// An error of the encoder or decoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// The input is invalid at `position` (an index into the input, or its
    /// length for an unexpected end).
    BadInput {
        /// Index into the input.
        position: usize,
        /// What is wrong there.
        reason: BadInputReason,
    },
    /// The output would exceed the limit given.
    BigOutput,
    /// A value needs more than 32 bits.
    Overflow {
        /// Which check fired.
        check: OverflowCheck,
        /// Index of the input element being processed.
        position: usize,
    },
}

impl Error {
    /// The status of both C samples this error corresponds to.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::BadInput { .. } => ErrorKind::BadInput,
            Error::BigOutput => ErrorKind::BigOutput,
            Error::Overflow { .. } => ErrorKind::Overflow,
        }
    }

    /// The same error of [`crate::punycode`] (same kind, reason or check,
    /// and position), or `None` for the reasons and checks it does not have.
    pub fn to_punycode(&self) -> Option<punycode::Error> {
        Some(match *self {
            Error::BadInput { position, reason } => punycode::Error::BadInput {
                position,
                reason: match reason {
                    BadInputReason::NonBasicInLiteral => {
                        punycode::BadInputReason::NonBasicInLiteral
                    }
                    BadInputReason::NotADigit => punycode::BadInputReason::NotADigit,
                    BadInputReason::UnexpectedEnd => punycode::BadInputReason::UnexpectedEnd,
                    BadInputReason::FlagsLength => punycode::BadInputReason::FlagsLength,
                    _ => return None,
                },
            },
            Error::BigOutput => punycode::Error::BigOutput,
            Error::Overflow { check, position } => punycode::Error::Overflow {
                check: check.to_punycode()?,
                position,
            },
        })
    }

    /// The error with its position moved by `offset` (for a label whose
    /// signature prefix was stripped).
    fn shifted(self, offset: usize) -> Error {
        match self {
            Error::BadInput { position, reason } => Error::BadInput {
                position: position + offset,
                reason,
            },
            Error::Overflow { check, position } => Error::Overflow {
                check,
                position: position + offset,
            },
            Error::BigOutput => Error::BigOutput,
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
                    BadInputReason::NonBasicBelowInitialN => "non-basic code point below initial_n",
                    BadInputReason::BasicCodePointDecoded => {
                        "a delta decodes to a basic code point"
                    }
                    BadInputReason::NoUppercaseDigit => {
                        "flagged code point, but the digits have no uppercase form"
                    }
                    BadInputReason::MissingSignature => "no signature",
                    BadInputReason::SignatureInWrongPlace => "signature at the wrong end",
                };
                write!(f, "bad input at {position}: {what}")
            }
            Error::BigOutput => f.write_str("output would exceed the space provided"),
            Error::Overflow { check, position } => {
                write!(f, "arithmetic overflow ({check:?}) at {position}")
            }
        }
    }
}

impl std::error::Error for Error {}

/// No digit value, in [`Coder`]'s table (base is at most 255).
const NO_DIGIT: u8 = u8::MAX;

/// A checked parameter set, ready to encode and decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coder {
    params: Params,
    /// Digit value of each byte, or NO_DIGIT.
    digit_of: [u8; 256],
    /// The lowercase form of each byte (itself when caseless).
    lower: [u8; 256],
    /// The uppercase form of each byte (itself when caseless).
    upper: [u8; 256],
    /// The bytes that are the uppercase form of a pair.
    flagged: BasicSet,
    /// Digits 0 to tmax - 1 all have an uppercase form.
    annotations: bool,
}

impl Coder {
    /// Checks `params` against section 4 and the three constraints it
    /// leaves out (see the module documentation).
    pub fn new(params: Params) -> Result<Coder, ParamError> {
        let Params {
            base,
            tmin,
            tmax,
            skew,
            damp,
            initial_bias,
            delimiter,
            digits,
            basic,
            case_pairs,
            ..
        } = params;
        if base < 2 {
            return Err(ParamError::BaseTooSmall { base });
        }
        if digits.len() != base as usize {
            return Err(ParamError::AlphabetLength {
                base,
                digits: digits.len(),
            });
        }
        if !basic.contains_byte(delimiter) {
            return Err(ParamError::DelimiterNotBasic { delimiter });
        }
        let mut paired = BasicSet::EMPTY;
        for &pair in case_pairs {
            let [low, up] = pair;
            if !basic.contains_byte(low) || !basic.contains_byte(up) {
                return Err(ParamError::CasePairNotBasic { pair });
            }
            if low == up {
                return Err(ParamError::CasePairSame { code_point: low });
            }
            for cp in pair {
                if paired.contains_byte(cp) {
                    return Err(ParamError::CasePairsOverlap { code_point: cp });
                }
                paired = paired.with(cp);
            }
        }
        if paired.contains_byte(delimiter) {
            return Err(ParamError::DelimiterHasCase { delimiter });
        }
        let coder = Coder::tables(params);
        let mut owner: [Option<u32>; 256] = [None; 256];
        for (d, &cp) in (0u32..).zip(digits) {
            if !basic.contains_byte(cp) {
                return Err(ParamError::DigitNotBasic {
                    digit: d,
                    code_point: cp,
                });
            }
            if cp == delimiter {
                return Err(ParamError::DigitIsDelimiter { digit: d });
            }
            let (low, up) = (coder.lower[cp as usize], coder.upper[cp as usize]);
            let forms = if low == up {
                &[low][..]
            } else {
                &[low, up][..]
            };
            for &form in forms {
                if let Some(first) = owner[form as usize] {
                    return Err(ParamError::DigitsNotDistinct {
                        first,
                        second: d,
                        code_point: form,
                    });
                }
                owner[form as usize] = Some(d);
            }
        }
        if tmin > tmax {
            return Err(ParamError::TminAboveTmax { tmin, tmax });
        }
        if tmax > base - 1 {
            return Err(ParamError::TmaxAboveBaseMinusOne { tmax, base });
        }
        if tmax == 0 {
            return Err(ParamError::TmaxZero);
        }
        if tmin > base - 2 {
            return Err(ParamError::TminBaseMinusOne { tmin, base });
        }
        if skew < 1 {
            return Err(ParamError::SkewZero);
        }
        if damp < 2 {
            return Err(ParamError::DampBelowTwo { damp });
        }
        if initial_bias % base > base - tmin {
            return Err(ParamError::InitialBiasResidue {
                initial_bias,
                base,
                tmin,
            });
        }
        // Every bias: initial_bias, and what adapt() returns, which never
        // decreases with delta and is largest for numpoints 1 and not the
        // first time (damp >= 2 divides at least as much).
        let most = coder.adapt(MAXINT, 1, false);
        if let Some(bias) = std::iter::once(initial_bias)
            .chain(0..=most)
            .find(|&bias| coder.integer_digits(MAXINT, bias) > MAX_INTEGER_DIGITS)
        {
            return Err(ParamError::DeltaTooLong { bias });
        }
        Ok(coder)
    }

    /// How many digits `q` takes at `bias`, counting no further than one
    /// past [`MAX_INTEGER_DIGITS`].
    fn integer_digits(&self, mut q: u32, bias: u32) -> u32 {
        let base = self.params.base;
        let mut k = base;
        for digits in 1..=MAX_INTEGER_DIGITS {
            let t = self.threshold(k, bias);
            if q < t {
                return digits;
            }
            q = (q - t) / (base - t);
            k = k.saturating_add(base);
        }
        MAX_INTEGER_DIGITS + 1
    }

    /// Punycode ([`Params::PUNYCODE`]).
    pub fn punycode() -> Coder {
        Coder::tables(Params::PUNYCODE)
    }

    /// AMC-ACE-Z ([`Params::AMC_ACE_Z`]).
    pub fn amc_ace_z() -> Coder {
        Coder::tables(Params::AMC_ACE_Z)
    }

    /// The lookup tables of `params`, unchecked (every index is a byte, so
    /// this cannot fail; [`Coder::new`] checks before using the result, and
    /// a test checks both documents' parameters).
    fn tables(params: Params) -> Coder {
        let mut lower: [u8; 256] = std::array::from_fn(|b| b as u8);
        let mut upper = lower;
        let mut flagged = BasicSet::EMPTY;
        for &[low, up] in params.case_pairs {
            lower[up as usize] = low;
            upper[low as usize] = up;
            flagged = flagged.with(up);
        }
        let mut digit_of = [NO_DIGIT; 256];
        // A valid alphabet has at most 255 digits (distinct bytes, none the
        // delimiter), so digit values fit below NO_DIGIT.
        for (d, &cp) in params.digits.iter().enumerate().take(NO_DIGIT as usize) {
            digit_of[lower[cp as usize] as usize] = d as u8;
            digit_of[upper[cp as usize] as usize] = d as u8;
        }
        let annotations = params
            .digits
            .iter()
            .take(params.tmax as usize)
            .all(|&cp| lower[cp as usize] != upper[cp as usize]);
        Coder {
            params,
            digit_of,
            lower,
            upper,
            flagged,
            annotations,
        }
    }

    /// The parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Whether the parameters allow mixed-case annotation of non-basic code
    /// points: digits 0 to tmax - 1 all have both forms (section 4).
    pub fn supports_annotations(&self) -> bool {
        self.annotations
    }

    /// Whether `cp` is a basic code point.
    pub fn is_basic(&self, cp: u32) -> bool {
        self.params.basic.contains(cp)
    }

    /// Whether the basic code point `c` is flagged (is the uppercase form of
    /// a case pair): `flagged()` of both C samples.
    pub fn is_flagged(&self, c: u8) -> bool {
        self.flagged.contains_byte(c)
    }

    /// The digit value of `c`, in either case.
    pub fn digit_value(&self, c: u8) -> Option<u32> {
        let d = self.digit_of[c as usize];
        (d != NO_DIGIT).then_some(u32::from(d))
    }

    /// The code point of digit `d`, uppercase when `upper` and it has that
    /// form; `None` when `d >= base`.
    pub fn digit_char(&self, d: u32, upper: bool) -> Option<u8> {
        let &cp = self.params.digits.get(d as usize)?;
        Some(if upper {
            self.upper[cp as usize]
        } else {
            self.lower[cp as usize]
        })
    }

    /// The bias adaptation function (section 6.1). `numpoints` 0 counts
    /// as 1 (the algorithms never pass 0).
    pub fn adapt(&self, delta: u32, numpoints: u32, firsttime: bool) -> u32 {
        let p = &self.params;
        let mut delta = if firsttime { delta / p.damp } else { delta / 2 };
        // delta < 2^31 after the division (damp >= 2), so this cannot wrap.
        delta += delta / numpoints.max(1);
        let mut k = 0;
        // base <= 255 (its digits are distinct bytes), so these products fit.
        while delta > ((p.base - p.tmin) * p.tmax) / 2 {
            delta /= p.base - p.tmin;
            k += p.base;
        }
        // In u64 because skew has no upper bound.
        let delta = u64::from(delta);
        let last = u64::from(p.base - p.tmin + 1) * delta / (delta + u64::from(p.skew));
        // last <= base - tmin, so the sum fits.
        k + last as u32
    }

    /// The threshold `t` at position `k` (sections 6.2 and 6.3), computed
    /// as the draft's C does (`k - bias >= tmax`; RFC 3492's C writes
    /// `k >= bias + tmax`, the same whenever `bias + tmax` does not wrap,
    /// which it cannot where it is evaluated: see docs/c-samples.md).
    pub fn threshold(&self, k: u32, bias: u32) -> u32 {
        let p = &self.params;
        if k <= bias {
            p.tmin
        } else if k - bias >= p.tmax {
            p.tmax
        } else {
            k - bias
        }
    }

    /// Appends `q` as a generalized variable-length integer (section 3.3)
    /// with the given bias, lowercase but for the last digit when
    /// `upper_last`.
    pub fn encode_integer(
        &self,
        q: u32,
        bias: u32,
        upper_last: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        self.write_integer(q, bias, upper_last, out, MAXINT)
    }

    /// [`Coder::encode_integer`] against an output limit: [`Error::BigOutput`]
    /// before any digit that would not fit, as both C samples check.
    fn write_integer(
        &self,
        mut q: u32,
        bias: u32,
        upper_last: bool,
        out: &mut Vec<u8>,
        max_out: u32,
    ) -> Result<(), Error> {
        let base = self.params.base;
        let mut k = base;
        loop {
            if out.len() as u64 >= u64::from(max_out) {
                return Err(Error::BigOutput);
            }
            let t = self.threshold(k, bias);
            if q < t {
                break;
            }
            out.push(self.lower[self.params.digits[(t + (q - t) % (base - t)) as usize] as usize]);
            q = (q - t) / (base - t);
            // At most MAX_INTEGER_DIGITS digits (Coder::new), so k stays
            // far below maxint; saturating keeps the loop finite regardless.
            k = k.saturating_add(base);
        }
        // q < t <= tmax <= base - 1.
        let cp = self.params.digits[q as usize];
        out.push(if upper_last {
            self.upper[cp as usize]
        } else {
            self.lower[cp as usize]
        });
        Ok(())
    }

    /// Encodes code points (section 6.3).
    ///
    /// `case_flags`, when given, holds one flag per code point: the last
    /// digit of each delta is uppercase when its code point's flag is set,
    /// and basic code points are treated as [`Params::basic_case`] says.
    pub fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> Result<Vec<u8>, Error> {
        self.encode_with_limit(input, case_flags, MAXINT)
    }

    /// [`Coder::encode`] with the output limited to `max_output` bytes, as
    /// both C samples' `*output_length` does: the basic code points need
    /// one spare byte for the delimiter, and each digit is checked before it
    /// is written.
    pub fn encode_with_limit(
        &self,
        input: &[u32],
        case_flags: Option<&[bool]>,
        max_output: u32,
    ) -> Result<Vec<u8>, Error> {
        let p = &self.params;
        let length = u32::try_from(input.len()).map_err(|_| Error::Overflow {
            check: OverflowCheck::Length,
            position: 0,
        })?;
        if let Some(flags) = case_flags.filter(|f| f.len() != input.len()) {
            return Err(Error::BadInput {
                position: flags.len().min(input.len()),
                reason: BadInputReason::FlagsLength,
            });
        }
        let flag = |j: usize| case_flags.is_some_and(|flags| flags[j]);
        if !self.annotations
            && let Some(position) = (0..input.len()).find(|&j| flag(j) && !self.is_basic(input[j]))
        {
            return Err(Error::BadInput {
                position,
                reason: BadInputReason::NoUppercaseDigit,
            });
        }

        // The basic code points, followed by a delimiter if there are any.
        let mut output = Vec::new();
        for (j, &cp) in input.iter().enumerate() {
            if self.is_basic(cp) {
                // Room for this code point and the delimiter after it.
                if max_output - (output.len() as u32) < 2 {
                    return Err(Error::BigOutput);
                }
                // Basic code points are bytes.
                let c = cp as u8;
                output.push(match (p.basic_case, case_flags) {
                    (BasicCase::Force, Some(_)) if flag(j) => self.upper[c as usize],
                    (BasicCase::Force, Some(_)) => self.lower[c as usize],
                    _ => c,
                });
            } else if cp < p.initial_n {
                // In braces in section 6.3; C's commented-out check sits here.
                return Err(Error::BadInput {
                    position: j,
                    reason: BadInputReason::NonBasicBelowInitialN,
                });
            }
        }
        // At most `length` basic code points, so this fits.
        let b = output.len() as u32;
        let mut h = b;
        if b > 0 {
            output.push(p.delimiter);
        }

        let mut n = p.initial_n;
        let mut delta: u32 = 0;
        let mut bias = p.initial_bias;
        while h < length {
            // Every non-basic code point below n is handled: the next one up
            // ({non-basic} of section 6.3). One exists because h < length.
            let m = input
                .iter()
                .copied()
                .filter(|&cp| cp >= n && !self.is_basic(cp))
                .fold(MAXINT, u32::min);
            delta = (m - n)
                .checked_mul(h + 1)
                .and_then(|jump| delta.checked_add(jump))
                .ok_or(Error::Overflow {
                    check: OverflowCheck::EncodeDelta,
                    position: input.iter().position(|&cp| cp == m).unwrap_or(0),
                })?;
            n = m;
            for (j, &cp) in input.iter().enumerate() {
                // {or c is basic}: basic code points were handled first.
                if cp < n || self.is_basic(cp) {
                    delta = delta.checked_add(1).ok_or(Error::Overflow {
                        check: OverflowCheck::EncodeIncrement,
                        position: j,
                    })?;
                }
                if cp == n && !self.is_basic(cp) {
                    self.write_integer(delta, bias, flag(j), &mut output, max_output)?;
                    bias = self.adapt(delta, h + 1, h == b);
                    delta = 0;
                    h += 1;
                }
            }
            // Cannot overflow: delta < length here (section 6.3); n only
            // wraps past maxint when every code point is handled.
            delta = delta.wrapping_add(1);
            n = n.wrapping_add(1);
        }
        Ok(output)
    }

    /// Decodes a basic string (section 6.2) to code points and flags.
    pub fn decode(&self, input: &[u8]) -> Result<Decoded, Error> {
        self.decode_with_limit(input, MAXINT)
    }

    /// [`Coder::decode`] with the output limited to `max_output` code
    /// points, as both C samples' `*output_length` does.
    pub fn decode_with_limit(&self, input: &[u8], max_output: u32) -> Result<Decoded, Error> {
        let p = &self.params;
        if u32::try_from(input.len()).is_err() {
            return Err(Error::Overflow {
                check: OverflowCheck::Length,
                position: 0,
            });
        }
        // The literal portion is everything before the last delimiter; a
        // delimiter at position 0 starts none, and is left to be decoded
        // (where it fails, since it is not a digit).
        let b = input.iter().rposition(|&c| c == p.delimiter).unwrap_or(0);
        if b as u64 > u64::from(max_output) {
            return Err(Error::BigOutput);
        }
        let mut decoded = Decoded {
            code_points: Vec::with_capacity(b),
            flags: CaseFlags::new(),
        };
        for (j, &c) in input[..b].iter().enumerate() {
            if !p.basic.contains_byte(c) {
                return Err(Error::BadInput {
                    position: j,
                    reason: BadInputReason::NonBasicInLiteral,
                });
            }
            decoded.code_points.push(u32::from(c));
            decoded.flags.push(self.is_flagged(c));
        }

        let mut n = p.initial_n;
        let mut i: u32 = 0;
        let mut bias = p.initial_bias;
        let mut pos = if b > 0 { b + 1 } else { 0 };
        while pos < input.len() {
            let oldi = i;
            let mut w: u32 = 1;
            let mut k = p.base;
            loop {
                let Some(&c) = input.get(pos) else {
                    return Err(Error::BadInput {
                        position: pos,
                        reason: BadInputReason::UnexpectedEnd,
                    });
                };
                let digit = self.digit_value(c).ok_or(Error::BadInput {
                    position: pos,
                    reason: BadInputReason::NotADigit,
                })?;
                i = digit
                    .checked_mul(w)
                    .and_then(|add| i.checked_add(add))
                    .ok_or(Error::Overflow {
                        check: OverflowCheck::DecodeDigit,
                        position: pos,
                    })?;
                pos += 1;
                let t = self.threshold(k, bias);
                if digit < t {
                    break;
                }
                w = w.checked_mul(p.base - t).ok_or(Error::Overflow {
                    check: OverflowCheck::DecodeWeight,
                    position: pos - 1,
                })?;
                // w at least doubles (base - t >= 2 once tmax <= base - 2,
                // which Coder::new's digit bound implies), so k stays small.
                k = k.saturating_add(p.base);
            }
            // The output is shorter than the input, whose length fits in u32.
            let len = decoded.code_points.len() as u32;
            bias = self.adapt(i - oldi, len + 1, oldi == 0);
            n = n.checked_add(i / (len + 1)).ok_or(Error::Overflow {
                check: OverflowCheck::DecodeCodePoint,
                position: pos - 1,
            })?;
            i %= len + 1;
            // In braces in section 6.2; C's commented-out check sits here.
            if self.is_basic(n) {
                return Err(Error::BadInput {
                    position: pos - 1,
                    reason: BadInputReason::BasicCodePointDecoded,
                });
            }
            if len >= max_output {
                return Err(Error::BigOutput);
            }
            decoded.code_points.insert(i as usize, n);
            decoded
                .flags
                .insert(i as usize, self.is_flagged(input[pos - 1]));
            i += 1;
        }
        Ok(decoded)
    }

    /// Encodes and adds `signature` (the draft's IDNA signature).
    pub fn encode_signed(
        &self,
        input: &[u32],
        case_flags: Option<&[bool]>,
        signature: Signature<'_>,
    ) -> Result<Vec<u8>, Error> {
        Ok(signature.add(&self.encode(input, case_flags)?))
    }

    /// Strips `signature` from `label` ([`Signature::strip`]) and decodes the
    /// rest; error positions are positions in `label`.
    pub fn decode_signed(&self, label: &[u8], signature: Signature<'_>) -> Result<Decoded, Error> {
        let ace = signature.strip(label)?;
        let offset = match signature.place() {
            Place::Prefix => label.len() - ace.len(),
            Place::Suffix => 0,
        };
        self.decode(ace).map_err(|e| e.shifted(offset))
    }
}

/// Where a signature goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// Before the ACE.
    Prefix,
    /// After the ACE.
    Suffix,
}

/// An IDNA signature: the draft's section 1 and 5 say AMC-ACE-Z "uses an
/// IDNA signature prefix (or suffix)", whose value IDNA had not yet chosen;
/// the C sample neither adds nor expects one.
///
/// Decisions (the draft says nothing on them):
/// - The signature is matched without regard to ASCII case, as DNS labels
///   are compared.
/// - [`Signature::strip`] looks only at its own end. A label with the
///   signature at the other end only is [`BadInputReason::SignatureInWrongPlace`],
///   not a label without signature, so that a prefix/suffix mix-up is
///   reported as such. A label with the signature at both ends has it
///   stripped from its own end only; the rest, which then starts or ends
///   with the signature's text, is decoded as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Signature<'a> {
    text: &'a [u8],
    place: Place,
}

impl<'a> Signature<'a> {
    /// A signature prefix.
    pub const fn prefix(text: &'a [u8]) -> Self {
        Signature {
            text,
            place: Place::Prefix,
        }
    }

    /// A signature suffix.
    pub const fn suffix(text: &'a [u8]) -> Self {
        Signature {
            text,
            place: Place::Suffix,
        }
    }

    /// Its text.
    pub fn text(&self) -> &'a [u8] {
        self.text
    }

    /// Where it goes.
    pub fn place(&self) -> Place {
        self.place
    }

    /// `ace` with the signature added at its place.
    pub fn add(&self, ace: &[u8]) -> Vec<u8> {
        let mut label = Vec::with_capacity(ace.len() + self.text.len());
        match self.place {
            Place::Prefix => {
                label.extend_from_slice(self.text);
                label.extend_from_slice(ace);
            }
            Place::Suffix => {
                label.extend_from_slice(ace);
                label.extend_from_slice(self.text);
            }
        }
        label
    }

    /// Whether `label` has the signature at `place` (ASCII case ignored).
    pub fn is_at(&self, label: &[u8], place: Place) -> bool {
        let n = self.text.len();
        label.len() >= n
            && match place {
                Place::Prefix => label[..n].eq_ignore_ascii_case(self.text),
                Place::Suffix => label[label.len() - n..].eq_ignore_ascii_case(self.text),
            }
    }

    /// Checks that `label` carries the signature at its place.
    pub fn check(&self, label: &[u8]) -> Result<(), Error> {
        self.strip(label).map(|_| ())
    }

    /// The ACE inside `label`: the label without the signature at its place.
    pub fn strip<'b>(&self, label: &'b [u8]) -> Result<&'b [u8], Error> {
        let n = self.text.len();
        if self.is_at(label, self.place) {
            return Ok(match self.place {
                Place::Prefix => &label[n..],
                Place::Suffix => &label[..label.len() - n],
            });
        }
        let (other, position) = match self.place {
            Place::Prefix => (Place::Suffix, 0),
            Place::Suffix => (Place::Prefix, label.len()),
        };
        Err(Error::BadInput {
            position,
            reason: if self.is_at(label, other) {
                BadInputReason::SignatureInWrongPlace
            } else {
                BadInputReason::MissingSignature
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(change: impl FnOnce(&mut Params)) -> Result<Coder, ParamError> {
        let mut p = Params::PUNYCODE;
        change(&mut p);
        Coder::new(p)
    }

    #[test]
    fn both_documents_parameters_are_valid_and_alike() {
        for params in [Params::PUNYCODE, Params::AMC_ACE_Z] {
            let checked = Coder::new(params).expect("section 5 values pass section 4");
            assert_eq!(checked, Coder::tables(params));
            assert!(checked.supports_annotations());
        }
        assert_eq!(Coder::punycode(), Coder::new(Params::PUNYCODE).unwrap());
        assert_eq!(Coder::amc_ace_z(), Coder::new(Params::AMC_ACE_Z).unwrap());
        // Section 5 of both: the same values; only the basic case differs.
        assert_eq!(
            Params {
                basic_case: BasicCase::Force,
                ..Params::AMC_ACE_Z
            },
            Params::PUNYCODE
        );
        let p = Params::PUNYCODE;
        assert_eq!(
            (
                p.base,
                p.tmin,
                p.tmax,
                p.skew,
                p.damp,
                p.initial_bias,
                p.initial_n,
                p.delimiter
            ),
            (
                punycode::BASE,
                punycode::T_MIN,
                punycode::T_MAX,
                punycode::SKEW,
                punycode::DAMP,
                punycode::INITIAL_BIAS,
                punycode::INITIAL_N,
                punycode::DELIMITER
            )
        );
    }

    #[test]
    fn tables_agree_with_the_punycode_module() {
        let coder = Coder::punycode();
        for c in 0..=255u8 {
            assert_eq!(coder.digit_value(c), punycode::digit_value(c), "{c}");
            assert_eq!(
                coder.is_basic(u32::from(c)),
                punycode::is_basic(u32::from(c))
            );
            assert_eq!(coder.is_flagged(c), c.is_ascii_uppercase());
        }
        for d in 0..36 {
            assert_eq!(
                coder.digit_char(d, false),
                Some(punycode::digit_char(d, false))
            );
        }
        // Uppercase digits are only ever the last of a delta, below tmax.
        for d in 0..26 {
            assert_eq!(
                coder.digit_char(d, true),
                Some(punycode::digit_char(d, true))
            );
        }
        assert_eq!(coder.digit_char(36, false), None);
        for bias in 0..300 {
            for k in (36..=36 * 12).step_by(36) {
                assert_eq!(coder.threshold(k, bias), punycode::threshold(k, bias));
            }
        }
        for delta in (0..5000).chain([u32::MAX, u32::MAX - 1, 1 << 31]) {
            for numpoints in [1, 2, 7, 1000, u32::MAX] {
                for first in [false, true] {
                    assert_eq!(
                        coder.adapt(delta, numpoints, first),
                        punycode::adapt(delta, numpoints, first)
                    );
                }
            }
        }
    }

    #[test]
    fn each_constraint_is_named() {
        let cases: Vec<(Result<Coder, ParamError>, ParamError)> = vec![
            (with(|p| p.base = 1), ParamError::BaseTooSmall { base: 1 }),
            (
                with(|p| p.base = 35),
                ParamError::AlphabetLength {
                    base: 35,
                    digits: 36,
                },
            ),
            (
                with(|p| p.digits = b"abcdefghijklmnopqrstuvwxyz012345678\x80"),
                ParamError::DigitNotBasic {
                    digit: 35,
                    code_point: 0x80,
                },
            ),
            (
                with(|p| p.digits = b"abcdefghijklmnopqrstuvwxyz012345678-"),
                ParamError::DigitIsDelimiter { digit: 35 },
            ),
            (
                with(|p| p.digits = b"abcdefghijklmnopqrstuvwxyz012345678A"),
                ParamError::DigitsNotDistinct {
                    first: 0,
                    second: 35,
                    code_point: b'a',
                },
            ),
            (
                with(|p| p.delimiter = 0x80),
                ParamError::DelimiterNotBasic { delimiter: 0x80 },
            ),
            (
                with(|p| p.tmin = 27),
                ParamError::TminAboveTmax { tmin: 27, tmax: 26 },
            ),
            (
                with(|p| p.tmax = 36),
                ParamError::TmaxAboveBaseMinusOne { tmax: 36, base: 36 },
            ),
            (
                with(|p| {
                    p.tmin = 0;
                    p.tmax = 0;
                }),
                ParamError::TmaxZero,
            ),
            (
                with(|p| {
                    p.tmin = 35;
                    p.tmax = 35;
                }),
                ParamError::TminBaseMinusOne { tmin: 35, base: 36 },
            ),
            (with(|p| p.skew = 0), ParamError::SkewZero),
            (with(|p| p.damp = 1), ParamError::DampBelowTwo { damp: 1 }),
            (
                with(|p| p.case_pairs = &[[b'a', 0x80]]),
                ParamError::CasePairNotBasic { pair: [b'a', 0x80] },
            ),
            (
                with(|p| p.case_pairs = &[[b'a', b'a']]),
                ParamError::CasePairSame { code_point: b'a' },
            ),
            (
                with(|p| p.case_pairs = &[[b'a', b'A'], [b'A', b'b']]),
                ParamError::CasePairsOverlap { code_point: b'A' },
            ),
            (
                with(|p| p.case_pairs = &[[b'-', b'_']]),
                ParamError::DelimiterHasCase { delimiter: b'-' },
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, Err(want));
            assert!(!want.constraint().is_empty());
        }
        // initial_bias mod base <= base - tmin: with tmin 2, 35 is one too
        // many and 34 is the most.
        assert_eq!(
            with(|p| {
                p.tmin = 2;
                p.initial_bias = 36 + 35;
            }),
            Err(ParamError::InitialBiasResidue {
                initial_bias: 71,
                base: 36,
                tmin: 2
            })
        );
        assert!(
            with(|p| {
                p.tmin = 2;
                p.initial_bias = 36 + 34;
            })
            .is_ok()
        );
        let message = ParamError::TmaxZero.to_string();
        assert!(message.contains("tmax >= 1"), "{message}");
    }

    /// Section 4 allows tmin = tmax = base - 1; adapt() then divides by 1
    /// for as long as delta > (base - 1) div 2, that is for ever.
    #[test]
    fn tmin_base_minus_one_would_never_finish_adapt() {
        let (base, tmin, tmax) = (36u32, 35u32, 35u32);
        let mut delta = 1000 / 2;
        for _ in 0..1000 {
            if delta <= ((base - tmin) * tmax) / 2 {
                break;
            }
            delta /= base - tmin;
        }
        assert_eq!(delta, 500, "the loop makes no progress");
    }

    /// Section 4 allows tmin = tmax = 0; then no digit is below its
    /// threshold and the encoder's digit loop never ends.
    #[test]
    fn tmax_zero_would_never_end_an_integer() {
        let (base, t) = (36u32, 0u32);
        let mut q = 5u32;
        let mut digits = 0;
        while q >= t && digits < 1000 {
            q = (q - t) / (base - t);
            digits += 1;
        }
        assert_eq!(digits, 1000, "q < t is never reached");
    }

    /// With tmin = 0 and an initial bias of 40 * base (allowed: its residue
    /// 0 is at most base - tmin), the first delta is written with one digit
    /// 0 per position up to the bias, and the decoder's weight overflows
    /// reading them back.
    #[test]
    fn tmin_zero_with_a_large_bias_breaks_the_round_trip() {
        let coder = with(|p| {
            p.tmin = 0;
            p.initial_bias = 36 * 40;
        })
        .expect("section 4 allows it");
        let encoded = coder.encode(&[0x80], None).unwrap();
        assert_eq!(encoded, vec![b'a'; 41]);
        assert!(matches!(
            coder.decode(&encoded),
            Err(Error::Overflow {
                check: OverflowCheck::DecodeWeight,
                ..
            })
        ));
    }

    /// Parameters whose initial_n is below some basic code points exercise
    /// the brace-enclosed parts of section 6.
    #[test]
    fn braced_parts_work_when_initial_n_is_low() {
        // Basic: ASCII; initial_n 0x41: 'A'..0x7F are basic yet >= n.
        let coder = with(|p| p.initial_n = 0x41).unwrap();
        let input = [0x61, 0x100, 0x42, 0x7F, 0x101];
        let encoded = coder.encode(&input, None).unwrap();
        assert!(encoded.starts_with(b"aB\x7F-"), "{encoded:?}");
        assert_eq!(coder.decode(&encoded).unwrap().code_points, input);
        // A delta reaching a basic code point is refused: "a" is delta 0,
        // n = initial_n = 0x41, which is 'A'.
        assert_eq!(
            coder.decode(b"a"),
            Err(Error::BadInput {
                position: 0,
                reason: BadInputReason::BasicCodePointDecoded
            })
        );
        // Non-basic code points below initial_n are refused by the encoder.
        let coder = with(|p| p.initial_n = 0x100).unwrap();
        assert_eq!(
            coder.encode(&[0x61, 0x80], None),
            Err(Error::BadInput {
                position: 1,
                reason: BadInputReason::NonBasicBelowInitialN
            })
        );
        assert_eq!(coder.decode(b"a").unwrap().code_points, [0x100]);
    }

    #[test]
    fn a_small_base_without_case_round_trips_and_refuses_flags() {
        static DIGITS: &[u8] = b"0123456789";
        let coder = Coder::new(Params {
            base: 10,
            tmin: 1,
            tmax: 8,
            skew: 3,
            damp: 2,
            initial_bias: 9,
            initial_n: 0x80,
            delimiter: b'-',
            digits: DIGITS,
            basic: BasicSet::below(0x80),
            case_pairs: &ASCII_LETTERS,
            basic_case: BasicCase::Force,
        })
        .unwrap();
        assert!(!coder.supports_annotations());
        let input = [0x4E2D, 0x61, 0x6587, 0x10FFFF];
        let encoded = coder.encode(&input, None).unwrap();
        assert!(
            encoded
                .iter()
                .all(|c| c.is_ascii_digit() || b"a-".contains(c))
        );
        assert_eq!(coder.decode(&encoded).unwrap().code_points, input);
        assert_eq!(
            coder.encode(&input, Some(&[false, true, false, false])),
            Ok(b"A-"
                .iter()
                .copied()
                .chain(encoded[2..].iter().copied())
                .collect())
        );
        assert_eq!(
            coder.encode(&input, Some(&[false, false, true, false])),
            Err(Error::BadInput {
                position: 2,
                reason: BadInputReason::NoUppercaseDigit
            })
        );
    }

    #[test]
    fn basic_case_is_forced_or_literal() {
        let input = [0x61, 0x42, 0x31, 0xE9];
        let flags = [true, false, true, true];
        let force = Coder::punycode();
        let literal = Coder::amc_ace_z();
        let forced = force.encode(&input, Some(&flags)).unwrap();
        let copied = literal.encode(&input, Some(&flags)).unwrap();
        assert_eq!(&forced[..4], b"Ab1-");
        assert_eq!(&copied[..4], b"aB1-");
        // The deltas are the same, their last digit uppercase (flag set).
        assert_eq!(forced[4..], copied[4..]);
        assert!(forced.last().unwrap().is_ascii_uppercase());
        // Without flags both copy; with all flags clear only Force changes.
        assert_eq!(force.encode(&input, None), literal.encode(&input, None));
        assert_eq!(
            &force.encode(&input, Some(&[false; 4])).unwrap()[..4],
            b"ab1-"
        );
        assert_eq!(
            literal.encode(&input, Some(&[false; 4])),
            literal.encode(&input, None)
        );
    }

    /// Section 4 allows tmax = base - 1, but then every position past the
    /// bias has `base - t = 1`: the weight stops growing and deltas are
    /// written in unary. And it allows any initial_bias with tmin = 0, but
    /// then the first delta starts with initial_bias / base zero digits.
    /// Both are refused, with the bias where maxint gets too long.
    #[test]
    fn deltas_that_would_take_gigabytes_are_refused() {
        assert_eq!(
            with(|p| p.tmax = 35),
            Err(ParamError::DeltaTooLong { bias: 72 })
        );
        // What it would write: one code point, and the output limit is what
        // ends it (q drops by 35 per digit past the first two positions).
        let unary = Coder::tables(Params {
            tmax: 35,
            ..Params::PUNYCODE
        });
        assert_eq!(
            unary.encode_with_limit(&[0x4000_0000], None, 10_000),
            Err(Error::BigOutput)
        );
        assert_eq!(
            with(|p| {
                p.tmin = 0;
                p.initial_bias = MAXINT - MAXINT % 36;
            }),
            Err(ParamError::DeltaTooLong {
                bias: MAXINT - MAXINT % 36
            })
        );
        // The smallest base that passes is 3; base 2 cannot (tmax must be 1).
        for tmin in 0..=1 {
            assert!(
                Coder::new(Params {
                    base: 3,
                    tmin,
                    tmax: 1,
                    digits: b"abc",
                    initial_bias: 0,
                    ..Params::PUNYCODE
                })
                .is_ok()
            );
        }
        assert_eq!(
            Coder::new(Params {
                base: 2,
                tmin: 0,
                tmax: 1,
                digits: b"ab",
                initial_bias: 0,
                ..Params::PUNYCODE
            }),
            Err(ParamError::DeltaTooLong { bias: 0 })
        );
        // Punycode's integers take at most 10 digits at any bias.
        let coder = Coder::punycode();
        let most = (0..=coder.adapt(MAXINT, 1, false))
            .map(|bias| coder.integer_digits(MAXINT, bias))
            .max();
        assert_eq!(most, Some(punycode::MAX_DELTA_DIGITS));
    }

    #[test]
    fn basic_set_operations() {
        let ascii = BasicSet::below(0x80);
        assert_eq!(ascii.len(), 128);
        assert_eq!(ascii.min_non_basic(), 0x80);
        assert!(ascii.contains(0x7F) && !ascii.contains(0x80) && !ascii.contains(0x1_0000));
        let gap = ascii.without(b'_');
        assert_eq!(gap.min_non_basic(), u32::from(b'_'));
        assert_eq!(format!("{gap:?}"), "{00-5E,60-7F}");
        assert_eq!(BasicSet::below(300).len(), 256);
        assert_eq!(BasicSet::below(300).min_non_basic(), 256);
        assert!(BasicSet::EMPTY.is_empty());
        assert_eq!(BasicSet::EMPTY.with(0xFF).len(), 1);
    }

    #[test]
    fn signatures_at_either_end() {
        let coder = Coder::amc_ace_z();
        let input = [0x4ED6, 0x4EEC];
        let ace = coder.encode(&input, None).unwrap();
        let prefix = Signature::prefix(b"zq--");
        let suffix = Signature::suffix(b"-zq");
        let prefixed = coder.encode_signed(&input, None, prefix).unwrap();
        let suffixed = coder.encode_signed(&input, None, suffix).unwrap();
        assert_eq!(prefixed, [b"zq--".as_slice(), &ace].concat());
        assert_eq!(suffixed, [ace.as_slice(), b"-zq"].concat());
        assert_eq!(
            coder.decode_signed(&prefixed, prefix).unwrap().code_points,
            input
        );
        assert_eq!(
            coder.decode_signed(&suffixed, suffix).unwrap().code_points,
            input
        );
        // Case does not matter.
        let upper = prefixed.to_ascii_uppercase();
        assert_eq!(prefix.strip(&upper), Ok(&upper[4..]));
        // Wrong place, and missing.
        assert_eq!(
            prefix.check(&suffixed.iter().copied().chain(*b"zq--").collect::<Vec<_>>()),
            Err(Error::BadInput {
                position: 0,
                reason: BadInputReason::SignatureInWrongPlace
            })
        );
        assert_eq!(
            suffix.check(&prefixed),
            Err(Error::BadInput {
                position: prefixed.len(),
                reason: BadInputReason::MissingSignature
            })
        );
        assert_eq!(
            suffix.check(b"-zqabc"),
            Err(Error::BadInput {
                position: 6,
                reason: BadInputReason::SignatureInWrongPlace
            })
        );
        assert_eq!(
            prefix.check(b"zq-"),
            Err(Error::BadInput {
                position: 0,
                reason: BadInputReason::MissingSignature
            })
        );
        // Both ends: only its own end is stripped.
        assert_eq!(prefix.strip(b"zq--abzq--"), Ok(&b"abzq--"[..]));
        assert_eq!(
            coder
                .decode_signed(b"zq--abzq--", prefix)
                .unwrap()
                .code_points,
            b"abzq-".map(u32::from)
        );
        // Error positions are positions in the label.
        assert_eq!(
            coder.decode_signed(b"zq--ab-c!", prefix),
            Err(Error::BadInput {
                position: 8,
                reason: BadInputReason::NotADigit
            })
        );
        assert_eq!(coder.decode_signed(b"zq--", prefix), Ok(Decoded::default()));
    }
}
