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
//! The other targets' seeds (`amc_diff_c`, `bootstring_punycode`, `lace_*`,
//! `utf8_*`) are written by hand and committed; `fuzz_seeds` leaves them.
//!
//! The structured targets read their input through `arbitrary`, which has
//! no inverse: [`code_point_input_bytes`] and [`overflow_input_bytes`] lay
//! out, field by field, the bytes that `arbitrary` 1.x's derive reads back
//! as the given input, the way libfuzzer-sys reads a target's input
//! (`arbitrary_take_rest`). That layout is `arbitrary`'s, not a promise:
//! the unit tests (`cargo test -p punycheck --features arbitrary --lib
//! fuzz::seeds`, run by `.ci/run`) decode every seed with `arbitrary`
//! itself and compare, so a release that changes it fails them instead of
//! leaving seeds that mean something else.

use super::{CodePointInput, CodePointSeed, Limit, MAX_CODE_POINTS, OverflowInput};
use crate::codec::Codec;
use crate::harness::vectors::{Case, Input};
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

/// Every target whose seed folder [`all`] writes in full (the others' seeds
/// are written by hand).
pub const GENERATED_TARGETS: [&str; 8] = [
    "uniqueness",
    "diff_c",
    "diff_idna",
    "diff_so",
    "diff_libidn2",
    "diff_icu",
    "roundtrip",
    "overflow",
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
    seeds
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
