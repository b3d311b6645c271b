//! The fuzz targets' oracles (`punycheck::fuzz`), called the way the targets
//! call them: on every vector, on generated requests, and over every input
//! shape of the overflow target. They must hold on correct code, and they
//! must be able to fail (shown on deliberately wrong answers).

use std::collections::BTreeSet;

use punycheck::fuzz::{self, CodePointInput, CodePointSeed, Limit, OverflowInput};
use punycheck::harness::compare::Request;
use punycheck::harness::generate::Generator;
use punycheck::harness::runner::request_of;
use punycheck::harness::vectors;
use punycheck::punycode::{self, Error, OverflowCheck};

#[test]
fn oracles_hold_on_every_vector() {
    for case in vectors::builtin().unwrap() {
        let request = request_of(&case);
        fuzz::diff_c(&request).unwrap();
        fuzz::diff_idna(&request).unwrap();
        if let Request::Decode(bytes) = &request {
            fuzz::uniqueness(bytes).unwrap();
        }
    }
}

#[test]
fn oracles_hold_on_generated_requests() {
    let mut generator = Generator::new(4);
    for _ in 0..5000 {
        let request = generator.next_request();
        fuzz::diff_c(&request).unwrap();
        fuzz::diff_idna(&request).unwrap();
        match &request {
            Request::Decode(bytes) => fuzz::uniqueness(bytes).unwrap(),
            Request::Encode { code_points, flags } => {
                let input = CodePointInput {
                    points: code_points
                        .iter()
                        .enumerate()
                        .map(|(k, &cp)| {
                            (CodePointSeed::Any(cp), flags.as_ref().is_some_and(|f| f[k]))
                        })
                        .collect(),
                    with_flags: flags.is_some(),
                };
                fuzz::roundtrip(&input).unwrap();
            }
        }
    }
}

/// Every shape the overflow target can build, near every limit: the oracle
/// holds, and the shapes land on both sides of all four reachable checks.
#[test]
fn overflow_inputs_reach_both_sides_of_every_limit() {
    let mut tripped = BTreeSet::new();
    let mut passed = 0;
    for limit in [
        Limit::DecodeDigit,
        Limit::DecodeCodePoint,
        Limit::EncodeDelta,
        Limit::EncodeIncrement,
    ] {
        for basics in 0..8 {
            for offset in -3..=3 {
                for twist in 0..4 {
                    let input = OverflowInput {
                        limit,
                        basics,
                        offset,
                        twist,
                        tail: vec![CodePointSeed::Basic(b'a')],
                    };
                    fuzz::overflow(&input).unwrap();
                    let result = match input.request() {
                        Request::Encode { code_points, .. } => {
                            punycode::encode(&code_points, None).map(drop)
                        }
                        Request::Decode(bytes) => punycode::decode(&bytes).map(drop),
                    };
                    match result {
                        Err(Error::Overflow { check, .. }) => {
                            tripped.insert(check);
                        }
                        Ok(()) => passed += 1,
                        Err(_) => {}
                    }
                }
            }
        }
    }
    let want: BTreeSet<OverflowCheck> = [
        OverflowCheck::DecodeDigit,
        OverflowCheck::DecodeCodePoint,
        OverflowCheck::EncodeDelta,
        OverflowCheck::EncodeIncrement,
    ]
    .into();
    assert_eq!(tripped, want);
    assert!(passed > 50, "only {passed} shapes stay under the limits");
}

/// The differential oracle is not "does not crash": an answering function
/// with one planted bug (overflow checks missing, as with wrapping
/// arithmetic) is reported on the overflow target's inputs.
#[test]
fn the_differential_oracle_reports_a_planted_bug() {
    use punycheck::harness::vectors::{CodePoints, Expected};
    let wrapping = |request: &Request| match fuzz::cleanroom_answer(request) {
        Expected::Error(punycheck::punycode::ErrorKind::Overflow) => {
            Expected::Decoded(CodePoints::default())
        }
        other => other,
    };
    let trip = OverflowInput {
        limit: Limit::DecodeDigit,
        basics: 1,
        offset: 0,
        twist: 1,
        tail: Vec::new(),
    };
    let err = fuzz::diff_c_of(&trip.request(), wrapping).unwrap_err();
    assert!(err.contains("Overflow"), "{err}");
    assert!(fuzz::diff_c_of(&trip.request(), fuzz::cleanroom_answer).is_ok());
}
