//! A campaign: implementations asked the same generated questions as the C
//! reference for a number of requests or seconds, every answer judged, the
//! round-trip and uniqueness properties checked (for `check`), and every
//! nonconformance minimized into a one-line reproducer.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::classes::Class;
use super::compare::{Request, Verdict, evaluate, judge_answer, reference_for};
use super::generate::Generator;
use super::minimize::{Budget, minimize};
use super::parallel;
use super::properties::{self, Property};
use super::vectors::Expected;
use crate::codec::Codec;
use crate::engines::{Engine, EngineError};

/// How long and how a campaign runs.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Seed of the generator: the same seed asks the same questions.
    pub seed: u64,
    /// Stop after this many requests...
    pub cases: Option<u64>,
    /// ...or after this long (the whole campaign, minimization included).
    pub time: Option<Duration>,
    /// Also check the round-trip and uniqueness properties.
    pub properties: bool,
    /// Findings kept per implementation (each is minimized).
    pub max_findings: usize,
    /// Stop as soon as one finding has been minimized.
    pub fail_fast: bool,
}

/// A minimized nonconformance.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// The implementation's name.
    pub implementation: String,
    /// `differential` or the property's name.
    pub check: String,
    /// The minimized request, as `punycheck repro` arguments.
    pub input: String,
    /// What went wrong on the minimized request.
    pub detail: String,
    /// The request as first found, before minimization.
    pub original: String,
    /// A command that reproduces it (fill in the implementation spec).
    pub repro_args: String,
    #[serde(skip)]
    /// The minimized request itself.
    pub request: Request,
}

/// Counts for one implementation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// Requests generated.
    pub requests: u64,
    /// Answers identical to the reference's.
    pub same: u64,
    /// Requests not asked, by divergence class.
    pub skipped: BTreeMap<String, u64>,
    /// Explained differences, by divergence class, with one example each.
    pub divergences: BTreeMap<String, (u64, String)>,
    /// Unexplained differences (each a nonconformance).
    pub nonconformances: u64,
    /// Property checks run.
    pub property_checks: u64,
    /// Property violations.
    pub property_violations: u64,
}

/// What a campaign found for one implementation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Outcome {
    /// The implementation's name.
    pub implementation: String,
    /// Counts.
    pub stats: Stats,
    /// Minimized findings.
    pub findings: Vec<Finding>,
    /// Set when the run had to stop early (e.g. the program keeps hanging).
    pub aborted: Option<String>,
}

impl Outcome {
    /// Whether nothing unexplained was found.
    pub fn conforming(&self) -> bool {
        self.stats.nonconformances == 0
            && self.stats.property_violations == 0
            && self.aborted.is_none()
    }
}

/// A signature that groups findings of the same kind, so each kind is
/// minimized and reported once.
fn signature(request: &Request, detail: &str) -> String {
    let op = match request {
        Request::Encode { .. } => "encode",
        Request::Decode(_) => "decode",
    };
    // Keep the words, drop the values.
    let words: String = detail
        .split(['"', '['])
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphabetic() || *c == ' ')
        .collect();
    format!("{op}: {}", words.trim())
}

fn still_differs(engine: &dyn Engine, wanted: &str, candidate: &Request) -> bool {
    let Some(reference) = reference_for(engine.codec(), candidate) else {
        return false;
    };
    match judge_answer(engine, candidate, &reference, true).0 {
        Verdict::Nonconformance(detail) => signature(candidate, &detail) == wanted,
        _ => false,
    }
}

fn still_violates(engine: &dyn Engine, wanted: Property, candidate: &Request) -> bool {
    let answer = super::compare::ask(engine, candidate);
    properties::check_all(engine, candidate, &answer, true).is_some_and(|v| v.property == wanted)
}

/// Requests generated and judged together; fixed, so that a run with the
/// same seed and number of cases asks the same questions however many
/// workers answer them.
const BATCH: usize = 16;

/// What one engine did with one request, worked out on a worker thread.
struct Judged {
    verdict: Verdict,
    answer: Option<Result<Expected, EngineError>>,
    violation: Option<properties::Violation>,
}

fn judge_one(
    engine: &dyn Engine,
    request: &Request,
    properties_too: bool,
    uniqueness: bool,
) -> Option<Judged> {
    let want = reference_for(engine.codec(), request)?;
    let (verdict, answer) = judge_answer(engine, request, &want, true);
    let violation = match (&verdict, &answer) {
        (Verdict::Same | Verdict::Divergence { .. }, Some(answer)) if properties_too => {
            properties::check_all(engine, request, answer, uniqueness)
        }
        _ => None,
    };
    Some(Judged {
        verdict,
        answer,
        violation,
    })
}

/// Runs a campaign over `engines`. `progress` is called after each batch
/// with the number of requests generated so far.
pub fn run(
    engines: &[&dyn Engine],
    settings: Settings,
    progress: &mut dyn FnMut(u64),
) -> Vec<Outcome> {
    let start = Instant::now();
    let total = settings.time;
    // Leave a fifth of the time for minimizing what is found.
    let generate_until = total.map(|t| start + t.mul_f64(0.8));
    let hard_deadline = total.map(|t| start + t);
    let mut outcomes: Vec<Outcome> = engines
        .iter()
        .map(|e| Outcome {
            implementation: e.name().to_string(),
            ..Default::default()
        })
        .collect();
    let mut seen: Vec<BTreeSet<String>> = vec![BTreeSet::new(); engines.len()];
    let mut hangs = vec![0u32; engines.len()];
    let codec = engines.first().map_or(Codec::Punycode, |e| e.codec());
    let mut generator = Generator::for_codec(codec, settings.seed);
    let mut done = 0u64;
    loop {
        let stop = settings.cases.is_some_and(|n| done >= n)
            || generate_until.is_some_and(|t| Instant::now() >= t)
            || outcomes.iter().all(|o| o.aborted.is_some())
            || (settings.fail_fast && outcomes.iter().any(|o| !o.findings.is_empty()));
        if stop {
            break;
        }
        let size = settings
            .cases
            .map_or(BATCH as u64, |n| (n - done).min(BATCH as u64));
        let batch: Vec<(u64, Request)> = (0..size)
            .map(|k| (done + k, generator.next_request()))
            .collect();
        done += size;
        for (k, engine) in engines.iter().enumerate() {
            if outcomes[k].aborted.is_some() {
                continue;
            }
            // Uniqueness costs several calls: check it on every fourth request.
            // Past the time, requests still waiting for a worker are dropped.
            let judged = parallel::map(engine.workers(), &batch, |(index, request)| {
                if hard_deadline.is_some_and(|end| Instant::now() >= end) {
                    return None;
                }
                judge_one(*engine, request, settings.properties, index % 4 == 0)
            });
            for ((_, request), judged) in batch.iter().zip(judged) {
                let Some(judged) = judged else { continue };
                if outcomes[k].aborted.is_some() {
                    break;
                }
                let found = record(
                    &mut outcomes[k],
                    &mut hangs[k],
                    *engine,
                    request,
                    judged,
                    settings.properties,
                );
                let Some((sig, check, detail, property)) = found else {
                    continue;
                };
                if seen[k].contains(&sig) || outcomes[k].findings.len() >= settings.max_findings {
                    continue;
                }
                seen[k].insert(sig.clone());
                let now = Instant::now();
                let budget = Budget {
                    attempts: 2_000,
                    deadline: match (total, hard_deadline) {
                        (Some(t), Some(end)) => (now + t.mul_f64(0.2)).min(end),
                        _ => now + Duration::from_secs(20),
                    },
                };
                let finding = minimized(*engine, request, &sig, check, detail, property, budget);
                outcomes[k].findings.push(finding);
            }
        }
        progress(done);
    }
    outcomes
}

/// Counts one judged request; returns what to minimize, if it is a
/// finding: (signature, check, detail, property).
fn record(
    outcome: &mut Outcome,
    hangs: &mut u32,
    engine: &dyn Engine,
    request: &Request,
    judged: Judged,
    properties_checked: bool,
) -> Option<(String, String, String, Option<Property>)> {
    outcome.stats.requests += 1;
    *hangs = match &judged.answer {
        Some(Err(EngineError::Broken(why))) if why.starts_with("no answer within") => *hangs + 1,
        _ => 0,
    };
    if *hangs >= 3 {
        outcome.aborted = Some(format!(
            "{} gave no answer three times in a row (last on {request}); stopped checking it",
            engine.name()
        ));
    }
    if properties_checked
        && judged.answer.is_some()
        && !matches!(judged.verdict, Verdict::Nonconformance(_))
    {
        outcome.stats.property_checks += 1;
    }
    match judged.verdict {
        Verdict::Same => outcome.stats.same += 1,
        Verdict::Skip { class, .. } => {
            *outcome
                .stats
                .skipped
                .entry(class.id().to_string())
                .or_default() += 1;
        }
        Verdict::Divergence { class, detail } => {
            let entry = outcome
                .stats
                .divergences
                .entry(class.id().to_string())
                .or_insert((0, format!("{request}: {detail}")));
            entry.0 += 1;
        }
        Verdict::Nonconformance(detail) => {
            outcome.stats.nonconformances += 1;
            let sig = signature(request, &detail);
            return Some((sig, "differential".to_string(), detail, None));
        }
    }
    let v = judged.violation?;
    outcome.stats.property_violations += 1;
    Some((
        format!("property {:?}", v.property),
        v.property.name().to_string(),
        v.detail,
        Some(v.property),
    ))
}

/// Minimizes a finding and describes the result.
fn minimized(
    engine: &dyn Engine,
    request: &Request,
    sig: &str,
    check: String,
    detail: String,
    property: Option<Property>,
    budget: Budget,
) -> Finding {
    let small = match property {
        Some(p) => minimize(request, &mut |c| still_violates(engine, p, c), budget),
        None => minimize(request, &mut |c| still_differs(engine, sig, c), budget),
    };
    let small_detail = describe_failure(engine, &small, property).unwrap_or(detail);
    Finding {
        implementation: engine.name().to_string(),
        check,
        input: small.to_string(),
        detail: small_detail,
        original: request.to_string(),
        repro_args: small.repro_args(),
        request: small,
    }
}

/// What is wrong with `request` now (after minimization).
fn describe_failure(
    engine: &dyn Engine,
    request: &Request,
    property: Option<Property>,
) -> Option<String> {
    let answer = super::compare::ask(engine, request);
    match property {
        Some(_) => properties::check_all(engine, request, &answer, true).map(|v| v.detail),
        None => {
            let want = reference_for(engine.codec(), request)?;
            match evaluate(&engine.capabilities(), request, &want, &answer, true) {
                Verdict::Nonconformance(detail) => Some(detail),
                _ => None,
            }
        }
    }
}

/// The divergence class names with their counts, for a one-line summary.
pub fn class_summary(stats: &Stats) -> String {
    let mut parts: Vec<String> = Vec::new();
    for class in Class::ALL {
        let skipped = stats.skipped.get(class.id()).copied().unwrap_or(0);
        let diverged = stats.divergences.get(class.id()).map_or(0, |d| d.0);
        if skipped + diverged > 0 {
            parts.push(format!("{} {}", class.id(), skipped + diverged));
        }
    }
    parts.join(", ")
}
