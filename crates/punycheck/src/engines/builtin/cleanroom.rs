//! The clean-room implementation of [`crate::punycode`].

use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, EncodeResult, Engine, EngineError, ErrorDetail,
    PunycodeInput,
};
use crate::punycode::{self, Error};

/// punycheck's own Punycode ([`crate::punycode`]), selected as `cleanroom`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CleanRoom;

fn rejected(error: Error) -> EngineError {
    EngineError::Rejected(Some(error.kind()))
}

impl Engine for CleanRoom {
    fn name(&self) -> &str {
        "cleanroom"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            domain: CodePointDomain::U32,
            annotations: true,
            errors: ErrorDetail::Kinds,
            punycode_input: PunycodeInput::Bytes,
            // Lengths must fit the RFC's 32-bit integers.
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
        punycode::encode(input, case_flags).map_err(rejected)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        punycode::decode(input).map_err(rejected)
    }
}
