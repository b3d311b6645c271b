//! A small C tokenizer: enough to say that two renderings of the same C code
//! (the draft's flattened Appendix C and `csrc/amc_ace_z.c`, or the RFC's
//! and the draft's samples) are the same token for token.
//!
//! It knows identifiers, numbers (C's preprocessing numbers), string and
//! character literals, punctuators, comments, and the header name of an
//! `#include <...>` line. Whitespace separates tokens and is otherwise
//! dropped, so line breaks do not matter. A comment is kept as one token
//! whose text has every run of whitespace made a single space: the draft's
//! copy lost the line breaks and the alignment padding inside comments, and
//! this makes both sides compare alike. String and character literals are
//! kept exactly.
//!
//! Every token records whether it is the first on its line, so that the
//! preprocessor lines of a file can be checked (a `#` must start its line).

use std::fmt;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An identifier or keyword.
    Identifier,
    /// A preprocessing number (`0x80`, `26`, `1`).
    Number,
    /// A string literal, quotes included.
    String,
    /// A character literal, quotes included.
    Char,
    /// A punctuator (`(`, `>=`, `#`, `...`).
    Punctuator,
    /// The `<...>` of an `#include` line.
    HeaderName,
    /// A comment, whitespace normalized.
    Comment,
}

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: Kind,
    /// Its text (for comments, with whitespace runs made single spaces).
    pub text: String,
    /// Its line, from 1.
    pub line: usize,
    /// Whether only whitespace precedes it on its line.
    pub starts_line: bool,
}

impl Token {
    /// Kind and text only: what two renderings must agree on.
    pub fn key(&self) -> (Kind, &str) {
        (self.kind, &self.text)
    }
}

/// Where and why tokenizing failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Byte offset into the source.
    pub offset: usize,
    /// Line, from 1.
    pub line: usize,
    /// What was found there.
    pub what: &'static str,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} (byte {}): {}",
            self.line, self.offset, self.what
        )
    }
}

impl std::error::Error for Error {}

/// C's punctuators, longest first so that the first match is the longest.
const PUNCTUATORS: &[&str] = &[
    "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "[", "]", "(", ")", "{", "}", ".", ",", ";",
    ":", "?", "~", "!", "+", "-", "*", "/", "%", "&", "|", "^", "<", ">", "=", "#",
];

fn normalize_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The length of a quoted literal starting at `bytes[0]` (the quote), or
/// `None` when it does not end on the same line.
fn literal_length(bytes: &[u8]) -> Option<usize> {
    let quote = bytes[0];
    let mut k = 1;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' => k += 2,
            b'\n' => return None,
            c if c == quote => return Some(k + 1),
            _ => k += 1,
        }
    }
    None
}

/// Tokenizes C source.
pub fn tokenize(source: &str) -> Result<Vec<Token>, Error> {
    let bytes = source.as_bytes();
    let mut tokens: Vec<Token> = Vec::new();
    let mut pos = 0;
    let mut line = 1;
    let mut line_has_token = false;
    while pos < bytes.len() {
        let c = bytes[pos];
        let error = |what| Error {
            offset: pos,
            line,
            what,
        };
        if c == b'\n' {
            line += 1;
            line_has_token = false;
            pos += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            pos += 1;
            continue;
        }
        let rest = &bytes[pos..];
        let after_include = tokens.len() >= 2
            && tokens[tokens.len() - 2].text == "#"
            && tokens[tokens.len() - 1].text == "include";
        let (kind, length) = if rest.starts_with(b"/*") {
            let end = source[pos + 2..]
                .find("*/")
                .ok_or_else(|| error("unterminated comment"))?;
            (Kind::Comment, end + 4)
        } else if rest.starts_with(b"//") {
            (
                Kind::Comment,
                source[pos..].find('\n').unwrap_or(rest.len()),
            )
        } else if c == b'"' {
            let length = literal_length(rest).ok_or_else(|| error("unterminated string"))?;
            (Kind::String, length)
        } else if c == b'\'' {
            let length = literal_length(rest).ok_or_else(|| error("unterminated character"))?;
            (Kind::Char, length)
        } else if c == b'<' && after_include {
            let end = rest
                .iter()
                .position(|&b| b == b'>' || b == b'\n')
                .filter(|&e| rest[e] == b'>')
                .ok_or_else(|| error("unterminated header name"))?;
            (Kind::HeaderName, end + 1)
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let length = rest
                .iter()
                .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
                .unwrap_or(rest.len());
            (Kind::Identifier, length)
        } else if c.is_ascii_digit() || (c == b'.' && rest.get(1).is_some_and(u8::is_ascii_digit)) {
            // A preprocessing number: digits, letters, '_', '.', and a sign
            // right after an exponent letter.
            let mut k = 1;
            while k < rest.len() {
                let b = rest[k];
                let signed_exponent =
                    (b == b'+' || b == b'-') && matches!(rest[k - 1], b'e' | b'E' | b'p' | b'P');
                if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || signed_exponent {
                    k += 1;
                } else {
                    break;
                }
            }
            (Kind::Number, k)
        } else if let Some(p) = PUNCTUATORS.iter().find(|p| rest.starts_with(p.as_bytes())) {
            (Kind::Punctuator, p.len())
        } else {
            return Err(error("a character that starts no C token"));
        };
        let raw = &source[pos..pos + length];
        let text = if kind == Kind::Comment {
            normalize_space(raw)
        } else {
            raw.to_string()
        };
        tokens.push(Token {
            kind,
            text,
            line,
            starts_line: !line_has_token,
        });
        line_has_token = true;
        line += raw.matches('\n').count();
        pos += length;
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(source: &str) -> Vec<(Kind, String)> {
        tokenize(source)
            .unwrap()
            .into_iter()
            .map(|t| (t.kind, t.text))
            .collect()
    }

    #[test]
    fn tokens_of_each_kind() {
        let got = keys("#include <limits.h>\nx = 0x2D >= 'a' ? \"s\\\"\" : y->z; /* a\n   b */");
        let want: Vec<(Kind, String)> = [
            (Kind::Punctuator, "#"),
            (Kind::Identifier, "include"),
            (Kind::HeaderName, "<limits.h>"),
            (Kind::Identifier, "x"),
            (Kind::Punctuator, "="),
            (Kind::Number, "0x2D"),
            (Kind::Punctuator, ">="),
            (Kind::Char, "'a'"),
            (Kind::Punctuator, "?"),
            (Kind::String, "\"s\\\"\""),
            (Kind::Punctuator, ":"),
            (Kind::Identifier, "y"),
            (Kind::Punctuator, "->"),
            (Kind::Identifier, "z"),
            (Kind::Punctuator, ";"),
            (Kind::Comment, "/* a b */"),
        ]
        .into_iter()
        .map(|(k, t)| (k, t.to_string()))
        .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn line_breaks_do_not_matter_but_are_recorded() {
        let flat = tokenize("#if A\ntypedef int t;\n#endif").unwrap();
        let one_line = tokenize("#if A typedef int t; #endif").unwrap();
        let key = |v: &[Token]| {
            v.iter()
                .map(|t| (t.kind, t.text.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(key(&flat), key(&one_line));
        let starts: Vec<bool> = flat.iter().map(|t| t.starts_line).collect();
        assert_eq!(
            starts,
            [true, false, false, true, false, false, false, true, false]
        );
        assert_eq!(flat.last().unwrap().line, 3);
    }

    #[test]
    fn malformed_source_is_an_error_with_its_place() {
        for (source, what) in [
            ("a /* never closed", "unterminated comment"),
            ("\"open\nx", "unterminated string"),
            ("x @ y", "a character that starts no C token"),
            ("#include <a.h\n", "unterminated header name"),
        ] {
            assert_eq!(tokenize(source).unwrap_err().what, what, "{source:?}");
        }
        assert_eq!(tokenize("x\n\n  $").unwrap_err().line, 3);
    }

    #[test]
    fn numbers_take_exponent_signs_only_after_exponents() {
        assert_eq!(
            keys("1e+5 0x1-2"),
            [
                (Kind::Number, "1e+5".to_string()),
                (Kind::Number, "0x1".to_string()),
                (Kind::Punctuator, "-".to_string()),
                (Kind::Number, "2".to_string()),
            ]
        );
    }
}
