//! Entry points of one implementation asked the same question (issue 31,
//! item 8): a check with `--entry-point` (or `entry-points` in
//! `punycheck.toml`) reports where another entry point answers otherwise
//! than `--impl`, as causes of the kind `entry-points` that name it, each
//! with a reproducer that exits 1; entry points that agree are not
//! reported.
//!
//! The implementation is `tests/impls/planted_domain.py` (its base is
//! punycheck's whole-name reference): `--bug none` is the entry point
//! judged, `--bug ascii-fast-path` (bun#41464: a name of ASCII only
//! answered as it is) the other one.

use crate::common;

use common::{BIN, assert_every_reproducer_exits_1, assert_valid, punycheck, python};

const PLANTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/planted_domain.py");

/// A folder of this test's own, made afresh.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "punycheck-entry-points-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The planted implementation with `bug`, as a `pipe:` spec.
fn spec(bug: &str) -> String {
    format!("pipe:{} {PLANTED} {BIN} --bug {bug}", python())
}

/// A check of the domain codec with `extra` arguments: 1,500 questions,
/// with a 120 s ceiling that only a stuck run meets. The exit status and
/// the report (standard output, then standard error).
fn check(extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec![
        "check",
        "--codec",
        "domain",
        "--seed",
        "1",
        "--cases",
        "1500",
        "--seconds",
        "120",
        "--no-cost",
    ];
    args.extend(extra);
    let out = punycheck(&args);
    let report =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), report)
}

/// The cause lines of a text report (`  1. encode: ...`).
fn cause_lines(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            t.starts_with(|c: char| c.is_ascii_digit()) && t.contains(". ") && t.contains(": ")
        })
        .collect()
}

#[test]
fn entry_points_that_agree_are_not_reported() {
    let (main, twin) = (spec("none"), spec("none"));
    let (status, report) = check(&["--impl", &main, "--entry-point", &twin]);
    assert_eq!(status, Some(0), "{report}");
    assert!(
        report.contains("entry points beside it (asked every question, to answer as it does)"),
        "{report}"
    );
    assert!(report.contains("entry points agree"), "{report}");
}

#[test]
fn an_entry_point_with_a_fast_path_is_reported_by_what_it_breaks_and_reproduces() {
    let (main, fast) = (spec("none"), spec("ascii-fast-path"));
    let dir = scratch("fast-path");
    let json = dir.join("report.json");
    let sarif = dir.join("report.sarif");
    let (status, report) = check(&[
        "--impl",
        &main,
        "--entry-point",
        &fast,
        "--json",
        json.to_str().unwrap(),
        "--sarif",
        sarif.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(1), "{report}");
    let causes = cause_lines(&report);
    assert!(!causes.is_empty(), "{report}");
    // Every cause is the fast path's, told apart by the reference's rule:
    // the implementation judged conforms.
    let named = format!("implementation: entry point {fast} accepts what --impl refuses");
    for cause in &causes {
        assert!(
            cause.contains("entry points answered differently") && cause.contains(&named),
            "not the plant's: {cause}\n{report}"
        );
    }
    assert!(
        causes.iter().any(|c| c.contains("refused (not-ldh)"))
            && causes.iter().any(|c| c.contains("refused (hyphen-at-end)")),
        "{causes:#?}"
    );
    assert_eq!(
        assert_every_reproducer_exits_1("fast path", &report),
        causes.len()
    );
    // The JSON report names the entry points, and each cause's.
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_valid(&common::schema_validator("docs/report.schema.json"), &value);
    assert_eq!(value["entry_points"], serde_json::json!([fast]));
    for cause in value["causes"].as_array().unwrap() {
        assert_eq!(cause["kind"], "entry-points", "{cause}");
        assert_eq!(cause["entry_point"], fast.as_str(), "{cause}");
        assert!(
            cause["reproduce"]
                .as_str()
                .unwrap()
                .contains("--entry-point"),
            "{cause}"
        );
    }
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), causes.len());
    assert!(results.iter().all(|r| r["ruleId"] == "entry-points"));
}

/// `entry-points` under `[implementation]` in `punycheck.toml` is the
/// command line's `--entry-point`, and a baseline recorded with it
/// passes the gate while the entry points differ as they did.
#[test]
fn entry_points_in_the_configuration_file_and_their_baseline() {
    let dir = scratch("config");
    let config = dir.join("punycheck.toml");
    let baseline = dir.join("baseline.toml");
    std::fs::write(
        &config,
        format!(
            "[implementation]\nspec = {:?}\nentry-points = [{:?}]\n\n[check]\ncodec = \"domain\"\n",
            spec("none"),
            spec("ascii-fast-path")
        ),
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let baseline = baseline.to_str().unwrap();
    let (status, report) = check(&["--config", config, "--write-baseline", baseline]);
    assert_eq!(status, Some(1), "{report}");
    assert!(!cause_lines(&report).is_empty(), "{report}");
    let recorded = std::fs::read_to_string(baseline).unwrap();
    assert!(recorded.contains("kind = \"entry-points\""), "{recorded}");
    let (status, report) = check(&["--config", config, "--baseline", baseline]);
    assert_eq!(status, Some(0), "{report}");
    assert!(report.contains("PASSES ON ITS BASELINE"), "{report}");
}

/// An entry point that cannot be started is a setup error that names it.
#[test]
fn an_entry_point_that_cannot_start_is_a_setup_error_naming_it() {
    let main = spec("none");
    let (status, report) = check(&[
        "--impl",
        &main,
        "--entry-point",
        "exec:/nonexistent/punycheck-entry",
    ]);
    assert_eq!(status, Some(2), "{report}");
    assert!(
        report.contains("entry point \"exec:/nonexistent/punycheck-entry\""),
        "{report}"
    );
}
