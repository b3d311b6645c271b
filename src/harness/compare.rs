//! Asking an implementation one question and judging its answer against a
//! reference answer (a vector's expected value, or the C reference's live
//! answer), at the precision the implementation declares.
//!
//! Every answer ends as one [`Verdict`]: the same, skipped for a declared
//! reason, different in a way a divergence class explains, or a
//! nonconformance. The vector runner, the differential engine and `check`
//! all judge through [`judge`], so they agree on what counts.

use crate::codec::Codec;
use crate::engines::{
    Capabilities, CodePointDomain, Engine, EngineError, ErrorDetail, check_supported,
};
use crate::vocabulary::{CodePoints, Expected, classes::Class};
pub use crate::vocabulary::{Request, describe};

/// How an answer compares with the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The same answer, at the implementation's declared precision.
    Same,
    /// Not asked: outside its declared capabilities.
    Skip {
        /// Why, as a class.
        class: Class,
        /// Why, in words.
        reason: String,
    },
    /// A different answer that a divergence class explains.
    Divergence {
        /// The class.
        class: Class,
        /// What differed.
        detail: String,
    },
    /// A different answer that nothing explains.
    Nonconformance(String),
    /// No answer came before the run's time ran out: nothing to judge.
    Unfinished,
}

/// Asks an implementation, without any capability check.
pub fn ask(engine: &dyn Engine, request: &Request) -> Result<Expected, EngineError> {
    let answer = match request {
        Request::Encode { code_points, flags } => engine
            .encode(code_points, flags.as_deref())
            .map(Expected::Encoded),
        Request::Decode(bytes) => engine
            .decode(bytes)
            .map(|d| Expected::Decoded(CodePoints::from(d))),
    };
    match answer {
        Err(EngineError::Rejected(Some(kind))) => Ok(Expected::Error(kind)),
        other => other,
    }
}

pub use crate::c_reference::answer as reference;

/// The answer of `codec`'s reference implementation (the C reference for
/// Punycode, see [`crate::engines::builtin_for`] for the others). `None`
/// when it cannot be asked this question.
pub fn reference_for(codec: Codec, request: &Request) -> Option<Expected> {
    if codec == Codec::Punycode {
        return reference(request);
    }
    let engine = crate::engines::reference_for(codec)?;
    ask(engine.as_ref(), request).ok()
}

/// Asks `engine` and judges its answer against `reference`, flags included.
pub fn judge(engine: &dyn Engine, request: &Request, reference: &Expected) -> Verdict {
    judge_with(engine, request, reference, true)
}

/// [`judge`], comparing decoded case flags only when `flags_matter` (a vector
/// can say that only the code points are expected).
pub fn judge_with(
    engine: &dyn Engine,
    request: &Request,
    reference: &Expected,
    flags_matter: bool,
) -> Verdict {
    judge_answer(engine, request, reference, flags_matter).0
}

/// [`judge_with`], also returning the engine's answer when it was asked.
pub fn judge_answer(
    engine: &dyn Engine,
    request: &Request,
    reference: &Expected,
    flags_matter: bool,
) -> (Verdict, Option<Result<Expected, EngineError>>) {
    let caps = engine.capabilities();
    let supported = match request {
        Request::Encode { code_points, flags } => {
            check_supported(&caps, Some((code_points, flags.is_some())), None)
        }
        Request::Decode(bytes) => check_supported(&caps, None, Some(bytes)),
    };
    if let Err((class, reason)) = supported {
        return (Verdict::Skip { class, reason }, None);
    }
    let got = ask(engine, request);
    let verdict = evaluate(
        &caps,
        engine.codec(),
        request,
        reference,
        &got,
        flags_matter,
    );
    (verdict, Some(got))
}

/// Judges an answer `got` to `request` against `reference` for an
/// implementation that declares `caps`; a difference that one of its
/// declared deviations explains is classified as `listed`.
pub fn evaluate(
    caps: &Capabilities,
    codec: Codec,
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
    flags_matter: bool,
) -> Verdict {
    // Punycode's digits are case-insensitive (section 5); the other
    // codecs' encoded forms are compared byte for byte.
    let unflagged_encode =
        matches!(request, Request::Encode { flags: None, .. }) && codec == Codec::Punycode;
    match compare_answer(caps, reference, got, flags_matter, unflagged_encode) {
        Verdict::Nonconformance(detail) => {
            match caps
                .deviations
                .iter()
                .find(|d| (d.explains)(request, reference, got))
            {
                Some(deviation) => Verdict::Divergence {
                    class: Class::Listed,
                    detail: format!("{}: {}", deviation.id, deviation.reason),
                },
                None => Verdict::Nonconformance(detail),
            }
        }
        other => other,
    }
}

/// Whether `got` is the Punycode `want` with its digits (everything after
/// the last delimiter) in another case. Without annotations, RFC 3492
/// section 5 lets an encoder write its digits in uppercase or in lowercase
/// ("only uppercase forms or only lowercase forms"); the literal part keeps
/// the case of the basic code points.
fn same_up_to_digit_case(want: &[u8], got: &[u8]) -> bool {
    let literal = want
        .iter()
        .rposition(|&c| c == crate::punycode::DELIMITER)
        .map_or(0, |p| p + 1);
    want.len() == got.len()
        && want[..literal] == got[..literal]
        && want[literal..].eq_ignore_ascii_case(&got[literal..])
}

fn compare_answer(
    caps: &Capabilities,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
    flags_matter: bool,
    unflagged_encode: bool,
) -> Verdict {
    match got {
        Err(EngineError::Limit(message)) => {
            return Verdict::Skip {
                class: Class::LengthLimit,
                reason: format!("stopped at its own size limit ({message})"),
            };
        }
        Err(EngineError::Unsupported(why)) => {
            return Verdict::Nonconformance(format!(
                "refused a request inside its declared capabilities: {why}"
            ));
        }
        Err(EngineError::Broken(why)) => return Verdict::Nonconformance(why.clone()),
        Err(e @ (EngineError::Crashed(_) | EngineError::Hung(_))) => {
            return Verdict::Nonconformance(e.to_string());
        }
        Err(EngineError::Cancelled) => return Verdict::Unfinished,
        _ => {}
    }
    // A result outside its domain must be refused, not returned.
    if let Expected::Decoded(want) = reference {
        let outside = caps.domain == CodePointDomain::UnicodeScalar
            && want.values.iter().any(|&cp| char::from_u32(cp).is_none());
        if outside {
            return match got {
                Ok(Expected::Error(_)) | Err(EngineError::Rejected(None)) => Verdict::Divergence {
                    class: Class::Domain,
                    detail: "decodes to a code point outside its domain (Unicode scalar values), which it refuses as declared".into(),
                },
                other => Verdict::Nonconformance(format!(
                    "the result [{want}] is outside its declared domain and must be refused, got {}",
                    describe(other)
                )),
            };
        }
    }
    let mismatch = || {
        Verdict::Nonconformance(format!(
            "expected {}, got {}",
            describe(&Ok(reference.clone())),
            describe(got)
        ))
    };
    match (reference, got) {
        (Expected::Encoded(want), Ok(Expected::Encoded(answer))) if want == answer => Verdict::Same,
        (Expected::Encoded(want), Ok(Expected::Encoded(answer)))
            if unflagged_encode && same_up_to_digit_case(want, answer) =>
        {
            Verdict::Divergence {
                class: Class::Annotations,
                detail: format!(
                    "digits in another case ({:?}); without annotations their case carries nothing",
                    String::from_utf8_lossy(answer)
                ),
            }
        }
        (Expected::Decoded(want), Ok(Expected::Decoded(answer)))
            if want.values == answer.values =>
        {
            if want.flags == answer.flags || !flags_matter {
                Verdict::Same
            } else if !caps.annotations {
                Verdict::Divergence {
                    class: Class::Annotations,
                    detail: "same code points; the case flags it does not support differ".into(),
                }
            } else {
                mismatch()
            }
        }
        (Expected::Error(want), Ok(Expected::Error(answer))) if want == answer => Verdict::Same,
        (Expected::Error(want), Err(EngineError::Rejected(None)))
            if caps.errors == ErrorDetail::FailureOnly =>
        {
            Verdict::Divergence {
                class: Class::ErrorDetail,
                detail: format!("failed without a kind where the reference says {want}"),
            }
        }
        _ => mismatch(),
    }
}
