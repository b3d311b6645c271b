//! How a check bounded by `--seconds` alone spends its time (issue 39):
//! the vectors first, then a sample of the small cases in their share,
//! which is the check's plan, not a want of time.

use std::process::Command;

use crate::common::{BIN, python};

const SLOW_SWEEP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/slow_sweep.py");

/// A correct program that takes half a second for each decoding of the
/// byte sweep (2,048 of them: over 500 s through its two workers, 25
/// times the check's 20 s) and answers everything else at once: bounded by
/// `--seconds` alone, the check asks every vector, a sample of the small
/// cases that the report names as one, and ends CONFORMING (exit 0), not
/// INCOMPLETE. With `--cases`, the same program is asked every small case:
/// cut by the same `--seconds`, it is incomplete (exit 3).
#[test]
fn a_time_bounded_check_asks_its_vectors_and_samples_the_sweep() {
    let spec = format!("pipe:{} {SLOW_SWEEP} {BIN} 0.5", python());
    let run = |extra: &[&str]| {
        let out = Command::new(BIN)
            .args(["check", "--impl", &spec, "--seed", "1", "--seconds", "20"])
            .args(["--no-cost"])
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (status, report) = run(&[]);
    assert_eq!(status, Some(0), "{report}");
    assert!(report.contains("vectors: 424 of 424 run"), "{report}");
    assert!(
        report
            .contains("(a sample in telling order, in their share of --seconds; --cases asks all)"),
        "{report}"
    );
    assert!(!report.contains("incomplete:"), "{report}");
    let (status, report) = run(&["--cases", "10"]);
    assert_eq!(status, Some(3), "{report}");
    assert!(
        report.contains("vectors and small cases did not run within --seconds"),
        "{report}"
    );
    assert!(!report.contains("a sample in telling order"), "{report}");
}
