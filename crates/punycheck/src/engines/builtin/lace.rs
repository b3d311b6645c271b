//! The clean-room implementation of [`crate::lace`].

use crate::codec::Codec;
use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, EncodeResult, Engine, EngineError, ErrorDetail,
    PunycodeInput,
};
use crate::lace;
use crate::punycode::{CaseFlags, Decoded};

/// punycheck's own LACE ([`crate::lace`], strict decoding), selected as
/// `cleanroom` among the LACE implementations.
#[derive(Clone, Copy, Debug, Default)]
pub struct LaceCleanRoom;

fn rejected(error: lace::Error) -> EngineError {
    EngineError::Rejected(Some(error.kind()))
}

impl Engine for LaceCleanRoom {
    fn name(&self) -> &str {
        "cleanroom"
    }

    fn codec(&self) -> Codec {
        Codec::Lace
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            // LACE encodes UTF-16 (draft section 2.2): surrogate code points
            // and values above U+10FFFF are refused with bad_input, never
            // encoded. It takes any value and answers, so as this codec's
            // reference it is asked them all.
            domain: CodePointDomain::U32,
            annotations: false,
            errors: ErrorDetail::Kinds,
            punycode_input: PunycodeInput::Bytes,
            // No limit of its own: the 36-octet limit is LACE's (big_output).
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
        if case_flags.is_some() {
            return Err(EngineError::Unsupported(
                "LACE has no case annotations".into(),
            ));
        }
        lace::encode(input).map_err(rejected)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        let code_points = lace::decode(input).map_err(rejected)?;
        Ok(Decoded {
            flags: CaseFlags::unset(code_points.len()),
            code_points,
        })
    }
}
