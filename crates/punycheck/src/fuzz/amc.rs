//! The oracles of the AMC-ACE-Z and Bootstring fuzz targets:
//!
//! - `amc_diff_c`: [`crate::bootstring`] with AMC-ACE-Z's parameters against
//!   the draft's own C code, on any code points and flags or any bytes: the
//!   same output, flags and error kind.
//! - `bootstring_punycode`: [`crate::bootstring`] with Punycode's parameters
//!   against [`crate::punycode`]: the same output and flags, and the same
//!   error down to its reason (or overflow check) and position.
//!
//! Both take the differential targets' [`super::FuzzRequest`].

use super::Outcome;
use crate::bootstring::Coder;
use crate::c_reference::{CError, amc_ace_z};
use crate::harness::compare::Request;
use crate::harness::vectors::{CodePoints, Expected};
use crate::punycode::{self, Decoded};

fn decoded(d: Decoded) -> Expected {
    Expected::Decoded(CodePoints::from(d))
}

/// The draft's C code's answer, or why it could not give one.
pub fn amc_c_answer(request: &Request) -> Result<Expected, CError> {
    let answer = match request {
        Request::Encode { code_points, flags } => {
            amc_ace_z::encode(code_points, flags.as_deref()).map(Expected::Encoded)
        }
        Request::Decode(bytes) => amc_ace_z::decode(bytes).map(decoded),
    };
    match answer {
        Err(CError::Status(kind)) => Ok(Expected::Error(kind)),
        other => other,
    }
}

/// [`Coder`]'s answer, errors reduced to their kind.
pub fn bootstring_answer(coder: &Coder, request: &Request) -> Expected {
    let answer = match request {
        Request::Encode { code_points, flags } => coder
            .encode(code_points, flags.as_deref())
            .map(Expected::Encoded),
        Request::Decode(bytes) => coder.decode(bytes).map(decoded),
    };
    answer.unwrap_or_else(|e| Expected::Error(e.kind()))
}

/// `amc_diff_c`: Bootstring with AMC-ACE-Z's parameters gives the draft's C
/// code's answer.
pub fn amc_diff_c(request: &Request) -> Outcome {
    let coder = Coder::amc_ace_z();
    amc_diff_c_of(request, |r| bootstring_answer(&coder, r))
}

/// [`amc_diff_c`] for any answering function (tests show it fails on a
/// wrong one).
pub fn amc_diff_c_of(request: &Request, answer: impl Fn(&Request) -> Expected) -> Outcome {
    let reference = match amc_c_answer(request) {
        Ok(reference) => reference,
        // Not a question the C interface can be asked (too long for its
        // unsigned lengths; flags of the wrong length): nothing to compare.
        Err(CError::TooLong { .. } | CError::FlagsLength) => return Ok(()),
        Err(e) => return Err(format!("{request}: the draft's C code failed: {e:?}")),
    };
    let mine = answer(request);
    if mine == reference {
        Ok(())
    } else {
        Err(format!(
            "{request}: draft C {reference:?}, bootstring {mine:?}"
        ))
    }
}

/// `bootstring_punycode`: Bootstring with Punycode's parameters gives
/// exactly [`crate::punycode`]'s answer, errors included.
pub fn bootstring_punycode(request: &Request) -> Outcome {
    let coder = Coder::punycode();
    let (mine, theirs) = match request {
        Request::Encode { code_points, flags } => (
            format!(
                "{:?}",
                coder
                    .encode(code_points, flags.as_deref())
                    .map_err(|e| e.to_punycode())
            ),
            format!(
                "{:?}",
                punycode::encode(code_points, flags.as_deref()).map_err(Some)
            ),
        ),
        Request::Decode(bytes) => (
            format!("{:?}", coder.decode(bytes).map_err(|e| e.to_punycode())),
            format!("{:?}", punycode::decode(bytes).map_err(Some)),
        ),
    };
    if mine == theirs {
        Ok(())
    } else {
        Err(format!("{request}: punycode {theirs}, bootstring {mine}"))
    }
}
