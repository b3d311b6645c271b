//! Quoting what a program said (an answer, a line of its standard error, an
//! error message of its own) into a message, bounded: a program under test
//! may print anything, and a 50 MB answer line must not become a 50 MB
//! setup error, cause detail or report line.
//!
//! Everything that quotes a program's text goes through [`excerpt`] (the
//! text as it is) or [`quoted`] (the text as a string literal). Up to
//! [`EXCERPT_BYTES`] bytes it is whole; beyond, it is its first
//! [`EXCERPT_BYTES`] bytes followed by [`ELLIPSIS`] and the full length:
//! `"abcabc"… (52,428,800 bytes in all)`. The prefix is a function of the
//! text alone, so a message built from it is the same from run to run, and
//! [`without_lengths`] takes the lengths back out for what keys a cause
//! (one defect that prints a long and a short answer is one cause).

/// The most bytes of a program's text that a message quotes.
pub const EXCERPT_BYTES: usize = 300;

/// What follows a cut text, before its full length.
pub const ELLIPSIS: &str = "…";

/// What ends the full length of a cut text: `… (1,234 bytes in all)`.
const IN_ALL: &str = " bytes in all)";

/// `text` for a message: whole when it is at most [`EXCERPT_BYTES`] bytes
/// long; otherwise its first [`EXCERPT_BYTES`] bytes (cut back to a
/// character boundary), then `… (N bytes in all)`.
pub fn excerpt(text: &str) -> String {
    if text.len() <= EXCERPT_BYTES {
        return text.to_string();
    }
    let mut cut = EXCERPT_BYTES;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}{}", &text[..cut], length_note(text.len()))
}

/// `text` quoted as a string literal (`"..."`, escaped as Rust's `{:?}`
/// does; bytes that are not UTF-8 become U+FFFD), bounded as [`excerpt`]:
/// `"abc"… (52,428,800 bytes in all)` beyond [`EXCERPT_BYTES`] bytes.
pub fn quoted(text: &[u8]) -> String {
    quoted_head(text, text.len())
}

/// [`quoted`] for a text of which only the start is at hand: `head`, the
/// first bytes of a text `total` bytes long (a reader keeps at most
/// [`EXCERPT_BYTES`] of an unfinished line, and counts the rest).
pub fn quoted_head(head: &[u8], total: usize) -> String {
    let shown = &head[..head.len().min(EXCERPT_BYTES)];
    let literal = format!("{:?}", String::from_utf8_lossy(shown));
    if total.max(head.len()) <= shown.len() {
        return literal;
    }
    format!("{literal}{}", length_note(total.max(head.len())))
}

/// `… (N bytes in all)`, N with thousands separated by commas.
fn length_note(total: usize) -> String {
    let digits = total.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (k, digit) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{ELLIPSIS} ({grouped}{IN_ALL}")
}

/// `message` without what [`excerpt`] and [`quoted`] add to a cut text
/// (`… (N bytes in all)`): the same for one message, however long the text
/// it quotes was.
pub fn without_lengths(message: &str) -> String {
    let start = format!("{ELLIPSIS} (");
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(&start) {
        let after = &rest[at + start.len()..];
        let digits = after
            .find(|c: char| !(c.is_ascii_digit() || c == ','))
            .unwrap_or(after.len());
        if digits > 0 && after[digits..].starts_with(IN_ALL) {
            out.push_str(&rest[..at]);
            rest = &after[digits + IN_ALL.len()..];
        } else {
            out.push_str(&rest[..at + start.len()]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_are_whole_and_long_ones_cut_with_their_length() {
        assert_eq!(excerpt("invalid char"), "invalid char");
        assert_eq!(quoted(b"a\"b\n"), "\"a\\\"b\\n\"");
        let long = "ab".repeat(26_214_400);
        let cut = excerpt(&long);
        assert_eq!(
            cut.len(),
            EXCERPT_BYTES + "… (52,428,800 bytes in all)".len()
        );
        assert!(cut.ends_with("ab… (52,428,800 bytes in all)"), "{cut}");
        let literal = quoted(long.as_bytes());
        assert!(
            literal.starts_with("\"abab") && literal.ends_with("ab\"… (52,428,800 bytes in all)"),
            "{literal}"
        );
        // Exactly the bound is whole; one more byte is cut.
        let edge = "x".repeat(EXCERPT_BYTES);
        assert_eq!(excerpt(&edge), edge);
        assert!(excerpt(&format!("{edge}y")).ends_with("x… (301 bytes in all)"));
        // A cut falls on a character boundary.
        let wide = "é".repeat(EXCERPT_BYTES);
        assert!(excerpt(&wide).starts_with(&"é".repeat(EXCERPT_BYTES / 2)));
        // Of a text known by its start.
        assert_eq!(quoted_head(b"ok a-", 5), "\"ok a-\"");
        assert_eq!(
            quoted_head(b"ok a-", 1234),
            "\"ok a-\"… (1,234 bytes in all)"
        );
        assert_eq!(length_note(999), "… (999 bytes in all)");
        assert_eq!(length_note(1000), "… (1,000 bytes in all)");
    }

    #[test]
    fn lengths_come_out_for_keys() {
        let long = "x".repeat(1000);
        let longer = "x".repeat(100_000);
        let say = |text: &str| format!("output line {} is not u+XXXX", quoted(text.as_bytes()));
        assert_eq!(without_lengths(&say(&long)), without_lengths(&say(&longer)));
        assert_eq!(
            without_lengths(&say(&long)),
            format!(
                "output line {} is not u+XXXX",
                quoted(&long.as_bytes()[..300])
            )
        );
        // Text that only looks like a length in part stays.
        for text in ["a… (bytes in all)", "a… (12 bytes)", "… (", "…"] {
            assert_eq!(without_lengths(text), text);
        }
    }
}
