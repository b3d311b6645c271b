//! Safe wrappers around the C samples: RFC 3492 Appendix C, compiled from
//! `csrc/punycode.c` (this module), and draft-ietf-idn-amc-ace-z-01
//! Appendix C, compiled from `csrc/amc_ace_z.c` ([`amc_ace_z`]).
//!
//! `build.rs` compiles the C file exactly as published, with `punycode_encode`
//! and `punycode_decode` renamed `punycheck_rfc3492_encode` and
//! `punycheck_rfc3492_decode`. This module is the only place that calls them.
//!
//! Output buffers are sized so that `punycode_big_output` never happens for a
//! legitimate input: the decoder never outputs more code points than it reads
//! bytes (Appendix C says so), and the encoder never outputs more than
//! [`crate::punycode::MAX_DELTA_DIGITS`] digits per code point plus a
//! delimiter. If the C code reports `big_output` anyway, the wrapper passes
//! it on as [`ErrorKind::BigOutput`] for the harness to report as a defect.

use std::os::raw::{c_char, c_int, c_uchar, c_uint};

pub mod amc_ace_z;
pub mod tokens;

use crate::punycode::{Decoded, ErrorKind, MAX_DELTA_DIGITS};
use crate::vocabulary::{CodePoints, Expected, Request};

// `punycode_uint` is `unsigned int` wherever UINT_MAX >= 2^26 - 1, which holds
// on every platform Rust supports with a C compiler here.
type PunycodeUint = c_uint;

// enum punycode_status, in declaration order (enum amc_ace_status has the
// same four in the same order).
const PUNYCODE_SUCCESS: c_int = 0;
const PUNYCODE_BAD_INPUT: c_int = 1;
const PUNYCODE_BIG_OUTPUT: c_int = 2;
const PUNYCODE_OVERFLOW: c_int = 3;

unsafe extern "C" {
    fn punycheck_rfc3492_encode(
        input_length: PunycodeUint,
        input: *const PunycodeUint,
        case_flags: *const c_uchar,
        output_length: *mut PunycodeUint,
        output: *mut c_char,
    ) -> c_int;

    fn punycheck_rfc3492_decode(
        input_length: PunycodeUint,
        input: *const c_char,
        output_length: *mut PunycodeUint,
        output: *mut PunycodeUint,
        case_flags: *mut c_uchar,
    ) -> c_int;

    /// The test wrapper's `main`, renamed by `build.rs`.
    fn punycheck_rfc3492_main(argc: c_int, argv: *mut *mut c_char) -> c_int;
}

/// Why the C reference gave no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CError {
    /// The C code returned this status.
    Status(ErrorKind),
    /// The input is too long for the C interface's `unsigned int` lengths
    /// once the output buffer is sized; the C code was not called.
    TooLong {
        /// The input's length.
        length: usize,
        /// The longest input this wrapper passes to the C code.
        limit: usize,
    },
    /// Encoding was given flags whose length differs from the input's; the C
    /// code was not called.
    FlagsLength,
    /// The C code returned a status outside `enum punycode_status`.
    UnknownStatus(i32),
}

/// The longest input, in code points, that [`encode`] passes to C: its
/// output buffer of `MAX_DELTA_DIGITS * length + 2` bytes must have a size
/// that fits in `unsigned int`.
pub const MAX_ENCODE_INPUT: usize = (u32::MAX as usize - 2) / MAX_DELTA_DIGITS as usize;

/// The longest input, in bytes, that [`decode`] passes to C.
pub const MAX_DECODE_INPUT: usize = u32::MAX as usize;

/// The program `build.rs` compiles from `csrc/punycode.c` as it stands,
/// with Appendix C's own test wrapper as `main`: the command-line
/// convention that `exec:` implementations follow (`-e`, `-d`,
/// `u+XXXX`/`U+XXXX`), with the RFC's 256 code point limits.
pub const WRAPPER: &str = env!("PUNYCHECK_RFC3492_WRAPPER");

fn status(code: c_int) -> Result<(), CError> {
    match code {
        PUNYCODE_SUCCESS => Ok(()),
        PUNYCODE_BAD_INPUT => Err(CError::Status(ErrorKind::BadInput)),
        PUNYCODE_BIG_OUTPUT => Err(CError::Status(ErrorKind::BigOutput)),
        PUNYCODE_OVERFLOW => Err(CError::Status(ErrorKind::Overflow)),
        other => Err(CError::UnknownStatus(other)),
    }
}

/// The signature of `punycode_encode()` and of the draft's
/// `amc_ace_z_encode()`, which are the same.
type EncodeFn = unsafe extern "C" fn(
    PunycodeUint,
    *const PunycodeUint,
    *const c_uchar,
    *mut PunycodeUint,
    *mut c_char,
) -> c_int;

/// The signature of `punycode_decode()` and of the draft's
/// `amc_ace_z_decode()`, which are the same.
type DecodeFn = unsafe extern "C" fn(
    PunycodeUint,
    *const c_char,
    *mut PunycodeUint,
    *mut PunycodeUint,
    *mut c_uchar,
) -> c_int;

/// Calls a sample's encoder with buffers sized for the worst case.
///
/// # Safety
///
/// `encoder` must honour `punycode_encode()`'s contract: read `input_length`
/// code points (and as many flags when the flag pointer is not null), store
/// only below `*output_length` and keep no pointer after returning.
unsafe fn encode_with(
    encoder: EncodeFn,
    input: &[u32],
    case_flags: Option<&[bool]>,
) -> Result<Vec<u8>, CError> {
    if input.len() > MAX_ENCODE_INPUT {
        return Err(CError::TooLong {
            length: input.len(),
            limit: MAX_ENCODE_INPUT,
        });
    }
    if case_flags.is_some_and(|flags| flags.len() != input.len()) {
        return Err(CError::FlagsLength);
    }
    let flags: Option<Vec<c_uchar>> =
        case_flags.map(|f| f.iter().map(|&b| c_uchar::from(b)).collect());
    let capacity = MAX_DELTA_DIGITS as usize * input.len() + 2;
    let mut output = vec![0u8; capacity];
    // Both fit: input.len() <= MAX_ENCODE_INPUT makes capacity <= u32::MAX.
    let mut output_length = capacity as PunycodeUint;
    // SAFETY: `input` holds `input.len()` readable elements and `flags`, when
    // present, exactly as many; `output` has `output_length` writable bytes,
    // which is all the encoder writes (by the caller's promise, it checks
    // against *output_length before every store). Every pointer outlives the
    // call and none is retained by the C code.
    let code = unsafe {
        encoder(
            input.len() as PunycodeUint,
            input.as_ptr(),
            flags.as_ref().map_or(std::ptr::null(), |f| f.as_ptr()),
            &mut output_length,
            output.as_mut_ptr().cast::<c_char>(),
        )
    };
    status(code)?;
    output.truncate(output_length as usize);
    Ok(output)
}

/// Flag bytes [`decode_with`] keeps on the stack: a label's (at most 64
/// bytes of Punycode), and the spare element.
const LABEL_FLAGS: usize = 65;

/// Calls a sample's decoder with buffers sized for the worst case.
///
/// # Safety
///
/// `decoder` must honour `punycode_decode()`'s contract: read `input_length`
/// bytes, store code points and flags only below `*output_length` and keep
/// no pointer after returning.
unsafe fn decode_with(decoder: DecodeFn, input: &[u8]) -> Result<Decoded, CError> {
    if input.len() > MAX_DECODE_INPUT {
        return Err(CError::TooLong {
            length: input.len(),
            limit: MAX_DECODE_INPUT,
        });
    }
    // The decoder never outputs more code points than it reads bytes; one
    // spare element keeps the pointers valid for an empty input. The flags
    // are returned as bits, so for a label their bytes stay on the stack
    // and the one allocation is the result's.
    let capacity = input.len() + 1;
    let mut output: Vec<PunycodeUint> = vec![0; capacity];
    let mut label_flags = [0; LABEL_FLAGS];
    let mut long_flags = Vec::new();
    let flags: &mut [c_uchar] = if capacity <= LABEL_FLAGS {
        &mut label_flags[..capacity]
    } else {
        long_flags.resize(capacity, 0);
        &mut long_flags
    };
    let mut output_length = input.len() as PunycodeUint;
    // SAFETY: `input` holds `input.len()` readable bytes; `output` and `flags`
    // each have room for `output_length` + 1 elements, and the decoder (by the
    // caller's promise) checks against *output_length before every store and
    // memmove. Every pointer outlives the call and none is retained.
    let code = unsafe {
        decoder(
            input.len() as PunycodeUint,
            input.as_ptr().cast::<c_char>(),
            &mut output_length,
            output.as_mut_ptr(),
            flags.as_mut_ptr(),
        )
    };
    status(code)?;
    let length = output_length as usize;
    output.truncate(length);
    Ok(Decoded {
        code_points: output,
        flags: flags[..length].iter().map(|&f| f != 0).collect(),
    })
}

/// Encodes with `punycode_encode()`; `case_flags` as in
/// [`crate::punycode::encode`] (`None` passes a null pointer).
pub fn encode(input: &[u32], case_flags: Option<&[bool]>) -> Result<Vec<u8>, CError> {
    // SAFETY: punycode_encode() checks `out` against *output_length before
    // every store and keeps no pointer (RFC 3492 Appendix C).
    unsafe { encode_with(punycheck_rfc3492_encode, input, case_flags) }
}

/// Decodes with `punycode_decode()`, returning code points and case flags.
pub fn decode(input: &[u8]) -> Result<Decoded, CError> {
    // SAFETY: punycode_decode() checks `out` against *output_length before
    // the literal copy and before every insertion, and keeps no pointer (RFC
    // 3492 Appendix C).
    unsafe { decode_with(punycheck_rfc3492_decode, input) }
}

/// Runs RFC 3492 Appendix C's own test program, compiled in unchanged
/// (only its `main` renamed), with `args` as its arguments (`-e` or `-d`)
/// and `program` as its name in its usage message: it reads standard input,
/// writes standard output and its errors to standard error, exactly as the
/// RFC's wrapper. Then the process ends with its exit status, its C
/// output flushed.
pub fn run_wrapper(program: &str, args: &[String]) -> ! {
    // Arguments with a NUL byte cannot reach C; the wrapper's own usage
    // check refuses them as it refuses any other wrong argument.
    let strings: Vec<std::ffi::CString> = std::iter::once(program)
        .chain(args.iter().map(String::as_str))
        .map(|a| std::ffi::CString::new(a.replace('\0', "")).unwrap_or_default())
        .collect();
    let mut argv: Vec<*mut c_char> = strings.iter().map(|s| s.as_ptr().cast_mut()).collect();
    argv.push(std::ptr::null_mut());
    let argc = c_int::try_from(strings.len()).unwrap_or(c_int::MAX);
    // SAFETY: `argv` holds `argc` pointers to NUL-terminated strings that
    // live until the call returns, then a null pointer, as C's `main`
    // expects. The wrapper only reads them (it prints argv[0] in its usage
    // message) and keeps no pointer.
    let status = unsafe { punycheck_rfc3492_main(argc, argv.as_mut_ptr()) };
    // SAFETY: exit() runs C's atexit handlers and flushes C's stdio, where
    // the wrapper wrote; nothing of Rust's is left to drop that matters.
    unsafe { libc::exit(status) }
}

/// The C reference's answer to `request`. `None` when the C code cannot be called for
/// this request (longer than its interface allows).
pub fn answer(request: &Request) -> Option<Expected> {
    let answer = match request {
        Request::Encode { code_points, flags } => {
            encode(code_points, flags.as_deref()).map(Expected::Encoded)
        }
        Request::Decode(bytes) => decode(bytes).map(|d| Expected::Decoded(CodePoints::from(d))),
    };
    match answer {
        Ok(answer) => Some(answer),
        Err(CError::Status(kind)) => Some(Expected::Error(kind)),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every C archive build.rs makes (the RFC code, the draft's code and,
    /// with their features, the libidn2 and ICU shims) defines its entry
    /// points and nothing unprefixed.
    #[test]
    fn no_unprefixed_symbols() {
        let archives = [
            (
                "librfc3492.a",
                ["punycheck_rfc3492_encode", "punycheck_rfc3492_decode"],
            ),
            (
                "libamc_ace_z.a",
                ["punycheck_amc_ace_z_encode", "punycheck_amc_ace_z_decode"],
            ),
            (
                "libidn2_punycode_shim.a",
                [
                    "punycheck_idn2_punycode_encode",
                    "punycheck_idn2_punycode_decode",
                ],
            ),
            (
                "libicu_punycode_shim.a",
                ["punycheck_icu_to_punycode", "punycheck_icu_from_punycode"],
            ),
        ];
        let built = [true, true, cfg!(punycheck_libidn2), cfg!(punycheck_icu)];
        for (archive, wanted) in archives
            .into_iter()
            .zip(built)
            .filter_map(|(archive, built)| built.then_some(archive))
        {
            let path = format!("{}/{archive}", env!("OUT_DIR"));
            let out = std::process::Command::new("nm")
                .args(["-g", "--defined-only", &path])
                .output()
                .expect("nm (binutils) runs");
            assert!(out.status.success(), "nm failed on {path}");
            let text = String::from_utf8_lossy(&out.stdout);
            let symbols: Vec<&str> = text
                .lines()
                .filter_map(|l| l.split_whitespace().nth(2))
                .collect();
            for symbol in wanted {
                assert!(
                    symbols.contains(&symbol),
                    "{archive}: {symbol} missing from {symbols:?}"
                );
            }
            for symbol in symbols {
                assert!(
                    symbol.starts_with("punycheck_"),
                    "{archive}: unprefixed C symbol {symbol}"
                );
            }
        }
    }

    #[test]
    fn empty_input_in_both_directions() {
        assert_eq!(encode(&[], None), Ok(Vec::new()));
        assert_eq!(encode(&[], Some(&[])), Ok(Vec::new()));
        assert_eq!(decode(b""), Ok(Decoded::default()));
    }

    #[test]
    fn flags_length_is_checked_before_calling_c() {
        assert_eq!(encode(&[0x41], Some(&[])), Err(CError::FlagsLength));
    }
}
