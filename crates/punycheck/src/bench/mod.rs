//! How fast the implementations are, on the same inputs, each checked
//! first: the library behind `punycheck bench` and `benches/punycode.rs`.
//!
//! # Inputs
//!
//! Every implementation of a run gets the same inputs ([`input_sets`]):
//!
//! - [`SetKind::RfcSamples`]: the sample strings (A) to (S) of RFC 3492
//!   section 7.1, read from the RFC text ([`rfc_samples`]);
//! - [`SetKind::Labels`]: seeded random labels like real IDN labels, ASCII
//!   letters and digits mixed with one or two scripts, each shortened until
//!   its Punycode has at most [`MAX_LABEL_PUNYCODE`] characters
//!   ([`random_labels`]);
//! - [`SetKind::ManyDistinct`]: one long input of n distinct code points, a
//!   seeded permutation of the first n Unicode scalar values from U+00A0
//!   ([`many_distinct`]): the encoder's outer loop runs n times;
//! - [`SetKind::FewDistinct`]: one long input of n code points, half ASCII
//!   letters and digits, half the five values of [`FEW_DISTINCT`]
//!   ([`few_distinct`]): the encoder's outer loop runs five times, but the
//!   decoder still inserts n/2 code points.
//!
//! The long inputs have n = 10^3, 10^4, 10^5 and 10^6 ([`SIZES`]). Every
//! input is made of Unicode scalar values (so that the `idna` crate and ICU
//! can take them) and is encoded without case flags (the `idna` crate and
//! libidn2 have no annotations). The decoding inputs are the encodings of
//! the encoding inputs by the reference (below).
//!
//! # The self-check
//!
//! Each implementation ([`Subject`]) is first run once over the whole input
//! set, and every answer is compared: an encoding with the reference's
//! encoding, a decoding with the code points that were encoded. The
//! reference is the C reference (RFC 3492 Appendix C); for a long input on
//! which it was skipped (see below) it is the first implementation that
//! ran, the clean-room code preferably, whose encoding the decoders then
//! check by decoding it back to the input. A wrong answer ends the run with
//! [`BenchError::WrongAnswer`]; an input that the implementation cannot take
//! (its own length limit, or a refusal explained by one of its listed
//! [`Deviation`](crate::engines::Deviation)s, such as libidn2 refusing `$` in sample S) skips it for
//! that input set, with the reason.
//!
//! # Timing
//!
//! A pass runs the implementation once over every input of the set. The
//! checking pass is timed too; when it took less than half the budget
//! ([`Settings::seconds_per_case`]), up to [`Settings::repetitions`] samples
//! of enough passes each to last about [`Settings::sample_seconds`] follow,
//! as long as the budget lasts. The budget counts the implementation's own
//! time only: its checking pass and its samples.
//!
//! The samples are interleaved across the implementations. On one input set
//! in one direction, every implementation's checking pass runs first; then
//! each round takes one sample of every implementation still within its
//! budget, in an order that rotates: round r starts at the r-th of them
//! (modulo their number). A burst of noise from other processes on the
//! machine then falls on all the implementations compared in the same run
//! alike, rather than on the one that happened to be timed, which would
//! shift the ratios between them.
//!
//! The result is the best and the median time per pass ([`Timing`]);
//! reports and plots show the best (other processes only ever add time) as
//! code points and inputs (labels) per second. Extrapolation uses the
//! median.
//!
//! The budget also bounds the run: quadratic implementations on 10^6 code
//! points take minutes. Before each long input, the time of the
//! implementation's last measured size is extrapolated with the growth
//! measured between its last two sizes (at least linear), doubled where
//! that growth is superlinear (its data leaving the caches slows it
//! further); when that exceeds the budget, the size is skipped with the
//! extrapolated time.
//!
//! Implementations are called through their most direct API: the clean-room
//! code, [`crate::c_reference`] and `idna::punycode` directly (the latter on
//! `char`s and `&str` prepared before timing), libidn2 and ICU through
//! their engines' wrappers, which only size buffers around the C call (and,
//! for ICU, convert to and from UTF-16 in the timed part).
//!
//! # Where things are
//!
//! - `inputs.rs`: the input sets and their generators. A new input set is
//!   a [`SetKind`], its generator and its place in [`input_sets`], there.
//! - `subjects.rs`: the [`Subject`] trait and the built-in implementations
//!   ([`Builtin`]). A new peer is a [`Builtin`] variant, there.
//! - `check.rs`: the self-check of every answer, and the refusals that skip
//!   an input set instead of failing the run.
//! - `sampling.rs`: the interleaved samples, each implementation's budget,
//!   and the extrapolation that skips long inputs.
//! - `report.rs`: the results ([`Report`]) as a text table, Markdown and
//!   JSON, and the machine they were measured on.
//! - `plot.rs`: the SVG plot.
//! - `mod.rs`: the public API (everything is re-exported here), the
//!   [`Settings`], and [`run`], which checks then times every input set in
//!   both directions.

#[cfg(feature = "ada")]
mod ada;
mod check;
mod inputs;
mod report;
mod sampling;
mod subjects;

use std::fmt;
use std::time::Instant;

use serde::Serialize;

use check::{Checked, check_case, check_decoding, check_encoding, first_encoding};
use inputs::check_size;
pub use inputs::{
    Direction, FEW_DISTINCT, InputSet, LABEL_SCRIPTS, MAX_LABEL_PUNYCODE, MAX_SIZE, QUICK_SIZES,
    SEED, SIZES, SetKind, few_distinct, input_sets, many_distinct, random_labels, rfc_samples,
    size_label,
};
use report::row;
pub use report::{
    CaseResult, Machine, Outcome, Report, Row, Skip, Timing, format_rate, format_seconds, header,
};
use sampling::{History, Ready, predicted_skip, time_checked};
pub use subjects::{Builtin, DecodeInput, EncodeInput, REFERENCE, STAND_IN, Subject};

/// How a run goes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    /// Whether it is the quick run (for tests): fewer sizes, labels and
    /// repetitions, a smaller budget.
    pub quick: bool,
    /// The lengths of the long inputs, increasing, each 1 to [`MAX_SIZE`].
    pub sizes: Vec<usize>,
    /// How many random labels.
    pub labels: usize,
    /// The most timed samples per case, after the checking pass.
    pub repetitions: usize,
    /// About how long one sample lasts (it runs as many passes as fit).
    pub sample_seconds: f64,
    /// The time budget of one implementation on one input set in one
    /// direction; also the extrapolated time per pass above which a long
    /// input is skipped.
    pub seconds_per_case: f64,
    /// The seed of the random inputs.
    pub seed: u64,
}

impl Settings {
    /// A full run: long inputs of 10^3 to 10^6 code points, 1000 labels,
    /// the best of up to 7 samples, 10 s per case.
    pub fn full() -> Self {
        Settings {
            quick: false,
            sizes: SIZES.to_vec(),
            labels: 1000,
            repetitions: 7,
            sample_seconds: 0.05,
            seconds_per_case: 10.0,
            seed: SEED,
        }
    }

    /// A quick run: long inputs of 10^3 and 10^4 code points, 200 labels,
    /// the best of up to 3 samples, 1 s per case.
    pub fn quick() -> Self {
        Settings {
            quick: true,
            sizes: QUICK_SIZES.to_vec(),
            labels: 200,
            repetitions: 3,
            sample_seconds: 0.005,
            seconds_per_case: 1.0,
            seed: SEED,
        }
    }

    /// Caps the long inputs at `n` code points: the sizes up to `n`, and `n`
    /// itself when it lies below the largest.
    pub fn with_max_size(mut self, n: usize) -> Result<Self, BenchError> {
        check_size(n).map_err(|_| {
            BenchError::Settings(format!("--max-size must be 1 to {MAX_SIZE}, not {n}"))
        })?;
        let largest = self.sizes.iter().copied().max().unwrap_or(0);
        self.sizes.retain(|&size| size <= n);
        if n < largest && !self.sizes.contains(&n) {
            self.sizes.push(n);
        }
        Ok(self)
    }

    /// Sets the budget of one case.
    pub fn with_seconds_per_case(mut self, seconds: f64) -> Result<Self, BenchError> {
        self.seconds_per_case = seconds;
        self.validate()?;
        Ok(self)
    }

    /// Checks that the settings make a run.
    pub fn validate(&self) -> Result<(), BenchError> {
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if !positive(self.seconds_per_case) {
            return Err(BenchError::Settings(format!(
                "--seconds-per-case must be a positive number, not {}",
                self.seconds_per_case
            )));
        }
        if !positive(self.sample_seconds) {
            return Err(BenchError::Settings(format!(
                "the sample duration must be a positive number, not {}",
                self.sample_seconds
            )));
        }
        if self.repetitions == 0 {
            return Err(BenchError::Settings("at least one repetition".into()));
        }
        for &n in &self.sizes {
            check_size(n)?;
        }
        if self.sizes.windows(2).any(|w| w[0] >= w[1]) {
            return Err(BenchError::Settings(format!(
                "the sizes must increase: {:?}",
                self.sizes
            )));
        }
        Ok(())
    }
}

/// Why a run failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchError {
    /// The settings make no run.
    Settings(String),
    /// An implementation answered wrongly: the self-check failed.
    WrongAnswer {
        /// Which implementation.
        implementation: String,
        /// The input set's label.
        input_set: String,
        /// Which way.
        direction: Direction,
        /// The input's index in the set.
        input: usize,
        /// What differed.
        detail: String,
    },
    /// The plot could not be drawn.
    Plot(String),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Settings(why) => f.write_str(why),
            BenchError::WrongAnswer {
                implementation,
                input_set,
                direction,
                input,
                detail,
            } => write!(
                f,
                "self-check failed: {implementation} answered wrongly ({direction} {input_set}, input {input}): {detail}"
            ),
            BenchError::Plot(why) => write!(f, "cannot draw the plot: {why}"),
        }
    }
}

impl std::error::Error for BenchError {}

/// Runs every subject over every input set of `settings`, both ways,
/// checking before timing; `progress` is told of each measurement.
pub fn run(
    settings: &Settings,
    subjects: &[&dyn Subject],
    progress: &mut dyn FnMut(&str),
) -> Result<Report, BenchError> {
    let started = Instant::now();
    let sets = input_sets(settings)?;
    let mut history = History::new();
    let mut cases = Vec::new();
    for set in &sets {
        let (encode, decode) = run_set(settings, set, subjects, &mut history, progress)?;
        cases.push(encode);
        cases.push(decode);
    }
    Ok(Report {
        machine: Machine::detect(),
        settings: settings.clone(),
        implementations: subjects.iter().map(|s| s.name().to_string()).collect(),
        cases,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The order in which subjects encode: the reference, then its stand-in,
/// then the others as given.
fn encoding_order(subjects: &[&dyn Subject]) -> Vec<usize> {
    let rank = |name: &str| match name {
        REFERENCE => 0,
        STAND_IN => 1,
        _ => 2,
    };
    let mut order: Vec<usize> = (0..subjects.len()).collect();
    order.sort_by_key(|&i| rank(subjects[i].name()));
    order
}

/// Checks and times every subject on one input set, encoding then
/// decoding: in each direction, every subject's checking pass first, then
/// the samples of those with right answers, interleaved ([`time_checked`]).
fn run_set(
    settings: &Settings,
    set: &InputSet,
    subjects: &[&dyn Subject],
    history: &mut History,
    progress: &mut dyn FnMut(&str),
) -> Result<(CaseResult, CaseResult), BenchError> {
    let case = |direction, checked_against: Option<String>, rows: Vec<Option<Row>>| CaseResult {
        set: set.kind,
        size: set.size,
        label: set.label(),
        direction,
        inputs: set.inputs.len(),
        code_points: set.code_points(),
        checked_against,
        rows: rows.into_iter().flatten().collect(),
    };
    let encode_inputs: Vec<EncodeInput> =
        set.inputs.iter().cloned().map(EncodeInput::new).collect();
    let mut rows: Vec<Option<Row>> = vec![None; subjects.len()];
    let mut ready = Vec::new();
    let mut reference: Option<(String, Vec<Vec<u8>>)> = None;
    let order = encoding_order(subjects);
    for &i in &order {
        let subject = subjects[i];
        let checked = check_case(
            settings,
            set,
            Direction::Encode,
            subject,
            history,
            &encode_inputs,
            move |input| subject.encode(input),
            |k, got| match &reference {
                Some((name, want)) => check_encoding(subject, name, &set.inputs[k], &want[k], got),
                None => first_encoding(subject, &set.inputs[k], got),
            },
        )?;
        match checked {
            Checked::Skipped(outcome) => rows[i] = Some(row(subject, outcome)),
            Checked::Right {
                first,
                answers,
                pass,
            } => {
                if reference.is_none() {
                    reference = Some((subject.name().to_string(), answers));
                }
                ready.push(Ready {
                    index: i,
                    first,
                    pass,
                });
            }
        }
    }
    time_checked(
        settings,
        set,
        Direction::Encode,
        subjects,
        history,
        ready,
        &mut rows,
    );
    report_rows(progress, set, Direction::Encode, subjects, &order, &rows);
    let encoded = case(
        Direction::Encode,
        reference.as_ref().map(|(name, _)| name.clone()),
        rows,
    );

    let Some((encoder, encodings)) = reference else {
        let mut rows = Vec::new();
        for &subject in subjects {
            let outcome = predicted_skip(settings, history, subject.name(), set, Direction::Decode)
                .unwrap_or_else(|| Outcome::Skipped {
                    skip: Skip::NothingToDecode,
                    reason:
                        "nothing to decode: no implementation encoded this input within the budget"
                            .into(),
                });
            rows.push(Some(row(subject, outcome)));
        }
        return Ok((encoded, case(Direction::Decode, None, rows)));
    };
    let decode_inputs: Vec<DecodeInput> = encodings.into_iter().map(DecodeInput::new).collect();
    let mut rows: Vec<Option<Row>> = vec![None; subjects.len()];
    let mut ready = Vec::new();
    for (i, &subject) in subjects.iter().enumerate() {
        let checked = check_case(
            settings,
            set,
            Direction::Decode,
            subject,
            history,
            &decode_inputs,
            move |input| subject.decode(input),
            |k, got| check_decoding(subject, &decode_inputs[k].bytes, &set.inputs[k], got),
        )?;
        match checked {
            Checked::Skipped(outcome) => rows[i] = Some(row(subject, outcome)),
            Checked::Right { first, pass, .. } => ready.push(Ready {
                index: i,
                first,
                pass,
            }),
        }
    }
    time_checked(
        settings,
        set,
        Direction::Decode,
        subjects,
        history,
        ready,
        &mut rows,
    );
    let order: Vec<usize> = (0..subjects.len()).collect();
    report_rows(progress, set, Direction::Decode, subjects, &order, &rows);
    let against = format!("the encoded input ({encoder}'s encoding)");
    Ok((encoded, case(Direction::Decode, Some(against), rows)))
}

/// Reports the rows of one input set and direction, in `order`.
fn report_rows(
    progress: &mut dyn FnMut(&str),
    set: &InputSet,
    direction: Direction,
    subjects: &[&dyn Subject],
    order: &[usize],
    rows: &[Option<Row>],
) {
    for &i in order {
        if let Some(row) = &rows[i] {
            report_progress(progress, set, direction, subjects[i], &row.outcome);
        }
    }
}

fn report_progress(
    progress: &mut dyn FnMut(&str),
    set: &InputSet,
    direction: Direction,
    subject: &dyn Subject,
    outcome: &Outcome,
) {
    let what = match outcome {
        Outcome::Measured(t) => format!(
            "{} per pass (median {}, {} samples)",
            format_seconds(t.seconds()),
            format_seconds(t.median_seconds),
            t.samples
        ),
        Outcome::Skipped { reason, .. } => format!("skipped: {reason}"),
    };
    progress(&format!(
        "{direction} {}: {} {what}",
        set.label(),
        subject.name()
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_caps_and_checks() {
        let full = Settings::full();
        assert_eq!(
            full.clone().with_max_size(10_000).unwrap().sizes,
            [1_000, 10_000]
        );
        assert_eq!(
            full.clone().with_max_size(5_000).unwrap().sizes,
            [1_000, 5_000]
        );
        assert_eq!(full.clone().with_max_size(100).unwrap().sizes, [100]);
        assert_eq!(full.clone().with_max_size(MAX_SIZE).unwrap().sizes, SIZES);
        assert!(full.clone().with_max_size(0).is_err());
        assert!(full.clone().with_max_size(MAX_SIZE + 1).is_err());
        assert!(full.clone().with_seconds_per_case(0.0).is_err());
        assert!(full.clone().with_seconds_per_case(f64::NAN).is_err());
        assert_eq!(
            Settings::quick().with_max_size(MAX_SIZE).unwrap().sizes,
            QUICK_SIZES
        );
    }
}
