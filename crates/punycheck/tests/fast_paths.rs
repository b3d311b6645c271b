//! The fast encoder and decoder (`punycode::encode`, `punycode::decode`,
//! O(n log n)) return exactly what the plain reading of RFC 3492 section 6
//! returns (`encode_naive`, `decode_naive`): the same output, flags, error,
//! error position and overflow check, on both sides of the short-label
//! thresholds (64 code points to encode, 64 and 256 bytes to decode), with
//! and without output limits, and where a sum computed at once passes
//! `maxint` in the middle of a long input.

use proptest::prelude::*;
use punycheck::c_reference;
use punycheck::punycode::{
    self, Error, OverflowCheck, decode_naive, decode_with_limit, encode_naive, encode_with_limit,
};

fn same_encode(input: &[u32], flags: Option<&[bool]>, limit: u32) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        encode_with_limit(input, flags, limit),
        encode_naive(input, flags, limit),
        "encoding {:X?} flags {:?} limit {}",
        input,
        flags,
        limit
    );
    Ok(())
}

fn same_decode(input: &[u8], limit: u32) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        decode_with_limit(input, limit),
        decode_naive(input, limit),
        "decoding {:?} limit {}",
        String::from_utf8_lossy(input),
        limit
    );
    Ok(())
}

/// Code points drawn from a few values (many repeats, the encoder's rounds
/// visit several positions) or from a wide range (one position per round),
/// some near maxint (overflow), and inputs that start with a few values and
/// go on with many (the long-input encoder scans while its sample promises
/// few rounds, then hands over to the sort).
fn code_points(max_len: usize) -> impl Strategy<Value = Vec<u32>> {
    let few = || {
        prop::collection::vec(
            prop::sample::select(vec![0x41, 0x61, 0x2D, 0x80, 0xE9, 0x4E2D, 0x10FFFF]),
            0..max_len,
        )
    };
    let wide = || {
        prop::collection::vec(
            prop_oneof![0u32..0x80, 0x80u32..0x3000, 0x3000u32..0x11_0000],
            0..max_len,
        )
    };
    let extreme = || {
        prop::collection::vec(
            prop_oneof![0u32..0x80, 0x8000_0000u32..=u32::MAX, Just(u32::MAX)],
            0..max_len,
        )
    };
    let extreme_few = prop::collection::vec(
        prop::sample::select(vec![0x61, 0x80, 0x7FFF_FFFF, 0xFFFF_FFFE, u32::MAX]),
        0..max_len,
    );
    let few_then_many = (few(), prop_oneof![wide(), extreme()]).prop_map(move |(mut a, b)| {
        a.extend(b);
        a.truncate(max_len);
        a
    });
    prop_oneof![few(), wide(), extreme(), extreme_few, few_then_many]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn encode_matches_naive(
        input in code_points(300),
        flag_bits in prop::collection::vec(any::<bool>(), 300),
        annotate in any::<bool>(),
        limit in prop_oneof![Just(u32::MAX), 0u32..600],
    ) {
        let flags = annotate.then(|| &flag_bits[..input.len()]);
        same_encode(&input, flags, limit)?;
    }

    #[test]
    fn decode_matches_naive_on_encodings(
        input in code_points(300),
        limit in prop_oneof![Just(u32::MAX), 0u32..300],
        cut in any::<prop::sample::Index>(),
    ) {
        if let Ok(encoded) = punycode::encode(&input, None) {
            same_decode(&encoded, limit)?;
            // A truncated encoding ends inside a delta, or decodes to less.
            let cut = cut.index(encoded.len() + 1);
            same_decode(&encoded[..cut], limit)?;
        }
    }

    /// The label decoder (at most 64 bytes) reads most integers four digits
    /// at a time: integers of every length, mixed-case digits (the flags),
    /// literal portions, every cut, and single bytes changed.
    #[test]
    fn label_decode_matches_naive(
        input in prop::collection::vec(
            prop_oneof![0u32..0x80, 0x80u32..0x800, 0x800u32..0x11_0000, 0x8000_0000u32..=u32::MAX],
            0..24,
        ),
        upper in prop::collection::vec(any::<bool>(), 24),
        limit in prop_oneof![Just(u32::MAX), 0u32..70],
        cut in any::<prop::sample::Index>(),
        change in any::<prop::sample::Index>(),
        byte in prop::sample::select(b"-aAzZ09\x80\xff".to_vec()),
    ) {
        let encoded = punycode::encode(&input, Some(&upper[..input.len()])).ok();
        if let Some(encoded) = encoded.filter(|e| e.len() <= 64) {
            same_decode(&encoded, limit)?;
            same_decode(&encoded[..cut.index(encoded.len() + 1)], limit)?;
            if !encoded.is_empty() {
                let mut changed = encoded.clone();
                changed[change.index(encoded.len())] = byte;
                same_decode(&changed, limit)?;
            }
        }
    }

    #[test]
    fn decode_matches_naive_on_any_bytes(
        input in prop::collection::vec(
            prop_oneof![
                prop::sample::select(b"-aAzZ09".to_vec()),
                b'a'..=b'z',
                b'0'..=b'9',
                any::<u8>(),
            ],
            0..200,
        ),
        limit in prop_oneof![Just(u32::MAX), 0u32..200],
    ) {
        same_decode(&input, limit)?;
    }
}

/// A long input (past the short-label path) whose first non-basic code point
/// sits after `basic` basic code points, with `m` chosen so that the delta
/// reaches `maxint - slack` before the smaller code points are counted: the
/// RFC fails at the `slack + 1`-th basic code point.
fn increment_overflow_input(basic: usize, slack: u32) -> Vec<u32> {
    let h = basic as u32;
    // delta = (m - 0x80) * (h + 1) must be maxint - slack exactly.
    let target = u32::MAX - slack;
    assert_eq!(target % (h + 1), 0, "choose basic so that h + 1 divides");
    let m = 0x80 + target / (h + 1);
    let mut input = vec![u32::from(b'a'); basic];
    input.push(m);
    input
}

#[test]
fn increment_overflow_is_found_at_the_rfcs_position() {
    // 2^32 - 1 = 3 * 5 * 17 * 257 * 65537: h + 1 = 255 divides maxint - 0,
    // and maxint - 255 = 255 * 16843008.
    for (basic, slack) in [(254, 0), (254, 255), (84, 0), (16, 0), (50, 0)] {
        if (u32::MAX - slack) % (basic as u32 + 1) != 0 {
            continue;
        }
        let input = increment_overflow_input(basic, slack);
        let naive = encode_naive(&input, None, u32::MAX);
        let fast = punycode::encode(&input, None);
        assert_eq!(fast, naive, "basic {basic} slack {slack}");
        if slack < basic as u32 {
            assert_eq!(
                fast,
                Err(Error::Overflow {
                    check: OverflowCheck::EncodeIncrement,
                    position: slack as usize,
                }),
                "basic {basic} slack {slack}"
            );
        }
        assert_eq!(
            fast.map_err(|e| e.kind()),
            c_reference::encode(&input, None).map_err(|e| match e {
                c_reference::CError::Status(kind) => kind,
                other => panic!("C reference could not run: {other:?}"),
            })
        );
    }
}

#[test]
fn increment_overflow_in_a_later_round_of_a_long_input() {
    // 200 distinct non-basic code points 0x100.. in order (one round each),
    // 54 basic 'x', then m. After the 200 rounds h = 254, n = 0x1C8 and
    // delta = 253 - 199 + 1 = 55 (the 'x's after the last one, plus one), so
    // the last round starts at delta = 55 + (m - 0x1C8) * 255.
    let mut input: Vec<u32> = (0..200).map(|k| 0x100 + k).collect();
    input.extend(std::iter::repeat_n(u32::from(b'x'), 54));
    // slack 200: delta = maxint - 200 and the 201st smaller code point
    // (position 200, the first 'x') overflows; slack 455: all 254 fit.
    for (slack, expected) in [
        (
            200u32,
            Some(Error::Overflow {
                check: OverflowCheck::EncodeIncrement,
                position: 200,
            }),
        ),
        (455, None),
    ] {
        let mut probe = input.clone();
        probe.push(0x1C8 + (u32::MAX - slack - 55) / 255);
        let naive = encode_naive(&probe, None, u32::MAX);
        let fast = punycode::encode(&probe, None);
        assert_eq!(fast, naive, "slack {slack}");
        assert_eq!(fast.err(), expected, "slack {slack}");
    }
}

#[test]
fn long_inputs_round_trip_and_match_naive() {
    // Many distinct values in a scrambled order, and few values repeated;
    // long enough for each structure the long decoder places with (blocks
    // of 16 and of 64 words, and the Fenwick tree past 4096 code points).
    let many = |len: u32| -> Vec<u32> { (0..len).map(|k| 0x4E00 + (k * 7919) % len).collect() };
    let few = |len: u32| -> Vec<u32> {
        (0..len)
            .map(|k| [0x61, 0xE9, 0x4E2D, 0x1F600][k as usize % 4])
            .collect()
    };
    for input in [1000, 3000, 5000]
        .into_iter()
        .flat_map(|len| [many(len), few(len)])
    {
        let encoded = punycode::encode(&input, None).unwrap();
        assert_eq!(Ok(encoded.clone()), encode_naive(&input, None, u32::MAX));
        let decoded = punycode::decode(&encoded).unwrap();
        assert_eq!(decoded.code_points, input);
        assert_eq!(Ok(decoded), decode_naive(&encoded, u32::MAX));
        assert_eq!(c_reference::encode(&input, None), Ok(encoded));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// One buffer reused across calls, errors among them, gives what a
    /// fresh call gives, and is left empty by an error.
    #[test]
    fn buffer_reuse_gives_fresh_results(
        inputs in prop::collection::vec(code_points(120), 1..8),
        junk in prop::collection::vec(any::<u8>(), 0..100),
    ) {
        let mut encoded = Vec::new();
        let mut decoded = punycode::Decoded::default();
        for input in &inputs {
            let fresh = punycode::encode(input, None);
            let reused = punycode::encode_into(input, None, &mut encoded);
            prop_assert_eq!(reused.map(|()| encoded.clone()), fresh.clone());
            if let Ok(text) = fresh {
                let fresh = punycode::decode(&text);
                let reused = punycode::decode_into(&text, &mut decoded);
                prop_assert_eq!(reused.map(|()| decoded.clone()), fresh);
            }
            let fresh = punycode::decode(&junk);
            let reused = punycode::decode_into(&junk, &mut decoded);
            prop_assert_eq!(reused.map(|()| decoded.clone()), fresh.clone());
            if fresh.is_err() {
                prop_assert!(decoded.code_points.is_empty() && decoded.flags.is_empty());
            }
        }
    }
}
