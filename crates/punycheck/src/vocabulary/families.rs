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

    /// The family named `name` ([`Family::name`]).
    pub fn named(name: &str) -> Option<Family> {
        Family::ALL
            .into_iter()
            .chain(Family::NAMES)
            .find(|f| f.name() == name)
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
        }
    }
}

/// Distinct code points from U+4E00 up, past the surrogates, so that every
/// domain takes them.
fn distinct_bmp(n: usize) -> impl Iterator<Item = u32> {
    (0x4E00u32..)
        .filter(|cp| !(0xD800..=0xDFFF).contains(cp))
        .take(n)
}
