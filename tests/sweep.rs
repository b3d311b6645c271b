//! The sweep of every code point (`check --sweep`): a table error on one
//! code point, planted in front of a correct implementation
//! (`tests/impls/planted_label.py --bug table-A7F1`, whose base is
//! punycheck's reference behind `punycheck serve`), is found as a range of
//! that one code point, with reproducers that exit 1; the implementation
//! without a plant sweeps clean; a baseline records the ranges, and a new
//! code point beside them fails the gate. Each sweep here asks a span of
//! 256 code points (`--sweep-range`), a few thousand questions; the whole
//! span is the same code, only longer (docs/checking.md gives its time).

use crate::common;

use common::{BIN, assert_every_reproducer_exits_1, punycheck, python};

const PLANTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/planted_label.py");

/// The span every sweep here asks: Latin Extended-D, where U+A7F1 is.
const SPAN: &str = "U+A700..U+A7FF";

/// Sweeps the planted label implementation with `bug` over [`SPAN`], with
/// `extra` arguments: the exit status and the report (standard output,
/// then standard error).
fn sweep(bug: &str, extra: &[&str]) -> (Option<i32>, String) {
    sweep_span(bug, SPAN, extra)
}

/// [`sweep`] over `span`.
fn sweep_span(bug: &str, span: &str, extra: &[&str]) -> (Option<i32>, String) {
    let spec = format!("pipe:{} {PLANTED} {BIN} --bug {bug}", python());
    let mut args = vec![
        "check",
        "--codec",
        "label",
        "--impl",
        &spec,
        "--sweep",
        "--sweep-range",
        span,
        "--seconds",
        "600",
    ];
    args.extend(extra);
    let out = punycheck(&args);
    let report =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), report)
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("punycheck-sweep-{}-{name}", std::process::id()))
}

#[test]
fn the_implementation_without_a_plant_sweeps_clean() {
    let (status, report) = sweep("none", &[]);
    assert_eq!(status, Some(0), "{report}");
    assert!(
        report.contains("sweep of every code point in U+A700..U+A7FF: 256 code points asked"),
        "{report}"
    );
    assert!(report.contains(", 0 nonconforming"), "{report}");
}

#[test]
fn a_table_error_on_one_code_point_is_a_range_of_one_with_reproducers() {
    let json = temp("planted.json");
    let (status, report) = sweep("table-A7F1", &["--json", json.to_str().unwrap()]);
    assert_eq!(status, Some(1), "{report}");
    // Every cause is the one code point, as one range, whatever the
    // context and direction that showed it.
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let _ = std::fs::remove_file(&json);
    common::assert_valid(&common::schema_validator("docs/report.schema.json"), &value);
    let causes = value["causes"].as_array().unwrap();
    assert!(!causes.is_empty(), "{report}");
    for cause in causes {
        assert_eq!(
            cause["swept"]["ranges"],
            serde_json::json!(["U+A7F1"]),
            "{report}"
        );
        assert_eq!(cause["swept"]["code_points"], 1, "{report}");
    }
    assert_eq!(value["sweep"]["span"], SPAN);
    assert!(
        report.contains("code points (1 in 1 range): U+A7F1"),
        "{report}"
    );
    // Both ways: ToASCII encodes it as it stands, and ToUnicode takes an
    // A-label that holds it.
    let directions: Vec<&str> = causes
        .iter()
        .map(|c| c["direction"].as_str().unwrap())
        .collect();
    assert!(
        directions.contains(&"encode") && directions.contains(&"decode"),
        "{report}"
    );
    let reproduced = assert_every_reproducer_exits_1("table-A7F1", &report);
    assert_eq!(reproduced, causes.len(), "{report}");
}

#[test]
fn a_baseline_records_the_ranges_and_a_new_code_point_beside_them_fails() {
    let baseline = temp("baseline.toml");
    let path = baseline.to_str().unwrap();
    let (status, report) = sweep("table-A7F1", &["--write-baseline", path]);
    assert_eq!(status, Some(1), "recording reports what it found: {report}");
    let recorded = std::fs::read_to_string(&baseline).unwrap();
    assert!(
        recorded.contains("code_points = [\"U+A7F1\"]"),
        "{recorded}"
    );
    // The same table error passes on its baseline.
    let (status, report) = sweep("table-A7F1", &["--baseline", path]);
    assert_eq!(status, Some(0), "{report}");
    assert!(report.contains("PASSES ON ITS BASELINE"), "{report}");
    // One more code point with the same error is new, beside the known
    // range, and its reproducer asks that code point.
    let (status, report) = sweep("table-A7F1,A7F5", &["--baseline", path]);
    let _ = std::fs::remove_file(&baseline);
    assert_eq!(status, Some(1), "{report}");
    assert!(
        report.contains(
            "NEW: new code points beside a known cause of the sweep (recorded on U+A7F1): U+A7F5"
        ),
        "{report}"
    );
    assert!(report.contains("u+A7F5"), "{report}");
}

#[test]
fn a_sweep_asked_wrongly_is_a_usage_error_that_says_why() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["check", "--impl", "cleanroom", "--sweep"],
            "--sweep asks every code point of the label and domain codecs",
        ),
        (
            &[
                "check",
                "--codec",
                "label",
                "--impl",
                "label-ref",
                "--sweep",
                "--sweep-range",
                "U+0042..U+0041",
            ],
            "ends before it begins",
        ),
        (
            &[
                "check",
                "--codec",
                "label",
                "--impl",
                "label-ref",
                "--sweep-range",
                "U+0041",
            ],
            "--sweep-range needs --sweep",
        ),
    ];
    for (args, said) in cases {
        let out = punycheck(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_program_that_dies_or_hangs_on_a_code_point_ends_with_a_verdict() {
    // Dies on U+A7F1: a crash cause on that code point, the rest asked.
    let (status, report) = sweep_span("die-A7F1", "U+A7F0..U+A7F2", &[]);
    assert_eq!(status, Some(1), "{report}");
    assert!(report.contains(": crash (implementation: "), "{report}");
    assert!(
        report.contains("code points (1 in 1 range): U+A7F1"),
        "{report}"
    );
    assert!(!report.contains("panicked"), "{report}");
    // Hangs on U+A7F1: a hang cause, and after three hangs the sweep stops
    // asking and says so (the next block of 256 code points is not asked),
    // rather than wait out every question.
    let (status, report) = sweep_span(
        "hang-A7F1",
        "U+A7F0..U+A9EF",
        &["--timeout", "0.5", "--jobs", "1"],
    );
    assert_eq!(status, Some(1), "{report}");
    assert!(report.contains(": hang (implementation: "), "{report}");
    assert!(report.contains("stopped asking"), "{report}");
    assert!(!report.contains("panicked"), "{report}");
}

#[test]
fn a_sweep_cut_by_its_seconds_is_incomplete_and_says_from_where() {
    // Every code point of the reference against itself is 13 million
    // questions: far more than one second holds on any machine.
    let out = punycheck(&[
        "check",
        "--codec",
        "label",
        "--impl",
        "label-ref",
        "--sweep",
        "--seconds",
        "1",
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{report}");
    assert!(
        report.contains("were not asked in full within --seconds, from U+"),
        "{report}"
    );
}
