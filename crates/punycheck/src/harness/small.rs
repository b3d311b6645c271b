//! The small cases every check asks before it generates anything: the
//! probe's questions, then for Punycode every byte value in each position
//! class of an encoded string and every code point below 0x100 encoded
//! alone and before a non-basic one. Sampling asks one character of 95 in
//! a given position only now and then; these ask each once, so that a
//! decoder that reads `{` as a digit, or an encoder that takes U+007F for
//! non-basic (RFC 3492 section 5: every code point below 0x80 is basic),
//! is caught by every check, and caught the same way each time (a
//! baseline records which of them showed a known cause).
//!
//! They come in telling order (the delimiter, the edges of the digit
//! ranges, the end of the basic range first; each value in every position
//! class before the next value): a check bounded by `--cases` asks them
//! all, one bounded by `--seconds` alone asks them after the vectors, in
//! its share of the time, so that what it asks is a sample of every class
//! ([`super::check`]).
//!
//! Each case's expected answer is the clean-room reference's (the
//! differential tests hold it equal to the RFC's C code on every input),
//! and each is named for what it asks (`small:decode-7b-as-later-digit`),
//! the name a report and a baseline give it.

use super::compare::reference_for;
use super::vectors::{Case, Input};
use crate::codec::Codec;
use crate::engines::Engine;
use crate::engines::external::probe_questions;
use crate::punycode;
use crate::vocabulary::{CodePoints, Request};

/// What the cases' file is called in reports.
pub const FILE: &str = "small cases";

/// How every small case's name begins (no vector's does).
pub const PREFIX: &str = "small:";

/// Where every case's expected answer comes from.
const PROVENANCE: &str =
    "computed by the clean-room reference (equal to RFC 3492's C code on every input)";

/// The code points a code point below 0x100 is encoded before: one
/// non-basic code point, so that the encoder's main loop runs.
const NON_BASIC: u32 = 0x4E00;

/// The encoded string whose bytes are replaced, one position class at a
/// time: `ab-cja0f` (a, b, U+00E9, U+00FC), a literal part, the delimiter,
/// a first delta of three digits and a later one.
const BASE: [u32; 4] = [0x61, 0x62, 0xE9, 0xFC];

/// The small cases for `engine`: the probe's questions for every codec
/// with a reference, and for Punycode the byte and code point cases.
pub fn cases(engine: &dyn Engine) -> Vec<Case> {
    let codec = engine.codec();
    let (first, _) = probe_questions(engine);
    let mut requests: Vec<(String, Request)> = first
        .into_iter()
        .map(|request| {
            let name = match &request {
                Request::Encode { .. } => "small:probe-encode",
                Request::Decode(_) => "small:probe-decode",
            };
            (name.to_string(), request)
        })
        .collect();
    if codec == Codec::Punycode {
        requests.extend(punycode_requests());
    }
    requests
        .into_iter()
        .filter_map(|(name, request)| {
            let expected = reference_for(codec, &request)?;
            Some(Case {
                name,
                file: FILE.into(),
                codec,
                input: match request {
                    Request::Encode { code_points, .. } => {
                        Input::Encode(CodePoints::with_flags(&code_points, None))
                    }
                    Request::Decode(bytes) => Input::Decode(bytes),
                },
                annotations: false,
                expected,
                overflow_check: None,
                limit_check: None,
                reason: None,
                provenance: PROVENANCE.into(),
            })
        })
        .collect()
}

/// The bytes (and code points below 0x100) that show a defect most often,
/// asked first: the delimiter, the edges of the three digit ranges and the
/// characters beside them (`/` `:` `@` `[` `` ` `` `{`, `_` that some
/// decoders take for a digit), the end of the basic range (U+007E, U+007F,
/// U+0080) and the bytes a C program treats apart (NUL, 0xFF, space).
const TELLING: [u8; 24] = [
    b'-', b'{', b'_', b'`', b'@', b'[', b'/', b':', b'0', b'9', b'a', b'z', b'A', b'Z', 0x7F, 0x80,
    0x00, 0xFF, b' ', b'.', 0x7E, b'+', 0x81, 0xFE,
];

/// Where `value` comes in the order of the small cases: [`TELLING`]'s own
/// first, then every other value in a fixed scattered order (167 is odd,
/// so `167 * value mod 256` visits each once), so that any first part of
/// the order spreads over the whole range.
fn rank(value: u8) -> usize {
    match TELLING.iter().position(|&t| t == value) {
        Some(k) => k,
        None => TELLING.len() + (usize::from(value) * 167) % 256,
    }
}

/// Every code point below 0x100 alone and before [`NON_BASIC`]; every byte
/// alone, and in place of each position class of [`BASE`]'s encoding. In
/// telling order ([`rank`]), each value in every class before the next
/// value: a check bounded by `--seconds` alone asks a first part of them
/// (as its time allows), a sample of every class alike.
fn punycode_requests() -> Vec<(String, Request)> {
    let mut requests = Vec::new();
    for cp in 0..0x100u32 {
        for (how, code_points) in [("alone", vec![cp]), ("then-u+4E00", vec![cp, NON_BASIC])] {
            requests.push((
                cp as u8,
                format!("small:encode-u+{cp:04X}-{how}"),
                Request::Encode {
                    code_points,
                    flags: None,
                },
            ));
        }
    }
    let base = punycode::encode(&BASE, None).expect("the base encodes");
    let places = positions(&base);
    for byte in 0..=u8::MAX {
        requests.push((
            byte,
            format!("small:decode-{byte:02x}-alone"),
            Request::Decode(vec![byte]),
        ));
        for &(class, at) in &places {
            let mut text = base.clone();
            if at == text.len() {
                text.push(byte);
            } else {
                text[at] = byte;
            }
            requests.push((
                byte,
                format!("small:decode-{byte:02x}-as-{class}"),
                Request::Decode(text),
            ));
        }
    }
    requests.sort_by_key(|r| rank(r.0));
    requests
        .into_iter()
        .map(|(_, name, request)| (name, request))
        .collect()
}

/// The position classes of an encoded string (with a literal part of at
/// least two code points and two deltas, the first of at least two
/// digits), each with the index of its byte: the first, a later literal
/// byte, the delimiter, the first digit after it, a later digit of the
/// first delta, the first digit of a later delta, and the end.
fn positions(base: &[u8]) -> Vec<(&'static str, usize)> {
    let delimiter = base
        .iter()
        .rposition(|&b| b == b'-')
        .expect("the base has a delimiter");
    let (_, steps) = punycode::decode_traced(base);
    let first_delta = steps.first().map_or(1, |s| s.digits.len());
    vec![
        ("first-byte", 0),
        ("literal", delimiter - 1),
        ("delimiter", delimiter),
        ("first-digit", delimiter + 1),
        ("later-digit", delimiter + 2),
        ("later-delta", delimiter + 1 + first_delta),
        ("end", base.len()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position classes are where their names say, in `ab-cja0f`
    /// (read by hand: the first delta is `cja`, the second `0f`).
    #[test]
    fn the_positions_are_where_they_say() {
        let base = punycode::encode(&BASE, None).unwrap();
        assert_eq!(base, b"ab-cja0f");
        let at = |name| {
            positions(&base)
                .into_iter()
                .find(|p| p.0 == name)
                .unwrap()
                .1
        };
        assert_eq!(base[at("first-byte")], b'a');
        assert_eq!(base[at("literal")], b'b');
        assert_eq!(base[at("delimiter")], b'-');
        assert_eq!(base[at("first-digit")], b'c');
        assert_eq!(base[at("later-digit")], b'j');
        assert_eq!(base[at("later-delta")], b'0');
        assert_eq!(at("end"), base.len());
    }

    /// Every byte in every class, every code point below 0x100 twice, each
    /// name once; `{` as a digit is asked, and so is U+007F alone.
    #[test]
    fn every_byte_and_code_point_is_asked_once() {
        let requests = punycode_requests();
        assert_eq!(requests.len(), 256 * 2 + 256 * 8);
        let names: std::collections::BTreeSet<_> = requests.iter().map(|r| &r.0).collect();
        assert_eq!(names.len(), requests.len());
        let find = |name: &str| &requests.iter().find(|r| r.0 == name).unwrap().1;
        assert_eq!(
            find("small:decode-7b-as-later-digit"),
            &Request::Decode(b"ab-c{a0f".to_vec())
        );
        assert_eq!(
            find("small:encode-u+007F-alone"),
            &Request::Encode {
                code_points: vec![0x7F],
                flags: None
            }
        );
        // The telling values first, every class of each together: `{` in
        // every place within the first 20 questions.
        let first: Vec<&String> = requests.iter().take(20).map(|r| &r.0).collect();
        assert!(first.contains(&&"small:decode-7b-as-later-digit".to_string()));
        assert!(first.contains(&&"small:encode-u+007B-alone".to_string()));
        let ranks: std::collections::BTreeSet<usize> = (0..=u8::MAX).map(rank).collect();
        assert_eq!(ranks.len(), 256, "every value has a place of its own");
        // U+007F is basic: it is copied, and the delimiter follows it.
        assert_eq!(punycode::encode(&[0x7F], None).unwrap(), b"\x7f-");
    }
}
