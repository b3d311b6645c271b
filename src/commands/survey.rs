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
//! What a survey holds, and a gate as its files give it, is
//! [`super::survey_model`]; the page and `survey.md` are
//! [`super::survey_page`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

use serde_json::Value;

use super::survey_model::{
    AREAS, Area, ByRule, CostSeries, GATES_DIR, Gate, Recorded, Survey, SurveyCause, VERSION,
    area_of, class_area, default_gates, finish, gate_of_file,
};
use super::{Outcome, Output, Status, Stop, survey_page};
use punycheck::engines::process;
use punycheck::harness::baseline::Baseline;

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
                        super::survey_model::shown_status(&gate),
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

/// The baseline's entry for a cause: one of its key whose witnesses hold
/// one of the cause's (`explanations`), or else the first of its key (a
/// key recorded before witnesses were, or one split by them into several
/// entries, each with a note of its own: Node's URL host refuses controls,
/// spaces and punctuation under one key, each noted apart).
fn entry_of<'a>(
    baseline: Option<&'a Baseline>,
    (direction, kind, reference, got): (&str, &str, &str, &str),
    explanations: &[String],
) -> Option<&'a punycheck::harness::baseline::Entry> {
    let same_key = |e: &&punycheck::harness::baseline::Entry| {
        e.direction == direction
            && serde_json::to_value(e.kind)
                .ok()
                .as_ref()
                .and_then(Value::as_str)
                == Some(kind)
            && e.reference == reference
            && e.got == got
    };
    let entries: Vec<_> = baseline?.cause.iter().filter(same_key).collect();
    entries
        .iter()
        .find(|e| {
            let recorded = e.explained.as_deref().unwrap_or_default();
            explanations
                .iter()
                .any(|w| punycheck::harness::witness::covers(recorded, w))
        })
        .or(entries.first())
        .copied()
}

/// The note of a baseline entry, where it has one.
fn note_of(entry: Option<&punycheck::harness::baseline::Entry>) -> Option<String> {
    entry.map(|e| e.note.clone()).filter(|n| !n.is_empty())
}

/// A string field of a JSON object, empty when absent.
fn text(value: &Value, key: &str) -> String {
    value
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
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
        let explanations = strings("explanations");
        let entry = entry_of(
            baseline.as_ref(),
            (&direction, &kind, &reference, &got),
            &explanations,
        );
        gate.causes.push(SurveyCause {
            area: area_of(&codec, &kind, &reference, &explanations).into(),
            known: cause["known"].as_bool().unwrap_or(false),
            summary: text(cause, "summary"),
            detail: text(cause, "detail"),
            explanations,
            vectors: strings("vectors"),
            reproduce: text(cause, "reproduce"),
            by_rule: cause["by_rule"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| ByRule {
                    rule: text(r, "rule"),
                    reproduce: text(r, "reproduce"),
                })
                .collect(),
            note: note_of(entry),
            direction,
            kind,
            reference,
            got,
        });
    }
    let recorded = |entry: &Value| {
        let (direction, kind) = (text(entry, "direction"), text(entry, "kind"));
        let (reference, got) = (text(entry, "reference"), text(entry, "got"));
        let recorded = entry_of(
            baseline.as_ref(),
            (&direction, &kind, &reference, &got),
            &[],
        );
        let explained = recorded
            .and_then(|e| e.explained.clone())
            .unwrap_or_default();
        Recorded {
            area: area_of(&codec, &kind, &reference, &explained).into(),
            passing: entry["passing"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(String::from))
                .collect(),
            reproduce: entry["reproduce"].as_str().map(String::from),
            note: note_of(recorded),
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
