//! The report of `punycheck check`: readable text, JSON ([`json`], its
//! schema in `docs/report.schema.json`); the command line renders it as
//! JUnit XML for CI systems too. All three carry the same facts: what was declared and run, every
//! vector's result, every cause found (most severe first, each with a
//! complete reproducer and whether asking again confirmed it), what was
//! skipped or classified and why, and what did not run in the time given.
//! No line is cut.

use std::fmt::Write as _;
use std::time::SystemTime;

use serde::Serialize;

use super::baseline::Judgement;
use super::campaign;
use super::causes::{Cause, Confirmation, Kind};
use super::classes::Class;
use super::cost;
use super::runner::{self, Outcome as VectorOutcome};
use crate::engines::Capabilities;
use crate::vocabulary::{Expected, Request};

pub mod json;

pub use json::setup_error_json;

/// The version of the JSON report's layout (`docs/report.schema.json`).
pub const VERSION: u32 = 4;

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
}

/// What the cost probe of a check measured ([`super::cost`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CostReport {
    /// Its budget and largest size.
    pub bounds: cost::Bounds,
    /// Every family measured, in each direction.
    pub series: Vec<cost::Series>,
}

impl CostReport {
    /// One line per direction: how far every family went within the
    /// budget, the steepest growth, and what stopped a family early.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for direction in [cost::Direction::Encode, cost::Direction::Decode] {
            let series: Vec<&cost::Series> = self
                .series
                .iter()
                .filter(|s| s.direction == direction)
                .collect();
            if series.is_empty() {
                continue;
            }
            let mut parts = Vec::new();
            let within = series
                .iter()
                .map(|s| s.largest_within().unwrap_or(0))
                .min()
                .unwrap_or(0);
            parts.push(format!(
                "every family within the budget up to {within} {}",
                cost::unit(direction)
            ));
            if let Some((growth, family)) = series
                .iter()
                .filter_map(|s| s.growth().map(|g| (g, s.family)))
                .max_by(|a, b| a.0.total_cmp(&b.0))
            {
                parts.push(format!(
                    "steepest {} ({})",
                    cost::growth_words(growth),
                    family.name()
                ));
            }
            for s in &series {
                let why = match s.end {
                    cost::End::Max => continue,
                    cost::End::DeclaredLimit => "its declared limit".to_string(),
                    cost::End::Refused(n) => format!("refused at {n}"),
                    cost::End::OverBudget(n) => format!("over the budget at {n}: a slow cause"),
                    cost::End::OutOfTime => "out of time".to_string(),
                };
                parts.push(format!("{} stopped by {why}", s.family.name()));
            }
            lines.push(format!("{}: {}", direction.name(), parts.join("; ")));
        }
        lines
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

/// Reasons that differ only in their first number (`1001 code points
/// exceed its limit of 1000`, `1002 code points ...`: one per length) as
/// one reason with the range of that number (`1001 to 4000 code points
/// ...`), so that a report says each reason once.
fn summarized(reasons: std::collections::BTreeMap<String, usize>) -> Vec<Skipped> {
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
    let mut groups: std::collections::BTreeMap<String, Group> = Default::default();
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
        .map(|(shape, group)| Skipped {
            reason: match group.range {
                Some((lo, hi)) if lo != hi => shape.replacen("{}", &format!("{lo} to {hi}"), 1),
                _ => group.first,
            },
            count: group.count,
        })
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
    /// every recorded cause still there.
    pub fn conforming(&self) -> bool {
        self.new_causes() == 0 && self.baseline.as_ref().is_none_or(|b| b.gone.is_empty())
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
        let property = if cause.property.is_some() {
            " --properties".to_string()
        } else if cause.key.kind == Kind::Slow {
            let budget = self
                .cost
                .as_ref()
                .map_or(cost::DEFAULT_BUDGET, |c| c.bounds.budget);
            format!(" --slower-than {}", budget.as_secs_f64())
        } else {
            String::new()
        };
        format!(
            "{} {}{property}",
            self.repro_prefix,
            cause.request.repro_args()
        )
    }

    /// The verdict line.
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
        } else if self.conforming() {
            format!("CONFORMING{known}")
        } else if causes == 0 {
            format!(
                "NONCONFORMING: {gone} baseline cause{} no longer reproduce{}: remove {} from the baseline{incomplete}",
                plural(gone as u64),
                if gone == 1 { "s" } else { "" },
                if gone == 1 { "it" } else { "them" }
            )
        } else {
            format!(
                "NONCONFORMING: {causes} new cause{}{known}{incomplete}",
                plural(causes as u64)
            )
        }
    }

    /// The readable report.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let s = &self.campaign.stats;
        let _ = writeln!(out, "punycheck check {}", self.implementation);
        let _ = writeln!(out, "  declared: {}", self.declared);
        let _ = writeln!(
            out,
            "  seed {}, {:.1} s of {:.1} s",
            self.seed, self.seconds, self.budget_seconds
        );
        let v = &self.vectors;
        let _ = writeln!(
            out,
            "\nvectors: {} of {} run: {} passed, {} not asked, {} known deviations, {} failed",
            v.run,
            v.cases,
            v.pass,
            v.skipped.iter().map(|s| s.count).sum::<usize>(),
            v.deviations,
            v.failed
        );
        let _ = writeln!(
            out,
            "generated: {} questions, {} identical, {} nonconforming",
            s.requests, s.same, s.nonconformances
        );
        if s.property_checks > 0 {
            let _ = writeln!(
                out,
                "properties (round trip, uniqueness): {} checks, {} violations",
                s.property_checks, s.property_violations
            );
        }
        if let Some(cost) = &self.cost {
            let _ = writeln!(
                out,
                "cost (answers within {} s, inputs up to {}):",
                cost.bounds.budget.as_secs_f64(),
                cost.bounds.max
            );
            for line in cost.lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
        // The causes first: they are what a reader of a failed gate wants.
        if !self.campaign.causes.is_empty() {
            let _ = writeln!(
                out,
                "\ncauses ({}), most severe first:",
                self.campaign.causes.len()
            );
            for (k, cause) in self.campaign.causes.iter().enumerate() {
                out += &self.cause_text(k + 1, cause);
            }
        }
        if let Some(b) = &self.baseline {
            for entry in &b.still_there {
                let _ = writeln!(
                    out,
                    "  baseline cause not met by this run, its reproducer still shows it: {}: {} (reference: {}; implementation: {})",
                    entry.direction, entry.kind, entry.reference, entry.got
                );
            }
            for entry in &b.gone {
                let _ = writeln!(
                    out,
                    "  FIXED: baseline cause no longer reproduces (remove it from the baseline): {}: {} (reference: {}; implementation: {})",
                    entry.direction, entry.kind, entry.reference, entry.got
                );
            }
        }
        let mut classified = String::new();
        for class in Class::ALL {
            let skipped = s.skipped.get(class.id()).copied().unwrap_or(0);
            let diverged = s.divergences.get(class.id());
            if skipped == 0 && diverged.is_none() {
                continue;
            }
            let _ = write!(classified, "  {}: {}", class.id(), class.entry().title);
            if skipped > 0 {
                let _ = write!(classified, "; {skipped} not asked");
            }
            if let Some(d) = diverged {
                let _ = write!(
                    classified,
                    "; {} differing answers, e.g. {}",
                    d.count, d.example
                );
            }
            classified.push('\n');
        }
        for skipped in &v.skipped {
            let _ = writeln!(
                classified,
                "  vectors not asked ({}): {}",
                skipped.count, skipped.reason
            );
        }
        if !classified.is_empty() {
            let _ = write!(
                out,
                "\nnot asked or classified (not failures):\n{classified}"
            );
        }
        if !self.incomplete.is_empty() {
            let _ = writeln!(out, "\nincomplete:");
            for line in &self.incomplete {
                let _ = writeln!(out, "  {line}");
            }
        }
        if let Some(why) = &self.campaign.aborted {
            let _ = writeln!(out, "\nstopped asking: {why}");
        }
        let _ = writeln!(out, "\n{}", self.verdict());
        out
    }

    fn cause_text(&self, number: usize, cause: &Cause) -> String {
        let mut out = String::new();
        let known = if self.known(number - 1) {
            " [known: in the baseline]"
        } else {
            ""
        };
        let _ = writeln!(out, "  {number}. {}{known}", cause.key);
        let _ = writeln!(out, "     input: {} ({})", cause.input, cause.shape);
        let _ = writeln!(out, "     {}", cause.detail);
        let generated = cause.count - cause.vectors.len() as u64;
        let mut seen = format!("seen {} time{}", cause.count, plural(cause.count));
        if !cause.vectors.is_empty() {
            let _ = write!(seen, ": vectors {}", cause.vectors.join(", "));
            if generated > 0 {
                let _ = write!(seen, "; {generated} generated");
            }
        }
        let _ = writeln!(out, "     {seen}");
        // A check run from Rust code has no command that replays it: the
        // input above is the question to ask the function again.
        if !self.repro_prefix.is_empty() {
            let _ = writeln!(out, "     reproduce: {}", self.repro_command(cause));
        }
        match &cause.confirmation {
            Confirmation::Confirmed => {}
            Confirmation::Flaky { first, second } => {
                let _ = writeln!(
                    out,
                    "     FLAKY: asked again, it answered differently: first {first}, then {second}"
                );
            }
            Confirmation::Unconfirmed if self.interrupted => {
                let _ = writeln!(out, "     (not asked again: the check was interrupted)");
            }
            Confirmation::Unconfirmed => {
                let _ = writeln!(out, "     (not asked again: no time was left)");
            }
        }
        if cause.original != cause.input {
            let _ = writeln!(out, "     (minimized from {})", cause.original);
        }
        out
    }

    /// The JSON report (layout [`VERSION`], `docs/report.schema.json`).
    pub fn to_json(&self) -> String {
        json::report(self)
    }

    /// The one-line command that asks `request` again (for a failed
    /// vector).
    pub fn repro_of_request(&self, request: &Request) -> String {
        format!("{} {}", self.repro_prefix, request.repro_args())
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
