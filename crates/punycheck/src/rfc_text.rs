//! Reading RFC 3492 itself: the page layout, Appendix C (the C sample
//! implementation), the samples of section 7.1 and the traces of sections 7.2
//! and 7.3.
//!
//! The project keeps the RFC as published, with its page layout, in
//! `vectors/rfc3492.txt` ([`RFC3492_TEXT`]). `csrc/punycode.c` is
//! [`appendix_c`] of that text, byte for byte, and a test re-extracts it.

/// RFC 3492 as plain text with its page layout (page footers and headers).
pub const RFC3492_TEXT: &str = include_str!("../vectors/rfc3492.txt");

/// Removes the page layout from RFC text and returns its lines.
///
/// Each page of the text ends with three blank lines, the footer
/// (`Costello ... [Page N]`), one blank line standing for the form feed, the
/// next page's header (`RFC 3492 ... March 2003`) and two blank lines: those
/// eight lines are removed at every page break and nothing else is touched.
/// Blank lines that belong to a page's content (before the three layout
/// lines) are kept, so text that crosses a page break reads as it was written.
pub fn strip_page_layout(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let mut keep = vec![true; lines.len()];
    for (f, line) in lines.iter().enumerate() {
        if !(line.starts_with("Costello ") && line.trim_end().ends_with(']')) {
            continue;
        }
        let start = f.saturating_sub(3);
        let end = (f + 5).min(lines.len());
        for (k, flag) in keep.iter_mut().enumerate().take(end).skip(start) {
            // Only blank lines, the footer and the header are layout.
            let layout = lines[k].trim().is_empty() || k == f || lines[k].starts_with("RFC 3492 ");
            if layout {
                *flag = false;
            }
        }
    }
    lines
        .into_iter()
        .zip(keep)
        .filter_map(|(line, keep)| keep.then_some(line))
        .collect()
}

/// Appendix C of RFC 3492, "Punycode sample implementation": every line from
/// the opening `/*` after the appendix heading to the closing brace of `main`,
/// page layout removed, each line ending in `\n`.
pub fn appendix_c(text: &str) -> Option<String> {
    let lines = strip_page_layout(text);
    let heading = lines
        .iter()
        .position(|l| *l == "C. Punycode sample implementation")?;
    let first = heading + lines[heading..].iter().position(|l| *l == "/*")?;
    let after = first
        + lines[first..]
            .iter()
            .position(|l| *l == "Author's Address")?;
    let last = (first..after)
        .rev()
        .find(|&k| !lines[k].trim().is_empty())?;
    let mut code = String::new();
    for line in &lines[first..=last] {
        code.push_str(line);
        code.push('\n');
    }
    Some(code)
}

/// The lines of a section: from its heading (a line starting with `number`
/// followed by a space) to the next section heading, page layout removed.
pub fn section<'a>(text: &'a str, number: &str) -> Vec<&'a str> {
    let lines = strip_page_layout(text);
    let is_heading = |l: &str| {
        let first = l.split(' ').next().unwrap_or("");
        !l.starts_with(' ')
            && !first.is_empty()
            && first
                .trim_end_matches('.')
                .split('.')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    };
    let Some(start) = lines
        .iter()
        .position(|l| l.strip_prefix(number).is_some_and(|r| r.starts_with(' ')) && is_heading(l))
    else {
        return Vec::new();
    };
    let end = lines[start + 1..]
        .iter()
        .position(|l| is_heading(l))
        .map_or(lines.len(), |e| start + 1 + e);
    lines[start..end].to_vec()
}

/// One sample string of RFC 3492 section 7.1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The letter, `A` to `S`.
    pub id: char,
    /// The first line of its title, e.g. `Arabic (Egyptian):`.
    pub title: String,
    /// The code points as printed, each `u+XXXX` or `U+XXXX` (the case of the
    /// `u` is the Appendix A flag).
    pub code_points: Vec<(u32, bool)>,
    /// The Punycode string as printed (continuation backslashes joined).
    pub printed: String,
}

/// The samples (A) to (S) of section 7.1, as printed in the RFC.
pub fn samples(text: &str) -> Vec<Sample> {
    let lines = section(text, "7.1");
    let mut samples = Vec::new();
    let mut current: Option<Sample> = None;
    let mut continuing = false;
    for line in lines {
        let trimmed = line.trim();
        if continuing {
            let sample = current.as_mut().expect("continuation follows a sample");
            continuing = join_continuation(&mut sample.printed, trimmed);
            if !continuing {
                samples.push(current.take().expect("sample in progress"));
            }
            continue;
        }
        let heading = trimmed
            .strip_prefix('(')
            .and_then(|r| r.split_once(") "))
            .filter(|(id, _)| id.len() == 1);
        if let Some((id, title)) = heading {
            current = Some(Sample {
                id: id.chars().next().expect("one character"),
                title: title.to_string(),
                code_points: Vec::new(),
                printed: String::new(),
            });
        } else if let Some(sample) = current.as_mut() {
            if let Some(printed) = line.trim_start().strip_prefix("Punycode: ") {
                continuing = join_continuation(&mut sample.printed, printed.trim_end());
                if !continuing {
                    samples.push(current.take().expect("sample in progress"));
                }
            } else {
                for token in trimmed.split_whitespace() {
                    if let Some(cp) = parse_code_point_token(token) {
                        sample.code_points.push(cp);
                    }
                }
            }
        }
    }
    samples
}

/// Appends a printed piece; returns true when it ended in a continuation
/// backslash.
fn join_continuation(printed: &mut String, piece: &str) -> bool {
    match piece.strip_suffix('\\') {
        Some(head) => {
            printed.push_str(head);
            true
        }
        None => {
            printed.push_str(piece);
            false
        }
    }
}

/// Parses `u+XXXX` (flag clear) or `U+XXXX` (flag set), hexadecimal of any
/// case, up to 0xFFFFFFFF.
pub fn parse_code_point_token(token: &str) -> Option<(u32, bool)> {
    let (upper, hex) = if let Some(hex) = token.strip_prefix("u+") {
        (false, hex)
    } else {
        (true, token.strip_prefix("U+")?)
    };
    if hex.is_empty() || hex.len() > 8 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(hex, 16).ok().map(|cp| (cp, upper))
}

/// One trace of section 7.2 or 7.3: which sample it is of and its lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// `true` for a decoding trace (7.2), `false` for an encoding trace (7.3).
    pub decoding: bool,
    /// The sample letter it traces (`B`, `L`).
    pub sample: char,
    /// The trace's lines, trimmed, without its heading line.
    pub lines: Vec<String>,
}

/// The traces printed in sections 7.2 and 7.3.
pub fn traces(text: &str) -> Vec<Trace> {
    let mut traces = Vec::new();
    for (number, decoding, heading) in [
        ("7.2", true, "Decoding trace of example "),
        ("7.3", false, "Encoding trace of example "),
    ] {
        let mut current: Option<Trace> = None;
        for line in section(text, number).into_iter().skip(1) {
            let trimmed = line.trim();
            if let Some(rest) = trimmed.strip_prefix(heading) {
                traces.extend(current.take());
                current = Some(Trace {
                    decoding,
                    sample: rest.chars().next().unwrap_or('?'),
                    lines: Vec::new(),
                });
            } else if let Some(trace) = current.as_mut().filter(|_| !trimmed.is_empty()) {
                trace.lines.push(trimmed.to_string());
            }
        }
        traces.extend(current);
    }
    traces
}

fn hex_list(cps: &[u32]) -> String {
    cps.iter()
        .map(|cp| format!("{cp:04X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Renders the clean-room decoder's trace of `input` in the words of RFC 3492
/// section 7.2, one line per element (an asterisk follows the code point just
/// inserted). Stops where decoding fails.
pub fn render_decoding_trace(input: &[u8]) -> Vec<String> {
    use crate::punycode::{INITIAL_BIAS, INITIAL_N, decode_traced};
    let text = String::from_utf8_lossy(input);
    let mut lines = vec![
        format!("n is {INITIAL_N}, i is 0, bias is {INITIAL_BIAS}"),
        format!("input is \"{text}\""),
    ];
    let literal = input
        .iter()
        .rposition(|&c| c == crate::punycode::DELIMITER)
        .unwrap_or(0);
    if literal == 0 {
        lines.push("there is no delimiter, so extended string starts empty".into());
    } else {
        let basics: Vec<u32> = input[..literal].iter().map(|&c| u32::from(c)).collect();
        lines.push(format!(
            "literal portion is \"{}\", so extended string starts as:",
            String::from_utf8_lossy(&input[..=literal])
        ));
        lines.push(hex_list(&basics));
    }
    let (_, steps) = decode_traced(input);
    for step in steps {
        lines.push(format!(
            "delta \"{}\" decodes to {}",
            step.digits, step.delta
        ));
        lines.push(format!("bias becomes {}", step.bias));
        let mut state: Vec<String> = step.output.iter().map(|cp| format!("{cp:04X}")).collect();
        state.insert(step.position as usize + 1, "*".into());
        lines.push(state.join(" "));
    }
    lines
}

/// Renders the clean-room encoder's trace of `input` (no annotations) in the
/// words of RFC 3492 section 7.3. Stops where encoding fails.
pub fn render_encoding_trace(input: &[u32]) -> Vec<String> {
    use crate::punycode::{INITIAL_BIAS, encode_traced, is_basic};
    let mut lines = vec![
        format!("bias is {INITIAL_BIAS}"),
        "input is:".into(),
        hex_list(input),
    ];
    let basics: Vec<u32> = input.iter().copied().filter(|&cp| is_basic(cp)).collect();
    let (result, steps) = encode_traced(input, None);
    if basics.is_empty() {
        lines.push("there are no basic code points, so no literal portion".into());
    } else {
        let literal: String = basics.iter().filter_map(|&cp| char::from_u32(cp)).collect();
        let list = basics
            .iter()
            .map(|cp| format!("{cp:04X}"))
            .collect::<Vec<_>>()
            .join(", ");
        lines.push(format!(
            "basic code points ({list}) are copied to literal portion: \"{literal}-\""
        ));
    }
    for step in steps {
        lines.push(format!(
            "next code point to insert is {:04X}",
            step.code_point
        ));
        lines.push(format!(
            "needed delta is {}, encodes as \"{}\"",
            step.delta, step.digits
        ));
        lines.push(format!("bias becomes {}", step.bias));
    }
    if let Ok(output) = result {
        lines.push(format!(
            "output is \"{}\"",
            String::from_utf8_lossy(&output)
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_layout_is_removed_and_content_blanks_kept() {
        let lines = strip_page_layout(RFC3492_TEXT);
        assert!(
            !lines
                .iter()
                .any(|l| l.starts_with("Costello ") || l.starts_with("RFC 3492 "))
        );
        // The blank line that ends page 24's content separates the include
        // from the next comment block, as in every published copy.
        let code = appendix_c(RFC3492_TEXT).unwrap();
        assert!(code.contains("#include <string.h>\n\n/*** Bootstring parameters"));
        assert!(code.starts_with("/*\npunycode.c from RFC 3492\n"));
        assert!(code.ends_with(
            "  return EXIT_SUCCESS;  /* not reached, but quiets compiler warning */\n}\n"
        ));
    }

    #[test]
    fn code_point_tokens() {
        assert_eq!(parse_code_point_token("u+0041"), Some((0x41, false)));
        assert_eq!(parse_code_point_token("U+ffffffff"), Some((u32::MAX, true)));
        assert_eq!(parse_code_point_token("U+100000000"), None);
        assert_eq!(parse_code_point_token("x+41"), None);
        assert_eq!(parse_code_point_token("u+"), None);
        assert_eq!(parse_code_point_token("u+-1"), None);
    }

    #[test]
    fn nineteen_samples_and_four_traces() {
        let samples = samples(RFC3492_TEXT);
        let ids: String = samples.iter().map(|s| s.id).collect();
        assert_eq!(ids, "ABCDEFGHIJKLMNOPQRS");
        let h = &samples[7];
        // (H) is printed on two lines joined by a backslash.
        assert!(
            h.printed.len() > 60 && !h.printed.contains(['\\', ' ']),
            "{}",
            h.printed
        );
        assert!(samples.iter().all(|s| !s.code_points.is_empty()));
        let traces = traces(RFC3492_TEXT);
        let shape: Vec<(bool, char)> = traces.iter().map(|t| (t.decoding, t.sample)).collect();
        assert_eq!(
            shape,
            [(true, 'B'), (true, 'L'), (false, 'B'), (false, 'L')]
        );
    }
}
