//! `punycheck::bootstring` with Punycode's parameters is
//! `punycheck::punycode`: the same output, flags, and errors down to their
//! reason (or overflow check) and position, on random inputs, inputs built
//! at the 32-bit limits, and output limits. With any other parameter set
//! that section 4 allows it round-trips and is unique; and the fuzz oracle
//! `bootstring_punycode` holds and can fail.

use proptest::prelude::*;
use punycheck::bootstring::{ASCII_LETTERS, BasicCase, BasicSet, Coder, Error, Params};
use punycheck::fuzz::amc::bootstring_punycode;
use punycheck::fuzz::{Limit, OverflowInput};
use punycheck::harness::compare::Request;
use punycheck::harness::runner::request_of;
use punycheck::harness::vectors;
use punycheck::punycode::{self, Decoded};

fn same_encode(input: &[u32], flags: Option<&[bool]>, limit: u32) -> Result<(), TestCaseError> {
    let ours = Coder::punycode()
        .encode_with_limit(input, flags, limit)
        .map_err(|e| e.to_punycode());
    let theirs = punycode::encode_with_limit(input, flags, limit).map_err(Some);
    prop_assert_eq!(
        ours,
        theirs,
        "encoding {:X?} flags {:?} limit {}",
        input,
        flags,
        limit
    );
    Ok(())
}

fn same_decode(input: &[u8], limit: u32) -> Result<(), TestCaseError> {
    let ours = Coder::punycode()
        .decode_with_limit(input, limit)
        .map_err(|e| e.to_punycode());
    let theirs = punycode::decode_with_limit(input, limit).map_err(Some);
    prop_assert_eq!(
        ours,
        theirs,
        "decoding {:?} limit {}",
        String::from_utf8_lossy(input),
        limit
    );
    Ok(())
}

fn code_point() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => 0u32..0x80,
        2 => 0x80u32..0x100,
        4 => 0x100u32..0x1_0000,
        1 => 0x10_FF00u32..0x11_0100,
        1 => 0xFFFF_FF00u32..=u32::MAX,
        1 => 0x7FFF_FF00u32..0x8000_0100,
        1 => 0x5555_5500u32..0x5555_5600,
        1 => (1u32..=8, -200i32..200)
            .prop_map(|(k, d)| (u32::MAX / k).wrapping_add(0x80).wrapping_add_signed(d)),
        1 => any::<u32>(),
    ]
}

fn text_like() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        8 => proptest::sample::select(b"abcdefghijklmnopqrstuvwxyz0123456789".to_vec()),
        2 => proptest::sample::select(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ".to_vec()),
        2 => Just(b'-'),
        1 => any::<u8>(),
    ];
    proptest::collection::vec(byte, 0..48)
}

/// The fuzz target `overflow`'s shapes: inputs built right at each 32-bit
/// limit of the decoder and encoder.
fn at_a_limit() -> impl Strategy<Value = Request> {
    let limit = prop_oneof![
        Just(Limit::DecodeDigit),
        Just(Limit::DecodeCodePoint),
        Just(Limit::EncodeDelta),
        Just(Limit::EncodeIncrement),
    ];
    (
        limit,
        any::<u8>(),
        -300i16..300,
        any::<u8>(),
        proptest::collection::vec(any::<u32>(), 0..4),
    )
        .prop_map(|(limit, basics, offset, twist, tail)| {
            OverflowInput {
                limit,
                basics,
                offset,
                twist,
                tail: tail
                    .into_iter()
                    .map(punycheck::fuzz::CodePointSeed::Any)
                    .collect(),
            }
            .request()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn encoding_is_punycode_s(
        points in proptest::collection::vec((code_point(), any::<bool>()), 0..32),
        limit in prop_oneof![Just(u32::MAX), 0u32..80],
    ) {
        let (input, flags): (Vec<u32>, Vec<bool>) = points.into_iter().unzip();
        same_encode(&input, None, limit)?;
        same_encode(&input, Some(&flags), limit)?;
        // Flags of the wrong length, either way.
        same_encode(&input, Some(&flags[..flags.len() / 2]), limit)?;
        let mut longer = flags.clone();
        longer.push(true);
        same_encode(&input, Some(&longer), limit)?;
    }

    #[test]
    fn decoding_is_punycode_s(
        input in text_like(),
        limit in prop_oneof![Just(u32::MAX), 0u32..40],
    ) {
        same_decode(&input, limit)?;
    }

    #[test]
    fn overflow_limits_are_punycode_s(request in at_a_limit()) {
        match &request {
            Request::Encode { code_points, flags } => same_encode(code_points, flags.as_deref(), u32::MAX)?,
            Request::Decode(bytes) => same_decode(bytes, u32::MAX)?,
        }
        prop_assert_eq!(bootstring_punycode(&request), Ok(()));
    }

    /// Encodings perturbed by one byte: near-valid input.
    #[test]
    fn perturbed_encodings_decode_as_punycode_s(
        points in proptest::collection::vec((code_point(), any::<bool>()), 0..24),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let (input, flags): (Vec<u32>, Vec<bool>) = points.into_iter().unzip();
        if let Ok(mut text) = punycode::encode(&input, Some(&flags)) {
            same_decode(&text, u32::MAX)?;
            if !text.is_empty() {
                let k = at.index(text.len());
                text[k] = byte;
                same_decode(&text, u32::MAX)?;
            }
        }
    }
}

/// Every string of up to three bytes over the bytes the decoder tells
/// apart.
#[test]
fn short_strings_decode_as_punycode_s() {
    let alphabet: &[u8] = b"-aAzZ09@[`{/ \x00\x7f\x80\xff";
    let mut count = 0;
    for len in 0..=3u32 {
        for n in 0..alphabet.len().pow(len) {
            let mut input = Vec::new();
            let mut rest = n;
            for _ in 0..len {
                input.push(alphabet[rest % alphabet.len()]);
                rest /= alphabet.len();
            }
            same_decode(&input, u32::MAX).unwrap();
            count += 1;
        }
    }
    assert_eq!(count, 1 + 17 + 17 * 17 + 17 * 17 * 17);
}

#[test]
fn every_vector_of_every_file_is_punycode_s() {
    let cases = vectors::builtin().unwrap();
    assert!(cases.len() > 100);
    for case in cases {
        bootstring_punycode(&request_of(&case)).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    }
}

#[test]
fn the_oracle_holds_on_its_seeds_and_fails_on_a_difference() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/seeds/bootstring_punycode"
    );
    let mut seeds = 0;
    for entry in std::fs::read_dir(dir).expect("seed folder") {
        let seed = std::fs::read(entry.unwrap().path()).unwrap();
        assert_eq!(seed.first(), Some(&0), "a decoding seed");
        bootstring_punycode(&Request::Decode(seed[1..].to_vec())).unwrap();
        seeds += 1;
    }
    assert!(seeds >= 10);
    // AMC-ACE-Z's parameters differ from Punycode's in the basic case only,
    // and the oracle sees it: run it by hand with the other coder.
    let input = [0x61, 0xE9];
    let flags = [true, false];
    let amc = Coder::amc_ace_z().encode(&input, Some(&flags)).unwrap();
    let puny = punycode::encode(&input, Some(&flags)).unwrap();
    assert_ne!(amc, puny);
    // Same kind, different position is a difference for this oracle.
    let ours = Coder::punycode().decode(b"ab-c_d").unwrap_err();
    let shifted = punycode::Error::BadInput {
        position: 0,
        reason: punycode::BadInputReason::NotADigit,
    };
    assert_eq!(ours.kind(), shifted.kind());
    assert_ne!(ours.to_punycode(), Some(shifted));
}

// ---------------------------------------------------------------------------
// Other parameter sets.

static DIGITS: &[u8; 36] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// A parameter set that section 4 and the constraints it misses allow:
/// base 3 to 36 from Punycode's digits, tmax up to base - 2, any tmin up to
/// tmax, skew, damp, an initial bias of the right residue up to 8 * base,
/// and an initial_n anywhere from inside the basic range to well above it.
fn params() -> impl Strategy<Value = Params> {
    (3u32..=36)
        .prop_flat_map(|base| {
            (Just(base), 1..base - 1).prop_flat_map(move |(base, tmax)| {
                (
                    Just(base),
                    Just(tmax),
                    0..=tmax,
                    1u32..100,
                    2u32..1000,
                    0u32..8,
                    prop_oneof![0x30u32..0x80, 0x80u32..0x400],
                    any::<bool>(),
                )
            })
        })
        .prop_flat_map(|(base, tmax, tmin, skew, damp, times, initial_n, force)| {
            (0..=base - tmin).prop_map(move |residue| Params {
                base,
                tmin,
                tmax,
                skew,
                damp,
                initial_bias: times * base + residue,
                initial_n,
                delimiter: b'-',
                digits: &DIGITS[..base as usize],
                basic: BasicSet::below(0x80),
                case_pairs: &ASCII_LETTERS,
                basic_case: if force {
                    BasicCase::Force
                } else {
                    BasicCase::Literal
                },
            })
        })
}

/// Code points for a parameter set: basic, or non-basic at or above its
/// initial_n (anything lower the encoder refuses, as section 6.3 says).
fn encodable(params: &Params, cps: &[u32]) -> Vec<u32> {
    cps.iter()
        .map(|&cp| {
            if cp < 0x80 || cp >= params.initial_n {
                cp
            } else {
                cp.saturating_add(params.initial_n)
            }
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// decode(encode(x)) is x for every allowed parameter set, up to the
    /// 32-bit limits: where the decoder's i or weight overflows on what the
    /// encoder wrote (RFC 3492's own asymmetry, and the one of tmin = 0),
    /// it says so as an overflow, never as a wrong answer.
    #[test]
    fn any_allowed_parameters_round_trip(
        params in params(),
        points in proptest::collection::vec((code_point(), any::<bool>()), 0..16),
    ) {
        let coder = Coder::new(params).expect("the strategy makes allowed sets");
        let (cps, _): (Vec<u32>, Vec<bool>) = points.into_iter().unzip();
        let cps = encodable(&params, &cps);
        let Ok(text) = coder.encode(&cps, None) else {
            return Ok(());
        };
        match coder.decode(&text) {
            Ok(decoded) => prop_assert_eq!(decoded.code_points, cps),
            Err(e) => prop_assert!(matches!(e, Error::Overflow { .. }), "{:?}: {}", params, e),
        }
    }

    /// Whatever decodes re-encodes to itself up to ASCII case (the case of
    /// digits that carry no annotation), and to the same code points and
    /// flags: no two strings mean the same.
    #[test]
    fn any_allowed_parameters_are_unique(params in params(), text in text_like()) {
        let coder = Coder::new(params).unwrap();
        let Ok(decoded) = coder.decode(&text) else {
            return Ok(());
        };
        let flags = coder.supports_annotations().then(|| decoded.flags.to_vec());
        let again = coder.encode(&decoded.code_points, flags.as_deref());
        prop_assert!(again.is_ok(), "{:?} decodes but does not encode: {:?}", String::from_utf8_lossy(&text), again);
        let again = again.unwrap();
        prop_assert!(again.eq_ignore_ascii_case(&text), "{:?} became {:?}", String::from_utf8_lossy(&text), String::from_utf8_lossy(&again));
        let back: Decoded = coder.decode(&again).unwrap();
        prop_assert_eq!(back.code_points, decoded.code_points);
    }
}
