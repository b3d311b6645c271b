//! Declarations and causes: a correct implementation, honestly declared,
//! is never reported; a faulty one is reported once per cause, with a
//! reproducer that a second answer confirms.
//!
//! The implementations here are in-process engines built on the clean-room
//! code (which equals the C reference on every input), each changed in one
//! declared or undeclared way, so every outcome is independent of the
//! machine's speed or load.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use punycheck::engines::declaration::{DirectionsDecl, DomainDecl, ErrorsDecl};
use punycheck::engines::{
    Capabilities, CleanRoom, CodePointDomain, Declaration, Declared, DecodeResult, EncodeResult,
    Engine, EngineError,
};
use punycheck::harness::campaign::{self, Outcome, Settings};
use punycheck::harness::causes::{Confirmation, Kind};
use punycheck::punycode::ErrorKind;

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
            unicode_version: None,
            ..Declaration::default()
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
    let key = key_of(
        &engine.capabilities(),
        engine.codec(),
        &request,
        &want,
        &got,
    );
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

/// The clean-room code with a narrower domain, refusing as libidn does: an
/// input code point outside it, and a decoding as soon as it inserts one
/// (bad_input), before any overflow that the reference meets later on that
/// path. Errors with their kinds.
struct InDomain {
    domain: CodePointDomain,
    /// Refusals where the reference fails later with another kind.
    early: Arc<AtomicU64>,
}

impl Engine for InDomain {
    fn name(&self) -> &str {
        "in-domain"
    }
    fn capabilities(&self) -> Capabilities {
        CleanRoom.capabilities()
    }
    fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> EncodeResult {
        if input.iter().any(|&c| !self.domain.contains(c)) {
            return Err(EngineError::Rejected(Some(ErrorKind::BadInput)));
        }
        CleanRoom.encode(input, flags)
    }
    fn decode(&self, input: &[u8]) -> DecodeResult {
        let (result, inserted) = punycheck::punycode::decode_inserted(input);
        if inserted.iter().any(|&c| !self.domain.contains(c)) {
            if result
                .as_ref()
                .is_err_and(|e| e.kind() != ErrorKind::BadInput)
            {
                self.early.fetch_add(1, Ordering::Relaxed);
            }
            return Err(EngineError::Rejected(Some(ErrorKind::BadInput)));
        }
        CleanRoom.decode(input)
    }
}

/// Each narrower domain, declared, is conforming: refusing a decoding as
/// soon as it leaves the domain is the declared refusal, even where the
/// reference goes on and fails with another error kind later (libidn's
/// `zz8898z8z8z098m`; the campaigns meet such inputs). Declared wider, the
/// same answers are findings.
#[test]
fn every_domain_honestly_declared_is_conforming() {
    let mut early_total = 0;
    for (domain, decl) in [
        (CodePointDomain::UnicodeScalar, DomainDecl::Unicode),
        (
            CodePointDomain::UnicodeWithSurrogates,
            DomainDecl::UnicodeWithSurrogates,
        ),
        (CodePointDomain::U31, DomainDecl::U31),
    ] {
        let early = Arc::new(AtomicU64::new(0));
        let engine = || InDomain {
            domain,
            early: early.clone(),
        };
        let declaration = Declaration {
            domain: Some(decl),
            ..Declaration::default()
        };
        let outcome = campaign(&Declared::new(Box::new(engine()), declaration), 21, 4000);
        assert!(outcome.conforming(), "{domain:?}: {:#?}", outcome.causes);
        early_total += early.load(Ordering::Relaxed);
        assert!(!campaign(&engine(), 21, 4000).conforming(), "{domain:?}");
    }
    assert!(
        early_total > 0,
        "no decoding left a domain before the reference failed"
    );
}

/// Node's punycode: a decoded surrogate pair comes back re-paired into one
/// supplementary code point, a lone surrogate as it is.
struct Repairing;

impl Engine for Repairing {
    fn name(&self) -> &str {
        "repairing"
    }
    fn capabilities(&self) -> Capabilities {
        CleanRoom.capabilities()
    }
    fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> EncodeResult {
        CleanRoom.encode(input, flags)
    }
    fn decode(&self, input: &[u8]) -> DecodeResult {
        let decoded = CleanRoom.decode(input)?;
        let mut out = Vec::new();
        let mut k = 0;
        let cps = &decoded.code_points;
        while k < cps.len() {
            let (a, b) = (cps[k], cps.get(k + 1).copied().unwrap_or(0));
            if (0xD800..0xDC00).contains(&a) && (0xDC00..0xE000).contains(&b) {
                out.push(0x1_0000 + ((a - 0xD800) << 10) + (b - 0xDC00));
                k += 2;
            } else {
                out.push(a);
                k += 1;
            }
        }
        Ok(punycheck::punycode::Decoded {
            flags: punycheck::punycode::CaseFlags::unset(out.len()),
            code_points: out,
        })
    }
}

/// Minimizing the re-pairing keeps the re-pairing: the reproducer still
/// gets another answer than the reference's, not the lone surrogate that it
/// returns as the reference does (which is another cause).
#[test]
fn minimizing_keeps_the_deviation_not_only_the_key() {
    use punycheck::harness::causes::{Collector, key_of};
    use punycheck::harness::compare::{ask, reference};
    use punycheck::vocabulary::Request;
    let engine = Declared::new(
        Box::new(Repairing),
        Declaration {
            domain: Some(DomainDecl::Unicode),
            annotations: Some(false),
            ..Declaration::default()
        },
    );
    let mut collector = Collector::default();
    for text in [&b"ib9b89l"[..], b"zy0c"] {
        let request = Request::Decode(text.to_vec());
        let want = reference(&request).unwrap();
        let got = ask(&engine, &request);
        let key = key_of(
            &engine.capabilities(),
            engine.codec(),
            &request,
            &want,
            &got,
        );
        collector.observe(key, &request, "seen", None, None);
    }
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    let causes = collector.resolve(&engine, far, std::time::Duration::from_secs(3600), 2000, 8);
    let kinds: Vec<Kind> = causes.iter().map(|c| c.key.kind).collect();
    assert_eq!(
        kinds,
        [Kind::ReplacesOutsideDomain, Kind::OutsideDomain],
        "{causes:#?}"
    );
    for cause in &causes {
        assert_eq!(cause.confirmation, Confirmation::Confirmed, "{cause:?}");
        let want = reference(&cause.request).unwrap();
        let got = ask(&engine, &cause.request).unwrap();
        assert_eq!(
            got != want,
            cause.key.kind == Kind::ReplacesOutsideDomain,
            "{cause:?}"
        );
    }
}

/// Decodes any input holding an `x` wrongly on every other call.
struct SometimesWrong {
    calls: AtomicU64,
}

impl Engine for SometimesWrong {
    fn name(&self) -> &str {
        "sometimes-wrong"
    }
    fn capabilities(&self) -> Capabilities {
        CleanRoom.capabilities()
    }
    fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> EncodeResult {
        CleanRoom.encode(input, flags)
    }
    fn decode(&self, input: &[u8]) -> DecodeResult {
        if input.contains(&b'x') && self.calls.fetch_add(1, Ordering::Relaxed).is_multiple_of(2) {
            return Ok(punycheck::punycode::Decoded {
                code_points: vec![0x7A],
                flags: punycheck::punycode::CaseFlags::unset(1),
            });
        }
        CleanRoom.decode(input)
    }
}

/// A flaky cause is reported with a detail that describes the request it
/// prints, not the detail of a longer request seen before minimization.
#[test]
fn a_flaky_cause_describes_the_request_it_reports() {
    use punycheck::harness::causes::{Collector, key_of};
    use punycheck::harness::compare::{ask, reference};
    use punycheck::vocabulary::Request;
    let engine = SometimesWrong {
        calls: AtomicU64::new(0),
    };
    let long = Request::Decode(b"abcdefghx-".to_vec());
    let want = reference(&long).unwrap();
    let got = ask(&engine, &long);
    let key = key_of(&engine.capabilities(), engine.codec(), &long, &want, &got);
    assert_eq!(key.kind, Kind::WrongOutput);
    let mut collector = Collector::default();
    collector.observe(key, &long, "seen on the long request", None, None);
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    let causes = collector.resolve(&engine, far, std::time::Duration::from_secs(3600), 200, 1);
    let cause = &causes[0];
    assert!(
        matches!(cause.confirmation, Confirmation::Flaky { .. }),
        "{cause:?}"
    );
    assert!(
        cause.request == long || cause.detail != "seen on the long request",
        "{cause:?}"
    );
    let Request::Decode(text) = &cause.request else {
        panic!("{cause:?}")
    };
    let shown = String::from_utf8_lossy(text).into_owned();
    assert!(
        cause.request == long || cause.detail.contains(&format!("u+{:04X}", text[0])),
        "the detail of {shown:?} is {:?}",
        cause.detail
    );
}

/// The clean-room encoder writing into a fixed buffer of `room` bytes:
/// "too large" beyond it, or, with `off_by_one`, beyond one byte more (its
/// space check `>` where `>=` was meant), answering that byte silently.
struct FixedOutput {
    room: usize,
    off_by_one: bool,
}

impl Engine for FixedOutput {
    fn name(&self) -> &str {
        "fixed-output"
    }
    fn capabilities(&self) -> Capabilities {
        CleanRoom.capabilities()
    }
    fn encode(&self, input: &[u32], flags: Option<&[bool]>) -> EncodeResult {
        let out = CleanRoom.encode(input, flags)?;
        if out.len() > self.room + usize::from(self.off_by_one) {
            return Err(EngineError::Limit("output is too large".into()));
        }
        Ok(out)
    }
    fn decode(&self, input: &[u8]) -> DecodeResult {
        CleanRoom.decode(input)
    }
}

/// In the encoding direction, an encoder that answers one byte more than
/// its declared `--max-decode` is one cause of kind beyond-own-limit, whose
/// minimized reproducer still encodes to that one byte more; the same
/// encoder with its check right, declared the same, is conforming.
#[test]
fn an_encoding_beyond_its_declared_limit_is_one_cause() {
    let declaration = Declaration {
        max_decode: Some(16),
        directions: Some(DirectionsDecl::EncodeOnly),
        ..Declaration::default()
    };
    let engine = |off_by_one| {
        Declared::new(
            Box::new(FixedOutput {
                room: 16,
                off_by_one,
            }),
            declaration.clone(),
        )
    };
    let kept = campaign(&engine(false), 7, 3000);
    assert!(kept.causes.is_empty(), "{:#?}", kept.causes);
    let outcome = campaign(&engine(true), 7, 3000);
    assert_eq!(outcome.causes.len(), 1, "{:#?}", outcome.causes);
    let cause = &outcome.causes[0];
    assert_eq!(cause.key.kind, Kind::BeyondOwnLimit);
    assert_eq!(
        cause.key.got,
        "more bytes than its declared --max-decode 16"
    );
    assert_eq!(cause.confirmation, Confirmation::Confirmed);
    assert!(cause.detail.starts_with("answered 17 bytes"), "{cause:?}");
    let punycheck::vocabulary::Request::Encode { code_points, flags } = &cause.request else {
        panic!("{cause:?}")
    };
    let encoded = punycheck::punycode::encode(code_points, flags.as_deref()).unwrap();
    assert_eq!(encoded.len(), 17, "{cause:?}");
}
