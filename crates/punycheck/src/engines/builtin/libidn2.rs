//! The system libidn2's Punycode coder, through `csrc/idn2_punycode_shim.c`.
//!
//! libidn2 (2.3.x) carries its own copy of the RFC's sample code, modified,
//! in `lib/puny_encode.c` and `lib/puny_decode.c`, exported only as the
//! compatibility symbols `_idn2_punycode_encode@IDN2_0.0.0` and
//! `_idn2_punycode_decode@IDN2_0.0.0`:
//!
//! ```c
//! int _idn2_punycode_encode (size_t input_length, const uint32_t input[],
//!                            size_t *output_length, char output[]);
//! int _idn2_punycode_decode (size_t input_length, const char input[],
//!                            size_t *output_length, uint32_t output[]);
//! ```
//!
//! returning `IDN2_OK` (0), `IDN2_PUNYCODE_BAD_INPUT` (-202),
//! `IDN2_PUNYCODE_BIG_OUTPUT` (-203) or `IDN2_PUNYCODE_OVERFLOW` (-204). The
//! shim binds those versioned symbols and exports them as
//! `punycheck_idn2_punycode_encode` and `punycheck_idn2_punycode_decode`;
//! this module is the only place that calls them.
//!
//! What the modifications change, compared with RFC 3492 Appendix C (read in
//! libidn2's sources, confirmed by the vectors and `tests/engines_sys.rs`):
//! - no annotations (no case flags either way);
//! - the encoder rejects, as bad input, a non-basic code point above
//!   U+10FFFF or in U+D800..U+DBFF (high surrogates; low surrogates pass);
//! - the decoder rejects, as bad input, empty input, a last delimiter that
//!   is the last byte (a first one is refused by RFC 3492 too), and any byte
//!   other than `A-Z a-z 0-9 - _` anywhere, before decoding; `_` after the
//!   last delimiter is read as digit value 0 (like `a`);
//! - the decoder rejects, as bad input, a decoded code point above U+10FFFF
//!   or in U+D800..U+DBFF.

use std::ffi::CStr;
use std::os::raw::{c_char, c_int};

use crate::engines::Deviation;
use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, EncodeResult, Engine, EngineError, ErrorDetail,
    PunycodeInput,
};
use crate::punycode::{self, CaseFlags, Decoded, ErrorKind, MAX_DELTA_DIGITS};
use crate::vocabulary::Expected;
use crate::vocabulary::Request;

// enum idn2_rc in <idn2.h>; the shim checks these values at compile time.
const IDN2_OK: c_int = 0;
const IDN2_PUNYCODE_BAD_INPUT: c_int = -202;
const IDN2_PUNYCODE_BIG_OUTPUT: c_int = -203;
const IDN2_PUNYCODE_OVERFLOW: c_int = -204;

unsafe extern "C" {
    fn punycheck_idn2_punycode_encode(
        input_length: usize,
        input: *const u32,
        output_length: *mut usize,
        output: *mut c_char,
    ) -> c_int;

    fn punycheck_idn2_punycode_decode(
        input_length: usize,
        input: *const c_char,
        output_length: *mut usize,
        output: *mut u32,
    ) -> c_int;

    fn punycheck_idn2_version() -> *const c_char;
}

/// The longest input, in code points, that libidn2's encoder takes: it
/// converts the `size_t` length to `uint32_t` and returns
/// `IDN2_PUNYCODE_OVERFLOW` beyond (puny_encode.c, "input_length_orig >
/// maxint").
pub const MAX_ENCODE_INPUT: usize = u32::MAX as usize;

/// The longest input, in bytes, that libidn2's decoder takes: it clamps the
/// output capacity to `uint32_t` (puny_decode.c, "max_out = *output_length >
/// maxint ? maxint : ..."), so a longer input could end in
/// `IDN2_PUNYCODE_BIG_OUTPUT` whatever the buffer.
pub const MAX_DECODE_INPUT: usize = u32::MAX as usize;

fn status(code: c_int) -> Result<(), EngineError> {
    match code {
        IDN2_OK => Ok(()),
        IDN2_PUNYCODE_BAD_INPUT => Err(EngineError::Rejected(Some(ErrorKind::BadInput))),
        IDN2_PUNYCODE_OVERFLOW => Err(EngineError::Rejected(Some(ErrorKind::Overflow))),
        IDN2_PUNYCODE_BIG_OUTPUT => Err(EngineError::Broken(
            "IDN2_PUNYCODE_BIG_OUTPUT although the buffer was sized for the worst case".into(),
        )),
        other => Err(EngineError::Broken(format!(
            "returned {other}, not a Punycode status of idn2_rc"
        ))),
    }
}

/// Encodes with libidn2's `_idn2_punycode_encode`.
pub fn encode(input: &[u32]) -> Result<Vec<u8>, EngineError> {
    if input.len() > MAX_ENCODE_INPUT {
        return Err(EngineError::Unsupported(format!(
            "{} code points exceed its limit of {MAX_ENCODE_INPUT}",
            input.len()
        )));
    }
    // Basic code points take one byte each, plus the delimiter; every other
    // code point takes at most MAX_DELTA_DIGITS digits. One spare byte.
    let capacity = input
        .len()
        .checked_mul(MAX_DELTA_DIGITS as usize)
        .and_then(|n| n.checked_add(2))
        .ok_or_else(|| EngineError::Unsupported("output buffer size overflows usize".into()))?;
    let mut output = vec![0u8; capacity];
    let mut output_length = capacity;
    // A real one-element array stands in for an empty input, so that no
    // dangling pointer reaches C even with a zero length.
    let spare = [0u32; 1];
    let input_ptr = if input.is_empty() {
        spare.as_ptr()
    } else {
        input.as_ptr()
    };
    // SAFETY: `input_ptr` points to `input.len()` readable u32s (or to
    // `spare` when the length is 0); `output` has `output_length` writable
    // bytes, and _idn2_punycode_encode checks `out` against that bound
    // (*output_length) before every store. All pointers outlive the call and
    // libidn2 keeps none of them.
    let code = unsafe {
        punycheck_idn2_punycode_encode(
            input.len(),
            input_ptr,
            &mut output_length,
            output.as_mut_ptr().cast::<c_char>(),
        )
    };
    status(code)?;
    if output_length > capacity {
        return Err(EngineError::Broken(format!(
            "reported {output_length} bytes written into a buffer of {capacity}"
        )));
    }
    output.truncate(output_length);
    if !output.is_ascii() {
        return Err(EngineError::Broken("wrote a non-ASCII byte".into()));
    }
    Ok(output)
}

/// Decodes with libidn2's `_idn2_punycode_decode`. The code points come with
/// all flags `false`: libidn2 has no annotations.
pub fn decode(input: &[u8]) -> Result<Decoded, EngineError> {
    if input.len() > MAX_DECODE_INPUT {
        return Err(EngineError::Unsupported(format!(
            "{} bytes exceed its limit of {MAX_DECODE_INPUT}",
            input.len()
        )));
    }
    // The decoder outputs at most one code point per input byte (and fewer
    // than input.len() whenever it succeeds); one spare element also keeps
    // the output pointer valid for an empty input.
    let capacity = input.len() + 1;
    let mut output = vec![0u32; capacity];
    let mut output_length = capacity;
    let spare = [0u8; 1];
    let input_ptr = if input.is_empty() {
        spare.as_ptr()
    } else {
        input.as_ptr()
    };
    // SAFETY: `input_ptr` points to `input.len()` readable bytes (or to
    // `spare` when the length is 0); `output` has room for `output_length`
    // u32s, and _idn2_punycode_decode checks against that bound before the
    // basic copy ("b >= max_out") and before every insertion ("out >=
    // max_out"), its memmove staying below `out + 1`. All pointers outlive
    // the call and libidn2 keeps none of them.
    let code = unsafe {
        punycheck_idn2_punycode_decode(
            input.len(),
            input_ptr.cast::<c_char>(),
            &mut output_length,
            output.as_mut_ptr(),
        )
    };
    status(code)?;
    if output_length > capacity {
        return Err(EngineError::Broken(format!(
            "reported {output_length} code points written into a buffer of {capacity}"
        )));
    }
    output.truncate(output_length);
    Ok(Decoded {
        flags: CaseFlags::unset(output.len()),
        code_points: output,
    })
}

/// The system libidn2's Punycode (`_idn2_punycode_encode`/`_decode`),
/// selected as `libidn2`.
///
/// It takes 32-bit code points (`uint32_t`) and reports which of the RFC's
/// statuses it hit, but has no annotations; the module documentation lists
/// where it departs from RFC 3492 Appendix C.
#[derive(Clone, Copy, Debug, Default)]
pub struct Libidn2;

fn bad_input(got: &Result<Expected, EngineError>) -> bool {
    matches!(got, Ok(Expected::Error(ErrorKind::BadInput)))
}

/// What libidn2 refuses as a code point: above U+10FFFF, or a high surrogate.
fn refused_code_point(cp: u32) -> bool {
    cp > 0x10_FFFF || (0xD800..=0xDBFF).contains(&cp)
}

fn decode_input(request: &Request) -> Option<&[u8]> {
    match request {
        Request::Decode(bytes) => Some(bytes),
        Request::Encode { .. } => None,
    }
}

/// `_` after the last delimiter, read as digit value 0 (`a`): what libidn2
/// answers is what the reference answers with every such `_` made an `a`.
fn underscore_as_a(request: &Request, got: &Result<Expected, EngineError>) -> bool {
    let Some(bytes) = decode_input(request) else {
        return false;
    };
    let literal = bytes.iter().rposition(|&c| c == b'-').map_or(0, |p| p + 1);
    if !bytes[literal..].contains(&b'_') {
        return false;
    }
    let mut replaced = bytes.to_vec();
    replaced[literal..]
        .iter_mut()
        .filter(|c| **c == b'_')
        .for_each(|c| *c = b'a');
    match (crate::c_reference::answer(&Request::Decode(replaced)), got) {
        (Some(Expected::Decoded(want)), Ok(Expected::Decoded(answer))) => {
            want.values == answer.values
        }
        (Some(Expected::Error(want)), Ok(Expected::Error(answer))) => want == *answer,
        _ => false,
    }
}

/// libidn2 2.3.3's departures from RFC 3492, read in its `lib/puny_decode.c`
/// and `lib/puny_encode.c` and confirmed by the vectors listed in
/// `vectors/expectations.toml`.
pub const DEVIATIONS: &[Deviation] = &[
    Deviation {
        id: "empty",
        reason: "refuses empty Punycode as bad input (puny_decode.c: 'if (!input_length) return punycode_bad_input'); RFC 3492 decodes it to nothing",
        explains: |request, _, got| {
            decode_input(request).is_some_and(<[u8]>::is_empty) && bad_input(got)
        },
    },
    Deviation {
        id: "trailing-delimiter",
        reason: "refuses Punycode whose last delimiter is its last byte as bad input (puny_decode.c: 'b == input_length - 1'); RFC 3492 copies the literal part and stops",
        explains: |request, _, got| {
            decode_input(request).is_some_and(|b| b.len() > 1 && b.last() == Some(&b'-'))
                && bad_input(got)
        },
    },
    Deviation {
        id: "ldh-only",
        reason: "refuses every byte other than A-Z a-z 0-9 - _ anywhere in Punycode as bad input, before decoding (puny_decode.c redefines basic()); RFC 3492 copies any basic code point of the literal part",
        explains: |request, _, got| {
            decode_input(request).is_some_and(|b| {
                b.iter()
                    .any(|&c| !(c.is_ascii_alphanumeric() || c == b'-' || c == b'_'))
            }) && bad_input(got)
        },
    },
    Deviation {
        id: "unicode-range",
        reason: "refuses code points above U+10FFFF and high surrogates U+D800..U+DBFF as bad input, when encoding (in its first pass, before any delta) and when decoding (as soon as one is decoded); RFC 3492 takes any 32-bit value",
        explains: |request, _, got| {
            let refused = match request {
                Request::Encode { code_points, .. } => {
                    code_points.iter().any(|&cp| refused_code_point(cp))
                }
                Request::Decode(bytes) => punycode::decode_inserted(bytes)
                    .1
                    .into_iter()
                    .any(refused_code_point),
            };
            refused && bad_input(got)
        },
    },
    Deviation {
        id: "underscore-digit",
        reason: "BUG: reads '_' after the last delimiter as digit value 0, like 'a' (puny_decode.c: basic() admits '_' and decode_digit() returns 0 for it), so it accepts strings RFC 3492 rejects and two different strings (ab-c_d, ab-cad) decode to the same code points",
        explains: |request, _, got| underscore_as_a(request, got),
    },
];

impl Libidn2 {
    /// The version of the libidn2 loaded at run time (`idn2_check_version(NULL)`).
    pub fn library_version() -> String {
        // SAFETY: idn2_check_version(NULL) returns a pointer to libidn2's static,
        // NUL-terminated version string (never NULL when the argument is NULL);
        // it is only read here and copied before returning.
        unsafe {
            let version = punycheck_idn2_version();
            if version.is_null() {
                return String::new();
            }
            CStr::from_ptr(version).to_string_lossy().into_owned()
        }
    }
}

impl Engine for Libidn2 {
    fn name(&self) -> &str {
        "libidn2"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            // uint32_t in both directions: it is called with every value and
            // answers for each (refusing some as bad input, which the
            // expectations list as deviations).
            domain: CodePointDomain::U32,
            annotations: false,
            // Distinct statuses for bad input, big output and overflow.
            errors: ErrorDetail::Kinds,
            // A (pointer, length) pair of chars: any bytes.
            punycode_input: PunycodeInput::Bytes,
            max_encode_input: Some(MAX_ENCODE_INPUT),
            max_decode_input: Some(MAX_DECODE_INPUT),
            bound_answers: Default::default(),
            directions: crate::engines::Directions::Both,
            deviations: DEVIATIONS,
            unicode_version: None,
            verdict_only: false,
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        if case_flags.is_some() {
            return Err(EngineError::Unsupported("no annotation support".into()));
        }
        encode(input)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        decode(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_is_reported() {
        let version = Libidn2::library_version();
        assert!(
            version.chars().next().is_some_and(|c| c.is_ascii_digit()),
            "{version:?}"
        );
    }
}
