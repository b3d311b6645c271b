//! The seed corpora of the fuzz targets, as bytes: what `cargo run -p
//! punycheck --example fuzz_seeds` writes under `fuzz/seeds/`, and what
//! `.clusterfuzzlite/build.sh` zips for ClusterFuzzLite and OSS-Fuzz.
//!
//! - The raw-byte Punycode targets ([`VECTOR_TARGETS`]) get one file per
//!   decoding vector: its bytes for `uniqueness`, a 0 byte and its bytes for
//!   the differential targets (an even first byte means "decode these
//!   bytes", see [`super::FuzzRequest`]).
//! - `roundtrip` gets one file per encoding vector that fits its
//!   [`MAX_CODE_POINTS`] (the RFC's samples among them), as a
//!   [`CodePointInput`].
//! - `overflow` gets inputs around each 32-bit limit ([`Limit`]): a few
//!   counts of basic code points, the offsets -1, 0 and +1, and the twist
//!   that raises a decoded integer past `maxint`, as [`OverflowInput`]s.
//!
//! - The `label` targets ([`LABEL_TARGETS`]) get the labels of
//!   [`label_inputs`] and the `domain` targets ([`DOMAIN_TARGETS`]) the
//!   names of [`name_inputs`] (`bücher.de`, `ا.1x`, `127。0。0。1`, names
//!   of 253 and 254 octets, a trailing dot, `xn--go-`...), as
//!   [`LabelInput`]s and [`NameInput`]s.
//!
//! The other targets' seeds (`amc_diff_c`, `bootstring_punycode`, `lace_*`,
//! `utf8_*`) are written by hand and committed; `fuzz_seeds` leaves them.
//!
//! The structured targets read their input through `arbitrary`, which has
//! no inverse: [`code_point_input_bytes`], [`overflow_input_bytes`],
//! [`label_input_bytes`] and [`name_input_bytes`] lay out, field by field, the bytes that `arbitrary` 1.x's derive reads back
//! as the given input, the way libfuzzer-sys reads a target's input
//! (`arbitrary_take_rest`). That layout is `arbitrary`'s, not a promise:
//! the unit tests (`fuzz::seeds`, which the README's `cargo test` runs,
//! its root's dev-dependency turning the feature on) decode every seed with `arbitrary`
//! itself and compare, so a release that changes it fails them instead of
//! leaving seeds that mean something else.
//!
//! # Size
//!
//! About 980 lines: every structured target's seeds are laid out here
//! byte by byte, with the tests that read each seed back through
//! `arbitrary` and run it through its target's oracle; the label and
//! domain targets' seeds (a label or a name each, with its profile) are
//! half of it, and splitting them from the layout they share would
//! scatter one format over two files.

use super::domain::{NameInput, Separator};
use super::label::{LabelInput, LabelShape, Piece, pieces_of, profile_byte};
use super::{CodePointInput, CodePointSeed, Limit, MAX_CODE_POINTS, OverflowInput};
use crate::codec::Codec;
use crate::harness::vectors::{Case, Input};
use crate::label::{LabelProfile, LabelRules, Switches};
use crate::punycode::MAXINT;

/// The targets whose seeds are the Punycode decoding vectors' bytes.
pub const VECTOR_TARGETS: [&str; 6] = [
    "uniqueness",
    "diff_c",
    "diff_idna",
    "diff_so",
    "diff_libidn2",
    "diff_icu",
];

/// The targets whose seeds are [`label_inputs`].
pub const LABEL_TARGETS: [&str; 2] = ["label_diff_idna", "label_roundtrip"];

/// The targets whose seeds are [`name_inputs`].
pub const DOMAIN_TARGETS: [&str; 3] = ["domain_diff_idna", "domain_diff_icu", "domain_properties"];

/// Every target whose seed folder [`all`] writes in full (the others' seeds
/// are written by hand).
pub const GENERATED_TARGETS: [&str; 13] = [
    "uniqueness",
    "diff_c",
    "diff_idna",
    "diff_so",
    "diff_libidn2",
    "diff_icu",
    "roundtrip",
    "overflow",
    "label_diff_idna",
    "label_roundtrip",
    "domain_diff_idna",
    "domain_diff_icu",
    "domain_properties",
];

/// One seed file: `fuzz/seeds/<target>/<name>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The fuzz target it seeds.
    pub target: &'static str,
    /// The file's name (the vector's, or what the input aims at).
    pub name: String,
    /// The file's content: the target's input.
    pub bytes: Vec<u8>,
}

/// Every seed of the [`GENERATED_TARGETS`], from the vectors `cases`
/// (the Punycode ones are used).
pub fn all(cases: &[Case]) -> Vec<Seed> {
    let mut seeds = Vec::new();
    for target in VECTOR_TARGETS {
        for case in cases.iter().filter(|c| c.codec == Codec::Punycode) {
            let Input::Decode(bytes) = &case.input else {
                continue;
            };
            let mut data = Vec::with_capacity(bytes.len() + 1);
            if target != "uniqueness" {
                data.push(0);
            }
            data.extend_from_slice(bytes);
            seeds.push(Seed {
                target,
                name: case.name.clone(),
                bytes: data,
            });
        }
    }
    for (name, input) in roundtrip_inputs(cases) {
        seeds.push(Seed {
            target: "roundtrip",
            name,
            bytes: code_point_input_bytes(&input),
        });
    }
    for (name, input) in overflow_inputs() {
        seeds.push(Seed {
            target: "overflow",
            name,
            bytes: overflow_input_bytes(&input),
        });
    }
    for target in LABEL_TARGETS {
        for (name, input) in label_inputs() {
            seeds.push(Seed {
                target,
                name,
                bytes: label_input_bytes(&input),
            });
        }
    }
    for target in DOMAIN_TARGETS {
        for (name, input) in name_inputs() {
            seeds.push(Seed {
                target,
                name,
                bytes: name_input_bytes(&input),
            });
        }
    }
    seeds
}

/// Every switch on: Unicode's conformance data, a registry.
const STRICT: u8 = 7;

/// Every switch off: the URL Standard.
const URL: u8 = 0;

/// The URL Standard's host parser (as of its ASCII fallback), every
/// switch off as it sets them.
fn host() -> u8 {
    profile_byte(LabelProfile {
        rules: LabelRules::Url,
        switches: Switches::URL,
    })
}

/// The profile byte of `rules` with every switch on.
fn strict(rules: LabelRules) -> u8 {
    profile_byte(LabelProfile {
        rules,
        switches: Switches::STRICT,
    })
}

fn plain(text: &str) -> LabelShape {
    LabelShape::Plain(pieces_of(text))
}

fn a_label(text: &str, twist: u8) -> LabelShape {
    LabelShape::ALabel {
        pieces: pieces_of(text),
        twist,
    }
}

/// `xn--` as the prefix piece, then `rest`.
fn prefixed(rest: &str) -> LabelShape {
    let mut pieces = vec![Piece::AcePrefix(0)];
    pieces.extend(pieces_of(rest));
    LabelShape::Plain(pieces)
}

/// `n` (1 to 64) times `a`, as one run.
fn run(n: u8) -> LabelShape {
    LabelShape::Plain(vec![Piece::LdhRun {
        len: n - 1,
        letter: 0,
    }])
}

/// The `label` targets' seeds as inputs, each named after what it asks.
pub fn label_inputs() -> Vec<(String, LabelInput)> {
    let input = |to_unicode, profile, label| LabelInput {
        to_unicode,
        profile,
        label,
    };
    [
        ("buecher-to-ascii", input(false, STRICT, plain("bücher"))),
        (
            "xn--bcher-kva-to-unicode",
            input(true, STRICT, a_label("bücher", 0)),
        ),
        (
            "uppercase-a-label-to-unicode",
            input(true, STRICT, a_label("bücher", 1)),
        ),
        ("xn--go--to-unicode", input(true, STRICT, prefixed("go-"))),
        ("xn--go--to-ascii", input(false, URL, prefixed("go-"))),
        ("xn---to-unicode", input(true, STRICT, prefixed(""))),
        ("alef-to-ascii", input(false, STRICT, plain("\u{627}"))),
        ("1x-to-ascii", input(false, STRICT, plain("1x"))),
        ("63-octets-to-ascii", input(false, STRICT, run(63))),
        (
            "64-octets-to-ascii",
            input(
                false,
                STRICT,
                LabelShape::Plain(vec![Piece::LdhRun { len: 62, letter: 0 }, Piece::Ldh(1)]),
            ),
        ),
        (
            "lam-zwnj-alef-to-ascii",
            input(false, STRICT, plain("\u{644}\u{200C}\u{627}")),
        ),
        (
            "ka-virama-zwj-ssa-to-ascii",
            input(false, STRICT, plain("\u{915}\u{94D}\u{200D}\u{937}")),
        ),
        (
            "mark-first-to-ascii",
            input(false, STRICT, plain("\u{301}a")),
        ),
        (
            "fullwidth-to-ascii",
            input(false, STRICT, plain("\u{FF41}\u{FF22}\u{FF13}")),
        ),
        (
            "soft-hyphen-to-ascii",
            input(false, STRICT, plain("a\u{AD}b")),
        ),
        ("sharp-s-to-ascii", input(false, URL, plain("stra\u{DF}e"))),
        (
            "idna2008-xn--bcher-kva-to-unicode",
            input(true, strict(LabelRules::Idna2008), a_label("bücher", 0)),
        ),
        (
            "idna2008-buecher-to-ascii",
            input(false, strict(LabelRules::Idna2008), plain("bücher")),
        ),
        (
            "idna2003-xn--bcher-kva-to-unicode",
            input(true, strict(LabelRules::Idna2003), a_label("bücher", 0)),
        ),
        (
            "idna2003-Buecher-to-ascii",
            input(false, strict(LabelRules::Idna2003), plain("Bücher")),
        ),
    ]
    .into_iter()
    .map(|(name, input)| (name.to_string(), input))
    .collect()
}

/// A name of `first` and the labels of `rest`, each after its separator.
fn name_of(
    to_unicode: bool,
    profile: u8,
    first: LabelShape,
    rest: Vec<(Separator, LabelShape)>,
) -> NameInput {
    NameInput {
        to_unicode,
        profile,
        first,
        rest,
    }
}

/// The `domain` targets' seeds as inputs, each named after what it asks.
pub fn name_inputs() -> Vec<(String, NameInput)> {
    use Separator::{FullStop, Ideographic};
    let dot = |label| (FullStop, label);
    let loopback = |profile| {
        name_of(
            false,
            profile,
            plain("127"),
            vec![
                (Ideographic, plain("0")),
                (Ideographic, plain("0")),
                (Ideographic, plain("1")),
            ],
        )
    };
    let long = |last, profile| {
        name_of(
            false,
            profile,
            run(63),
            vec![dot(run(63)), dot(run(63)), dot(run(last))],
        )
    };
    let trailing = |to_unicode, profile| {
        name_of(
            to_unicode,
            profile,
            plain("example"),
            vec![dot(plain("com")), dot(plain(""))],
        )
    };
    [
        (
            "buecher.de-to-ascii",
            name_of(false, STRICT, plain("bücher"), vec![dot(plain("de"))]),
        ),
        (
            "xn--bcher-kva.de-to-unicode",
            name_of(true, STRICT, a_label("bücher", 0), vec![dot(plain("de"))]),
        ),
        (
            "uppercase-a-label.de-to-unicode",
            name_of(true, STRICT, a_label("bücher", 1), vec![dot(plain("DE"))]),
        ),
        (
            "alef.1x-to-ascii",
            name_of(false, STRICT, plain("\u{627}"), vec![dot(plain("1x"))]),
        ),
        (
            "xn--mgb.1x-to-unicode",
            name_of(true, STRICT, a_label("\u{627}", 0), vec![dot(plain("1x"))]),
        ),
        ("127.0.0.1-ideographic-url", loopback(URL)),
        ("127.0.0.1-ideographic-strict", loopback(STRICT)),
        ("253-octets-to-ascii", long(61, STRICT)),
        ("254-octets-to-ascii", long(62, STRICT)),
        ("254-octets-url", long(62, URL)),
        ("trailing-dot-to-ascii", trailing(false, STRICT)),
        ("trailing-dot-url", trailing(false, URL)),
        ("trailing-dot-to-unicode", trailing(true, STRICT)),
        (
            "xn--go-.com-to-unicode",
            name_of(true, STRICT, prefixed("go-"), vec![dot(plain("com"))]),
        ),
        (
            "xn--go-.com-to-ascii",
            name_of(false, URL, prefixed("go-"), vec![dot(plain("com"))]),
        ),
        (
            "fullwidth-to-ascii",
            name_of(
                false,
                STRICT,
                plain("\u{FF41}\u{FF42}\u{FF43}"),
                vec![(Separator::Fullwidth, plain("\u{FF44}\u{FF45}"))],
            ),
        ),
        (
            "halfwidth-separator-to-unicode",
            name_of(
                true,
                STRICT,
                a_label("bücher", 0),
                vec![(Separator::Halfwidth, plain("de"))],
            ),
        ),
        (
            "soft-hyphen-to-ascii",
            name_of(false, STRICT, plain("a\u{AD}b"), vec![dot(plain("de"))]),
        ),
        (
            "lam-zwnj-alef.com-to-ascii",
            name_of(
                false,
                STRICT,
                plain("\u{644}\u{200C}\u{627}"),
                vec![dot(plain("com"))],
            ),
        ),
        (
            "empty-label-url",
            name_of(
                false,
                URL,
                plain("a"),
                vec![dot(plain("")), dot(plain("b"))],
            ),
        ),
        (
            "idna2008-buecher.de-to-ascii",
            name_of(
                false,
                strict(LabelRules::Idna2008),
                plain("bücher"),
                vec![dot(plain("de"))],
            ),
        ),
        (
            "idna2003-buecher-ideographic-de-to-ascii",
            name_of(
                false,
                strict(LabelRules::Idna2003),
                plain("bücher"),
                vec![(Ideographic, plain("de"))],
            ),
        ),
        (
            // The URL Standard's host parser: fullwidth digits mapped,
            // then the IPv4 parser (issue 31's `１９２.１６８.１.１`).
            "fullwidth-ipv4-host",
            name_of(
                false,
                host(),
                plain("\u{FF11}\u{FF19}\u{FF12}"),
                vec![
                    dot(plain("\u{FF11}\u{FF16}\u{FF18}")),
                    dot(plain("\u{FF11}")),
                    dot(plain("\u{FF11}")),
                ],
            ),
        ),
        (
            "0x7f.1-host",
            name_of(false, host(), plain("0x7f"), vec![dot(plain("1"))]),
        ),
        (
            "ipv4-out-of-range-host",
            name_of(
                false,
                host(),
                plain("256"),
                vec![dot(plain("0")), dot(plain("0")), dot(plain("1"))],
            ),
        ),
        (
            // IDNA2003 without UseSTD3ASCIIRules: Nameprep makes a full
            // stop of U+2024 inside a label (domain_properties' second
            // finding, on CI).
            "idna2003-one-dot-leader-to-ascii",
            name_of(
                false,
                profile_byte(LabelProfile {
                    rules: LabelRules::Idna2003,
                    switches: Switches {
                        use_std3_ascii_rules: false,
                        ..Switches::STRICT
                    },
                }),
                plain("\u{1F7F7}\u{2024}"),
                vec![dot(plain("7a"))],
            ),
        ),
    ]
    .into_iter()
    .map(|(name, input)| (name.to_string(), input))
    .collect()
}

/// The `roundtrip` target's seeds as inputs: every Punycode encoding vector
/// of at most [`MAX_CODE_POINTS`] code points, with its flags when the
/// vector passes them, named after the vector.
pub fn roundtrip_inputs(cases: &[Case]) -> Vec<(String, CodePointInput)> {
    cases
        .iter()
        .filter(|c| c.codec == Codec::Punycode)
        .filter_map(|case| {
            let Input::Encode(cps) = &case.input else {
                return None;
            };
            if cps.values.len() > MAX_CODE_POINTS {
                return None;
            }
            let points = cps
                .values
                .iter()
                .zip(&cps.flags)
                .map(|(&v, &f)| (seed_for(v), f && case.annotations))
                .collect();
            Some((
                case.name.clone(),
                CodePointInput {
                    points,
                    with_flags: case.annotations,
                },
            ))
        })
        .collect()
}

/// The counts of basic code points the `overflow` seeds use (the target
/// reads them modulo 8). With 2, `maxint` is a multiple of `h + 1`, so the
/// encoder's jump lands on `maxint` exactly and its increments overflow.
pub const OVERFLOW_BASICS: [u8; 4] = [0, 1, 2, 7];

/// The offsets from each limit the `overflow` seeds use.
pub const OVERFLOW_OFFSETS: [i16; 3] = [-1, 0, 1];

/// The twists the `overflow` seeds use: 0 leaves the input at its limit, 1
/// also raises a decoded input's last digit (which is how the decoder's
/// `i + digit * w` check is passed: the integer at the limit is `maxint`
/// itself).
pub const OVERFLOW_TWISTS: [u8; 2] = [0, 1];

/// The `overflow` target's seeds as inputs: each [`Limit`], with each of
/// [`OVERFLOW_BASICS`], [`OVERFLOW_OFFSETS`] and [`OVERFLOW_TWISTS`], and no
/// tail; named `LIMIT-bBASICS-oOFFSET-tTWIST` (`encode-delta-b1-o+1-t0`).
pub fn overflow_inputs() -> Vec<(String, OverflowInput)> {
    let mut inputs = Vec::new();
    for (limit, label) in [
        (Limit::DecodeDigit, "decode-digit"),
        (Limit::DecodeCodePoint, "decode-code-point"),
        (Limit::EncodeDelta, "encode-delta"),
        (Limit::EncodeIncrement, "encode-increment"),
    ] {
        for basics in OVERFLOW_BASICS {
            for offset in OVERFLOW_OFFSETS {
                for twist in OVERFLOW_TWISTS {
                    inputs.push((
                        format!("{label}-b{basics}-o{offset:+}-t{twist}"),
                        OverflowInput {
                            limit,
                            basics,
                            offset,
                            twist,
                            tail: Vec::new(),
                        },
                    ));
                }
            }
        }
    }
    inputs
}

/// The [`CodePointSeed`] that stands for `value`, in the narrowest region
/// that holds it (so that a mutation of it stays near it).
pub fn seed_for(value: u32) -> CodePointSeed {
    match value {
        0..=0x7F => CodePointSeed::Basic(value as u8),
        0x80..=0x17F => CodePointSeed::Latin((value - 0x80) as u8),
        0x180..=0xFFFF => CodePointSeed::Bmp(value as u16),
        0x10_FF00..=0x11_00FF => CodePointSeed::NearUnicodeMax((value - 0x10_FF00) as u16),
        v if v >= MAXINT - 0xFFFF => CodePointSeed::NearMax((MAXINT - v) as u16),
        v => CodePointSeed::Any(v),
    }
}

/// The bytes `arbitrary` reads as a [`CodePointInput`] when they are the
/// whole input of a target (`arbitrary_take_rest`).
pub fn code_point_input_bytes(input: &CodePointInput) -> Vec<u8> {
    let mut out = Vec::new();
    // A `Vec` that is not the last field: a byte with its low bit set
    // before each element, one with it clear after the last.
    for &(seed, flag) in &input.points {
        out.push(1);
        put_code_point_seed(seed, &mut out);
        out.push(u8::from(flag));
    }
    out.push(0);
    out.push(u8::from(input.with_flags));
    out
}

/// The bytes `arbitrary` reads as an [`OverflowInput`] when they are the
/// whole input of a target (`arbitrary_take_rest`).
pub fn overflow_input_bytes(input: &OverflowInput) -> Vec<u8> {
    let mut out = Vec::new();
    let limit = match input.limit {
        Limit::DecodeDigit => 0,
        Limit::DecodeCodePoint => 1,
        Limit::EncodeDelta => 2,
        Limit::EncodeIncrement => 3,
    };
    put_variant(limit, 4, &mut out);
    out.push(input.basics);
    out.extend_from_slice(&input.offset.to_le_bytes());
    out.push(input.twist);
    // The last field takes the rest: a byte with its low bit set before
    // each element, and the end of the input after the last.
    for &seed in &input.tail {
        out.push(1);
        put_code_point_seed(seed, &mut out);
    }
    out
}

/// The bytes `arbitrary` reads as a [`LabelInput`] when they are the
/// whole input of a target (`arbitrary_take_rest`).
pub fn label_input_bytes(input: &LabelInput) -> Vec<u8> {
    let mut out = vec![u8::from(input.to_unicode), input.profile];
    put_label_shape(&input.label, &mut out);
    out
}

/// The bytes `arbitrary` reads as a [`NameInput`] when they are the whole
/// input of a target (`arbitrary_take_rest`).
pub fn name_input_bytes(input: &NameInput) -> Vec<u8> {
    let mut out = vec![u8::from(input.to_unicode), input.profile];
    put_label_shape(&input.first, &mut out);
    for (separator, label) in &input.rest {
        out.push(1);
        let index = match separator {
            Separator::FullStop => 0,
            Separator::Ideographic => 1,
            Separator::Fullwidth => 2,
            Separator::Halfwidth => 3,
        };
        put_variant(index, 4, &mut out);
        put_label_shape(label, &mut out);
    }
    out
}

/// A [`LabelShape`]: its variant, then its pieces as a `Vec` (a byte with
/// its low bit set before each, one with it clear after the last, which
/// also ends a last field's `Vec` as well as the end of the input does).
fn put_label_shape(shape: &LabelShape, out: &mut Vec<u8>) {
    let (index, pieces) = match shape {
        LabelShape::Plain(pieces) => (0, pieces),
        LabelShape::ALabel { pieces, .. } => (1, pieces),
    };
    put_variant(index, 2, out);
    for &piece in pieces {
        out.push(1);
        put_piece(piece, out);
    }
    out.push(0);
    if let LabelShape::ALabel { twist, .. } = shape {
        out.push(*twist);
    }
}

fn put_piece(piece: Piece, out: &mut Vec<u8>) {
    // The variants in their order of declaration.
    const COUNT: u32 = 11;
    match piece {
        Piece::Ldh(n) => {
            put_variant(0, COUNT, out);
            out.push(n);
        }
        Piece::Ascii(b) => {
            put_variant(1, COUNT, out);
            out.push(b);
        }
        Piece::LdhRun { len, letter } => {
            put_variant(2, COUNT, out);
            out.extend([len, letter]);
        }
        Piece::AcePrefix(case) => {
            put_variant(3, COUNT, out);
            out.push(case);
        }
        Piece::Letter(n) => {
            put_variant(4, COUNT, out);
            out.extend_from_slice(&n.to_le_bytes());
        }
        Piece::Rtl(n) => {
            put_variant(5, COUNT, out);
            out.extend_from_slice(&n.to_le_bytes());
        }
        Piece::Mark(n) => {
            put_variant(6, COUNT, out);
            out.push(n);
        }
        Piece::Joiner(zwj) => {
            put_variant(7, COUNT, out);
            out.push(u8::from(zwj));
        }
        Piece::Fullwidth(n) => {
            put_variant(8, COUNT, out);
            out.push(n);
        }
        Piece::Special(n) => {
            put_variant(9, COUNT, out);
            out.push(n);
        }
        Piece::Scalar(v) => {
            put_variant(10, COUNT, out);
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

/// An enum's variant: `arbitrary`'s derive reads a `u32` (little-endian)
/// `x` and takes variant `(x * count) >> 32`; this writes the smallest `x`
/// that gives `index`.
fn put_variant(index: u32, count: u32, out: &mut Vec<u8>) {
    let x = ((u64::from(index) << 32).div_ceil(u64::from(count))) as u32;
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_code_point_seed(seed: CodePointSeed, out: &mut Vec<u8>) {
    // The variants in their order of declaration.
    const COUNT: u32 = 7;
    match seed {
        CodePointSeed::Basic(b) => {
            put_variant(0, COUNT, out);
            out.push(b);
        }
        CodePointSeed::Latin(n) => {
            put_variant(1, COUNT, out);
            out.push(n);
        }
        CodePointSeed::Bmp(n) => {
            put_variant(2, COUNT, out);
            out.extend_from_slice(&n.to_le_bytes());
        }
        CodePointSeed::NearUnicodeMax(n) => {
            put_variant(3, COUNT, out);
            out.extend_from_slice(&n.to_le_bytes());
        }
        CodePointSeed::NearMax(n) => {
            put_variant(4, COUNT, out);
            out.extend_from_slice(&n.to_le_bytes());
        }
        CodePointSeed::Overflow { k, d } => {
            put_variant(5, COUNT, out);
            out.push(k);
            out.extend_from_slice(&d.to_le_bytes());
        }
        CodePointSeed::Any(v) => {
            put_variant(6, COUNT, out);
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

#[cfg(all(test, feature = "arbitrary"))]
mod tests {
    use arbitrary::{Arbitrary, Unstructured};

    use super::*;
    use crate::fuzz::FuzzRequest;
    use crate::harness::compare::Request;
    use crate::harness::runner::request_of;
    use crate::harness::vectors;
    use crate::punycode::{self, OverflowCheck};

    /// What a fuzz target gets from `bytes`: libfuzzer-sys rejects an input
    /// shorter than the type's smallest size, then reads it with
    /// `arbitrary_take_rest`.
    fn decoded<'a, T: Arbitrary<'a>>(bytes: &'a [u8]) -> T {
        assert!(
            bytes.len() >= T::size_hint(0).0,
            "{bytes:02X?}: shorter than the smallest input, libFuzzer would skip it"
        );
        T::arbitrary_take_rest(Unstructured::new(bytes)).expect("arbitrary reads the seed")
    }

    #[test]
    fn every_code_point_has_a_seed_that_stands_for_it() {
        for value in [
            0,
            0x41,
            0x7F,
            0x80,
            0x17F,
            0x180,
            0xD800,
            0xFFFF,
            0x1_0000,
            0x10_FEFF,
            0x10_FF00,
            0x10_FFFF,
            0x11_00FF,
            0x11_0100,
            0x7FFF_FFFF,
            MAXINT - 0x1_0000,
            MAXINT - 0xFFFF,
            MAXINT,
        ] {
            assert_eq!(seed_for(value).value(), value, "{value:#X}");
        }
    }

    #[test]
    fn every_code_point_seed_variant_is_read_back() {
        let seeds = [
            CodePointSeed::Basic(0x41),
            CodePointSeed::Latin(0xFF),
            CodePointSeed::Bmp(0xD800),
            CodePointSeed::NearUnicodeMax(0x1FF),
            CodePointSeed::NearMax(0xFFFF),
            CodePointSeed::Overflow { k: 7, d: -128 },
            CodePointSeed::Any(0x8000_0000),
        ];
        let input = CodePointInput {
            points: seeds.iter().map(|&s| (s, true)).collect(),
            with_flags: true,
        };
        let back: CodePointInput = decoded(&code_point_input_bytes(&input));
        assert_eq!(back, input);
    }

    #[test]
    fn roundtrip_seeds_decode_into_the_encoding_vectors() {
        let cases = vectors::builtin().unwrap();
        let seeds: Vec<Seed> = all(&cases)
            .into_iter()
            .filter(|s| s.target == "roundtrip")
            .collect();
        let mut samples = 0;
        for seed in &seeds {
            let case = cases.iter().find(|c| c.name == seed.name).unwrap();
            let input: CodePointInput = decoded(&seed.bytes);
            // The question the target asks is the vector's own.
            assert_eq!(input.request(), request_of(case), "{}", seed.name);
            samples += usize::from(seed.name.starts_with("rfc3492-7.1-"));
        }
        // RFC 3492 section 7.1's samples (A) to (S), with and without flags.
        assert_eq!(samples, 19 * 2, "the RFC's samples are all seeds");
    }

    #[test]
    fn overflow_seeds_decode_into_inputs_at_each_limit() {
        let seeds: Vec<Seed> = all(&[])
            .into_iter()
            .filter(|s| s.target == "overflow")
            .collect();
        let inputs = overflow_inputs();
        assert_eq!(seeds.len(), inputs.len());
        for (seed, (name, input)) in seeds.iter().zip(&inputs) {
            assert_eq!(&seed.name, name);
            let back: OverflowInput = decoded(&seed.bytes);
            assert_eq!(&back, input, "{name}");
        }
        // Each limit is reached: among the seeds aimed at it, the clean-room
        // code answers that very check's overflow for one and no overflow
        // for another; and the C reference agrees on every seed (the
        // target's oracle holds on its seeds).
        for (limit, check) in [
            (Limit::DecodeDigit, OverflowCheck::DecodeDigit),
            (Limit::DecodeCodePoint, OverflowCheck::DecodeCodePoint),
            (Limit::EncodeDelta, OverflowCheck::EncodeDelta),
            (Limit::EncodeIncrement, OverflowCheck::EncodeIncrement),
        ] {
            let mut fired = Vec::new();
            let mut passed = Vec::new();
            for (name, input) in inputs.iter().filter(|(_, i)| i.limit == limit) {
                crate::fuzz::overflow(input).unwrap();
                let answer = match input.request() {
                    Request::Encode { code_points, flags } => {
                        punycode::encode(&code_points, flags.as_deref()).map(drop)
                    }
                    Request::Decode(bytes) => punycode::decode(&bytes).map(drop),
                };
                match answer {
                    Err(punycode::Error::Overflow { check: c, .. }) if c == check => {
                        fired.push(name)
                    }
                    Ok(()) => passed.push(name),
                    _ => {}
                }
            }
            assert!(
                !fired.is_empty(),
                "{limit:?}: no seed overflows at {check:?}"
            );
            assert!(!passed.is_empty(), "{limit:?}: every seed fails");
        }
    }

    /// Every piece and shape variant, and every separator, is read back.
    #[test]
    fn every_label_and_name_variant_is_read_back() {
        let pieces = vec![
            Piece::Ldh(40),
            Piece::Ascii(0xFF),
            Piece::LdhRun {
                len: 200,
                letter: 7,
            },
            Piece::AcePrefix(3),
            Piece::Letter(0xFFFF),
            Piece::Rtl(0x1234),
            Piece::Mark(9),
            Piece::Joiner(true),
            Piece::Fullwidth(94),
            Piece::Special(255),
            Piece::Scalar(0xD800),
        ];
        let shapes = [
            LabelShape::Plain(pieces.clone()),
            LabelShape::ALabel { pieces, twist: 6 },
            LabelShape::Plain(Vec::new()),
        ];
        for (k, shape) in shapes.iter().enumerate() {
            let input = LabelInput {
                to_unicode: k % 2 == 1,
                profile: 0x15,
                label: shape.clone(),
            };
            assert_eq!(decoded::<LabelInput>(&label_input_bytes(&input)), input);
        }
        let input = NameInput {
            to_unicode: true,
            profile: 0xFF,
            first: shapes[1].clone(),
            rest: vec![
                (Separator::FullStop, shapes[0].clone()),
                (Separator::Ideographic, shapes[2].clone()),
                (Separator::Fullwidth, shapes[1].clone()),
                (Separator::Halfwidth, shapes[2].clone()),
            ],
        };
        assert_eq!(decoded::<NameInput>(&name_input_bytes(&input)), input);
    }

    fn text(request: &Request) -> String {
        match request {
            Request::Encode { code_points, .. } => code_points
                .iter()
                .filter_map(|&c| char::from_u32(c))
                .collect(),
            Request::Decode(bytes) => String::from_utf8(bytes.clone()).unwrap(),
        }
    }

    /// The label seeds decode into their inputs, ask what they are named
    /// after, and hold under both targets' oracles.
    #[test]
    fn label_seeds_decode_into_their_labels() {
        let seeds = all(&[]);
        let inputs = label_inputs();
        for target in LABEL_TARGETS {
            let mine: Vec<&Seed> = seeds.iter().filter(|s| s.target == target).collect();
            assert_eq!(mine.len(), inputs.len(), "{target}");
            for (seed, (name, input)) in mine.iter().zip(&inputs) {
                assert_eq!(&seed.name, name);
                assert_eq!(&decoded::<LabelInput>(&seed.bytes), input, "{name}");
            }
        }
        let asked = |name: &str| {
            let (_, input) = inputs.iter().find(|(n, _)| n == name).unwrap();
            (text(&input.request()), input.request())
        };
        assert_eq!(asked("buecher-to-ascii").0, "bücher");
        assert_eq!(asked("xn--bcher-kva-to-unicode").0, "xn--bcher-kva");
        assert_eq!(asked("uppercase-a-label-to-unicode").0, "XN--BCHER-KVA");
        assert_eq!(asked("xn--go--to-unicode").0, "xn--go-");
        assert_eq!(asked("63-octets-to-ascii").0, "a".repeat(63));
        assert_eq!(
            asked("64-octets-to-ascii").0,
            format!("{}b", "a".repeat(63))
        );
        assert!(matches!(asked("xn---to-unicode").1, Request::Decode(b) if b == b"xn--"));
        for (name, input) in &inputs {
            crate::fuzz::label::diff_idna(input).unwrap_or_else(|e| panic!("{name}: {e}"));
            crate::fuzz::label::roundtrip(input).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    /// The name seeds decode into their inputs, ask the names they are
    /// named after (at 253 and 254 octets, with a trailing dot, with other
    /// separators), and hold under the targets' oracles.
    #[test]
    fn name_seeds_decode_into_their_names() {
        let seeds = all(&[]);
        let inputs = name_inputs();
        for target in DOMAIN_TARGETS {
            let mine: Vec<&Seed> = seeds.iter().filter(|s| s.target == target).collect();
            assert_eq!(mine.len(), inputs.len(), "{target}");
            for (seed, (name, input)) in mine.iter().zip(&inputs) {
                assert_eq!(&seed.name, name);
                assert_eq!(&decoded::<NameInput>(&seed.bytes), input, "{name}");
            }
        }
        let input = |name: &str| inputs.iter().find(|(n, _)| n == name).unwrap().1.clone();
        let asked = |name: &str| text(&input(name).request());
        assert_eq!(asked("buecher.de-to-ascii"), "bücher.de");
        assert_eq!(asked("xn--bcher-kva.de-to-unicode"), "xn--bcher-kva.de");
        assert_eq!(asked("alef.1x-to-ascii"), "\u{627}.1x");
        assert_eq!(
            asked("127.0.0.1-ideographic-url"),
            "127\u{3002}0\u{3002}0\u{3002}1"
        );
        assert_eq!(asked("trailing-dot-to-ascii"), "example.com.");
        assert_eq!(asked("xn--go-.com-to-unicode"), "xn--go-.com");
        assert_eq!(asked("253-octets-to-ascii").len(), 253);
        assert_eq!(asked("254-octets-to-ascii").len(), 254);
        // The reference refuses what each is aimed at.
        let profile =
            |name: &str| crate::fuzz::label::profile_of(input(name).profile, &LabelRules::EVERY);
        let refused = |name: &str| {
            match input(name).request() {
                Request::Encode { code_points, .. } => {
                    crate::domain::to_ascii(profile(name), &code_points).map(drop)
                }
                Request::Decode(bytes) => {
                    crate::domain::to_unicode(profile(name), &bytes).map(drop)
                }
            }
            .err()
            .map(|e| e.rule())
        };
        assert_eq!(refused("253-octets-to-ascii"), None);
        assert_eq!(refused("254-octets-to-ascii"), Some("name-length"));
        assert_eq!(refused("254-octets-url"), None);
        assert_eq!(refused("alef.1x-to-ascii"), Some("bidi-across-labels"));
        assert_eq!(refused("trailing-dot-to-ascii"), Some("empty-label"));
        assert_eq!(refused("trailing-dot-url"), None);
        assert_eq!(refused("xn--go-.com-to-unicode"), Some("ascii-only"));
        assert_eq!(refused("127.0.0.1-ideographic-url"), None);
        assert_eq!(refused("fullwidth-ipv4-host"), None);
        assert_eq!(asked("0x7f.1-host"), "0x7f.1");
        assert_eq!(refused("0x7f.1-host"), None);
        assert_eq!(refused("ipv4-out-of-range-host"), Some("ipv4"));
        assert_eq!(
            refused("idna2003-one-dot-leader-to-ascii"),
            Some("separator-by-nameprep")
        );
        for (name, input) in &inputs {
            crate::fuzz::domain::diff_idna(input).unwrap_or_else(|e| panic!("{name}: {e}"));
            #[cfg(punycheck_icu)]
            crate::fuzz::domain::diff_icu(input).unwrap_or_else(|e| panic!("{name}: {e}"));
            // idna2003-buecher-ideographic-de-to-ascii is the regression
            // of domain_properties' first finding: IDNA2003's ToUnicode of
            // a name with a U-label (bücher。de) was refused.
            crate::fuzz::domain::properties(input).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn vector_seeds_decode_into_the_decoding_vectors() {
        let cases = vectors::builtin().unwrap();
        let mut count = 0;
        for seed in all(&cases)
            .iter()
            .filter(|s| VECTOR_TARGETS.contains(&s.target))
        {
            let case = cases.iter().find(|c| c.name == seed.name).unwrap();
            let asked = match seed.target {
                // `uniqueness` takes the raw bytes.
                "uniqueness" => Request::Decode(seed.bytes.clone()),
                _ => decoded::<FuzzRequest>(&seed.bytes).0,
            };
            assert_eq!(asked, request_of(case), "{} {}", seed.target, seed.name);
            count += 1;
        }
        assert!(count > 6 * 200, "{count} vector seeds");
    }
}
