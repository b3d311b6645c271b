//! The words that implementations and the harness share: a question
//! ([`Request`]), an answer ([`Expected`]), code points with their Appendix A
//! flags ([`CodePoints`]), and the divergence classes ([`classes`]).
//!
//! This module sits below both [`crate::engines`] and [`crate::harness`]:
//! engines answer questions in these terms and declare which classes of
//! question they cannot be asked, and the harness asks and judges. Neither
//! of those is imported here, so the dependency runs one way.

use std::fmt;

use crate::punycode::{Decoded, ErrorKind};
use crate::rfc_text::parse_code_point_token;

pub mod classes;

/// One question for an implementation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Request {
    /// Encode these code points, with case flags when given.
    Encode {
        /// The code points.
        code_points: Vec<u32>,
        /// One Appendix A flag per code point, or none.
        flags: Option<Vec<bool>>,
    },
    /// Decode these bytes.
    Decode(Vec<u8>),
}

impl Request {
    /// The arguments of `punycheck repro` that ask this question, quoted
    /// for a POSIX shell (`--decode=` so that text starting with `-` is not
    /// read as an option).
    pub fn repro_args(&self) -> String {
        match self {
            Request::Encode { code_points, flags } => {
                let cps = CodePoints::with_flags(code_points, flags.as_deref());
                let annotated = if flags.is_some() { "" } else { " --no-flags" };
                format!(
                    "--encode={}{annotated}",
                    shell_words::quote(&cps.to_string())
                )
            }
            Request::Decode(bytes) if bytes.iter().all(|&b| (0x20..0x7F).contains(&b)) => {
                let text = String::from_utf8_lossy(bytes);
                format!("--decode={}", shell_words::quote(&text))
            }
            Request::Decode(bytes) => {
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                format!("--decode-hex={hex}")
            }
        }
    }
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::Encode { code_points, flags } => {
                let cps = CodePoints::with_flags(code_points, flags.as_deref());
                let how = if flags.is_some() {
                    "with flags"
                } else {
                    "without flags"
                };
                write!(f, "encode [{cps}] {how}")
            }
            Request::Decode(bytes) => write!(f, "decode {:?}", String::from_utf8_lossy(bytes)),
        }
    }
}

/// Code points with their Appendix A flags (`U+` sets the flag).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodePoints {
    /// The values.
    pub values: Vec<u32>,
    /// One flag per value.
    pub flags: Vec<bool>,
}

impl CodePoints {
    /// `values` with `flags`, or with every flag clear when there are none.
    pub fn with_flags(values: &[u32], flags: Option<&[bool]>) -> Self {
        CodePoints {
            values: values.to_vec(),
            flags: flags.map_or_else(|| vec![false; values.len()], <[bool]>::to_vec),
        }
    }

    /// Parses whitespace-separated `u+XXXX`/`U+XXXX` tokens.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut cps = CodePoints::default();
        for token in text.split_whitespace() {
            let (cp, flag) =
                parse_code_point_token(token).ok_or_else(|| format!("bad code point {token:?}"))?;
            cps.values.push(cp);
            cps.flags.push(flag);
        }
        Ok(cps)
    }
}

impl From<Decoded> for CodePoints {
    /// A decoder's code points with their flags.
    fn from(decoded: Decoded) -> Self {
        CodePoints {
            values: decoded.code_points,
            flags: decoded.flags.to_vec(),
        }
    }
}

impl fmt::Display for CodePoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, (&cp, &flag)) in self.values.iter().zip(&self.flags).enumerate() {
            if k > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}+{cp:04X}", if flag { 'U' } else { 'u' })?;
        }
        Ok(())
    }
}

/// What a case expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Encoding succeeds with these bytes.
    Encoded(Vec<u8>),
    /// Decoding succeeds with these code points (and flags).
    Decoded(CodePoints),
    /// It fails with this kind.
    Error(ErrorKind),
}

/// Parses hexadecimal bytes (`"c3a9"`).
pub fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits in {text:?}"));
    }
    digits
        .chunks(2)
        .map(|pair| {
            let pair = std::str::from_utf8(pair).map_err(|_| format!("bad hex {text:?}"))?;
            u8::from_str_radix(pair, 16).map_err(|_| format!("bad hex {text:?}"))
        })
        .collect()
}

/// Why an implementation gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// It rejected the input: with the RFC status when it says which, `None`
    /// when it only says that it failed.
    Rejected(Option<ErrorKind>),
    /// The request is outside what it declares it supports; it was not run.
    Unsupported(String),
    /// It stopped at a size limit of its own (such as the RFC wrapper's
    /// "input or output is too large"): skipped and counted, not failed.
    Limit(String),
    /// It died: a signal, an uncaught exception or panic, a sanitizer
    /// report. The message is the line that says why (a panic's first
    /// line, a sanitizer's `SUMMARY:`, an exception's last line), whole.
    Crashed(String),
    /// It gave no answer in time, even when asked again with a longer
    /// time limit.
    Hung(String),
    /// The run's own time ran out while it was answering: no answer, and
    /// nothing to hold against it.
    Cancelled,
    /// It misbehaved in a way no conforming implementation can (a status it
    /// should never return, output it cannot have produced, an answer
    /// outside the protocol, ...).
    Broken(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Rejected(Some(kind)) => write!(f, "error {kind}"),
            EngineError::Rejected(None) => f.write_str("failed (no error kind given)"),
            EngineError::Unsupported(why) => write!(f, "unsupported: {why}"),
            EngineError::Limit(why) => write!(f, "own size limit: {why}"),
            EngineError::Crashed(why) => write!(f, "crashed: {why}"),
            EngineError::Hung(why) => write!(f, "hung: {why}"),
            EngineError::Cancelled => f.write_str("not finished: the run's time ran out"),
            EngineError::Broken(why) => write!(f, "broken: {why}"),
        }
    }
}

/// Describes an answer for a report.
pub fn describe(answer: &Result<Expected, EngineError>) -> String {
    match answer {
        Ok(Expected::Encoded(bytes)) => format!("{:?}", String::from_utf8_lossy(bytes)),
        Ok(Expected::Decoded(cps)) => format!("[{cps}]"),
        Ok(Expected::Error(kind)) => format!("error {kind}"),
        Err(e) => e.to_string(),
    }
}
