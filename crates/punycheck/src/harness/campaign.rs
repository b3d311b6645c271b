//! A campaign: implementations asked the same generated questions as the
//! reference for a number of requests or seconds, every answer judged, the
//! round-trip and uniqueness properties checked (for `check`), and every
//! nonconformance grouped into causes ([`super::causes`]), each minimized
//! into a one-line reproducer and confirmed by asking again.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::causes::{self, Cause, Collector};
use super::classes::Class;
use super::compare::{Request, Verdict, judge_answer, reference_for};
use super::generate::Generator;
use super::parallel;
use super::properties;
use super::unicode_classes::{ClassesAsked, Coverage};
use super::vectors::Expected;
use crate::codec::Codec;
use crate::engines::{Engine, EngineError, process};

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
    /// Causes minimized per implementation (the others are reported with
    /// the shortest request that showed them).
    pub max_findings: usize,
    /// Stop generating as soon as one cause has been seen.
    pub fail_fast: bool,
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
    /// Explained differences, by divergence class.
    pub divergences: BTreeMap<String, ClassCount>,
    /// Requests whose answer did not come before the run's time ran out.
    pub unfinished: u64,
    /// Unexplained differences (each a nonconformance).
    pub nonconformances: u64,
    /// Property checks run.
    pub property_checks: u64,
    /// Property violations.
    pub property_violations: u64,
    /// For the label and domain codecs, how many of the Unicode classes
    /// of [`super::unicode_classes::table`] the questions asked both ways.
    #[serde(skip)]
    pub unicode_classes: Option<ClassesAsked>,
}

/// How often one divergence class explained a difference, with an example.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ClassCount {
    /// How many answers.
    pub count: u64,
    /// The shortest one (the first of the shortest), described.
    pub example: String,
    /// The length of the example's request.
    #[serde(skip)]
    pub example_len: usize,
}

/// What a campaign found for one implementation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Outcome {
    /// The implementation's name.
    pub implementation: String,
    /// Counts.
    pub stats: Stats,
    /// The causes found, most severe first.
    pub causes: Vec<Cause>,
    /// Set when the run stopped asking early (the program kept hanging).
    pub aborted: Option<String>,
    /// Where its time went.
    #[serde(skip)]
    pub timings: Timings,
}

/// Where a campaign's time went, for one implementation. The parts of
/// asking (`generating` to `properties`) are summed over the threads that
/// asked: with several workers they may add up to more than `asking`, the
/// wall time they took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    /// Wall time from the first question generated to the last answer
    /// judged.
    pub asking: Duration,
    /// Generating the questions (shared by every implementation of a
    /// campaign: each is given the whole).
    pub generating: Duration,
    /// The reference's answers.
    pub reference: Duration,
    /// The implementation's answers, judged against the reference's: its
    /// own time, and its channel's (a process's pipe, a worker's mapping).
    pub implementation: Duration,
    /// The round-trip, uniqueness, spelling and entry-point properties,
    /// with the questions they ask.
    pub properties: Duration,
    /// Grouping, minimizing and confirming the causes.
    pub causes: Duration,
}

/// Nanoseconds added up across threads, for [`Timings`].
#[derive(Default)]
struct Clock {
    reference: AtomicU64,
    implementation: AtomicU64,
    properties: AtomicU64,
}

impl Clock {
    /// Adds the time since `since` to `counter`, and returns now.
    fn lap(counter: &AtomicU64, since: Instant) -> Instant {
        let now = Instant::now();
        let nanos = u64::try_from((now - since).as_nanos()).unwrap_or(u64::MAX);
        counter.fetch_add(nanos, Ordering::Relaxed);
        now
    }

    fn read(counter: &AtomicU64) -> Duration {
        Duration::from_nanos(counter.load(Ordering::Relaxed))
    }
}

impl Outcome {
    /// Whether nothing unexplained was found.
    pub fn conforming(&self) -> bool {
        self.stats.nonconformances == 0
            && self.stats.property_violations == 0
            && self.causes.is_empty()
    }
}

/// Requests generated and judged together; fixed, so that a run with the
/// same seed and number of cases asks the same questions however many
/// workers answer them.
const BATCH: usize = 16;

/// What one engine did with one request, worked out on a worker thread.
struct Judged {
    verdict: Verdict,
    reference: Option<Expected>,
    answer: Option<Result<Expected, EngineError>>,
    violation: Option<properties::Violation>,
    /// Where another entry point answered otherwise, whatever the
    /// verdict.
    entry_point: Option<properties::Violation>,
}

fn judge_one(
    engine: &dyn Engine,
    request: &Request,
    properties_too: bool,
    uniqueness: bool,
    clock: &Clock,
) -> Option<Judged> {
    let started = Instant::now();
    let want = reference_for(engine.codec(), request);
    let asked = Clock::lap(&clock.reference, started);
    let want = want?;
    let (verdict, answer) = judge_answer(engine, request, &want, true);
    let judged = Clock::lap(&clock.implementation, asked);
    let violation = match (&verdict, &answer) {
        (Verdict::Same | Verdict::Divergence { .. }, Some(answer)) if properties_too => {
            properties::check_all(engine, request, answer, uniqueness)
        }
        _ => None,
    };
    let entry_point = match &answer {
        Some(answer) if properties_too && verdict != Verdict::Unfinished => {
            properties::check_entry_points_in_run(engine, request, answer)
        }
        _ => None,
    };
    Clock::lap(&clock.properties, judged);
    Some(Judged {
        verdict,
        reference: Some(want),
        answer,
        violation,
        entry_point,
    })
}

/// Runs a campaign over `engines`. `progress` is called after each batch
/// with the number of requests generated so far.
pub fn run(
    engines: &[&dyn Engine],
    settings: Settings,
    progress: &mut dyn FnMut(u64),
) -> Vec<Outcome> {
    run_with(
        engines,
        settings,
        vec![Collector::default(); engines.len()],
        progress,
    )
}

/// [`run`], adding to causes already collected for each engine (the
/// failed vectors of `check`), so that one cause seen by a vector and by
/// generated questions is reported once.
pub fn run_with(
    engines: &[&dyn Engine],
    settings: Settings,
    mut collectors: Vec<Collector>,
    progress: &mut dyn FnMut(u64),
) -> Vec<Outcome> {
    collectors.resize_with(engines.len(), Collector::default);
    let start = Instant::now();
    let hard_deadline = settings.time.map(|t| start + t);
    // Leave a fifth of the time for minimizing and confirming what is found.
    let generate_until = settings.time.map(|t| start + t.mul_f64(0.8));
    for engine in engines {
        engine.set_deadline(hard_deadline);
    }
    let mut outcomes: Vec<Outcome> = engines
        .iter()
        .map(|e| Outcome {
            implementation: e.name().to_string(),
            ..Default::default()
        })
        .collect();
    let mut hangs = vec![0u32; engines.len()];
    let codec = engines.first().map_or(Codec::Punycode, |e| e.codec());
    let mut generator = Generator::for_codec(codec, settings.seed);
    if engines
        .first()
        .is_some_and(|e| e.capabilities().verdict_only)
    {
        generator = generator.names_only();
    }
    // The Unicode classes the questions ask, for the label and domain codecs.
    let mut coverage: Vec<Option<Coverage>> = engines
        .iter()
        .map(|_| codec.label_profile().map(|_| Coverage::default()))
        .collect();
    let mut done = 0u64;
    let clocks: Vec<Clock> = engines.iter().map(|_| Clock::default()).collect();
    let mut generating = Duration::ZERO;
    loop {
        let stop = process::interrupted()
            || settings.cases.is_some_and(|n| done >= n)
            || generate_until.is_some_and(|t| Instant::now() >= t)
            || outcomes.iter().all(|o| o.aborted.is_some())
            || (settings.fail_fast && collectors.iter().any(|c| !c.is_empty()));
        if stop {
            break;
        }
        let size = settings
            .cases
            .map_or(BATCH as u64, |n| (n - done).min(BATCH as u64));
        let generated = Instant::now();
        let batch: Vec<(u64, Request)> = (0..size)
            .map(|k| (done + k, generator.next_request()))
            .collect();
        generating += generated.elapsed();
        done += size;
        for (k, engine) in engines.iter().enumerate() {
            if outcomes[k].aborted.is_some() {
                continue;
            }
            // Uniqueness costs several calls: check it on every fourth request.
            // Past the time, requests still waiting for a worker are dropped.
            let clock = &clocks[k];
            let judged = parallel::map(engine.workers(), &batch, |(index, request)| {
                if generate_until.is_some_and(|end| Instant::now() >= end) {
                    return None;
                }
                judge_one(*engine, request, settings.properties, index % 4 == 0, clock)
            });
            for ((_, request), judged) in batch.iter().zip(judged) {
                let Some(judged) = judged else { continue };
                if let (Some(coverage), Some(reference)) = (&mut coverage[k], &judged.reference)
                    && !matches!(judged.verdict, Verdict::Unfinished | Verdict::Skip { .. })
                {
                    coverage.observe(request, reference);
                }
                record(
                    &mut outcomes[k],
                    &mut collectors[k],
                    &mut hangs[k],
                    *engine,
                    request,
                    judged,
                    // A validator's answers have no text to hold to a
                    // property (`--answers verdict`).
                    settings.properties && !engine.capabilities().verdict_only,
                );
            }
        }
        progress(done);
    }
    let asking = start.elapsed();
    let accepting = generator.accepting().unwrap_or_default();
    for (outcome, coverage) in outcomes.iter_mut().zip(&coverage) {
        outcome.stats.unicode_classes = coverage.as_ref().map(|c| c.asked(&accepting));
    }
    for (outcome, clock) in outcomes.iter_mut().zip(&clocks) {
        outcome.timings = Timings {
            asking,
            generating,
            reference: Clock::read(&clock.reference),
            implementation: Clock::read(&clock.implementation),
            properties: Clock::read(&clock.properties),
            causes: Duration::ZERO,
        };
    }
    let end = hard_deadline.unwrap_or_else(|| Instant::now() + Duration::from_secs(60));
    // A run bounded by a question count is meant to be the same for the
    // same seed on any machine: its minimizations are bounded by their
    // attempts (and the whole budget) only, never by a per-cause time cap
    // that a loaded machine reaches at another point.
    let cap = if settings.cases.is_some() {
        Duration::MAX
    } else {
        Duration::from_secs(10)
    };
    for (k, (engine, collector)) in engines.iter().zip(collectors).enumerate() {
        let left = engines.len() - k;
        let now = Instant::now();
        let share = now + end.saturating_duration_since(now) / u32::try_from(left).unwrap_or(1);
        outcomes[k].causes = collector.resolve(*engine, share, cap, 2_000, settings.max_findings);
        outcomes[k].timings.causes = now.elapsed();
        engine.set_deadline(None);
    }
    outcomes
}

/// Counts one judged request, and records it with its cause when it is a
/// nonconformance or breaks a property.
fn record(
    outcome: &mut Outcome,
    collector: &mut Collector,
    hangs: &mut u32,
    engine: &dyn Engine,
    request: &Request,
    judged: Judged,
    properties_checked: bool,
) {
    // An answer cut by the run's deadline is no answer: not counted.
    if judged.verdict == Verdict::Unfinished {
        outcome.stats.unfinished += 1;
        return;
    }
    outcome.stats.requests += 1;
    // Entry points that disagree are a cause whatever the reference says
    // of either answer.
    if let Some(v) = &judged.entry_point {
        outcome.stats.property_violations += 1;
        collector.observe_violation(engine.codec(), request, v, None);
    }
    *hangs = match &judged.answer {
        Some(Err(EngineError::Hung(_))) => *hangs + 1,
        _ => 0,
    };
    if *hangs >= 3 && outcome.aborted.is_none() {
        outcome.aborted = Some(format!(
            "{} gave no answer three times in a row (last on {}); stopped asking it",
            engine.name(),
            request
        ));
    }
    if properties_checked
        && judged.answer.is_some()
        && !matches!(judged.verdict, Verdict::Nonconformance(_))
    {
        outcome.stats.property_checks += 1;
    }
    match judged.verdict {
        Verdict::Unfinished => return,
        Verdict::Same => outcome.stats.same += 1,
        Verdict::Skip { class, .. } => {
            *outcome
                .stats
                .skipped
                .entry(class.id().to_string())
                .or_default() += 1;
        }
        Verdict::Divergence { class, detail } => {
            let len = causes::request_len(request);
            let entry = outcome
                .stats
                .divergences
                .entry(class.id().to_string())
                .or_insert_with(|| ClassCount {
                    count: 0,
                    example: format!("{request}: {detail}"),
                    example_len: len,
                });
            if len < entry.example_len {
                entry.example = format!("{request}: {detail}");
                entry.example_len = len;
            }
            entry.count += 1;
        }
        Verdict::Nonconformance(detail) => {
            outcome.stats.nonconformances += 1;
            if let (Some(reference), Some(answer)) = (&judged.reference, &judged.answer) {
                let key = causes::key_of(
                    &engine.capabilities(),
                    engine.codec(),
                    request,
                    reference,
                    answer,
                );
                collector.observe_answer(key, request, answer, &detail, None);
            }
            return;
        }
    }
    if let Some(v) = judged.violation {
        outcome.stats.property_violations += 1;
        // A round trip broken by a wrong answer to its second question is
        // that answer's cause (an encoder that takes U+007F for non-basic
        // breaks the round trip of every string that holds it).
        if let Some(step) = &v.step
            && let Some(reference) = super::compare::reference_for(engine.codec(), step)
        {
            let answer = super::compare::ask(engine, step);
            let caps = engine.capabilities();
            if let Verdict::Nonconformance(detail) =
                super::compare::evaluate(&caps, engine.codec(), step, &reference, &answer, true)
            {
                let key = causes::key_of(&caps, engine.codec(), step, &reference, &answer);
                collector.observe_answer(key, step, &answer, &detail, None);
                return;
            }
        }
        collector.observe_violation(engine.codec(), request, &v, None);
    }
}

/// The divergence class names with their counts, for a one-line summary.
pub fn class_summary(stats: &Stats) -> String {
    let mut parts: Vec<String> = Vec::new();
    for class in Class::ALL {
        let skipped = stats.skipped.get(class.id()).copied().unwrap_or(0);
        let diverged = stats.divergences.get(class.id()).map_or(0, |d| d.count);
        if skipped + diverged > 0 {
            parts.push(format!("{} {}", class.id(), skipped + diverged));
        }
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::CleanRoom;

    /// The example printed for a class is the shortest request it
    /// explained, not the first: a reader can replay it by hand.
    #[test]
    fn a_class_keeps_its_shortest_example() {
        let mut outcome = Outcome::default();
        let mut collector = Collector::default();
        let mut hangs = 0;
        for text in ["a-aaaaaaaaaaaaa", "a-aa", "a-aaaaaa", "b-bb"] {
            let judged = Judged {
                verdict: Verdict::Divergence {
                    class: Class::Domain,
                    detail: "refused".into(),
                },
                reference: None,
                answer: None,
                violation: None,
                entry_point: None,
            };
            let request = Request::Decode(text.as_bytes().to_vec());
            record(
                &mut outcome,
                &mut collector,
                &mut hangs,
                &CleanRoom,
                &request,
                judged,
                false,
            );
        }
        let domain = &outcome.stats.divergences["domain"];
        assert_eq!(domain.count, 4);
        assert_eq!(domain.example, "decode \"a-aa\": refused");
    }
}
