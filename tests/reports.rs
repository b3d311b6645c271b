//! The reports of one fixed run (text, JSON, JUnit and SARIF), as snapshots (insta): Rust's
//! `std` UTF-8 declared with `--domain u31` under `--codec utf8`, which it
//! does not have (it holds RFC 3629, up to U+10FFFF), so that every part of
//! a report is there: a cause with its reproducer, vectors, generated
//! questions, properties, a listed deviation and what was not asked; its
//! 99 vectors keep the JSON and JUnit files readable. And the text report
//! of a Punycode run with six causes: the `idna` crate declared with
//! `--errors kinds`, which it does not have. Each run is fixed by its seed
//! and `--cases`, asks in-process, and times nothing (`--no-cost`); only
//! the clock's figures are filtered out. A change of any report shows here as a diff to review
//! (`cargo insta review`, or `INSTA_UPDATE=always cargo test --test
//! reports`).

use crate::common;

use std::process::Output;

use common::punycheck;

/// The UTF-8 run's implementation, as declared.
const UTF8_STD: [&str; 6] = ["--codec", "utf8", "--impl", "std", "--domain", "u31"];

/// The Punycode run's implementation, as declared.
const PUNYCODE_IDNA: [&str; 4] = ["--impl", "idna", "--errors", "kinds"];

/// A fixed check of `implementation`, with `extra` arguments.
fn fixed_run(implementation: &[&str], extra: &[&str]) -> Output {
    let mut args = vec!["check"];
    args.extend(implementation);
    args.extend(["--seed", "1", "--cases", "100", "--no-cost"]);
    args.extend(extra);
    punycheck(&args)
}

/// The clock's figures (durations, timestamps, the host), which no two
/// runs share.
fn without_clock(run: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    for (pattern, replacement) in [
        (r"\d+\.\d s of (\d+\.\d) s", "[SECONDS] s of $1 s"),
        (r#""started": "[^"]*""#, r#""started": "[TIMESTAMP]""#),
        (r#""seconds": [0-9.e-]+"#, r#""seconds": [SECONDS]"#),
        (r#"timestamp="[^"]*""#, r#"timestamp="[TIMESTAMP]""#),
        (r#" time="[^"]*""#, r#" time="[SECONDS]""#),
        (r#"hostname="[^"]*""#, r#"hostname="[HOST]""#),
    ] {
        settings.add_filter(pattern, replacement);
    }
    settings.bind(run);
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("reports are UTF-8")
}

#[test]
fn the_text_report_of_a_fixed_run() {
    let out = fixed_run(&UTF8_STD, &[]);
    assert_eq!(out.status.code(), Some(1));
    without_clock(|| insta::assert_snapshot!(stdout(&out)));
}

#[test]
fn the_text_report_of_a_punycode_run() {
    let out = fixed_run(&PUNYCODE_IDNA, &[]);
    assert_eq!(out.status.code(), Some(1));
    without_clock(|| insta::assert_snapshot!(stdout(&out)));
}

#[test]
fn the_json_report_of_a_fixed_run() {
    let out = fixed_run(&UTF8_STD, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    without_clock(|| insta::assert_snapshot!(stdout(&out)));
}

#[test]
fn the_junit_report_of_a_fixed_run() {
    let out = fixed_run(&UTF8_STD, &["--format", "junit"]);
    assert_eq!(out.status.code(), Some(1));
    without_clock(|| insta::assert_snapshot!(stdout(&out)));
}

#[test]
fn the_sarif_report_of_a_fixed_run() {
    let out = fixed_run(&UTF8_STD, &["--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    without_clock(|| insta::assert_snapshot!(stdout(&out)));
}

/// A gate that passes because every cause it finds is in its baseline
/// says so, and does not call the implementation conforming.
#[test]
fn a_pass_on_the_baseline_is_not_called_conforming() {
    let dir = std::env::temp_dir().join(format!("punycheck-reports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let baseline = dir.join("baseline.toml");
    let baseline = baseline.to_str().unwrap();
    let recorded = fixed_run(&PUNYCODE_IDNA, &["--write-baseline", baseline]);
    assert_eq!(recorded.status.code(), Some(1));
    let out = fixed_run(&PUNYCODE_IDNA, &["--baseline", baseline]);
    let report = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{report}");
    let verdict = common::verdict(&report);
    assert_eq!(
        verdict,
        "PASSES ON ITS BASELINE: 6 known causes (recorded in the baseline, still there) and \
         nothing new; without the baseline it does not conform"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A JUnit file stays small: every vector is a test case, but its question
/// and expected answer are excerpts (a failure's reproducer asks it whole),
/// so no case is longer than a couple of kilobytes and the whole file of a
/// check of every Punycode vector is well under 300 KB.
#[test]
fn a_junit_file_stays_small() {
    let out = fixed_run(&["--impl", "cleanroom"], &["--format", "junit"]);
    let xml = stdout(&out);
    assert!(xml.len() < 300_000, "{} bytes", xml.len());
    let mut longest = 0;
    for case in xml.split("<testcase").skip(1) {
        let end = case.find("</testcase>").unwrap_or(case.len());
        longest = longest.max(end);
    }
    assert!(longest < 2_000, "a test case of {longest} bytes");
    assert!(xml.matches("<testcase").count() > 400, "{xml}");
}

/// `--timings` says where the check's time went, on standard error (the
/// report on standard output is unchanged), and the JSON report lists the
/// same phases in the same order, each part after the phase it is part
/// of. No figure is judged: they are the clock's.
#[test]
fn timings_name_every_phase() {
    let out = fixed_run(&UTF8_STD, &["--timings", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("a JSON report");
    let phases: Vec<(&str, Option<&str>)> = report["timings"]
        .as_array()
        .expect("timings")
        .iter()
        .map(|t| (t["phase"].as_str().unwrap(), t["part_of"].as_str()))
        .collect();
    let generated = Some("generated");
    assert_eq!(
        phases,
        [
            ("vectors", None),
            ("cost", None),
            ("generated", None),
            ("generating", generated),
            ("reference", generated),
            ("implementation", generated),
            ("properties", generated),
            ("causes", None),
            ("baseline", None),
        ]
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .find(|l| l.starts_with("timings: "))
        .unwrap_or_else(|| panic!("no timings line: {stderr}"));
    for (phase, _) in &phases {
        assert!(line.contains(&format!("{phase} ")), "{phase}: {line}");
    }
    assert!(line.contains("generated questions a second"), "{line}");
    let without = fixed_run(&UTF8_STD, &[]);
    assert!(!String::from_utf8_lossy(&without.stderr).contains("timings: "));
}
