//! Where a check's time went: each phase's wall time, and the parts of
//! asking the generated questions, for `check --timings` and the JSON
//! report's `timings`. A reader sees whether the implementation, its
//! channel, the reference or the harness bounds how many questions a
//! second a check asks.

use std::time::Duration;

use super::CheckReport;

/// How long the phases of a check outside its generated questions took
/// (wall time); the generated questions' own are the campaign's
/// ([`crate::harness::campaign::Timings`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseTimes {
    /// The probe's questions, the vectors and the small cases, and their
    /// entry points.
    pub vectors: Duration,
    /// The cost probe.
    pub cost: Duration,
    /// The baseline's causes judged: those not met asked again.
    pub baseline: Duration,
}

/// One phase of a check and the time it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// The phase's name: `vectors`, `cost`, `generated` (its parts
    /// `generating`, `reference`, `implementation` and `properties`),
    /// `causes` or `baseline`.
    pub phase: &'static str,
    /// The phase it is a part of (`generated`), `None` for a phase of the
    /// check.
    pub part_of: Option<&'static str>,
    /// Its seconds: wall time for a phase, summed over the threads that
    /// asked for a part.
    pub seconds: f64,
}

impl CheckReport {
    /// Every phase's time, in the order they run; a part follows the
    /// phase it belongs to.
    pub fn timings(&self) -> Vec<Timing> {
        let asked = &self.campaign.timings;
        let phase = |phase, time: Duration| Timing {
            phase,
            part_of: None,
            seconds: time.as_secs_f64(),
        };
        let part = |phase, time: Duration| Timing {
            phase,
            part_of: Some("generated"),
            seconds: time.as_secs_f64(),
        };
        vec![
            phase("vectors", self.phases.vectors),
            phase("cost", self.phases.cost),
            phase("generated", asked.asking),
            part("generating", asked.generating),
            part("reference", asked.reference),
            part("implementation", asked.implementation),
            part("properties", asked.properties),
            phase("causes", asked.causes),
            phase("baseline", self.phases.baseline),
        ]
    }

    /// [`CheckReport::timings`] in a line, with the generated questions
    /// asked a second:
    /// `timings: vectors 0.41 s, cost 0.00 s, generated 1.93 s (...), ...`.
    pub fn timings_text(&self) -> String {
        let mut phases: Vec<String> = Vec::new();
        let mut parts: Vec<String> = Vec::new();
        for timing in self.timings() {
            let said = format!("{} {:.2} s", timing.phase, timing.seconds);
            match timing.part_of {
                Some(_) => parts.push(said),
                None => {
                    if !parts.is_empty()
                        && let Some(last) = phases.last_mut()
                    {
                        last.push_str(&format!(" ({})", parts.join(", ")));
                        parts.clear();
                    }
                    phases.push(said);
                }
            }
        }
        let asking = self.campaign.timings.asking.as_secs_f64();
        let questions = self.campaign.stats.requests;
        let rate = if asking > 0.0 {
            format!(
                "; {:.0} generated questions a second",
                questions as f64 / asking
            )
        } else {
            String::new()
        };
        format!(
            "timings: {}; {:.2} s in all{rate}",
            phases.join(", "),
            self.seconds
        )
    }
}
