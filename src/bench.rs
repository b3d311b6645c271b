//! How fast the implementations are, on the same inputs, each checked
//! first: the library behind `punycheck bench` and `benches/punycode.rs`.
//!
//! # Inputs
//!
//! Every implementation of a run gets the same inputs ([`input_sets`]):
//!
//! - [`SetKind::RfcSamples`]: the sample strings (A) to (S) of RFC 3492
//!   section 7.1, read from the RFC text ([`rfc_samples`]);
//! - [`SetKind::Labels`]: seeded random labels like real IDN labels, ASCII
//!   letters and digits mixed with one or two scripts, each shortened until
//!   its Punycode has at most [`MAX_LABEL_PUNYCODE`] characters
//!   ([`random_labels`]);
//! - [`SetKind::ManyDistinct`]: one long input of n distinct code points, a
//!   seeded permutation of the first n Unicode scalar values from U+00A0
//!   ([`many_distinct`]): the encoder's outer loop runs n times;
//! - [`SetKind::FewDistinct`]: one long input of n code points, half ASCII
//!   letters and digits, half the five values of [`FEW_DISTINCT`]
//!   ([`few_distinct`]): the encoder's outer loop runs five times, but the
//!   decoder still inserts n/2 code points.
//!
//! The long inputs have n = 10^3, 10^4, 10^5 and 10^6 ([`SIZES`]). Every
//! input is made of Unicode scalar values (so that the `idna` crate and ICU
//! can take them) and is encoded without case flags (the `idna` crate and
//! libidn2 have no annotations). The decoding inputs are the encodings of
//! the encoding inputs by the reference (below).
//!
//! # The self-check
//!
//! Each implementation ([`Subject`]) is first run once over the whole input
//! set, and every answer is compared: an encoding with the reference's
//! encoding, a decoding with the code points that were encoded. The
//! reference is the C reference (RFC 3492 Appendix C); for a long input on
//! which it was skipped (see below) it is the first implementation that
//! ran, the clean-room code preferably, whose encoding the decoders then
//! check by decoding it back to the input. A wrong answer ends the run with
//! [`BenchError::WrongAnswer`]; an input that the implementation cannot take
//! (its own length limit, or a refusal explained by one of its listed
//! [`Deviation`]s, such as libidn2 refusing `$` in sample S) skips it for
//! that input set, with the reason.
//!
//! # Timing
//!
//! A pass runs the implementation once over every input of the set. The
//! checking pass is timed too; when it took less than half the budget
//! ([`Settings::seconds_per_case`]), up to [`Settings::repetitions`] samples
//! of enough passes each to last about [`Settings::sample_seconds`] follow,
//! as long as the budget lasts. The budget counts the implementation's own
//! time only: its checking pass and its samples.
//!
//! The samples are interleaved across the implementations. On one input set
//! in one direction, every implementation's checking pass runs first; then
//! each round takes one sample of every implementation still within its
//! budget, in an order that rotates: round r starts at the r-th of them
//! (modulo their number). A burst of noise from other processes on the
//! machine then falls on all the implementations compared in the same run
//! alike, rather than on the one that happened to be timed, which would
//! shift the ratios between them.
//!
//! The result is the best and the median time per pass ([`Timing`]);
//! reports and plots show the best (other processes only ever add time) as
//! code points and inputs (labels) per second. Extrapolation uses the
//! median.
//!
//! The budget also bounds the run: quadratic implementations on 10^6 code
//! points take minutes. Before each long input, the time of the
//! implementation's last measured size is extrapolated with the growth
//! measured between its last two sizes (at least linear); when that exceeds
//! the budget, the size is skipped with the extrapolated time.
//!
//! Implementations are called through their most direct API: the clean-room
//! code, [`crate::c_reference`] and `idna::punycode` directly (the latter on
//! `char`s and `&str` prepared before timing), libidn2 and ICU through
//! their engines' wrappers, which only size buffers around the C call (and,
//! for ICU, convert to and from UTF-16 in the timed part).

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::hint::black_box;
use std::time::Instant;

use plotters::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::c_reference::{self, CError};
use crate::engines::{Deviation, Engine, EngineError, Icu, Libidn2};
use crate::harness::compare::Request;
use crate::harness::vectors::{CodePoints, Expected};
use crate::punycode;
use crate::rfc_text;

/// The lengths of the long inputs of a full run, in code points.
pub const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

/// The lengths of the long inputs of a quick run.
pub const QUICK_SIZES: [usize; 2] = [1_000, 10_000];

/// The longest long input a run takes (`--max-size`).
pub const MAX_SIZE: usize = 1_000_000;

/// The seed of the random inputs.
pub const SEED: u64 = 3492;

/// The longest Punycode of a random label: a DNS label has at most 63
/// octets (RFC 1034 section 3.1).
pub const MAX_LABEL_PUNYCODE: usize = 63;

/// The non-ASCII code points of [`SetKind::FewDistinct`] (ä é ö ü š): close
/// together and just above the basic range, so that no delta overflows even
/// at 10^6 code points (the first delta is (0xE4 - 0x80) times the number of
/// basic code points plus one).
pub const FEW_DISTINCT: [u32; 5] = [0xE4, 0xE9, 0xF6, 0xFC, 0x161];

/// The scripts of the random labels: a name and a run of letters in it.
pub const LABEL_SCRIPTS: [(&str, u32, u32); 10] = [
    ("Latin-1", 0xE0, 0xF6),
    ("Greek", 0x3B1, 0x3C9),
    ("Cyrillic", 0x430, 0x44F),
    ("Hebrew", 0x5D0, 0x5EA),
    ("Arabic", 0x628, 0x64A),
    ("Devanagari", 0x915, 0x939),
    ("Thai", 0xE01, 0xE2E),
    ("Hiragana", 0x3041, 0x3096),
    ("CJK", 0x4E00, 0x9FFF),
    ("Hangul", 0xAC00, 0xD7A3),
];

/// The name of the reference implementation, whose answers the others must
/// give.
pub const REFERENCE: &str = "rfc-c";

/// The name of the implementation that stands in for the reference on the
/// long inputs where the reference is skipped.
pub const STAND_IN: &str = "cleanroom";

const ASCII_LETTERS_DIGITS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// The code points of RFC 3492 section 7.1's samples (A) to (S), without
/// their case flags.
pub fn rfc_samples() -> Vec<Vec<u32>> {
    rfc_text::samples(rfc_text::RFC3492_TEXT)
        .into_iter()
        .map(|sample| sample.code_points.iter().map(|&(cp, _)| cp).collect())
        .collect()
}

/// `count` random labels from `seed`: 2 to 24 code points of ASCII letters
/// and digits (none, a third or two thirds of them) and letters of one or
/// two of [`LABEL_SCRIPTS`], at least one of them non-ASCII, shortened from
/// the end until the C reference's encoding has at most
/// [`MAX_LABEL_PUNYCODE`] characters.
pub fn random_labels(seed: u64, count: usize) -> Vec<Vec<u32>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).map(|_| random_label(&mut rng)).collect()
}

fn random_label(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let first = rng.random_range(0..LABEL_SCRIPTS.len());
    let second = rng.random_range(0..LABEL_SCRIPTS.len());
    let scripts = if rng.random_bool(0.5) {
        vec![first]
    } else {
        vec![first, second]
    };
    let ascii_share = [0.0, 1.0 / 3.0, 2.0 / 3.0][rng.random_range(0..3)];
    let length = rng.random_range(2..=24);
    let letter = |rng: &mut ChaCha8Rng| {
        let (_, low, high) = LABEL_SCRIPTS[scripts[rng.random_range(0..scripts.len())]];
        rng.random_range(low..=high)
    };
    let mut label: Vec<u32> = (0..length)
        .map(|_| {
            if rng.random_bool(ascii_share) {
                u32::from(ASCII_LETTERS_DIGITS[rng.random_range(0..ASCII_LETTERS_DIGITS.len())])
            } else {
                letter(rng)
            }
        })
        .collect();
    if label.iter().all(|&cp| cp < 0x80) {
        let at = rng.random_range(0..label.len());
        label[at] = letter(rng);
    }
    // One code point encodes in at most 12 characters, so this ends with
    // at least one code point left.
    while label.len() > 1
        && c_reference::encode(&label, None).map_or(true, |p| p.len() > MAX_LABEL_PUNYCODE)
    {
        label.pop();
    }
    label
}

/// The first Unicode scalar values from U+00A0 up, skipping surrogates.
fn scalars_from_a0() -> impl Iterator<Item = u32> {
    (0xA0..=0x10_FFFF).filter(|cp| !(0xD800..=0xDFFF).contains(cp))
}

/// `length` distinct code points: the first `length` Unicode scalar values
/// from U+00A0 up, in an order shuffled from `seed`. `length` is at most
/// [`MAX_SIZE`].
pub fn many_distinct(length: usize, seed: u64) -> Result<Vec<u32>, BenchError> {
    check_size(length)?;
    let mut cps: Vec<u32> = scalars_from_a0().take(length).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ length as u64);
    cps.shuffle(&mut rng);
    Ok(cps)
}

/// `length` code points from `seed`, each with even odds an ASCII letter or
/// digit or one of [`FEW_DISTINCT`]. `length` is at most [`MAX_SIZE`].
pub fn few_distinct(length: usize, seed: u64) -> Result<Vec<u32>, BenchError> {
    check_size(length)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed.rotate_left(17) ^ length as u64);
    Ok((0..length)
        .map(|_| {
            if rng.random_bool(0.5) {
                u32::from(ASCII_LETTERS_DIGITS[rng.random_range(0..ASCII_LETTERS_DIGITS.len())])
            } else {
                FEW_DISTINCT[rng.random_range(0..FEW_DISTINCT.len())]
            }
        })
        .collect())
}

fn check_size(length: usize) -> Result<(), BenchError> {
    if length == 0 || length > MAX_SIZE {
        return Err(BenchError::Settings(format!(
            "a long input has 1 to {MAX_SIZE} code points, not {length}"
        )));
    }
    Ok(())
}

/// What an input set is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SetKind {
    /// RFC 3492 section 7.1's samples.
    RfcSamples,
    /// Random labels whose Punycode fits in a DNS label.
    Labels,
    /// One long input of distinct code points.
    ManyDistinct,
    /// One long input of ASCII and five distinct non-ASCII code points.
    FewDistinct,
}

impl SetKind {
    /// Every kind, in the order of a run.
    pub const ALL: [SetKind; 4] = [
        SetKind::RfcSamples,
        SetKind::Labels,
        SetKind::ManyDistinct,
        SetKind::FewDistinct,
    ];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            SetKind::RfcSamples => "rfc-samples",
            SetKind::Labels => "labels",
            SetKind::ManyDistinct => "many-distinct",
            SetKind::FewDistinct => "few-distinct",
        }
    }

    /// Whether it is one long input of a given length.
    pub fn is_long(self) -> bool {
        matches!(self, SetKind::ManyDistinct | SetKind::FewDistinct)
    }
}

/// Encoding or decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Code points to Punycode.
    Encode,
    /// Punycode to code points.
    Decode,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Encode => "encode",
            Direction::Decode => "decode",
        })
    }
}

/// The inputs that every implementation is timed on together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputSet {
    /// What they are.
    pub kind: SetKind,
    /// The length of the long input; `None` for the label sets.
    pub size: Option<usize>,
    /// The code points to encode (their encodings are decoded).
    pub inputs: Vec<Vec<u32>>,
}

impl InputSet {
    /// The number of code points of all inputs.
    pub fn code_points(&self) -> usize {
        self.inputs.iter().map(Vec::len).sum()
    }

    /// A short name without spaces: `labels`, `many-distinct-1000`.
    pub fn id(&self) -> String {
        match self.size {
            Some(n) => format!("{}-{n}", self.kind.name()),
            None => self.kind.name().to_string(),
        }
    }

    /// A name for reports: `rfc-samples (19)`, `many-distinct 10^4`.
    pub fn label(&self) -> String {
        match self.size {
            Some(n) => format!("{} {}", self.kind.name(), size_label(n)),
            None => format!("{} ({})", self.kind.name(), self.inputs.len()),
        }
    }
}

/// `10^k` for a power of ten from 1000 up, else the number.
pub fn size_label(n: usize) -> String {
    let mut power = 0;
    let mut rest = n;
    while rest >= 10 && rest.is_multiple_of(10) {
        rest /= 10;
        power += 1;
    }
    if rest == 1 && power >= 3 {
        format!("10^{power}")
    } else {
        n.to_string()
    }
}

/// The input sets of a run: the RFC samples, the random labels, then each
/// long kind at every size in increasing order.
pub fn input_sets(settings: &Settings) -> Result<Vec<InputSet>, BenchError> {
    settings.validate()?;
    let mut sets = vec![
        InputSet {
            kind: SetKind::RfcSamples,
            size: None,
            inputs: rfc_samples(),
        },
        InputSet {
            kind: SetKind::Labels,
            size: None,
            inputs: random_labels(settings.seed, settings.labels),
        },
    ];
    for kind in [SetKind::ManyDistinct, SetKind::FewDistinct] {
        for &n in &settings.sizes {
            let input = match kind {
                SetKind::ManyDistinct => many_distinct(n, settings.seed)?,
                _ => few_distinct(n, settings.seed)?,
            };
            sets.push(InputSet {
                kind,
                size: Some(n),
                inputs: vec![input],
            });
        }
    }
    Ok(sets)
}

/// One input to encode, in each form an implementation may take, prepared
/// before timing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeInput {
    /// The code points.
    pub code_points: Vec<u32>,
    /// The same as `char`s, when they are all Unicode scalar values.
    pub chars: Option<Vec<char>>,
}

impl EncodeInput {
    /// Prepares `code_points`.
    pub fn new(code_points: Vec<u32>) -> Self {
        let chars = code_points.iter().map(|&cp| char::from_u32(cp)).collect();
        EncodeInput { code_points, chars }
    }
}

/// One Punycode input to decode, in each form an implementation may take,
/// prepared before timing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeInput {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The same as text, when they are UTF-8.
    pub text: Option<String>,
}

impl DecodeInput {
    /// Prepares `bytes`.
    pub fn new(bytes: Vec<u8>) -> Self {
        let text = String::from_utf8(bytes.clone()).ok();
        DecodeInput { bytes, text }
    }
}

/// An implementation as the benchmark calls it.
pub trait Subject {
    /// Its name (that of its engine for the built-in ones).
    fn name(&self) -> &str;
    /// Encodes without case flags.
    fn encode(&self, input: &EncodeInput) -> Result<Vec<u8>, EngineError>;
    /// Decodes, returning the code points.
    fn decode(&self, input: &DecodeInput) -> Result<Vec<u32>, EngineError>;
    /// Its documented departures from RFC 3492: a refusal one of them
    /// explains skips the input set instead of failing the run.
    fn deviations(&self) -> &'static [Deviation] {
        &[]
    }
}

/// The built-in implementations, each called through its most direct API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// RFC 3492 Appendix C: [`crate::c_reference`].
    RfcC,
    /// The clean-room codec: [`crate::punycode`].
    CleanRoom,
    /// `idna::punycode` of the `idna` crate, on `char`s and `&str`.
    Idna,
    /// The system libidn2's `_idn2_punycode_encode`/`_decode`.
    Libidn2,
    /// ICU's `u_strToPunycode`/`u_strFromPunycode`.
    Icu,
}

impl Builtin {
    /// Every one, the reference first.
    pub const ALL: [Builtin; 5] = [
        Builtin::RfcC,
        Builtin::CleanRoom,
        Builtin::Idna,
        Builtin::Libidn2,
        Builtin::Icu,
    ];
}

fn c_error(error: CError) -> EngineError {
    match error {
        CError::Status(kind) => EngineError::Rejected(Some(kind)),
        CError::TooLong { length, limit } => {
            EngineError::Limit(format!("{length} elements exceed its limit of {limit}"))
        }
        CError::FlagsLength => EngineError::Broken("case flags of another length".into()),
        CError::UnknownStatus(code) => EngineError::Broken(format!("returned status {code}")),
    }
}

impl Subject for Builtin {
    fn name(&self) -> &str {
        match self {
            Builtin::RfcC => REFERENCE,
            Builtin::CleanRoom => STAND_IN,
            Builtin::Idna => "idna",
            Builtin::Libidn2 => "libidn2",
            Builtin::Icu => "icu",
        }
    }

    fn encode(&self, input: &EncodeInput) -> Result<Vec<u8>, EngineError> {
        match self {
            Builtin::RfcC => c_reference::encode(&input.code_points, None).map_err(c_error),
            Builtin::CleanRoom => punycode::encode(&input.code_points, None)
                .map_err(|e| EngineError::Rejected(Some(e.kind()))),
            Builtin::Idna => {
                let chars = input.chars.as_deref().ok_or_else(|| {
                    EngineError::Unsupported("a code point is not a Unicode scalar value".into())
                })?;
                ::idna::punycode::encode(chars)
                    .map(String::into_bytes)
                    .ok_or(EngineError::Rejected(None))
            }
            Builtin::Libidn2 => Libidn2.encode(&input.code_points, None),
            Builtin::Icu => Icu.encode(&input.code_points, None),
        }
    }

    fn decode(&self, input: &DecodeInput) -> Result<Vec<u32>, EngineError> {
        match self {
            Builtin::RfcC => c_reference::decode(&input.bytes)
                .map(|d| d.code_points)
                .map_err(c_error),
            Builtin::CleanRoom => punycode::decode(&input.bytes)
                .map(|d| d.code_points)
                .map_err(|e| EngineError::Rejected(Some(e.kind()))),
            Builtin::Idna => {
                let text = input
                    .text
                    .as_deref()
                    .ok_or_else(|| EngineError::Unsupported("input is not UTF-8".into()))?;
                ::idna::punycode::decode(text)
                    .map(|chars| chars.into_iter().map(u32::from).collect())
                    .ok_or(EngineError::Rejected(None))
            }
            Builtin::Libidn2 => Libidn2.decode(&input.bytes).map(|d| d.code_points),
            Builtin::Icu => Icu.decode(&input.bytes).map(|d| d.code_points),
        }
    }

    fn deviations(&self) -> &'static [Deviation] {
        match self {
            Builtin::Libidn2 => Libidn2.capabilities().deviations,
            Builtin::Icu => Icu.capabilities().deviations,
            _ => &[],
        }
    }
}

/// How a run goes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    /// Whether it is the quick run (for tests): fewer sizes, labels and
    /// repetitions, a smaller budget.
    pub quick: bool,
    /// The lengths of the long inputs, increasing, each 1 to [`MAX_SIZE`].
    pub sizes: Vec<usize>,
    /// How many random labels.
    pub labels: usize,
    /// The most timed samples per case, after the checking pass.
    pub repetitions: usize,
    /// About how long one sample lasts (it runs as many passes as fit).
    pub sample_seconds: f64,
    /// The time budget of one implementation on one input set in one
    /// direction; also the extrapolated time per pass above which a long
    /// input is skipped.
    pub seconds_per_case: f64,
    /// The seed of the random inputs.
    pub seed: u64,
}

impl Settings {
    /// A full run: long inputs of 10^3 to 10^6 code points, 1000 labels,
    /// the best of up to 7 samples, 10 s per case.
    pub fn full() -> Self {
        Settings {
            quick: false,
            sizes: SIZES.to_vec(),
            labels: 1000,
            repetitions: 7,
            sample_seconds: 0.05,
            seconds_per_case: 10.0,
            seed: SEED,
        }
    }

    /// A quick run: long inputs of 10^3 and 10^4 code points, 200 labels,
    /// the best of up to 3 samples, 1 s per case.
    pub fn quick() -> Self {
        Settings {
            quick: true,
            sizes: QUICK_SIZES.to_vec(),
            labels: 200,
            repetitions: 3,
            sample_seconds: 0.005,
            seconds_per_case: 1.0,
            seed: SEED,
        }
    }

    /// Caps the long inputs at `n` code points: the sizes up to `n`, and `n`
    /// itself when it lies below the largest.
    pub fn with_max_size(mut self, n: usize) -> Result<Self, BenchError> {
        check_size(n).map_err(|_| {
            BenchError::Settings(format!("--max-size must be 1 to {MAX_SIZE}, not {n}"))
        })?;
        let largest = self.sizes.iter().copied().max().unwrap_or(0);
        self.sizes.retain(|&size| size <= n);
        if n < largest && !self.sizes.contains(&n) {
            self.sizes.push(n);
        }
        Ok(self)
    }

    /// Sets the budget of one case.
    pub fn with_seconds_per_case(mut self, seconds: f64) -> Result<Self, BenchError> {
        self.seconds_per_case = seconds;
        self.validate()?;
        Ok(self)
    }

    /// Checks that the settings make a run.
    pub fn validate(&self) -> Result<(), BenchError> {
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if !positive(self.seconds_per_case) {
            return Err(BenchError::Settings(format!(
                "--seconds-per-case must be a positive number, not {}",
                self.seconds_per_case
            )));
        }
        if !positive(self.sample_seconds) {
            return Err(BenchError::Settings(format!(
                "the sample duration must be a positive number, not {}",
                self.sample_seconds
            )));
        }
        if self.repetitions == 0 {
            return Err(BenchError::Settings("at least one repetition".into()));
        }
        for &n in &self.sizes {
            check_size(n)?;
        }
        if self.sizes.windows(2).any(|w| w[0] >= w[1]) {
            return Err(BenchError::Settings(format!(
                "the sizes must increase: {:?}",
                self.sizes
            )));
        }
        Ok(())
    }
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchError {
    /// The settings make no run.
    Settings(String),
    /// An implementation answered wrongly: the self-check failed.
    WrongAnswer {
        /// Which implementation.
        implementation: String,
        /// The input set's label.
        input_set: String,
        /// Which way.
        direction: Direction,
        /// The input's index in the set.
        input: usize,
        /// What differed.
        detail: String,
    },
    /// The plot could not be drawn.
    Plot(String),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Settings(why) => f.write_str(why),
            BenchError::WrongAnswer {
                implementation,
                input_set,
                direction,
                input,
                detail,
            } => write!(
                f,
                "self-check failed: {implementation} answered wrongly ({direction} {input_set}, input {input}): {detail}"
            ),
            BenchError::Plot(why) => write!(f, "cannot draw the plot: {why}"),
        }
    }
}

impl std::error::Error for BenchError {}

/// The machine a run ran on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Machine {
    /// The CPU model (`model name` of /proc/cpuinfo).
    pub cpu: String,
    /// The logical CPUs that /proc/cpuinfo lists.
    pub logical_cpus: usize,
    /// The CPUs this process may use.
    pub available_cpus: usize,
    /// The operating system and architecture.
    pub os: String,
    /// Whether punycheck was compiled with optimizations.
    pub optimized: bool,
    /// The libidn2 loaded.
    pub libidn2: String,
    /// The ICU loaded.
    pub icu: String,
}

impl Machine {
    /// This machine.
    pub fn detect() -> Self {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |name: &str| {
            cpuinfo.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == name).then(|| value.trim().to_string())
            })
        };
        let cpu = field("model name")
            .or_else(|| field("Model"))
            .or_else(|| field("Hardware"))
            .unwrap_or_else(|| "unknown CPU".into());
        let logical_cpus = cpuinfo
            .lines()
            .filter(|line| {
                line.split(':')
                    .next()
                    .is_some_and(|k| k.trim() == "processor")
            })
            .count();
        let available_cpus = std::thread::available_parallelism().map_or(1, usize::from);
        Machine {
            cpu,
            logical_cpus: logical_cpus.max(available_cpus),
            available_cpus,
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            optimized: !cfg!(debug_assertions),
            libidn2: Libidn2::library_version(),
            icu: Icu::library_version(),
        }
    }

    /// One line: `AMD EPYC, 2 logical CPUs (2 available), linux x86_64, optimized build`.
    pub fn line(&self) -> String {
        format!(
            "{}, {} logical CPUs ({} available), {}, {}",
            self.cpu,
            self.logical_cpus,
            self.available_cpus,
            self.os,
            if self.optimized {
                "optimized build"
            } else {
                "DEBUG BUILD (use --release for real numbers)"
            }
        )
    }
}

/// Times per pass of one implementation on one input set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timing {
    /// The median over the samples, in seconds per pass.
    pub median_seconds: f64,
    /// The best sample, in seconds per pass.
    pub best_seconds: f64,
    /// How many samples.
    pub samples: usize,
    /// How many passes in all, the checking pass included.
    pub passes: u64,
}

impl Timing {
    /// The time per pass that reports and plots show: the best sample's,
    /// since other processes on the machine only ever add time.
    pub fn seconds(&self) -> f64 {
        self.best_seconds
    }
}

/// What became of one implementation on one input set.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Outcome {
    /// It was checked and timed.
    Measured(Timing),
    /// It was not timed.
    Skipped {
        /// Why, in short.
        skip: Skip,
        /// Why, in words.
        reason: String,
    },
}

/// Why an implementation was not timed on an input set.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Skip {
    /// Its time per pass, extrapolated from its smaller sizes, is over the
    /// budget.
    Extrapolated {
        /// The extrapolated seconds per pass.
        seconds: f64,
    },
    /// An input is beyond a length limit of its own, or outside what it
    /// supports.
    OwnLimit,
    /// It refuses an input, as one of its listed deviations explains.
    Deviation {
        /// The deviation's id.
        id: String,
    },
    /// No implementation encoded the long input within the budget, so there
    /// is nothing to decode.
    NothingToDecode,
}

impl fmt::Display for Skip {
    /// A few words: `≥ 40.1 s extrapolated`, `own limit`, `deviation ldh-only`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Extrapolated { seconds } => {
                write!(f, "≥ {} extrapolated", format_seconds_short(*seconds))
            }
            Skip::OwnLimit => f.write_str("own limit"),
            Skip::Deviation { id } => write!(f, "deviation {id}"),
            Skip::NothingToDecode => f.write_str("no encoding"),
        }
    }
}

/// One implementation's result on one input set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The implementation.
    pub implementation: String,
    /// What became of it.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// Every implementation's result on one input set in one direction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaseResult {
    /// The input set's kind.
    pub set: SetKind,
    /// The length of the long input.
    pub size: Option<usize>,
    /// The input set's label.
    pub label: String,
    /// Which way.
    pub direction: Direction,
    /// The number of inputs (labels).
    pub inputs: usize,
    /// The number of code points of all inputs.
    pub code_points: usize,
    /// Whose answers the others were checked against (for decoding: the
    /// input that was encoded, whose encoding this implementation gave).
    pub checked_against: Option<String>,
    /// One row per implementation, in the run's order.
    pub rows: Vec<Row>,
}

impl CaseResult {
    /// The timing of `implementation`, when it was measured.
    pub fn timing(&self, implementation: &str) -> Option<&Timing> {
        self.rows.iter().find_map(|row| match &row.outcome {
            Outcome::Measured(t) if row.implementation == implementation => Some(t),
            _ => None,
        })
    }

    /// Code points per second at [`Timing::seconds`].
    pub fn code_points_per_second(&self, timing: &Timing) -> f64 {
        self.code_points as f64 / timing.seconds()
    }

    /// Inputs (labels) per second at [`Timing::seconds`].
    pub fn inputs_per_second(&self, timing: &Timing) -> f64 {
        self.inputs as f64 / timing.seconds()
    }

    /// Throughput of `implementation` over that of the reference.
    pub fn ratio_to_reference(&self, implementation: &str) -> Option<f64> {
        let own = self.timing(implementation)?;
        let reference = self.timing(REFERENCE)?;
        Some(reference.seconds() / own.seconds())
    }

    /// Throughput of `implementation` over that of the fastest other one,
    /// with that one's name.
    pub fn ratio_to_fastest_other(&self, implementation: &str) -> Option<(f64, &str)> {
        let own = self.timing(implementation)?;
        let (name, best) = self
            .rows
            .iter()
            .filter(|row| row.implementation != implementation)
            .filter_map(|row| match &row.outcome {
                Outcome::Measured(t) => Some((row.implementation.as_str(), t.seconds())),
                Outcome::Skipped { .. } => None,
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        Some((best / own.seconds(), name))
    }
}

/// What a run found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Where it ran.
    pub machine: Machine,
    /// How.
    pub settings: Settings,
    /// The implementations, in order.
    pub implementations: Vec<String>,
    /// Each input set in each direction.
    pub cases: Vec<CaseResult>,
    /// How long the run took, in seconds.
    pub seconds: f64,
}

type History = HashMap<(String, SetKind, Direction), Vec<(usize, f64)>>;

/// Runs every subject over every input set of `settings`, both ways,
/// checking before timing; `progress` is told of each measurement.
pub fn run(
    settings: &Settings,
    subjects: &[&dyn Subject],
    progress: &mut dyn FnMut(&str),
) -> Result<Report, BenchError> {
    let started = Instant::now();
    let sets = input_sets(settings)?;
    let mut history = History::new();
    let mut cases = Vec::new();
    for set in &sets {
        let (encode, decode) = run_set(settings, set, subjects, &mut history, progress)?;
        cases.push(encode);
        cases.push(decode);
    }
    Ok(Report {
        machine: Machine::detect(),
        settings: settings.clone(),
        implementations: subjects.iter().map(|s| s.name().to_string()).collect(),
        cases,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The order in which subjects encode: the reference, then its stand-in,
/// then the others as given.
fn encoding_order(subjects: &[&dyn Subject]) -> Vec<usize> {
    let rank = |name: &str| match name {
        REFERENCE => 0,
        STAND_IN => 1,
        _ => 2,
    };
    let mut order: Vec<usize> = (0..subjects.len()).collect();
    order.sort_by_key(|&i| rank(subjects[i].name()));
    order
}

/// Checks and times every subject on one input set, encoding then
/// decoding: in each direction, every subject's checking pass first, then
/// the samples of those with right answers, interleaved ([`Rounds`]).
fn run_set(
    settings: &Settings,
    set: &InputSet,
    subjects: &[&dyn Subject],
    history: &mut History,
    progress: &mut dyn FnMut(&str),
) -> Result<(CaseResult, CaseResult), BenchError> {
    let case = |direction, checked_against: Option<String>, rows: Vec<Option<Row>>| CaseResult {
        set: set.kind,
        size: set.size,
        label: set.label(),
        direction,
        inputs: set.inputs.len(),
        code_points: set.code_points(),
        checked_against,
        rows: rows.into_iter().flatten().collect(),
    };
    let encode_inputs: Vec<EncodeInput> =
        set.inputs.iter().cloned().map(EncodeInput::new).collect();
    let mut rows: Vec<Option<Row>> = vec![None; subjects.len()];
    let mut ready = Vec::new();
    let mut reference: Option<(String, Vec<Vec<u8>>)> = None;
    let order = encoding_order(subjects);
    for &i in &order {
        let subject = subjects[i];
        let checked = check_case(
            settings,
            set,
            Direction::Encode,
            subject,
            history,
            &encode_inputs,
            move |input| subject.encode(input),
            |k, got| match &reference {
                Some((name, want)) => check_encoding(subject, name, &set.inputs[k], &want[k], got),
                None => first_encoding(subject, &set.inputs[k], got),
            },
        )?;
        match checked {
            Checked::Skipped(outcome) => rows[i] = Some(row(subject, outcome)),
            Checked::Right {
                first,
                answers,
                pass,
            } => {
                if reference.is_none() {
                    reference = Some((subject.name().to_string(), answers));
                }
                ready.push(Ready {
                    index: i,
                    first,
                    pass,
                });
            }
        }
    }
    time_checked(
        settings,
        set,
        Direction::Encode,
        subjects,
        history,
        ready,
        &mut rows,
    );
    report_rows(progress, set, Direction::Encode, subjects, &order, &rows);
    let encoded = case(
        Direction::Encode,
        reference.as_ref().map(|(name, _)| name.clone()),
        rows,
    );

    let Some((encoder, encodings)) = reference else {
        let mut rows = Vec::new();
        for &subject in subjects {
            let outcome = predicted_skip(settings, history, subject.name(), set, Direction::Decode)
                .unwrap_or_else(|| Outcome::Skipped {
                    skip: Skip::NothingToDecode,
                    reason:
                        "nothing to decode: no implementation encoded this input within the budget"
                            .into(),
                });
            rows.push(Some(row(subject, outcome)));
        }
        return Ok((encoded, case(Direction::Decode, None, rows)));
    };
    let decode_inputs: Vec<DecodeInput> = encodings.into_iter().map(DecodeInput::new).collect();
    let mut rows: Vec<Option<Row>> = vec![None; subjects.len()];
    let mut ready = Vec::new();
    for (i, &subject) in subjects.iter().enumerate() {
        let checked = check_case(
            settings,
            set,
            Direction::Decode,
            subject,
            history,
            &decode_inputs,
            move |input| subject.decode(input),
            |k, got| check_decoding(subject, &decode_inputs[k].bytes, &set.inputs[k], got),
        )?;
        match checked {
            Checked::Skipped(outcome) => rows[i] = Some(row(subject, outcome)),
            Checked::Right { first, pass, .. } => ready.push(Ready {
                index: i,
                first,
                pass,
            }),
        }
    }
    time_checked(
        settings,
        set,
        Direction::Decode,
        subjects,
        history,
        ready,
        &mut rows,
    );
    let order: Vec<usize> = (0..subjects.len()).collect();
    report_rows(progress, set, Direction::Decode, subjects, &order, &rows);
    let against = format!("the encoded input ({encoder}'s encoding)");
    Ok((encoded, case(Direction::Decode, Some(against), rows)))
}

fn row(subject: &dyn Subject, outcome: Outcome) -> Row {
    Row {
        implementation: subject.name().to_string(),
        outcome,
    }
}

/// Reports the rows of one input set and direction, in `order`.
fn report_rows(
    progress: &mut dyn FnMut(&str),
    set: &InputSet,
    direction: Direction,
    subjects: &[&dyn Subject],
    order: &[usize],
    rows: &[Option<Row>],
) {
    for &i in order {
        if let Some(row) = &rows[i] {
            report_progress(progress, set, direction, subjects[i], &row.outcome);
        }
    }
}

fn report_progress(
    progress: &mut dyn FnMut(&str),
    set: &InputSet,
    direction: Direction,
    subject: &dyn Subject,
    outcome: &Outcome,
) {
    let what = match outcome {
        Outcome::Measured(t) => format!(
            "{} per pass (median {}, {} samples)",
            format_seconds(t.seconds()),
            format_seconds(t.median_seconds),
            t.samples
        ),
        Outcome::Skipped { reason, .. } => format!("skipped: {reason}"),
    };
    progress(&format!(
        "{direction} {}: {} {what}",
        set.label(),
        subject.name()
    ));
}

/// What the self-check made of one answer.
enum Check {
    /// The expected answer.
    Right,
    /// The implementation cannot take this input: skip the set.
    CannotTake(Skip, String),
    /// A wrong answer: fail the run.
    Wrong(String),
}

/// Checks the first implementation to encode, which becomes the reference:
/// only that it answered.
fn first_encoding(
    subject: &dyn Subject,
    input: &[u32],
    got: &Result<Vec<u8>, EngineError>,
) -> Check {
    match got {
        Ok(_) => Check::Right,
        Err(e) => refusal(
            subject,
            Request::Encode {
                code_points: input.to_vec(),
                flags: None,
            },
            None,
            e,
        ),
    }
}

fn check_encoding(
    subject: &dyn Subject,
    reference: &str,
    input: &[u32],
    want: &[u8],
    got: &Result<Vec<u8>, EngineError>,
) -> Check {
    match got {
        Ok(bytes) if bytes == want => Check::Right,
        Ok(bytes) => Check::Wrong(format!(
            "its encoding differs from {reference}'s: {}",
            first_difference(bytes, want, |b| format!("{:?}", char::from(*b)))
        )),
        Err(e) => refusal(
            subject,
            Request::Encode {
                code_points: input.to_vec(),
                flags: None,
            },
            Some(Expected::Encoded(want.to_vec())),
            e,
        ),
    }
}

fn check_decoding(
    subject: &dyn Subject,
    bytes: &[u8],
    want: &[u32],
    got: &Result<Vec<u32>, EngineError>,
) -> Check {
    match got {
        Ok(cps) if cps == want => Check::Right,
        Ok(cps) => Check::Wrong(format!(
            "its decoding differs from the code points that were encoded: {}",
            first_difference(cps, want, |cp| format!("U+{cp:04X}"))
        )),
        Err(e) => refusal(
            subject,
            Request::Decode(bytes.to_vec()),
            Some(Expected::Decoded(CodePoints::with_flags(want, None))),
            e,
        ),
    }
}

/// A failure to answer: an input it cannot take (its own limit, or a
/// listed deviation that explains the refusal), or a wrong answer.
fn refusal(
    subject: &dyn Subject,
    request: Request,
    reference: Option<Expected>,
    error: &EngineError,
) -> Check {
    match error {
        EngineError::Limit(why) => {
            return Check::CannotTake(Skip::OwnLimit, format!("its own limit: {why}"));
        }
        EngineError::Unsupported(why) => {
            return Check::CannotTake(Skip::OwnLimit, format!("unsupported: {why}"));
        }
        _ => {}
    }
    if let Some(reference) = &reference {
        let got = match error {
            EngineError::Rejected(Some(kind)) => Ok(Expected::Error(*kind)),
            other => Err(other.clone()),
        };
        if let Some(deviation) = subject
            .deviations()
            .iter()
            .find(|d| (d.explains)(&request, reference, &got))
        {
            return Check::CannotTake(
                Skip::Deviation {
                    id: deviation.id.to_string(),
                },
                format!(
                    "refuses {request_text} ({error}): listed deviation {}",
                    deviation.id,
                    request_text = shortened(&request.to_string())
                ),
            );
        }
    }
    Check::Wrong(format!("{error}, where the answer is known"))
}

fn shortened(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX).collect();
    format!("{head}...")
}

/// Where two sequences first differ.
fn first_difference<T: PartialEq>(got: &[T], want: &[T], show: impl Fn(&T) -> String) -> String {
    let at = got.iter().zip(want).position(|(a, b)| a != b);
    match at {
        Some(k) => format!(
            "at element {k} of {}, {} where {} was expected (length {} expected)",
            got.len(),
            show(&got[k]),
            show(&want[k]),
            want.len()
        ),
        None => format!(
            "it has {} elements where {} were expected",
            got.len(),
            want.len()
        ),
    }
}

/// The skip of a long input, extrapolated from the implementation's
/// smaller sizes, or `None` to run it.
fn predicted_skip(
    settings: &Settings,
    history: &History,
    name: &str,
    set: &InputSet,
    direction: Direction,
) -> Option<Outcome> {
    let size = set.size?;
    let past = history.get(&(name.to_string(), set.kind, direction))?;
    let &(n1, t1) = past.last()?;
    let (growth, how) = match past.len() {
        0 | 1 => (
            1.0,
            format!(
                "from {} at {}, growing at least linearly",
                format_seconds(t1),
                size_label(n1)
            ),
        ),
        len => {
            let (n0, t0) = past[len - 2];
            let k = (t1 / t0).ln() / (n1 as f64 / n0 as f64).ln();
            let k = if k.is_finite() {
                k.clamp(1.0, 3.0)
            } else {
                1.0
            };
            (
                k,
                format!(
                    "{} at {}, time growing as n^{k:.2} from {}",
                    format_seconds(t1),
                    size_label(n1),
                    size_label(n0)
                ),
            )
        }
    };
    let predicted = t1 * (size as f64 / n1 as f64).powf(growth);
    (predicted > settings.seconds_per_case).then(|| Outcome::Skipped {
        skip: Skip::Extrapolated { seconds: predicted },
        reason: format!(
            "extrapolated ≥ {} per pass ({how}), over the budget of {}",
            format_seconds(predicted),
            format_seconds(settings.seconds_per_case)
        ),
    })
}

/// What the checking pass made of one subject on one input set.
enum Checked<'a, O> {
    /// Not timed: skipped by extrapolation, or an input it cannot take.
    Skipped(Outcome),
    /// Every answer was right: ready for timing.
    Right {
        /// The checking pass's time, in seconds.
        first: f64,
        /// Its answers.
        answers: Vec<O>,
        /// One timed pass over the input set.
        pass: Box<dyn FnMut() + 'a>,
    },
}

/// Runs the checking pass of one subject on one input set, timed, and
/// checks every answer; a wrong answer fails the run.
#[allow(clippy::too_many_arguments)]
fn check_case<'a, I, O>(
    settings: &Settings,
    set: &InputSet,
    direction: Direction,
    subject: &dyn Subject,
    history: &History,
    inputs: &'a [I],
    call: impl Fn(&I) -> Result<O, EngineError> + 'a,
    check: impl Fn(usize, &Result<O, EngineError>) -> Check,
) -> Result<Checked<'a, O>, BenchError> {
    if let Some(skipped) = predicted_skip(settings, history, subject.name(), set, direction) {
        return Ok(Checked::Skipped(skipped));
    }
    let started = Instant::now();
    let answers: Vec<Result<O, EngineError>> = inputs.iter().map(&call).collect();
    let first = started.elapsed().as_secs_f64();
    for (k, answer) in answers.iter().enumerate() {
        match check(k, answer) {
            Check::Right => {}
            Check::CannotTake(skip, reason) => {
                let reason = if set.inputs.len() > 1 {
                    format!("input {k}: {reason}")
                } else {
                    reason
                };
                return Ok(Checked::Skipped(Outcome::Skipped { skip, reason }));
            }
            Check::Wrong(detail) => {
                return Err(BenchError::WrongAnswer {
                    implementation: subject.name().to_string(),
                    input_set: set.label(),
                    direction,
                    input: k,
                    detail,
                });
            }
        }
    }
    Ok(Checked::Right {
        first,
        answers: answers.into_iter().flatten().collect(),
        pass: Box::new(move || {
            for input in inputs {
                let _ = black_box(call(black_box(input)));
            }
        }),
    })
}

/// A subject checked on one input set, to be timed.
struct Ready<'a> {
    /// Its index in the run's subjects.
    index: usize,
    /// Its checking pass's time, in seconds.
    first: f64,
    /// One pass over the input set.
    pass: Box<dyn FnMut() + 'a>,
}

/// Times the subjects checked on one input set in one direction, their
/// samples interleaved ([`Rounds`]), fills in their rows, and records the
/// medians of long inputs for extrapolation.
fn time_checked(
    settings: &Settings,
    set: &InputSet,
    direction: Direction,
    subjects: &[&dyn Subject],
    history: &mut History,
    mut ready: Vec<Ready<'_>>,
    rows: &mut [Option<Row>],
) {
    let firsts: Vec<f64> = ready.iter().map(|r| r.first).collect();
    let mut rounds = Rounds::new(settings, &firsts);
    loop {
        let order = rounds.next_round();
        if order.is_empty() {
            break;
        }
        for k in order {
            let iterations = rounds.iterations(k);
            let pass = &mut ready[k].pass;
            let start = Instant::now();
            for _ in 0..iterations {
                pass();
            }
            rounds.record(k, start.elapsed().as_secs_f64());
        }
    }
    for (r, timing) in ready.iter().zip(rounds.timings()) {
        let subject = subjects[r.index];
        if let Some(size) = set.size {
            history
                .entry((subject.name().to_string(), set.kind, direction))
                .or_default()
                .push((size, timing.median_seconds));
        }
        rows[r.index] = Some(row(subject, Outcome::Measured(timing)));
    }
}

/// The timed samples of the subjects of one input set in one direction,
/// taken in rounds: each round, one sample of each subject still within its
/// budget, starting at the next subject each round, so that noise on the
/// machine falls on every subject alike.
///
/// A subject's budget ([`Settings::seconds_per_case`]) counts its own time
/// only: its checking pass and its samples. It takes no sample when the
/// checking pass took half the budget or more; otherwise up to
/// [`Settings::repetitions`] samples, each of as many passes as its checking
/// pass says fit in [`Settings::sample_seconds`] (at most a
/// `2 * repetitions`th of the budget), at least one, and no further one
/// when its time so far plus the last sample's time would exceed the budget.
#[derive(Clone, Debug)]
struct Rounds {
    budget: f64,
    repetitions: usize,
    /// The rounds started so far.
    round: usize,
    subjects: Vec<Sampling>,
}

/// One subject's samples so far.
#[derive(Clone, Debug)]
struct Sampling {
    /// The checking pass, in seconds.
    first: f64,
    /// Passes per sample.
    iterations: u64,
    /// Its time so far: the checking pass and its samples, in seconds.
    spent: f64,
    /// Each sample's time per pass, in seconds.
    per_pass: Vec<f64>,
    /// Whether it may take more samples.
    running: bool,
}

impl Rounds {
    /// The samples of subjects whose checking passes took `firsts` seconds.
    fn new(settings: &Settings, firsts: &[f64]) -> Self {
        let budget = settings.seconds_per_case;
        let target = settings
            .sample_seconds
            .min(budget / (2.0 * settings.repetitions as f64));
        Rounds {
            budget,
            repetitions: settings.repetitions,
            round: 0,
            subjects: firsts
                .iter()
                .map(|&first| Sampling {
                    first,
                    iterations: (target / first.max(1e-9)).ceil().clamp(1.0, 1e9) as u64,
                    spent: first,
                    per_pass: Vec::new(),
                    running: first * 2.0 < budget,
                })
                .collect(),
        }
    }

    /// The subjects that take a sample in the next round, in the order they
    /// take it: those still within their budget, starting at the round's
    /// number modulo their count. Empty when every subject is done.
    fn next_round(&mut self) -> Vec<usize> {
        let (budget, repetitions) = (self.budget, self.repetitions);
        for s in self.subjects.iter_mut().filter(|s| s.running) {
            let estimate = s.per_pass.last().copied().unwrap_or(s.first) * s.iterations as f64;
            if s.per_pass.len() >= repetitions
                || (!s.per_pass.is_empty() && s.spent + estimate > budget)
            {
                s.running = false;
            }
        }
        let mut order: Vec<usize> = (0..self.subjects.len())
            .filter(|&k| self.subjects[k].running)
            .collect();
        if !order.is_empty() {
            let start = self.round % order.len();
            order.rotate_left(start);
            self.round += 1;
        }
        order
    }

    /// How many passes a sample of subject `k` runs.
    fn iterations(&self, k: usize) -> u64 {
        self.subjects[k].iterations
    }

    /// Records a sample of subject `k` that took `seconds`.
    fn record(&mut self, k: usize, seconds: f64) {
        let s = &mut self.subjects[k];
        s.spent += seconds;
        s.per_pass.push(seconds / s.iterations as f64);
    }

    /// Each subject's timing: over its samples, or the checking pass alone
    /// when it took none.
    fn timings(&self) -> Vec<Timing> {
        self.subjects.iter().map(Sampling::timing).collect()
    }
}

impl Sampling {
    fn timing(&self) -> Timing {
        if self.per_pass.is_empty() {
            return Timing {
                median_seconds: self.first,
                best_seconds: self.first,
                samples: 1,
                passes: 1,
            };
        }
        let mut per_pass = self.per_pass.clone();
        per_pass.sort_by(f64::total_cmp);
        let middle = per_pass.len() / 2;
        let median = if !per_pass.len().is_multiple_of(2) {
            per_pass[middle]
        } else {
            (per_pass[middle - 1] + per_pass[middle]) / 2.0
        };
        Timing {
            median_seconds: median,
            best_seconds: per_pass[0],
            samples: per_pass.len(),
            passes: 1 + self.iterations * per_pass.len() as u64,
        }
    }
}

/// Seconds with a unit: `15.2 µs`, `3.41 ms`, `4.02 s`.
pub fn format_seconds(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.3} s")
    } else if seconds >= 1e-3 {
        format!("{:.3} ms", seconds * 1e3)
    } else if seconds >= 1e-6 {
        format!("{:.3} µs", seconds * 1e6)
    } else {
        format!("{:.1} ns", seconds * 1e9)
    }
}

/// Seconds in three significant digits at most: `40.1 s`, `4170 s`,
/// `12.3 ms`.
fn format_seconds_short(seconds: f64) -> String {
    if seconds >= 100.0 {
        format!("{seconds:.0} s")
    } else if seconds >= 1.0 {
        format!("{seconds:.1} s")
    } else {
        format!("{:.1} ms", seconds * 1e3)
    }
}

/// A rate with an SI prefix: `38.2 M`, `512 k`.
pub fn format_rate(rate: f64) -> String {
    if rate >= 1e9 {
        format!("{:.3} G", rate / 1e9)
    } else if rate >= 1e6 {
        format!("{:.3} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.3} k", rate / 1e3)
    } else {
        format!("{rate:.3}")
    }
}

/// The columns of one table row: implementation, best time per pass, code
/// points/s, inputs/s, ratio to the reference, ratio to the fastest other.
fn row_cells(case: &CaseResult, row: &Row) -> Vec<String> {
    match &row.outcome {
        Outcome::Measured(t) => vec![
            row.implementation.clone(),
            format_seconds(t.seconds()),
            format_rate(case.code_points_per_second(t)),
            if case.set.is_long() {
                "-".into()
            } else {
                format_rate(case.inputs_per_second(t))
            },
            case.ratio_to_reference(&row.implementation)
                .map_or_else(|| "-".into(), |r| format!("{r:.2}")),
            case.ratio_to_fastest_other(&row.implementation)
                .map_or_else(|| "-".into(), |(r, name)| format!("{r:.2} ({name})")),
        ],
        Outcome::Skipped { reason, .. } => {
            vec![row.implementation.clone(), format!("skipped: {reason}")]
        }
    }
}

const COLUMNS: [&str; 8] = [
    "input",
    "dir",
    "implementation",
    "best/pass",
    "code points/s",
    "labels/s",
    "vs rfc-c",
    "vs fastest other",
];

impl Report {
    /// The header lines: the machine, the libraries, the settings.
    pub fn header(&self) -> String {
        header(&self.machine, &self.settings)
    }

    /// The header and the table.
    pub fn to_text(&self) -> String {
        self.header() + &self.table()
    }

    /// The table: one block per input set and direction, throughput at the
    /// best pass, ratios of throughput (above 1: faster).
    pub fn table(&self) -> String {
        let mut out = String::new();
        let mut widths = [0usize; 8];
        let mut lines: Vec<Vec<String>> = Vec::new();
        for case in &self.cases {
            for (k, row) in case.rows.iter().enumerate() {
                let (input, direction) = if k == 0 {
                    (case.label.clone(), case.direction.to_string())
                } else {
                    (String::new(), String::new())
                };
                let mut cells = vec![input, direction];
                cells.extend(row_cells(case, row));
                lines.push(cells);
            }
        }
        for cells in std::iter::once(&COLUMNS.map(String::from).to_vec()).chain(&lines) {
            if cells.len() == COLUMNS.len() {
                for (w, c) in widths.iter_mut().zip(cells) {
                    *w = (*w).max(c.chars().count());
                }
            }
        }
        let _ = writeln!(out);
        for (n, cells) in std::iter::once(&COLUMNS.map(String::from).to_vec())
            .chain(&lines)
            .enumerate()
        {
            if n > 0 && !cells[0].is_empty() {
                let _ = writeln!(out);
            }
            let mut line = String::new();
            for (k, cell) in cells.iter().enumerate() {
                let numeric = (3..=6).contains(&k) && cells.len() == COLUMNS.len();
                let width = if k + 1 == cells.len() { 0 } else { widths[k] };
                if numeric {
                    let _ = write!(line, "{cell:>width$}  ");
                } else {
                    let _ = write!(line, "{cell:<width$}  ");
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        let _ = writeln!(
            out,
            "\nvs rfc-c, vs fastest other: throughput ratios (above 1: faster); labels/s for the label sets.\nEvery answer was checked against the reference before timing. {:.1} s in all.",
            self.seconds
        );
        out
    }

    /// A compact Markdown table, for the README: one row per input set and
    /// direction, one column per implementation, each cell the code points
    /// per second at the best pass and the ratio to the reference's, or
    /// why it was skipped in a few words.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "| input | dir | {} |",
            self.implementations.join(" | ")
        );
        let _ = writeln!(
            out,
            "|---|---|{}",
            "---:|".repeat(self.implementations.len())
        );
        for case in &self.cases {
            let cells: Vec<String> = self
                .implementations
                .iter()
                .map(
                    |name| match case.rows.iter().find(|r| &r.implementation == name) {
                        Some(Row {
                            outcome: Outcome::Measured(t),
                            ..
                        }) => match case.ratio_to_reference(name) {
                            Some(ratio) if name != REFERENCE => {
                                format!(
                                    "{} ({ratio:.2})",
                                    format_rate(case.code_points_per_second(t))
                                )
                            }
                            _ => format_rate(case.code_points_per_second(t)),
                        },
                        Some(Row {
                            outcome: Outcome::Skipped { skip, .. },
                            ..
                        }) => format!("*{skip}*"),
                        None => "-".into(),
                    },
                )
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                case.label,
                case.direction,
                cells.join(" | ")
            );
        }
        out
    }

    /// The whole report as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// The header of a run's output: where it runs and how.
pub fn header(machine: &Machine, settings: &Settings) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "punycheck bench{}",
        if settings.quick { " --quick" } else { "" }
    );
    let _ = writeln!(out, "machine:   {}", machine.line());
    let _ = writeln!(
        out,
        "libraries: libidn2 {}, ICU {}, idna crate (idna::punycode)",
        machine.libidn2, machine.icu
    );
    let sizes: Vec<String> = settings.sizes.iter().map(|&n| size_label(n)).collect();
    let _ = writeln!(
        out,
        "inputs:    RFC 3492 7.1 samples, {} random labels, long inputs of {} code points (seed {}); encoded without case flags",
        settings.labels,
        sizes.join(", "),
        settings.seed
    );
    let _ = writeln!(
        out,
        "timing:    best of up to {} samples of ~{} each (median in the JSON), {} per implementation and input set",
        settings.repetitions,
        format_seconds(settings.sample_seconds),
        format_seconds(settings.seconds_per_case)
    );
    out
}

/// The colours of the plot's lines, by implementation index.
pub const PALETTE: [(u8, u8, u8); 8] = [
    (0x1F, 0x77, 0xB4),
    (0xD6, 0x27, 0x28),
    (0x2C, 0xA0, 0x2C),
    (0xFF, 0x7F, 0x0E),
    (0x94, 0x67, 0xBD),
    (0x8C, 0x56, 0x4B),
    (0xE3, 0x77, 0xC2),
    (0x7F, 0x7F, 0x7F),
];

/// The plot's panels, in order: direction and long input kind.
pub const PANELS: [(Direction, SetKind); 4] = [
    (Direction::Encode, SetKind::ManyDistinct),
    (Direction::Encode, SetKind::FewDistinct),
    (Direction::Decode, SetKind::ManyDistinct),
    (Direction::Decode, SetKind::FewDistinct),
];

/// The measured points of one panel: per implementation index, (length,
/// best seconds per pass), by increasing length.
pub fn panel_series(
    report: &Report,
    direction: Direction,
    kind: SetKind,
) -> Vec<(usize, Vec<(f64, f64)>)> {
    report
        .implementations
        .iter()
        .enumerate()
        .filter_map(|(index, name)| {
            let points: Vec<(f64, f64)> = report
                .cases
                .iter()
                .filter(|c| c.set == kind && c.direction == direction)
                .filter_map(|c| Some((c.size? as f64, c.timing(name)?.seconds())))
                .collect();
            (!points.is_empty()).then_some((index, points))
        })
        .collect()
}

fn plot_error(e: impl fmt::Display) -> BenchError {
    BenchError::Plot(e.to_string())
}

/// The plot as SVG: time per pass against input length, log-log, one panel
/// per direction and long input kind, one line (with a mark per size) per
/// implementation in its [`PALETTE`] colour.
pub fn plot_svg(report: &Report) -> Result<String, BenchError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1200, 900)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let title = format!(
            "punycheck bench: time per pass against input length ({})",
            report.machine.cpu
        );
        let root = root
            .titled(&title, ("sans-serif", 20))
            .map_err(plot_error)?;
        for (area, (direction, kind)) in root.split_evenly((2, 2)).iter().zip(PANELS) {
            let series = panel_series(report, direction, kind);
            // Every size of the run, measured or not, on every panel.
            let xs = report.settings.sizes.iter().map(|&n| n as f64);
            let ys = series.iter().flat_map(|(_, p)| p.iter().map(|&(_, y)| y));
            let (x0, x1) = bounds(xs, (1e3, 1e6));
            let (y0, y1) = bounds(ys, (1e-6, 1.0));
            let caption = if series.is_empty() {
                format!("{direction}, {} (nothing measured)", kind.name())
            } else {
                format!("{direction}, {}", kind.name())
            };
            let mut chart = ChartBuilder::on(area)
                .caption(caption, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
                .map_err(plot_error)?;
            chart
                .configure_mesh()
                .x_desc("input length (code points)")
                .y_desc("seconds per pass (best of N)")
                .x_label_formatter(&|x| format!("{x:.0e}"))
                .y_label_formatter(&|y| format!("{y:.0e}"))
                .draw()
                .map_err(plot_error)?;
            for (index, points) in series {
                let (r, g, b) = PALETTE[index % PALETTE.len()];
                let color = RGBColor(r, g, b);
                chart
                    .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                    .map_err(plot_error)?
                    .label(report.implementations[index].as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                    });
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(plot_error)?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()
                .map_err(plot_error)?;
        }
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// A log axis range around `values` (a factor of 2 beyond each end), or
/// `fallback` when there are none.
fn bounds(values: impl Iterator<Item = f64>, fallback: (f64, f64)) -> (f64, f64) {
    let (low, high) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if low.is_finite() && high > 0.0 {
        (low / 2.0, high * 2.0)
    } else {
        fallback
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_labels() {
        assert_eq!(size_label(1_000), "10^3");
        assert_eq!(size_label(1_000_000), "10^6");
        assert_eq!(size_label(100), "100");
        assert_eq!(size_label(5_000), "5000");
    }

    #[test]
    fn the_inputs_are_what_they_say() {
        let samples = rfc_samples();
        assert_eq!(samples.len(), 19, "RFC 3492 7.1 has samples A to S");
        let labels = random_labels(SEED, 300);
        assert_eq!(labels, random_labels(SEED, 300), "seeded");
        assert_ne!(labels, random_labels(SEED + 1, 300));
        for label in &labels {
            assert!(label.iter().any(|&cp| cp >= 0x80), "{label:X?}");
            assert!(label.iter().all(|&cp| char::from_u32(cp).is_some()));
            let encoded = c_reference::encode(label, None).expect("encodes");
            assert!(encoded.len() <= MAX_LABEL_PUNYCODE, "{label:X?}");
        }
        let many = many_distinct(10_000, SEED).expect("size");
        let mut sorted = many.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 10_000, "distinct");
        assert_ne!(many, sorted, "shuffled");
        let few = few_distinct(10_000, SEED).expect("size");
        let mut distinct: Vec<u32> = few.iter().copied().filter(|&cp| cp >= 0x80).collect();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct, FEW_DISTINCT);
        assert!(many_distinct(MAX_SIZE + 1, SEED).is_err());
        assert!(few_distinct(0, SEED).is_err());
    }

    #[test]
    fn the_largest_inputs_encode_without_overflow() {
        // The C reference is quadratic on many-distinct, so this checks the
        // largest delta arithmetically: every first delta (m - n) * (h + 1)
        // stays below 2^32 (RFC 3492 section 6.4), which the generator's
        // choice of code points guarantees.
        let n = MAX_SIZE as u64;
        let few_first = (u64::from(FEW_DISTINCT[0]) - 0x80) * (n + 1);
        let few_gaps = FEW_DISTINCT
            .windows(2)
            .map(|w| u64::from(w[1] - w[0]) * (n + 1))
            .max()
            .unwrap_or(0);
        assert!(few_first.max(few_gaps) + n < u64::from(u32::MAX));
        // many-distinct: consecutive values, except the surrogate gap.
        let before_gap = scalars_from_a0().take_while(|&cp| cp < 0xD800).count() as u64;
        assert!(0x801 * (before_gap + 1) + n < u64::from(u32::MAX));
        assert!(many_distinct(MAX_SIZE, SEED).is_ok());
        assert!(few_distinct(MAX_SIZE, SEED).is_ok());
    }

    #[test]
    fn settings_caps_and_checks() {
        let full = Settings::full();
        assert_eq!(
            full.clone().with_max_size(10_000).unwrap().sizes,
            [1_000, 10_000]
        );
        assert_eq!(
            full.clone().with_max_size(5_000).unwrap().sizes,
            [1_000, 5_000]
        );
        assert_eq!(full.clone().with_max_size(100).unwrap().sizes, [100]);
        assert_eq!(full.clone().with_max_size(MAX_SIZE).unwrap().sizes, SIZES);
        assert!(full.clone().with_max_size(0).is_err());
        assert!(full.clone().with_max_size(MAX_SIZE + 1).is_err());
        assert!(full.clone().with_seconds_per_case(0.0).is_err());
        assert!(full.clone().with_seconds_per_case(f64::NAN).is_err());
        assert_eq!(
            Settings::quick().with_max_size(MAX_SIZE).unwrap().sizes,
            QUICK_SIZES
        );
    }

    #[test]
    fn extrapolation_uses_the_measured_growth() {
        let settings = Settings::full();
        let set = InputSet {
            kind: SetKind::ManyDistinct,
            size: Some(100_000),
            inputs: Vec::new(),
        };
        let mut history = History::new();
        let key = ("x".to_string(), SetKind::ManyDistinct, Direction::Encode);
        assert_eq!(
            predicted_skip(&settings, &history, "x", &set, Direction::Encode),
            None
        );
        // Quadratic: 0.01 s at 10^3, 1 s at 10^4, so 100 s at 10^5.
        history.insert(key.clone(), vec![(1_000, 0.01), (10_000, 1.0)]);
        let Some(Outcome::Skipped { skip, reason }) =
            predicted_skip(&settings, &history, "x", &set, Direction::Encode)
        else {
            panic!("over the budget")
        };
        let Skip::Extrapolated { seconds } = skip else {
            panic!("{skip:?}")
        };
        assert!((seconds - 100.0).abs() < 1e-6, "{seconds}");
        assert_eq!(skip.to_string(), "≥ 100 s extrapolated");
        assert!(reason.contains("≥ 100.000 s"), "{reason}");
        assert!(reason.contains("n^2.00"), "{reason}");
        // One size only: at least linear, 10 × 0.5 s = 5 s: within 10 s.
        history.insert(key, vec![(10_000, 0.5)]);
        assert_eq!(
            predicted_skip(&settings, &history, "x", &set, Direction::Encode),
            None
        );
    }

    /// Runs `rounds` to the end without timing anything: a sample of
    /// subject `k`, its `n`th, takes `per_pass(k, n)` seconds per pass.
    /// Returns the order of each round.
    fn simulate(rounds: &mut Rounds, per_pass: impl Fn(usize, usize) -> f64) -> Vec<Vec<usize>> {
        let mut taken = vec![0; rounds.subjects.len()];
        let mut orders = Vec::new();
        loop {
            let order = rounds.next_round();
            if order.is_empty() {
                return orders;
            }
            for &k in &order {
                let seconds = per_pass(k, taken[k]) * rounds.iterations(k) as f64;
                rounds.record(k, seconds);
                taken[k] += 1;
            }
            orders.push(order);
        }
    }

    #[test]
    fn samples_rotate_over_the_subjects_round_by_round() {
        // About 1 ms per pass: 52 passes make a sample of about 50 ms, far
        // within the budget of 10 s, so each subject takes 7 samples.
        let first = 1.0 / 1024.0;
        let mut rounds = Rounds::new(&Settings::full(), &[first; 3]);
        let orders = simulate(&mut rounds, |_, _| first);
        assert_eq!(
            orders,
            [
                [0, 1, 2],
                [1, 2, 0],
                [2, 0, 1],
                [0, 1, 2],
                [1, 2, 0],
                [2, 0, 1],
                [0, 1, 2]
            ]
        );
        for timing in rounds.timings() {
            assert_eq!(timing.samples, 7);
            assert_eq!(timing.passes, 1 + 7 * 52);
            assert_eq!(timing.best_seconds, first);
            assert_eq!(timing.median_seconds, first);
        }
        let mut none = Rounds::new(&Settings::full(), &[]);
        assert!(none.next_round().is_empty());
        assert!(none.timings().is_empty());
    }

    #[test]
    fn each_subject_samples_within_its_own_budget() {
        let settings = Settings {
            seconds_per_case: 1.0,
            ..Settings::full()
        };
        // 0: the checking pass took half the budget, so no samples.
        // 1: one pass per sample, slow samples (0.25, 0.1875, 0.3125 s):
        //    its own time is 0.125 + 0.75 = 0.875 s after three, and a
        //    fourth like the last would end at 1.1875 s, over the budget.
        // 2: about 50 ms samples: all 7 fit.
        let firsts = [0.5, 0.125, 1.0 / 1024.0];
        let mut rounds = Rounds::new(&settings, &firsts);
        assert_eq!(
            (0..3).map(|k| rounds.iterations(k)).collect::<Vec<_>>(),
            [1, 1, 52]
        );
        let slow = [0.25, 0.1875, 0.3125];
        let orders = simulate(&mut rounds, |k, n| match k {
            1 => slow[n],
            _ => firsts[k],
        });
        let expected: [&[usize]; 7] = [&[1, 2], &[2, 1], &[1, 2], &[2], &[2], &[2], &[2]];
        assert_eq!(orders, expected);
        let timings = rounds.timings();
        assert_eq!(
            timings[0],
            Timing {
                median_seconds: 0.5,
                best_seconds: 0.5,
                samples: 1,
                passes: 1,
            }
        );
        assert_eq!(
            timings[1],
            Timing {
                median_seconds: 0.25,
                best_seconds: 0.1875,
                samples: 3,
                passes: 4,
            }
        );
        assert_eq!((timings[2].samples, timings[2].passes), (7, 1 + 7 * 52));
        // Two samples: the median is their mean.
        let mut rounds = Rounds::new(&settings, &[0.125]);
        let orders = simulate(&mut rounds, |_, n| [0.25, 0.5][n]);
        assert_eq!(orders, [[0], [0]]);
        assert_eq!(rounds.timings()[0].median_seconds, 0.375);
    }

    #[test]
    fn ratios_compare_throughput() {
        let timing = |s: f64| {
            Outcome::Measured(Timing {
                median_seconds: s,
                best_seconds: s,
                samples: 1,
                passes: 1,
            })
        };
        let case = CaseResult {
            set: SetKind::Labels,
            size: None,
            label: "labels (10)".into(),
            direction: Direction::Encode,
            inputs: 10,
            code_points: 100,
            checked_against: None,
            rows: vec![
                Row {
                    implementation: REFERENCE.into(),
                    outcome: timing(2.0),
                },
                Row {
                    implementation: "fast".into(),
                    outcome: timing(1.0),
                },
                Row {
                    implementation: "slow".into(),
                    outcome: timing(4.0),
                },
                Row {
                    implementation: "none".into(),
                    outcome: Outcome::Skipped {
                        skip: Skip::OwnLimit,
                        reason: "r".into(),
                    },
                },
            ],
        };
        assert_eq!(case.ratio_to_reference("fast"), Some(2.0));
        assert_eq!(case.ratio_to_reference("none"), None);
        assert_eq!(case.ratio_to_fastest_other("slow"), Some((0.25, "fast")));
        assert_eq!(case.ratio_to_fastest_other("fast"), Some((2.0, REFERENCE)));
        let t = case.timing("fast").expect("measured");
        assert_eq!(case.code_points_per_second(t), 100.0);
        assert_eq!(case.inputs_per_second(t), 10.0);
    }
}
