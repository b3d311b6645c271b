//! The clean-room code returns exactly what the C reference returns: the same
//! output, the same flags, the same error kind, for every input tried here
//! (exhaustively over short strings, then generated inputs that reach the
//! overflow limits and the edges of the alphabet).

use proptest::prelude::*;
use punycheck::c_reference::{self, CError};
use punycheck::punycode::{self, Decoded, ErrorKind};

fn c_encode(input: &[u32], flags: Option<&[bool]>) -> Result<Vec<u8>, ErrorKind> {
    c_reference::encode(input, flags).map_err(|e| match e {
        CError::Status(kind) => kind,
        other => panic!("C reference could not run: {other:?}"),
    })
}

fn c_decode(input: &[u8]) -> Result<Decoded, ErrorKind> {
    c_reference::decode(input).map_err(|e| match e {
        CError::Status(kind) => kind,
        other => panic!("C reference could not run: {other:?}"),
    })
}

fn same_decode(input: &[u8]) -> Result<(), TestCaseError> {
    let ours = punycode::decode(input).map_err(|e| e.kind());
    prop_assert_eq!(
        ours,
        c_decode(input),
        "decoding {:?}",
        String::from_utf8_lossy(input)
    );
    Ok(())
}

fn same_encode(input: &[u32], flags: Option<&[bool]>) -> Result<(), TestCaseError> {
    let ours = punycode::encode(input, flags).map_err(|e| e.kind());
    prop_assert_eq!(
        ours,
        c_encode(input, flags),
        "encoding {:X?} flags {:?}",
        input,
        flags
    );
    Ok(())
}

/// Every string of up to four bytes over an alphabet with every class of
/// byte the decoder distinguishes: delimiter, digit edges of each range, the
/// characters just outside them, controls, and bytes >= 0x80.
#[test]
fn exhaustive_short_strings() {
    let alphabet: &[u8] = b"-aAzZ09@[`{/: \x00\x7f\x80\xff";
    let mut count = 0;
    let mut input = Vec::new();
    fn walk(alphabet: &[u8], input: &mut Vec<u8>, depth: usize, count: &mut usize) {
        same_decode(input).unwrap();
        *count += 1;
        if depth == 0 {
            return;
        }
        for &b in alphabet {
            input.push(b);
            walk(alphabet, input, depth - 1, count);
            input.pop();
        }
    }
    walk(alphabet, &mut input, 4, &mut count);
    assert_eq!(count, (0..=4).map(|k| alphabet.len().pow(k)).sum::<usize>());
}

/// Punycode-looking text: mostly digits of both cases, some delimiters, and
/// now and then any byte at all.
fn punycode_text() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        8 => proptest::sample::select(b"abcdefghijklmnopqrstuvwxyz0123456789".to_vec()),
        2 => proptest::sample::select(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ".to_vec()),
        2 => Just(b'-'),
        1 => any::<u8>(),
    ];
    proptest::collection::vec(byte, 0..48)
}

/// Code points from every region that matters: basic, just above initial_n,
/// the BMP, around U+10FFFF, and near 0xFFFFFFFF and the 2^31 and 2^32/3
/// overflow boundaries.
fn code_point() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => 0u32..0x80,
        2 => 0x80u32..0x100,
        4 => 0x100u32..0x1_0000,
        1 => 0x10_FF00u32..0x11_0100,
        1 => 0xFFFF_FF00u32..=u32::MAX,
        1 => 0x7FFF_FF00u32..0x8000_0100,
        1 => 0x5555_5500u32..0x5555_5600,
        1 => any::<u32>(),
    ]
}

fn code_points_with_flags() -> impl Strategy<Value = (Vec<u32>, Vec<bool>)> {
    proptest::collection::vec((code_point(), any::<bool>()), 0..32)
        .prop_map(|v| v.into_iter().unzip())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn decode_matches_c(input in punycode_text()) {
        same_decode(&input)?;
    }

    #[test]
    fn encode_matches_c((cps, flags) in code_points_with_flags()) {
        same_encode(&cps, None)?;
        same_encode(&cps, Some(&flags))?;
    }

    /// Strings the encoder produced, then perturbed by one byte: the decoder
    /// must agree with C on near-valid input too.
    #[test]
    fn perturbed_encodings_match_c((cps, flags) in code_points_with_flags(), at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        if let Ok(mut text) = c_encode(&cps, Some(&flags)) {
            same_decode(&text)?;
            if !text.is_empty() {
                let k = at.index(text.len());
                text[k] = byte;
                same_decode(&text)?;
            }
        }
    }
}
