//! The docs' tables of real implementations, from the survey.
//!
//! The same tables end `survey.md` (rendered from a survey that ran) and
//! fill the regions of the docs between `<!-- survey:begin NAME -->` and
//! `<!-- survey:end NAME -->` (rendered from the survey the gates record:
//! [`recorded`]). A table shows only what a gate's files hold (its
//! implementation, rules, declaration, and its baseline's causes with their
//! notes) and never what a run measures (times, growth, minimized
//! reproducers), so a survey in which every gate gives the status its
//! baseline expects renders the same tables as the recorded one: the docs
//! can be rewritten without running a gate (`punycheck survey --docs
//! FILE`), and `tests/survey.rs` fails when they drift from the gates.

use std::fmt::Write;
use std::path::Path;

use super::survey_model::{AREAS, GATES_DIR, Gate, Recorded, Survey};
use super::{Outcome, Output, Status, Stop};

/// The tables, by the name their markers give: which codec's gates each
/// holds (`None`: every gate with a slow cause, the cost table).
pub const TABLES: &[(&str, Option<&str>)] = &[
    ("punycode", Some("punycode")),
    ("label", Some("label")),
    ("domain", Some("domain")),
    ("cost", None),
];

/// Where the notes that causes cite live, from the project's root: the
/// anchors of its `## N. ...` sections are read from it.
const FINDINGS: &str = "adapters/FINDINGS.md";

/// The survey the gates record, without running one: each gate as a
/// survey reports it when its check gives the status its baseline expects
/// (`conforming`, exit status 0), every cause of its baseline known and
/// not met by a run (`still_there`), with its note.
pub fn recorded(gates: &[String]) -> Survey {
    let gates = gates
        .iter()
        .map(|path| {
            let (mut gate, baseline, codec) = super::survey_model::gate_of_file(path);
            gate.status = "conforming".into();
            gate.exit = Some(0);
            gate.expected = true;
            gate.still_there = baseline
                .iter()
                .flat_map(|b| &b.cause)
                .map(|e| {
                    let kind = serde_json::to_value(e.kind)
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                        .unwrap_or_default();
                    Recorded {
                        area: super::survey_model::area_of(
                            &codec,
                            &kind,
                            &e.reference,
                            e.explained.as_deref().unwrap_or_default(),
                        )
                        .into(),
                        direction: e.direction.clone(),
                        kind,
                        reference: e.reference.clone(),
                        got: e.got.clone(),
                        passing: Vec::new(),
                        reproduce: None,
                        note: (!e.note.is_empty()).then(|| e.note.clone()),
                    }
                })
                .collect();
            gate.codec = Some(codec);
            super::survey_model::finish(gate)
        })
        .collect();
    Survey {
        version: super::survey_model::VERSION,
        punycheck: env!("CARGO_PKG_VERSION").into(),
        started: String::new(),
        seconds: 0.0,
        status: "pass".into(),
        areas: Vec::new(),
        gates,
    }
}

/// One cause of a gate, as a table shows it.
struct Row<'a> {
    direction: &'a str,
    kind: &'a str,
    reference: &'a str,
    got: &'a str,
    area: &'a str,
    note: Option<&'a str>,
    /// Not in its baseline.
    new: bool,
}

/// A gate's causes, found or recorded and not met, in a fixed order (by
/// area, then key), so that the order a run met them in does not matter.
fn rows(gate: &Gate) -> Vec<Row<'_>> {
    let mut rows: Vec<Row> = gate
        .causes
        .iter()
        .map(|c| Row {
            direction: &c.direction,
            kind: &c.kind,
            reference: &c.reference,
            got: &c.got,
            area: &c.area,
            note: c.note.as_deref(),
            new: !c.known,
        })
        .chain(gate.still_there.iter().map(|r| Row {
            direction: &r.direction,
            kind: &r.kind,
            reference: &r.reference,
            got: &r.got,
            area: &r.area,
            note: r.note.as_deref(),
            new: false,
        }))
        .collect();
    let order = |area: &str| AREAS.iter().position(|(a, _)| *a == area);
    rows.sort_by(|a, b| {
        (order(a.area), a.direction, a.kind, a.reference, a.got).cmp(&(
            order(b.area),
            b.direction,
            b.kind,
            b.reference,
            b.got,
        ))
    });
    rows
}

/// A cause in a few words, from its key.
fn phrase(row: &Row) -> String {
    let rule = row
        .reference
        .strip_prefix("refused (")
        .and_then(|r| r.strip_suffix(')'));
    let words = match (row.kind, rule) {
        ("slow", _) => match row
            .got
            .strip_prefix("grows faster than linear on the ")
            .and_then(|f| f.strip_suffix(" family"))
        {
            Some(family) => format!("slow on {family}"),
            None => "slow".into(),
        },
        ("accepts-invalid", Some(rule)) => format!("takes what `{rule}` refuses"),
        ("accepts-invalid", None) => format!("accepts `{}`", row.reference),
        ("rejects-valid", _) => format!("refuses valid input ({})", row.got),
        ("wrong-output", _) => "a different answer".into(),
        ("wrong-error-kind", _) => format!("`{}` for `{}`", row.got, row.reference),
        ("round-trip", _) => "round trip broken".into(),
        ("outside-domain", _) => "answers outside its domain".into(),
        ("replaces-outside-domain", _) => "replaces what is outside its domain".into(),
        (kind, _) => {
            let got: String = row.got.chars().take(60).collect();
            let cut = if got.len() < row.got.len() { "…" } else { "" };
            format!("{kind}: `{}{cut}`", got.replace('`', "'"))
        }
    };
    let mark = if row.new { "**NEW** " } else { "" };
    format!("{mark}{} {words}", row.direction).replace('|', "\\|")
}

/// The notes a cause's note cites, as Markdown links from a file in
/// `base` (`../` for `docs/`): FINDINGS.md's numbered sections and the
/// label and domain notes.
fn citations(note: &str, base: &str, sections: &[(String, String)]) -> Vec<String> {
    let mut links = Vec::new();
    let mut rest = note;
    while let Some(at) = rest.find("FINDINGS.md section ") {
        rest = &rest[at + "FINDINGS.md section ".len()..];
        let number: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if number.is_empty() {
            continue;
        }
        let anchor = sections
            .iter()
            .find(|(n, _)| *n == number)
            .map_or(String::new(), |(_, a)| format!("#{a}"));
        links.push(format!("[§{number}]({base}{FINDINGS}{anchor})"));
    }
    for layer in ["label", "domain"] {
        if note.contains(&format!("adapters/{layer}/NOTES.md")) {
            links.push(format!("[{layer} notes]({base}adapters/{layer}/NOTES.md)"));
        }
    }
    links
}

/// FINDINGS.md's numbered sections and their anchors, as GitHub makes
/// them: `## 3. npm punycode@2.3.1` is `3-npm-punycode231`.
fn sections() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(FINDINGS).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let title = line.strip_prefix("## ")?;
            let number: String = title.chars().take_while(char::is_ascii_digit).collect();
            (!number.is_empty() && title[number.len()..].starts_with(". ")).then(|| {
                let anchor: String = title
                    .to_lowercase()
                    .chars()
                    .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
                    .map(|c| if c == ' ' { '-' } else { c })
                    .collect();
                (number, anchor)
            })
        })
        .collect()
}

/// The causes of `rows`, area by area, each area's citations after it.
fn causes_cell(rows: &[Row], base: &str, sections: &[(String, String)]) -> String {
    let mut parts = Vec::new();
    for (area, title) in AREAS {
        let here: Vec<&Row> = rows.iter().filter(|r| r.area == *area).collect();
        if here.is_empty() {
            continue;
        }
        let mut links: Vec<String> = Vec::new();
        for row in &here {
            for link in citations(row.note.unwrap_or_default(), base, sections) {
                if !links.contains(&link) {
                    links.push(link);
                }
            }
        }
        let phrases: Vec<String> = here.iter().map(|r| phrase(r)).collect();
        let cited = if links.is_empty() {
            String::new()
        } else {
            format!(" ({})", links.join(", "))
        };
        parts.push(format!("{title}: {}{cited}", phrases.join("; ")));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(". ")
    }
}

/// The verdict, from the gate's status and its causes: what the
/// implementation is, and whether the gate holds.
fn verdict(gate: &Gate, rows: &[Row]) -> String {
    if gate.status == "not-run" {
        return "not run".into();
    }
    let new = rows.iter().filter(|r| r.new).count();
    let changed = gate.gone.len() + gate.narrowed.len();
    let mut words = if rows.is_empty() {
        "conforming".to_string()
    } else {
        format!(
            "nonconforming, {} cause{}",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        )
    };
    if new + changed > 0 {
        let _ = write!(
            words,
            "; **the gate fails**: {new} new, {changed} recorded gone or narrowed"
        );
    } else if !rows.is_empty() {
        words += ", each in its baseline";
    }
    words
}

/// The gate's file and baseline, linked from `base`.
fn gate_cell(gate: &Gate, base: &str) -> String {
    let baseline = gate.gate.replace(".toml", ".baseline.toml");
    format!(
        "[{}]({base}{}) ([baseline]({base}{baseline}))",
        gate.name, gate.gate
    )
}

/// The table of the gates of one codec.
fn gates_table(gates: &[&Gate], base: &str, sections: &[(String, String)]) -> String {
    let mut md = String::from(
        "| gate | implementation | rules and declarations | verdict | causes by rule area, with the notes that read them in the source |\n|---|---|---|---|---|\n",
    );
    for gate in gates {
        let rows = rows(gate);
        let declared = [gate.rules.as_str(), gate.options.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} |",
            gate_cell(gate, base),
            gate.about.replace('|', "\\|"),
            if declared.is_empty() {
                "none".into()
            } else {
                declared
            },
            verdict(gate, &rows),
            causes_cell(&rows, base, sections)
        );
    }
    md
}

/// The cost table: every gate with a slow cause, its slow causes and
/// their notes, which say where the loop is.
fn cost_table(gates: &[&Gate], base: &str, sections: &[(String, String)]) -> String {
    let mut md = String::from(
        "| gate | implementation | slow causes in its baseline | read in the source |\n|---|---|---|---|\n",
    );
    for gate in gates {
        let rows = rows(gate);
        let slow: Vec<&Row> = rows.iter().filter(|r| r.kind == "slow").collect();
        if slow.is_empty() {
            continue;
        }
        let mut notes: Vec<String> = Vec::new();
        for row in &slow {
            let Some(note) = row.note else { continue };
            let mut text = note.split_whitespace().collect::<Vec<_>>().join(" ");
            let links = citations(note, base, sections);
            if !links.is_empty() {
                text = format!("{text} ({})", links.join(", "));
            }
            if !notes.contains(&text) {
                notes.push(text);
            }
        }
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} |",
            gate_cell(gate, base),
            gate.about.replace('|', "\\|"),
            slow.iter()
                .map(|r| phrase(r))
                .collect::<Vec<_>>()
                .join("; "),
            notes.join(" ").replace('|', "\\|")
        );
    }
    md
}

/// Every table of [`TABLES`], by name, its links made from `base` (the
/// way from the file that holds it to the project's root).
pub fn tables(survey: &Survey, base: &str) -> Vec<(&'static str, String)> {
    let sections = sections();
    TABLES
        .iter()
        .map(|(name, codec)| {
            let gates: Vec<&Gate> = survey
                .gates
                .iter()
                .filter(|g| codec.is_none_or(|c| g.codec.as_deref() == Some(c)))
                .collect();
            let table = match codec {
                Some(_) => gates_table(&gates, base, &sections),
                None => cost_table(&gates, base, &sections),
            };
            (*name, table)
        })
        .collect()
}

/// `text` with the region of each marker pair replaced by its table; an
/// error for a marker that names no table or has no end.
pub fn rewrite(text: &str, tables: &[(&str, String)]) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("<!-- survey:begin ") {
        let line_end = rest[at..].find('\n').map_or(rest.len(), |i| at + i + 1);
        let marker = &rest[at..line_end];
        let name = marker
            .trim()
            .strip_prefix("<!-- survey:begin ")
            .and_then(|m| m.strip_suffix("-->"))
            .map(str::trim)
            .ok_or_else(|| format!("a survey marker that does not read: {}", marker.trim()))?;
        let table = tables
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t)
            .ok_or_else(|| {
                format!(
                    "<!-- survey:begin {name} --> names no table (the tables: {})",
                    TABLES
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        let end = format!("<!-- survey:end {name} -->");
        let stop = rest[line_end..]
            .find(&end)
            .ok_or_else(|| format!("<!-- survey:begin {name} --> has no {end}"))?;
        out.push_str(&rest[..line_end]);
        out.push_str(table);
        out.push_str(&end);
        rest = &rest[line_end + stop + end.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The way from `file` to the project's root, for its links: `../` for
/// `docs/findings.md`, nothing for `README.md`.
fn base_of(file: &str) -> String {
    let depth = Path::new(file)
        .parent()
        .map_or(0, |p| p.components().count());
    "../".repeat(depth)
}

/// `survey --docs FILE...`: rewrites the survey regions of each file from
/// the survey the gates record (every gate of [`GATES_DIR`] unless gates
/// are named), running none; with `check`, writes nothing and says which
/// files differ. Exit status 0; 1 when `check` finds a file whose tables
/// differ; 2 when a gate or a file does not read or a marker is wrong.
pub fn run(gates: &[String], files: &[String], check: bool, out: &mut Output) -> Outcome {
    let gates = if gates.is_empty() {
        super::survey_model::default_gates(GATES_DIR)?
    } else {
        gates.to_vec()
    };
    for gate in &gates {
        if !Path::new(gate).is_file() {
            return Err(Stop::Setup(format!("cannot read the gate {gate}")));
        }
    }
    let survey = recorded(&gates);
    let mut stale = 0;
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Stop::Setup(format!("cannot read {file}: {e}")))?;
        let new = rewrite(&text, &tables(&survey, &base_of(file)))
            .map_err(|e| Stop::Setup(format!("{file}: {e}")))?;
        if new == text {
            say!(out, "{file}: its survey tables are up to date");
        } else if check {
            stale += 1;
            say!(
                out,
                "{file}: its survey tables differ from what the gates record; \
                 run punycheck survey --docs {file}"
            );
        } else {
            std::fs::write(file, &new)
                .map_err(|e| Stop::Setup(format!("cannot write {file}: {e}")))?;
            say!(
                out,
                "{file}: rewrote its survey tables from {} gates",
                gates.len()
            );
        }
    }
    Ok(Status::of(stale == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_is_replaced_and_the_rest_kept() {
        let tables = vec![("cost", "| new |\n".to_string())];
        let text = "a\n<!-- survey:begin cost -->\n| old |\n<!-- survey:end cost -->\nb\n";
        assert_eq!(
            rewrite(text, &tables).unwrap(),
            "a\n<!-- survey:begin cost -->\n| new |\n<!-- survey:end cost -->\nb\n"
        );
        assert!(rewrite("<!-- survey:begin nothing -->\n", &tables).is_err());
        assert!(rewrite("<!-- survey:begin cost -->\n| old |\n", &tables).is_err());
    }

    #[test]
    fn notes_cite_their_sections() {
        let sections = vec![("1".to_string(), "1-cpython-punycode-codec".to_string())];
        assert_eq!(
            citations(
                "read in its source: adapters/FINDINGS.md section 1, adapters/label/NOTES.md",
                "../",
                &sections
            ),
            [
                "[§1](../adapters/FINDINGS.md#1-cpython-punycode-codec)",
                "[label notes](../adapters/label/NOTES.md)"
            ]
        );
        assert_eq!(base_of("docs/findings.md"), "../");
        assert_eq!(base_of("README.md"), "");
    }
}
