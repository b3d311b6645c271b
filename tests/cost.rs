//! The cost probe of `check` (`src/harness/cost.rs`): planted slow
//! implementations are reported with a `slow` cause whose reproducer
//! exits 1, a limited one and a bounded probe are not, and the baseline
//! records a slow cause like any other.
//!
//! Nothing here depends on the machine's speed: the planted costs of
//! `tests/impls/pyny.py --cost` are sleeps of 10 s and more from 1,024
//! units on (ten times the 1 s budget), and none below; every answer over
//! the budget is cut at twice it.

mod common;

use std::process::Command;

use common::{BIN, python, run_first_reproducer};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// pyny behind `pipe:` with a planted cost.
fn planted(cost: &str) -> String {
    let pyny = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/pyny.py");
    format!("pipe:{} {pyny} --pipe --cost {cost}", python())
}

fn check(spec: &str, extra: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .args(["check", "--impl", spec, "--cases", "20", "--seed", "1"])
        .args(["--seconds", "600"])
        .args(extra)
        .output()
        .unwrap();
    (out.status.code(), text(&out.stdout) + &text(&out.stderr))
}

/// A quadratic and a cubic cost are each one slow cause per direction,
/// named with the family and size, and the reproducer exits 1.
#[test]
fn a_planted_cost_is_a_slow_cause_that_reproduces() {
    for cost in ["quadratic", "cubic"] {
        let (status, report) = check(&planted(cost), &[]);
        assert_eq!(status, Some(1), "{cost}: {report}");
        for direction in ["encode", "decode"] {
            let slow = format!(
                ". {direction}: slow (implementation: answers slower than the cost budget)"
            );
            assert_eq!(report.matches(&slow).count(), 1, "{cost}: {report}");
        }
        // Found at 1,024 code points, where the planted cost starts (or
        // sooner only if pyny's own pure-Python work is over the budget on
        // a loaded machine: never later).
        let size: usize = report
            .split("of the distinct-ascending family (")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{cost}: no encode size in {report}"));
        assert!((64..=1024).contains(&size), "{report}");
        assert!(
            report.contains("largest size within the budget: "),
            "{report}"
        );
        assert!(report.contains("--slower-than 1"), "{report}");
        let again = run_first_reproducer(cost, &report);
        assert_eq!(again.status.code(), Some(1), "{}", text(&again.stdout));
        assert!(
            text(&again.stdout).contains("SLOW"),
            "{}",
            text(&again.stdout)
        );
    }
}

/// Within a declared limit the same program is conforming; the clean-room
/// built-in is conforming with the whole probe, and without the probe a
/// report has no cost lines.
#[test]
fn within_its_limits_nothing_is_slow() {
    // Its decoder's buffer holds 1,000 code points ("too large" beyond),
    // and --max-encode 1000 declares that limit both ways: no size the
    // probe may ask reaches the planted cost.
    let limited = format!("{} --buffer 1000", planted("quadratic"));
    let (status, report) = check(&limited, &["--max-encode", "1000"]);
    assert_eq!(status, Some(0), "{report}");
    assert!(!report.contains(": slow"), "{report}");
    assert!(report.contains("stopped by its declared limit"), "{report}");
    let (status, report) = check("cleanroom", &[]);
    assert_eq!(status, Some(0), "{report}");
    assert!(
        report.contains("encode: every family within the budget up to 65536 code points"),
        "{report}"
    );
    let (status, report) = check("cleanroom", &["--no-cost"]);
    assert_eq!(status, Some(0), "{report}");
    assert!(!report.contains("cost ("), "{report}");
}

/// A slow cause goes into the baseline like any other: known in the next
/// run, and replayed (timed again) when a run does not meet it.
#[test]
fn a_baseline_records_a_slow_cause() {
    let dir = std::env::temp_dir().join(format!("punycheck-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let baseline = dir.join("baseline.toml");
    let baseline = baseline.to_str().unwrap();
    let spec = planted("quadratic");
    let (status, report) = check(&spec, &["--write-baseline", baseline]);
    assert_eq!(status, Some(1), "{report}");
    let written = std::fs::read_to_string(baseline).unwrap();
    assert_eq!(written.matches("kind = \"slow\"").count(), 2, "{written}");
    let (status, report) = check(&spec, &["--baseline", baseline]);
    assert_eq!(status, Some(0), "{report}");
    // Without the probe, the recorded slow causes are timed again.
    let (status, report) = check(&spec, &["--baseline", baseline, "--no-cost"]);
    assert_eq!(status, Some(0), "{report}");
    assert!(
        report.contains("its reproducer still shows it: encode: slow"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `punycheck cost` gives every family's profile beside the C reference's
/// and the clean-room code's, and exits 1 for a slow implementation.
#[test]
fn the_cost_command_profiles_beside_the_yardsticks() {
    let profile = |spec: &str| {
        let out = Command::new(BIN)
            .args([
                "cost",
                "--impl",
                spec,
                "--cost-max",
                "2048",
                "--seconds",
                "600",
            ])
            .output()
            .unwrap();
        (out.status.code(), text(&out.stdout))
    };
    let (status, table) = profile("cleanroom");
    assert_eq!(status, Some(0), "{table}");
    for family in ["distinct-ascending", "one-run", "alternating"] {
        assert_eq!(table.matches(&format!("  {family}:")).count(), 2, "{table}");
    }
    assert!(
        table.contains("    rfc-c ") && table.contains(" 2048:"),
        "{table}"
    );
    let (status, table) = profile(&planted("quadratic"));
    assert_eq!(status, Some(1), "{table}");
    // At 1,024 code points, where the planted cost starts, or sooner on a
    // loaded machine (pyny's own work), never later.
    assert!(
        ["64", "128", "256", "512", "1024"]
            .iter()
            .any(|n| table.contains(&format!("; OVER THE BUDGET at {n}\n"))),
        "{table}"
    );
    assert!(
        table.contains("\nSLOW: encode of the distinct-ascending family"),
        "{table}"
    );
}

/// With `--codec label`, `punycheck cost` asks long U-labels and A-labels
/// and profiles beside the label codec's reference under the same profile;
/// the reference itself is never slow, and every family it refuses for
/// length is timed on (VerifyDnsLength is on by default).
#[test]
fn the_cost_command_profiles_labels_beside_the_label_reference() {
    let out = Command::new(BIN)
        .args(["--codec", "label", "cost", "--impl", "label-ref"])
        .args(["--cost-max", "4096", "--seconds", "600"])
        .output()
        .unwrap();
    let table = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{table}{}", text(&out.stderr));
    assert!(table.contains("    label-ref    64:"), "{table}");
    assert!(!table.contains("rfc-c"), "{table}");
    // Refused beyond 63 octets by both, so timed to the end: 4,096 code
    // points to encode.
    assert!(table.contains(" 4096:"), "{table}");
    assert!(!table.contains("refused"), "{table}");
}

/// The probe's families are Punycode's and the label codec's: a check of
/// another codec has no cost lines, and `cost` refuses it with a reason.
#[test]
fn other_codecs_are_not_probed() {
    let out = Command::new(BIN)
        .args([
            "--codec",
            "lace",
            "check",
            "--impl",
            "cleanroom",
            "--cases",
            "20",
        ])
        .args(["--seed", "1", "--seconds", "600"])
        .output()
        .unwrap();
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(!report.contains("cost ("), "{report}");
    let out = Command::new(BIN)
        .args(["--codec", "lace", "cost", "--impl", "cleanroom"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the cost probe asks Punycode and the label codec, not lace"),
        "{}",
        text(&out.stderr)
    );
}
