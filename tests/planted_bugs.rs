//! A correct implementation written differently is never reported; the
//! same implementation with any single planted bug is reported
//! nonconforming, with a reproducer that reproduces.
//!
//! The implementation is `tests/impls/pyny.py`, an independent Python
//! Punycode that speaks both the RFC test wrapper's convention (`exec:`)
//! and the `pipe:` protocol. Each bug is one `--bug NAME` (listed by
//! `pyny.py --help`); the bugs are checked through `pipe:`, which asks
//! a hundred times more questions a second. With `--unicode`, pyny takes
//! and returns only Unicode scalar values, as most real implementations
//! do: declared `--domain unicode`, it is conforming, and each bug that
//! needs only Unicode input to show (long inputs near the 32-bit, 31-bit
//! and 26-bit limits, buffer sizes, the end of the input) is still
//! reported.

use crate::common;

use std::process::Command;

use common::{punycheck, python, run_first_reproducer};

const PYNY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/pyny.py");

/// The planted bugs, as pyny lists them.
fn bugs() -> Vec<String> {
    let help = Command::new("python3")
        .args([PYNY, "--help"])
        .output()
        .expect("python3 runs (it is on every machine of this project's kind)");
    let text =
        String::from_utf8_lossy(&help.stdout).into_owned() + &String::from_utf8_lossy(&help.stderr);
    let section = text
        .split("Planted bugs")
        .nth(1)
        .expect("pyny --help lists its bugs");
    section
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| {
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        })
        .map(String::from)
        .collect()
}

#[test]
fn the_correct_program_is_conforming() {
    for spec in [
        format!("exec:{} {PYNY}", python()),
        format!("pipe:{} {PYNY} --pipe", python()),
    ] {
        conforming(&spec, &[]);
    }
}

/// Checks `spec` with `declarations`, expecting CONFORMING; the report.
fn conforming(spec: &str, declarations: &[&str]) -> String {
    let mut args = vec!["check", "--impl", spec];
    args.extend(declarations);
    // A ceiling only: the run is bounded by --cases. pyny is quadratic
    // (pure Python, RFC 3492's algorithm), near the cost probe's budget at
    // its largest sizes: timing is tests/cost.rs's business.
    args.extend([
        "--seed",
        "1",
        "--cases",
        "160",
        "--seconds",
        "600",
        "--no-cost",
    ]);
    let out = punycheck(&args);
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(common::verdict(&report), "CONFORMING", "{spec}: {report}");
    report
}

#[test]
fn every_planted_bug_is_reported_with_a_working_reproducer() {
    let bugs = bugs();
    assert!(bugs.len() >= 14, "pyny lists {} bugs: {bugs:?}", bugs.len());
    for bug in &bugs {
        let spec = format!("pipe:{} {PYNY} --pipe --bug {bug}", python());
        // --seconds is only a ceiling here: --fail-fast stops at the first
        // minimized finding, and the run is decided by the seed.
        let out = punycheck(&[
            "check",
            "--impl",
            &spec,
            "--seed",
            "1",
            "--seconds",
            "300",
            "--fail-fast",
            // The planted bug is the finding, not pyny's speed.
            "--no-cost",
        ]);
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "planted bug {bug} not reported:\n{report}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let again = run_first_reproducer(&format!("planted bug {bug}"), &report);
        assert_eq!(
            again.status.code(),
            Some(1),
            "planted bug {bug}: the reproducer does not reproduce:\n{}",
            String::from_utf8_lossy(&again.stdout)
        );
    }
}

/// The bugs that Unicode scalar values alone reach, planted in pyny
/// `--unicode`, each with the declarations that fit it.
const UNICODE_LIMIT_BUGS: [(&str, &[&str]); 7] = [
    ("signed-encoder", &[]),
    ("int26", &[]),
    ("weight-strict", &[]),
    ("trailing-zero", &[]),
    ("buffer-256", &[]),
    // Its 512-entry array is a limit of 512 decoded code points, which
    // it says as "too large"; declared, only the overrun at the 513th is
    // left to find.
    ("buffer-512-overrun", &["--max-encode", "512"]),
    // Its off-by-one answers the 513th code point where the other crashes:
    // an answer beyond its own declared limit.
    ("buffer-512-silent", &["--max-encode", "512"]),
];

#[test]
fn the_correct_unicode_program_honestly_declared_is_conforming() {
    let spec = format!("pipe:{} {PYNY} --pipe --unicode", python());
    let report = conforming(&spec, &["--domain", "unicode"]);
    assert!(report.contains("domain unicode"), "{report}");
}

#[test]
fn every_unicode_limit_bug_is_reported_inside_unicode() {
    let listed = bugs();
    for (bug, declarations) in UNICODE_LIMIT_BUGS {
        assert!(listed.iter().any(|b| b == bug), "pyny has no bug {bug}");
        let spec = format!("pipe:{} {PYNY} --pipe --unicode --bug {bug}", python());
        let mut args = vec!["check", "--impl", &spec, "--domain", "unicode"];
        args.extend(declarations);
        // A ceiling only: --fail-fast ends the run at the first cause.
        args.extend(["--seed", "1", "--seconds", "300", "--fail-fast"]);
        let out = punycheck(&args);
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{bug} not reported:\n{report}");
        // Reported as a wrong answer, never as a declared limit.
        assert!(
            !report.contains("a limit it does not declare"),
            "{bug}:\n{report}"
        );
        let again = run_first_reproducer(&format!("planted bug {bug} (--unicode)"), &report);
        assert_eq!(
            again.status.code(),
            Some(1),
            "{bug}: the reproducer does not reproduce:\n{}",
            String::from_utf8_lossy(&again.stdout)
        );
    }
}

/// OpenSSL's decoder as issue 21 checks it: a 512-entry array declared,
/// failures without a kind, decoding only, no case flags.
const OPENSSL_DECLARED: [&str; 6] = [
    "--max-encode",
    "512",
    "--errors",
    "failure-only",
    "--decode-only",
    "--no-annotations",
];

/// A decoder that answers 513 code points from its 512-entry array (the
/// off-by-one of OpenSSL 3.0.6, CVE-2022-3602: `--bug buffer-512-silent`),
/// declared `--max-encode 512`, is reported for exactly that, once,
/// through `exec:` and `pipe:`, and its reproducer reproduces; the same
/// decoder with its space check right (`--buffer 512`, OpenSSL 3.0.7), the
/// same declared, is conforming. Before the limit bound answers, both were
/// conforming: the 513 code points are the reference's own answer.
#[test]
fn an_answer_beyond_a_declared_limit_is_one_cause_and_a_kept_limit_none() {
    for (convention, pipe) in [("exec", ""), ("pipe", " --pipe")] {
        let spec = format!(
            "{convention}:{} {PYNY}{pipe} --bug buffer-512-silent",
            python()
        );
        let mut args = vec!["check", "--impl", &spec];
        args.extend(OPENSSL_DECLARED);
        // A ceiling only: the run is bounded by --cases.
        args.extend(["--seed", "1", "--cases", "40", "--seconds", "600"]);
        let out = punycheck(&args);
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{spec}:\n{report}");
        assert!(report.contains("causes (1)"), "{spec}:\n{report}");
        assert!(
            report.contains(
                "1. decode: answered beyond its own declared limit: a write past a fixed buffer? (implementation: more code points than its declared --max-encode 512)"
            ),
            "{spec}:\n{report}"
        );
        assert!(
            report.contains("answered 513 code points, beyond its own declared --max-encode 512"),
            "{spec}:\n{report}"
        );
        let again = run_first_reproducer(&spec, &report);
        assert_eq!(
            again.status.code(),
            Some(1),
            "{spec}: the reproducer does not reproduce:\n{}",
            String::from_utf8_lossy(&again.stdout)
        );

        let kept = format!("{convention}:{} {PYNY}{pipe} --buffer 512", python());
        conforming(&kept, &OPENSSL_DECLARED);
    }
}

/// A decoder that refuses more than 512 code points, undeclared, is one
/// `rejects-valid` cause whose detail gives the limit and how to declare
/// it: whether it only says that it failed (OpenSSL 3.0.7's, checked as its
/// driver was: `failed`, exit 1; pyny's `--bug buffer-512-bare`) or that
/// the output is too large (pyny's `--buffer 512`). Declared, it conforms (the test above).
#[test]
fn an_undeclared_limit_says_how_to_declare_it() {
    let bare = format!("exec:{} {PYNY} --bug buffer-512-bare", python());
    let too_large = format!("exec:{} {PYNY} --buffer 512", python());
    for (spec, said) in [
        (
            &bare,
            "; every input tried of 513 code points or more is refused, and one of 512 is \
             answered: a size limit of its own? If it is one by design, declare it: \
             --max-encode 512",
        ),
        (
            &too_large,
            ", a size limit it does not declare (stopped at 513 code points, not at 512: \
             declare it with --max-encode 512)",
        ),
    ] {
        let args = [
            "check",
            "--impl",
            spec,
            "--errors",
            "failure-only",
            "--decode-only",
            "--no-annotations",
            "--seed",
            "1",
            "--cases",
            "40",
            "--seconds",
            "600",
            "--no-cost",
        ];
        let out = punycheck(&args);
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{spec}:\n{report}");
        assert!(report.contains("causes (1)"), "{spec}:\n{report}");
        assert!(
            report.contains("1. decode: rejects what the reference accepts"),
            "{spec}:\n{report}"
        );
        assert!(report.contains(said), "{spec}:\n{report}");
        let again = run_first_reproducer(spec, &report);
        assert_eq!(
            again.status.code(),
            Some(1),
            "{spec}:\n{}",
            String::from_utf8_lossy(&again.stdout)
        );
    }
}
