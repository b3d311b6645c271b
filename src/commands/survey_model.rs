//! The survey's model: what `survey.json` holds (its layout [`VERSION`],
//! `docs/survey.schema.json`), the rule areas a cause is sorted into
//! ([`AREAS`], [`area_of`]), and a gate as its files give it
//! ([`gate_of_file`], [`finish`]). The survey's run and comparison
//! ([`super::survey`]), its page ([`super::survey_page`]) and the docs'
//! tables ([`super::survey_docs`]) all read it; it reads none of them.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::Stop;
use punycheck::harness::baseline::Baseline;

/// The layout version of `survey.json`; it changes whenever a field does.
pub const VERSION: u32 = 3;

/// The directory whose gates a survey runs when none is named.
pub const GATES_DIR: &str = "adapters/gates";

/// The rule areas of the page's columns: a short stable name and its title.
pub const AREAS: &[(&str, &str)] = &[
    ("punycode", "Punycode arithmetic and overflow"),
    ("ace-prefix", "ACE prefix"),
    ("hyphens", "Hyphens"),
    ("contextj", "ContextJ"),
    ("contexto", "ContextO"),
    ("bidi", "Bidi"),
    ("mapping", "Mapping and dots"),
    ("lengths", "Lengths"),
    ("unicode", "Unicode data"),
    ("cost", "Cost"),
    ("crash", "Crashes and hangs"),
    ("other", "Other"),
];

/// The reference's rule names (what a cause's `reference` says in
/// parentheses after `refused`), each with its area: the one table that
/// sorts label and name causes. A rule not listed is `other`.
const RULE_AREAS: &[(&str, &str)] = &[
    ("punycode", "punycode"),
    ("decodes-to-non-scalar", "punycode"),
    ("begins-with-xn--", "ace-prefix"),
    ("not-an-a-label", "ace-prefix"),
    ("non-ascii-in-a-label", "ace-prefix"),
    ("not-re-encoded", "ace-prefix"),
    ("ascii-only", "ace-prefix"),
    ("empty", "ace-prefix"),
    ("hyphens-3-4", "hyphens"),
    ("hyphen-at-end", "hyphens"),
    ("contextj", "contextj"),
    ("contexto", "contexto"),
    ("bidi", "bidi"),
    ("bidi-across-labels", "bidi"),
    ("full-stop", "mapping"),
    ("separator-by-nameprep", "mapping"),
    ("empty-label", "lengths"),
    ("empty-host", "mapping"),
    ("not-nfc", "mapping"),
    ("not-ldh", "mapping"),
    ("not-text", "mapping"),
    ("not-scalar", "mapping"),
    ("forbidden-domain-code-point", "mapping"),
    ("ipv4", "mapping"),
    ("ipv6", "mapping"),
    ("dns-length", "lengths"),
    ("name-length", "lengths"),
    ("disallowed", "unicode"),
    ("status", "unicode"),
    ("unassigned", "unicode"),
    ("prohibited", "unicode"),
    ("leading-mark", "unicode"),
];

/// The area of a cause, from its key and its witnesses (`explained`):
/// its kind first (cost, crashes, lengths, spellings); then, for a
/// refusal of valid input or a wrong output, whose key names no rule, the
/// rule its witness shows ([`witness_area`]: an ACE prefix not in
/// lowercase is the ACE prefix's, a size limit the lengths'); then the
/// reference's answer: a Punycode status (`overflow (...)`, `bad_input
/// (...)`) is arithmetic, a label or name rule (`refused (bidi)`) is
/// looked up in [`RULE_AREAS`]; any other cause of the Punycode codec (a
/// wrong output, a round trip) is arithmetic, and of the label and domain
/// codecs `other`.
pub fn area_of(codec: &str, kind: &str, reference: &str, explained: &[String]) -> &'static str {
    match kind {
        "slow" | "memory" => return "cost",
        "crash" | "hang" | "broken" => return "crash",
        "beyond-own-limit" => return "lengths",
        "spellings" => return "mapping",
        "entry-points" => return "other",
        _ => {}
    }
    if let Some(area) = explained.iter().find_map(|w| witness_area(w)) {
        return area;
    }
    if let Some(rule) = reference
        .strip_prefix("refused (")
        .and_then(|r| r.strip_suffix(')'))
    {
        return RULE_AREAS
            .iter()
            .find(|(name, _)| *name == rule)
            .map_or("other", |(_, area)| area);
    }
    if ["overflow", "bad_input", "big_output"]
        .iter()
        .any(|status| reference.starts_with(status))
    {
        return "punycode";
    }
    if codec == "label" || codec == "domain" {
        "other"
    } else {
        "punycode"
    }
}

/// The rule a witness shows (`punycheck::harness::witness`), where it
/// shows one: the ACE prefix's case, a size, the digits of an overflow, a
/// Bidi condition, a joiner, the STD3 rule or a dot. `None` for a witness
/// that names no rule (a short question refused for a code point of its
/// own).
fn witness_area(witness: &str) -> Option<&'static str> {
    use punycheck::harness::witness::{OTHER_CASE_PREFIX, STD3_ASCII};
    let area = if witness.contains(OTHER_CASE_PREFIX) || witness.starts_with("an A-label") {
        "ace-prefix"
    } else if witness.starts_with("a size limit")
        || witness.starts_with("a long question refused")
        || witness == punycheck::harness::witness::EMPTY_REFUSED
    {
        "lengths"
    } else if witness.starts_with("its largest value needs") {
        "punycode"
    } else if witness.starts_with("Bidi condition") {
        "bidi"
    } else if witness.starts_with("the joiner") {
        "contextj"
    } else if witness.contains(STD3_ASCII)
        || witness == "the shortest refused: \".\""
        || witness.starts_with("an LDH label")
    {
        "mapping"
    } else {
        return None;
    };
    Some(area)
}

/// A gate's status in the words the terminal and the page both use: a
/// conforming check with known causes passes on its baseline, as its
/// verdict line says.
pub fn shown_status(gate: &Gate) -> String {
    if gate.status == "conforming" && (!gate.causes.is_empty() || !gate.still_there.is_empty()) {
        "passes on its baseline".into()
    } else {
        gate.status.replace('-', " ")
    }
}

/// The area a declared divergence class (the report's `generated.classes`)
/// belongs to, if any: its cell then reads `declared` where nothing else is.
pub(super) fn class_area(class: &str, codec: &str) -> Option<&'static str> {
    match class {
        "length-limit" => Some("lengths"),
        "unicode-version" => Some("unicode"),
        "domain" | "annotations" if codec != "label" && codec != "domain" => Some("punycode"),
        _ => None,
    }
}

/// A survey: every gate run, what each found, and the verdict of the whole.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Survey {
    /// The layout's version ([`VERSION`]).
    pub version: u32,
    /// The punycheck that ran the checks.
    pub punycheck: String,
    /// When the survey started, RFC 3339 in UTC.
    pub started: String,
    /// How long it took, in seconds.
    pub seconds: f64,
    /// `pass` when every gate that ran gave the status its baseline
    /// expects (exit status 0 of its check), else `fail`.
    pub status: String,
    /// The rule areas, in the page's order: name and title.
    pub areas: Vec<Area>,
    /// Every gate, in the order given (by file name by default).
    pub gates: Vec<Gate>,
}

/// A rule area: a column of the page.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// Its short stable name.
    pub name: String,
    /// Its title.
    pub title: String,
}

/// One gate and what its check reported.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gate {
    /// The gate file, as given.
    pub gate: String,
    /// Its name: the file's stem.
    pub name: String,
    /// What it checks, in the words of the gate file's opening comment.
    pub about: String,
    /// The implementation as the gate's `spec` names it.
    pub implementation: String,
    /// The codec (`punycode`, `label`, `domain`, ...), null when not run.
    pub codec: Option<String>,
    /// The label rules and switches the gate file sets (`label-rules=uts46
    /// check-hyphens=false`), empty for none.
    pub rules: String,
    /// The declaration as the check used it, in words; null when not run.
    pub declaration: Option<String>,
    /// The declaration as the gate file gives it, as options
    /// (`--domain unicode --errors kinds`), empty for none.
    pub options: String,
    /// The Unicode version the implementation declares, null for the
    /// references' own.
    pub unicode_version: Option<String>,
    /// The check's status: `conforming` (also when it passes on its
    /// baseline), `nonconforming`, `incomplete`, `interrupted`, or
    /// `not-run` when it could not start (its implementation not installed).
    pub status: String,
    /// The check's exit status.
    pub exit: Option<i32>,
    /// Whether it gave the status its baseline expects: exit status 0.
    pub expected: bool,
    /// Why it did not run, for `not-run`.
    pub reason: Option<String>,
    /// The check's verdict line.
    pub verdict: String,
    /// How long the check took, in seconds.
    pub seconds: f64,
    /// Every cause the check reported, most severe first.
    pub causes: Vec<SurveyCause>,
    /// Causes the baseline records that this run did not meet, whose
    /// reproducers still show them: known, as the reported causes are.
    pub still_there: Vec<Recorded>,
    /// Causes the baseline records that no longer reproduce.
    pub gone: Vec<Recorded>,
    /// Causes the baseline records whose recorded witnesses now pass.
    pub narrowed: Vec<Recorded>,
    /// Per area, its cell: `pass`, `declared`, `known`, `new`, or `not-run`.
    pub cells: BTreeMap<String, String>,
    /// The cost probe's series, for the page's plot.
    pub cost: Vec<CostSeries>,
}

/// A cause, as the check reported it, with its area and the baseline's note.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SurveyCause {
    /// `encode` or `decode`.
    pub direction: String,
    /// Its kind (`accepts-invalid`, `slow`, ...).
    pub kind: String,
    /// What the reference answered, in brief.
    pub reference: String,
    /// What the implementation answered, in brief.
    pub got: String,
    /// The four in one line.
    pub summary: String,
    /// Its rule area ([`area_of`]).
    pub area: String,
    /// Recorded in the gate's baseline.
    pub known: bool,
    /// What is wrong on its reproducer.
    pub detail: String,
    /// What explains it beyond the key, as a baseline records it.
    pub explanations: Vec<String>,
    /// The vectors and small cases that showed it.
    pub vectors: Vec<String>,
    /// The command that shows it again (exit status 1 while it is there).
    pub reproduce: String,
    /// Each of its explanations with the line that asks the shortest
    /// question showing it (the report's `by_rule`).
    pub by_rule: Vec<ByRule>,
    /// The note the baseline gives its entry (the source reading), if any.
    pub note: Option<String>,
}

/// One rule of a cause, with its own reproducer: a wrong output departing
/// from the reference by several rules is several defects under one key.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ByRule {
    /// The explanation, as in `explanations` (empty: the class alone).
    pub rule: String,
    /// The command that asks its shortest question again (exit status 1
    /// while the answer differs).
    pub reproduce: String,
}

/// A baseline entry that the check found gone or narrowed.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recorded {
    /// `encode` or `decode`.
    pub direction: String,
    /// Its kind.
    pub kind: String,
    /// What the reference answered.
    pub reference: String,
    /// What the implementation answered.
    pub got: String,
    /// Its rule area.
    pub area: String,
    /// Narrowed: the witnesses that now pass; else empty.
    pub passing: Vec<String>,
    /// The command that shows it again, from its recorded reproducer (null
    /// for an entry that records none).
    pub reproduce: Option<String>,
    /// The baseline's note, if any.
    pub note: Option<String>,
}

/// One family and direction of the cost probe.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CostSeries {
    /// The family of long inputs.
    pub family: String,
    /// `encode` or `decode`.
    pub direction: String,
    /// The time ratio per doubling, null when too fast to read.
    pub growth: Option<f64>,
    /// `within`, `near` or `slow`.
    pub verdict: String,
    /// The sizes measured (code points) and their CPU seconds.
    pub points: Vec<(u64, f64)>,
}

/// Every gate file of `dir` that is not a baseline, by name.
pub(super) fn default_gates(dir: &str) -> Result<Vec<String>, Stop> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Stop::Setup(format!(
            "no gates named, and {dir} cannot be read ({e}): run from the project's root or name the gate files"
        ))
    })?;
    let mut gates: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".toml") && !name.ends_with(".baseline.toml"))
        .map(|name| format!("{dir}/{name}"))
        .collect();
    gates.sort();
    if gates.is_empty() {
        return Err(Stop::Setup(format!("no gate files in {dir}")));
    }
    Ok(gates)
}

/// The gate file's opening comment, its first sentence up to the line that
/// shows the command: what it checks, in its own words.
fn about(text: &str) -> String {
    let mut words = Vec::new();
    for line in text.lines() {
        let Some(comment) = line.strip_prefix('#') else {
            break;
        };
        let comment = comment.trim();
        if comment.starts_with("punycheck check") {
            break;
        }
        words.push(comment);
    }
    let joined = words.join(" ");
    let joined = joined
        .strip_prefix("punycheck's CI gate for ")
        .unwrap_or(&joined);
    joined.trim_end_matches(':').trim().to_string()
}

/// The label rules and switches a gate file's `[check]` sets, and its
/// declared Unicode version.
fn rules_of(table: &toml::Table) -> (String, Option<String>) {
    let check = table.get("check").and_then(|c| c.as_table());
    let rules = [
        "label-rules",
        "check-hyphens",
        "std3-rules",
        "verify-dns-length",
        "check-bidi",
        "check-joiners",
        "transitional-processing",
        "ignore-invalid-punycode",
        "be-strict",
        "url-ascii-fallback",
    ]
    .iter()
    .filter_map(|key| {
        let value = check?.get(*key)?;
        Some(match value.as_str() {
            Some(s) => format!("{key}={s}"),
            None => format!("{key}={value}"),
        })
    })
    .collect::<Vec<_>>()
    .join(" ");
    let unicode = table
        .get("implementation")
        .and_then(|i| i.get("unicode-version"))
        .and_then(|v| v.as_str())
        .map(String::from);
    (rules, unicode)
}

/// The baseline a gate (the file `gate`) names, if it names one that
/// reads: from the gate's root when it has one, as its check reads it.
fn baseline_of(gate: &str, table: &toml::Table) -> Option<Baseline> {
    let path = table.get("check")?.get("baseline")?.as_str()?;
    let root = crate::config::Config {
        root: table.get("root").and_then(|r| r.as_str()).map(String::from),
        ..Default::default()
    }
    .root_of(Path::new(gate))
    .ok()?;
    let path = root.map_or_else(|| Path::new(path).to_path_buf(), |root| root.join(path));
    Baseline::parse(&std::fs::read_to_string(path).ok()?).ok()
}

/// What a gate file says before its check runs: a gate `not-run`, with
/// its name, implementation, rules and declaration; its baseline; and the
/// codec it names (`punycode` when it names none).
pub(super) fn gate_of_file(path: &str) -> (Gate, Option<Baseline>, String) {
    let name = Path::new(path)
        .file_stem()
        .map_or(path.to_string(), |s| s.to_string_lossy().into_owned());
    let source = std::fs::read_to_string(path).unwrap_or_default();
    let table: toml::Table = source.parse().unwrap_or_default();
    let (rules, unicode_from_file) = rules_of(&table);
    let spec = table
        .get("implementation")
        .and_then(|i| i.get("spec"))
        .and_then(|s| s.as_str())
        .unwrap_or_default()
        .to_string();
    let options = crate::config::Config::parse(path, &source)
        .map(|c| c.implementation.declaration().options().trim().to_string())
        .unwrap_or_default();
    let gate = Gate {
        gate: path.to_string(),
        name,
        about: about(&source),
        implementation: spec,
        codec: None,
        rules,
        declaration: None,
        options,
        unicode_version: unicode_from_file,
        status: "not-run".into(),
        exit: None,
        expected: false,
        reason: None,
        verdict: String::new(),
        seconds: 0.0,
        causes: Vec::new(),
        still_there: Vec::new(),
        gone: Vec::new(),
        narrowed: Vec::new(),
        cells: BTreeMap::new(),
        cost: Vec::new(),
    };
    let codec = table
        .get("check")
        .and_then(|c| c.get("codec"))
        .and_then(|c| c.as_str())
        .unwrap_or("punycode")
        .to_string();
    (gate, baseline_of(path, &table), codec)
}

/// Fills in each area's cell: `new` where a cause the baseline does not
/// record, or a recorded one gone or narrowed, is; else `known` where a
/// recorded cause is; else `declared` where a declared class explained a
/// difference; else `pass`. Every cell of a gate not run is `not-run`.
pub(super) fn finish(mut gate: Gate) -> Gate {
    let declared = std::mem::take(&mut gate.cells);
    for (area, _) in AREAS {
        let cell = if gate.status == "not-run" {
            "not-run"
        } else if gate.causes.iter().any(|c| c.area == *area && !c.known)
            || gate
                .gone
                .iter()
                .chain(&gate.narrowed)
                .any(|r| r.area == *area)
        {
            "new"
        } else if gate.causes.iter().any(|c| c.area == *area)
            || gate.still_there.iter().any(|r| r.area == *area)
        {
            "known"
        } else if declared.contains_key(*area) {
            "declared"
        } else {
            "pass"
        };
        gate.cells.insert((*area).into(), cell.into());
    }
    gate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_sort_into_areas_by_their_keys() {
        let area = |codec, kind, reference| area_of(codec, kind, reference, &[]);
        assert_eq!(
            area("domain", "accepts-invalid", "refused (bidi-across-labels)"),
            "bidi"
        );
        assert_eq!(
            area("label", "accepts-invalid", "refused (contextj)"),
            "contextj"
        );
        assert_eq!(
            area("label", "accepts-invalid", "refused (hyphens-3-4)"),
            "hyphens"
        );
        // An empty label is VerifyDnsLength's: a trailing dot's rule.
        assert_eq!(
            area("domain", "accepts-invalid", "refused (empty-label)"),
            "lengths"
        );
        assert_eq!(area("punycode", "slow", ""), "cost");
        assert_eq!(
            area("punycode", "accepts-invalid", "overflow (encode_delta)"),
            "punycode"
        );
        assert_eq!(area("punycode", "wrong-output", "success"), "punycode");
        assert_eq!(area("label", "wrong-output", "success"), "other");
        assert_eq!(
            area("label", "accepts-invalid", "refused (a-rule-not-listed)"),
            "other"
        );
        for (_, area) in RULE_AREAS {
            assert!(AREAS.iter().any(|(name, _)| name == area), "{area}");
        }
    }

    /// A refusal of valid input names no rule in its key: its witness
    /// does (issue 47: a wrong ACE prefix's case was under "Other").
    #[test]
    fn a_refusal_is_sorted_by_the_rule_its_witness_shows() {
        let refusal =
            |witness: &str| area_of("label", "rejects-valid", "success", &[witness.to_string()]);
        assert_eq!(
            refusal("the shortest refused: \"<xn-- not in lowercase>…\""),
            "ace-prefix"
        );
        assert_eq!(
            refusal("a size limit: refused from about 1030 bytes"),
            "lengths"
        );
        assert_eq!(
            refusal("the shortest refused: \"<non-LDH ASCII>\""),
            "mapping"
        );
        assert_eq!(refusal("the shortest refused: \"q\""), "other");
        assert_eq!(
            area_of(
                "domain",
                "wrong-output",
                "success",
                &["an A-label: ASCII letters not lowercased, kept from the question".into()]
            ),
            "ace-prefix"
        );
    }

    #[test]
    fn about_is_the_opening_comment() {
        let text = "# punycheck's CI gate for npm punycode 2.3.1:\n#   punycheck check --config x\n# more\n";
        assert_eq!(about(text), "npm punycode 2.3.1");
    }
}
