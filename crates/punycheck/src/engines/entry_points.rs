//! Several entry points of one implementation, asked the same questions.
//!
//! A library often answers one question through more than one door: Node
//! has `url.domainToASCII` and the host of `new URL()`; Bun's URL
//! constructor refused a host that its `.origin` accepted (bun#39404); an
//! ASCII fast path in one function skips what another checks (bun#41464).
//! [`EntryPoints`] is such an implementation: it is judged through its main
//! entry point, as any other, and each of its other entry points must give
//! the same answer to every question (the same result, or a refusal where
//! the main one refuses). Where one does not, that is a cause of its own
//! ([`crate::harness::properties::Property::EntryPoints`]), whichever of
//! the two the reference agrees with.

use std::sync::atomic::{AtomicU32, Ordering};

use super::{Capabilities, DecodeResult, EncodeResult, Engine, SpecError};
use crate::codec::Codec;

/// One entry point beside the main one: the spec it was named by (what a
/// reproducer gives `--entry-point`), and the implementation.
pub struct EntryPoint {
    /// The spec, as given (`pipe:node adapter.js node-host`).
    pub spec: String,
    /// The implementation behind it.
    pub engine: Box<dyn Engine>,
    /// Its hangs in a row, up to now.
    hangs: AtomicU32,
}

impl EntryPoint {
    /// The hangs in a row after which an entry point is asked no more:
    /// each costs its time limit twice, and its hang is already a cause.
    pub const MOST_HANGS: u32 = 3;

    /// The entry point `spec`, answered by `engine`.
    pub fn new(spec: impl Into<String>, engine: Box<dyn Engine>) -> Self {
        EntryPoint {
            spec: spec.into(),
            engine,
            hangs: AtomicU32::new(0),
        }
    }

    /// Whether it hung [`Self::MOST_HANGS`] times in a row: not to be
    /// asked again.
    pub fn given_up(&self) -> bool {
        self.hangs.load(Ordering::Relaxed) >= Self::MOST_HANGS
    }

    /// Counts one answer: a hang adds to the hangs in a row, anything
    /// else ends them.
    pub fn answered(&self, hung: bool) {
        if hung {
            self.hangs.fetch_add(1, Ordering::Relaxed);
        } else {
            self.hangs.store(0, Ordering::Relaxed);
        }
    }
}

/// An implementation reached through a main entry point and others that
/// must agree with it.
pub struct EntryPoints {
    main: Box<dyn Engine>,
    others: Vec<EntryPoint>,
}

impl EntryPoints {
    /// `main` with `others` beside it; an error when one of them speaks
    /// another codec, whose answers cannot be compared.
    pub fn new(main: Box<dyn Engine>, others: Vec<EntryPoint>) -> Result<Self, SpecError> {
        if let Some(other) = others.iter().find(|o| o.engine.codec() != main.codec()) {
            return Err(SpecError::EntryPointCodec {
                spec: other.spec.clone(),
                codec: other.engine.codec(),
                main: main.codec(),
            });
        }
        Ok(EntryPoints { main, others })
    }
}

impl Engine for EntryPoints {
    fn name(&self) -> &str {
        self.main.name()
    }

    fn codec(&self) -> Codec {
        self.main.codec()
    }

    fn workers(&self) -> usize {
        self.main.workers()
    }

    fn capabilities(&self) -> Capabilities {
        self.main.capabilities()
    }

    fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        self.main.set_deadline(deadline);
        for other in &self.others {
            other.engine.set_deadline(deadline);
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        self.main.encode(input, case_flags)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        self.main.decode(input)
    }

    fn entry_points(&self) -> &[EntryPoint] {
        &self.others
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{Functions, Refusal};
    use crate::harness::causes::Kind;
    use crate::harness::check::{CheckSettings, check};
    use std::time::Duration;

    /// RFC 3492's Punycode as two string functions; with `fast_path`, the
    /// encoder answers text of ASCII letters without the `q` as it is,
    /// delimiter and all, as a fast path would, and refuses the rest of
    /// the ASCII text.
    fn punycode(name: &str, fast_path: bool) -> Box<dyn Engine> {
        Box::new(Functions::unicode(
            name,
            move |text| {
                if fast_path && text.is_ascii() {
                    return if text.contains('q') {
                        Err(Refusal::Failed)
                    } else {
                        Ok(format!("{text}-"))
                    };
                }
                let cps: Vec<u32> = text.chars().map(u32::from).collect();
                crate::punycode::encode(&cps, None)
                    .map(|b| String::from_utf8_lossy(&b).into_owned())
                    .map_err(|_| Refusal::Failed)
            },
            |text| {
                let decoded =
                    crate::punycode::decode(text.as_bytes()).map_err(|_| Refusal::Failed)?;
                decoded
                    .code_points
                    .iter()
                    .map(|&cp| char::from_u32(cp).ok_or(Refusal::Failed))
                    .collect()
            },
        ))
    }

    fn settings() -> CheckSettings {
        let mut settings = CheckSettings::new(Duration::from_secs(600), 1);
        settings.cases = Some(1000);
        settings.cost = None;
        settings
    }

    /// Two entry points that answer alike are one conforming
    /// implementation; the report names the other one.
    #[test]
    fn entry_points_that_agree_conform() {
        let both = EntryPoints::new(
            punycode("main", false),
            vec![EntryPoint::new("twin", punycode("twin", false))],
        )
        .unwrap();
        let report = check(&both, &settings()).unwrap();
        assert!(report.conforming(), "{}", report.to_text());
        assert_eq!(report.entry_points, ["twin"]);
        assert!(report.to_text().contains("entry points agree"));
    }

    /// An entry point that answers otherwise (a fast path for ASCII) is
    /// reported as entry points that disagree, naming it, beside a main
    /// entry point that conforms: one cause per way it differs.
    #[test]
    fn an_entry_point_that_answers_otherwise_is_a_cause_naming_it() {
        let both = EntryPoints::new(
            punycode("main", false),
            vec![EntryPoint::new("fast", punycode("fast", true))],
        )
        .unwrap();
        let report = check(&both, &settings()).unwrap();
        let causes = &report.campaign.causes;
        assert!(!report.conforming(), "{}", report.to_text());
        assert!(
            causes.iter().all(
                |c| c.key.kind == Kind::EntryPoints && c.entry_point.as_deref() == Some("fast")
            ),
            "{}",
            report.to_text()
        );
        let gots: Vec<&str> = causes.iter().map(|c| c.key.got.as_str()).collect();
        assert!(
            gots.contains(&"entry point fast refuses what --impl accepts")
                && gots.contains(&"entry point fast answers another result than --impl"),
            "{gots:?}"
        );
    }

    /// Entry points that declare other classes than the main one (the
    /// idna crate: Unicode scalar values only, no annotations, no error
    /// kinds) differ from it only as those classes explain: the built-in
    /// Punycode implementations, each an entry point of the clean-room
    /// code, are never reported.
    #[test]
    fn what_an_entry_point_declares_explains_its_differences() {
        let others = ["rfc-c", "idna", "bootstring"]
            .into_iter()
            .map(|name| {
                EntryPoint::new(
                    name,
                    crate::engines::by_name(Codec::Punycode, name).unwrap(),
                )
            })
            .collect();
        let all = EntryPoints::new(Box::new(crate::engines::CleanRoom), others).unwrap();
        let mut settings = settings();
        settings.cases = Some(3000);
        let report = check(&all, &settings).unwrap();
        assert!(report.conforming(), "{}", report.to_text());
        assert!(report.campaign.stats.property_checks > 0);
    }

    /// An entry point that hangs on every question is asked no more after
    /// three hangs in a row: its hang is one cause, and the check does not
    /// spend each question's time limit on it.
    #[test]
    fn an_entry_point_that_always_hangs_is_given_up() {
        struct Hangs(std::sync::Arc<AtomicU32>, Box<dyn Engine>);
        impl Engine for Hangs {
            fn name(&self) -> &str {
                "hangs"
            }
            fn capabilities(&self) -> Capabilities {
                self.1.capabilities()
            }
            fn encode(&self, _: &[u32], _: Option<&[bool]>) -> EncodeResult {
                self.0.fetch_add(1, Ordering::Relaxed);
                Err(crate::engines::EngineError::Hung("planted".into()))
            }
            fn decode(&self, _: &[u8]) -> DecodeResult {
                self.0.fetch_add(1, Ordering::Relaxed);
                Err(crate::engines::EngineError::Hung("planted".into()))
            }
        }
        let asked = std::sync::Arc::new(AtomicU32::new(0));
        let hangs = Hangs(asked.clone(), punycode("hangs", false));
        let both = EntryPoints::new(
            punycode("main", false),
            vec![EntryPoint::new("hangs", Box::new(hangs))],
        )
        .unwrap();
        let report = check(&both, &settings()).unwrap();
        let causes = &report.campaign.causes;
        assert!(
            !causes.is_empty()
                && causes
                    .iter()
                    .all(|c| c.key.got == "entry point hangs: hang"),
            "{}",
            report.to_text()
        );
        // Three hangs in the run, then one more to confirm each cause: a
        // hang is not minimized.
        let asked = asked.load(Ordering::Relaxed) as usize;
        assert!(
            asked <= EntryPoint::MOST_HANGS as usize + causes.len(),
            "asked {asked} times for {} causes",
            causes.len()
        );
    }

    /// Entry points of another codec cannot be compared: a clear error.
    #[test]
    fn an_entry_point_of_another_codec_is_refused() {
        let other = crate::engines::by_name(Codec::Lace, "cleanroom").unwrap();
        let error = EntryPoints::new(
            punycode("main", false),
            vec![EntryPoint::new("lace", other)],
        )
        .err()
        .unwrap();
        assert!(
            error.to_string().contains("answers the lace codec"),
            "{error}"
        );
    }
}
