//! A hint on a `rejects-valid` cause whose reproducer is long: when the
//! implementation refuses every input tried of that many code points and
//! more, and takes one of a code point fewer, the refusal looks like a
//! size limit of its own (OpenSSL 3.0.7's decoder refuses more than 512
//! code points and only says that it failed; ICU refuses a label of more
//! than 1,000, which no IDNA rule says). The cause stays a cause
//! (its limit is undeclared); the hint says how to declare it. Nothing is
//! hinted that the probes do not show.

use super::compare::{ask, is_refusal, reference_for};
use crate::codec::Codec;
use crate::engines::{Engine, check_supported};
use crate::vocabulary::{Expected, Request};

/// Reproducers shorter than this many code points are not taken for a
/// size limit: fixed buffers are longer, and short inputs fail for other
/// reasons.
pub const MIN_LIMIT: usize = 16;

/// The code point the probes repeat: one non-basic code point, in every
/// declared domain, that every encoder and decoder of a label handles.
const PROBE: u32 = 0xE9;

/// How many code points `request` is about: those it encodes, or those
/// the reference decodes it to.
fn code_points(codec: Codec, request: &Request) -> Option<usize> {
    match request {
        Request::Encode { code_points, .. } => Some(code_points.len()),
        Request::Decode(_) => match reference_for(codec, request)? {
            Expected::Decoded(cps) => Some(cps.values.len()),
            _ => None,
        },
    }
}

/// The same question as `request` (encode or decode) about `n` copies of
/// [`PROBE`]; `None` when the reference cannot say what it is.
fn probe(codec: Codec, request: &Request, n: usize) -> Option<Request> {
    let values = vec![PROBE; n];
    let encode = Request::Encode {
        code_points: values,
        flags: None,
    };
    match request {
        Request::Encode { .. } => Some(encode),
        Request::Decode(_) => match reference_for(codec, &encode)? {
            Expected::Encoded(bytes) => Some(Request::Decode(bytes)),
            _ => None,
        },
    }
}

/// Whether `engine` is asked `request` at all (within what it declares).
fn supported(engine: &dyn Engine, request: &Request) -> bool {
    let caps = engine.capabilities();
    match request {
        Request::Encode { code_points, flags } => {
            check_supported(&caps, Some((code_points, flags.is_some())), None).is_ok()
        }
        Request::Decode(bytes) => check_supported(&caps, None, Some(bytes)).is_ok(),
    }
}

/// The size limit a `rejects-valid` cause of `engine` whose reproducer is
/// `request` shows, in code points: when the reproducer is about `n` code
/// points (at least [`MIN_LIMIT`]), and the same question about `n` and
/// `2n` copies of one code point is refused while the one about `n - 1`
/// copies is answered as the reference answers it, `n - 1`.
pub fn size_limit(engine: &dyn Engine, request: &Request) -> Option<usize> {
    let codec = engine.codec();
    if codec != Codec::Punycode && codec.label_profile().is_none() {
        return None;
    }
    let n = code_points(codec, request).filter(|&n| n >= MIN_LIMIT)?;
    let asked = |k: usize| {
        let question = probe(codec, request, k)?;
        supported(engine, &question).then(|| {
            let answer = ask(engine, &question);
            (answer.clone(), reference_for(codec, &question))
        })
    };
    let refused = |k: usize| asked(k).is_some_and(|(answer, _)| is_refusal(&answer));
    let answered = asked(n - 1).is_some_and(|(answer, reference)| {
        reference.is_some_and(|reference| answer.as_ref() == Ok(&reference))
    });
    (answered && refused(n) && refused(2 * n)).then_some(n - 1)
}

/// What [`size_limit`] found for `codec`, in words, with how to declare
/// it (`--max-encode` counts the code points an implementation encodes and
/// those it decodes to; `--max-label-code-points` those of a label, which
/// the probes' one-label names are).
pub fn hint(codec: Codec, limit: usize) -> String {
    let (what, option) = if codec.label_profile().is_some() {
        ("label", "--max-label-code-points")
    } else {
        ("input", "--max-encode")
    };
    format!(
        "every {what} tried of {} code points or more is refused, and one of {limit} is \
         answered: a size limit of its own? If it is one by design, declare it: {option} \
         {limit}",
        limit + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Functions;
    use crate::engines::Refusal;

    /// The clean-room code, refusing more than `limit` code points either
    /// way, and saying only that it failed.
    fn limited(limit: usize) -> Functions {
        Functions::unicode(
            "limited",
            move |text| {
                if text.chars().count() > limit {
                    return Err(Refusal::Failed);
                }
                crate::punycode::encode_str(text).map_err(|_| Refusal::Failed)
            },
            move |text| {
                let decoded =
                    crate::punycode::decode_to_string(text).map_err(|_| Refusal::Failed)?;
                if decoded.chars().count() > limit {
                    return Err(Refusal::Failed);
                }
                Ok(decoded)
            },
        )
    }

    fn encode(n: usize) -> Request {
        Request::Encode {
            code_points: vec![0x61; n - 1].into_iter().chain([0x4E00]).collect(),
            flags: None,
        }
    }

    #[test]
    fn a_limit_is_hinted_with_its_declaration_in_both_directions() {
        let engine = limited(512);
        assert_eq!(size_limit(&engine, &encode(513)), Some(512));
        assert!(hint(Codec::Punycode, 512).ends_with("declare it: --max-encode 512"));
        let Some(Expected::Encoded(bytes)) = reference_for(Codec::Punycode, &encode(513)) else {
            panic!("the reference encodes");
        };
        assert_eq!(size_limit(&engine, &Request::Decode(bytes)), Some(512));
    }

    #[test]
    fn no_hint_without_a_limit_or_for_short_inputs() {
        // Refusing only this one input is not a size limit: the probes of
        // the same size are answered.
        let picky = Functions::unicode(
            "picky",
            |text| {
                if text.starts_with("aaaa") && text.ends_with('\u{4E00}') {
                    return Err(Refusal::Failed);
                }
                crate::punycode::encode_str(text).map_err(|_| Refusal::Failed)
            },
            |text| crate::punycode::decode_to_string(text).map_err(|_| Refusal::Failed),
        );
        assert_eq!(size_limit(&picky, &encode(600)), None);
        // A limit below MIN_LIMIT code points is not hinted.
        assert_eq!(size_limit(&limited(8), &encode(9)), None);
        // A limit one above the reproducer: n - 1 and n both answered.
        assert_eq!(size_limit(&limited(600), &encode(513)), None);
    }
}
