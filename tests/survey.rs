//! `punycheck survey`: three gates of the three layers (CPython's punycode
//! codec, its idna codec on one label and on whole names; CPython is on
//! every machine that runs these tests) give in the survey the status their
//! checks give alone; the three files are written, survey.json follows its
//! schema, the page holds every gate's implementation and every cause's
//! reproduce line, and `--compare` names a cause one survey has and the
//! other lacks. With Chromium on the machine (`.ci/run` installs it), the
//! page is rendered headless: the same in its DOM, and a screenshot.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::common::{self, BIN};

const GATES: [&str; 3] = [
    "adapters/gates/cpython_codec.toml",
    "adapters/gates/label_cpython_idna.toml",
    "adapters/gates/domain_cpython_idna.toml",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("survey-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The survey of the three gates, run once for every test here: its
/// directory and its exit status.
fn survey() -> &'static (PathBuf, Option<i32>) {
    static SURVEY: OnceLock<(PathBuf, Option<i32>)> = OnceLock::new();
    SURVEY.get_or_init(|| {
        let out = scratch("three");
        let run = Command::new(BIN)
            .arg("survey")
            .args(GATES)
            .arg("--out")
            .arg(&out)
            .current_dir(root())
            .output()
            .unwrap();
        assert!(
            matches!(run.status.code(), Some(0 | 1)),
            "{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        (out, run.status.code())
    })
}

fn survey_json() -> serde_json::Value {
    let text = std::fs::read_to_string(survey().0.join("survey.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn each_gate_has_the_status_its_check_gives_alone() {
    let json = survey_json();
    common::assert_valid(&common::schema_validator("docs/survey.schema.json"), &json);
    for file in ["survey.md", "index.html"] {
        assert!(survey().0.join(file).is_file(), "{file} not written");
    }
    let gates = json["gates"].as_array().unwrap();
    assert_eq!(gates.len(), GATES.len());
    let mut all_expected = true;
    for (gate, file) in gates.iter().zip(GATES) {
        assert_eq!(gate["gate"], file);
        let report = scratch(&format!("alone-{}", gate["name"].as_str().unwrap())).join("r.json");
        let alone = Command::new(BIN)
            .args(["check", "--config", file, "--json"])
            .arg(&report)
            .current_dir(root())
            .output()
            .unwrap();
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        assert_eq!(gate["status"], report["status"], "{file}");
        assert_eq!(gate["exit"], alone.status.code().unwrap(), "{file}");
        assert_eq!(gate["expected"], alone.status.success(), "{file}");
        all_expected &= alone.status.success();
        // Every cause of the report is on the survey, known as it is there;
        // but for those of time (slow, hang, memory): a family near its
        // budget (a baseline's near-budget entry) may be measured a slow
        // cause, known, on one run of a busy machine and not on the other.
        let summaries = |causes: &serde_json::Value| -> Vec<(String, bool)> {
            let mut list: Vec<(String, bool)> = causes
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| !matches!(c["kind"].as_str(), Some("slow" | "hang" | "memory")))
                .map(|c| {
                    (
                        c["summary"].as_str().unwrap().to_string(),
                        c["known"].as_bool().unwrap(),
                    )
                })
                .collect();
            list.sort();
            list
        };
        assert_eq!(
            summaries(&gate["causes"]),
            summaries(&report["causes"]),
            "{file}"
        );
        // Every recorded cause not met has the line that shows it again.
        for entry in gate["still_there"].as_array().unwrap() {
            assert!(entry["reproduce"].is_string(), "{file}: {entry}");
        }
        // A gate that gives the status its baseline expects shows exactly
        // its baseline's causes, met or not: what the docs' tables are
        // written from without a run (`survey --docs`). Time's causes
        // aside, as above.
        if alone.status.success() {
            assert_eq!(keys_shown(gate), keys_recorded(file), "{file}");
        }
    }
    assert_eq!(json["status"], if all_expected { "pass" } else { "fail" });
    assert_eq!(survey().1, Some(if all_expected { 0 } else { 1 }));
}

type Key = (String, String, String, String);

/// The keys of a survey gate's causes, found or recorded and not met,
/// those of time left out.
fn keys_shown(gate: &serde_json::Value) -> std::collections::BTreeSet<Key> {
    let key = |c: &serde_json::Value| -> Key {
        let field = |k: &str| c[k].as_str().unwrap().to_string();
        (
            field("direction"),
            field("kind"),
            field("reference"),
            field("got"),
        )
    };
    gate["causes"]
        .as_array()
        .unwrap()
        .iter()
        .chain(gate["still_there"].as_array().unwrap())
        .filter(|c| !matches!(c["kind"].as_str(), Some("slow" | "hang" | "memory")))
        .map(key)
        .collect()
}

/// The keys of the causes in a gate's baseline, those of time left out.
fn keys_recorded(gate: &str) -> std::collections::BTreeSet<Key> {
    let table: toml::Table = std::fs::read_to_string(root().join(gate))
        .unwrap()
        .parse()
        .unwrap();
    let baseline = table["check"]["baseline"].as_str().unwrap();
    let baseline: toml::Table = std::fs::read_to_string(root().join(baseline))
        .unwrap()
        .parse()
        .unwrap();
    let field = |c: &toml::Value, k: &str| c[k].as_str().unwrap().to_string();
    baseline
        .get("cause")
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
        .filter(|c| !matches!(c["kind"].as_str(), Some("slow" | "hang" | "memory")))
        .map(|c| {
            (
                field(c, "direction"),
                field(c, "kind"),
                field(c, "reference"),
                field(c, "got"),
            )
        })
        .collect()
}

/// The docs' tables of real implementations (docs/findings.md) are what
/// `survey --docs` writes from the gates' files and baselines, run without
/// a gate: a gate added, a cause recorded or a note changed without
/// writing them again fails here.
#[test]
fn the_docs_tables_are_what_the_gates_record() {
    let run = Command::new(BIN)
        .args(["survey", "--docs", "docs/findings.md", "--check"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let findings = std::fs::read_to_string(root().join("docs/findings.md")).unwrap();
    for name in ["punycode", "label", "domain", "cost"] {
        assert!(
            findings.contains(&format!("<!-- survey:begin {name} -->")),
            "docs/findings.md lacks the {name} table"
        );
    }
    // Every gate is in its codec's table, by its baseline's link.
    for entry in std::fs::read_dir(root().join("adapters/gates")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".baseline.toml") {
            assert!(
                findings.contains(&format!("(../adapters/gates/{name})")),
                "docs/findings.md's tables lack {name}"
            );
        }
    }
}

/// A table that drifted is found by `--check` (exit 1) and written again
/// without it; a marker that names no table is a setup error.
#[test]
fn survey_docs_rewrites_a_drifted_table() {
    let dir = scratch("docs");
    let file = dir.join("findings.md");
    let stale =
        "# t\n<!-- survey:begin punycode -->\n| stale |\n<!-- survey:end punycode -->\nkept\n";
    std::fs::write(&file, stale).unwrap();
    let docs = |extra: &[&str]| {
        Command::new(BIN)
            .args(["survey", GATES[0], "--docs"])
            .arg(&file)
            .args(extra)
            .current_dir(root())
            .output()
            .unwrap()
    };
    let check = docs(&["--check"]);
    let said = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{said}");
    assert!(said.contains("differ"), "{said}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), stale);
    assert_eq!(docs(&[]).status.code(), Some(0));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(!written.contains("| stale |") && written.ends_with("punycode -->\nkept\n"));
    assert!(written.contains("cpython_codec.baseline.toml"), "{written}");
    assert_eq!(docs(&["--check"]).status.code(), Some(0));
    std::fs::write(
        &file,
        "<!-- survey:begin nothing -->\n<!-- survey:end nothing -->\n",
    )
    .unwrap();
    assert_eq!(docs(&[]).status.code(), Some(2));
}

/// Every gate's implementation and every cause's reproduce line, as the
/// page's text holds them (HTML-escaped or as the DOM renders them).
fn must_show(json: &serde_json::Value) -> Vec<String> {
    let mut wanted = Vec::new();
    for gate in json["gates"].as_array().unwrap() {
        wanted.push(gate["implementation"].as_str().unwrap().to_string());
        let recorded = gate["still_there"].as_array().unwrap();
        for cause in gate["causes"].as_array().unwrap().iter().chain(recorded) {
            wanted.push(cause["reproduce"].as_str().unwrap().to_string());
            if let Some(note) = cause["note"].as_str() {
                wanted.push(note.to_string());
            }
        }
    }
    wanted
}

fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[test]
fn the_page_shows_every_cause_and_fetches_nothing() {
    let json = survey_json();
    let page = std::fs::read_to_string(survey().0.join("index.html")).unwrap();
    let md = std::fs::read_to_string(survey().0.join("survey.md")).unwrap();
    for text in must_show(&json) {
        assert!(page.contains(&escaped(&text)), "index.html lacks {text}");
    }
    for gate in json["gates"].as_array().unwrap() {
        let recorded = gate["still_there"].as_array().unwrap();
        for cause in gate["causes"].as_array().unwrap().iter().chain(recorded) {
            let line = cause["reproduce"].as_str().unwrap();
            assert!(md.contains(line), "survey.md lacks {line}");
        }
    }
    // Causes that one note explains are one item, the note once.
    for gate in json["gates"].as_array().unwrap() {
        let mut notes: std::collections::BTreeMap<&str, usize> = Default::default();
        for cause in gate["causes"].as_array().unwrap() {
            if let Some(note) = cause["note"].as_str() {
                *notes.entry(note).or_default() += 1;
            }
        }
        for (note, n) in notes.into_iter().filter(|(_, n)| *n > 1) {
            assert!(
                page.contains(&format!("one root, {n} causes, in ")),
                "{}: {n} causes share a note, not shown as one",
                gate["name"]
            );
            assert!(page.matches(&escaped(note)).count() < n, "{note}: not once");
        }
    }
    for remote in ["<script", "src=\"http", "href=\"http", "@import", "url("] {
        assert!(!page.contains(remote), "index.html holds {remote}");
    }
}

#[test]
fn compare_names_a_cause_one_survey_has_and_the_other_lacks() {
    let dir = scratch("compare");
    let mut json = survey_json();
    let new = dir.join("new.json");
    std::fs::write(&new, json.to_string()).unwrap();
    let same = Command::new(BIN)
        .args(["survey", "--compare"])
        .args([&new, &new])
        .output()
        .unwrap();
    assert_eq!(
        same.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&same.stdout)
    );
    // The older survey lacked the first cause of the first gate.
    let removed = json["gates"][0]["causes"].as_array_mut().unwrap().remove(0);
    let old = dir.join("old.json");
    std::fs::write(&old, json.to_string()).unwrap();
    let changed = Command::new(BIN)
        .args(["survey", "--compare"])
        .args([&old, &new])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&changed.stdout);
    assert_eq!(changed.status.code(), Some(1), "{text}");
    let summary = removed["summary"].as_str().unwrap();
    assert!(text.contains(&format!("new cause: {summary}")), "{text}");
    let backwards = Command::new(BIN)
        .args(["survey", "--compare"])
        .args([&new, &old])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&backwards.stdout);
    assert!(text.contains(&format!("gone cause: {summary}")), "{text}");
}

#[test]
fn bad_input_is_a_setup_error() {
    let dir = scratch("bad");
    let not_json = dir.join("not.json");
    std::fs::write(&not_json, "{").unwrap();
    let missing = dir.join("missing.toml");
    let blocked = dir.join("a-file");
    std::fs::write(&blocked, "").unwrap();
    let cases: Vec<Vec<std::ffi::OsString>> = vec![
        vec![
            "survey".into(),
            "--compare".into(),
            not_json.clone().into(),
            not_json.into(),
        ],
        vec![
            "survey".into(),
            missing.into(),
            "--out".into(),
            dir.join("o").into(),
        ],
        vec![
            "survey".into(),
            GATES[0].into(),
            "--out".into(),
            blocked.join("under-a-file").into(),
        ],
        vec!["survey".into()],
    ];
    for args in cases {
        let run = Command::new(BIN)
            .args(&args)
            .current_dir(root())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.trim().is_empty(), "{args:?}: no message");
    }
}

/// Headless Chromium, if the machine has it: `.ci/run` installs Debian's
/// `chromium`.
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|name| {
        Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

#[test]
fn the_page_renders_in_headless_chromium() {
    let Some(browser) = chromium() else {
        common::skip(
            "the survey page in headless Chromium",
            "chromium is not installed",
            "apt-get install chromium",
        );
        return;
    };
    let page = survey().0.join("index.html");
    let url = format!("file://{}", page.display());
    let profile = scratch("chromium-profile");
    let headless = |extra: &[&str]| {
        Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(extra)
            .arg(&url)
            .output()
            .unwrap()
    };
    let dom = headless(&["--dump-dom"]);
    let dom_text = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.status.success(),
        "{}",
        String::from_utf8_lossy(&dom.stderr)
    );
    for text in must_show(&survey_json()) {
        // The DOM is serialized with only &, < and > escaped in text.
        let serialized = text
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(dom_text.contains(&serialized), "the DOM lacks {text}");
    }
    // The matrix fits a 1,400-pixel window and a phone's: measured in the
    // page as laid out, by a script added to a copy of it (the page itself
    // holds none).
    let measured = profile.join("fits.html");
    let page_text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(
        &measured,
        page_text.replace(
            "</body>",
            "<script>var w=document.querySelector('.wrap');\
             document.body.setAttribute('data-fits',String(w.scrollWidth<=w.clientWidth));\
             </script></body>",
        ),
    )
    .unwrap();
    for size in ["1400,1000", "390,900"] {
        let dom = Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--window-size={size}"))
            .arg("--dump-dom")
            .arg(format!("file://{}", measured.display()))
            .output()
            .unwrap();
        let dom = String::from_utf8_lossy(&dom.stdout);
        assert!(
            dom.contains("data-fits=\"true\""),
            "the matrix is wider than a window of {size}"
        );
    }
    for (name, size) in [("desktop", "1280,2400"), ("phone", "390,2400")] {
        let shot = survey().0.join(format!("survey-{name}.png"));
        let run = headless(&[
            &format!("--screenshot={}", shot.display()),
            &format!("--window-size={size}"),
        ]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let png = std::fs::read(&shot).unwrap();
        assert!(
            png.starts_with(b"\x89PNG") && png.len() > 10_000,
            "{name}: no screenshot"
        );
    }
}
