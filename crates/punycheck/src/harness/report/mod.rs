//! The report of `punycheck check`: readable text, JSON ([`json`], its
//! schema in `docs/report.schema.json`); the command line renders it as
//! JUnit XML for CI systems too. All three carry the same facts: what was declared and run, every
//! vector's result, every cause found (most severe first, each with a
//! complete reproducer and whether asking again confirmed it), what was
//! skipped or classified and why, and what did not run in the time given.
//! No line is cut.

use std::time::SystemTime;

use serde::Serialize;

use super::baseline::Judgement;
use super::campaign;
use super::causes::{Cause, Kind};
use super::cost;
use super::runner::{self, Outcome as VectorOutcome};
use crate::engines::Capabilities;
use crate::vocabulary::{Expected, Request};

pub mod json;
mod text;
mod timings;

pub use json::setup_error_json;
pub use timings::{PhaseTimes, Timing};

/// The version of the JSON report's layout (`docs/report.schema.json`).
pub const VERSION: u32 = 9;

/// One vector's result in a check.
#[derive(Clone, Debug)]
pub struct VectorResult {
    /// The vector's name, unique across the vector files.
    pub name: String,
    /// The file it comes from.
    pub file: String,
    /// Its question.
    pub request: Request,
    /// The answer it expects.
    pub expected: Expected,
    /// What happened.
    pub status: VectorStatus,
    /// Seconds it took: the time of the batch it ran in, shared among the
    /// batch's vectors (0 when it did not run).
    pub seconds: f64,
}

/// What happened to one vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VectorStatus {
    /// The implementation answered as expected.
    Pass,
    /// Not asked, with the reason (a declared divergence class).
    Skip(String),
    /// A known deviation of a built-in implementation, with its reason.
    KnownDeviation(String),
    /// A wrong answer, described; part of a cause.
    Fail(String),
    /// Not run: the time given ran out, or `--fail-fast` stopped the
    /// check first (the reason, in words).
    Unrun(&'static str),
}

/// Everything `check` found about one implementation.
#[derive(Clone, Debug)]
pub struct CheckReport {
    /// The JSON layout's version ([`VERSION`]).
    pub version: u32,
    /// When the check started.
    pub started: SystemTime,
    /// Every vector of the codec, in the order asked.
    pub vector_results: Vec<VectorResult>,
    /// The implementation spec as given.
    pub implementation: String,
    /// Its other entry points (`--entry-point`), each asked every
    /// question as well; empty for none.
    pub entry_points: Vec<String>,
    /// The codec checked.
    pub codec: String,
    /// What the implementation declares (its own declaration with the
    /// user's laid over it), in words.
    pub declared: String,
    /// The same declaration, as data.
    pub capabilities: Capabilities,
    /// The declaration's command-line options.
    pub declared_options: String,
    /// The generator's seed.
    pub seed: u64,
    /// Seconds the whole check took.
    pub seconds: f64,
    /// Seconds it was given.
    pub budget_seconds: f64,
    /// Vector results.
    pub vectors: VectorSummary,
    /// The small cases' results ([`crate::harness::small`]): every byte in
    /// each position class, every code point below 0x100.
    pub small_cases: VectorSummary,
    /// The generated questions and the properties, and every cause
    /// (failed vectors included).
    pub campaign: campaign::Outcome,
    /// The command that reproduces a cause, without its input arguments;
    /// empty when no command can (a check run from Rust code).
    pub repro_prefix: String,
    /// What did not run in the time given, in words (empty when all did).
    pub incomplete: Vec<String>,
    /// What the baseline (`--baseline`) says of the causes.
    pub baseline: Option<Judgement>,
    /// Whether the check was interrupted (Ctrl-C, SIGTERM): it stopped
    /// asking, and reports what it found until then, unminimized.
    pub interrupted: bool,
    /// What the cost probe measured; `None` without one (`--no-cost`, or
    /// the check was stopping before it).
    pub cost: Option<CostReport>,
    /// The folder where a question too long for a reproducer's line is
    /// written ([`CheckReport::long_inputs`]), the line naming the file;
    /// `None`: such a line keeps its question.
    pub long_inputs: Option<std::path::PathBuf>,
    /// How long the phases outside the generated questions took (theirs
    /// are [`campaign::Outcome::timings`]); all of them:
    /// [`CheckReport::timings`].
    pub phases: PhaseTimes,
    /// What the sweep of every code point asked, for a check that swept
    /// (`check --sweep`, [`super::sweep`]) instead of asking vectors and
    /// generated questions; `None` for every other check.
    pub sweep: Option<super::swept::Summary>,
}

/// The longest `reproduce:` command: one whose question would make it
/// longer reads the question from a file (`--encode-file`,
/// `--decode-file`).
pub const LONGEST_LINE: usize = 1000;

/// What a reproducer may add after its question (`--properties`).
const AFTER_QUESTION: usize = 16;

/// What the cost probe of a check measured ([`super::cost`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CostReport {
    /// Its budget and largest size.
    pub bounds: cost::Bounds,
    /// Every family measured, in each direction.
    pub series: Vec<cost::Series>,
}

impl CostReport {
    /// How many times slower than the reference machine this one ran
    /// while the probe timed its answers (the median of its sizes'
    /// factors, [`super::calibration`]); `None` with nothing measured.
    pub fn machine_factor(&self) -> Option<f64> {
        cost::median_factor(self.series.iter().flat_map(|s| &s.points))
    }
}

/// How a check ended, by one rule for the exit status, the verdict line,
/// the JSON `status` and the JUnit test cases: a CI system reads the same
/// verdict in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// No cause found that the baseline does not record, every recorded
    /// cause still there, and everything ran (exit status 0).
    Conforming,
    /// A new cause, or a recorded one gone (exit status 1).
    Nonconforming,
    /// Nothing found in what ran, but not everything ran within
    /// `--seconds` (exit status 3).
    Incomplete,
    /// Interrupted by Ctrl-C or SIGTERM: what ran until then is reported
    /// (exit status 130).
    Interrupted,
}

/// The exit status after Ctrl-C or SIGTERM, as a shell gives a command
/// that SIGINT ended.
pub const INTERRUPTED: u8 = 130;

impl Status {
    /// `Conforming` when `ok`, else `Nonconforming` (for a command that is
    /// done, or whose input line failed).
    pub fn of(ok: bool) -> Self {
        if ok {
            Status::Conforming
        } else {
            Status::Nonconforming
        }
    }

    /// The process exit status.
    pub fn code(self) -> u8 {
        match self {
            Status::Conforming => 0,
            Status::Nonconforming => 1,
            Status::Incomplete => 3,
            Status::Interrupted => INTERRUPTED,
        }
    }

    /// The word for it, as the JSON report's `status` gives it.
    pub fn word(self) -> &'static str {
        match self {
            Status::Conforming => "conforming",
            Status::Nonconforming => "nonconforming",
            Status::Incomplete => "incomplete",
            Status::Interrupted => "interrupted",
        }
    }
}

/// Vector results in brief.
#[derive(Clone, Debug, Default, Serialize)]
pub struct VectorSummary {
    /// Vectors of the codec.
    pub cases: usize,
    /// Vectors that ran.
    pub run: usize,
    /// Passed.
    pub pass: usize,
    /// Not asked, with the reason and how many (reasons that differ only
    /// in a size given once, with its range).
    pub skipped: Vec<Skipped>,
    /// Known deviations (built-in implementations only).
    pub deviations: usize,
    /// Failed (each is part of a cause).
    pub failed: usize,
    /// Not run in the time given.
    pub unrun: usize,
    /// Whether those not run were left out as a sample (the small cases of
    /// a check bounded by `--seconds` alone), not for want of time.
    pub sampled: bool,
}

/// A reason vectors were not asked, and how many.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    /// Why.
    pub reason: String,
    /// How many vectors.
    pub count: usize,
}

impl VectorSummary {
    /// Summarizes one implementation's rows of a runner report over `cases`
    /// vectors.
    pub fn from_report(report: &runner::Report, cases: usize) -> Self {
        let mut summary = VectorSummary {
            cases,
            run: report.rows.len(),
            unrun: report.unrun,
            ..Default::default()
        };
        let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
        for row in &report.rows {
            match &row.outcome {
                VectorOutcome::Pass => summary.pass += 1,
                VectorOutcome::Skip(why) => *reasons.entry(why.clone()).or_default() += 1,
                VectorOutcome::KnownDeviation(_) => summary.deviations += 1,
                VectorOutcome::Fail(_) => summary.failed += 1,
            }
        }
        summary.skipped = summarized(reasons);
        summary
    }
}

/// The skip reasons summarized ([`super::runner::summarized`]).
fn summarized(reasons: std::collections::BTreeMap<String, usize>) -> Vec<Skipped> {
    super::runner::summarized(reasons)
        .into_iter()
        .map(|(reason, count)| Skipped { reason, count })
        .collect()
}

impl CheckReport {
    /// Whether cause `k` is recorded in the baseline.
    pub fn known(&self, k: usize) -> bool {
        self.baseline.as_ref().is_some_and(|b| b.known.contains(&k))
    }

    /// The causes not recorded in the baseline.
    pub fn new_causes(&self) -> usize {
        (0..self.campaign.causes.len())
            .filter(|&k| !self.known(k))
            .count()
    }

    /// Conforming: no cause found that the baseline does not record, and
    /// every recorded cause still there, shown by all its recorded
    /// witnesses that were asked.
    pub fn conforming(&self) -> bool {
        self.new_causes() == 0
            && self
                .baseline
                .as_ref()
                .is_none_or(|b| b.gone.is_empty() && b.narrowed.is_empty())
    }

    /// How many of the baseline's causes are still there: met by this run,
    /// or not met but shown again by their reproducers.
    fn recorded_still_there(&self) -> usize {
        let met = self.campaign.causes.len() - self.new_causes();
        met + self.baseline.as_ref().map_or(0, |b| b.still_there.len())
    }

    /// How the check ended: interrupted, else nonconforming, else
    /// incomplete, else conforming.
    pub fn status(&self) -> Status {
        if self.interrupted {
            Status::Interrupted
        } else if !self.conforming() {
            Status::Nonconforming
        } else if !self.incomplete.is_empty() {
            Status::Incomplete
        } else {
            Status::Conforming
        }
    }

    /// The one-line command that reproduces a cause; it exits 1 while the
    /// cause is there.
    pub fn repro_command(&self, cause: &Cause) -> String {
        self.repro_of_rule(cause, &cause.request)
    }

    /// The one-line command that asks `request`, one of `cause`'s
    /// questions (its reproducer, or the shortest of one of its rules,
    /// [`Cause::by_rule`]), as [`Self::repro_command`] asks the
    /// reproducer: the entry point or the properties it needs beside it.
    pub fn repro_of_rule(&self, cause: &Cause, request: &Request) -> String {
        if cause.key.kind == Kind::Slow {
            return self.slow_repro(cause.key.direction, &cause.input);
        }
        // Entry points that disagree: the one that answered otherwise is
        // asked beside it, and repro exits 1 while they disagree.
        let property = match (&cause.entry_point, cause.property) {
            (Some(spec), _) => format!(" --entry-point {}", shell_words::quote(spec)),
            (None, Some(_)) => " --properties".into(),
            (None, None) => String::new(),
        };
        format!(
            "{} {}{property}",
            self.repro_prefix,
            self.question_args(request)
        )
    }

    /// The command that judges a slow cause again: its family at its size
    /// (`distinct-ascending:512`), by the probe's rule.
    fn slow_repro(&self, direction: &str, input: &str) -> String {
        let bounds = self
            .cost
            .as_ref()
            .map_or_else(cost::Bounds::default, |c| c.bounds);
        let question = match direction {
            "encode" => format!("--encode '{input}' --no-flags"),
            _ => format!("--decode-of '{input}'"),
        };
        format!(
            "{} {question} --slower-than {} --cost-max {}",
            self.repro_prefix,
            bounds.budget.as_secs_f64(),
            bounds.max
        )
    }

    /// The command that shows a baseline's recorded cause again, built from
    /// its recorded reproducer as [`Self::repro_command`] builds a found
    /// cause's (exit status 1 while it is there); `None` for an entry that
    /// records no reproducer. An `entry-points` cause's line asks the
    /// question of the implementation alone, as the baseline records no
    /// entry point.
    pub fn repro_of_entry(&self, entry: &crate::harness::baseline::Entry) -> Option<String> {
        if entry.kind == Kind::Slow {
            let input = entry.encode.as_ref().or(entry.decode_of.as_ref())?;
            return Some(self.slow_repro(&entry.direction, input));
        }
        let request = entry.request().ok()?;
        let property = if entry.property { " --properties" } else { "" };
        Some(format!(
            "{} {}{property}",
            self.repro_prefix,
            self.question_args(&request)
        ))
    }

    /// The verdict line: `CONFORMING` only when no cause was found at all;
    /// `PASSES ON ITS BASELINE` when every cause found is a known one.
    pub fn verdict(&self) -> String {
        let causes = self.new_causes();
        let gone = self.baseline.as_ref().map_or(0, |b| b.gone.len());
        let incomplete = if self.incomplete.is_empty() {
            String::new()
        } else {
            " (incomplete: see above)".to_string()
        };
        let known = self.campaign.causes.len() - causes;
        let known = if known > 0 {
            format!(
                " ({known} known cause{} in the baseline)",
                plural(known as u64)
            )
        } else {
            String::new()
        };
        if self.interrupted {
            let found = if causes > 0 {
                format!("{causes} new cause{} found so far", plural(causes as u64))
            } else {
                "nothing found in what ran".to_string()
            };
            format!(
                "INTERRUPTED after {:.1} s: {found}{known} (a partial report: not everything ran)",
                self.seconds
            )
        } else if self.conforming() && !self.incomplete.is_empty() {
            format!(
                "INCOMPLETE: nothing found in what ran{known}, but not everything ran (see above)"
            )
        } else if self.conforming() && self.recorded_still_there() > 0 {
            // Not "CONFORMING": what the baseline records is still wrong,
            // met by this run or shown again by its reproducer.
            let recorded = self.recorded_still_there();
            format!(
                "PASSES ON ITS BASELINE: {recorded} known cause{} (recorded in the baseline, still \
                 there) and nothing new; without the baseline it does not conform",
                plural(recorded as u64)
            )
        } else if self.conforming() {
            "CONFORMING".to_string()
        } else if causes == 0 && gone > 0 {
            format!(
                "NONCONFORMING: {gone} baseline cause{} no longer reproduce{}: remove {} from the baseline{incomplete}",
                plural(gone as u64),
                if gone == 1 { "s" } else { "" },
                if gone == 1 { "it" } else { "them" }
            )
        } else if causes == 0 {
            let narrowed = self.baseline.as_ref().map_or(0, |b| b.narrowed.len());
            format!(
                "NONCONFORMING: {narrowed} baseline cause{} narrowed (recorded witnesses now pass): record the baseline again{incomplete}",
                plural(narrowed as u64)
            )
        } else {
            format!(
                "NONCONFORMING: {causes} new cause{}{known}{incomplete}",
                plural(causes as u64)
            )
        }
    }

    /// The JSON report (layout [`VERSION`], `docs/report.schema.json`).
    pub fn to_json(&self) -> String {
        json::report(self)
    }

    /// The one-line command that asks `request` again (for a failed
    /// vector).
    pub fn repro_of_request(&self, request: &Request) -> String {
        format!("{} {}", self.repro_prefix, self.question_args(request))
    }

    /// Whether the command asking `args` would be longer than
    /// [`LONGEST_LINE`].
    fn too_long(&self, args: &str) -> bool {
        self.repro_prefix.len() + 1 + args.len() + AFTER_QUESTION > LONGEST_LINE
    }

    /// The arguments that ask `request`: itself, or where the line would
    /// be longer than [`LONGEST_LINE`] and a folder is set, the file it is
    /// written to ([`CheckReport::long_inputs`]).
    fn question_args(&self, request: &Request) -> String {
        let args = request.repro_args();
        match self.long_input_file(request) {
            Some((path, _)) if self.too_long(&args) => {
                let path = shell_words::quote(&path.to_string_lossy()).into_owned();
                match request {
                    Request::Encode { flags: Some(_), .. } => format!("--encode-file {path}"),
                    Request::Encode { flags: None, .. } => {
                        format!("--encode-file {path} --no-flags")
                    }
                    Request::Decode(_) => format!("--decode-file {path}"),
                }
            }
            _ => args,
        }
    }

    /// Where `request` is written when its line would be too long, with
    /// what the file holds: an encoding's `u+XXXX` tokens, or the bytes to
    /// decode as they are. Named by a hash of its content, so that the same
    /// question is one file.
    fn long_input_file(&self, request: &Request) -> Option<(std::path::PathBuf, Vec<u8>)> {
        let folder = self.long_inputs.as_ref()?;
        let content = match request {
            Request::Encode { code_points, flags } => {
                crate::vocabulary::CodePoints::with_flags(code_points, flags.as_deref())
                    .compact()
                    .into_bytes()
            }
            Request::Decode(bytes) => bytes.clone(),
        };
        // FNV-1a: stable across runs and builds, unlike the std hasher.
        let hash = content.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let name = format!(
            "punycheck-{}-{hash:016x}.txt",
            super::causes::direction(request)
        );
        Some((folder.join(name), content))
    }

    /// The files of the questions too long for a line, to write beside the
    /// report: every cause's and every failed vector's.
    pub fn long_inputs(&self) -> Vec<(std::path::PathBuf, Vec<u8>)> {
        let causes = self
            .campaign
            .causes
            .iter()
            .filter(|c| c.key.kind != Kind::Slow);
        let requests = causes.map(|c| &c.request).chain(
            self.vector_results
                .iter()
                .filter(|r| !matches!(r.status, VectorStatus::Pass))
                .map(|r| &r.request),
        );
        let mut files: Vec<(std::path::PathBuf, Vec<u8>)> = requests
            .filter(|r| self.too_long(&r.repro_args()))
            .filter_map(|r| self.long_input_file(r))
            .collect();
        files.sort();
        files.dedup();
        files
    }

    /// The index of the cause a failed vector belongs to.
    pub fn cause_of_vector(&self, name: &str) -> Option<usize> {
        self.campaign
            .causes
            .iter()
            .position(|c| c.vectors.iter().any(|v| v == name))
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_that_differ_in_a_size_are_said_once_with_its_range() {
        let reasons = [
            ("1001 code points exceed its limit of 1000", 2),
            ("4000 code points exceed its limit of 1000", 1),
            ("2048 bytes exceed its limit of 2000", 1),
            ("input is not printable ASCII", 3),
        ]
        .into_iter()
        .map(|(r, n)| (r.to_string(), n))
        .collect();
        let said: std::collections::BTreeSet<(String, usize)> = summarized(reasons)
            .into_iter()
            .map(|s| (s.reason, s.count))
            .collect();
        assert_eq!(
            said,
            std::collections::BTreeSet::from([
                ("2048 bytes exceed its limit of 2000".to_string(), 1),
                (
                    "1001 to 4000 code points exceed its limit of 1000".to_string(),
                    3
                ),
                ("input is not printable ASCII".to_string(), 3),
            ])
        );
    }
}
