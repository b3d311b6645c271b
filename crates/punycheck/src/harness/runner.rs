//! Runs every engine over every vector.
//!
//! Each (engine, case) pair ends as one [`Outcome`]:
//! - skipped, with the reason, when the case is outside what the engine
//!   declares in its [`crate::engines::Capabilities`] or is listed as a skip in
//!   `vectors/expectations.toml`;
//! - a known deviation when it fails and `vectors/expectations.toml` lists it
//!   with its reason;
//! - otherwise passed or failed.
//!
//! A listed skip that the engine's capabilities cover, and a listed deviation
//! that passes, fail: expectations never go stale silently.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Instant;

use serde::Deserialize;

use super::classes::Class;
use super::compare::{Request, Verdict, judge_answer};
use super::errors::DataError;
use super::parallel;
use super::vectors::{Case, Input};
use crate::codec::Codec;
use crate::engines::{Engine, EngineError};
use crate::vocabulary::Expected;

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
    pub fn parse(text: &str) -> Result<Self, DataError> {
        toml::from_str(text).map_err(|e| DataError::invalid("expectations", e))
    }

    /// Checks that every entry names a known engine and case.
    pub fn validate(&self, engines: &[String], cases: &[Case]) -> Result<(), DataError> {
        for entry in self.skip.iter().chain(&self.deviation) {
            if !engines.contains(&entry.engine) {
                return Err(DataError::invalid(
                    "expectations",
                    format!("unknown engine {:?}", entry.engine),
                ));
            }
            if !cases.iter().any(|c| c.name == entry.case) {
                return Err(DataError::invalid(
                    "expectations",
                    format!("unknown case {:?}", entry.case),
                ));
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
    /// The engine's answer, when it was asked.
    pub answer: Option<Result<Expected, EngineError>>,
}

/// Everything a run produced.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// One row per (engine, case) that ran, in engine order then case order.
    pub rows: Vec<Row>,
    /// Cases not run because the deadline passed.
    pub unrun: usize,
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

/// Reasons that differ only in their first number (`1001 code points
/// exceed its limit of 1000`, `1002 code points ...`: one per length) as
/// one reason with the range of that number (`1001 to 4000 code points
/// ...`), so that a report says each reason once.
pub fn summarized(reasons: BTreeMap<String, usize>) -> Vec<(String, usize)> {
    // The reason with its first number taken out, and that number.
    fn shape(reason: &str) -> (String, Option<u64>) {
        let Some(start) = reason.find(|c: char| c.is_ascii_digit()) else {
            return (reason.to_string(), None);
        };
        let end = reason[start..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(reason.len(), |k| start + k);
        let number = reason[start..end].parse().ok();
        (
            format!("{}{{}}{}", &reason[..start], &reason[end..]),
            number,
        )
    }
    /// The reasons of one shape: the range of their number, how many
    /// vectors, and the first reason as it was said.
    struct Group {
        range: Option<(u64, u64)>,
        count: usize,
        first: String,
    }
    let mut groups: BTreeMap<String, Group> = Default::default();
    for (reason, count) in reasons {
        let (shape, number) = shape(&reason);
        let group = groups.entry(shape).or_insert_with(|| Group {
            range: None,
            count: 0,
            first: reason.clone(),
        });
        group.count += count;
        if let Some(n) = number {
            group.range = Some(
                group
                    .range
                    .map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))),
            );
        }
    }
    groups
        .into_iter()
        .map(|(shape, group)| {
            let reason = match group.range {
                Some((lo, hi)) if lo != hi => shape.replacen("{}", &format!("{lo} to {hi}"), 1),
                _ => group.first,
            };
            (reason, group.count)
        })
        .collect()
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
        // Per engine, reasons that differ only in a number (one skip per
        // length) said once, with the range.
        let mut reasons: BTreeMap<&str, BTreeMap<String, usize>> = BTreeMap::new();
        for row in &self.rows {
            if let Outcome::Skip(why) | Outcome::KnownDeviation(why) = &row.outcome {
                *reasons
                    .entry(&row.engine)
                    .or_default()
                    .entry(why.clone())
                    .or_default() += 1;
            }
        }
        if !reasons.is_empty() {
            writeln!(f, "\nskips and known deviations, with their reasons:")?;
            for (engine, whys) in reasons {
                for (why, count) in summarized(whys) {
                    writeln!(f, "  {engine}: {count} x {why}")?;
                }
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

/// Runs `cases` over `engines` with the built-in expectations (checked
/// against every built-in implementation and case first); cases not
/// started by `deadline` are left unrun.
pub fn run_with_builtin_expectations(
    engines: &[Box<dyn Engine>],
    cases: &[Case],
    deadline: Option<Instant>,
) -> Result<Report, DataError> {
    let expectations = Expectations::parse(BUILTIN_EXPECTATIONS)?;
    // Listings of built-ins this build lacks (a cargo feature off) are
    // still known names.
    let names: Vec<String> = crate::codec::Codec::ALL
        .into_iter()
        .flat_map(|codec| {
            let missing = crate::engines::missing_for(codec)
                .into_iter()
                .map(|m| m.name.to_string());
            crate::engines::builtin_names_for(codec)
                .into_iter()
                .chain(missing)
        })
        .collect();
    // The listings name cases of every codec; check them against all.
    let mut known = super::vectors::builtin()?;
    known.extend(cases.iter().cloned());
    expectations.validate(&names, &known)?;
    Ok(run_until(engines, cases, &expectations, deadline))
}

/// Runs every engine over every case of its codec.
pub fn run(engines: &[Box<dyn Engine>], cases: &[Case], expectations: &Expectations) -> Report {
    run_until(engines, cases, expectations, None)
}

/// [`run`], leaving the cases not started by `deadline` unrun: they are
/// listed in [`Report::unrun`], not passed.
pub fn run_until(
    engines: &[Box<dyn Engine>],
    cases: &[Case],
    expectations: &Expectations,
    deadline: Option<Instant>,
) -> Report {
    let mut report = Report::default();
    for engine in engines {
        let part = run_until_one(engine.as_ref(), cases, expectations, deadline);
        report.rows.extend(part.rows);
        report.unrun += part.unrun;
    }
    report
}

/// [`run_until`] for one engine.
pub fn run_until_one(
    engine: &dyn Engine,
    cases: &[Case],
    expectations: &Expectations,
    deadline: Option<Instant>,
) -> Report {
    let mut report = Report::default();
    let cases: Vec<&Case> = cases.iter().filter(|c| c.codec == engine.codec()).collect();
    let outcomes = parallel::map(engine.workers(), &cases, |case| {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        Some(run_one_answer(engine, case, expectations))
    });
    let (run, unrun): (Vec<_>, Vec<_>) = cases
        .iter()
        .copied()
        .zip(outcomes)
        // Not started in time, or cut by the engine's deadline.
        .partition(|(_, o)| {
            o.as_ref()
                .is_some_and(|(_, a)| !matches!(a, Some(Err(EngineError::Cancelled))))
        });
    report.unrun += unrun.len();
    for (case, outcome) in run {
        let (outcome, answer) = outcome.expect("partitioned");
        report.rows.push(Row {
            engine: engine.name().to_string(),
            case: case.name.clone(),
            outcome,
            answer,
        });
    }
    report
}

/// The cases that check `codec`: its own, and for the `label` and `domain`
/// codecs each case of another profile of the same rules whose answer does
/// not depend on the switches that differ. The reference's answer under
/// `codec`'s switches decides it: the same answer (a refusal by the rule
/// the case names, for a refusal) runs the case under them too, its
/// expected value its own (derived for its file's profile). So a check
/// under the URL Standard's switches asks the advisories written for a
/// registry's, but those that a switch decides.
pub fn cases_for(cases: &[Case], codec: Codec) -> Vec<Case> {
    let mut out: Vec<Case> = cases.iter().filter(|c| c.codec == codec).cloned().collect();
    let Some(profile) = codec.label_profile() else {
        return out;
    };
    for case in cases {
        let Some(own) = case.codec.label_profile() else {
            continue;
        };
        if case.codec == codec
            || case.codec.with_profile(profile) != codec
            || own.rules != profile.rules
        {
            continue;
        }
        let request = request_of(case);
        let same = match (
            super::compare::reference_for(codec, &request),
            &case.expected,
        ) {
            (Some(Expected::Error(_)), Expected::Error(_)) => {
                case.reason.as_ref().is_none_or(|reason| {
                    crate::domain::refusal(codec, &request)
                        .is_some_and(|r| r.explained(profile.rules).contains(reason.as_str()))
                })
            }
            (Some(got), want) => got == *want,
            (None, _) => false,
        };
        if same {
            let mut case = case.clone();
            case.provenance = format!(
                "{} Asked under {profile} too: the reference answers it the same there.",
                case.provenance
            );
            case.codec = codec;
            out.push(case);
        }
    }
    out
}

/// The question a case asks.
pub fn request_of(case: &Case) -> Request {
    match &case.input {
        Input::Encode(cps) => Request::Encode {
            code_points: cps.values.clone(),
            flags: case.annotations.then(|| cps.flags.clone()),
        },
        Input::Decode(bytes) => Request::Decode(bytes.clone()),
    }
}

/// Runs one engine on one case, applying its capabilities and the listed
/// expectations.
pub fn run_one(engine: &dyn Engine, case: &Case, expectations: &Expectations) -> Outcome {
    run_one_answer(engine, case, expectations).0
}

/// [`run_one`], also returning the engine's answer when it was asked.
pub fn run_one_answer(
    engine: &dyn Engine,
    case: &Case,
    expectations: &Expectations,
) -> (Outcome, Option<Result<Expected, EngineError>>) {
    let request = request_of(case);
    let flags_matter = case.annotations || matches!(case.input, Input::Encode(_));
    let (verdict, answer) = judge_answer(engine, &request, &case.expected, flags_matter);
    (judged_outcome(engine, case, expectations, verdict), answer)
}

fn judged_outcome(
    engine: &dyn Engine,
    case: &Case,
    expectations: &Expectations,
    verdict: Verdict,
) -> Outcome {
    let listed_skip = Expectations::find(&expectations.skip, engine.name(), &case.name);
    if let Some(listed) = listed_skip {
        return match verdict {
            Verdict::Skip { reason, .. } => Outcome::Skip(format!("{} ({reason})", listed.reason)),
            _ => Outcome::Fail(format!(
                "listed as skipped ({}) but inside its declared capabilities: remove the listing",
                listed.reason
            )),
        };
    }
    let outcome = match verdict {
        Verdict::Same => Outcome::Pass,
        Verdict::Skip { reason, .. } => Outcome::Skip(reason),
        // Agreement at the precision it declares.
        Verdict::Divergence {
            class: Class::Annotations | Class::ErrorDetail,
            ..
        } => Outcome::Pass,
        Verdict::Divergence { detail, .. } => Outcome::Skip(detail),
        Verdict::Nonconformance(detail) => Outcome::Fail(detail),
        Verdict::Unfinished => Outcome::Skip("no answer before the run's time ran out".into()),
    };
    match (
        Expectations::find(&expectations.deviation, engine.name(), &case.name),
        outcome,
    ) {
        (None, outcome) => outcome,
        (Some(listed), Outcome::Fail(_) | Outcome::Skip(_)) => {
            Outcome::KnownDeviation(listed.reason.clone())
        }
        (Some(listed), Outcome::Pass) => Outcome::Fail(format!(
            "listed as a known deviation ({}) but passes: remove the listing",
            listed.reason
        )),
        (Some(_), other) => other,
    }
}
