//! Declarations and causes: a correct implementation, honestly declared,
//! is never reported; a faulty one is reported once per cause, with a
//! reproducer that a second answer confirms.
//!
//! The implementations here are in-process engines built on the clean-room
//! code (which equals the C reference on every input), each changed in one
//! declared or undeclared way, so every outcome is independent of the
//! machine's speed or load.

use std::sync::atomic::{AtomicU64, Ordering};

use punycheck::engines::declaration::{DirectionsDecl, DomainDecl, ErrorsDecl};
use punycheck::engines::{
    Capabilities, CleanRoom, Declaration, Declared, DecodeResult, EncodeResult, Engine, EngineError,
};
use punycheck::harness::campaign::{self, Outcome, Settings};
use punycheck::harness::causes::{Confirmation, Kind};

fn settings(seed: u64, cases: u64) -> Settings {
    Settings {
        seed,
        cases: Some(cases),
        time: None,
        properties: true,
        max_findings: 8,
        fail_fast: false,
    }
}

fn campaign(engine: &dyn Engine, seed: u64, cases: u64) -> Outcome {
    campaign::run(&[engine], settings(seed, cases), &mut |_| {}).remove(0)
}

/// The clean-room code as a typical real implementation is: Unicode scalar
/// values only (it refuses anything else, both ways), failures without a
/// kind, no annotations, digits written in uppercase; optionally a decoder
/// alone. Every one of those is allowed by RFC 3492 once declared.
struct Typical {
    decode_only: bool,
    encodes: AtomicU64,
}

impl Typical {
    fn new(decode_only: bool) -> Self {
        Typical {
            decode_only,
            encodes: AtomicU64::new(0),
        }
    }

    fn declaration(&self) -> Declaration {
        Declaration {
            domain: Some(DomainDecl::Unicode),
            errors: Some(ErrorsDecl::FailureOnly),
            annotations: Some(false),
            directions: self.decode_only.then_some(DirectionsDecl::DecodeOnly),
            max_encode: None,
            max_decode: None,
        }
    }
}

impl Engine for Typical {
    fn name(&self) -> &str {
        "typical"
    }
    // It claims what the clean-room code claims; the declaration corrects it.
    fn capabilities(&self) -> Capabilities {
        CleanRoom.capabilities()
    }
    fn encode(&self, input: &[u32], _flags: Option<&[bool]>) -> EncodeResult {
        self.encodes.fetch_add(1, Ordering::Relaxed);
        if self.decode_only {
            return Err(EngineError::Crashed("asked to encode".into()));
        }
        if input.iter().any(|&c| char::from_u32(c).is_none()) {
            return Err(EngineError::Rejected(None));
        }
        let mut out = CleanRoom
            .encode(input, None)
            .map_err(|_| EngineError::Rejected(None))?;
        let literal = out.iter().rposition(|&c| c == b'-').map_or(0, |p| p + 1);
        out[literal..].make_ascii_uppercase();
        Ok(out)
    }
    fn decode(&self, input: &[u8]) -> DecodeResult {
        let decoded = CleanRoom
            .decode(input)
            .map_err(|_| EngineError::Rejected(None))?;
        if decoded
            .code_points
            .iter()
            .any(|&c| char::from_u32(c).is_none())
        {
            return Err(EngineError::Rejected(None));
        }
        Ok(punycheck::punycode::Decoded {
            flags: punycheck::punycode::CaseFlags::unset(decoded.code_points.len()),
            code_points: decoded.code_points,
        })
    }
}

#[test]
fn a_typical_implementation_honestly_declared_is_conforming() {
    let typical = Typical::new(false);
    let declared = Declared::new(Box::new(Typical::new(false)), typical.declaration());
    let outcome = campaign(&declared, 11, 3000);
    assert!(outcome.conforming(), "{:#?}", outcome.causes);
    assert!(outcome.stats.property_checks > 1000, "{:?}", outcome.stats);
    // Undeclared, the same answers are findings: the declarations matter.
    let undeclared = campaign(&Typical::new(false), 11, 3000);
    assert!(!undeclared.conforming());
    let kinds: Vec<Kind> = undeclared.causes.iter().map(|c| c.key.kind).collect();
    assert!(kinds.contains(&Kind::RejectsValid), "{kinds:?}");
    assert!(kinds.contains(&Kind::WrongOutput), "{kinds:?}");
}

#[test]
fn a_decoder_alone_is_never_asked_to_encode() {
    let engine = Typical::new(true);
    let declaration = engine.declaration();
    let declared = Declared::new(Box::new(engine), declaration);
    let outcome = campaign(&declared, 12, 2000);
    assert!(outcome.conforming(), "{:#?}", outcome.causes);
    assert!(outcome.stats.skipped.get("direction").copied().unwrap_or(0) > 500);
    // Its round trips still run, through the reference's encoder.
    assert!(outcome.stats.property_checks > 500, "{:?}", outcome.stats);
}

/// Decodes `a-` (and only that) wrongly on every other call.
struct Flaky {
    calls: AtomicU64,
}

impl Engine for Flaky {
    fn name(&self) -> &str {
        "flaky"
    }
    fn capabilities(&self) -> Capabilities {
        CleanRoom.capabilities()
    }
    fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> EncodeResult {
        CleanRoom.encode(input, flags)
    }
    fn decode(&self, input: &[u8]) -> DecodeResult {
        if input == b"a-" && self.calls.fetch_add(1, Ordering::Relaxed).is_multiple_of(2) {
            return Err(EngineError::Rejected(None));
        }
        CleanRoom.decode(input)
    }
}

#[test]
fn an_answer_that_does_not_repeat_is_reported_as_flaky_with_both_answers() {
    use punycheck::harness::causes::{Collector, key_of};
    use punycheck::harness::compare::{ask, reference};
    use punycheck::vocabulary::Request;
    let engine = Flaky {
        calls: AtomicU64::new(0),
    };
    let request = Request::Decode(b"a-".to_vec());
    let want = reference(&request).unwrap();
    let got = ask(&engine, &request);
    let key = key_of(engine.codec(), &request, &want, &got);
    assert_eq!(key.kind, Kind::RejectsValid);
    let mut collector = Collector::default();
    collector.observe(key, &request, "first", None, None);
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    let causes = collector.resolve(&engine, far, std::time::Duration::from_secs(3600), 100, 1);
    assert_eq!(causes.len(), 1);
    match &causes[0].confirmation {
        Confirmation::Flaky { first, second } => {
            assert_ne!(first, second);
            assert!(
                first.contains("failed") || second.contains("failed"),
                "{first} / {second}"
            );
        }
        other => panic!("expected flaky, got {other:?}"),
    }
}

/// One bug seen by many different inputs is one cause, reported with the
/// shortest reproducer found, minimized.
#[test]
fn one_bug_is_one_cause_with_a_short_reproducer() {
    /// Accepts `_` as the digit 0 (libidn2's bug).
    struct Underscore;
    impl Engine for Underscore {
        fn name(&self) -> &str {
            "underscore"
        }
        fn capabilities(&self) -> Capabilities {
            CleanRoom.capabilities()
        }
        fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> EncodeResult {
            CleanRoom.encode(input, flags)
        }
        fn decode(&self, input: &[u8]) -> DecodeResult {
            let literal = input.iter().rposition(|&c| c == b'-').map_or(0, |p| p + 1);
            let mut fixed = input.to_vec();
            for c in &mut fixed[literal..] {
                if *c == b'_' {
                    *c = b'a';
                }
            }
            CleanRoom.decode(&fixed)
        }
    }
    let outcome = campaign(&Underscore, 13, 6000);
    let accepting: Vec<_> = outcome
        .causes
        .iter()
        .filter(|c| c.key.kind == Kind::AcceptsInvalid)
        .collect();
    assert_eq!(accepting.len(), 1, "{:#?}", outcome.causes);
    let cause = accepting[0];
    assert_eq!(cause.key.reference, "bad_input (not a digit)");
    assert_eq!(cause.confirmation, Confirmation::Confirmed);
    let punycheck::vocabulary::Request::Decode(bytes) = &cause.request else {
        panic!("{cause:?}")
    };
    assert!(bytes.contains(&b'_') && bytes.len() <= 4, "{cause:?}");
}
