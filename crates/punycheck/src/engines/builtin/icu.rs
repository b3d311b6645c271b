//! ICU's Punycode coder (libicuuc), through `csrc/icu_punycode_shim.c`.
//!
//! ICU implements Punycode for its IDNA code in `icu4c/source/common/
//! punycode.cpp`, declared in the internal header `punycode.h`:
//!
//! ```c
//! U_CFUNC int32_t u_strToPunycode(const UChar *src, int32_t srcLength,
//!     UChar *dest, int32_t destCapacity, const UBool *caseFlags,
//!     UErrorCode *pErrorCode);
//! U_CFUNC int32_t u_strFromPunycode(const UChar *src, int32_t srcLength,
//!     UChar *dest, int32_t destCapacity, UBool *caseFlags,
//!     UErrorCode *pErrorCode);
//! ```
//!
//! Both work in UTF-16, with one `UBool` case flag per UTF-16 code unit (for
//! a supplementary code point the lead surrogate's flag counts and the trail's
//! is ignored on input, `false` on output). Both return the output length and
//! report through `*pErrorCode` (a failure is a value > 0, a warning < 0). The
//! shim exports them as `punycheck_icu_to_punycode` and
//! `punycheck_icu_from_punycode`; this module is the only place that calls
//! them.
//!
//! Error codes (punycode.cpp, ICU 72):
//! - `u_strToPunycode`: `U_INPUT_TOO_LONG_ERROR` beyond 1000 UTF-16 code
//!   units (ICU-13727), `U_INVALID_CHAR_FOUND` for an unpaired surrogate,
//!   `U_INTERNAL_PROGRAM_ERROR` when the delta would exceed 0x7FFFFFFF,
//!   `U_BUFFER_OVERFLOW_ERROR` when `dest` is too small;
//! - `u_strFromPunycode`: `U_INPUT_TOO_LONG_ERROR` beyond 2000 code units,
//!   `U_INVALID_CHAR_FOUND` for a non-ASCII unit before the last delimiter or
//!   a unit that is not a digit (`a-z A-Z 0-9`) after it,
//!   `U_ILLEGAL_CHAR_FOUND` for input ending inside a delta, for every integer
//!   overflow (its integers are `int32_t`, so it overflows past 0x7FFFFFFF)
//!   and for a decoded code point above U+10FFFF or in U+D800..U+DFFF,
//!   `U_BUFFER_OVERFLOW_ERROR` when `dest` is too small.
//!
//! `U_ILLEGAL_CHAR_FOUND` stands for bad input and overflow alike, so the
//! engine declares [`ErrorDetail::FailureOnly`]; the codes that do name a
//! status are still passed on with it.

use std::ffi::CStr;
use std::os::raw::{c_char, c_int};

use crate::engines::Deviation;
use crate::engines::{
    Capabilities, CodePointDomain, DecodeResult, EncodeResult, Engine, EngineError, ErrorDetail,
    PunycodeInput,
};
use crate::punycode::{self, Decoded, ErrorKind, MAX_DELTA_DIGITS};
use crate::vocabulary::Expected;
use crate::vocabulary::Request;

/// ICU 72's departure from RFC 3492, read in `icu4c/source/common/punycode.cpp`
/// and shown by the vector `edge-decode-i-above-2-31`.
pub const DEVIATIONS: &[Deviation] = &[Deviation {
    id: "int32",
    reason: "BUG: decodes with int32_t arithmetic (punycode.cpp: 'if(digit>(0x7fffffff-i)/w)' and the like), so it refuses valid Punycode under its own 2000-character limit whose running index i passes 2^31 - 1, e.g. U+10FFFF before 1927 basic code points; RFC 3492 section 6.4 needs only that the integers hold the values that occur, and 32-bit unsigned ones do",
    explains: |request, _, got| {
        let Request::Decode(bytes) = request else {
            return false;
        };
        let failed = matches!(got, Ok(Expected::Error(_)) | Err(EngineError::Rejected(_)));
        failed
            && punycode::decode_traced(bytes)
                .1
                .iter()
                .any(|step| step.i_before_wrap > i32::MAX as u32)
    },
}];

// UErrorCode values in <unicode/utypes.h>; the shim checks them at compile
// time.
const U_INTERNAL_PROGRAM_ERROR: c_int = 5;
const U_INDEX_OUTOFBOUNDS_ERROR: c_int = 8;
const U_INVALID_CHAR_FOUND: c_int = 10;
const U_ILLEGAL_CHAR_FOUND: c_int = 12;
const U_INPUT_TOO_LONG_ERROR: c_int = 31;

unsafe extern "C" {
    fn punycheck_icu_to_punycode(
        src: *const u16,
        src_length: i32,
        dest: *mut u16,
        dest_capacity: i32,
        case_flags: *const i8,
        error_code: *mut c_int,
    ) -> i32;

    fn punycheck_icu_from_punycode(
        src: *const u16,
        src_length: i32,
        dest: *mut u16,
        dest_capacity: i32,
        case_flags: *mut i8,
        error_code: *mut c_int,
    ) -> i32;

    fn punycheck_icu_error_name(error_code: c_int) -> *const c_char;

    fn punycheck_icu_version(buffer: *mut c_char, capacity: i32);
}

/// The longest input `u_strToPunycode` takes, in UTF-16 code units
/// (`ENCODE_MAX_CODE_UNITS` in punycode.cpp, ICU-13727): 1000 code points
/// when all are in the BMP, fewer with supplementary ones.
pub const MAX_ENCODE_UNITS: usize = 1000;

/// The longest input `u_strFromPunycode` takes, in code units, that is bytes
/// here (`DECODE_MAX_CHARS` in punycode.cpp, ICU-13727).
pub const MAX_DECODE_INPUT: usize = 2000;

/// ICU's name for an error code (`U_INVALID_CHAR_FOUND`, ...).
pub fn error_name(code: i32) -> String {
    // SAFETY: u_errorName returns a pointer to a static NUL-terminated string
    // for every value ("[BOGUS UErrorCode]" for unknown ones); it is copied
    // before returning.
    unsafe {
        let name = punycheck_icu_error_name(code);
        if name.is_null() {
            return format!("UErrorCode {code}");
        }
        CStr::from_ptr(name).to_string_lossy().into_owned()
    }
}

fn failure(code: c_int, encoding: bool) -> EngineError {
    let name = error_name(code);
    match code {
        U_INVALID_CHAR_FOUND => EngineError::Rejected(Some(ErrorKind::BadInput)),
        U_ILLEGAL_CHAR_FOUND if !encoding => EngineError::Rejected(None),
        U_INTERNAL_PROGRAM_ERROR if encoding => EngineError::Rejected(Some(ErrorKind::Overflow)),
        // U_INDEX_OUTOFBOUNDS_ERROR is how ICU before ICU-13727 said "too many
        // code points".
        U_INPUT_TOO_LONG_ERROR | U_INDEX_OUTOFBOUNDS_ERROR => EngineError::Limit(format!(
            "{name}: more than {} code units",
            if encoding {
                MAX_ENCODE_UNITS
            } else {
                MAX_DECODE_INPUT
            }
        )),
        _ => EngineError::Broken(format!(
            "returned {name} although the arguments were valid and the buffer was sized for the worst case"
        )),
    }
}

/// Converts a length that is known to be small to `int32_t`, or says it does
/// not fit.
fn int32(length: usize) -> Result<i32, EngineError> {
    i32::try_from(length)
        .map_err(|_| EngineError::Limit(format!("{length} does not fit its int32_t lengths")))
}

/// Encodes with `u_strToPunycode`; `case_flags` (one per code point) as in
/// [`crate::punycode::encode`]. Code points must be Unicode scalar values.
pub fn encode(input: &[u32], case_flags: Option<&[bool]>) -> Result<Vec<u8>, EngineError> {
    if case_flags.is_some_and(|flags| flags.len() != input.len()) {
        return Err(EngineError::Unsupported(
            "case flags and input differ in length".into(),
        ));
    }
    let mut units: Vec<u16> = Vec::with_capacity(input.len() + 1);
    let mut unit_flags: Vec<i8> = Vec::with_capacity(input.len() + 1);
    for (j, &cp) in input.iter().enumerate() {
        let c = char::from_u32(cp).ok_or_else(|| {
            EngineError::Unsupported(format!("U+{cp:04X} is not a Unicode scalar value"))
        })?;
        let flag = case_flags.is_some_and(|f| f[j]);
        let mut pair = [0u16; 2];
        let encoded = c.encode_utf16(&mut pair);
        // The lead surrogate's flag counts; the trail's is ignored.
        for (k, &unit) in encoded.iter().enumerate() {
            units.push(unit);
            unit_flags.push(i8::from(flag && k == 0));
        }
    }
    let src_length = int32(units.len())?;
    // Basic code points take one unit, plus the delimiter; every other code
    // point takes at most MAX_DELTA_DIGITS digits; one unit for the NUL.
    let capacity = input
        .len()
        .checked_mul(MAX_DELTA_DIGITS as usize)
        .and_then(|n| n.checked_add(2))
        .ok_or_else(|| EngineError::Limit("output buffer size overflows usize".into()))?;
    let dest_capacity = int32(capacity)?;
    let mut dest = vec![0u16; capacity];
    // Real buffers even for an empty input: ICU refuses a null `src`.
    units.push(0);
    unit_flags.push(0);
    let mut error_code: c_int = 0;
    // SAFETY: `units` holds `src_length` (+1) readable UTF-16 units and
    // `unit_flags`, when passed, exactly as many UBools; `dest` has
    // `dest_capacity` writable units, and u_strToPunycode only stores below
    // destCapacity (it preflights the rest). `error_code` is a valid int.
    // All pointers outlive the call and ICU keeps none of them.
    let length = unsafe {
        punycheck_icu_to_punycode(
            units.as_ptr(),
            src_length,
            dest.as_mut_ptr(),
            dest_capacity,
            if case_flags.is_some() {
                unit_flags.as_ptr()
            } else {
                std::ptr::null()
            },
            &mut error_code,
        )
    };
    if error_code > 0 {
        return Err(failure(error_code, true));
    }
    let length = returned_length(length, capacity)?;
    dest.truncate(length);
    dest.into_iter()
        .map(|unit| u8::try_from(unit).ok().filter(u8::is_ascii))
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(|| EngineError::Broken("wrote a non-ASCII code unit".into()))
}

/// Checks the length ICU returned against the buffer it was given.
fn returned_length(length: i32, capacity: usize) -> Result<usize, EngineError> {
    usize::try_from(length)
        .ok()
        .filter(|&l| l <= capacity)
        .ok_or_else(|| {
            EngineError::Broken(format!(
                "returned length {length} for a buffer of {capacity}"
            ))
        })
}

/// Decodes with `u_strFromPunycode`. Each byte is passed as the UTF-16 code
/// unit of the same value, so a byte >= 0x80 is a non-ASCII unit, which ICU
/// treats as non-basic exactly as RFC 3492 treats that byte; surrogate pairs
/// in the result are joined into code points, each with its lead's flag.
pub fn decode(input: &[u8]) -> Result<Decoded, EngineError> {
    let src_length = int32(input.len())?;
    // A supplementary code point takes two units for at least one byte.
    let capacity = input
        .len()
        .checked_mul(2)
        .and_then(|n| n.checked_add(1))
        .ok_or_else(|| EngineError::Limit("output buffer size overflows usize".into()))?;
    let dest_capacity = int32(capacity)?;
    let mut units: Vec<u16> = Vec::with_capacity(input.len() + 1);
    units.extend(input.iter().map(|&b| u16::from(b)));
    // A real buffer even for an empty input: ICU refuses a null `src`.
    units.push(0);
    let mut dest = vec![0u16; capacity];
    let mut flags = vec![0i8; capacity];
    let mut error_code: c_int = 0;
    // SAFETY: `units` holds `src_length` (+1) readable units; `dest` and
    // `flags` each have `dest_capacity` writable elements, and
    // u_strFromPunycode stores and moves units and flags only below
    // destCapacity (it preflights the rest). `error_code` is a valid int.
    // All pointers outlive the call and ICU keeps none of them.
    let length = unsafe {
        punycheck_icu_from_punycode(
            units.as_ptr(),
            src_length,
            dest.as_mut_ptr(),
            dest_capacity,
            flags.as_mut_ptr(),
            &mut error_code,
        )
    };
    if error_code > 0 {
        return Err(failure(error_code, false));
    }
    let length = returned_length(length, capacity)?;
    let mut decoded = Decoded::default();
    let mut j = 0;
    while j < length {
        let unit = dest[j];
        let cp = match unit {
            0xD800..=0xDBFF if j + 1 < length && (0xDC00..=0xDFFF).contains(&dest[j + 1]) => {
                let trail = dest[j + 1];
                0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(trail) - 0xDC00)
            }
            0xD800..=0xDFFF => {
                return Err(EngineError::Broken(format!(
                    "returned an unpaired surrogate {unit:04X} at unit {j}"
                )));
            }
            _ => u32::from(unit),
        };
        decoded.code_points.push(cp);
        decoded.flags.push(flags[j] != 0);
        j += if cp > 0xFFFF { 2 } else { 1 };
    }
    Ok(decoded)
}

/// ICU's Punycode (`u_strToPunycode`/`u_strFromPunycode` in libicuuc),
/// selected as `icu`.
///
/// It works in UTF-16, so its domain is Unicode scalar values; it has
/// Appendix A case flags both ways; its error codes do not always say which
/// status it hit; it has fixed length limits (1000 UTF-16 code units to
/// encode, 2000 to decode).
#[derive(Clone, Copy, Debug, Default)]
pub struct Icu;

impl Icu {
    /// The version of the ICU loaded at run time (`u_getVersion`), such as "72.1".
    pub fn library_version() -> String {
        let mut buffer = [0 as c_char; 32];
        // SAFETY: the shim writes at most `capacity` bytes into `buffer`,
        // NUL-terminated, and keeps no pointer.
        unsafe {
            punycheck_icu_version(buffer.as_mut_ptr(), buffer.len() as i32);
            CStr::from_ptr(buffer.as_ptr())
                .to_string_lossy()
                .into_owned()
        }
    }
}

impl Engine for Icu {
    fn name(&self) -> &str {
        "icu"
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name_limits: crate::engines::NameLimits::NONE,
            // UTF-16 cannot carry surrogate code points or values above
            // U+10FFFF, and the decoder refuses to produce them.
            domain: CodePointDomain::UnicodeScalar,
            // caseFlags: one flag per code point both ways, with the
            // semantics of RFC 3492 Appendix A (basic code points are cased
            // by the flag, the last digit of a delta is uppercase for a
            // flagged code point, and decoding reports the case it read).
            annotations: true,
            // U_ILLEGAL_CHAR_FOUND covers bad input and overflow alike.
            errors: ErrorDetail::FailureOnly,
            // Bytes are widened to UTF-16 units of the same value.
            punycode_input: PunycodeInput::Bytes,
            // 1000 UTF-16 code units: 1000 BMP code points; an input of fewer
            // code points but more units gets EngineError::Limit from ICU.
            max_encode_input: Some(MAX_ENCODE_UNITS),
            max_decode_input: Some(MAX_DECODE_INPUT),
            bound_answers: Default::default(),
            directions: crate::engines::Directions::Both,
            deviations: DEVIATIONS,
            unicode_version: None,
            verdict_only: false,
        }
    }

    fn encode(&self, input: &[u32], case_flags: Option<&[bool]>) -> EncodeResult {
        encode(input, case_flags)
    }

    fn decode(&self, input: &[u8]) -> DecodeResult {
        decode(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_names_come_from_icu() {
        assert_eq!(error_name(U_INVALID_CHAR_FOUND), "U_INVALID_CHAR_FOUND");
        assert_eq!(error_name(U_ILLEGAL_CHAR_FOUND), "U_ILLEGAL_CHAR_FOUND");
        assert_eq!(error_name(U_INPUT_TOO_LONG_ERROR), "U_INPUT_TOO_LONG_ERROR");
    }

    #[test]
    fn version_is_reported() {
        let version = Icu::library_version();
        assert!(
            version.chars().next().is_some_and(|c| c.is_ascii_digit()),
            "{version:?}"
        );
    }
}
