//! `punycheck check`: everything a conformance gate asks of one
//! implementation, within a time budget.
//!
//! 1. **The vectors**, until 60% of the time (those not started by then are
//!    counted as not run, and the report says so).
//! 2. **Generated questions** against the reference, with the round-trip
//!    and uniqueness properties on the implementation's own answers
//!    ([`super::campaign`]).
//! 3. **Causes**: every failed vector and every nonconformance or
//!    violation found by the generated questions, grouped by cause,
//!    minimized and confirmed ([`super::causes`]).
//!
//! No question runs past the budget: the implementation's deadline is the
//! end of it, and an answer cut by it counts as unfinished, never as a
//! finding.

use std::time::{Duration, Instant};

use super::baseline::{self, Baseline};
use super::campaign::{self, Settings};
use super::causes::{self, Collector, Key, Kind};
use super::report::{CheckReport, VectorSummary};
use super::runner::{self, Expectations, Outcome};
use super::vectors::Case;
use crate::engines::Engine;
use crate::engines::declaration::describe;

/// How a check runs.
#[derive(Clone, Debug)]
pub struct CheckSettings {
    /// The whole budget, minimization included.
    pub time: Duration,
    /// Also stop generating after this many questions.
    pub cases: Option<u64>,
    /// The generator's seed.
    pub seed: u64,
    /// Stop asking at the first cause (it is still minimized).
    pub fail_fast: bool,
    /// The command that replays a question, without the question: the
    /// report adds each cause's arguments to it.
    pub repro_prefix: String,
    /// The implementation as the user named it.
    pub spec: String,
    /// The declaration's command-line options, for the report.
    pub declared_options: String,
    /// Causes accepted for now (`--baseline`).
    pub baseline: Option<Baseline>,
}

/// The phase a check is in, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Running vectors: done of total.
    Vectors,
    /// Asking generated questions: done, total when bounded by `--cases`.
    Generated,
    /// Minimizing and confirming causes.
    Causes,
}

/// Share of the budget the vectors may take.
const VECTOR_SHARE: f64 = 0.6;

/// Vectors run between two progress reports.
const CHUNK: usize = 16;

/// The cases taken in turn from each file (the first of every file, then
/// the second, ...), so that a check cut short by its time has asked
/// something of every topic rather than everything of the first files.
fn interleaved(cases: &[Case]) -> Vec<Case> {
    let mut files: Vec<Vec<&Case>> = Vec::new();
    for case in cases {
        match files.iter_mut().find(|f| f[0].file == case.file) {
            Some(file) => file.push(case),
            None => files.push(vec![case]),
        }
    }
    let longest = files.iter().map(Vec::len).max().unwrap_or(0);
    (0..longest)
        .flat_map(|k| files.iter().filter_map(move |f| f.get(k)))
        .map(|&c| c.clone())
        .collect()
}

/// Runs the check of `engine` over `cases` (its codec's vectors) and
/// generated questions. `progress` gets the phase, the count done and the
/// total when there is one.
pub fn run(
    engine: &dyn Engine,
    cases: &[Case],
    expectations: &Expectations,
    settings: &CheckSettings,
    progress: &mut dyn FnMut(Phase, u64, Option<u64>),
) -> CheckReport {
    let start = Instant::now();
    let end = start + settings.time;
    engine.set_deadline(Some(end));
    let cases = interleaved(cases);
    let cases = cases.as_slice();
    let vectors_until = start + settings.time.mul_f64(VECTOR_SHARE);
    let mut vector_report = runner::Report::default();
    let total = cases.len() as u64;
    progress(Phase::Vectors, 0, Some(total));
    for chunk in cases.chunks(CHUNK) {
        let part = runner::run_until_one(engine, chunk, expectations, Some(vectors_until));
        vector_report.rows.extend(part.rows);
        vector_report.unrun += part.unrun;
        if settings.fail_fast && vector_report.failures().next().is_some() {
            // The rest is not asked: counted as not run.
            let asked = vector_report.rows.len() + vector_report.unrun;
            vector_report.unrun += cases.len() - asked;
            break;
        }
        progress(
            Phase::Vectors,
            (vector_report.rows.len() + vector_report.unrun) as u64,
            Some(total),
        );
    }
    let mut collector = Collector::default();
    for row in vector_report.failures() {
        let Some(case) = cases.iter().find(|c| c.name == row.case) else {
            continue;
        };
        let request = runner::request_of(case);
        let Outcome::Fail(detail) = &row.outcome else {
            continue;
        };
        let key = match &row.answer {
            Some(answer) => causes::key_of(
                &engine.capabilities(),
                engine.codec(),
                &request,
                &case.expected,
                answer,
            ),
            // A listing in vectors/expectations.toml gone stale.
            None => Key {
                direction: causes::direction(&request),
                kind: Kind::Broken,
                reference: "vectors/expectations.toml".into(),
                got: detail.clone(),
            },
        };
        collector.observe(key, &request, detail, None, Some(&case.name));
    }
    let vectors_failed = !collector.is_empty();
    let remaining = end.saturating_duration_since(Instant::now());
    let campaign_settings = Settings {
        seed: settings.seed,
        cases: if settings.fail_fast && vectors_failed {
            Some(0)
        } else {
            settings.cases
        },
        time: Some(remaining),
        properties: true,
        max_findings: 16,
        fail_fast: settings.fail_fast,
    };
    progress(Phase::Generated, 0, campaign_settings.cases);
    let mut outcomes =
        campaign::run_with(&[engine], campaign_settings, vec![collector], &mut |n| {
            progress(Phase::Generated, n, campaign_settings.cases)
        });
    progress(Phase::Causes, 0, None);
    engine.set_deadline(None);
    let campaign = outcomes.remove(0);
    let mut incomplete = Vec::new();
    if vector_report.unrun > 0 {
        incomplete.push(format!(
            "{} of {} vectors did not run within --seconds (each question may take up to --timeout; give the check more time)",
            vector_report.unrun, total
        ));
    }
    if campaign.stats.unfinished > 0 {
        incomplete.push(format!(
            "{} generated questions were still unanswered when the time ran out (not counted)",
            campaign.stats.unfinished
        ));
    }
    let baseline = settings
        .baseline
        .as_ref()
        .map(|b| baseline::judge(b, &campaign.causes, engine));
    let (baseline, baseline_error) = match baseline {
        Some(Ok(judgement)) => (Some(judgement), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    incomplete.extend(baseline_error);
    CheckReport {
        baseline,
        version: super::report::VERSION,
        implementation: settings.spec.clone(),
        codec: engine.codec().to_string(),
        declared: describe(&engine.capabilities()),
        declared_options: settings.declared_options.clone(),
        seed: settings.seed,
        seconds: start.elapsed().as_secs_f64(),
        budget_seconds: settings.time.as_secs_f64(),
        vectors: VectorSummary::from_report(&vector_report, total as usize),
        campaign,
        repro_prefix: settings.repro_prefix.clone(),
        incomplete,
    }
}
