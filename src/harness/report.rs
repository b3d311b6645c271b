//! The report of `punycheck check`: readable text, JSON, or JUnit XML for CI
//! systems. All three carry the same facts: what was run, what failed (with
//! minimized reproducers), and what was skipped or classified, and why.

use std::fmt::Write as _;

use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use serde::Serialize;

use super::campaign::{self, Finding};
use super::classes::Class;
use super::runner::{self, Outcome as VectorOutcome};
use super::vectors::Case;

/// Everything `check` found about one implementation.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// The implementation spec as given.
    pub implementation: String,
    /// Whether the implementation was declared to do annotations.
    pub annotations: bool,
    /// The generator's seed.
    pub seed: u64,
    /// Seconds the whole check took.
    pub seconds: f64,
    /// Vector results.
    pub vectors: VectorSummary,
    /// The differential run and the properties.
    pub campaign: campaign::Outcome,
    /// The command that reproduces a finding, without its input arguments.
    pub repro_prefix: String,
}

/// Vector results in brief.
#[derive(Clone, Debug, Default, Serialize)]
pub struct VectorSummary {
    /// Cases run.
    pub cases: usize,
    /// Passed.
    pub pass: usize,
    /// Skipped, by reason.
    pub skipped: Vec<(String, usize)>,
    /// Known deviations.
    pub deviations: usize,
    /// Failed cases: name, detail, and the `punycheck repro` arguments
    /// that ask the same question.
    pub failures: Vec<(String, String, String)>,
}

impl VectorSummary {
    /// Summarizes one implementation's rows of a runner report over `cases`.
    pub fn from_report(report: &runner::Report, cases: &[Case]) -> Self {
        let mut summary = VectorSummary {
            cases: report.rows.len(),
            ..Default::default()
        };
        let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
        for row in &report.rows {
            match &row.outcome {
                VectorOutcome::Pass => summary.pass += 1,
                VectorOutcome::Skip(why) => *reasons.entry(why.clone()).or_default() += 1,
                VectorOutcome::KnownDeviation(_) => summary.deviations += 1,
                VectorOutcome::Fail(detail) => {
                    let repro = cases
                        .iter()
                        .find(|c| c.name == row.case)
                        .map_or_else(String::new, |c| runner::request_of(c).repro_args());
                    summary
                        .failures
                        .push((row.case.clone(), detail.clone(), repro));
                }
            }
        }
        summary.skipped = reasons.into_iter().collect();
        summary
    }
}

impl CheckReport {
    /// Conforming: no vector failure, no nonconformance, no property
    /// violation, not aborted.
    pub fn conforming(&self) -> bool {
        self.vectors.failures.is_empty() && self.campaign.conforming()
    }

    /// The one-line command that reproduces a finding.
    pub fn repro_command(&self, finding: &Finding) -> String {
        format!("{} {}", self.repro_prefix, finding.repro_args)
    }

    /// The readable report.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let s = &self.campaign.stats;
        let _ = writeln!(out, "punycheck check {}", self.implementation);
        let _ = writeln!(
            out,
            "  annotations {}, seed {}, {:.1} s",
            if self.annotations {
                "declared"
            } else {
                "not declared (--no-annotations)"
            },
            self.seed,
            self.seconds
        );
        let v = &self.vectors;
        let _ = writeln!(
            out,
            "\nvectors: {} cases, {} passed, {} skipped, {} known deviations, {} failed",
            v.cases,
            v.pass,
            v.skipped.iter().map(|(_, n)| n).sum::<usize>(),
            v.deviations,
            v.failures.len()
        );
        // The first few tell the story; JSON and JUnit carry them all.
        const SHOWN: usize = 8;
        for (case, detail, repro) in v.failures.iter().take(SHOWN) {
            let _ = writeln!(out, "  FAIL {case}: {}", truncate(detail, 160));
            let _ = writeln!(
                out,
                "     reproduce: {} {}",
                self.repro_prefix,
                truncate(repro, 160)
            );
        }
        if v.failures.len() > SHOWN {
            let _ = writeln!(
                out,
                "  ... and {} more failed vectors (--format json lists them all)",
                v.failures.len() - SHOWN
            );
        }
        let _ = writeln!(
            out,
            "\ndifferential against the reference: {} generated requests, {} identical, {} nonconforming",
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
            if let Some((n, example)) = diverged {
                let _ = write!(classified, "; {n} differing answers, e.g. {example}");
            }
            classified.push('\n');
        }
        for (reason, n) in &v.skipped {
            let _ = writeln!(classified, "  vectors skipped ({n}): {reason}");
        }
        if !classified.is_empty() {
            let _ = writeln!(
                out,
                "\nskipped and classified (not failures):\n{classified}"
            );
        }
        if let Some(why) = &self.campaign.aborted {
            let _ = writeln!(out, "\nSTOPPED: {why}");
        }
        if !self.campaign.findings.is_empty() {
            let _ = writeln!(out, "\nfindings (minimized):");
            for (k, f) in self.campaign.findings.iter().enumerate() {
                let _ = writeln!(out, "  {}. [{}] {}", k + 1, f.check, f.input);
                let _ = writeln!(out, "     {}", f.detail);
                let _ = writeln!(out, "     reproduce: {}", self.repro_command(f));
                if f.original != f.input {
                    let _ = writeln!(out, "     (minimized from {})", f.original);
                }
            }
        }
        let _ = writeln!(
            out,
            "\n{}",
            if self.conforming() {
                "CONFORMING"
            } else {
                "NONCONFORMING"
            }
        );
        out
    }

    /// The JSON report.
    pub fn to_json(&self) -> String {
        let mut value = serde_json::to_value(self).expect("the report serializes");
        value["conforming"] = serde_json::Value::Bool(self.conforming());
        let commands: Vec<String> = self
            .campaign
            .findings
            .iter()
            .map(|f| self.repro_command(f))
            .collect();
        value["repro_commands"] = serde_json::json!(commands);
        serde_json::to_string_pretty(&value).expect("the report serializes")
    }

    /// The JUnit XML report: one suite, a test case per vector failure, per
    /// finding, and one each for the vector run, the differential run and
    /// the properties, so that a clean run shows what passed.
    pub fn to_junit(&self) -> String {
        let mut suite = TestSuite::new(format!("punycheck check {}", self.implementation));
        let failure = |message: &str, description: &str| {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status.set_message(message.to_string());
            status.set_description(description.to_string());
            status
        };
        let v = &self.vectors;
        let mut vectors = TestCase::new("vectors", TestCaseStatus::success());
        vectors.set_system_out(format!(
            "{} cases, {} passed, {} skipped, {} known deviations",
            v.cases,
            v.pass,
            v.skipped.iter().map(|(_, n)| n).sum::<usize>(),
            v.deviations
        ));
        suite.add_test_case(vectors);
        for (case, detail, repro) in &v.failures {
            let description = format!("{detail}\nreproduce: {} {repro}", self.repro_prefix);
            suite.add_test_case(TestCase::new(
                format!("vector {case}"),
                failure(detail, &description),
            ));
        }
        let s = &self.campaign.stats;
        let summary = format!(
            "{} requests, {} nonconforming; classified: {}",
            s.requests,
            s.nonconformances,
            campaign::class_summary(s)
        );
        let status = match &self.campaign.aborted {
            Some(why) => failure(why, why),
            None => TestCaseStatus::success(),
        };
        let mut differential = TestCase::new("differential against the reference", status);
        differential.set_system_out(summary);
        suite.add_test_case(differential);
        for (k, f) in self.campaign.findings.iter().enumerate() {
            let description = format!(
                "{}\nreproduce: {}\nminimized from: {}",
                f.detail,
                self.repro_command(f),
                f.original
            );
            suite.add_test_case(TestCase::new(
                format!("finding {} [{}] {}", k + 1, f.check, f.input),
                failure(&f.detail, &description),
            ));
        }
        let mut report = quick_junit::Report::new("punycheck");
        report.add_test_suite(suite);
        report.to_string().expect("the JUnit report serializes")
    }
}

/// `text` cut to `max` characters, marked when cut.
fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((k, _)) => format!("{}...", &text[..k]),
        None => text.to_string(),
    }
}
