//! The UTF-8 implementations: punycheck's own RFC 2279 codec
//! ([`crate::utf8`]), the reference of the codec, and Rust's standard
//! library.
//!
//! UTF-8 has no case flags: both declare no annotations and decode with
//! every flag `false`.

use crate::codec::Codec;
use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, Deviation, EncodeResult, Engine, EngineError,
    ErrorDetail, PunycodeInput,
};
use crate::punycode::{CaseFlags, Decoded, ErrorKind};
use crate::utf8::{self, Mode};
use crate::vocabulary::Expected;
use crate::vocabulary::Request;

fn no_flags(case_flags: Option<&[bool]>) -> Result<(), EngineError> {
    match case_flags {
        Some(_) => Err(EngineError::Unsupported(
            "UTF-8 has no case flags (annotations)".into(),
        )),
        None => Ok(()),
    }
}

fn unflagged(code_points: Vec<u32>) -> Decoded {
    Decoded {
        flags: CaseFlags::unset(code_points.len()),
        code_points,
    }
}

/// punycheck's RFC 2279 UTF-8 ([`crate::utf8`] in [`Mode::Rfc2279`]),
/// selected as `cleanroom`: the reference of the UTF-8 codec.
///
/// It takes every 32-bit value and refuses those above 0x7FFFFFFF as bad
/// input; it decodes one- to six-octet sequences and refuses overlong
/// forms, `FE`, `FF`, stray continuation bytes and truncated sequences.
#[derive(Clone, Copy, Debug, Default)]
pub struct Utf8CleanRoom;

impl Engine for Utf8CleanRoom {
    fn name(&self) -> &str {
        "cleanroom"
    }

    fn codec(&self) -> Codec {
        Codec::Utf8
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            domain: CodePointDomain::U32,
            annotations: false,
            errors: ErrorDetail::Kinds,
            punycode_input: PunycodeInput::Bytes,
            max_encode_input: None,
            max_decode_input: None,
            bound_answers: Default::default(),
            directions: crate::engines::Directions::Both,
            deviations: &[],
            unicode_version: None,
            verdict_only: false,
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        no_flags(case_flags)?;
        utf8::encode(input, Mode::Rfc2279).map_err(|e| EngineError::Rejected(Some(e.kind())))
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        utf8::decode(input, Mode::Rfc2279)
            .map(unflagged)
            .map_err(|e| EngineError::Rejected(Some(e.kind())))
    }
}

/// Rust's standard library, selected as `std`: `char::encode_utf8` to
/// encode and `std::str::from_utf8` to decode.
///
/// It holds RFC 3629 UTF-8, which took RFC 2279's place in 2003: it only
/// takes and returns Unicode scalar values, and refuses as bad input the
/// RFC 2279 sequences of anything else (its one listed deviation, `rfc3629`).
#[derive(Clone, Copy, Debug, Default)]
pub struct StdUtf8;

/// Whether RFC 3629 has no sequence for a value RFC 2279 encodes: a
/// surrogate, or a value above U+10FFFF (every value of a five- or
/// six-octet sequence, and of four-octet sequences from `F4 90`).
fn beyond_rfc3629(value: u32) -> bool {
    char::from_u32(value).is_none()
}

/// The predicate of [`STD_DEVIATIONS`]: `request` decodes bytes that RFC
/// 2279 decodes (the reference succeeded) to at least one value RFC 3629
/// has no sequence for, and the answer is bad input.
fn rfc3629_refuses(
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
) -> bool {
    let Request::Decode(_) = request else {
        return false;
    };
    let Expected::Decoded(want) = reference else {
        return false;
    };
    want.values.iter().any(|&v| beyond_rfc3629(v))
        && matches!(got, Ok(Expected::Error(ErrorKind::BadInput)))
}

/// Where Rust's UTF-8 departs from RFC 2279.
pub const STD_DEVIATIONS: &[Deviation] = &[Deviation {
    id: "rfc3629",
    reason: "holds the UTF-8 of RFC 3629 and the Unicode Standard (a Rust str is a sequence of Unicode scalar values, and std::str::from_utf8 checks for exactly that), which limits UTF-8 to U+10FFFF and four octets and forbids surrogates: it refuses as bad input the five- and six-octet sequences, the four-octet ones from F4 90 (above U+10FFFF) and ED A0 to ED BF (U+D800 to U+DFFF) that RFC 2279 decodes",
    explains: rfc3629_refuses,
}];

impl Engine for StdUtf8 {
    fn name(&self) -> &str {
        "std"
    }

    fn codec(&self) -> Codec {
        Codec::Utf8
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            domain: CodePointDomain::UnicodeScalar,
            annotations: false,
            errors: ErrorDetail::Kinds,
            punycode_input: PunycodeInput::Bytes,
            max_encode_input: None,
            max_decode_input: None,
            bound_answers: Default::default(),
            directions: crate::engines::Directions::Both,
            deviations: STD_DEVIATIONS,
            unicode_version: None,
            verdict_only: false,
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        no_flags(case_flags)?;
        let mut out = Vec::with_capacity(input.len());
        let mut buffer = [0u8; 4];
        for (k, &value) in input.iter().enumerate() {
            let c = char::from_u32(value).ok_or_else(|| {
                EngineError::Unsupported(format!(
                    "the code point at index {k} (u+{value:04X}) is not a Unicode scalar value"
                ))
            })?;
            out.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        }
        Ok(out)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        match std::str::from_utf8(input) {
            Ok(text) => Ok(unflagged(text.chars().map(u32::from).collect())),
            Err(_) => Err(EngineError::Rejected(Some(ErrorKind::BadInput))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::CodePoints;

    fn answer(engine: &dyn Engine, bytes: &[u8]) -> Result<Expected, EngineError> {
        match engine.decode(bytes) {
            Ok(d) => Ok(Expected::Decoded(CodePoints::from(d))),
            Err(EngineError::Rejected(Some(kind))) => Ok(Expected::Error(kind)),
            Err(e) => Err(e),
        }
    }

    fn explained(bytes: &[u8], reference: &Expected, got: &Result<Expected, EngineError>) -> bool {
        rfc3629_refuses(&Request::Decode(bytes.to_vec()), reference, got)
    }

    /// Byte strings around every boundary of both UTF-8s.
    fn inputs() -> Vec<Vec<u8>> {
        let mut inputs = vec![vec![]];
        for a in 0..=255u8 {
            inputs.push(vec![a]);
            for b in [
                0x41, 0x7F, 0x80, 0x83, 0x84, 0x87, 0x88, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0,
            ] {
                let mut seq = vec![a, b];
                inputs.push(seq.clone());
                for _ in 0..4 {
                    seq.push(0x80);
                    inputs.push(seq.clone());
                    let mut high = seq.clone();
                    *high.last_mut().unwrap() = 0xBF;
                    inputs.push(high);
                }
            }
        }
        for value in [
            0xD7FF, 0xD800, 0xDFFF, 0xE000, 0x10_FFFF, 0x11_0000, 0x1F_FFFF,
        ] {
            inputs.push(utf8::encode(&[0x41, value, 0x42], Mode::Rfc2279).unwrap());
        }
        for len in 1..=6 {
            let k = len - 1;
            for value in [utf8::SEQUENCE_MIN[k], utf8::SEQUENCE_MAX[k]] {
                inputs.push(utf8::encode(&[value], Mode::Rfc2279).unwrap());
            }
        }
        inputs
    }

    #[test]
    fn deviation_explains_exactly_the_differences() {
        let mut explained_count = 0;
        for bytes in inputs() {
            let reference = answer(&Utf8CleanRoom, &bytes).unwrap();
            let got = answer(&StdUtf8, &bytes);
            let differs = got.as_ref() != Ok(&reference);
            assert_eq!(
                explained(&bytes, &reference, &got),
                differs,
                "{bytes:02X?}: cleanroom {reference:?}, std {got:?}"
            );
            explained_count += usize::from(differs);
        }
        assert!(explained_count > 100, "{explained_count}");
    }

    #[test]
    fn deviation_explains_the_rfc3629_limits() {
        let bad = Ok(Expected::Error(ErrorKind::BadInput));
        for (bytes, value) in [
            (&b"\xF8\x88\x80\x80\x80"[..], 0x20_0000),
            (b"\xFD\xBF\xBF\xBF\xBF\xBF", 0x7FFF_FFFF),
            (b"\xF4\x90\x80\x80", 0x11_0000),
            (b"\xF7\xBF\xBF\xBF", 0x1F_FFFF),
            (b"\xED\xA0\x80", 0xD800),
            (b"\xED\xBF\xBF", 0xDFFF),
        ] {
            let reference = Expected::Decoded(CodePoints::with_flags(&[value], None));
            assert!(explained(bytes, &reference, &bad), "{bytes:02X?}");
        }
    }

    #[test]
    fn deviation_explains_nothing_else() {
        let bad = Ok(Expected::Error(ErrorKind::BadInput));
        let scalar = Expected::Decoded(CodePoints::with_flags(&[0x10_FFFF, 0xD7FF], None));
        // Refusing valid Unicode text is not RFC 3629.
        assert!(!explained(b"\xF4\x8F\xBF\xBF\xED\x9F\xBF", &scalar, &bad));
        // Answers other than bad input.
        let beyond = Expected::Decoded(CodePoints::with_flags(&[0x11_0000], None));
        for got in [
            Ok(Expected::Error(ErrorKind::Overflow)),
            Ok(Expected::Decoded(CodePoints::with_flags(&[0xFFFD], None))),
            Ok(beyond.clone()),
            Err(EngineError::Rejected(None)),
            Err(EngineError::Broken("crashed".into())),
        ] {
            assert!(!explained(b"\xF4\x90\x80\x80", &beyond, &got), "{got:?}");
        }
        // Where RFC 2279 refuses too there is nothing to explain.
        let refused = Expected::Error(ErrorKind::BadInput);
        assert!(!explained(b"\xC0\x80", &refused, &bad));
        // Encoding: non-scalar values are outside its declared domain.
        let encode = Request::Encode {
            code_points: vec![0x11_0000],
            flags: None,
        };
        assert!(!rfc3629_refuses(
            &encode,
            &Expected::Encoded(b"\xF4\x90\x80\x80".to_vec()),
            &bad
        ));
    }

    #[test]
    fn engines_answer_alike_on_unicode() {
        let text = "A\u{2262}\u{391}.\u{D55C}\u{10FFFF}\u{0}";
        let values: Vec<u32> = text.chars().map(u32::from).collect();
        for engine in [&Utf8CleanRoom as &dyn Engine, &StdUtf8] {
            assert_eq!(engine.codec(), Codec::Utf8);
            assert!(!engine.capabilities().annotations);
            assert_eq!(engine.encode(&values, None).unwrap(), text.as_bytes());
            let decoded = engine.decode(text.as_bytes()).unwrap();
            assert_eq!(decoded.code_points, values);
            assert_eq!(decoded.flags, vec![false; values.len()]);
            assert!(matches!(
                engine.encode(&values, Some(&vec![false; values.len()])),
                Err(EngineError::Unsupported(_))
            ));
            assert_eq!(
                engine.decode(b"\xC0\x80"),
                Err(EngineError::Rejected(Some(ErrorKind::BadInput)))
            );
        }
        assert_eq!((Utf8CleanRoom.name(), StdUtf8.name()), ("cleanroom", "std"));
        assert!(matches!(
            StdUtf8.encode(&[0xD800], None),
            Err(EngineError::Unsupported(_))
        ));
        assert_eq!(
            Utf8CleanRoom.encode(&[0x8000_0000], None),
            Err(EngineError::Rejected(Some(ErrorKind::BadInput)))
        );
    }
}
