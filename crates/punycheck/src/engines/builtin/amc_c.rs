//! The AMC-ACE-Z draft's Appendix C, through the safe wrapper of
//! [`crate::c_reference::amc_ace_z`].

use crate::c_reference::CError;
use crate::c_reference::amc_ace_z::{self, MAX_DECODE_INPUT, MAX_ENCODE_INPUT};
use crate::codec::Codec;
use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, Deviation, EncodeResult, Engine, EngineError,
    ErrorDetail, PunycodeInput,
};
use crate::vocabulary::Expected;
use crate::vocabulary::Request;

/// The draft's own C code (draft-ietf-idn-amc-ace-z-01 Appendix C,
/// AMC-ACE-Z 0.3.1), selected as `amc-c`: the reference of the AMC-ACE-Z
/// codec. It neither adds nor expects a signature.
#[derive(Clone, Copy, Debug, Default)]
pub struct AmcC;

fn converted(error: CError) -> EngineError {
    super::rfc_c::c_sample_error(error, "amc_ace")
}

impl Engine for AmcC {
    fn name(&self) -> &str {
        "amc-c"
    }

    fn codec(&self) -> Codec {
        Codec::AmcAceZ
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            // amc_ace_z_uint in both directions: its section 5 limits
            // AMC-ACE-Z to Unicode scalar values, but the code takes and
            // returns any value, as the RFC's does.
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
        amc_ace_z::encode(input, case_flags).map_err(converted)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        amc_ace_z::decode(input).map_err(converted)
    }
}

/// The draft's C asked Punycode questions (`amc-c` in the Punycode matrix):
/// both documents give Bootstring the same parameters, so the harness can
/// compare the two C samples directly (`docs/c-samples.md`). Their one
/// behavioural difference is declared as a deviation.
#[derive(Clone, Copy, Debug, Default)]
pub struct AmcCAsPunycode;

/// The draft's sample copies basic code points literally whatever their
/// flags; RFC 3492's forces ASCII letters to the case of their flags.
static LITERAL_BASICS: Deviation = Deviation {
    id: "literal-basics",
    reason: "the AMC-ACE-Z draft encodes basic code points literally whatever their flags (its Appendix B, and the comment in its encode loop); RFC 3492 Appendix A lets the flags force the case of ASCII letters (docs/c-samples.md)",
    explains: literal_basics,
};

fn literal_basics(
    request: &Request,
    reference: &Expected,
    got: &Result<Expected, EngineError>,
) -> bool {
    let (
        Request::Encode {
            code_points,
            flags: Some(_),
        },
        Expected::Encoded(want),
        Ok(Expected::Encoded(answer)),
    ) = (request, reference, got)
    else {
        return false;
    };
    // The same string but for the literal portion, which holds the basic
    // code points exactly as given.
    let literal: Vec<u8> = code_points
        .iter()
        .filter_map(|&cp| u8::try_from(cp).ok().filter(u8::is_ascii))
        .collect();
    let n = literal.len();
    n > 0
        && answer.len() == want.len()
        && answer[..n] == literal[..]
        && answer[..n].eq_ignore_ascii_case(&want[..n])
        && answer[n..] == want[n..]
}

impl Engine for AmcCAsPunycode {
    fn name(&self) -> &str {
        "amc-c"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            directions: crate::engines::Directions::Both,
            deviations: std::slice::from_ref(&LITERAL_BASICS),
            unicode_version: None,
            ..AmcC.capabilities()
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        AmcC.encode(input, case_flags)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        AmcC.decode(input)
    }
}
