//! The cost probe's families of long inputs ([`Family`]), each expensive
//! for one algorithm, and their notation `FAMILY:N` (`distinct-shuffled:16384`:
//! that family's first 16,384 code points), which every text of code point
//! tokens takes ([`super::CodePoints::parse`]), so that a slow input of a
//! hundred kilobytes is written in a few words.

/// A family of adversarial inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// Distinct code points, ascending from U+4E00 (CJK): the RFC
    /// encoder's outer loop runs once per distinct code point over the
    /// whole input (quadratic); the decoder's array insertions too.
    DistinctAscending,
    /// The same code points, descending: every insertion of a decoder
    /// that inserts into an array lands at the front, moving everything.
    DistinctDescending,
    /// The same code points, shuffled (a fixed permutation): neither end
    /// is cheap; defeats an insertion that is fast only at the end.
    DistinctShuffled,
    /// Distinct astral code points from U+20000: four UTF-8 bytes and two
    /// UTF-16 units each, for implementations that convert or index in
    /// those units (surrogate-pair handling per code point).
    DistinctAstral,
    /// A long basic run, then four non-basic code points (U+00E9 to
    /// U+4E01): every delta carries
    /// the basic run's length in `i`; an encoder or decoder that rescans
    /// the basic code points per insertion pays for all of them.
    BasicThenFew,
    /// One non-basic code point repeated: the decoder inserts each one
    /// right after the previous, and an array decoder moves the tail each
    /// time.
    OneRun,
    /// Alternating far-apart code points (U+0080 and U+10000): the
    /// largest deltas that no size up to 2^16 makes overflow, so the
    /// longest variable-length integers and the adaptation function's
    /// largest biases, and a surrogate pair every other code point in
    /// UTF-16.
    Alternating,
    /// U+0660 ARABIC-INDIC DIGIT ZERO repeated: a CONTEXTO code point
    /// (RFC 5892 A.8) whose rule looks at the whole label, so checking it
    /// for each occurrence, before the length check, is quadratic
    /// (CVE-2026-45409, which bypassed the fix of CVE-2024-3651). Names
    /// only.
    ArabicIndicZeros,
    /// A letter, then combining marks of two classes alternating (U+0301,
    /// class 230, and U+0316, class 220): NFC's canonical ordering sorts
    /// the whole run, and a reordering by insertion is quadratic
    /// (kjd/idna#249). Names only.
    CombiningMarks,
    /// U+00AD SOFT HYPHEN repeated, then a letter: UTS #46 mapping removes
    /// every one, so the work is done before any length is known. Names
    /// only.
    SoftHyphens,
    /// A name of many labels of one ASCII letter each (`a.b.c...`, a
    /// first label taking what is left over): ToASCII and ToUnicode that
    /// walk the whole name once per label (a split by repeated search, a
    /// join that copies what came before) are quadratic in the number of
    /// labels, the other way a URL's host grows (a runtime's
    /// domainToUnicode took 5 s on 32,768 labels where Node took 7 ms, a
    /// report of 2026). Both directions ask the name itself. Names only.
    ManyAsciiLabels,
    /// A name of many A-labels of one Latin-1 letter each
    /// (`xn--0ca.xn--1ca...`): every label to decode, in ToUnicode, and to
    /// decode and check in ToASCII (UTS #46 section 4, step 4). Both
    /// directions ask the name itself. Names only.
    ManyALabels,
    /// A name of many U-labels of one Latin-1 letter each (`à.á.â...`):
    /// every label to encode in ToASCII, and to check in ToUnicode. Both
    /// directions ask the name itself. Names only.
    ManyULabels,
    /// A name of many ASCII labels split by U+3002 IDEOGRAPHIC FULL STOP
    /// (`a。b。c...`), which mapping makes a full stop before the split
    /// (UTS #46 section 4, step 1): the split of a mapped name. Both
    /// directions ask the name itself. Names only.
    MappedDots,
}

impl Family {
    /// Every family, in the order probed.
    pub const ALL: [Family; 7] = [
        Family::DistinctAscending,
        Family::DistinctDescending,
        Family::DistinctShuffled,
        Family::DistinctAstral,
        Family::BasicThenFew,
        Family::OneRun,
        Family::Alternating,
    ];

    /// The families of work that a whole domain name's stages do before
    /// the split into labels and the length checks: the `domain` codec's
    /// probe asks them besides [`Family::ALL`].
    pub const NAMES: [Family; 3] = [
        Family::ArabicIndicZeros,
        Family::CombiningMarks,
        Family::SoftHyphens,
    ];

    /// The families of many short labels, each a name whose cost grows
    /// with its number of labels: the `domain` codec's probe asks them
    /// besides [`Family::ALL`] and [`Family::NAMES`], in both directions
    /// as the name itself ([`Family::is_many_labels`]).
    pub const MANY_LABELS: [Family; 4] = [
        Family::ManyAsciiLabels,
        Family::ManyALabels,
        Family::ManyULabels,
        Family::MappedDots,
    ];

    /// The family named `name` ([`Family::name`]).
    pub fn named(name: &str) -> Option<Family> {
        Family::ALL
            .into_iter()
            .chain(Family::NAMES)
            .chain(Family::MANY_LABELS)
            .find(|f| f.name() == name)
    }

    /// Whether it is a name of many labels ([`Family::MANY_LABELS`]),
    /// whose question to decode is the name's own text, not the Punycode
    /// of its code points.
    pub fn is_many_labels(self) -> bool {
        Family::MANY_LABELS.contains(&self)
    }

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::DistinctAscending => "distinct-ascending",
            Family::DistinctDescending => "distinct-descending",
            Family::DistinctShuffled => "distinct-shuffled",
            Family::DistinctAstral => "distinct-astral",
            Family::BasicThenFew => "basic-then-few",
            Family::OneRun => "one-run",
            Family::Alternating => "alternating",
            Family::ArabicIndicZeros => "arabic-indic-zeros",
            Family::CombiningMarks => "combining-marks",
            Family::SoftHyphens => "soft-hyphens",
            Family::ManyAsciiLabels => "many-ascii-labels",
            Family::ManyALabels => "many-a-labels",
            Family::ManyULabels => "many-u-labels",
            Family::MappedDots => "mapped-dots",
        }
    }

    /// Its `n` code points.
    pub fn code_points(self, n: usize) -> Vec<u32> {
        match self {
            Family::DistinctAscending => distinct_bmp(n).collect(),
            Family::DistinctDescending => {
                let mut all: Vec<u32> = distinct_bmp(n).collect();
                all.reverse();
                all
            }
            Family::DistinctShuffled => {
                let mut all: Vec<u32> = distinct_bmp(n).collect();
                // A fixed permutation (xorshift), the same on every run.
                let mut state = 0x9E37_79B9_7F4A_7C15u64;
                for k in (1..all.len()).rev() {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    all.swap(k, (state % (k as u64 + 1)) as usize);
                }
                all
            }
            Family::DistinctAstral => (0x2_0000..).take(n).collect(),
            Family::BasicThenFew => {
                let few = n.min(4);
                let mut all = vec![u32::from(b'a'); n - few];
                // High enough for long deltas, low enough that no size up
                // to 2^16 overflows RFC 3492's 32-bit arithmetic.
                all.extend([0xE9, 0x100, 0x4E00, 0x4E01].into_iter().take(few));
                all
            }
            Family::OneRun => vec![0x4E00; n],
            Family::Alternating => (0..n)
                .map(|k| if k % 2 == 0 { 0x80 } else { 0x1_0000 })
                .collect(),
            Family::ArabicIndicZeros => vec![0x0660; n],
            Family::CombiningMarks => (0..n)
                .map(|k| match k {
                    0 => u32::from(b'a'),
                    k if k % 2 == 1 => 0x0301,
                    _ => 0x0316,
                })
                .collect(),
            Family::SoftHyphens => {
                let mut all = vec![0x00AD; n.saturating_sub(1)];
                all.extend((n > 0).then_some(u32::from(b'a')));
                all
            }
            Family::ManyAsciiLabels => many_labels(n, 0x2E, |k| vec![ascii_letter(k)]),
            Family::MappedDots => many_labels(n, 0x3002, |k| vec![ascii_letter(k)]),
            Family::ManyULabels => many_labels(n, 0x2E, |k| vec![latin1_letter(k)]),
            Family::ManyALabels => many_labels(n, 0x2E, |k| {
                let mut label: Vec<u32> = b"xn--".iter().map(|&b| u32::from(b)).collect();
                let payload = crate::punycode::encode(&[latin1_letter(k)], None)
                    .expect("one Latin-1 letter encodes");
                label.extend(payload.into_iter().map(u32::from));
                label
            }),
        }
    }
}

/// The `k`th of the lowercase ASCII letters, round and round.
fn ascii_letter(k: usize) -> u32 {
    u32::from(b'a') + (k % 26) as u32
}

/// The `k`th of the lowercase Latin-1 letters valid in a label under
/// every profile (U+00E0 to U+00FF but U+00F7), round and round.
fn latin1_letter(k: usize) -> u32 {
    let letter = 0xE0 + (k % 31) as u32;
    if letter >= 0xF7 { letter + 1 } else { letter }
}

/// A name of exactly `n` code points: a first label of ASCII letters that
/// takes what is left over (one to a label's length plus one), then
/// `label(0)`, `label(1)`... each after `separator`, as many as fit.
fn many_labels(n: usize, separator: u32, mut label: impl FnMut(usize) -> Vec<u32>) -> Vec<u32> {
    let mut rest = Vec::new();
    for k in 0.. {
        let next = label(k);
        if 1 + rest.len() + 1 + next.len() > n {
            break;
        }
        rest.push(separator);
        rest.extend(next);
    }
    let mut all = vec![u32::from(b'a'); n.saturating_sub(rest.len())];
    all.extend(rest);
    all
}

/// Distinct code points from U+4E00 up, past the surrogates, so that every
/// domain takes them.
fn distinct_bmp(n: usize) -> impl Iterator<Item = u32> {
    (0x4E00u32..)
        .filter(|cp| !(0xD800..=0xDFFF).contains(cp))
        .take(n)
}
