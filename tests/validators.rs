//! Validators as implementations (`--answers verdict`): a program that
//! answers only whether a name is valid, as JSON Schema's `idn-hostname`
//! does, is judged by its verdict against the reference's under the rules
//! declared. Two bugs are planted in a correct validator
//! (`tests/impls/planted_validator.py`, whose base is the reference behind
//! `punycheck serve`), and each is reported with reproducers that
//! reproduce; the correct one is CONFORMING declared, and NONCONFORMING
//! when it is not declared a validator (its answers carry no text).

use crate::common;

use common::{BIN, assert_every_reproducer_exits_1, punycheck, python};

const PLANTED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/impls/planted_validator.py"
);

/// JSON Schema's `idn-hostname`: IDNA2008 without mapping, whole names.
const RULES: [&str; 4] = ["--codec", "domain", "--label-rules", "idna2008"];

/// Checks the planted validator with `bug` over 1,000 questions, declared
/// a validator when `declared`: the exit status and the report.
fn check(bug: &str, declared: bool) -> (Option<i32>, String) {
    let spec = format!(
        "pipe:{} {PLANTED} {BIN} domain {bug} --label-rules idna2008",
        python()
    );
    let mut args = RULES.to_vec();
    args.extend(["check", "--impl", &spec, "--seed", "1", "--cases", "1000"]);
    args.extend(["--seconds", "300", "--no-cost"]);
    if declared {
        args.extend(["--answers", "verdict"]);
    }
    let out = punycheck(&args);
    let report =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), report)
}

/// The numbered cause lines of a report.
fn causes_of(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains(": "))
        .collect()
}

#[test]
fn a_correct_validator_conforms_declared_and_not_undeclared() {
    let (status, report) = check("none", true);
    assert_eq!(status, Some(0), "{report}");
    assert!(
        report.contains("answers a verdict only (a validator, judged by ToASCII's)"),
        "{report}"
    );
    // No property holds a validator's answers: they have no text.
    assert!(!report.contains("properties ("), "{report}");
    // Undeclared, its empty answers are taken for conversions.
    let (status, report) = check("none", false);
    assert_eq!(status, Some(1), "{report}");
}

#[test]
fn a_validator_that_accepts_everything_is_reported_rule_by_rule() {
    let (status, report) = check("accept-all", true);
    assert_eq!(status, Some(1), "{report}");
    let causes = causes_of(&report);
    assert!(causes.len() > 3, "{report}");
    for cause in &causes {
        assert!(
            cause.contains("accepts what the reference rejects (reference: refused ("),
            "{cause}\n{report}"
        );
    }
    // Each with the rule it skipped, said as a verdict.
    for rule in ["(disallowed)", "(empty-label)", "(bidi-across-labels)"] {
        assert!(causes.iter().any(|c| c.contains(rule)), "{rule}: {report}");
    }
    assert!(
        report.contains("answered valid, where the reference refuses (error bad_input): "),
        "{report}"
    );
    assert_every_reproducer_exits_1("accept-all", &report);
}

#[test]
fn a_validator_that_refuses_digits_is_one_cause() {
    let (status, report) = check("digit", true);
    assert_eq!(status, Some(1), "{report}");
    let causes = causes_of(&report);
    assert_eq!(causes.len(), 1, "{report}");
    assert!(
        causes[0].contains(
            "encode: rejects what the reference accepts (reference: success; \
             implementation: failure)"
        ),
        "{report}"
    );
    // Minimized to one digit, whichever digit it stopped at.
    let input = report
        .lines()
        .find_map(|l| l.trim().strip_prefix("input: "))
        .unwrap_or_else(|| panic!("no input: {report}"));
    assert!(
        input.starts_with("encode [u+003") && input.contains("] without flags"),
        "{input}"
    );
    assert_every_reproducer_exits_1("digit", &report);
}
