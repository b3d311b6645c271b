//! Timing, after the self-check: the samples of the subjects of one input
//! set in one direction, interleaved round by round ([`Rounds`]), each
//! subject within its own budget, and the extrapolation that skips a long
//! input whose time per pass would exceed the budget ([`predicted_skip`]).
//! How many samples, in which order, and when a size is skipped is changed
//! here.

use std::collections::HashMap;
use std::time::Instant;

use super::Settings;
use super::inputs::{Direction, InputSet, SetKind, size_label};
use super::report::{Outcome, Row, Skip, Timing, format_seconds, row};
use super::subjects::Subject;

/// The medians of the long inputs measured so far, per implementation,
/// input set kind and direction: (length, seconds per pass), by length.
pub(super) type History = HashMap<(String, SetKind, Direction), Vec<(usize, f64)>>;

/// Growth above this exponent is taken for superlinear code, whose
/// extrapolation [`predicted_skip`] doubles.
const SUPERLINEAR: f64 = 1.25;

/// The skip of a long input, extrapolated from the implementation's
/// smaller sizes, or `None` to run it.
pub(super) fn predicted_skip(
    settings: &Settings,
    history: &History,
    name: &str,
    set: &InputSet,
    direction: Direction,
) -> Option<Outcome> {
    let size = set.size?;
    let past = history.get(&(name.to_string(), set.kind, direction))?;
    let &(n1, t1) = past.last()?;
    let (growth, how) = match past.len() {
        0 | 1 => (
            1.0,
            format!(
                "from {} at {}, growing at least linearly",
                format_seconds(t1),
                size_label(n1)
            ),
        ),
        len => {
            let (n0, t0) = past[len - 2];
            let k = (t1 / t0).ln() / (n1 as f64 / n0 as f64).ln();
            let k = if k.is_finite() {
                k.clamp(1.0, 3.0)
            } else {
                1.0
            };
            (
                k,
                format!(
                    "{} at {}, time growing as n^{k:.2} from {}",
                    format_seconds(t1),
                    size_label(n1),
                    size_label(n0)
                ),
            )
        }
    };
    // Superlinear code slows further once its data leaves the caches (the
    // idna crate's encoder: n^1.93 from 10^3 to 10^4 code points, n^2.66 on
    // to 10^5, 39 s a pass where 6.8 s was extrapolated): twice the
    // extrapolation, so that one pass does not run far past the budget.
    let margin = if growth > SUPERLINEAR { 2.0 } else { 1.0 };
    let predicted = margin * t1 * (size as f64 / n1 as f64).powf(growth);
    (predicted > settings.seconds_per_case).then(|| Outcome::Skipped {
        skip: Skip::Extrapolated { seconds: predicted },
        reason: format!(
            "extrapolated ≥ {} per pass ({how}), over the budget of {}",
            format_seconds(predicted),
            format_seconds(settings.seconds_per_case)
        ),
    })
}

/// A subject checked on one input set, to be timed.
pub(super) struct Ready<'a> {
    /// Its index in the run's subjects.
    pub(super) index: usize,
    /// Its checking pass's time, in seconds.
    pub(super) first: f64,
    /// One pass over the input set.
    pub(super) pass: Box<dyn FnMut() + 'a>,
}

/// Times the subjects checked on one input set in one direction, their
/// samples interleaved ([`Rounds`]), fills in their rows, and records the
/// medians of long inputs for extrapolation.
pub(super) fn time_checked(
    settings: &Settings,
    set: &InputSet,
    direction: Direction,
    subjects: &[&dyn Subject],
    history: &mut History,
    mut ready: Vec<Ready<'_>>,
    rows: &mut [Option<Row>],
) {
    let firsts: Vec<f64> = ready.iter().map(|r| r.first).collect();
    let mut rounds = Rounds::new(settings, &firsts);
    loop {
        let order = rounds.next_round();
        if order.is_empty() {
            break;
        }
        for k in order {
            let iterations = rounds.iterations(k);
            let pass = &mut ready[k].pass;
            let start = Instant::now();
            for _ in 0..iterations {
                pass();
            }
            rounds.record(k, start.elapsed().as_secs_f64());
        }
    }
    for (r, timing) in ready.iter().zip(rounds.timings()) {
        let subject = subjects[r.index];
        if let Some(size) = set.size {
            history
                .entry((subject.name().to_string(), set.kind, direction))
                .or_default()
                .push((size, timing.median_seconds));
        }
        rows[r.index] = Some(row(subject, Outcome::Measured(timing)));
    }
}

/// The timed samples of the subjects of one input set in one direction,
/// taken in rounds: each round, one sample of each subject still within its
/// budget, starting at the next subject each round, so that noise on the
/// machine falls on every subject alike.
///
/// A subject's budget ([`Settings::seconds_per_case`]) counts its own time
/// only: its checking pass and its samples. It takes no sample when the
/// checking pass took half the budget or more; otherwise up to
/// [`Settings::repetitions`] samples, each of as many passes as its checking
/// pass says fit in [`Settings::sample_seconds`] (at most a
/// `2 * repetitions`th of the budget), at least one, and no further one
/// when its time so far plus the last sample's time would exceed the budget.
#[derive(Clone, Debug)]
struct Rounds {
    budget: f64,
    repetitions: usize,
    /// The rounds started so far.
    round: usize,
    subjects: Vec<Sampling>,
}

/// One subject's samples so far.
#[derive(Clone, Debug)]
struct Sampling {
    /// The checking pass, in seconds.
    first: f64,
    /// Passes per sample.
    iterations: u64,
    /// Its time so far: the checking pass and its samples, in seconds.
    spent: f64,
    /// Each sample's time per pass, in seconds.
    per_pass: Vec<f64>,
    /// Whether it may take more samples.
    running: bool,
}

impl Rounds {
    /// The samples of subjects whose checking passes took `firsts` seconds.
    fn new(settings: &Settings, firsts: &[f64]) -> Self {
        let budget = settings.seconds_per_case;
        let target = settings
            .sample_seconds
            .min(budget / (2.0 * settings.repetitions as f64));
        Rounds {
            budget,
            repetitions: settings.repetitions,
            round: 0,
            subjects: firsts
                .iter()
                .map(|&first| Sampling {
                    first,
                    iterations: (target / first.max(1e-9)).ceil().clamp(1.0, 1e9) as u64,
                    spent: first,
                    per_pass: Vec::new(),
                    running: first * 2.0 < budget,
                })
                .collect(),
        }
    }

    /// The subjects that take a sample in the next round, in the order they
    /// take it: those still within their budget, starting at the round's
    /// number modulo their count. Empty when every subject is done.
    fn next_round(&mut self) -> Vec<usize> {
        let (budget, repetitions) = (self.budget, self.repetitions);
        for s in self.subjects.iter_mut().filter(|s| s.running) {
            let estimate = s.per_pass.last().copied().unwrap_or(s.first) * s.iterations as f64;
            if s.per_pass.len() >= repetitions
                || (!s.per_pass.is_empty() && s.spent + estimate > budget)
            {
                s.running = false;
            }
        }
        let mut order: Vec<usize> = (0..self.subjects.len())
            .filter(|&k| self.subjects[k].running)
            .collect();
        if !order.is_empty() {
            let start = self.round % order.len();
            order.rotate_left(start);
            self.round += 1;
        }
        order
    }

    /// How many passes a sample of subject `k` runs.
    fn iterations(&self, k: usize) -> u64 {
        self.subjects[k].iterations
    }

    /// Records a sample of subject `k` that took `seconds`.
    fn record(&mut self, k: usize, seconds: f64) {
        let s = &mut self.subjects[k];
        s.spent += seconds;
        s.per_pass.push(seconds / s.iterations as f64);
    }

    /// Each subject's timing: over its samples, or the checking pass alone
    /// when it took none.
    fn timings(&self) -> Vec<Timing> {
        self.subjects.iter().map(Sampling::timing).collect()
    }
}

impl Sampling {
    fn timing(&self) -> Timing {
        if self.per_pass.is_empty() {
            return Timing {
                median_seconds: self.first,
                best_seconds: self.first,
                samples: 1,
                passes: 1,
            };
        }
        let mut per_pass = self.per_pass.clone();
        per_pass.sort_by(f64::total_cmp);
        let middle = per_pass.len() / 2;
        let median = if !per_pass.len().is_multiple_of(2) {
            per_pass[middle]
        } else {
            (per_pass[middle - 1] + per_pass[middle]) / 2.0
        };
        Timing {
            median_seconds: median,
            best_seconds: per_pass[0],
            samples: per_pass.len(),
            passes: 1 + self.iterations * per_pass.len() as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extrapolation_uses_the_measured_growth() {
        let settings = Settings::full();
        let set = InputSet {
            kind: SetKind::ManyDistinct,
            size: Some(100_000),
            inputs: Vec::new(),
        };
        let mut history = History::new();
        let key = ("x".to_string(), SetKind::ManyDistinct, Direction::Encode);
        assert_eq!(
            predicted_skip(&settings, &history, "x", &set, Direction::Encode),
            None
        );
        // Quadratic: 0.01 s at 10^3, 1 s at 10^4, so 100 s at 10^5, twice
        // that with the margin of superlinear code.
        history.insert(key.clone(), vec![(1_000, 0.01), (10_000, 1.0)]);
        let Some(Outcome::Skipped { skip, reason }) =
            predicted_skip(&settings, &history, "x", &set, Direction::Encode)
        else {
            panic!("over the budget")
        };
        let Skip::Extrapolated { seconds } = skip else {
            panic!("{skip:?}")
        };
        assert!((seconds - 200.0).abs() < 1e-6, "{seconds}");
        assert_eq!(skip.to_string(), "≥ 200 s extrapolated");
        assert!(reason.contains("≥ 200.000 s"), "{reason}");
        assert!(reason.contains("n^2.00"), "{reason}");
        // Linear, no margin: 0.1 s at 10^3, 1 s at 10^4, 10 s at 10^5 (not
        // over the budget of 10 s).
        history.insert(key.clone(), vec![(1_000, 0.1), (10_000, 1.0)]);
        assert_eq!(
            predicted_skip(&settings, &history, "x", &set, Direction::Encode),
            None
        );
        // One size only: at least linear, 10 × 0.5 s = 5 s: within 10 s.
        history.insert(key, vec![(10_000, 0.5)]);
        assert_eq!(
            predicted_skip(&settings, &history, "x", &set, Direction::Encode),
            None
        );
    }

    /// Runs `rounds` to the end without timing anything: a sample of
    /// subject `k`, its `n`th, takes `per_pass(k, n)` seconds per pass.
    /// Returns the order of each round.
    fn simulate(rounds: &mut Rounds, per_pass: impl Fn(usize, usize) -> f64) -> Vec<Vec<usize>> {
        let mut taken = vec![0; rounds.subjects.len()];
        let mut orders = Vec::new();
        loop {
            let order = rounds.next_round();
            if order.is_empty() {
                return orders;
            }
            for &k in &order {
                let seconds = per_pass(k, taken[k]) * rounds.iterations(k) as f64;
                rounds.record(k, seconds);
                taken[k] += 1;
            }
            orders.push(order);
        }
    }

    #[test]
    fn samples_rotate_over_the_subjects_round_by_round() {
        // About 1 ms per pass: 52 passes make a sample of about 50 ms, far
        // within the budget of 10 s, so each subject takes 7 samples.
        let first = 1.0 / 1024.0;
        let mut rounds = Rounds::new(&Settings::full(), &[first; 3]);
        let orders = simulate(&mut rounds, |_, _| first);
        assert_eq!(
            orders,
            [
                [0, 1, 2],
                [1, 2, 0],
                [2, 0, 1],
                [0, 1, 2],
                [1, 2, 0],
                [2, 0, 1],
                [0, 1, 2]
            ]
        );
        for timing in rounds.timings() {
            assert_eq!(timing.samples, 7);
            assert_eq!(timing.passes, 1 + 7 * 52);
            assert_eq!(timing.best_seconds, first);
            assert_eq!(timing.median_seconds, first);
        }
        let mut none = Rounds::new(&Settings::full(), &[]);
        assert!(none.next_round().is_empty());
        assert!(none.timings().is_empty());
    }

    #[test]
    fn each_subject_samples_within_its_own_budget() {
        let settings = Settings {
            seconds_per_case: 1.0,
            ..Settings::full()
        };
        // 0: the checking pass took half the budget, so no samples.
        // 1: one pass per sample, slow samples (0.25, 0.1875, 0.3125 s):
        //    its own time is 0.125 + 0.75 = 0.875 s after three, and a
        //    fourth like the last would end at 1.1875 s, over the budget.
        // 2: about 50 ms samples: all 7 fit.
        let firsts = [0.5, 0.125, 1.0 / 1024.0];
        let mut rounds = Rounds::new(&settings, &firsts);
        assert_eq!(
            (0..3).map(|k| rounds.iterations(k)).collect::<Vec<_>>(),
            [1, 1, 52]
        );
        let slow = [0.25, 0.1875, 0.3125];
        let orders = simulate(&mut rounds, |k, n| match k {
            1 => slow[n],
            _ => firsts[k],
        });
        let expected: [&[usize]; 7] = [&[1, 2], &[2, 1], &[1, 2], &[2], &[2], &[2], &[2]];
        assert_eq!(orders, expected);
        let timings = rounds.timings();
        assert_eq!(
            timings[0],
            Timing {
                median_seconds: 0.5,
                best_seconds: 0.5,
                samples: 1,
                passes: 1,
            }
        );
        assert_eq!(
            timings[1],
            Timing {
                median_seconds: 0.25,
                best_seconds: 0.1875,
                samples: 3,
                passes: 4,
            }
        );
        assert_eq!((timings[2].samples, timings[2].passes), (7, 1 + 7 * 52));
        // Two samples: the median is their mean.
        let mut rounds = Rounds::new(&settings, &[0.125]);
        let orders = simulate(&mut rounds, |_, n| [0.25, 0.5][n]);
        assert_eq!(orders, [[0], [0]]);
        assert_eq!(rounds.timings()[0].median_seconds, 0.375);
    }
}
