//! The vector files: every expected value is what the C reference computes,
//! every built-in engine agrees inside its domain, and the overflow vectors
//! hit exactly the check they name.

use std::collections::BTreeSet;

use punycheck::c_reference;
use punycheck::codec::Codec;
use punycheck::engines;
use punycheck::harness::compare::{reference, reference_for};
use punycheck::harness::runner::{self, BUILTIN_EXPECTATIONS, Expectations, Outcome, request_of};
use punycheck::harness::vectors::{self, Case, Expected, Input};
use punycheck::punycode::{self, Error, ErrorKind, MAXINT, OverflowCheck};
use punycheck::rfc_text::{RFC3492_TEXT, samples};

/// The Punycode vectors (the other codecs' files are checked by their own
/// tests, and by `every_codec_s_vectors_agree_with_its_reference` below).
fn cases() -> Vec<Case> {
    vectors::builtin()
        .expect("built-in vectors parse")
        .into_iter()
        .filter(|c| c.codec == Codec::Punycode)
        .collect()
}

#[test]
fn every_vector_file_is_built_in() {
    let on_disk: BTreeSet<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/vectors"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".toml"))
            .filter(|n| n != "expectations.toml" && n != "divergence-classes.toml")
            .collect();
    let built_in: BTreeSet<String> = vectors::BUILTIN
        .iter()
        .map(|(f, _)| f.to_string())
        .collect();
    assert_eq!(on_disk, built_in);
}

#[test]
fn every_codec_s_vectors_agree_with_its_reference() {
    let all = vectors::builtin().unwrap();
    for codec in Codec::ALL {
        let cases: Vec<&Case> = all.iter().filter(|c| c.codec == codec).collect();
        assert!(cases.len() > 20, "{codec} has vectors");
        for case in cases {
            let got = reference_for(codec, &request_of(case))
                .unwrap_or_else(|| panic!("{}: the reference cannot take it", case.name));
            assert_eq!(got, case.expected, "{} ({})", case.name, case.file);
        }
    }
}

#[test]
fn vectors_agree_with_c_reference() {
    let cases = cases();
    assert!(cases.len() > 100);
    for case in &cases {
        let got = reference(&request_of(case))
            .unwrap_or_else(|| panic!("{}: the C reference cannot take it", case.name));
        assert_eq!(got, case.expected, "{} ({})", case.name, case.file);
    }
}

#[test]
fn sample_vectors_are_the_rfc_samples() {
    let cases = cases();
    let rfc = samples(RFC3492_TEXT);
    assert_eq!(rfc.len(), 19);
    for sample in &rfc {
        let name = format!("rfc3492-7.1-{}-encode-annotated", sample.id);
        let case = cases
            .iter()
            .find(|c| c.name == name)
            .expect("sample vector present");
        let Input::Encode(cps) = &case.input else {
            panic!("{name} encodes")
        };
        let printed: Vec<(u32, bool)> = cps
            .values
            .iter()
            .copied()
            .zip(cps.flags.iter().copied())
            .collect();
        assert_eq!(printed, sample.code_points, "{name}");
        for suffix in ["encode-plain", "decode-annotated", "decode-plain"] {
            let other = format!("rfc3492-7.1-{}-{suffix}", sample.id);
            assert!(cases.iter().any(|c| c.name == other), "{other} missing");
        }
        // The RFC's printed strings are a cross-check, never the source.
        assert_eq!(
            case.expected,
            Expected::Encoded(sample.printed.clone().into_bytes()),
            "{name}: the C reference disagrees with the RFC's printed string"
        );
    }
}

#[test]
fn bias_decode_vectors_decode_the_c_encodings() {
    let cases = cases();
    let bias: Vec<&Case> = cases.iter().filter(|c| c.file == "bias.toml").collect();
    assert!(bias.len() >= 16);
    for decode in bias.iter().filter(|c| c.name.ends_with("-decode")) {
        let encode_name = decode.name.replace("-decode", "-encode");
        let encode = cases
            .iter()
            .find(|c| c.name == encode_name)
            .expect("paired encode case");
        let (Input::Encode(cps), Input::Decode(text)) = (&encode.input, &decode.input) else {
            panic!("{} pairs an encode with a decode", decode.name)
        };
        assert_eq!(
            &c_reference::encode(&cps.values, None).unwrap(),
            text,
            "{}",
            decode.name
        );
    }
}

#[test]
fn erratum_3026_is_rejected_by_computation() {
    let erratum = b"b1abfaaepdrnnbgefbaDdotcwatmq2g4l";
    let sample_i = samples(RFC3492_TEXT)
        .into_iter()
        .find(|s| s.id == 'I')
        .unwrap();
    let expected: Vec<u32> = sample_i.code_points.iter().map(|c| c.0).collect();
    let decoded = c_reference::decode(erratum).expect("the erratum's string decodes");
    assert_ne!(decoded.code_points, expected);
    let printed = c_reference::decode(sample_i.printed.as_bytes()).unwrap();
    assert_eq!(printed.code_points, expected);
}

#[test]
fn builtin_engines_agree_on_every_vector() {
    let cases = cases();
    let expectations = Expectations::parse(BUILTIN_EXPECTATIONS).unwrap();
    // The expectations name every built-in, also those this build's
    // features leave out (`cargo test -p punycheck` has none).
    let mut known = engines::builtin_names();
    known.extend(
        engines::missing_for(Codec::Punycode)
            .iter()
            .map(|m| m.name.to_string()),
    );
    expectations.validate(&known, &cases).unwrap();
    let report = runner::run(&engines::builtin(), &cases, &expectations);
    let failures: Vec<String> = report
        .failures()
        .map(|r| format!("{} on {}: {:?}", r.engine, r.case, r.outcome))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The reference and the clean-room code run everything; idna, libidn2
    // and icu skip only for the reasons their capabilities declare.
    for row in &report.rows {
        match (row.engine.as_str(), &row.outcome) {
            ("rfc-c" | "cleanroom", outcome) => assert_eq!(outcome, &Outcome::Pass, "{}", row.case),
            ("idna", Outcome::Skip(reason)) => assert!(
                reason.contains("annotations")
                    || reason.contains("Unicode scalar")
                    || reason.contains("UTF-8"),
                "{}: {reason}",
                row.case
            ),
            // u32 code points and any bytes: only annotations are missing.
            ("libidn2", Outcome::Skip(reason)) => {
                assert!(reason.contains("annotations"), "{}: {reason}", row.case)
            }
            // Annotations and any bytes, but UTF-16: only the domain is
            // missing, and long inputs pass its declared limits (1000 code
            // units to encode, 2000 to decode).
            ("icu", Outcome::Skip(reason)) => assert!(
                reason.contains("Unicode scalar")
                    || reason.contains("exceed its limit of")
                    || reason.contains("own size limit"),
                "{}: {reason}",
                row.case
            ),
            _ => {}
        }
    }
    let passes = |engine: &str| {
        report
            .rows
            .iter()
            .filter(|r| r.engine == engine && r.outcome == Outcome::Pass)
            .count()
    };
    let built = punycheck::engines::builtin_names();
    for (engine, at_least) in [("idna", 80), ("libidn2", 80), ("icu", 110)] {
        if !built.iter().any(|b| b == engine) {
            continue; // a cargo feature left out of this build
        }
        let n = passes(engine);
        assert!(n > at_least, "{engine} ran too few cases: {n}");
    }
}

fn clean_room(case: &Case) -> Result<(), Error> {
    match &case.input {
        Input::Encode(cps) => punycode::encode(
            &cps.values,
            case.annotations.then_some(cps.flags.as_slice()),
        )
        .map(drop),
        Input::Decode(bytes) => punycode::decode(bytes).map(drop),
    }
}

#[test]
fn overflow_vectors_trip_exactly_their_check() {
    let cases = cases();
    for case in cases.iter().filter(|c| c.overflow_check.is_some()) {
        let want = case.overflow_check.unwrap();
        match clean_room(case) {
            Err(Error::Overflow { check, .. }) => assert_eq!(check, want, "{}", case.name),
            other => panic!(
                "{}: expected overflow at {want:?}, got {other:?}",
                case.name
            ),
        }
    }
}

#[test]
fn limit_vectors_land_exactly_on_maxint() {
    for case in cases().iter().filter(|c| c.limit_check.is_some()) {
        let check = case.limit_check.unwrap();
        let landed = match (&case.input, check) {
            (Input::Decode(bytes), OverflowCheck::DecodeDigit) => {
                let (result, steps) = punycode::decode_traced(bytes);
                result.is_ok() && steps.iter().any(|s| s.i_before_wrap == MAXINT)
            }
            (Input::Decode(bytes), OverflowCheck::DecodeCodePoint) => {
                let (result, steps) = punycode::decode_traced(bytes);
                result.is_ok() && steps.iter().any(|s| s.code_point == MAXINT)
            }
            (Input::Encode(cps), OverflowCheck::EncodeDelta | OverflowCheck::EncodeIncrement) => {
                let (result, steps) = punycode::encode_traced(&cps.values, None);
                result.is_ok() && steps.iter().any(|s| s.delta == MAXINT)
            }
            (_, other) => panic!("{}: no way to verify a limit of {other:?}", case.name),
        };
        assert!(landed, "{} does not land on maxint at {check:?}", case.name);
    }
}

#[test]
fn every_reachable_overflow_check_has_a_trip_and_a_limit_vector() {
    let cases = cases();
    for check in OverflowCheck::ALL {
        if matches!(check, OverflowCheck::DecodeWeight | OverflowCheck::Length) {
            // DecodeWeight: unreachable, proven by punycode::tests::
            // weight_overflow_is_unreachable. Length: needs 2^32 elements.
            continue;
        }
        assert!(
            cases.iter().any(|c| c.overflow_check == Some(check)),
            "no trip for {check:?}"
        );
        assert!(
            cases.iter().any(|c| c.limit_check == Some(check)),
            "no limit for {check:?}"
        );
    }
}

#[test]
fn invalid_vectors_cover_every_bad_input_kind() {
    use punycheck::punycode::BadInputReason::*;
    let mut seen = BTreeSet::new();
    for case in cases() {
        if case.expected == Expected::Error(ErrorKind::BadInput) {
            match clean_room(&case) {
                Err(Error::BadInput { reason, .. }) => {
                    seen.insert(format!("{reason:?}"));
                }
                other => panic!("{}: expected bad input, got {other:?}", case.name),
            }
        }
    }
    for reason in [NonBasicInLiteral, NotADigit, UnexpectedEnd] {
        assert!(
            seen.contains(&format!("{reason:?}")),
            "no vector for {reason:?}"
        );
    }
}

/// `unicode-limits.toml` asks only what an implementation that takes only
/// Unicode scalar values can be asked: its encode inputs and its expected
/// decodings are all scalar values (examples/derive_unicode_limits.rs).
#[test]
fn unicode_limit_vectors_stay_inside_unicode() {
    let cases: Vec<Case> = cases()
        .into_iter()
        .filter(|c| c.file == "unicode-limits.toml")
        .collect();
    assert!(cases.len() >= 200, "{}", cases.len());
    let scalar = |cps: &[u32]| cps.iter().all(|&c| char::from_u32(c).is_some());
    for case in &cases {
        if let Input::Encode(cps) = &case.input {
            assert!(scalar(&cps.values), "{}", case.name);
        }
        if let Expected::Decoded(cps) = &case.expected {
            assert!(scalar(&cps.values), "{}", case.name);
        }
        assert!(
            case.provenance
                .contains("Expected value computed by the C reference"),
            "{}",
            case.name
        );
    }
    // Each reachable check is tripped, and both 32-bit limits are reached.
    for check in [
        OverflowCheck::DecodeDigit,
        OverflowCheck::DecodeCodePoint,
        OverflowCheck::EncodeDelta,
        OverflowCheck::EncodeIncrement,
    ] {
        assert!(
            cases.iter().any(|c| c.overflow_check == Some(check)),
            "{check:?}"
        );
    }
    for check in [
        OverflowCheck::DecodeDigit,
        OverflowCheck::EncodeDelta,
        OverflowCheck::EncodeIncrement,
    ] {
        assert!(
            cases.iter().any(|c| c.limit_check == Some(check)),
            "{check:?}"
        );
    }
}
