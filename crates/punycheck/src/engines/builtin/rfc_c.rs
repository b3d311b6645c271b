//! RFC 3492 Appendix C, through the safe wrapper of [`crate::c_reference`].

use crate::c_reference::{self, CError, MAX_DECODE_INPUT, MAX_ENCODE_INPUT};
use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, EncodeResult, Engine, EngineError, ErrorDetail,
    PunycodeInput,
};
use crate::punycode::ErrorKind;

/// The RFC's own C code, selected as `rfc-c`: the reference every other
/// implementation is compared with.
#[derive(Clone, Copy, Debug, Default)]
pub struct RfcC;

/// What a C sample's failure means for the harness. Its buffers are sized
/// for the worst case, so `big_output` is a defect; `prefix` is the one of
/// the sample's status names (`punycode`, `amc_ace`), for messages.
pub(super) fn c_sample_error(error: CError, prefix: &str) -> EngineError {
    match error {
        CError::Status(ErrorKind::BigOutput) => EngineError::Broken(format!(
            "{prefix}_big_output although the buffer was sized for the worst case"
        )),
        CError::Status(kind) => EngineError::Rejected(Some(kind)),
        CError::TooLong { length, limit } => {
            EngineError::Unsupported(format!("{length} elements exceed its limit of {limit}"))
        }
        CError::FlagsLength => {
            EngineError::Unsupported("case flags and input differ in length".into())
        }
        CError::UnknownStatus(code) => {
            EngineError::Broken(format!("returned status {code}, not a {prefix}_status"))
        }
    }
}

fn converted(error: CError) -> EngineError {
    c_sample_error(error, "punycode")
}

impl Engine for RfcC {
    fn name(&self) -> &str {
        "rfc-c"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            domain: CodePointDomain::U32,
            annotations: true,
            errors: ErrorDetail::Kinds,
            punycode_input: PunycodeInput::Bytes,
            max_encode_input: Some(MAX_ENCODE_INPUT),
            max_decode_input: Some(MAX_DECODE_INPUT),
            bound_answers: Default::default(),
            directions: crate::engines::Directions::Both,
            deviations: &[],
            unicode_version: None,
            verdict_only: false,
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        c_reference::encode(input, case_flags).map_err(converted)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        c_reference::decode(input).map_err(converted)
    }
}
