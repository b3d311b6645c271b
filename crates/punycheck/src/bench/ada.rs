//! ada-url's Punycode, the one inside Node.js's URL parser, as a peer of the
//! benchmark ([`super::Builtin::Ada`]): `ada::idna::utf32_to_punycode` and
//! `ada::idna::punycode_to_utf32`, compiled by the `ada-url` crate from the
//! `ada.cpp` it bundles and reached through our shim
//! `csrc/ada_punycode_shim.cpp` (cargo feature `ada`, on by default). All
//! of the ada glue is this file, the shim and its lines in `build.rs`.
//!
//! # Its domain
//!
//! From ada's source (`src/punycode.cpp` in the bundled `ada.cpp`), which
//! follows the WHATWG URL standard rather than RFC 3492 alone:
//!
//! - it encodes Unicode scalar values only, refusing code points above
//!   U+10FFFF and surrogates;
//! - its integers are `int32_t`: a delta or code point past 2^31 - 1 is an
//!   overflow where RFC 3492's 32-bit unsigned integers go on to 2^32 - 1;
//! - it decodes lowercase digits only (`A`-`Z` are not digits to it), which
//!   is what encoders produce without case flags; it has no case flags;
//! - it refuses a decoding that begins with `xn--` (WHATWG URL issue 803),
//!   accepts a leading delimiter before the digits (`-a`), and does not
//!   refuse decoded code points above U+10FFFF or surrogates;
//! - it says only "failed", never why; it has no length limit.
//!
//! None of these matters on the benchmark's inputs (Unicode scalar values,
//! lowercase encodings, deltas below 2^31: see `inputs.rs`), and the
//! self-check holds it to the reference's answers on every one of them. A
//! code point that is not a Unicode scalar value is not passed to it
//! ([`EngineError::Unsupported`], as for the `idna` crate).
//!
//! # How it is timed
//!
//! At its best: the shim keeps one output string per thread and direction,
//! so that after the first call ada allocates nothing; the answer is copied
//! into a `Vec`, the one allocation the clean-room code makes too. ada's
//! encoder scans the whole input once per distinct code point (quadratic on
//! many distinct code points), and its decoder inserts into the middle of
//! its output, as RFC 3492 section 6 reads literally.

// Links the static library `ada` that the crate's build script compiles;
// nothing of the crate's Rust API is used.
use ada_url as _;

use crate::engines::EngineError;

unsafe extern "C" {
    fn punycheck_ada_encode(
        code_points: *const u32,
        length: usize,
        out: *mut *const u8,
        out_length: *mut usize,
    ) -> i32;
    fn punycheck_ada_decode(
        punycode: *const u8,
        length: usize,
        out: *mut *const u32,
        out_length: *mut usize,
    ) -> i32;
}

/// The shim's answer: 1 success, 0 refused, -1 threw.
fn status(code: i32) -> Result<(), EngineError> {
    match code {
        1 => Ok(()),
        0 => Err(EngineError::Rejected(None)),
        -1 => Err(EngineError::Broken("ada threw (out of memory)".into())),
        other => Err(EngineError::Broken(format!("the shim returned {other}"))),
    }
}

/// Encodes `code_points` (Unicode scalar values, see the module doc).
pub(super) fn encode(code_points: &[u32]) -> Result<Vec<u8>, EngineError> {
    if let Some(&cp) = code_points.iter().find(|&&cp| char::from_u32(cp).is_none()) {
        return Err(EngineError::Unsupported(format!(
            "U+{cp:04X} is not a Unicode scalar value"
        )));
    }
    let mut out: *const u8 = std::ptr::null();
    let mut out_length = 0usize;
    // SAFETY: the input is `code_points.len()` readable `u32`s; on success
    // the shim points `out` at `out_length` bytes of its thread-local string,
    // which stay valid until this thread's next call into the shim, and are
    // copied before that.
    let code = unsafe {
        punycheck_ada_encode(
            code_points.as_ptr(),
            code_points.len(),
            &mut out,
            &mut out_length,
        )
    };
    status(code)?;
    if out_length == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: see above; `out` is non-null and aligned for a non-empty string.
    Ok(unsafe { std::slice::from_raw_parts(out, out_length) }.to_vec())
}

/// Decodes `punycode`.
pub(super) fn decode(punycode: &[u8]) -> Result<Vec<u32>, EngineError> {
    let mut out: *const u32 = std::ptr::null();
    let mut out_length = 0usize;
    // SAFETY: as in `encode`, with `out_length` code points.
    let code = unsafe {
        punycheck_ada_decode(punycode.as_ptr(), punycode.len(), &mut out, &mut out_length)
    };
    status(code)?;
    if out_length == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: see above; `std::u32string`'s data is aligned for `char32_t`,
    // which has the size and alignment of `u32`.
    Ok(unsafe { std::slice::from_raw_parts(out, out_length) }.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_refusals() {
        // RFC 3492 7.1 (A), Arabic (Egyptian), without case flags.
        let arabic = [
            0x0644, 0x064A, 0x0647, 0x0645, 0x0627, 0x0628, 0x062A, 0x0643, 0x0644, 0x0645, 0x0648,
            0x0634, 0x0639, 0x0631, 0x0628, 0x064A, 0x061F,
        ];
        assert_eq!(
            encode(&arabic).as_deref(),
            Ok(&b"egbpdaj6bu4bxfgehfvwxn"[..])
        );
        assert_eq!(
            decode(b"egbpdaj6bu4bxfgehfvwxn").as_deref(),
            Ok(&arabic[..])
        );
        assert_eq!(encode(&[]).as_deref(), Ok(&b""[..]));
        assert_eq!(decode(b"").as_deref(), Ok(&[][..]));
        assert_eq!(encode(&[0x61, 0x62]).as_deref(), Ok(&b"ab-"[..]));
        assert!(matches!(
            encode(&[0xD800]),
            Err(EngineError::Unsupported(_))
        ));
        assert_eq!(decode(b"a!"), Err(EngineError::Rejected(None)));
        // Lowercase digits only: RFC 3492 reads `EGBPDAJ6BU4BXFGEHFVWXN` as (A).
        assert_eq!(
            decode(b"EGBPDAJ6BU4BXFGEHFVWXN"),
            Err(EngineError::Rejected(None))
        );
    }
}
