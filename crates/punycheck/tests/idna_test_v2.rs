//! The UTS #46 references against Unicode's own conformance data: the
//! domain codec's on every line (below), and the label codec's on the
//! lines of `IdnaTestV2.txt` (the copy the `idna` crate's package
//! ships, Unicode 16.0.0) whose source is one label beginning with `xn--`
//! in any case, and the `xn--` labels of the domain names of lines without
//! an error, ToUnicode with every switch on (the file's default flags).
//! Every one of them agrees (255 today); the file is Unicode 16.0's and
//! ICU4X's data a later version, so a future disagreement may also be a
//! code point assigned since, which its message shows.

use std::path::PathBuf;

use punycheck::label::{self, LabelProfile};

/// `IdnaTestV2.txt` in the `idna` package's directory, as `cargo metadata`
/// finds it.
fn idna_test_v2() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let idna = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "idna" && p["version"] == "1.1.0")
        .expect("the idna crate 1.1.0 is a dependency");
    let manifest = PathBuf::from(idna["manifest_path"].as_str().unwrap());
    manifest.parent().unwrap().join("tests/IdnaTestV2.txt")
}

/// A column with the file's escapes (`\uXXXX`, `\x{XXXX}`) undone;
/// `None` for one that holds a lone surrogate, which no Rust string holds
/// (those lines test ill-formed input).
fn unescape(column: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = column.trim();
    if rest == "\"\"" {
        return Some(out);
    }
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let (hex, len) = if let Some(t) = tail.strip_prefix("\\x{") {
            let end = t.find('}').unwrap();
            (&t[..end], 3 + end + 1)
        } else if let Some(t) = tail.strip_prefix("\\u") {
            (&t[..4], 6)
        } else {
            (&tail[1..2], 2)
        };
        out.push(char::from_u32(u32::from_str_radix(hex, 16).unwrap())?);
        rest = &tail[len..];
    }
    out.push_str(rest);
    Some(out)
}

/// A test line of at least `columns` columns, its comment cut: the
/// columns, the source and the ToUnicode column (blank: the source).
/// `None` for a comment, or a source with a lone surrogate (ill-formed
/// input, which no Rust string holds).
fn test_line(line: &str, columns: usize) -> Option<(Vec<&str>, String, String)> {
    let line = line.split('#').next().unwrap();
    let fields: Vec<&str> = line.split(';').collect();
    if fields.len() < columns {
        return None;
    }
    let source = unescape(fields[0])?;
    let to_unicode = match fields[1].trim() {
        "" => source.clone(),
        other => unescape(other).unwrap_or_default(),
    };
    Some((fields, source, to_unicode))
}

#[test]
fn the_reference_agrees_with_unicodes_conformance_data_on_a_labels() {
    let text = std::fs::read_to_string(idna_test_v2()).expect("IdnaTestV2.txt");
    assert!(text.contains("# Version: 16.0.0"));
    let (mut asked, mut differ) = (0, Vec::new());
    for (n, line) in text.lines().enumerate() {
        let Some((columns, source, to_unicode)) = test_line(line, 3) else {
            continue;
        };
        let failed = !columns[2].trim().is_empty() && columns[2].trim() != "[]";
        // One label with the ACE prefix, its status the line's; or, on a
        // line without an error, every such label of a domain name, its
        // answer the label of the ToUnicode column in the same place. A
        // full stop the mapping makes (U+3002, U+FF0E, U+FF61) is not
        // split here, so such a line is left out.
        let dots = ['\u{3002}', '\u{FF0E}', '\u{FF61}'];
        if source.contains(dots) {
            continue;
        }
        let labels: Vec<(&str, &str, bool)> = if !source.contains('.') {
            vec![(source.as_str(), to_unicode.as_str(), failed)]
        } else if !failed && source.split('.').count() == to_unicode.split('.').count() {
            source
                .split('.')
                .zip(to_unicode.split('.'))
                .map(|(s, u)| (s, u, false))
                .collect()
        } else {
            continue;
        };
        for (source, to_unicode, failed) in labels {
            if !label::has_ace_prefix(source.as_bytes()) {
                continue;
            }
            let got = label::to_unicode(LabelProfile::DEFAULT, source.as_bytes());
            asked += 1;
            let agrees = match &got {
                Ok(cps) => !failed && cps.iter().copied().eq(to_unicode.chars().map(u32::from)),
                Err(_) => failed,
            };
            if !agrees {
                differ.push(format!(
                    "line {}: {source:?} expected {} {to_unicode:?}, got {got:?}",
                    n + 1,
                    columns[2].trim()
                ));
            }
        }
    }
    assert!(asked >= 250, "{asked} labels asked");
    assert!(
        differ.is_empty(),
        "{} of {asked}:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// A status column as its codes (`[B1, V6]` is `B1` and `V6`); blank is
/// none.
fn statuses(column: &str) -> Vec<String> {
    column
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The file's Unicode version: a code point assigned after it is
/// unassigned there (so disallowed, V7), and may be valid in the
/// reference's later data.
const FILE_VERSION: punycheck::unicode::UnicodeVersion = punycheck::unicode::UnicodeVersion {
    major: 16,
    minor: 0,
};

/// Every line, ToUnicode (column 2 and its status) and ToASCII with
/// Nontransitional Processing (columns 4 and 5), every switch on. A
/// disagreement on a line that holds a code point assigned after the
/// file's version is explained by the versions (the reference's data is
/// later: [`punycheck::unicode::REFERENCE`]), and counted; any other is a
/// failure. Column 6, Transitional Processing, is deprecated since
/// UTS #46 revision 31 and no profile of punycheck's; it is not asked.
#[test]
fn the_domain_reference_agrees_with_every_line_of_unicodes_conformance_data() {
    use punycheck::domain;
    let text = std::fs::read_to_string(idna_test_v2()).expect("IdnaTestV2.txt");
    let (mut asked, mut differ, mut explained) = (0, Vec::new(), 0);
    for (n, line) in text.lines().enumerate() {
        let Some((columns, source, to_unicode)) = test_line(line, 7) else {
            continue;
        };
        // X4_2 in ToUnicode (an empty label) has no step of UTS #46
        // section 4.3 behind it: see the `domain` module's docs.
        let unicode_status: Vec<String> = statuses(columns[2])
            .into_iter()
            .filter(|s| s != "X4_2")
            .collect();
        let ascii_n = match columns[3].trim() {
            "" => to_unicode.clone(),
            other => unescape(other).unwrap_or_default(),
        };
        let ascii_n_status = match columns[4].trim() {
            "" => statuses(columns[2]),
            other => statuses(other),
        };
        let got = domain::to_unicode(LabelProfile::DEFAULT, source.as_bytes()).map(|cps| {
            cps.into_iter()
                .filter_map(char::from_u32)
                .collect::<String>()
        });
        asked += 1;
        let agrees = match &got {
            Ok(text) => unicode_status.is_empty() && *text == to_unicode,
            Err(_) => !unicode_status.is_empty(),
        };
        let newer = punycheck::unicode::first_assigned_after(
            source.chars().chain(to_unicode.chars()).map(u32::from),
            FILE_VERSION,
        );
        if !agrees && newer.is_some() {
            explained += 1;
        } else if !agrees {
            differ.push(format!(
                "line {} ToUnicode: {source:?} expected {unicode_status:?} {to_unicode:?}, got {got:?}",
                n + 1
            ));
        }
        let code_points: Vec<u32> = source.chars().map(u32::from).collect();
        let got = domain::to_ascii(LabelProfile::DEFAULT, &code_points)
            .map(|b| String::from_utf8_lossy(&b).into_owned());
        asked += 1;
        let agrees = match &got {
            Ok(text) => ascii_n_status.is_empty() && *text == ascii_n,
            Err(_) => !ascii_n_status.is_empty(),
        };
        if !agrees && newer.is_some() {
            explained += 1;
        } else if !agrees {
            differ.push(format!(
                "line {} ToASCII: {source:?} expected {ascii_n_status:?} {ascii_n:?}, got {got:?}",
                n + 1
            ));
        }
    }
    assert!(asked >= 12_000, "{asked} asked");
    // Today 12: code points of Unicode 17.0 and 18.0 in 7 lines.
    assert!(
        explained <= 40,
        "{explained} explained by the Unicode version"
    );
    assert!(
        differ.is_empty(),
        "{} of {asked}:\n{}",
        differ.len(),
        differ
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
