//! `punycheck check`: everything a conformance gate asks of one
//! implementation, within a time budget.
//!
//! The most telling questions first, whatever the time given:
//!
//! 1. **The probe's questions, then the vectors**: the hand-written edge
//!    cases first (edge, invalid, bias, overflow, saved regressions and
//!    `--file`s, and the short cases of the derived `unicode-limits.toml`),
//!    then the RFC's samples, then the derived file's long cases, each
//!    group asked
//!    in turn from each file, until 60% of the time (70% bounded by
//!    `--seconds` alone; those not started by then are counted as not run,
//!    and the report says so).
//! 2. **The small cases** ([`super::small`], in telling order): with
//!    `--cases`, all of them, in the vectors' share; bounded by `--seconds`
//!    alone, in [`SWEEP_SHARE`] of the time left, a sample of every
//!    position class that the report names as one, never as a want of time.
//! 3. **The cost probe**, in [`COST_SHARE`] of the time left, which it
//!    never exceeds ([`super::cost`]).
//! 4. **Generated questions** against the reference, with the round-trip
//!    and uniqueness properties on the implementation's own answers
//!    ([`super::campaign`]).
//! 5. **Causes**: every failed vector and every nonconformance or
//!    violation found by the generated questions, grouped by cause,
//!    minimized and confirmed ([`super::causes`]).
//!
//! A process-per-question program (`exec:`) answers a dozen questions a
//! second on a busy machine: the vectors, which witness most defects, come
//! before the 2,562 small cases, and a check bounded by `--seconds` is
//! complete by its own plan when it has asked its vectors and its share of
//! the small cases.
//!
//! No question runs past the budget: the implementation's deadline is the
//! end of it, and an answer cut by it counts as unfinished, never as a
//! finding.
//!
//! # Size
//!
//! About 860 lines, 130 of them tests: the phases of a check share one
//! deadline, one collector of causes and one verdict, and are kept in the
//! order they run, so that what a time-bounded check leaves out is read in
//! one place; the vectors' order, the sweep's sample and the probe's own
//! questions judged again (its refusals and declared bounds) are small
//! functions beside the run.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use super::baseline::{self, Baseline};
use super::campaign::{self, Settings};
use super::causes::{self, Cause, Collector, Key, Kind};
use super::cost;
use super::errors::DataError;
use super::properties;
use super::report::{
    CheckReport, CostReport, PhaseTimes, VectorResult, VectorStatus, VectorSummary,
};
use super::runner::{self, Expectations, Outcome};
use super::vectors::Case;
use crate::engines::declaration::describe;
use crate::engines::{Engine, process};

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
    /// The cost probe's bounds, `None` for none (`--no-cost`).
    pub cost: Option<cost::Bounds>,
    /// Whether the run records a baseline (`--write-baseline`): its
    /// refusals of valid input are minimized more widely, so that a gate's
    /// are among the witnesses it records ([`Collector::recording`]).
    pub recording: bool,
}

impl CheckSettings {
    /// Settings for a check run from Rust code, such as a crate's own test:
    /// `time` for the whole check, `seed` for the generator, no baseline,
    /// and no command-line reproducer (each cause's input is the question
    /// to ask the function again).
    pub fn new(time: Duration, seed: u64) -> Self {
        CheckSettings {
            time,
            cases: None,
            seed,
            fail_fast: false,
            repro_prefix: String::new(),
            spec: String::new(),
            declared_options: String::new(),
            baseline: None,
            cost: Some(cost::Bounds::default()),
            recording: false,
        }
    }
}

/// The whole check that `punycheck check` runs, of any implementation
/// (see [`crate::engines::Functions`] for one made of Rust functions): the
/// built-in vectors of its codec, generated questions and properties, and
/// the causes found, minimized and confirmed. `report.conforming()` is the
/// verdict and `report.to_text()` the readable report.
///
/// ```no_run
/// use std::time::Duration;
/// use punycheck::engines::{Functions, Refusal};
/// use punycheck::harness::check::{CheckSettings, check};
///
/// let mine = Functions::unicode(
///     "idna's punycode",
///     |text| idna::punycode::encode_str(text).ok_or(Refusal::Failed),
///     |text| idna::punycode::decode_to_string(text).ok_or(Refusal::Failed),
/// );
/// let mut settings = CheckSettings::new(Duration::from_secs(10), 1);
/// // The cost probe times inputs up to 65,536 code points; the idna crate's
/// // quadratic encoder is slow on them, so bound it (or `None`: no probe).
/// settings.cost = Some(punycheck::harness::cost::Bounds { max: 4096, ..Default::default() });
/// let report = check(&mine, &settings).unwrap();
/// assert!(report.conforming(), "{}", report.to_text());
/// ```
pub fn check(engine: &dyn Engine, settings: &CheckSettings) -> Result<CheckReport, DataError> {
    let codec = engine.codec();
    let cases = runner::cases_for(&super::vectors::load(&[])?, codec);
    let expectations = Expectations::parse(runner::BUILTIN_EXPECTATIONS)?;
    let mut settings = settings.clone();
    if settings.spec.is_empty() {
        settings.spec = engine.name().to_string();
    }
    Ok(run(
        engine,
        &cases,
        &expectations,
        &settings,
        &mut |_, _, _| {},
    ))
}

/// The phase a check is in, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Running vectors: done of total.
    Vectors,
    /// Timing the cost probe's inputs.
    Cost,
    /// Asking generated questions: done, total when bounded by `--cases`.
    Generated,
    /// Minimizing and confirming causes.
    Causes,
    /// The sweep of every code point ([`super::sweep`]): code points done,
    /// of those to do.
    Sweep,
}

/// Share of the budget the vectors may take.
const VECTOR_SHARE: f64 = 0.6;

/// Share of the budget the vectors may take in a check bounded by
/// `--seconds` alone: more, since they are the most telling questions and
/// the small cases, the cost probe and the generated questions there take
/// what is left, each a share of it.
const VECTOR_SHARE_TIMED: f64 = 0.7;

/// Share of what is left after the vectors that the cost probe may take.
const COST_SHARE: f64 = 0.3;

/// Share of what is left after the vectors that a check bounded by
/// `--seconds` alone gives the small cases (asked in telling order, so
/// that what it reaches is a sample of every position class); the rest
/// goes to the cost probe and the generated questions.
pub const SWEEP_SHARE: f64 = 0.35;

/// The vector file derived by computation (long inputs at the overflow
/// limits, 264 cases): its long cases asked after the curated files, its
/// short ones ([`SHORT`]) among them.
const DERIVED: &str = "unicode-limits.toml";

/// The most code points or bytes of a derived case asked among the
/// curated ones: its short cases (a lone `0`, input that ends inside a
/// delta on each digit) witness as much in one question as a curated
/// case, and cost an `exec:` program no more; a check bounded by
/// `--seconds` on a loaded machine may not reach the long ones.
const SHORT: usize = 16;

/// The RFC's sample strings (76 cases, encoded and decoded, plain and
/// annotated): asked after the hand-written edge cases (edge, invalid,
/// bias, overflow, saved regressions, `--file`s), which witness the same
/// defects in fewer questions, and before the derived file.
const SAMPLES: &str = "rfc3492-samples.toml";

/// Why a small case did not run in a check bounded by `--seconds` alone:
/// it asks them as a sample, not as a want of time.
const SAMPLED: &str = "not in this check's sample: bounded by --seconds alone, a check asks the small cases in telling order in its share of the time (--cases asks all)";

/// How the probe's questions among the small cases are named: asked first,
/// before the vectors.
const PROBE_PREFIX: &str = "small:probe-";

/// Vectors run between two progress reports.
const CHUNK: usize = 16;

/// Why a vector did not run: the time given ran out first.
const TIME_RAN_OUT: &str = "did not run within --seconds";

/// Why a vector did not run: `--fail-fast` ended the check first.
const FAIL_FAST_STOPPED: &str = "--fail-fast stopped the check at the first failure";

/// Why a vector did not run: the implementation had hung [`MOST_HANGS`]
/// times, each costing the time limit twice.
const HANGS_STOPPED: &str = "the implementation had hung too often: stopped asking";

/// How many hangs among the small cases and vectors end the asking: each
/// costs its time limit twice, and a program that hangs on everything
/// would otherwise take the whole of `--seconds`.
const MOST_HANGS: usize = 3;

/// Why a vector did not run: Ctrl-C or SIGTERM ended the check first.
const INTERRUPTED: &str = "the check was interrupted (Ctrl-C or SIGTERM) first";

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
    let started = std::time::SystemTime::now();
    let end = start + settings.time;
    engine.set_deadline(Some(end));
    // The probe's questions, the curated vectors, the derived ones, then
    // the small cases: with --cases all in the vectors' share of the time;
    // bounded by --seconds alone, the small cases in a share of their own
    // (SWEEP_SHARE of what the vectors left), as a sample.
    let (probe_cases, sweep): (Vec<Case>, Vec<Case>) = super::small::cases(engine)
        .into_iter()
        .partition(|c| c.name.starts_with(PROBE_PREFIX));
    // Those outside the declaration cost nothing (not asked): classified
    // first, so that a check cut short counts them as what they are.
    let (asked, outside): (Vec<Case>, Vec<Case>) = cases
        .iter()
        .cloned()
        .partition(|c| super::compare::askable(engine, &runner::request_of(c)));
    let (rest, curated): (Vec<Case>, Vec<Case>) = asked
        .into_iter()
        .partition(|c| c.file == DERIVED && causes::request_len(&runner::request_of(c)) > SHORT);
    let (samples, edges): (Vec<Case>, Vec<Case>) =
        curated.into_iter().partition(|c| c.file == SAMPLES);
    let sweep_from = probe_cases.len() + outside.len() + edges.len() + samples.len() + rest.len();
    let cases = [
        probe_cases,
        outside,
        interleaved(&edges),
        interleaved(&samples),
        interleaved(&rest),
        sweep,
    ]
    .concat();
    let cases = cases.as_slice();
    let sampling = settings.cases.is_none();
    let share = if sampling {
        VECTOR_SHARE_TIMED
    } else {
        VECTOR_SHARE
    };
    let vectors_until = start + settings.time.mul_f64(share);
    let mut sweep_until: Option<Instant> = None;
    let mut vector_report = runner::Report::default();
    let total = cases.len() as u64;
    // Seconds per vector: each batch's time shared among the vectors it ran.
    let mut seconds: BTreeMap<String, f64> = BTreeMap::new();
    // Vectors left when --fail-fast stopped at a failed one, or hangs did.
    let mut stopped = 0;
    let mut stop_reason = FAIL_FAST_STOPPED;
    progress(Phase::Vectors, 0, Some(total));
    let mut next = 0;
    let mut hangs = 0;
    while next < cases.len() {
        if process::interrupted() {
            break;
        }
        // Once it has hung, a few at a time: each hang costs its limit
        // twice, and the asking stops at MOST_HANGS.
        let size = if hangs > 0 {
            engine.workers().max(1)
        } else {
            CHUNK
        };
        // A chunk never spans the vectors' end and the small cases'.
        let stop_at = if next < sweep_from {
            sweep_from
        } else {
            cases.len()
        };
        let chunk = &cases[next..(next + size).min(stop_at)];
        next += chunk.len();
        let until = if sampling && next > sweep_from {
            *sweep_until.get_or_insert_with(|| {
                let now = Instant::now();
                now + end.saturating_duration_since(now).mul_f64(SWEEP_SHARE)
            })
        } else {
            vectors_until
        };
        let batch = Instant::now();
        let part = runner::run_until_one(engine, chunk, expectations, Some(until));
        let each = batch.elapsed().as_secs_f64() / part.rows.len().max(1) as f64;
        for row in &part.rows {
            seconds.insert(row.case.clone(), each);
        }
        vector_report.rows.extend(part.rows);
        vector_report.unrun += part.unrun;
        hangs = vector_report
            .rows
            .iter()
            .filter(|r| matches!(r.answer, Some(Err(crate::engines::EngineError::Hung(_)))))
            .count();
        let fail_fast = settings.fail_fast && vector_report.failures().next().is_some();
        if fail_fast || hangs >= MOST_HANGS {
            // The rest is not asked: counted as not run.
            let asked = vector_report.rows.len() + vector_report.unrun;
            stopped = cases.len() - asked;
            vector_report.unrun += stopped;
            if !fail_fast {
                stop_reason = HANGS_STOPPED;
            }
            break;
        }
        // Vectors asked so far: those cut by the time are not counted.
        progress(Phase::Vectors, vector_report.rows.len() as u64, Some(total));
    }
    // Interrupted while asking the vectors: none of those left was asked
    // for want of time (the answers its interruption cut are left too).
    let interrupted_in_vectors = process::interrupted();
    if interrupted_in_vectors {
        let asked = vector_report.rows.len() + vector_report.unrun;
        vector_report.unrun += cases.len() - asked;
    }
    let accepted = settings
        .baseline
        .iter()
        // A sweep's recorded causes are known by their code points, never
        // by a check's key alone.
        .flat_map(|b| b.cause.iter().filter(|e| e.code_points.is_none()))
        .filter_map(baseline::Entry::key)
        .collect();
    let witnesses = settings
        .baseline
        .as_ref()
        .map(baseline::Baseline::witnesses)
        .unwrap_or_default();
    let mut collector = Collector::accepting(accepted)
        .witnessed(engine.codec(), witnesses)
        .recording(settings.recording);
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
        match &row.answer {
            Some(answer) => {
                collector.observe_answer(key, &request, answer, detail, Some(&case.name));
            }
            None => collector.observe(key, &request, detail, None, Some(&case.name)),
        }
    }
    // Every answer of a vector or a small case asked again of each other
    // entry point: the advisories' names among them.
    if !engine.entry_points().is_empty() && !process::interrupted() {
        for row in &vector_report.rows {
            let (Some(answer), Some(case)) =
                (&row.answer, cases.iter().find(|c| c.name == row.case))
            else {
                continue;
            };
            let request = runner::request_of(case);
            if let Some(v) = properties::check_entry_points_in_run(engine, &request, answer) {
                collector.observe_violation(engine.codec(), &request, &v, Some(&case.name));
            }
        }
    }
    let vectors_failed = !collector.is_empty();
    let hung_out = stop_reason == HANGS_STOPPED;
    let mut phases = PhaseTimes {
        vectors: start.elapsed(),
        ..PhaseTimes::default()
    };
    // The cost probe, unless the check is already stopping. For the label
    // and domain codecs it asks long A-labels to ToUnicode (the class of
    // CVE-2022-45061) and long U-labels to ToASCII, and for the domain
    // codec the work before the split (runs of U+0660, combining marks,
    // ignored code points). The seed documents' other codecs are not
    // probed.
    let stopping = process::interrupted() || (settings.fail_fast && vectors_failed) || hung_out;
    let probed = cost::probes(engine.codec());
    let probing = Instant::now();
    let probe = settings.cost.filter(|_| !stopping && probed).map(|bounds| {
        progress(Phase::Cost, 0, None);
        let now = Instant::now();
        let found = cost::probe(
            engine,
            &cost::Settings {
                budget: bounds.budget,
                max: bounds.max,
                until: now + end.saturating_duration_since(now).mul_f64(COST_SHARE),
            },
        );
        engine.set_deadline(Some(end));
        (bounds, found)
    });
    // A size where the probe stopped at a refusal is a question like any
    // other: a refusal where the reference answers is a cause (its limit
    // undeclared), never a pass that repro would call nonconforming.
    if let Some((_, found)) = &probe {
        observe_probe_edges(engine, &found.series, &mut collector);
    }
    phases.cost = probing.elapsed();
    let remaining = end.saturating_duration_since(Instant::now());
    let campaign_settings = Settings {
        seed: settings.seed,
        cases: if (settings.fail_fast && vectors_failed) || hung_out {
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
    let mut campaign = outcomes.remove(0);
    if let Some((bounds, found)) = &probe {
        campaign
            .causes
            .extend(found.slow.iter().map(|slow| slow.cause(bounds.budget)));
        fold_hangs(&mut campaign.causes, &found.slow);
        // Most severe first, as the campaign ordered its own.
        campaign.causes.sort_by_key(|c| c.key.kind);
    }
    let interrupted = process::interrupted();
    // Bounded by --seconds alone, the small cases not reached are left out
    // by the plan (a sample), not for want of time.
    let asked_names: std::collections::BTreeSet<&str> =
        vector_report.rows.iter().map(|r| r.case.as_str()).collect();
    // The cases before those that --fail-fast or the hangs left.
    let asked_until = (cases.len() - stopped).max(sweep_from);
    let sampled_out = if sampling && !interrupted_in_vectors {
        cases[sweep_from..asked_until]
            .iter()
            .filter(|c| !asked_names.contains(c.name.as_str()))
            .count()
    } else {
        0
    };
    let mut incomplete = Vec::new();
    if interrupted_in_vectors {
        incomplete.push(format!(
            "{} of {} vectors and small cases not asked: {INTERRUPTED}",
            vector_report.unrun, total
        ));
    } else if vector_report.unrun > stopped + sampled_out {
        incomplete.push(format!(
            "{} of {} vectors and small cases did not run within --seconds (each question may take up to --timeout; give the check more time)",
            vector_report.unrun - stopped - sampled_out,
            total
        ));
    }
    if stopped > 0 {
        incomplete.push(format!(
            "{stopped} of {total} vectors and small cases not asked: {stop_reason}"
        ));
    }
    if hung_out && campaign.aborted.is_none() {
        campaign.aborted = Some(format!(
            "{} gave no answer {MOST_HANGS} times among the small cases and vectors; stopped asking it",
            engine.name()
        ));
    }
    // Answers cut by an interruption are said by the verdict, not as a
    // want of time.
    if campaign.stats.unfinished > 0 && !interrupted {
        incomplete.push(format!(
            "{} generated questions were still unanswered when the time ran out (not counted)",
            campaign.stats.unfinished
        ));
    }
    // --cases promises that many questions: fewer within --seconds is a
    // run cut short, never a pass (unless --fail-fast stopped it at a
    // cause, or an interruption did).
    let asked = campaign.stats.requests + campaign.stats.unfinished;
    let fail_fast_stopped = settings.fail_fast && !campaign.causes.is_empty();
    if let Some(wanted) = campaign_settings.cases
        && asked < wanted
        && !interrupted
        && !fail_fast_stopped
        && campaign.aborted.is_none()
    {
        incomplete.push(format!(
            "{asked} of the {wanted} generated questions of --cases were asked within --seconds (give the check more time)"
        ));
    }
    let series: &[cost::Series] = probe.as_ref().map_or(&[], |(_, found)| &found.series);
    let judging = Instant::now();
    let baseline = settings.baseline.as_ref().map(|b| {
        // Interrupted, the recorded causes this run did not meet cannot be
        // asked again: none of them is said to be gone (or still there).
        if interrupted {
            return Ok(baseline::Judgement {
                known: baseline::known(b, &campaign.causes, series),
                ..Default::default()
            });
        }
        let passed = vector_report
            .rows
            .iter()
            .filter(|r| r.outcome == Outcome::Pass)
            .map(|r| r.case.as_str())
            .collect();
        baseline::judge(
            b,
            &campaign.causes,
            series,
            &passed,
            engine,
            settings.cost.unwrap_or_default(),
        )
    });
    phases.baseline = judging.elapsed();
    let (baseline, baseline_error) = match baseline {
        Some(Ok(judgement)) => (Some(judgement), None),
        Some(Err(e)) => (None, Some(e)),
        None => (None, None),
    };
    incomplete.extend(baseline_error.map(|e| e.to_string()));
    let vector_results: Vec<VectorResult> = cases
        .iter()
        .enumerate()
        .map(|(k, case)| {
            let row = vector_report.rows.iter().find(|r| r.case == case.name);
            VectorResult {
                name: case.name.clone(),
                file: case.file.clone(),
                request: runner::request_of(case),
                expected: case.expected.clone(),
                status: match row.map(|r| &r.outcome) {
                    None if interrupted_in_vectors => VectorStatus::Unrun(INTERRUPTED),
                    None if sampled_out > 0 && (sweep_from..asked_until).contains(&k) => {
                        VectorStatus::Unrun(SAMPLED)
                    }
                    None if k < cases.len() - stopped => VectorStatus::Unrun(TIME_RAN_OUT),
                    None => VectorStatus::Unrun(stop_reason),
                    Some(Outcome::Pass) => VectorStatus::Pass,
                    Some(Outcome::Skip(why)) => VectorStatus::Skip(why.clone()),
                    Some(Outcome::KnownDeviation(why)) => VectorStatus::KnownDeviation(why.clone()),
                    Some(Outcome::Fail(detail)) => VectorStatus::Fail(detail.clone()),
                },
                seconds: seconds.get(&case.name).copied().unwrap_or(0.0),
            }
        })
        .collect();
    // Counted apart: the vectors, and the small cases.
    let (small_results, vector_results): (Vec<_>, Vec<_>) = vector_results
        .into_iter()
        .partition(|r| r.file == super::small::FILE);
    let part = |small: bool| runner::Report {
        rows: vector_report
            .rows
            .iter()
            .filter(|r| r.case.starts_with(super::small::PREFIX) == small)
            .cloned()
            .collect(),
        unrun: 0,
    };
    let summary = |small: bool, all: usize| {
        let mut summary = VectorSummary::from_report(&part(small), all);
        summary.unrun = all - summary.run;
        summary.sampled = small && sampled_out > 0;
        summary
    };
    CheckReport {
        started,
        small_cases: summary(true, small_results.len()),
        vectors: summary(false, vector_results.len()),
        vector_results,
        baseline,
        version: super::report::VERSION,
        implementation: settings.spec.clone(),
        entry_points: entry_point_specs(engine),
        codec: engine.codec().to_string(),
        declared: declared(engine),
        capabilities: engine.capabilities(),
        declared_options: settings.declared_options.clone(),
        seed: settings.seed,
        seconds: start.elapsed().as_secs_f64(),
        budget_seconds: settings.time.as_secs_f64(),
        campaign,
        repro_prefix: settings.repro_prefix.clone(),
        incomplete,
        interrupted,
        cost: probe.map(|(bounds, found)| CostReport {
            bounds,
            series: found.series,
        }),
        long_inputs: None,
        phases,
        sweep: None,
    }
}

/// What `engine` declares, in words, as a report says it: a label or
/// domain check adds the profile it judged by, and the references'
/// Unicode version.
pub(super) fn declared(engine: &dyn Engine) -> String {
    match engine.codec().label_profile() {
        Some(profile) => format!(
            "{}; label rules {profile}; the references' Unicode {}",
            describe(&engine.capabilities()),
            crate::unicode::REFERENCE
        ),
        None => describe(&engine.capabilities()),
    }
}

/// The specs of `engine`'s other entry points, as a report names them.
pub(super) fn entry_point_specs(engine: &dyn Engine) -> Vec<String> {
    engine
        .entry_points()
        .iter()
        .map(|e| e.spec.clone())
        .collect()
}

/// Folds into a slow cause every hang of its direction whose question its
/// growth predicts to take longer than the time limit the hang met (read
/// from the hang's own words, `no answer within T s`): one slow algorithm
/// met by a long vector or question and by the cost probe is one cause,
/// whose detail names the hang's question and what was predicted.
fn fold_hangs(causes: &mut Vec<Cause>, slow: &[cost::Slow]) {
    let mut folded = Vec::new();
    for (k, hang) in causes.iter().enumerate() {
        if hang.key.kind != Kind::Hang {
            continue;
        }
        let limit = hang
            .detail
            .split("no answer within ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|t| t.parse::<f64>().ok());
        let size = causes::request_len(&hang.request);
        let explained = slow
            .iter()
            .filter(|s| s.series.direction.name() == hang.key.direction)
            .find_map(|s| Some((s, s.series.predicted(size)?)));
        if let (Some(limit), Some((slow, predicted))) = (limit, explained)
            && predicted >= limit
        {
            let note = format!(
                "; the same growth explains the hang of {} ({size} {}: about {} predicted, over its time limit of {limit} s)",
                hang.input,
                cost::unit(slow.series.direction),
                cost::seconds_text(predicted)
            );
            folded.push((k, hang.key.direction, note));
        }
    }
    for (k, direction, note) in folded.into_iter().rev() {
        causes.remove(k);
        if let Some(cause) = causes
            .iter_mut()
            .find(|c| c.key.kind == Kind::Slow && c.key.direction == direction)
        {
            cause.detail.push_str(&note);
        }
    }
}

/// Asks again the questions of the cost probe's `series` that decide
/// whether a size is a limit of the implementation's own, and observes
/// them in `collector` where the answer is a nonconformance: the size at
/// which a family stopped refused (a refusal where the reference answers,
/// beyond no declared limit), and, where labels' and names' limits are
/// declared, the smallest size answered beyond one of them (the promise
/// broken: [`super::compare::BeyondOwnLimit`]).
fn observe_probe_edges(engine: &dyn Engine, series: &[cost::Series], collector: &mut Collector) {
    let codec = engine.codec();
    let caps = engine.capabilities();
    for s in series {
        let mut asked = Vec::new();
        if let cost::End::Refused(size) = s.end
            && let Some(request) = cost::question_of_size(codec, s.family, s.direction, size)
        {
            asked.push(request);
        }
        if caps.name_limits.any() {
            let beyond = s.points.iter().find_map(|point| {
                let (request, _) = cost::question(codec, s.family, s.direction, point.code_points)?;
                let reference = super::compare::reference_for(codec, &request)?;
                caps.name_limits.passed_by(&reference).map(|_| request)
            });
            asked.extend(beyond);
        }
        for request in asked {
            let Some(reference) = super::compare::reference_for(codec, &request) else {
                continue;
            };
            let answer = super::compare::ask(engine, &request);
            if let super::compare::Verdict::Nonconformance(detail) =
                super::compare::evaluate(&caps, codec, &request, &reference, &answer, true)
            {
                let key = causes::key_of(&caps, codec, &request, &reference, &answer);
                let detail = format!("{detail} (the cost probe's {} family)", s.family.name());
                collector.observe_answer(key, &request, &answer, &detail, None);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Codec;
    use crate::engines::CleanRoom;
    use crate::harness::runner::BUILTIN_EXPECTATIONS;
    use crate::harness::vectors;
    use crate::vocabulary::Request;

    /// A hang of a long decoding that the slow decoder's growth predicts
    /// to take longer than its time limit is folded into the slow cause; a
    /// hang of a short question, or of the other direction, stays.
    #[test]
    fn a_hang_the_slow_growth_explains_is_one_cause_with_it() {
        let points = [(1024, 0.0), (2048, 0.06), (4096, 0.48), (8192, 3.84)]
            .iter()
            .map(|&(n, seconds)| cost::Point {
                size: 2 * n,
                code_points: n,
                seconds,
                peak_memory: None,
                cut: false,
                factor: 1.0,
            })
            .collect();
        let series = cost::Series {
            family: cost::Family::DistinctAscending,
            direction: cost::Direction::Decode,
            limit: 65536,
            points,
            end: cost::End::Extrapolated(16384),
        };
        let request = Request::Decode(b"a".to_vec());
        let slow = cost::Slow {
            series,
            request: request.clone(),
            yardsticks: Vec::new(),
        };
        let hang = |direction: &'static str, request: Request| Cause {
            key: Key {
                direction,
                kind: Kind::Hang,
                reference: String::new(),
                got: "hang".into(),
            },
            shape: String::new(),
            count: 1,
            vectors: Vec::new(),
            property: None,
            input: request.to_string(),
            detail: "no answer within 5.0 s, nor within 5.0 s when asked again".into(),
            original: request.to_string(),
            confirmation: causes::Confirmation::Confirmed,
            request,
            explanations: Vec::new(),
            by_rule: Vec::new(),
            beside: None,
            entry_point: None,
            swept: None,
        };
        let long = Request::Decode(vec![b'a'; 20_000]);
        let mut found = vec![
            slow.cause(Duration::from_secs(1)),
            hang("decode", long.clone()),
            hang("decode", Request::Decode(b"ab".to_vec())),
            hang(
                "encode",
                Request::Encode {
                    code_points: vec![0x61; 20_000],
                    flags: None,
                },
            ),
        ];
        fold_hangs(&mut found, std::slice::from_ref(&slow));
        assert_eq!(found.len(), 3, "{found:#?}");
        assert!(
            found[0]
                .detail
                .contains("the same growth explains the hang of"),
            "{}",
            found[0].detail
        );
        assert!(found.iter().all(|c| c.request != long));
    }

    /// The progress a check reports tells the truth: the phases in order,
    /// every count within its total, the vectors counted up to all of them.
    #[test]
    fn progress_counts_within_their_totals() {
        let cases: Vec<Case> = vectors::builtin()
            .unwrap()
            .into_iter()
            .filter(|c| c.codec == Codec::Punycode)
            .collect();
        let settings = CheckSettings {
            time: Duration::from_secs(600),
            cases: Some(40),
            seed: 1,
            fail_fast: false,
            repro_prefix: "punycheck repro --impl cleanroom".into(),
            spec: "cleanroom".into(),
            declared_options: String::new(),
            baseline: None,
            cost: Some(cost::Bounds::default()),
            recording: false,
        };
        let expectations = Expectations::parse(BUILTIN_EXPECTATIONS).unwrap();
        let mut seen: Vec<(Phase, u64, Option<u64>)> = Vec::new();
        let report = run(
            &CleanRoom,
            &cases,
            &expectations,
            &settings,
            &mut |p, d, t| seen.push((p, d, t)),
        );
        assert!(report.conforming());
        let phases: Vec<Phase> = seen.iter().map(|s| s.0).collect();
        let mut sorted = phases.clone();
        sorted.sort_by_key(|p| *p as u8);
        assert_eq!(phases, sorted, "phases out of order");
        for (phase, done, total) in &seen {
            if let Some(total) = total {
                assert!(done <= total, "{phase:?} {done}/{total}");
            }
        }
        let vectors: Vec<_> = seen.iter().filter(|s| s.0 == Phase::Vectors).collect();
        // The small cases are asked in the vectors' phase, first.
        let asked = (cases.len() + super::super::small::cases(&CleanRoom).len()) as u64;
        assert!(vectors.iter().all(|s| s.2 == Some(asked)));
        assert_eq!(vectors.last().unwrap().1, asked);
        assert!(vectors.windows(2).all(|w| w[0].1 <= w[1].1));
        let generated: Vec<_> = seen.iter().filter(|s| s.0 == Phase::Generated).collect();
        assert!(generated.iter().all(|s| s.2 == Some(40)));
        assert_eq!(report.vector_results.len(), cases.len());
    }
}
