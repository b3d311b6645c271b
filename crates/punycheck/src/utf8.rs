//! UTF-8 as RFC 2279 defines it, and today's UTF-8 beside it.
//!
//! RFC 2279 (January 1998) encodes a UCS-4 value, 0 to 0x7FFFFFFF, in one
//! to six octets (section 2):
//!
//! ```text
//! UCS-4 range (hex.)     UTF-8 octet sequence (binary)
//! 0000 0000-0000 007F    0xxxxxxx
//! 0000 0080-0000 07FF    110xxxxx 10xxxxxx
//! 0000 0800-0000 FFFF    1110xxxx 10xxxxxx 10xxxxxx
//! 0001 0000-001F FFFF    11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
//! 0020 0000-03FF FFFF    111110xx 10xxxxxx 10xxxxxx 10xxxxxx 10xxxxxx
//! 0400 0000-7FFF FFFF    1111110x 10xxxxxx ... 10xxxxxx
//! ```
//!
//! "The rows of the table are mutually exclusive, i.e. there is only one
//! valid way to encode a given UCS-4 character" (section 2, step 1): a
//! longer sequence for a value that fits a shorter one (an *overlong* form,
//! such as `C0 80` for U+0000) is not UTF-8, and the NOTE of section 2 and
//! the Security Considerations (section 6) ask decoders to refuse it, since
//! a parser that checks for `00` or `2F 2E 2E 2F` ("/../") on the encoded
//! form and then decodes `C0 80` or `2F C0 AE 2E 2F` is fooled. The octets
//! `FE` and `FF` "never appear" (section 1).
//!
//! [`Mode::Rfc2279`] is exactly that. [`Mode::Strict`] is the UTF-8 of
//! RFC 3629 and the Unicode Standard, which Rust's `str` holds: at most four
//! octets, values at most U+10FFFF, and no surrogates (U+D800 to U+DFFF).
//! In strict mode [`decode`] gives the same answer as
//! [`std::str::from_utf8`] on every input, and its error's
//! [`Error::position`] and [`Error::error_len`] are that of
//! [`std::str::Utf8Error::valid_up_to`] and
//! [`std::str::Utf8Error::error_len`].
//!
//! # Error Reporting
//!
//! A decoding error gives the byte offset where the offending sequence
//! starts (everything before it is valid), how many of its bytes were read
//! before it went wrong, and why. Both modes read a sequence the way the
//! Unicode Standard's "maximal subpart" practice (and Rust) do: the lead
//! byte fixes the length and the range of the second byte, which is where
//! overlong forms (and, in strict mode, surrogates and values above
//! U+10FFFF) are already known; any later byte must be a continuation.
//! An encoding error gives the index of the code point that cannot be
//! encoded. Every error is [`ErrorKind::BadInput`] for the harness.
//!
//! # Surrogates in RFC 2279 mode
//!
//! RFC 2279 encodes UCS-4 values; its rule for surrogates (section 2, step
//! 3) is about UCS-2 *input*, where a pair D800-DBFF DC00-DFFF must first
//! be turned back into the UCS-4 value it stands for. This module's input
//! is already UCS-4, so in RFC 2279 mode a lone value U+D800 to U+DFFF is
//! encoded by the table like any other value below 0x10000 (`ED A0 80` for
//! U+D800) and decoded back to itself; pairs are not combined.
//!
//! # Panics
//!
//! Nothing here panics, on any input; every function runs in time linear
//! in its input.
//!
//! # Size
//!
//! About 570 lines of code and 235 of unit tests of the private sequence
//! tables; both UTF-8s share those tables, so they stay in one file.

use std::ffi::OsStr;
use std::fmt;
use std::path::Path;

use crate::punycode::ErrorKind;

/// Which UTF-8 (`--utf8 strict|rfc2279` on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Mode {
    /// RFC 2279: one to six octets, values 0 to 0x7FFFFFFF, surrogate values
    /// allowed; overlong forms, `FE`, `FF`, stray continuation bytes and
    /// truncated sequences refused.
    Rfc2279,
    /// RFC 3629 (Rust's `str`): one to four octets, Unicode scalar values
    /// only (at most U+10FFFF, no surrogates).
    Strict,
}

impl Mode {
    /// Both modes, RFC 2279 first.
    pub const ALL: [Mode; 2] = [Mode::Rfc2279, Mode::Strict];

    /// The name used on the command line (`--utf8 rfc2279`).
    pub fn name(self) -> &'static str {
        match self {
            Mode::Rfc2279 => "rfc2279",
            Mode::Strict => "strict",
        }
    }

    /// Parses a name produced by [`Mode::name`].
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The largest value it encodes: 0x7FFFFFFF or U+10FFFF.
    pub fn max_value(self) -> u32 {
        match self {
            Mode::Rfc2279 => MAX_RFC2279,
            Mode::Strict => MAX_UNICODE,
        }
    }

    /// The longest sequence it has, in octets: 6 or 4.
    pub fn max_sequence_len(self) -> usize {
        match self {
            Mode::Rfc2279 => 6,
            Mode::Strict => 4,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest UCS-4 value RFC 2279 encodes (`7FFF FFFF`, the last row of
/// its table: 31 bits).
pub const MAX_RFC2279: u32 = 0x7FFF_FFFF;

/// The largest Unicode code point, U+10FFFF.
pub const MAX_UNICODE: u32 = 0x10_FFFF;

/// The smallest value of each sequence length 1 to 6 (index 0 is length 1):
/// the first column of RFC 2279's table. A sequence of length n whose value
/// is below `SEQUENCE_MIN[n - 1]` is overlong.
pub const SEQUENCE_MIN: [u32; 6] = [0, 0x80, 0x800, 0x1_0000, 0x20_0000, 0x400_0000];

/// The largest value of each sequence length 1 to 6 (index 0 is length 1).
pub const SEQUENCE_MAX: [u32; 6] = [0x7F, 0x7FF, 0xFFFF, 0x1F_FFFF, 0x3FF_FFFF, MAX_RFC2279];

/// Whether `value` is a surrogate code point (U+D800 to U+DFFF).
pub fn is_surrogate(value: u32) -> bool {
    (0xD800..=0xDFFF).contains(&value)
}

/// The number of octets RFC 2279 uses for `value` (1 to 6), or `None`
/// above 0x7FFFFFFF.
pub fn sequence_len(value: u32) -> Option<usize> {
    SEQUENCE_MAX
        .iter()
        .position(|&max| value <= max)
        .map(|k| k + 1)
}

/// Why a byte string is not UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeReason {
    /// A continuation byte (`10xxxxxx`, 0x80 to 0xBF) where a sequence
    /// should start.
    StrayContinuation,
    /// `FE` or `FF`, which never appear in UTF-8 (RFC 2279 section 1).
    InvalidByte,
    /// The lead byte of a five- or six-octet sequence (`F8` to `FD`), which
    /// only RFC 2279 has (strict mode only).
    LongSequence,
    /// A byte other than a continuation byte inside a sequence.
    MissingContinuation,
    /// The input ends inside a sequence.
    Truncated,
    /// An overlong form: a longer sequence than the value needs (RFC 2279
    /// sections 2 and 6), known from the lead byte (`C0`, `C1`) or from the
    /// second byte.
    Overlong,
    /// A surrogate, U+D800 to U+DFFF (strict mode only).
    Surrogate,
    /// A value above U+10FFFF (strict mode only).
    AboveUnicode,
}

impl DecodeReason {
    fn describe(self) -> &'static str {
        match self {
            DecodeReason::StrayContinuation => "continuation byte where a sequence should start",
            DecodeReason::InvalidByte => "byte FE or FF, which never appears in UTF-8",
            DecodeReason::LongSequence => "five- or six-octet sequence (RFC 2279 only)",
            DecodeReason::MissingContinuation => "sequence cut short by a non-continuation byte",
            DecodeReason::Truncated => "input ends inside a sequence",
            DecodeReason::Overlong => "overlong form (a shorter sequence encodes this value)",
            DecodeReason::Surrogate => "surrogate code point (U+D800 to U+DFFF)",
            DecodeReason::AboveUnicode => "value above U+10FFFF",
        }
    }
}

/// Why a code point cannot be encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodeReason {
    /// Above 0x7FFFFFFF: no row of RFC 2279's table holds it.
    AboveRfc2279,
    /// Above U+10FFFF (strict mode only).
    AboveUnicode,
    /// A surrogate, U+D800 to U+DFFF (strict mode only).
    Surrogate,
}

impl EncodeReason {
    fn describe(self) -> &'static str {
        match self {
            EncodeReason::AboveRfc2279 => "above 0x7FFFFFFF, which RFC 2279 cannot encode",
            EncodeReason::AboveUnicode => "above U+10FFFF",
            EncodeReason::Surrogate => "a surrogate (U+D800 to U+DFFF)",
        }
    }
}

/// An error of [`encode`] or [`decode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// The bytes are not UTF-8 of the mode.
    Decode {
        /// Byte offset where the offending sequence starts; every byte
        /// before it is valid (std's `valid_up_to`).
        position: usize,
        /// How many bytes of the sequence were read before it went wrong
        /// (1 to 5), as std's `error_len`; the rest of the input when the
        /// input ends inside the sequence.
        len: usize,
        /// What is wrong.
        reason: DecodeReason,
    },
    /// A code point cannot be encoded in the mode.
    Encode {
        /// Index of the code point in the input.
        position: usize,
        /// The code point.
        value: u32,
        /// Why it cannot be encoded.
        reason: EncodeReason,
    },
}

impl Error {
    /// The RFC 3492 status the harness compares: always bad input.
    pub fn kind(&self) -> ErrorKind {
        ErrorKind::BadInput
    }

    /// Where it went wrong: a byte offset when decoding, a code point index
    /// when encoding.
    pub fn position(&self) -> usize {
        match *self {
            Error::Decode { position, .. } | Error::Encode { position, .. } => position,
        }
    }

    /// For a decoding error, the length of the invalid sequence as
    /// [`std::str::Utf8Error::error_len`] gives it: `None` when the input
    /// ends inside a sequence that could still have been valid, else the
    /// number of bytes to skip. `None` for an encoding error.
    pub fn error_len(&self) -> Option<usize> {
        match *self {
            Error::Decode {
                reason: DecodeReason::Truncated,
                ..
            }
            | Error::Encode { .. } => None,
            Error::Decode { len, .. } => Some(len),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::Decode {
                position, reason, ..
            } => write!(f, "invalid UTF-8 at byte {position}: {}", reason.describe()),
            Error::Encode {
                position,
                value,
                reason,
            } => write!(
                f,
                "cannot encode code point {position} (u+{value:04X}): {}",
                reason.describe()
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Checks that `value` can be encoded in `mode`.
fn check_value(value: u32, mode: Mode) -> Result<(), EncodeReason> {
    if value > MAX_RFC2279 {
        return Err(EncodeReason::AboveRfc2279);
    }
    if mode == Mode::Strict {
        if value > MAX_UNICODE {
            return Err(EncodeReason::AboveUnicode);
        }
        if is_surrogate(value) {
            return Err(EncodeReason::Surrogate);
        }
    }
    Ok(())
}

/// Appends the RFC 2279 sequence of `value` (at most 0x7FFFFFFF) to `out`,
/// by the steps of section 2: the length from the table's first column,
/// the high-order bits from its second, then the value's bits from the
/// last octet backwards, six to a continuation octet.
fn push_sequence(value: u32, out: &mut Vec<u8>) {
    let Some(n) = sequence_len(value) else {
        return;
    };
    if n == 1 {
        out.push(value as u8);
        return;
    }
    // n high-order bits set, then a 0: 110xxxxx, 1110xxxx, ... 1111110x.
    let marker = (0xFF00u16 >> n) as u8;
    let lead_bits = value >> (6 * (n - 1));
    out.push(marker | lead_bits as u8);
    for k in (0..n - 1).rev() {
        out.push(0x80 | ((value >> (6 * k)) & 0x3F) as u8);
    }
}

/// Encodes code points as UTF-8 of `mode`.
///
/// Fails on the first value the mode cannot encode: above 0x7FFFFFFF, and
/// in strict mode also above U+10FFFF or a surrogate.
///
/// ```
/// use punycheck::utf8::{Mode, encode};
/// assert_eq!(encode(&[0x41, 0x2262], Mode::Strict).unwrap(), b"A\xE2\x89\xA2");
/// assert_eq!(
///     encode(&[0x7FFF_FFFF], Mode::Rfc2279).unwrap(),
///     [0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]
/// );
/// assert!(encode(&[0x11_0000], Mode::Strict).is_err());
/// ```
pub fn encode(input: &[u32], mode: Mode) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(input.len());
    for (position, &value) in input.iter().enumerate() {
        check_value(value, mode).map_err(|reason| Error::Encode {
            position,
            value,
            reason,
        })?;
        push_sequence(value, &mut out);
    }
    Ok(out)
}

/// What a lead byte says about its sequence.
struct Lead {
    /// Octets in the sequence, 1 to 6.
    len: usize,
    /// The value bits the lead byte carries.
    bits: u32,
    /// The range the second byte must be in (a sub-range of 0x80..=0xBF).
    second: (u8, u8),
    /// Why a continuation byte above `second.1` is refused.
    above: DecodeReason,
}

/// Reads a lead byte in `mode`: the sequence's shape, or why no sequence
/// can start with it.
fn lead(byte: u8, mode: Mode) -> Result<Lead, DecodeReason> {
    let strict = mode == Mode::Strict;
    let (len, second, above) = match byte {
        0x00..=0x7F => (1, (0x80, 0xBF), DecodeReason::MissingContinuation),
        0x80..=0xBF => return Err(DecodeReason::StrayContinuation),
        // 110 0000x carries at most 1 bit: any value fits one octet.
        0xC0 | 0xC1 => return Err(DecodeReason::Overlong),
        0xC2..=0xDF => (2, (0x80, 0xBF), DecodeReason::Overlong),
        // 1110 0000 10 0xxxxx would be below 0x800.
        0xE0 => (3, (0xA0, 0xBF), DecodeReason::Overlong),
        // ED A0 .. ED BF: U+D800 to U+DFFF.
        0xED if strict => (3, (0x80, 0x9F), DecodeReason::Surrogate),
        0xE1..=0xEF => (3, (0x80, 0xBF), DecodeReason::Overlong),
        // 11110 000 10 00xxxx would be below 0x10000.
        0xF0 => (4, (0x90, 0xBF), DecodeReason::Overlong),
        // F4 90 and above: U+110000 and above.
        0xF4 if strict => (4, (0x80, 0x8F), DecodeReason::AboveUnicode),
        0xF5..=0xF7 if strict => return Err(DecodeReason::AboveUnicode),
        0xF1..=0xF7 => (4, (0x80, 0xBF), DecodeReason::Overlong),
        0xF8..=0xFD if strict => return Err(DecodeReason::LongSequence),
        // 111110 00 10 000xxx would be below 0x200000.
        0xF8 => (5, (0x88, 0xBF), DecodeReason::Overlong),
        0xF9..=0xFB => (5, (0x80, 0xBF), DecodeReason::Overlong),
        // 1111110 0 10 0000xx would be below 0x4000000.
        0xFC => (6, (0x84, 0xBF), DecodeReason::Overlong),
        0xFD => (6, (0x80, 0xBF), DecodeReason::Overlong),
        0xFE | 0xFF => return Err(DecodeReason::InvalidByte),
    };
    // The bits after the n leading 1s and the 0.
    let bits = if len == 1 {
        u32::from(byte)
    } else {
        u32::from(byte) & (0x7F >> len)
    };
    Ok(Lead {
        len,
        bits,
        second,
        above,
    })
}

fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// Decodes UTF-8 of `mode` to code points.
///
/// Fails at the first sequence that is not UTF-8 of the mode, with its
/// byte offset (see the module documentation). In strict mode it accepts
/// exactly what [`std::str::from_utf8`] accepts, with the same values, and
/// fails at the same offset.
///
/// ```
/// use punycheck::utf8::{DecodeReason, Error, Mode, decode};
/// assert_eq!(
///     decode(&[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF], Mode::Rfc2279).unwrap(),
///     [0x7FFF_FFFF]
/// );
/// // The overlong "/" of RFC 2279's Security Considerations.
/// assert_eq!(
///     decode(&[0x2F, 0xC0, 0xAE, 0x2E, 0x2F], Mode::Rfc2279),
///     Err(Error::Decode { position: 1, len: 1, reason: DecodeReason::Overlong })
/// );
/// ```
pub fn decode(input: &[u8], mode: Mode) -> Result<Vec<u32>, Error> {
    let mut out = Vec::with_capacity(input.len());
    let mut at = 0;
    while let Some(&first) = input.get(at) {
        let fail = |len: usize, reason: DecodeReason| Error::Decode {
            position: at,
            len,
            reason,
        };
        let lead = lead(first, mode).map_err(|reason| fail(1, reason))?;
        let mut value = lead.bits;
        for k in 1..lead.len {
            let Some(&byte) = input.get(at + k) else {
                return Err(fail(input.len() - at, DecodeReason::Truncated));
            };
            if !is_continuation(byte) {
                return Err(fail(k, DecodeReason::MissingContinuation));
            }
            if k == 1 {
                let (low, high) = lead.second;
                if byte < low {
                    return Err(fail(1, DecodeReason::Overlong));
                }
                if byte > high {
                    return Err(fail(1, lead.above));
                }
            }
            value = (value << 6) | u32::from(byte & 0x3F);
        }
        out.push(value);
        at += lead.len;
    }
    Ok(out)
}

/// Reads text for the command line: [`decode`]. Code points above U+10FFFF
/// (RFC 2279 mode) and every other value come back as they are; no newline
/// is stripped.
pub fn decode_text(bytes: &[u8], mode: Mode) -> Result<Vec<u32>, Error> {
    decode(bytes, mode)
}

/// Reads a command-line argument as UTF-8 of `mode`.
///
/// On Unix an argument is any byte string, so an RFC 2279 sequence above
/// U+10FFFF reaches the program intact (clap must hand it over as an
/// `OsString`, as a `String` it would be refused); it is decoded from its
/// bytes. Elsewhere an argument that is not Unicode is refused as a whole
/// (position 0, [`DecodeReason::InvalidByte`]).
pub fn decode_arg(arg: &OsStr, mode: Mode) -> Result<Vec<u32>, Error> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        decode(arg.as_bytes(), mode)
    }
    #[cfg(not(unix))]
    {
        match arg.to_str() {
            Some(text) => decode(text.as_bytes(), mode),
            None => Err(Error::Decode {
                position: 0,
                len: 1,
                reason: DecodeReason::InvalidByte,
            }),
        }
    }
}

/// One line of [`decode_lines`] that is not UTF-8 of the mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The line number, from 1.
    pub line: usize,
    /// The error, with positions counted from the start of the line.
    pub error: Error,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for LineError {}

/// Splits text (a file, standard input) into lines at `0A`, drops a `0D`
/// before it, and decodes each line: one result per line, a last line
/// without its newline included, nothing after a final newline.
///
/// Splitting the bytes before decoding is safe in both modes: in UTF-8 an
/// octet below 0x80 only ever stands for itself (RFC 2279 section 1), never
/// for part of a longer sequence.
pub fn decode_lines(text: &[u8], mode: Mode) -> Vec<Result<Vec<u32>, LineError>> {
    if text.is_empty() {
        return Vec::new();
    }
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    body.split(|&b| b == b'\n')
        .enumerate()
        .map(|(k, line)| {
            let line_text = line.strip_suffix(b"\r").unwrap_or(line);
            decode(line_text, mode).map_err(|error| LineError { line: k + 1, error })
        })
        .collect()
}

/// Why [`read_file`] failed.
#[derive(Debug)]
pub enum ReadError {
    /// The file cannot be read.
    Io(std::io::Error),
    /// A line is not UTF-8 of the mode.
    Line(LineError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "cannot read: {e}"),
            ReadError::Line(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            ReadError::Line(e) => Some(e),
        }
    }
}

/// Reads a file of lines of UTF-8 of `mode` ([`decode_lines`]), failing at
/// the first line that is not.
pub fn read_file(path: &Path, mode: Mode) -> Result<Vec<Vec<u32>>, ReadError> {
    let bytes = std::fs::read(path).map_err(ReadError::Io)?;
    decode_lines(&bytes, mode)
        .into_iter()
        .collect::<Result<_, _>>()
        .map_err(ReadError::Line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_err(input: &[u8], mode: Mode) -> (usize, Option<usize>, DecodeReason) {
        match decode(input, mode) {
            Err(e @ Error::Decode { reason, .. }) => (e.position(), e.error_len(), reason),
            other => panic!("{input:02X?} in {mode}: {other:?}"),
        }
    }

    #[test]
    fn table_rows() {
        let rows: [(u32, &[u8]); 12] = [
            (0x7F, &[0x7F]),
            (0x80, &[0xC2, 0x80]),
            (0x7FF, &[0xDF, 0xBF]),
            (0x800, &[0xE0, 0xA0, 0x80]),
            (0xFFFF, &[0xEF, 0xBF, 0xBF]),
            (0x1_0000, &[0xF0, 0x90, 0x80, 0x80]),
            (0x1F_FFFF, &[0xF7, 0xBF, 0xBF, 0xBF]),
            (0x20_0000, &[0xF8, 0x88, 0x80, 0x80, 0x80]),
            (0x3FF_FFFF, &[0xFB, 0xBF, 0xBF, 0xBF, 0xBF]),
            (0x400_0000, &[0xFC, 0x84, 0x80, 0x80, 0x80, 0x80]),
            (0x7FFF_FFFF, &[0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]),
            (0, &[0]),
        ];
        for (value, bytes) in rows {
            assert_eq!(encode(&[value], Mode::Rfc2279).unwrap(), bytes, "{value:X}");
            assert_eq!(decode(bytes, Mode::Rfc2279).unwrap(), [value]);
            assert_eq!(sequence_len(value), Some(bytes.len()));
        }
        assert_eq!(sequence_len(0x8000_0000), None);
    }

    #[test]
    fn encode_errors_say_which_code_point() {
        let e = encode(&[0x41, 0x8000_0000], Mode::Rfc2279).unwrap_err();
        assert_eq!(
            e,
            Error::Encode {
                position: 1,
                value: 0x8000_0000,
                reason: EncodeReason::AboveRfc2279
            }
        );
        assert_eq!(e.kind(), ErrorKind::BadInput);
        assert_eq!(
            e.to_string(),
            "cannot encode code point 1 (u+80000000): above 0x7FFFFFFF, which RFC 2279 cannot encode"
        );
        assert!(encode(&[u32::MAX], Mode::Strict).is_err());
        let strict = |v| encode(&[v], Mode::Strict).map_err(|e| e.position());
        assert!(strict(0x10_FFFF).is_ok());
        assert!(matches!(
            encode(&[0, 0x11_0000], Mode::Strict),
            Err(Error::Encode {
                position: 1,
                reason: EncodeReason::AboveUnicode,
                ..
            })
        ));
        assert!(matches!(
            encode(&[0xDFFF], Mode::Strict),
            Err(Error::Encode {
                reason: EncodeReason::Surrogate,
                ..
            })
        ));
        assert_eq!(
            encode(&[0xD800], Mode::Rfc2279).unwrap(),
            [0xED, 0xA0, 0x80]
        );
    }

    #[test]
    fn decode_errors_say_where_and_why() {
        use DecodeReason::*;
        let r = Mode::Rfc2279;
        let s = Mode::Strict;
        assert_eq!(decode_err(b"ab\x80", r), (2, Some(1), StrayContinuation));
        assert_eq!(decode_err(b"\xFE", r), (0, Some(1), InvalidByte));
        assert_eq!(decode_err(b"\xFF", s), (0, Some(1), InvalidByte));
        assert_eq!(decode_err(b"\xC0\x80", r), (0, Some(1), Overlong));
        assert_eq!(decode_err(b"\xE0\x9F\xBF", r), (0, Some(1), Overlong));
        assert_eq!(decode_err(b"\xF0\x8F\xBF\xBF", r), (0, Some(1), Overlong));
        assert_eq!(
            decode_err(b"\xF8\x87\xBF\xBF\xBF", r),
            (0, Some(1), Overlong)
        );
        assert_eq!(
            decode_err(b"\xFC\x83\xBF\xBF\xBF\xBF", r),
            (0, Some(1), Overlong)
        );
        assert_eq!(decode_err(b"x\xE2\x89", r), (1, None, Truncated));
        assert_eq!(
            decode_err(b"x\xE2\x89A", r),
            (1, Some(2), MissingContinuation)
        );
        assert_eq!(decode_err(b"\xED\xA0\x80", s), (0, Some(1), Surrogate));
        assert_eq!(
            decode_err(b"\xF4\x90\x80\x80", s),
            (0, Some(1), AboveUnicode)
        );
        assert_eq!(decode_err(b"\xF5", s), (0, Some(1), AboveUnicode));
        assert_eq!(
            decode_err(b"\xF8\x88\x80\x80\x80", s),
            (0, Some(1), LongSequence)
        );
        assert_eq!(decode_err(b"\xFD\xBF\xBF\xBF\xBF", r), (0, None, Truncated));
        let e = decode(b"\xC0\xAE", r).unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid UTF-8 at byte 0: overlong form (a shorter sequence encodes this value)"
        );
        assert_eq!(e.kind(), ErrorKind::BadInput);
    }

    #[test]
    fn rfc2279_accepts_what_strict_refuses() {
        assert_eq!(decode(b"\xED\xA0\x80", Mode::Rfc2279).unwrap(), [0xD800]);
        assert_eq!(
            decode(b"\xF4\x90\x80\x80", Mode::Rfc2279).unwrap(),
            [0x11_0000]
        );
        assert_eq!(
            decode(b"\xF7\xBF\xBF\xBF", Mode::Rfc2279).unwrap(),
            [0x1F_FFFF]
        );
    }

    #[test]
    fn strict_matches_std_on_every_short_input() {
        // Every string of up to 2 bytes, and every 3- and 4-byte string whose
        // bytes come from the values where a decision changes.
        let interesting: Vec<u8> = vec![
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
            0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFB, 0xFC,
            0xFD, 0xFE, 0xFF,
        ];
        let mut inputs: Vec<Vec<u8>> = vec![vec![]];
        for a in 0..=255u8 {
            inputs.push(vec![a]);
            for b in 0..=255u8 {
                inputs.push(vec![a, b]);
            }
        }
        for &a in &interesting {
            for &b in &interesting {
                for &c in &interesting {
                    inputs.push(vec![a, b, c]);
                    for &d in &interesting {
                        inputs.push(vec![a, b, c, d]);
                    }
                }
            }
        }
        for input in inputs {
            let ours = decode(&input, Mode::Strict);
            match std::str::from_utf8(&input) {
                Ok(text) => {
                    let want: Vec<u32> = text.chars().map(u32::from).collect();
                    assert_eq!(ours, Ok(want), "{input:02X?}");
                }
                Err(e) => {
                    let ours = ours.unwrap_err();
                    assert_eq!(ours.position(), e.valid_up_to(), "{input:02X?}");
                    assert_eq!(ours.error_len(), e.error_len(), "{input:02X?}");
                }
            }
        }
    }

    #[test]
    fn lines_split_before_decoding() {
        let text = b"a\xF4\x90\x80\x80\r\n\nb\xFD\xBF\xBF\xBF\xBF\xBF";
        assert_eq!(
            decode_lines(text, Mode::Rfc2279),
            vec![
                Ok(vec![0x61, 0x11_0000]),
                Ok(vec![]),
                Ok(vec![0x62, 0x7FFF_FFFF])
            ]
        );
        assert_eq!(decode_lines(b"", Mode::Strict), vec![]);
        assert_eq!(decode_lines(b"\n", Mode::Strict), vec![Ok(vec![])]);
        let bad = decode_lines(b"ok\nx\xF4\x90\x80\x80\n", Mode::Strict);
        assert_eq!(bad[0], Ok(vec![0x6F, 0x6B]));
        let err = *bad[1].as_ref().unwrap_err();
        assert_eq!((err.line, err.error.position()), (2, 1));
        assert_eq!(
            err.to_string(),
            "line 2: invalid UTF-8 at byte 1: value above U+10FFFF"
        );
    }

    #[cfg(unix)]
    #[test]
    fn arguments_carry_rfc2279_sequences() {
        use std::os::unix::ffi::OsStrExt;
        let arg = OsStr::from_bytes(b"\xFC\x84\x80\x80\x80\x80z");
        assert_eq!(decode_arg(arg, Mode::Rfc2279).unwrap(), [0x400_0000, 0x7A]);
        assert_eq!(decode_arg(arg, Mode::Strict).unwrap_err().position(), 0);
    }

    #[test]
    fn files_are_read_line_by_line() {
        let dir = std::env::temp_dir().join(format!("punycheck-utf8-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("text");
        std::fs::write(&path, b"\xF8\x88\x80\x80\x80\nA\n").unwrap();
        assert_eq!(
            read_file(&path, Mode::Rfc2279).unwrap(),
            vec![vec![0x20_0000], vec![0x41]]
        );
        assert!(matches!(
            read_file(&path, Mode::Strict),
            Err(ReadError::Line(LineError { line: 1, .. }))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(
            read_file(&path, Mode::Strict),
            Err(ReadError::Io(_))
        ));
    }

    #[test]
    fn mode_names() {
        for mode in Mode::ALL {
            assert_eq!(Mode::from_name(mode.name()), Some(mode));
        }
        assert_eq!(Mode::from_name("utf8"), None);
        assert_eq!(Mode::Rfc2279.max_value(), 0x7FFF_FFFF);
        assert_eq!(Mode::Strict.max_sequence_len(), 4);
    }
}
