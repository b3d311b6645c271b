//! The input sets of a run ([`input_sets`]): the samples of RFC 3492
//! section 7.1, seeded random labels, and long inputs of many or few
//! distinct code points at each size of the run, all made of Unicode scalar
//! values. A new input set is a [`SetKind`] variant (its name, whether it
//! is long), its generator, and its place in [`input_sets`], all here.

use std::fmt;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::{BenchError, Settings};
use crate::c_reference;
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

pub(super) fn check_size(length: usize) -> Result<(), BenchError> {
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
}
