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
/// failure. Column 6, Transitional Processing (deprecated since UTS #46
/// revision 31), is asked by the next test.
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

/// A line's ToASCII with Transitional Processing: column 6 (blank: column
/// 4's value) and column 7 (blank: column 5's statuses, themselves blank
/// for column 3's).
fn ascii_t(columns: &[&str], ascii_n: &str, ascii_n_status: &[String]) -> (String, Vec<String>) {
    let value = match columns[5].trim() {
        "" => ascii_n.to_string(),
        other => unescape(other).unwrap_or_default(),
    };
    let status = match columns[6].trim() {
        "" => ascii_n_status.to_vec(),
        other => statuses(other),
    };
    (value, status)
}

/// UTS #46's other parameters against the same data: ToASCII with
/// Transitional_Processing (columns 6 and 7, the file's `toAsciiT`) on
/// every line; and ToUnicode and ToASCII with CheckBidi off, then with
/// CheckJoiners off, where the file's header says an implementation
/// "that allow[s] values of particular input flags to be false would
/// ignore the corresponding status codes" (Bn for CheckBidi, Cn for
/// CheckJoiners): a line whose only statuses are those answers its
/// column's value. As above, a line holding a code point assigned after
/// the file's version may differ, and is counted.
#[test]
fn transitional_processing_check_bidi_and_check_joiners_agree_with_unicodes_data() {
    use punycheck::domain;
    use punycheck::label::Switches;
    let text = std::fs::read_to_string(idna_test_v2()).expect("IdnaTestV2.txt");
    let profile = |switches: Switches| LabelProfile {
        switches,
        ..LabelProfile::DEFAULT
    };
    let transitional = profile(Switches {
        transitional_processing: true,
        ..Switches::STRICT
    });
    let no_bidi = profile(Switches {
        check_bidi: false,
        ..Switches::STRICT
    });
    let no_joiners = profile(Switches {
        check_joiners: false,
        ..Switches::STRICT
    });
    let (mut asked, mut differ, mut explained) = (0, Vec::new(), 0);
    let (mut transitional_differs_from_n, mut bidi_only, mut joiners_only) = (0, 0, 0);
    for (n, line) in text.lines().enumerate() {
        let Some((columns, source, to_unicode)) = test_line(line, 7) else {
            continue;
        };
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
        let (ascii_t, ascii_t_status) = ascii_t(&columns, &ascii_n, &ascii_n_status);
        if ascii_t != ascii_n || ascii_t_status.is_empty() != ascii_n_status.is_empty() {
            transitional_differs_from_n += 1;
        }
        let newer = punycheck::unicode::first_assigned_after(
            source.chars().chain(to_unicode.chars()).map(u32::from),
            FILE_VERSION,
        );
        let code_points: Vec<u32> = source.chars().map(u32::from).collect();
        let mut judge = |what: &str, got: Result<String, String>, want: &str, status: &[String]| {
            asked += 1;
            let agrees = match &got {
                Ok(text) => status.is_empty() && text == want,
                Err(_) => !status.is_empty(),
            };
            if !agrees && newer.is_some() {
                explained += 1;
                if std::env::var_os("SHOW_EXPLAINED").is_some() {
                    eprintln!("line {} {what}: {newer:?}", n + 1);
                }
            } else if !agrees {
                differ.push(format!(
                    "line {} {what}: {source:?} expected {status:?} {want:?}, got {got:?}",
                    n + 1
                ));
            }
        };
        let ascii = |profile: LabelProfile| {
            domain::to_ascii(profile, &code_points)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .map_err(|e| e.to_string())
        };
        let unicode = |profile: LabelProfile| {
            domain::to_unicode(profile, source.as_bytes())
                .map(|cps| {
                    cps.into_iter()
                        .filter_map(char::from_u32)
                        .collect::<String>()
                })
                .map_err(|e| e.to_string())
        };
        judge("toAsciiT", ascii(transitional), &ascii_t, &ascii_t_status);
        for (name, switched, prefix, counter) in [
            ("CheckBidi=false", no_bidi, "B", &mut bidi_only),
            ("CheckJoiners=false", no_joiners, "C", &mut joiners_only),
        ] {
            let without = |status: &[String]| -> Vec<String> {
                status
                    .iter()
                    .filter(|s| !s.starts_with(prefix))
                    .cloned()
                    .collect()
            };
            let (u, a) = (without(&unicode_status), without(&ascii_n_status));
            if u.is_empty() != unicode_status.is_empty()
                || a.is_empty() != ascii_n_status.is_empty()
            {
                *counter += 1;
            }
            judge(
                &format!("ToUnicode {name}"),
                unicode(switched),
                &to_unicode,
                &u,
            );
            judge(&format!("ToASCII {name}"), ascii(switched), &ascii_n, &a);
        }
    }
    assert!(asked >= 30_000, "{asked} asked");
    // The lines where the parameter changes the verdict or the answer:
    // each of the three is asked where it matters.
    assert!(
        transitional_differs_from_n >= 50,
        "{transitional_differs_from_n}"
    );
    assert!(bidi_only >= 50, "{bidi_only}");
    assert!(joiners_only >= 20, "{joiners_only}");
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
    // Today 81, on 35 lines: code points of CJK Extension J and others
    // assigned in Unicode 17.0 and 18.0, unassigned (so disallowed) in the
    // file's 16.0 (SHOW_EXPLAINED=1 prints them).
    assert!(
        explained <= 120,
        "{explained} explained by the Unicode version"
    );
}
