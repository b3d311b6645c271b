//! Safe wrapper around draft-ietf-idn-amc-ace-z-01 Appendix C, the sample
//! code of AMC-ACE-Z 0.3.1, compiled from `csrc/amc_ace_z.c`; and reading
//! the draft's text (Appendix C and the examples of section 7).
//!
//! The project's copy of the draft, `vectors/draft-ietf-idn-amc-ace-z-01.txt`
//! ([`DRAFT_TEXT`]), lost its line breaks: every run of whitespace is one
//! space. `csrc/amc_ace_z.c` is its Appendix C with the line breaks
//! restored (the preprocessor lines need them) and nothing else changed; the
//! test `c_file_is_appendix_c_token_for_token` (tests/amc_ace_z.rs) compares
//! both with [`super::tokens`].
//!
//! `build.rs` renames `amc_ace_z_encode` and `amc_ace_z_decode` to
//! `punycheck_amc_ace_z_encode` and `punycheck_amc_ace_z_decode`. Their
//! interface is `punycode_encode()`'s and `punycode_decode()`'s, and so is
//! `enum amc_ace_status`, so this module shares the RFC wrapper's buffer
//! sizing and [`CError`]. What the two samples do differently is in
//! `docs/c-samples.md`.

use std::os::raw::{c_char, c_int, c_uchar};

use super::{CError, PunycodeUint, decode_with, encode_with};
use crate::punycode::Decoded;
use crate::rfc_text::parse_code_point_token;

pub use super::{MAX_DECODE_INPUT, MAX_ENCODE_INPUT};

unsafe extern "C" {
    fn punycheck_amc_ace_z_encode(
        input_length: PunycodeUint,
        input: *const PunycodeUint,
        uppercase_flags: *const c_uchar,
        output_length: *mut PunycodeUint,
        output: *mut c_char,
    ) -> c_int;

    fn punycheck_amc_ace_z_decode(
        input_length: PunycodeUint,
        input: *const c_char,
        output_length: *mut PunycodeUint,
        output: *mut PunycodeUint,
        uppercase_flags: *mut c_uchar,
    ) -> c_int;
}

/// Encodes with the draft's `amc_ace_z_encode()` (no signature is added).
///
/// `uppercase_flags` as in [`crate::punycode::encode`] (`None` passes a null
/// pointer), except that the draft's code copies basic code points as they
/// are whatever their flags: the flags only choose the case of the last
/// digit of each delta.
pub fn encode(input: &[u32], uppercase_flags: Option<&[bool]>) -> Result<Vec<u8>, CError> {
    // SAFETY: amc_ace_z_encode() checks `out` against *output_length before
    // every store (the literal copy checks for room for two, the digit loop
    // before each digit, which also covers the final digit), reads only
    // input_length code points and flags, and keeps no pointer.
    unsafe { encode_with(punycheck_amc_ace_z_encode, input, uppercase_flags) }
}

/// Decodes with the draft's `amc_ace_z_decode()` (the input carries no
/// signature), returning code points and uppercase flags.
pub fn decode(input: &[u8]) -> Result<Decoded, CError> {
    // SAFETY: amc_ace_z_decode() checks `b > max_out` before the literal copy
    // and `out >= max_out` before every insertion, moves only `out - i`
    // elements within the first `out + 1`, reads only input_length bytes,
    // and keeps no pointer.
    unsafe { decode_with(punycheck_amc_ace_z_decode, input) }
}

/// The program `build.rs` compiles from `csrc/amc_ace_z.c` as it stands,
/// with the draft's own test wrapper as `main`: it follows the same
/// command-line convention as the RFC's (`-e`, `-d`, `u+XXXX`/`U+XXXX`).
pub const WRAPPER: &str = env!("PUNYCHECK_AMC_ACE_Z_WRAPPER");

/// draft-ietf-idn-amc-ace-z-01 as the project received it: whitespace
/// collapsed, so the whole document is one line.
pub const DRAFT_TEXT: &str = include_str!("../../vectors/draft-ietf-idn-amc-ace-z-01.txt");

/// The heading of Appendix C; the table of contents names it first.
const APPENDIX_C_HEADING: &str = "C. AMC-ACE-Z sample implementation ";

/// The running footer that follows Appendix C.
const END_OF_DOCUMENT: &str = "INTERNET-DRAFT expires";

/// Appendix C of the draft: the text after the appendix heading (its last
/// occurrence, past the table of contents) up to the closing footer,
/// trimmed. In [`DRAFT_TEXT`] it is one line.
pub fn appendix_c(text: &str) -> Option<&str> {
    let start = text.rfind(APPENDIX_C_HEADING)? + APPENDIX_C_HEADING.len();
    let length = text[start..].find(END_OF_DOCUMENT)?;
    Some(text[start..start + length].trim())
}

/// One example of the draft's section 7.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The letter, `A` to `S`.
    pub id: char,
    /// The title, as far as the text before the first code point.
    pub title: String,
    /// The code points as printed, each `u+XXXX` or `U+XXXX` (the case of
    /// the `u` is the Appendix B flag).
    pub code_points: Vec<(u32, bool)>,
    /// Everything printed after `AMC-Z:` up to the next example (or the end
    /// of the section), with the `\ ` of a broken line removed. In the
    /// collapsed text the end of the string cannot be told from the prose
    /// that may follow it (example (S) has spaces of its own), so compare
    /// with [`printed_as`].
    pub printed: String,
}

/// Whether `printed` (an [`Example::printed`]) shows exactly `ace`: it
/// starts with `ace`, followed by the end or by a space that starts prose.
pub fn printed_as(printed: &str, ace: &str) -> bool {
    printed
        .strip_prefix(ace)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

/// The examples (A) to (S) of section 7, as printed in the draft.
pub fn examples(text: &str) -> Vec<Example> {
    let heading = "7. AMC-ACE-Z example strings ";
    let Some(start) = text.rfind(heading) else {
        return Vec::new();
    };
    let section = &text[start..];
    let section = &section[..section
        .find(" 8. Security considerations")
        .unwrap_or(section.len())];
    // The examples start at "(A) ", "(B) ", ... in order; searching for
    // the next letter only after the previous one skips any parenthesis of
    // the prose.
    let mut starts = Vec::new();
    let mut from = 0;
    for id in 'A'..='Z' {
        let marker = format!(" ({id}) ");
        match section[from..].find(&marker) {
            Some(at) => {
                starts.push((id, from + at + marker.len()));
                from += at + marker.len();
            }
            None => break,
        }
    }
    let mut examples = Vec::new();
    for (k, &(id, begin)) in starts.iter().enumerate() {
        let end = starts
            .get(k + 1)
            .map_or(section.len(), |&(_, next)| next - " (X) ".len());
        let chunk = &section[begin..end];
        let Some((head, printed)) = chunk.split_once(" AMC-Z: ") else {
            continue;
        };
        let words: Vec<&str> = head.split_whitespace().collect();
        let first_code_point = words
            .iter()
            .position(|w| parse_code_point_token(w).is_some())
            .unwrap_or(words.len());
        examples.push(Example {
            id,
            title: words[..first_code_point].join(" "),
            code_points: words[first_code_point..]
                .iter()
                .filter_map(|w| parse_code_point_token(w))
                .collect(),
            printed: printed.trim().replace("\\ ", ""),
        });
    }
    examples
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn appendix_c_is_found_from_its_first_to_its_last_token() {
        let code = appendix_c(DRAFT_TEXT).expect("Appendix C is in the draft");
        assert!(code.starts_with("/*****"), "{}", &code[..40]);
        assert!(code.ends_with("compiler warning */ }"), "{code}");
    }

    #[test]
    fn nineteen_examples_with_their_code_points() {
        let examples = examples(DRAFT_TEXT);
        let ids: String = examples.iter().map(|e| e.id).collect();
        assert_eq!(ids, "ABCDEFGHIJKLMNOPQRS");
        let b = &examples[1];
        assert_eq!(b.title, "Chinese (simplified):");
        assert_eq!(b.code_points.len(), 9);
        assert_eq!(b.code_points[0], (0x4ED6, false));
        assert!(printed_as(&b.printed, "ihqwcrb4cv8a8dqg056pqjye"));
        // The broken line of (G) is joined; prose after (K) is not part of
        // its string.
        assert!(examples[6].printed.contains("a5jpsd879"));
        assert!(printed_as(
            &examples[10].printed,
            "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"
        ));
        assert!(!printed_as(&examples[10].printed, "Tisaohkhngthchniting"));
        // (S) is ASCII with spaces of its own.
        assert_eq!(examples[18].code_points.len(), 11);
        assert!(printed_as(&examples[18].printed, "-> $1.00 <--"));
    }
}
