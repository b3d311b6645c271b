//! [`crate::bootstring`] as an engine, with either document's parameters.

use crate::bootstring::{Coder, Error};
use crate::codec::Codec;
use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, EncodeResult, Engine, EngineError, ErrorDetail,
    PunycodeInput,
};

/// punycheck's generic Bootstring ([`crate::bootstring`]), selected as
/// `bootstring`, in the codec its parameters implement: with Punycode's it
/// joins the Punycode matrix beside the RFC's C code and the clean-room
/// code; with AMC-ACE-Z's it is compared with the draft's C code (`amc-c`).
///
/// It declares no deviation: with each document's parameters it gives that
/// document's C code's answer to every question (tests/bootstring.rs,
/// tests/amc_ace_z.rs and the fuzz targets `bootstring_punycode` and
/// `amc_diff_c` check it). Where the two C samples differ from each other,
/// the difference is in the parameters ([`crate::bootstring::BasicCase`]),
/// not a departure from either sample; `docs/c-samples.md` lists them.
#[derive(Clone, Debug)]
pub struct Bootstring {
    coder: Coder,
    codec: Codec,
}

impl Bootstring {
    /// With Punycode's parameters ([`crate::bootstring::Params::PUNYCODE`]),
    /// codec Punycode.
    pub fn punycode() -> Self {
        Bootstring {
            coder: Coder::punycode(),
            codec: Codec::Punycode,
        }
    }

    /// With AMC-ACE-Z's parameters
    /// ([`crate::bootstring::Params::AMC_ACE_Z`]), codec AMC-ACE-Z, without
    /// signature (as the draft's C code and the vectors).
    pub fn amc_ace_z() -> Self {
        Bootstring {
            coder: Coder::amc_ace_z(),
            codec: Codec::AmcAceZ,
        }
    }

    /// Any checked parameter set, declared as implementing `codec`.
    pub fn new(coder: Coder, codec: Codec) -> Self {
        Bootstring { coder, codec }
    }

    /// The coder it runs.
    pub fn coder(&self) -> &Coder {
        &self.coder
    }
}

fn rejected(error: Error) -> EngineError {
    EngineError::Rejected(Some(error.kind()))
}

impl Engine for Bootstring {
    fn name(&self) -> &str {
        "bootstring"
    }

    fn codec(&self) -> Codec {
        self.codec
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            domain: CodePointDomain::U32,
            // Both documents' parameters have uppercase forms for every
            // final digit; other parameter sets may not.
            annotations: self.coder.supports_annotations(),
            errors: ErrorDetail::Kinds,
            punycode_input: PunycodeInput::Bytes,
            // Lengths must fit the documents' 32-bit integers.
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
        self.coder.encode(input, case_flags).map_err(rejected)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        self.coder.decode(input).map_err(rejected)
    }
}
