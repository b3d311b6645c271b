//! `check --sarif FILE` and `--format sarif`: the SARIF 2.1.0 report
//! validates against the standard's schema (`tests/schemas/`), holds one
//! result per cause (the rule its kind, the level by severity, the message
//! with the reproducer), marks baseline causes as known and suppressed,
//! fails a recorded cause that no longer reproduces, and says so when a
//! check could not start.

use crate::common;

use std::path::PathBuf;

use common::punycheck;
use serde_json::Value;

/// The SARIF 2.1.0 schema, as the standard publishes it.
fn validator() -> jsonschema::Validator {
    common::schema_validator("tests/schemas/sarif-schema-2.1.0.json")
}

fn assert_valid(value: &Value) {
    common::assert_valid(&validator(), value);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punycheck-sarif-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The fixed run of `tests/reports.rs`: the idna crate declared with
/// `--errors kinds`, six causes of kind `wrong-error-kind`.
const IDNA_KINDS: [&str; 9] = [
    "--impl",
    "idna",
    "--errors",
    "kinds",
    "--seed",
    "1",
    "--cases",
    "100",
    "--no-cost",
];

fn check(extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec!["check"];
    args.extend(IDNA_KINDS);
    args.extend(extra);
    let out = punycheck(&args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn one_valid_result_per_cause_with_its_reproducer() {
    let dir = temp_dir("causes");
    let file = dir.join("report.sarif");
    let (code, text) = check(&["--sarif", file.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_valid(&sarif);
    // The same document on standard output with --format sarif.
    let (code, stdout) = check(&["--format", "sarif"]);
    assert_eq!(code, Some(1));
    let printed: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(printed["runs"][0]["results"], sarif["runs"][0]["results"]);

    let run = &sarif["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "punycheck");
    let results = run["results"].as_array().unwrap();
    let causes = text.matches("\n     reproduce: ").count();
    assert_eq!(results.len(), 6, "{text}");
    assert_eq!(results.len(), causes, "{text}");
    for result in results {
        assert_eq!(result["ruleId"], "wrong-error-kind");
        assert_eq!(result["level"], "note");
        assert_eq!(result["baselineState"], "new");
        let message = result["message"]["text"].as_str().unwrap();
        let repro = result["properties"]["reproduce"].as_str().unwrap();
        assert!(
            repro.starts_with("punycheck repro --impl idna --errors kinds "),
            "{repro}"
        );
        assert!(
            message.contains(&format!("reproduce: {repro}")),
            "{message}"
        );
        // Each reproducer is one of the text report's.
        assert!(text.contains(&format!("reproduce: {repro}\n")), "{repro}");
    }
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0]["id"], "wrong-error-kind");
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    assert_eq!(run["invocations"][0]["exitCode"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn baseline_causes_are_known_and_a_gone_one_fails() {
    let dir = temp_dir("baseline");
    let baseline = dir.join("baseline.toml");
    let baseline = baseline.to_str().unwrap();
    let file = dir.join("report.sarif");
    let file = file.to_str().unwrap();
    let (code, _) = check(&["--write-baseline", baseline]);
    assert_eq!(code, Some(1));
    let (code, text) = check(&["--baseline", baseline, "--sarif", file]);
    assert_eq!(code, Some(0), "{text}");
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert_valid(&sarif);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    for result in results {
        assert_eq!(result["baselineState"], "unchanged");
        assert_eq!(result["suppressions"][0]["status"], "accepted");
    }
    // The idna crate, checked again as the fix of one cause would leave
    // it: declared failure-only, none of the six reproduces.
    let out = punycheck(&[
        "check",
        "--impl",
        "idna",
        "--seed",
        "1",
        "--cases",
        "100",
        "--no-cost",
        "--baseline",
        baseline,
        "--sarif",
        file,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert_valid(&sarif);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    for result in results {
        assert_eq!(result["ruleId"], "baseline-gone");
        assert_eq!(result["level"], "error");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_check_that_cannot_start_says_why() {
    let dir = temp_dir("setup");
    let file = dir.join("report.sarif");
    let out = punycheck(&[
        "check",
        "--impl",
        "exec:/nonexistent/program",
        "--sarif",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_valid(&sarif);
    let invocation = &sarif["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], false);
    assert_eq!(invocation["exitCode"], 2);
    let why = invocation["toolExecutionNotifications"][0]["message"]["text"]
        .as_str()
        .unwrap();
    assert!(why.contains("/nonexistent/program"), "{why}");
    assert_eq!(sarif["runs"][0]["results"], Value::Array(vec![]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An invalid document is refused by the validator: the test above can
/// fail.
#[test]
fn the_schema_refuses_a_bad_document() {
    let bad: Value = serde_json::json!({"version": "2.1.0", "runs": [{"results": []}]});
    assert!(validator().iter_errors(&bad).next().is_some());
}
