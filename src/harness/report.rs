//! The report of `punycheck check`: readable text, JSON, or JUnit XML for CI
//! systems. All three carry the same facts: what was declared and run, every
//! cause found (most severe first, each with a complete reproducer and
//! whether asking again confirmed it), what was skipped or classified and
//! why, and what did not run in the time given. No line is cut.

use std::fmt::Write as _;

use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use serde::Serialize;

use super::baseline::Judgement;
use super::campaign;
use super::causes::{Cause, Confirmation};
use super::classes::Class;
use super::runner::{self, Outcome as VectorOutcome};

/// The version of the JSON report's layout.
pub const VERSION: u32 = 2;

/// Everything `check` found about one implementation.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// The JSON layout's version ([`VERSION`]).
    pub version: u32,
    /// The implementation spec as given.
    pub implementation: String,
    /// The codec checked.
    pub codec: String,
    /// What the implementation declares (its own declaration with the
    /// user's laid over it), in words.
    pub declared: String,
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
    /// Not asked, with the reason and how many.
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
        summary.skipped = reasons
            .into_iter()
            .map(|(reason, count)| Skipped { reason, count })
            .collect();
        summary
    }
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

    /// The one-line command that reproduces a cause; it exits 1 while the
    /// cause is there.
    pub fn repro_command(&self, cause: &Cause) -> String {
        let property = if cause.property.is_some() {
            " --properties"
        } else {
            ""
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
        if self.conforming() {
            format!("CONFORMING{known}{incomplete}")
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
            let _ = writeln!(
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
            Confirmation::Unconfirmed => {
                let _ = writeln!(out, "     (not asked again: no time was left)");
            }
        }
        if cause.original != cause.input {
            let _ = writeln!(out, "     (minimized from {})", cause.original);
        }
        out
    }

    /// The JSON report (layout version [`VERSION`]): every field named;
    /// each cause carries its `reproduce` command.
    pub fn to_json(&self) -> String {
        let mut value = serde_json::to_value(self).expect("the report serializes");
        value["conforming"] = serde_json::Value::Bool(self.conforming());
        value["verdict"] = serde_json::Value::String(self.verdict());
        if let Some(causes) = value["campaign"]["causes"].as_array_mut() {
            for (json, cause) in causes.iter_mut().zip(&self.campaign.causes) {
                json["reproduce"] = serde_json::Value::String(self.repro_command(cause));
            }
        }
        serde_json::to_string_pretty(&value).expect("the report serializes")
    }

    /// The JUnit XML report: one suite, a test case per cause (named by
    /// its cause, so the names are the same from run to run), and one each
    /// for the vectors, the generated questions and the properties.
    pub fn to_junit(&self) -> String {
        let mut suite = TestSuite::new(format!("punycheck check {}", self.implementation));
        let failure = |message: &str, description: &str| {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status.set_message(message.to_string());
            status.set_type("nonconformance");
            status.set_description(description.to_string());
            status
        };
        let classname = "punycheck.check";
        let v = &self.vectors;
        let mut vectors = TestCase::new("vectors", TestCaseStatus::success());
        vectors.set_classname(classname);
        vectors.set_system_out(format!(
            "{} of {} run, {} passed, {} not asked, {} known deviations, {} failed (each failure is in a cause below)",
            v.run,
            v.cases,
            v.pass,
            v.skipped.iter().map(|s| s.count).sum::<usize>(),
            v.deviations,
            v.failed
        ));
        suite.add_test_case(vectors);
        let s = &self.campaign.stats;
        let mut generated = TestCase::new("generated questions", TestCaseStatus::success());
        generated.set_classname(classname);
        generated.set_system_out(format!(
            "{} questions, {} nonconforming; classified: {}",
            s.requests,
            s.nonconformances,
            campaign::class_summary(s)
        ));
        suite.add_test_case(generated);
        for (k, cause) in self.campaign.causes.iter().enumerate() {
            let description = format!(
                "{}\ninput: {}\nreproduce: {}\nseen {} times{}",
                cause.detail,
                cause.input,
                self.repro_command(cause),
                cause.count,
                if cause.vectors.is_empty() {
                    String::new()
                } else {
                    format!(" (vectors {})", cause.vectors.join(", "))
                }
            );
            let status = if self.known(k) {
                let mut status = TestCaseStatus::skipped();
                status.set_message("known: recorded in the baseline");
                status.set_description(description);
                status
            } else {
                failure(&cause.detail, &description)
            };
            let mut case = TestCase::new(format!("cause {}", cause.key), status);
            case.set_classname(classname);
            suite.add_test_case(case);
        }
        for entry in self.baseline.iter().flat_map(|b| &b.gone) {
            let name = format!(
                "baseline {}: {} (reference: {}; implementation: {})",
                entry.direction, entry.kind, entry.reference, entry.got
            );
            let message = "no longer reproduces: remove it from the baseline";
            let mut case = TestCase::new(name, failure(message, message));
            case.set_classname(classname);
            suite.add_test_case(case);
        }
        let mut report = quick_junit::Report::new("punycheck");
        report.add_test_suite(suite);
        report.to_string().expect("the JUnit report serializes")
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
