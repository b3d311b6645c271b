//! The `idna` crate's `idna::punycode` module.

use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, EncodeResult, Engine, EngineError, ErrorDetail,
    PunycodeInput,
};
use crate::punycode::{CaseFlags, Decoded};

/// `idna::punycode` from the `idna` crate (rust-url), selected as `idna`.
///
/// It works on `char`s, so its domain is Unicode scalar values; it has no
/// annotations; every failure is `None`; it decodes from `&str`. Its ASCII
/// output keeps the case of basic code points, so annotation flags of basic
/// code points can still be derived by the harness from their case.
#[derive(Clone, Copy, Debug, Default)]
pub struct Idna;

impl Engine for Idna {
    fn name(&self) -> &str {
        "idna"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            domain: CodePointDomain::UnicodeScalar,
            annotations: false,
            errors: ErrorDetail::FailureOnly,
            punycode_input: PunycodeInput::Utf8,
            // encode() and decode() refuse more than u32::MAX elements.
            max_encode_input: Some(u32::MAX as usize),
            max_decode_input: Some(u32::MAX as usize),
            bound_answers: Default::default(),
            directions: crate::engines::Directions::Both,
            deviations: &[],
            unicode_version: None,
            verdict_only: false,
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        if case_flags.is_some() {
            return Err(EngineError::Unsupported("no annotation support".into()));
        }
        let chars = input
            .iter()
            .map(|&cp| char::from_u32(cp))
            .collect::<Option<Vec<char>>>()
            .ok_or_else(|| EngineError::Unsupported("not a Unicode scalar value".into()))?;
        match ::idna::punycode::encode(&chars) {
            Some(text) => Ok(text.into_bytes()),
            None => Err(EngineError::Rejected(None)),
        }
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        let text = std::str::from_utf8(input)
            .map_err(|_| EngineError::Unsupported("input is not UTF-8".into()))?;
        match ::idna::punycode::decode(text) {
            Some(chars) => {
                let code_points: Vec<u32> = chars.into_iter().map(u32::from).collect();
                Ok(Decoded {
                    flags: CaseFlags::unset(code_points.len()),
                    code_points,
                })
            }
            None => Err(EngineError::Rejected(None)),
        }
    }
}
