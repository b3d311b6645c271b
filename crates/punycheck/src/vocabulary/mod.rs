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
pub mod excerpt;
pub mod families;

pub use excerpt::{excerpt, quoted};

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
                format!("--encode={}{annotated}", shell_words::quote(&cps.compact()))
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
                write!(f, "encode [{}] {how}", cps.compact())
            }
            Request::Decode(bytes) => write!(f, "decode {}", compact_text(bytes)),
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

    /// Parses whitespace-separated `u+XXXX`/`U+XXXX` tokens. A token may
    /// end in `*N` (`u+0061*1927`): N copies of that code point and flag,
    /// N a decimal number from 1, so that long vectors stay short; and a
    /// token `u+XXXX..u+YYYY` stands for every code point from the first to
    /// the last, descending when the first is the larger; a token
    /// `FAMILY:N` (`distinct-shuffled:16384`) for the first N code points of
    /// a cost probe's family ([`families::Family`]). At most
    /// [`CodePoints::MAX_PARSED`] code points in all, checked before
    /// anything is allocated for a run.
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        let mut cps = CodePoints::default();
        for token in text.split_whitespace() {
            if let Some((name, count)) = token.split_once(':') {
                let family = families::Family::named(name)
                    .ok_or_else(|| ParseError::BadFamily(token.to_string()))?;
                let count = parse_run_length(token, count)?;
                if cps.values.len() + count > Self::MAX_PARSED {
                    return Err(ParseError::TooMany(token.to_string()));
                }
                cps.values.extend(family.code_points(count));
                cps.flags.resize(cps.values.len(), false);
                continue;
            }
            if let Some((first, last)) = token.split_once("..") {
                cps.push_range(token, first, last)?;
                continue;
            }
            let (single, count) = match token.split_once('*') {
                None => (token, 1),
                Some((single, count)) => (single, parse_run_length(token, count)?),
            };
            let (cp, flag) = parse_code_point_token(single)
                .ok_or_else(|| ParseError::BadCodePoint(token.to_string()))?;
            if cps.values.len() + count > Self::MAX_PARSED {
                return Err(ParseError::TooMany(token.to_string()));
            }
            cps.values.extend(std::iter::repeat_n(cp, count));
            cps.flags.extend(std::iter::repeat_n(flag, count));
        }
        Ok(cps)
    }

    /// The most code points [`CodePoints::parse`] accepts in one text.
    pub const MAX_PARSED: usize = 10_000_000;

    /// Appends the range token `first..last` (`u+4E00..u+5DFF`: every code
    /// point from the first to the last, ascending, or descending when the
    /// first is the larger), both ends with the same flag.
    fn push_range(&mut self, token: &str, first: &str, last: &str) -> Result<(), ParseError> {
        let bad = || ParseError::BadRange(token.to_string());
        let (from, flag) = parse_code_point_token(first).ok_or_else(bad)?;
        let (to, to_flag) = parse_code_point_token(last).ok_or_else(bad)?;
        if flag != to_flag {
            return Err(bad());
        }
        let count = from.abs_diff(to) as usize + 1;
        if self.values.len() + count > Self::MAX_PARSED {
            return Err(ParseError::TooMany(token.to_string()));
        }
        if from <= to {
            self.values.extend(from..=to);
        } else {
            self.values.extend((to..=from).rev());
        }
        self.flags.extend(std::iter::repeat_n(flag, count));
        Ok(())
    }

    /// The shortest text [`CodePoints::parse`] reads back as `self`: like
    /// `Display`, except that a run of [`CodePoints::MIN_RUN`] or more
    /// equal code points with equal flags is one `u+XXXX*N` token, and a
    /// range of [`CodePoints::MIN_RANGE`] or more consecutive ones (one
    /// apart, ascending or descending) one `u+XXXX..u+YYYY` token. For
    /// vector files; `Display` stays one token per code point, which is
    /// what the `exec:` convention sends.
    pub fn compact(&self) -> String {
        let pairs: Vec<(u32, bool)> = self
            .values
            .iter()
            .copied()
            .zip(self.flags.iter().copied())
            .collect();
        let token = |(cp, flag): (u32, bool)| format!("{}+{cp:04X}", if flag { 'U' } else { 'u' });
        let mut tokens = Vec::new();
        let mut rest = pairs.as_slice();
        while let Some(&first) = rest.first() {
            // Consecutive code points, one apart, in one direction.
            let step = |a: &(u32, bool), b: &(u32, bool), up: bool| {
                a.1 == b.1
                    && if up {
                        a.0.checked_add(1) == Some(b.0)
                    } else {
                        a.0.checked_sub(1) == Some(b.0)
                    }
            };
            let ranged = |up: bool| {
                1 + rest
                    .windows(2)
                    .take_while(|w| step(&w[0], &w[1], up))
                    .count()
            };
            let (up, down) = (ranged(true), ranged(false));
            let run = rest.iter().take_while(|&&p| p == first).count();
            let taken = if up.max(down) >= Self::MIN_RANGE {
                let len = up.max(down);
                tokens.push(format!("{}..{}", token(first), token(rest[len - 1])));
                len
            } else if run >= Self::MIN_RUN {
                tokens.push(format!("{}*{run}", token(first)));
                run
            } else {
                tokens.push(token(first));
                1
            };
            rest = &rest[taken..];
        }
        tokens.join(" ")
    }

    /// The shortest run [`CodePoints::compact`] writes as `u+XXXX*N`.
    pub const MIN_RUN: usize = 4;

    /// The shortest range of consecutive code points that
    /// [`CodePoints::compact`] writes as `u+XXXX..u+YYYY`.
    pub const MIN_RANGE: usize = 8;
}

/// The `N` of a `u+XXXX*N` token: decimal digits, from 1 to
/// [`CodePoints::MAX_PARSED`].
fn parse_run_length(token: &str, count: &str) -> Result<usize, ParseError> {
    if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::BadRunLength(token.to_string()));
    }
    // Only digits, so parsing fails only when the number does not fit.
    match count.parse::<usize>() {
        Ok(0) => Err(ParseError::ZeroRunLength(token.to_string())),
        Ok(n) if n <= CodePoints::MAX_PARSED => Ok(n),
        _ => Err(ParseError::RunTooLong(token.to_string())),
    }
}

/// Why a text of code point tokens ([`CodePoints::parse`]) or of
/// hexadecimal bytes ([`parse_hex`]) does not parse; each holds the token
/// (or the whole text, for hexadecimal) it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A token that is not `u+XXXX` or `U+XXXX` (with `*N`).
    BadCodePoint(String),
    /// A range token that is not `u+XXXX..u+YYYY` with both ends alike in
    /// case.
    BadRange(String),
    /// The `N` of `u+XXXX*N` is not a decimal number.
    BadRunLength(String),
    /// A `FAMILY:N` token whose family is none of the cost probe's.
    BadFamily(String),
    /// `u+XXXX*0`.
    ZeroRunLength(String),
    /// The `N` of `u+XXXX*N` is above [`CodePoints::MAX_PARSED`].
    RunTooLong(String),
    /// The text holds more than [`CodePoints::MAX_PARSED`] code points;
    /// the token where the count went over.
    TooMany(String),
    /// An odd number of hexadecimal digits.
    OddHex(String),
    /// Something other than hexadecimal digits and whitespace.
    BadHex(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let max = CodePoints::MAX_PARSED;
        match self {
            ParseError::BadCodePoint(token) => write!(f, "bad code point {token:?}"),
            ParseError::BadRange(token) => write!(
                f,
                "bad range {token:?} (u+XXXX..u+YYYY, both ends alike in case)"
            ),
            ParseError::BadRunLength(token) => write!(
                f,
                "bad run length in {token:?} (u+XXXX*N, N a decimal number from 1)"
            ),
            ParseError::BadFamily(token) => {
                let names: Vec<&str> = families::Family::ALL
                    .iter()
                    .chain(&families::Family::NAMES)
                    .chain(&families::Family::MANY_LABELS)
                    .map(|f| f.name())
                    .collect();
                write!(
                    f,
                    "bad family in {token:?} (FAMILY:N, the family one of {})",
                    names.join(", ")
                )
            }
            ParseError::ZeroRunLength(token) => {
                write!(f, "run length 0 in {token:?} (N starts at 1)")
            }
            ParseError::RunTooLong(token) => write!(f, "run length in {token:?} exceeds {max}"),
            ParseError::TooMany(token) => write!(f, "more than {max} code points (at {token:?})"),
            ParseError::OddHex(text) => {
                write!(f, "odd number of hex digits in {}", quoted(text.as_bytes()))
            }
            ParseError::BadHex(text) => write!(f, "bad hex {}", quoted(text.as_bytes())),
        }
    }
}

impl std::error::Error for ParseError {}

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
pub fn parse_hex(text: &str) -> Result<Vec<u8>, ParseError> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return Err(ParseError::OddHex(text.to_string()));
    }
    let bad = || ParseError::BadHex(text.to_string());
    digits
        .chunks(2)
        .map(|pair| {
            let pair = std::str::from_utf8(pair).map_err(|_| bad())?;
            u8::from_str_radix(pair, 16).map_err(|_| bad())
        })
        .collect()
}

/// Why an implementation gave no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// It rejected the input: with the RFC status when it says which, `None`
    /// when it only says that it failed.
    Rejected(Option<ErrorKind>),
    /// It rejected the input without saying which kind, as
    /// `Rejected(None)`, and said why in words of its own (`failed: Illegal
    /// char found` gives `Illegal char found`, quoted by
    /// [`excerpt()`]): judged exactly as `Rejected(None)`, and one cause with
    /// it whatever the words; they are only shown.
    Failed(String),
    /// The request is outside what it declares it supports; it was not run.
    Unsupported(String),
    /// It stopped at a size limit of its own (such as the RFC wrapper's
    /// "input or output is too large"): counted, not failed, when the
    /// request or its result is beyond a limit it declares; otherwise a
    /// refusal like any other.
    Limit(String),
    /// It died: a signal, an uncaught exception or panic, a sanitizer
    /// report. The message is the line that says why (a panic's first
    /// line, a sanitizer's `SUMMARY:`, an exception's last line), whole up
    /// to [`excerpt::EXCERPT_BYTES`] bytes ([`excerpt()`]).
    Crashed(String),
    /// It gave no answer in time, even when asked again with a longer
    /// time limit.
    Hung(String),
    /// It was killed for holding more resident memory than the limit
    /// (`--memory-limit`): the message says how much it held.
    Memory(String),
    /// The run's own time ran out while it was answering: no answer, and
    /// nothing to hold against it.
    Cancelled,
    /// It misbehaved in a way no conforming implementation can (a status it
    /// should never return, output it cannot have produced, an answer
    /// outside the protocol, ...).
    Broken(String),
}

impl EngineError {
    /// Whether it is a refusal that does not say which kind:
    /// `Rejected(None)` or `Failed(_)`.
    pub fn is_kindless_refusal(&self) -> bool {
        matches!(self, EngineError::Rejected(None) | EngineError::Failed(_))
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Rejected(Some(kind)) => write!(f, "error {kind}"),
            EngineError::Rejected(None) => f.write_str("failed (no error kind given)"),
            EngineError::Failed(why) => write!(f, "failed (no error kind given): {why}"),
            EngineError::Unsupported(why) => write!(f, "unsupported: {why}"),
            EngineError::Limit(why) => write!(f, "own size limit: {why}"),
            EngineError::Crashed(why) => write!(f, "crashed: {why}"),
            EngineError::Hung(why) => write!(f, "hung: {why}"),
            EngineError::Memory(why) => write!(f, "over the memory limit: {why}"),
            EngineError::Cancelled => f.write_str("not finished: the run's time ran out"),
            EngineError::Broken(why) => write!(f, "broken: {why}"),
        }
    }
}

/// Text with runs of 8 or more of one byte written `N × "c"`, the pieces
/// joined with `+`: `1927 × "a" + "-j368346o"`; bytes that are not UTF-8
/// in hexadecimal (`hex fffe2d`).
pub fn compact_text(bytes: &[u8]) -> String {
    // Bytes that are not UTF-8 are written in hexadecimal, never through
    // U+FFFD, which would lose them.
    let utf8 = std::str::from_utf8(bytes).is_ok();
    let show = |chunk: &[u8]| {
        if utf8 {
            format!("{:?}", String::from_utf8_lossy(chunk))
        } else {
            let hex: String = chunk.iter().map(|b| format!("{b:02x}")).collect();
            format!("hex {hex}")
        }
    };
    let mut parts: Vec<String> = Vec::new();
    let mut plain: Vec<u8> = Vec::new();
    let mut k = 0;
    while k < bytes.len() {
        let run = bytes[k..].iter().take_while(|&&b| b == bytes[k]).count();
        if run >= 8 {
            if !plain.is_empty() {
                parts.push(show(&plain));
                plain.clear();
            }
            parts.push(format!("{run} × {}", show(&bytes[k..k + 1])));
        } else {
            plain.extend_from_slice(&bytes[k..k + run]);
        }
        k += run;
    }
    if !plain.is_empty() || parts.is_empty() {
        parts.push(show(&plain));
    }
    parts.join(" + ")
}

/// Describes an answer for a report (long runs written compactly).
pub fn describe(answer: &Result<Expected, EngineError>) -> String {
    match answer {
        Ok(Expected::Encoded(bytes)) => compact_text(bytes),
        Ok(Expected::Decoded(cps)) => format!("[{}]", cps.compact()),
        Ok(Expected::Error(kind)) => format!("error {kind}"),
        Err(e) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Long inputs print compactly, in ranges and runs, and read back.
    #[test]
    fn ranges_and_runs_are_compact_and_read_back() {
        let ascending: Vec<u32> = (0x4E00..=0x5DFF).collect();
        let cps = CodePoints::with_flags(&ascending, None);
        assert_eq!(cps.compact(), "u+4E00..u+5DFF");
        let mut mixed: Vec<u32> = (0x4E00..=0x4E07).rev().collect();
        mixed.extend([0x61; 5]);
        mixed.extend([0x62, 0x63, 0x64]);
        let flags: Vec<bool> = (0..mixed.len()).map(|k| k == mixed.len() - 1).collect();
        let cps = CodePoints::with_flags(&mixed, Some(&flags));
        assert_eq!(
            cps.compact(),
            "u+4E07..u+4E00 u+0061*5 u+0062 u+0063 U+0064"
        );
        assert_eq!(CodePoints::parse(&cps.compact()).unwrap(), cps);
        for bad in [
            "u+0061..U+0062",
            "u+0061..",
            "..u+0061",
            "u+0000..u+FFFFFFFF",
        ] {
            assert!(CodePoints::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn long_runs_of_text_are_counted() {
        let mut text = vec![b'a'; 1927];
        text.extend_from_slice(b"-j368346o");
        assert_eq!(compact_text(&text), "1927 × \"a\" + \"-j368346o\"");
        assert_eq!(compact_text(b"ab-c_d"), "\"ab-c_d\"");
        assert_eq!(compact_text(b""), "\"\"");
        // Not UTF-8: every byte kept, in hexadecimal.
        assert_eq!(compact_text(b"\xff\xfe-lz"), "hex fffe2d6c7a");
        assert_eq!(
            compact_text(b"\x80\x80\x80\x80\x80\x80\x80\x80a"),
            "8 × hex 80 + hex 61"
        );
    }

    fn cps(pairs: &[(u32, bool)]) -> CodePoints {
        CodePoints {
            values: pairs.iter().map(|p| p.0).collect(),
            flags: pairs.iter().map(|p| p.1).collect(),
        }
    }

    #[test]
    fn run_length_tokens_repeat_one_code_point_and_flag() {
        let parsed = CodePoints::parse("u+0061*3 U+10FFFF*2 u+0062").unwrap();
        assert_eq!(
            parsed,
            cps(&[
                (0x61, false),
                (0x61, false),
                (0x61, false),
                (0x10_FFFF, true),
                (0x10_FFFF, true),
                (0x62, false),
            ])
        );
        assert_eq!(
            CodePoints::parse("u+0061*1").unwrap(),
            cps(&[(0x61, false)])
        );
        let long = CodePoints::parse("u+0061*1927").unwrap();
        assert_eq!(long.values, vec![0x61; 1927]);
        // Display, the exec: wire format, stays one token per code point.
        assert_eq!(
            CodePoints::parse("U+0041*2").unwrap().to_string(),
            "U+0041 U+0041"
        );
    }

    #[test]
    fn bad_run_lengths_are_errors_not_panics() {
        for text in [
            "u+0061*0",
            "u+0061*",
            "*3",
            "u+*3",
            "u+0061*-1",
            "u+0061*+1",
            "u+0061*1.5",
            "u+0061*3*3",
            "u+0061*x",
            "u+0061 *3",
            "u+0061*10000001",
            "u+0061*18446744073709551616",
            "u+0061*99999999999999999999999999",
        ] {
            assert!(CodePoints::parse(text).is_err(), "{text:?} parsed");
        }
        // The cap is on the total, checked before a run is allocated.
        let max = CodePoints::MAX_PARSED;
        assert!(CodePoints::parse(&format!("u+0061*{max} u+0062")).is_err());
        assert!(CodePoints::parse(&format!("u+0061*{max} u+0062*{max}")).is_err());
        assert_eq!(
            CodePoints::parse(&format!("u+0061*{}", max - 1))
                .unwrap()
                .values
                .len(),
            max - 1
        );
    }

    #[test]
    fn compact_writes_runs_of_four_or_more() {
        let x = cps(&[
            (0x61, false),
            (0x61, false),
            (0x61, false),
            (0x62, false),
            (0x62, false),
            (0x62, false),
            (0x62, false),
            (0x62, true),
            (0x10_FFFF, false),
        ]);
        assert_eq!(x.compact(), "u+0061 u+0061 u+0061 u+0062*4 U+0062 u+10FFFF");
        assert_eq!(CodePoints::default().compact(), "");
        let plain = cps(&[(0x61, true), (0xFFFF_FFFF, false)]);
        assert_eq!(plain.compact(), plain.to_string());
    }

    #[test]
    fn compact_reads_back_as_itself() {
        let mut state = 0x3492_u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % n
        };
        for _ in 0..500 {
            let mut x = CodePoints::default();
            for _ in 0..next(12) {
                let value = [0x61, 0x80, 0x10_FFFF, 0xFFFF_FFFF][next(4) as usize];
                let flag = next(3) == 0;
                for _ in 0..=next(7) {
                    x.values.push(value);
                    x.flags.push(flag);
                }
            }
            let text = x.compact();
            assert_eq!(CodePoints::parse(&text).unwrap(), x, "{text}");
            assert_eq!(CodePoints::parse(&x.to_string()).unwrap(), x);
            assert!(text.len() <= x.to_string().len());
        }
    }
}
