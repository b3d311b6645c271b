//! The runner itself: it catches a planted bug, keeps skips honest, and never
//! lets a listed expectation go stale.

use punycheck::engines::{
    Capabilities, CleanRoom, DecodeResult, EncodeResult, Engine, EngineError, Idna,
};
use punycheck::harness::runner::{self, Expectations, Listed, Outcome};
use punycheck::harness::vectors::{self, Case};
use punycheck::punycode::ErrorKind;

fn cases() -> Vec<Case> {
    vectors::builtin().unwrap()
}

/// The clean-room engine with one deliberate defect.
struct Planted {
    defect: Defect,
}

enum Defect {
    /// Uses the first delimiter instead of the last one.
    FirstDelimiter,
    /// Reports every failure as bad input.
    OneErrorKind,
    /// Refuses code points above U+FFFF although it declares u32.
    RefusesAstral,
}

impl Engine for Planted {
    fn name(&self) -> &str {
        "planted"
    }
    fn capabilities(&self) -> Capabilities {
        CleanRoom.capabilities()
    }
    fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> EncodeResult {
        match self.defect {
            Defect::RefusesAstral if input.iter().any(|&c| c > 0xFFFF) => {
                Err(EngineError::Unsupported("astral".into()))
            }
            Defect::OneErrorKind => CleanRoom
                .encode(input, flags)
                .map_err(|_| EngineError::Rejected(Some(ErrorKind::BadInput))),
            _ => CleanRoom.encode(input, flags),
        }
    }
    fn decode(&self, input: &[u8]) -> DecodeResult {
        match self.defect {
            Defect::FirstDelimiter => {
                // Reorder so the first delimiter is the one that counts.
                match input.iter().position(|&c| c == b'-') {
                    Some(p) if input[p + 1..].contains(&b'-') => {
                        let mut v = input[..p].to_vec();
                        v.extend(input[p + 1..].iter().filter(|&&c| c != b'-'));
                        v.push(b'-');
                        CleanRoom.decode(&v)
                    }
                    _ => CleanRoom.decode(input),
                }
            }
            Defect::OneErrorKind => CleanRoom
                .decode(input)
                .map_err(|_| EngineError::Rejected(Some(ErrorKind::BadInput))),
            Defect::RefusesAstral => CleanRoom.decode(input),
        }
    }
}

fn failures_of(engine: Box<dyn Engine>, expectations: &Expectations) -> Vec<String> {
    let report = runner::run(&[engine], &cases(), expectations);
    report.failures().map(|r| r.case.clone()).collect()
}

#[test]
fn planted_bugs_are_caught() {
    for (defect, must_fail) in [
        (Defect::FirstDelimiter, "delimiter-inside-literal"),
        (Defect::OneErrorKind, "overflow-decode-digit-trip"),
        (Defect::RefusesAstral, "overflow-encode-delta-trip"),
    ] {
        let failures = failures_of(Box::new(Planted { defect }), &Expectations::default());
        assert!(
            failures.iter().any(|f| f == must_fail),
            "{must_fail} not caught: {failures:?}"
        );
    }
}

#[test]
fn a_correct_engine_passes_everything() {
    let failures = failures_of(Box::new(CleanRoom), &Expectations::default());
    assert!(failures.is_empty(), "{failures:?}");
}

fn listed(engine: &str, case: &str) -> Listed {
    Listed {
        engine: engine.into(),
        case: case.into(),
        reason: "test".into(),
    }
}

#[test]
fn a_listed_deviation_that_passes_fails() {
    let expectations = Expectations {
        deviation: vec![listed("cleanroom", "delimiter-trailing")],
        ..Default::default()
    };
    let outcome = runner::run_one(
        &CleanRoom,
        cases()
            .iter()
            .find(|c| c.name == "delimiter-trailing")
            .unwrap(),
        &expectations,
    );
    assert!(
        matches!(outcome, Outcome::Fail(ref why) if why.contains("remove the listing")),
        "{outcome:?}"
    );
}

#[test]
fn a_listed_deviation_that_fails_is_known() {
    let expectations = Expectations {
        deviation: vec![listed("planted", "delimiter-inside-literal")],
        ..Default::default()
    };
    let engine = Planted {
        defect: Defect::FirstDelimiter,
    };
    let case = cases()
        .into_iter()
        .find(|c| c.name == "delimiter-inside-literal")
        .unwrap();
    assert_eq!(
        runner::run_one(&engine, &case, &expectations),
        Outcome::KnownDeviation("test".into())
    );
}

#[test]
fn a_listed_skip_inside_the_capabilities_fails() {
    let all = cases();
    let plain = all
        .iter()
        .find(|c| c.name == "rfc3492-7.1-A-encode-plain")
        .unwrap();
    let annotated = all
        .iter()
        .find(|c| c.name == "rfc3492-7.1-A-encode-annotated")
        .unwrap();
    let expectations = Expectations {
        skip: vec![listed("idna", &plain.name), listed("idna", &annotated.name)],
        ..Default::default()
    };
    // idna can run the plain case: listing it as skipped is stale.
    assert!(matches!(
        runner::run_one(&Idna, plain, &expectations),
        Outcome::Fail(_)
    ));
    // It cannot run the annotated one: the skip stands, with both reasons.
    match runner::run_one(&Idna, annotated, &expectations) {
        Outcome::Skip(why) => assert!(why.contains("test") && why.contains("annotations"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn expectations_must_name_known_engines_and_cases() {
    let names = vec!["idna".to_string()];
    let bad_engine = Expectations {
        skip: vec![listed("nope", "delimiter-trailing")],
        ..Default::default()
    };
    assert!(bad_engine.validate(&names, &cases()).is_err());
    let bad_case = Expectations {
        deviation: vec![listed("idna", "no-such-case")],
        ..Default::default()
    };
    assert!(bad_case.validate(&names, &cases()).is_err());
    assert!(Expectations::parse("[[skip]]\nengine = \"idna\"\n").is_err());
}

/// The differential campaign alone, without the vectors, finds a planted
/// bug and hands back a minimized request that still shows it.
#[test]
fn the_campaign_finds_and_minimizes_a_planted_bug() {
    use punycheck::harness::campaign::{self, Settings};
    let engine = Planted {
        defect: Defect::FirstDelimiter,
    };
    let settings = Settings {
        seed: 9,
        cases: Some(3000),
        time: None,
        properties: true,
        max_findings: 3,
        fail_fast: true,
    };
    let outcome = campaign::run(&[&engine], settings, &mut |_| {}).remove(0);
    assert!(!outcome.conforming());
    let finding = outcome.causes.first().expect("a cause");
    assert!(finding.input.len() <= finding.original.len(), "{finding:?}");
    // Minimized: two delimiters are all the bug needs, and not much more.
    let punycheck::harness::compare::Request::Decode(bytes) = &finding.request else {
        panic!("the bug is in decoding: {finding:?}")
    };
    assert_eq!(
        bytes.iter().filter(|&&c| c == b'-').count(),
        2,
        "{finding:?}"
    );
    assert!(bytes.len() <= 6, "not minimized: {finding:?}");
}

/// A correct implementation written differently (the clean-room code seen
/// through another engine's name) is never reported by the campaign.
#[test]
fn the_campaign_reports_nothing_for_a_correct_engine() {
    use punycheck::harness::campaign::{self, Settings};
    let settings = Settings {
        seed: 10,
        cases: Some(3000),
        time: None,
        properties: true,
        max_findings: 3,
        fail_fast: false,
    };
    let outcome = campaign::run(&[&CleanRoom], settings, &mut |_| {}).remove(0);
    assert!(outcome.conforming(), "{:?}", outcome.causes);
    assert_eq!(outcome.stats.requests, 3000);
    assert!(outcome.stats.property_checks > 2000);
}
