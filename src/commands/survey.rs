//! `punycheck survey`: many gates at once, and one page of what they found.
//!
//! Each gate (a `punycheck.toml`, by default every one of `adapters/gates/`)
//! runs exactly as `punycheck check --config GATE` runs it: this binary is
//! started again with those arguments and `--json`, as many at once as the
//! machine has cores, and its JSON report is read back. Nothing is checked
//! here: the survey only gathers what the checks reported, with the notes
//! their baselines give each cause, sorts each cause into a rule area by
//! its key ([`AREAS`], [`area_of`]) and writes `survey.json`
//! (`docs/survey.schema.json`), `survey.md` and `index.html`
//! ([`super::survey_page`]).
//!
//! `--compare OLD.json NEW.json` says what changed between two surveys:
//! gates added or dropped, statuses that moved, causes new, gone or
//! narrowed per implementation.
//!
//! # Size
//!
//! About 960 lines, 40 of them tests: running the gates, reading their
//! reports and baselines into one model, mapping causes to rule areas,
//! survey.md and the comparison of two surveys share that model; the page
//! itself is [`super::survey_page`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Outcome, Output, Status, Stop, survey_page};
use punycheck::engines::process;
use punycheck::harness::baseline::Baseline;

/// The layout version of `survey.json`; it changes whenever a field does.
pub const VERSION: u32 = 2;

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
    ("empty-label", "mapping"),
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

/// The area of a cause, from its key: its kind first (cost, crashes,
/// lengths, spellings), then the reference's answer: a Punycode status
/// (`overflow (...)`, `bad_input (...)`) is arithmetic, a label or name
/// rule (`refused (bidi)`) is looked up in [`RULE_AREAS`]; any other cause
/// of the Punycode codec (a wrong output, a round trip) is arithmetic, and
/// of the label and domain codecs `other`.
pub fn area_of(codec: &str, kind: &str, reference: &str) -> &'static str {
    match kind {
        "slow" | "memory" => return "cost",
        "crash" | "hang" | "broken" => return "crash",
        "beyond-own-limit" => return "lengths",
        "spellings" => return "mapping",
        "entry-points" => return "other",
        _ => {}
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

/// The area a declared divergence class (the report's `generated.classes`)
/// belongs to, if any: its cell then reads `declared` where nothing else is.
fn class_area(class: &str, codec: &str) -> Option<&'static str> {
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
    /// The note the baseline gives its entry (the source reading), if any.
    pub note: Option<String>,
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

/// What `survey` is asked to do.
#[derive(Clone, Debug)]
pub struct SurveySettings {
    /// The gate files; empty for every gate of [`GATES_DIR`].
    pub gates: Vec<String>,
    /// The directory to write into.
    pub out: String,
    /// How many checks at once; the machine's cores when not given.
    pub jobs: Option<usize>,
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

/// Runs the survey and writes its three files.
pub fn run(settings: &SurveySettings, out: &mut Output) -> Outcome {
    let gates = if settings.gates.is_empty() {
        default_gates(GATES_DIR)?
    } else {
        settings.gates.clone()
    };
    for gate in &gates {
        let text = std::fs::read_to_string(gate)
            .map_err(|e| Stop::Setup(format!("cannot read the gate {gate}: {e}")))?;
        text.parse::<toml::Table>()
            .map_err(|e| Stop::Setup(format!("the gate {gate} is not TOML: {e}")))?;
    }
    let dir = Path::new(&settings.out);
    // Each check keeps its programs within its own gate's memory limit;
    // the checks themselves are not programs under test.
    process::set_memory_limit(None);
    std::fs::create_dir_all(dir)
        .map_err(|e| Stop::Setup(format!("cannot create {}: {e}", settings.out)))?;
    let reports = tempdir(dir)?;
    let started = punycheck::harness::report::json::rfc3339(std::time::SystemTime::now());
    let clock = std::time::Instant::now();
    let jobs = settings
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .clamp(1, gates.len().max(1));
    say!(
        out,
        "punycheck survey: {} gates, {jobs} at once",
        gates.len()
    );
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<Option<Gate>>> = Mutex::new(vec![None; gates.len()]);
    let (done, finished) = std::sync::mpsc::channel::<String>();
    let closed = std::thread::scope(|scope| {
        for _ in 0..jobs {
            let done = done.clone();
            let (next, results, gates, reports) = (&next, &results, &gates, &reports);
            scope.spawn(move || {
                loop {
                    let i = {
                        let mut next = next.lock().unwrap();
                        let i = *next;
                        *next += 1;
                        i
                    };
                    let Some(path) = gates.get(i) else { break };
                    let stem = Path::new(path)
                        .file_stem()
                        .map_or(format!("{i}"), |s| s.to_string_lossy().into_owned());
                    let gate = run_gate(path, &reports.join(format!("{i}-{stem}.json")));
                    let _ = done.send(format!(
                        "  {}: {}{}",
                        gate.name,
                        gate.status,
                        gate.reason
                            .as_ref()
                            .map_or(String::new(), |r| format!(" ({r})"))
                    ));
                    results.lock().unwrap()[i] = Some(gate);
                }
            });
        }
        drop(done);
        // Each gate is said as it ends; a closed output stops the saying,
        // not the survey.
        let mut closed = None;
        for line in finished {
            if closed.is_none()
                && let Err(stop) = out.line(&line)
            {
                closed = Some(stop);
            }
        }
        closed
    });
    // The JSON reports go; the long inputs that reproducers read
    // (`--decode-file`) stay beside the page.
    for entry in std::fs::read_dir(&reports).into_iter().flatten().flatten() {
        let path = entry.path();
        if path
            .extension()
            .is_some_and(|e| e == "json" || e == "out" || e == "err")
        {
            let _ = std::fs::remove_file(path);
        }
    }
    let _ = std::fs::remove_dir(&reports);
    let gates: Vec<Gate> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .flatten()
        .collect();
    let pass = gates.iter().all(|g| g.expected || g.status == "not-run");
    let survey = Survey {
        version: VERSION,
        punycheck: env!("CARGO_PKG_VERSION").into(),
        started,
        seconds: clock.elapsed().as_secs_f64(),
        status: if pass { "pass" } else { "fail" }.into(),
        areas: AREAS
            .iter()
            .map(|(name, title)| Area {
                name: (*name).into(),
                title: (*title).into(),
            })
            .collect(),
        gates,
    };
    write(
        dir,
        "survey.json",
        &serde_json::to_string_pretty(&survey).unwrap(),
    )?;
    write(dir, "survey.md", &survey_page::markdown(&survey))?;
    write(dir, "index.html", &survey_page::html(&survey))?;
    if let Some(stop) = closed {
        return Err(stop);
    }
    let ran = survey
        .gates
        .iter()
        .filter(|g| g.status != "not-run")
        .count();
    let failed: Vec<&str> = survey
        .gates
        .iter()
        .filter(|g| !g.expected && g.status != "not-run")
        .map(|g| g.name.as_str())
        .collect();
    say!(
        out,
        "{} of {} gates ran ({} not run); {}; wrote {}/survey.json, survey.md and index.html",
        ran,
        survey.gates.len(),
        survey.gates.len() - ran,
        if failed.is_empty() {
            "each gave the status its baseline expects".to_string()
        } else {
            format!("not as their baselines expect: {}", failed.join(", "))
        },
        settings.out
    );
    Ok(Status::of(pass))
}

/// The directory for the checks' JSON reports, inside `dir` (which must
/// be writable anyway): `DIR/inputs`, where the checks also write the long
/// inputs their reproducers read; the reports are removed once read.
fn tempdir(dir: &Path) -> Result<PathBuf, Stop> {
    let path = dir.join("inputs");
    std::fs::create_dir_all(&path)
        .map_err(|e| Stop::Setup(format!("cannot write into {}: {e}", dir.display())))?;
    Ok(path)
}

/// Writes `name` into `dir`.
fn write(dir: &Path, name: &str, text: &str) -> Result<(), Stop> {
    let path = dir.join(name);
    std::fs::write(&path, text)
        .map_err(|e| Stop::Setup(format!("cannot write {}: {e}", path.display())))
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

/// The baseline a gate names, if it names one that reads.
fn baseline_of(table: &toml::Table) -> Option<Baseline> {
    let path = table.get("check")?.get("baseline")?.as_str()?;
    Baseline::parse(&std::fs::read_to_string(path).ok()?).ok()
}

/// The note of the baseline entry with this key.
fn note_of(
    baseline: Option<&Baseline>,
    direction: &str,
    kind: &str,
    reference: &str,
    got: &str,
) -> Option<String> {
    baseline?
        .cause
        .iter()
        .find(|e| {
            e.direction == direction
                && serde_json::to_value(e.kind)
                    .ok()
                    .as_ref()
                    .and_then(Value::as_str)
                    == Some(kind)
                && e.reference == reference
                && e.got == got
        })
        .map(|e| e.note.clone())
        .filter(|n| !n.is_empty())
}

/// A string field of a JSON object, empty when absent.
fn text(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
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
    (gate, baseline_of(&table), codec)
}

/// Runs one gate as `check --config` runs it, its JSON report to `json`,
/// and reads what it found.
fn run_gate(path: &str, json: &Path) -> Gate {
    let (mut gate, baseline, _) = gate_of_file(path);
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("punycheck"));
    let (stdout, stderr) = (json.with_extension("out"), json.with_extension("err"));
    let files =
        std::fs::File::create(&stdout).and_then(|o| Ok((o, std::fs::File::create(&stderr)?)));
    // Started as every program is ([`process::spawn`]), so that the orphan
    // reaper of this command line leaves it be and Ctrl-C ends it.
    let status = files.and_then(|(o, e)| {
        let mut child = process::spawn(
            Command::new(exe)
                .args(["check", "--config", path, "--json"])
                .arg(json)
                .stdin(Stdio::null())
                .stdout(o)
                .stderr(e),
        )?;
        let status = child.wait();
        process::forget(&child);
        status
    });
    let status = match status {
        Ok(status) => status,
        Err(e) => {
            gate.reason = Some(format!("punycheck check could not start: {e}"));
            return finish(gate);
        }
    };
    gate.exit = status.code();
    gate.expected = gate.exit == Some(0);
    let stderr = std::fs::read_to_string(&stderr).unwrap_or_default();
    let report: Option<Value> = std::fs::read_to_string(json)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    let Some(report) = report else {
        gate.reason = Some(format!(
            "check exited {} without a report: {}",
            gate.exit.map_or("on a signal".into(), |c| c.to_string()),
            stderr.lines().last().unwrap_or("nothing on standard error")
        ));
        return finish(gate);
    };
    gate.verdict = text(&report, "verdict");
    if let Some(error) = report.get("error") {
        gate.reason = Some(format!(
            "check exit status {}: {}",
            gate.exit.map_or("none".into(), |c| c.to_string()),
            text(error, "message")
        ));
        return finish(gate);
    }
    gate.status = text(&report, "status");
    gate.implementation = text(&report, "implementation");
    let codec = text(&report, "codec");
    let declaration = &report["declaration"];
    gate.declaration = Some(text(declaration, "text"));
    if let Some(v) = declaration["unicode_version"].as_str() {
        gate.unicode_version = Some(v.into());
    }
    gate.seconds = report["seconds"].as_f64().unwrap_or_default();
    for cause in report["causes"].as_array().into_iter().flatten() {
        let (direction, kind) = (text(cause, "direction"), text(cause, "kind"));
        let (reference, got) = (text(cause, "reference"), text(cause, "got"));
        let strings = |key| -> Vec<String> {
            cause[key]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        };
        gate.causes.push(SurveyCause {
            area: area_of(&codec, &kind, &reference).into(),
            known: cause["known"].as_bool().unwrap_or(false),
            summary: text(cause, "summary"),
            detail: text(cause, "detail"),
            explanations: strings("explanations"),
            vectors: strings("vectors"),
            reproduce: text(cause, "reproduce"),
            note: note_of(baseline.as_ref(), &direction, &kind, &reference, &got),
            direction,
            kind,
            reference,
            got,
        });
    }
    let recorded = |entry: &Value| {
        let (direction, kind) = (text(entry, "direction"), text(entry, "kind"));
        let (reference, got) = (text(entry, "reference"), text(entry, "got"));
        Recorded {
            area: area_of(&codec, &kind, &reference).into(),
            passing: entry["passing"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(String::from))
                .collect(),
            reproduce: entry["reproduce"].as_str().map(String::from),
            note: note_of(baseline.as_ref(), &direction, &kind, &reference, &got),
            direction,
            kind,
            reference,
            got,
        }
    };
    if let Some(judged) = report.get("baseline").filter(|b| !b.is_null()) {
        gate.still_there = judged["still_there"]
            .as_array()
            .into_iter()
            .flatten()
            .map(recorded)
            .collect();
        gate.gone = judged["gone"]
            .as_array()
            .into_iter()
            .flatten()
            .map(recorded)
            .collect();
        gate.narrowed = judged["narrowed"]
            .as_array()
            .into_iter()
            .flatten()
            .map(recorded)
            .collect();
    }
    for class in report["generated"]["classes"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if let Some(area) = class_area(&text(class, "class"), &codec) {
            gate.cells.insert(area.into(), "declared".into());
        }
    }
    for series in report["cost"]["series"].as_array().into_iter().flatten() {
        gate.cost.push(CostSeries {
            family: text(series, "family"),
            direction: text(series, "direction"),
            growth: series["growth"].as_f64(),
            verdict: text(series, "verdict"),
            points: series["points"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| Some((p["code_points"].as_u64()?, p["seconds"].as_f64()?)))
                .collect(),
        });
    }
    gate.codec = Some(codec);
    finish(gate)
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

/// Reads a survey written by `survey --out`.
fn read_survey(path: &str) -> Result<Survey, Stop> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Stop::Setup(format!("cannot read the survey {path}: {e}")))?;
    let survey: Survey = serde_json::from_str(&text).map_err(|e| {
        Stop::Setup(format!(
            "{path} is not a survey.json of layout version {VERSION}: {e}"
        ))
    })?;
    if survey.version != VERSION {
        return Err(Stop::Setup(format!(
            "{path} is a survey of layout version {}, this punycheck reads version {VERSION}",
            survey.version
        )));
    }
    Ok(survey)
}

/// A cause's key: what a baseline tells causes apart by.
fn key(c: &SurveyCause) -> (String, String, String, String) {
    (
        c.direction.clone(),
        c.kind.clone(),
        c.reference.clone(),
        c.got.clone(),
    )
}

/// `survey --compare OLD NEW`: what changed, per gate. Exit status 1 when
/// anything did (a gate added or dropped, a status moved, a cause new,
/// gone or narrowed), 0 when nothing did.
pub fn compare(old: &str, new: &str, out: &mut Output) -> Outcome {
    let (before, after) = (read_survey(old)?, read_survey(new)?);
    let by_gate = |s: &Survey| -> BTreeMap<String, Gate> {
        s.gates
            .iter()
            .map(|g| (g.gate.clone(), g.clone()))
            .collect()
    };
    let (was, now) = (by_gate(&before), by_gate(&after));
    let mut changes = 0usize;
    for gate in now.keys().filter(|g| !was.contains_key(*g)) {
        say!(out, "gate added: {gate} ({})", now[gate].status);
        changes += 1;
    }
    for gate in was.keys().filter(|g| !now.contains_key(*g)) {
        say!(out, "gate dropped: {gate} (was {})", was[gate].status);
        changes += 1;
    }
    for (gate, a) in &now {
        let Some(b) = was.get(gate) else { continue };
        let mut lines = Vec::new();
        if a.status != b.status {
            lines.push(format!("status moved: {} -> {}", b.status, a.status));
        }
        let old_causes: BTreeMap<_, _> = b.causes.iter().map(|c| (key(c), c)).collect();
        let new_causes: BTreeMap<_, _> = a.causes.iter().map(|c| (key(c), c)).collect();
        for (k, c) in &new_causes {
            match old_causes.get(k) {
                None => lines.push(format!(
                    "new cause: {} [{}]\n      reproduce: {}",
                    c.summary, c.area, c.reproduce
                )),
                Some(o) => {
                    let had: BTreeSet<_> = o.vectors.iter().chain(&o.explanations).collect();
                    let has: BTreeSet<_> = c.vectors.iter().chain(&c.explanations).collect();
                    let lost: Vec<&str> = had.difference(&has).map(|s| s.as_str()).collect();
                    if !lost.is_empty() {
                        lines.push(format!(
                            "narrowed cause: {} [{}]: no longer shown by {}",
                            c.summary,
                            c.area,
                            lost.join(", ")
                        ));
                    }
                }
            }
        }
        for (k, c) in &old_causes {
            if !new_causes.contains_key(k) {
                lines.push(format!("gone cause: {} [{}]", c.summary, c.area));
            }
        }
        if !lines.is_empty() {
            say!(out, "{gate} ({}):", a.name);
            for line in &lines {
                say!(out, "    {line}");
            }
            changes += lines.len();
        }
    }
    if changes == 0 {
        say!(out, "no change: the same gates, statuses and causes");
    } else {
        say!(out, "{changes} changes between {old} and {new}");
    }
    Ok(Status::of(changes == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_sort_into_areas_by_their_keys() {
        assert_eq!(
            area_of("domain", "accepts-invalid", "refused (bidi-across-labels)"),
            "bidi"
        );
        assert_eq!(
            area_of("label", "accepts-invalid", "refused (contextj)"),
            "contextj"
        );
        assert_eq!(
            area_of("label", "accepts-invalid", "refused (hyphens-3-4)"),
            "hyphens"
        );
        assert_eq!(area_of("punycode", "slow", ""), "cost");
        assert_eq!(
            area_of("punycode", "accepts-invalid", "overflow (encode_delta)"),
            "punycode"
        );
        assert_eq!(area_of("punycode", "wrong-output", "success"), "punycode");
        assert_eq!(area_of("label", "wrong-output", "success"), "other");
        assert_eq!(
            area_of("label", "accepts-invalid", "refused (a-rule-not-listed)"),
            "other"
        );
        for (_, area) in RULE_AREAS {
            assert!(AREAS.iter().any(|(name, _)| name == area), "{area}");
        }
    }

    #[test]
    fn about_is_the_opening_comment() {
        let text = "# punycheck's CI gate for npm punycode 2.3.1:\n#   punycheck check --config x\n# more\n";
        assert_eq!(about(text), "npm punycode 2.3.1");
    }
}
