//! Runs every engine over every vector.
//!
//! Each (engine, case) pair ends as one [`Outcome`]:
//! - skipped, with the reason, when the case is outside what the engine
//!   declares in its [`Capabilities`] or is listed as a skip in
//!   `vectors/expectations.toml`;
//! - a known deviation when it fails and `vectors/expectations.toml` lists it
//!   with its reason;
//! - otherwise passed or failed.
//!
//! A listed skip that the engine's capabilities cover, and a listed deviation
//! that passes, fail: expectations never go stale silently.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

use super::vectors::{Case, CodePoints, Expected, Input};
use crate::engines::{
    Capabilities, CodePointDomain, Engine, EngineError, ErrorDetail, check_supported,
};
use crate::punycode::Decoded;

/// The expectations built into punycheck.
pub const BUILTIN_EXPECTATIONS: &str = include_str!("../../vectors/expectations.toml");

/// One listed expectation: an engine that skips or deviates on a case.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Listed {
    /// The engine's name.
    pub engine: String,
    /// The case's name.
    pub case: String,
    /// Why.
    pub reason: String,
}

/// Listed skips and known deviations.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// Cases an engine cannot run although its capabilities do not say so.
    #[serde(default)]
    pub skip: Vec<Listed>,
    /// Cases where an engine is known to give another result, and why.
    #[serde(default)]
    pub deviation: Vec<Listed>,
}

impl Expectations {
    /// Parses an expectations file.
    pub fn parse(text: &str) -> Result<Self, String> {
        toml::from_str(text).map_err(|e| format!("expectations: {e}"))
    }

    /// Checks that every entry names a known engine and case.
    pub fn validate(&self, engines: &[String], cases: &[Case]) -> Result<(), String> {
        for entry in self.skip.iter().chain(&self.deviation) {
            if !engines.contains(&entry.engine) {
                return Err(format!("expectations: unknown engine {:?}", entry.engine));
            }
            if !cases.iter().any(|c| c.name == entry.case) {
                return Err(format!("expectations: unknown case {:?}", entry.case));
            }
        }
        Ok(())
    }

    fn find<'a>(list: &'a [Listed], engine: &str, case: &str) -> Option<&'a Listed> {
        list.iter().find(|l| l.engine == engine && l.case == case)
    }
}

/// How one engine did on one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The result matched.
    Pass,
    /// Not run, or not comparable, for this reason.
    Skip(String),
    /// Failed as listed in the expectations, for this reason.
    KnownDeviation(String),
    /// Failed: what was expected and what came back.
    Fail(String),
}

/// One engine's result on one case.
#[derive(Clone, Debug)]
pub struct Row {
    /// The engine's name.
    pub engine: String,
    /// The case's name.
    pub case: String,
    /// What happened.
    pub outcome: Outcome,
}

/// Everything a run produced.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// One row per (engine, case), in engine order then case order.
    pub rows: Vec<Row>,
}

/// Counts for one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Passed.
    pub pass: usize,
    /// Skipped with a reason.
    pub skip: usize,
    /// Known deviations.
    pub deviation: usize,
    /// Failed.
    pub fail: usize,
}

impl Report {
    /// Rows that failed.
    pub fn failures(&self) -> impl Iterator<Item = &Row> {
        self.rows
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Fail(_)))
    }

    /// Counts per engine, in the order engines were run.
    pub fn tallies(&self) -> Vec<(String, Tally)> {
        let mut order: Vec<String> = Vec::new();
        let mut map: BTreeMap<String, Tally> = BTreeMap::new();
        for row in &self.rows {
            if !order.contains(&row.engine) {
                order.push(row.engine.clone());
            }
            let t = map.entry(row.engine.clone()).or_default();
            match row.outcome {
                Outcome::Pass => t.pass += 1,
                Outcome::Skip(_) => t.skip += 1,
                Outcome::KnownDeviation(_) => t.deviation += 1,
                Outcome::Fail(_) => t.fail += 1,
            }
        }
        order.into_iter().map(|e| (e.clone(), map[&e])).collect()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<12} {:>6} {:>6} {:>10} {:>6}",
            "engine", "pass", "skip", "deviation", "fail"
        )?;
        for (engine, t) in self.tallies() {
            writeln!(
                f,
                "{engine:<12} {:>6} {:>6} {:>10} {:>6}",
                t.pass, t.skip, t.deviation, t.fail
            )?;
        }
        let mut reasons: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for row in &self.rows {
            if let Outcome::Skip(why) | Outcome::KnownDeviation(why) = &row.outcome {
                *reasons.entry((&row.engine, why)).or_default() += 1;
            }
        }
        if !reasons.is_empty() {
            writeln!(f, "\nskips and known deviations, with their reasons:")?;
            for ((engine, why), count) in reasons {
                writeln!(f, "  {engine}: {count} x {why}")?;
            }
        }
        let failures: Vec<&Row> = self.failures().collect();
        if !failures.is_empty() {
            writeln!(f, "\nfailures:")?;
            for row in failures {
                if let Outcome::Fail(detail) = &row.outcome {
                    writeln!(f, "  {} on {}: {detail}", row.engine, row.case)?;
                }
            }
        }
        Ok(())
    }
}

/// Runs every engine over every case.
pub fn run(engines: &[Box<dyn Engine>], cases: &[Case], expectations: &Expectations) -> Report {
    let mut report = Report::default();
    for engine in engines {
        for case in cases {
            let outcome = run_one(engine.as_ref(), case, expectations);
            report.rows.push(Row {
                engine: engine.name().to_string(),
                case: case.name.clone(),
                outcome,
            });
        }
    }
    report
}

/// Runs one engine on one case, applying its capabilities and the listed
/// expectations.
pub fn run_one(engine: &dyn Engine, case: &Case, expectations: &Expectations) -> Outcome {
    let caps = engine.capabilities();
    let supported = match &case.input {
        Input::Encode(cps) => check_supported(&caps, Some((&cps.values, case.annotations)), None),
        Input::Decode(bytes) => check_supported(&caps, None, Some(bytes)),
    };
    if let Some(listed) = Expectations::find(&expectations.skip, engine.name(), &case.name) {
        return match supported {
            Err(why) => Outcome::Skip(format!("{} ({why})", listed.reason)),
            Ok(()) => Outcome::Fail(format!(
                "listed as skipped ({}) but inside its declared capabilities: remove the listing",
                listed.reason
            )),
        };
    }
    if let Err(why) = supported {
        return Outcome::Skip(why);
    }
    let verdict = judge(engine, &caps, case);
    match (
        Expectations::find(&expectations.deviation, engine.name(), &case.name),
        verdict,
    ) {
        (None, verdict) => verdict,
        (Some(listed), Outcome::Fail(_)) => Outcome::KnownDeviation(listed.reason.clone()),
        (Some(listed), Outcome::Pass) => Outcome::Fail(format!(
            "listed as a known deviation ({}) but passes: remove the listing",
            listed.reason
        )),
        (Some(_), other) => other,
    }
}

fn describe_encoded(result: &Result<Vec<u8>, EngineError>) -> String {
    match result {
        Ok(bytes) => format!("{:?}", String::from_utf8_lossy(bytes)),
        Err(e) => e.to_string(),
    }
}

fn describe_decoded(result: &Result<Decoded, EngineError>) -> String {
    match result {
        Ok(d) => CodePoints {
            values: d.code_points.clone(),
            flags: d.flags.clone(),
        }
        .to_string(),
        Err(e) => e.to_string(),
    }
}

/// Compares an engine's error with an expected kind, at the precision it declares.
fn error_matches(caps: &Capabilities, got: &EngineError, want: crate::punycode::ErrorKind) -> bool {
    match got {
        EngineError::Rejected(Some(kind)) => *kind == want,
        EngineError::Rejected(None) => caps.errors == ErrorDetail::FailureOnly,
        EngineError::Unsupported(_) | EngineError::Broken(_) => false,
    }
}

fn judge(engine: &dyn Engine, caps: &Capabilities, case: &Case) -> Outcome {
    match (&case.input, &case.expected) {
        (Input::Encode(cps), expected) => {
            let flags = case.annotations.then_some(cps.flags.as_slice());
            let result = engine.encode(&cps.values, flags);
            let ok = match (expected, &result) {
                (Expected::Encoded(want), Ok(got)) => want == got,
                (Expected::Error(kind), Err(e)) => error_matches(caps, e, *kind),
                _ => false,
            };
            if ok {
                Outcome::Pass
            } else {
                Outcome::Fail(format!(
                    "expected {}, got {}",
                    match expected {
                        Expected::Encoded(b) => format!("{:?}", String::from_utf8_lossy(b)),
                        other => format!("{other:?}"),
                    },
                    describe_encoded(&result)
                ))
            }
        }
        (Input::Decode(bytes), expected) => {
            let result = engine.decode(bytes);
            // A result outside the engine's domain must be refused, not returned.
            if let Expected::Decoded(want) = expected {
                let outside = caps.domain == CodePointDomain::UnicodeScalar
                    && want.values.iter().any(|&cp| char::from_u32(cp).is_none());
                if outside {
                    return match &result {
                        Err(EngineError::Rejected(_)) => Outcome::Skip(
                            "decodes to a code point outside its domain (Unicode scalar values), which it refuses as declared".into(),
                        ),
                        _ => Outcome::Fail(format!(
                            "decodes outside its declared domain: expected a refusal, got {}",
                            describe_decoded(&result)
                        )),
                    };
                }
            }
            let compare_flags = case.annotations && caps.annotations;
            let ok = match (expected, &result) {
                (Expected::Decoded(want), Ok(got)) => {
                    want.values == got.code_points && (!compare_flags || want.flags == got.flags)
                }
                (Expected::Error(kind), Err(e)) => error_matches(caps, e, *kind),
                _ => false,
            };
            if ok {
                Outcome::Pass
            } else {
                Outcome::Fail(format!(
                    "expected {}, got {}",
                    match expected {
                        Expected::Decoded(c) => c.to_string(),
                        other => format!("{other:?}"),
                    },
                    describe_decoded(&result)
                ))
            }
        }
    }
}
