//! The self-check: each subject's checking pass over an input set, timed,
//! with every answer compared, an encoding with the reference's, a
//! decoding with the code points that were encoded. An input the subject
//! cannot take (its own limit, or a refusal that one of its listed
//! deviations explains) skips the set, with the reason; any other wrong
//! answer fails the run. What counts as right, and which refusals skip, is
//! changed here.

use std::hint::black_box;
use std::time::Instant;

use super::inputs::{Direction, InputSet};
use super::report::{Outcome, Skip};
use super::sampling::{History, predicted_skip};
use super::subjects::Subject;
use super::{BenchError, Settings};
use crate::engines::EngineError;
use crate::harness::compare::Request;
use crate::harness::vectors::{CodePoints, Expected};

/// What the self-check made of one answer.
pub(super) enum Check {
    /// The expected answer.
    Right,
    /// The implementation cannot take this input: skip the set.
    CannotTake(Skip, String),
    /// A wrong answer: fail the run.
    Wrong(String),
}

/// Checks the first implementation to encode, which becomes the reference:
/// only that it answered.
pub(super) fn first_encoding(
    subject: &dyn Subject,
    input: &[u32],
    got: &Result<Vec<u8>, EngineError>,
) -> Check {
    match got {
        Ok(_) => Check::Right,
        Err(e) => refusal(
            subject,
            Request::Encode {
                code_points: input.to_vec(),
                flags: None,
            },
            None,
            e,
        ),
    }
}

pub(super) fn check_encoding(
    subject: &dyn Subject,
    reference: &str,
    input: &[u32],
    want: &[u8],
    got: &Result<Vec<u8>, EngineError>,
) -> Check {
    match got {
        Ok(bytes) if bytes == want => Check::Right,
        Ok(bytes) => Check::Wrong(format!(
            "its encoding differs from {reference}'s: {}",
            first_difference(bytes, want, |b| format!("{:?}", char::from(*b)))
        )),
        Err(e) => refusal(
            subject,
            Request::Encode {
                code_points: input.to_vec(),
                flags: None,
            },
            Some(Expected::Encoded(want.to_vec())),
            e,
        ),
    }
}

pub(super) fn check_decoding(
    subject: &dyn Subject,
    bytes: &[u8],
    want: &[u32],
    got: &Result<Vec<u32>, EngineError>,
) -> Check {
    match got {
        Ok(cps) if cps == want => Check::Right,
        Ok(cps) => Check::Wrong(format!(
            "its decoding differs from the code points that were encoded: {}",
            first_difference(cps, want, |cp| format!("U+{cp:04X}"))
        )),
        Err(e) => refusal(
            subject,
            Request::Decode(bytes.to_vec()),
            Some(Expected::Decoded(CodePoints::with_flags(want, None))),
            e,
        ),
    }
}

/// A failure to answer: an input it cannot take (its own limit, or a
/// listed deviation that explains the refusal), or a wrong answer.
fn refusal(
    subject: &dyn Subject,
    request: Request,
    reference: Option<Expected>,
    error: &EngineError,
) -> Check {
    match error {
        EngineError::Limit(why) => {
            return Check::CannotTake(Skip::OwnLimit, format!("its own limit: {why}"));
        }
        EngineError::Unsupported(why) => {
            return Check::CannotTake(Skip::OwnLimit, format!("unsupported: {why}"));
        }
        _ => {}
    }
    if let Some(reference) = &reference {
        let got = match error {
            EngineError::Rejected(Some(kind)) => Ok(Expected::Error(*kind)),
            other => Err(other.clone()),
        };
        if let Some(deviation) = subject
            .deviations()
            .iter()
            .find(|d| (d.explains)(&request, reference, &got))
        {
            return Check::CannotTake(
                Skip::Deviation {
                    id: deviation.id.to_string(),
                },
                format!(
                    "refuses {request_text} ({error}): listed deviation {}",
                    deviation.id,
                    request_text = shortened(&request.to_string())
                ),
            );
        }
    }
    Check::Wrong(format!("{error}, where the answer is known"))
}

fn shortened(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX).collect();
    format!("{head}...")
}

/// Where two sequences first differ.
fn first_difference<T: PartialEq>(got: &[T], want: &[T], show: impl Fn(&T) -> String) -> String {
    let at = got.iter().zip(want).position(|(a, b)| a != b);
    match at {
        Some(k) => format!(
            "at element {k} of {}, {} where {} was expected (length {} expected)",
            got.len(),
            show(&got[k]),
            show(&want[k]),
            want.len()
        ),
        None => format!(
            "it has {} elements where {} were expected",
            got.len(),
            want.len()
        ),
    }
}

/// What the checking pass made of one subject on one input set.
pub(super) enum Checked<'a, O> {
    /// Not timed: skipped by extrapolation, or an input it cannot take.
    Skipped(Outcome),
    /// Every answer was right: ready for timing.
    Right {
        /// The checking pass's time, in seconds.
        first: f64,
        /// Its answers.
        answers: Vec<O>,
        /// One timed pass over the input set.
        pass: Box<dyn FnMut() + 'a>,
    },
}

/// Runs the checking pass of one subject on one input set, timed, and
/// checks every answer; a wrong answer fails the run.
#[allow(clippy::too_many_arguments)]
pub(super) fn check_case<'a, I, O>(
    settings: &Settings,
    set: &InputSet,
    direction: Direction,
    subject: &dyn Subject,
    history: &History,
    inputs: &'a [I],
    call: impl Fn(&I) -> Result<O, EngineError> + 'a,
    check: impl Fn(usize, &Result<O, EngineError>) -> Check,
) -> Result<Checked<'a, O>, BenchError> {
    if let Some(skipped) = predicted_skip(settings, history, subject.name(), set, direction) {
        return Ok(Checked::Skipped(skipped));
    }
    let started = Instant::now();
    let answers: Vec<Result<O, EngineError>> = inputs.iter().map(&call).collect();
    let first = started.elapsed().as_secs_f64();
    for (k, answer) in answers.iter().enumerate() {
        match check(k, answer) {
            Check::Right => {}
            Check::CannotTake(skip, reason) => {
                let reason = if set.inputs.len() > 1 {
                    format!("input {k}: {reason}")
                } else {
                    reason
                };
                return Ok(Checked::Skipped(Outcome::Skipped { skip, reason }));
            }
            Check::Wrong(detail) => {
                return Err(BenchError::WrongAnswer {
                    implementation: subject.name().to_string(),
                    input_set: set.label(),
                    direction,
                    input: k,
                    detail,
                });
            }
        }
    }
    Ok(Checked::Right {
        first,
        answers: answers.into_iter().flatten().collect(),
        pass: Box::new(move || {
            for input in inputs {
                let _ = black_box(call(black_box(input)));
            }
        }),
    })
}
