//! UTF-8 (RFC 2279): the vectors of `vectors/utf8.toml` recomputed by
//! `src/utf8.rs` and by the independent `tests/impls/rfc2279.py`, round-trip
//! and uniqueness properties, strict mode against `std::str::from_utf8`,
//! and the fuzz oracles.

use crate::common;

use std::io::Write;
use std::process::Stdio;

use proptest::prelude::*;
use punycheck::codec::Codec;
use punycheck::fuzz::utf8 as oracle;
use punycheck::harness::vectors::{self, Case, CodePoints, Expected, Input};
use punycheck::punycode::ErrorKind;
use punycheck::utf8::{self, DecodeReason, Error, MAX_RFC2279, Mode};

const VECTORS: &str = include_str!("../crates/punycheck/vectors/utf8.toml");
const RFC2279_PY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/rfc2279.py");

fn cases() -> Vec<Case> {
    vectors::parse_file("utf8.toml", VECTORS).expect("vectors/utf8.toml parses")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs rfc2279.py with `flag` on each of `stdins`, several at once:
/// `Ok(stdout)` or `Err(stderr)` for each.
fn python_many(flag: &str, stdins: &[String]) -> Vec<Result<String, String>> {
    let mut results = Vec::with_capacity(stdins.len());
    for chunk in stdins.chunks(8) {
        let children: Vec<_> = chunk
            .iter()
            .map(|stdin| {
                let mut child = common::python_command()
                    .args(["-E", RFC2279_PY, flag])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("python3 runs (it is on every machine of this project's kind)");
                child
                    .stdin
                    .take()
                    .expect("stdin is piped")
                    .write_all(stdin.as_bytes())
                    .expect("rfc2279.py reads its input");
                child
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().expect("rfc2279.py finishes");
            let stdout = String::from_utf8(out.stdout).expect("rfc2279.py prints ASCII");
            let stderr = String::from_utf8(out.stderr).expect("rfc2279.py prints ASCII");
            results.push(match out.status.code() {
                Some(0) if stderr.is_empty() => Ok(stdout),
                Some(1) if stderr == "invalid input\n" && stdout.is_empty() => Err(stderr),
                other => panic!(
                    "rfc2279.py {flag}: status {other:?}, stdout {stdout:?}, stderr {stderr:?}"
                ),
            });
        }
    }
    results
}

/// The Python implementation's answers in the vectors' terms.
fn python_encode_many(inputs: &[&[u32]]) -> Vec<Expected> {
    let stdins: Vec<String> = inputs
        .iter()
        .map(|values| CodePoints::with_flags(values, None).to_string())
        .collect();
    python_many("-e", &stdins)
        .into_iter()
        .map(|answer| match answer {
            Ok(line) => Expected::Encoded(
                vectors::parse_hex(line.trim_end()).expect("rfc2279.py prints hex"),
            ),
            Err(_) => Expected::Error(ErrorKind::BadInput),
        })
        .collect()
}

fn python_decode_many(inputs: &[&[u8]]) -> Vec<Expected> {
    let stdins: Vec<String> = inputs.iter().map(|b| format!("{}\n", hex(b))).collect();
    python_many("-d", &stdins)
        .into_iter()
        .map(|answer| match answer {
            Ok(lines) => Expected::Decoded(
                CodePoints::parse(&lines).expect("rfc2279.py prints u+XXXX lines"),
            ),
            Err(_) => Expected::Error(ErrorKind::BadInput),
        })
        .collect()
}

fn python_encode(values: &[u32]) -> Expected {
    python_encode_many(&[values]).remove(0)
}

fn python_decode(bytes: &[u8]) -> Expected {
    python_decode_many(&[bytes]).remove(0)
}

fn rust_encode(values: &[u32], mode: Mode) -> Expected {
    match utf8::encode(values, mode) {
        Ok(bytes) => Expected::Encoded(bytes),
        Err(e) => Expected::Error(e.kind()),
    }
}

fn rust_decode(bytes: &[u8], mode: Mode) -> Expected {
    match utf8::decode(bytes, mode) {
        Ok(values) => Expected::Decoded(CodePoints::with_flags(&values, None)),
        Err(e) => Expected::Error(e.kind()),
    }
}

#[test]
fn vector_file_is_utf8_with_provenance() {
    let cases = cases();
    assert!(cases.len() > 90, "{}", cases.len());
    for case in &cases {
        assert_eq!(case.codec, Codec::Utf8, "{}", case.name);
        assert!(!case.annotations, "{}: UTF-8 has no flags", case.name);
        assert!(case.provenance.len() > 20, "{}", case.name);
    }
    // Every sequence length, both ways, and errors in both directions.
    let decoded_lengths: Vec<usize> = cases
        .iter()
        .filter_map(|c| match (&c.input, &c.expected) {
            (Input::Decode(bytes), Expected::Decoded(cps)) if cps.values.len() == 1 => {
                Some(bytes.len())
            }
            _ => None,
        })
        .collect();
    for len in 1..=6 {
        assert!(decoded_lengths.contains(&len), "no {len}-octet vector");
    }
    assert!(cases.iter().any(|c| matches!(
        (&c.input, &c.expected),
        (Input::Encode(_), Expected::Error(ErrorKind::BadInput))
    )));
}

#[test]
fn vectors_agree_with_both_implementations() {
    let cases = cases();
    let encodes: Vec<(&Case, &[u32])> = cases
        .iter()
        .filter_map(|c| match &c.input {
            Input::Encode(cps) => Some((c, cps.values.as_slice())),
            Input::Decode(_) => None,
        })
        .collect();
    let decodes: Vec<(&Case, &[u8])> = cases
        .iter()
        .filter_map(|c| match &c.input {
            Input::Decode(bytes) => Some((c, bytes.as_slice())),
            Input::Encode(_) => None,
        })
        .collect();
    let inputs: Vec<&[u32]> = encodes.iter().map(|(_, v)| *v).collect();
    for ((case, values), python) in encodes.iter().zip(python_encode_many(&inputs)) {
        let rust = rust_encode(values, Mode::Rfc2279);
        assert_eq!(rust, case.expected, "{}: src/utf8.rs", case.name);
        assert_eq!(python, case.expected, "{}: rfc2279.py", case.name);
    }
    let inputs: Vec<&[u8]> = decodes.iter().map(|(_, b)| *b).collect();
    for ((case, bytes), python) in decodes.iter().zip(python_decode_many(&inputs)) {
        let rust = rust_decode(bytes, Mode::Rfc2279);
        assert_eq!(rust, case.expected, "{}: src/utf8.rs", case.name);
        assert_eq!(python, case.expected, "{}: rfc2279.py", case.name);
    }
}

/// A decoding error is at the end of the longest prefix that both
/// implementations accept.
#[test]
fn vector_errors_are_at_the_longest_valid_prefix() {
    let mut prefixes: Vec<(String, Vec<u8>)> = Vec::new();
    for case in cases() {
        let (Input::Decode(bytes), Expected::Error(_)) = (&case.input, &case.expected) else {
            continue;
        };
        let error = utf8::decode(bytes, Mode::Rfc2279).unwrap_err();
        let at = error.position();
        prefixes.push((format!("{}: {error}", case.name), bytes[..at].to_vec()));
        for end in at + 1..=bytes.len() {
            assert_eq!(
                rust_decode(&bytes[..end], Mode::Rfc2279),
                Expected::Error(ErrorKind::BadInput),
                "{}: {error} but the first {end} bytes decode",
                case.name
            );
        }
    }
    let inputs: Vec<&[u8]> = prefixes.iter().map(|(_, p)| p.as_slice()).collect();
    for ((what, prefix), python) in prefixes.iter().zip(python_decode_many(&inputs)) {
        assert!(
            matches!(python, Expected::Decoded(_)),
            "{what}, but rfc2279.py refuses the bytes before: {prefix:02X?}"
        );
    }
}

#[test]
fn vector_errors_say_why() {
    let reason = |name: &str| {
        let case = cases().into_iter().find(|c| c.name == name).unwrap();
        let Input::Decode(bytes) = &case.input else {
            panic!("{name} decodes")
        };
        match utf8::decode(bytes, Mode::Rfc2279) {
            Err(Error::Decode {
                position, reason, ..
            }) => (position, reason),
            other => panic!("{name}: {other:?}"),
        }
    };
    use DecodeReason::*;
    assert_eq!(reason("utf8-security-nul-c0-80"), (0, Overlong));
    assert_eq!(reason("utf8-security-dotdot-2f-c0-ae-2e-2f"), (1, Overlong));
    assert_eq!(reason("utf8-overlong-3FFFFFF-in-6-octets"), (0, Overlong));
    assert_eq!(reason("utf8-byte-fe-ff-after-ascii"), (1, InvalidByte));
    assert_eq!(reason("utf8-truncated-6-octet-after-5"), (0, Truncated));
    assert_eq!(reason("utf8-truncated-example-1-tail"), (1, Truncated));
    assert_eq!(
        reason("utf8-stray-continuation-after-6-octets"),
        (6, StrayContinuation)
    );
    assert_eq!(
        reason("utf8-missing-continuation-6-octet"),
        (0, MissingContinuation)
    );
}

/// Values from every row of the table (its ends, their neighbours and a
/// spread in between), one call each way to rfc2279.py.
#[test]
fn python_agrees_on_many_values() {
    let mut values = Vec::new();
    for k in 0..6 {
        let (low, high) = (utf8::SEQUENCE_MIN[k], utf8::SEQUENCE_MAX[k]);
        values.extend([low, low + 1, high - 1, high]);
        let mut x: u32 = 0x9E37_79B9 ^ k as u32;
        for _ in 0..40 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            values.push(low + x % (high - low));
        }
    }
    let encoded = utf8::encode(&values, Mode::Rfc2279).unwrap();
    assert_eq!(python_encode(&values), Expected::Encoded(encoded.clone()));
    assert_eq!(
        python_decode(&encoded),
        Expected::Decoded(CodePoints::with_flags(&values, None))
    );
}

/// Mutated encodings, each asked of rfc2279.py: the same accept/reject and
/// values as src/utf8.rs.
#[test]
fn python_agrees_on_mutated_sequences() {
    let mut x: u32 = 2279;
    let mut next = move || {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        x >> 8
    };
    let mut inputs = Vec::new();
    for _ in 0..60 {
        let values: Vec<u32> = (0..3).map(|_| next() >> (next() % 24)).collect();
        let mut bytes = utf8::encode(&values, Mode::Rfc2279).unwrap();
        let at = next() as usize % bytes.len();
        match next() % 4 {
            0 => bytes[at] = next() as u8,
            1 => bytes.truncate(at),
            2 => bytes.insert(at, 0x80 | (next() as u8 & 0x7F)),
            _ => {
                bytes.remove(at);
            }
        }
        inputs.push(bytes);
    }
    let slices: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let mut refused = 0;
    for (bytes, python) in inputs.iter().zip(python_decode_many(&slices)) {
        refused += usize::from(matches!(python, Expected::Error(_)));
        assert_eq!(python, rust_decode(bytes, Mode::Rfc2279), "{bytes:02X?}");
    }
    assert!((10..50).contains(&refused), "{refused} of 60 refused");
}

/// A piece of a generated byte string.
#[derive(Clone, Debug)]
enum Piece {
    /// The RFC 2279 sequence of a value (any length).
    Valid(u32),
    /// Any byte.
    Byte(u8),
    /// A value written in `extra` more octets than it needs.
    Overlong(u32, usize),
    /// The first `keep` octets of a value's sequence.
    Truncated(u32, usize),
}

fn any_value() -> impl Strategy<Value = u32> {
    // Uniform over the sequence lengths rather than over the values.
    (0u32..32, any::<u32>()).prop_map(|(shift, v)| (v >> shift) & MAX_RFC2279)
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        4 => any_value().prop_map(Piece::Valid),
        2 => any::<u8>().prop_map(Piece::Byte),
        1 => (any_value(), 1usize..6).prop_map(|(v, e)| Piece::Overlong(v, e)),
        1 => (any_value(), 0usize..6).prop_map(|(v, k)| Piece::Truncated(v, k)),
    ]
}

/// Writes `value` in `len` octets by the bit layout of RFC 2279's table,
/// whether or not `len` is its length (an overlong form when longer).
fn sequence_of_len(value: u32, len: usize) -> Vec<u8> {
    if len == 1 {
        return vec![value as u8 & 0x7F];
    }
    let mut out = vec![0x80u8; len];
    let mut bits = value;
    for byte in out[1..].iter_mut().rev() {
        *byte |= (bits & 0x3F) as u8;
        bits >>= 6;
    }
    out[0] = (0xFF00u16 >> len) as u8 | (bits as u8 & (0x7F >> len));
    out
}

fn bytes_of(pieces: &[Piece]) -> Vec<u8> {
    let mut out = Vec::new();
    for piece in pieces {
        match *piece {
            Piece::Valid(v) => out.extend(utf8::encode(&[v], Mode::Rfc2279).unwrap()),
            Piece::Byte(b) => out.push(b),
            Piece::Overlong(v, extra) => {
                let len = utf8::sequence_len(v).unwrap() + extra;
                if len <= 6 {
                    out.extend(sequence_of_len(v, len));
                }
            }
            Piece::Truncated(v, keep) => {
                let seq = utf8::encode(&[v], Mode::Rfc2279).unwrap();
                out.extend(&seq[..keep.min(seq.len().saturating_sub(1))]);
            }
        }
    }
    out
}

fn mutated_utf8() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<String>(),
        prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<u8>()), 0..3),
    )
        .prop_map(|(text, mutations)| {
            let mut bytes = text.into_bytes();
            for (at, how, byte) in mutations {
                if bytes.is_empty() {
                    bytes.push(byte);
                    continue;
                }
                let at = at.index(bytes.len());
                match how {
                    0 => bytes[at] = byte,
                    1 => bytes.truncate(at),
                    2 => bytes.insert(at, byte),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            bytes
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn rfc2279_round_trip(values in prop::collection::vec(any_value(), 0..16)) {
        let bytes = utf8::encode(&values, Mode::Rfc2279).unwrap();
        prop_assert_eq!(utf8::decode(&bytes, Mode::Rfc2279).unwrap(), values.clone());
        prop_assert_eq!(oracle::roundtrip(&values), Ok(()));
    }

    #[test]
    fn rfc2279_round_trip_of_single_values(value in 0..=MAX_RFC2279) {
        let bytes = utf8::encode(&[value], Mode::Rfc2279).unwrap();
        prop_assert_eq!(Some(bytes.len()), utf8::sequence_len(value));
        prop_assert_eq!(utf8::decode(&bytes, Mode::Rfc2279).unwrap(), vec![value]);
    }

    #[test]
    fn values_above_rfc2279_are_refused_where_they_are(
        mut values in prop::collection::vec(any_value(), 0..8),
        at in any::<prop::sample::Index>(),
        big in (MAX_RFC2279 + 1)..=u32::MAX,
    ) {
        let at = at.index(values.len() + 1);
        values.insert(at, big);
        let error = utf8::encode(&values, Mode::Rfc2279).unwrap_err();
        prop_assert_eq!(error.position(), at);
        prop_assert_eq!(error.kind(), ErrorKind::BadInput);
    }

    #[test]
    fn decoding_is_unique(pieces in prop::collection::vec(piece(), 0..12)) {
        let bytes = bytes_of(&pieces);
        if let Ok(values) = utf8::decode(&bytes, Mode::Rfc2279) {
            prop_assert_eq!(utf8::encode(&values, Mode::Rfc2279).unwrap(), bytes.clone());
        }
        prop_assert_eq!(oracle::uniqueness(&bytes), Ok(()));
        prop_assert_eq!(oracle::strict_matches_std(&bytes), Ok(()));
    }

    #[test]
    fn strict_matches_std_on_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        prop_assert_eq!(oracle::strict_matches_std(&bytes), Ok(()));
    }

    #[test]
    fn strict_matches_std_on_mutated_utf8(bytes in mutated_utf8()) {
        let strict = utf8::decode(&bytes, Mode::Strict);
        match std::str::from_utf8(&bytes) {
            Ok(text) => prop_assert_eq!(strict.unwrap(), text.chars().map(u32::from).collect::<Vec<_>>()),
            Err(e) => {
                let error = strict.unwrap_err();
                prop_assert_eq!(error.position(), e.valid_up_to());
                prop_assert_eq!(error.error_len(), e.error_len());
            }
        }
        prop_assert_eq!(oracle::strict_matches_std(&bytes), Ok(()));
    }

    #[test]
    fn strict_encoding_matches_std(text in any::<String>()) {
        let values: Vec<u32> = text.chars().map(u32::from).collect();
        prop_assert_eq!(utf8::encode(&values, Mode::Strict).unwrap(), text.as_bytes());
    }

    #[test]
    fn strict_refuses_exactly_the_non_scalars(value in any_value()) {
        let strict = utf8::encode(&[value], Mode::Strict);
        prop_assert_eq!(strict.is_ok(), char::from_u32(value).is_some());
        let bytes = utf8::encode(&[value], Mode::Rfc2279).unwrap();
        prop_assert_eq!(utf8::decode(&bytes, Mode::Strict).is_ok(), char::from_u32(value).is_some());
    }

    #[test]
    fn rfc2279_oracle_holds(data in prop::collection::vec(any::<u8>(), 0..48)) {
        prop_assert_eq!(oracle::rfc2279_roundtrip(&data), Ok(()));
    }
}

#[test]
fn oracles_hold_on_the_vectors_and_seeds() {
    for case in cases() {
        match &case.input {
            Input::Decode(bytes) => {
                oracle::strict_matches_std(bytes).unwrap();
                oracle::uniqueness(bytes).unwrap();
                let mut data = vec![0];
                data.extend(bytes);
                oracle::rfc2279_roundtrip(&data).unwrap();
            }
            Input::Encode(cps) => oracle::roundtrip(&cps.values).unwrap(),
        }
    }
    for (dir, oracle) in [
        ("utf8_strict", oracle::strict_matches_std as fn(&[u8]) -> _),
        ("utf8_rfc2279", oracle::rfc2279_roundtrip),
    ] {
        let path = format!("{}/fuzz/seeds/{dir}", env!("CARGO_MANIFEST_DIR"));
        let mut seeds = 0;
        for entry in std::fs::read_dir(&path).unwrap() {
            let data = std::fs::read(entry.unwrap().path()).unwrap();
            oracle(&data).unwrap();
            seeds += 1;
        }
        assert!(seeds >= 3, "{path}: {seeds} seeds");
    }
}

#[test]
fn rfc2279_oracle_reads_code_points() {
    // Odd first byte: five bytes per value, a shift and a little-endian u32.
    let data = [
        1, 0, 0xFF, 0xFF, 0xFF, 0x7F, 31, 0, 0, 0, 0x80, 0, 0x41, 0, 0, 0,
    ];
    assert_eq!(oracle::values_of(&data[1..]), [0x7FFF_FFFF, 1, 0x41]);
    oracle::rfc2279_roundtrip(&data).unwrap();
    assert_eq!(
        oracle::roundtrip(&[0x41, 0x8000_0000]),
        Ok(()),
        "a refusal at the right place passes"
    );
}

/// A decoder whose errors are one byte later than they should be.
fn one_byte_late(mode: Mode) -> impl Fn(&[u8]) -> Result<Vec<u32>, Error> {
    move |bytes| {
        utf8::decode(bytes, mode).map_err(|e| match e {
            Error::Decode {
                position,
                len,
                reason,
            } => Error::Decode {
                position: position + 1,
                len,
                reason,
            },
            other => other,
        })
    }
}

#[test]
fn oracles_fail_on_wrong_decoders() {
    // Accepting an overlong NUL, as the naive decoder of RFC 2279's NOTE does.
    let naive = |bytes: &[u8]| {
        if bytes == b"\xC0\x80" {
            Ok(vec![0])
        } else {
            utf8::decode(bytes, Mode::Strict)
        }
    };
    assert!(oracle::strict_matches_std_of(b"\xC0\x80", naive).is_err());
    assert!(oracle::strict_matches_std_of(b"ok", naive).is_ok());
    // Reporting the offending byte rather than the start of its sequence.
    let late = one_byte_late(Mode::Strict);
    assert!(oracle::strict_matches_std_of(b"a\xE2\x89A", late).is_err());
    // Uniqueness: the naive decoder lets a second string decode to NUL.
    let naive_rfc2279 = |bytes: &[u8]| {
        if bytes == b"\xC0\x80" {
            Ok(vec![0])
        } else {
            utf8::decode(bytes, Mode::Rfc2279)
        }
    };
    assert!(oracle::uniqueness_of(b"\xC0\x80", naive_rfc2279).is_err());
    assert!(oracle::uniqueness_of(b"\x00", naive_rfc2279).is_ok());
    // An error placed after the longest valid prefix.
    let late_rfc2279 = one_byte_late(Mode::Rfc2279);
    assert!(oracle::uniqueness_of(b"a\xFE", late_rfc2279).is_err());
}

/// The harness classifies every difference between `std` and the clean-room
/// UTF-8 on the byte strings around each boundary as the listed deviation,
/// never as a nonconformance (the predicate itself is unit-tested in
/// `crates/punycheck/src/engines/builtin/utf8.rs`).
#[test]
fn std_differs_only_by_its_listed_deviation() {
    use punycheck::engines::{Engine, StdUtf8, Utf8CleanRoom};
    use punycheck::harness::compare::{Request, Verdict, judge};
    use punycheck::vocabulary::{CodePoints, Expected};
    let mut inputs: Vec<Vec<u8>> = vec![vec![]];
    for a in 0..=255u8 {
        inputs.push(vec![a]);
        for b in [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0] {
            let mut seq = vec![a, b];
            inputs.push(seq.clone());
            for _ in 0..4 {
                seq.push(0x80);
                inputs.push(seq.clone());
            }
        }
    }
    let mut differing = 0;
    for bytes in inputs {
        let reference = match Utf8CleanRoom.decode(&bytes) {
            Ok(d) => Expected::Decoded(CodePoints::from(d)),
            Err(punycheck::engines::EngineError::Rejected(Some(kind))) => Expected::Error(kind),
            Err(e) => panic!("{bytes:02X?}: {e}"),
        };
        match judge(&StdUtf8, &Request::Decode(bytes.clone()), &reference) {
            Verdict::Nonconformance(why) => panic!("{bytes:02X?}: {why}"),
            Verdict::Divergence { .. } => differing += 1,
            _ => {}
        }
    }
    // 5- and 6-octet leads, surrogates and values above U+10FFFF differ.
    assert!(differing >= 50, "{differing}");
}
