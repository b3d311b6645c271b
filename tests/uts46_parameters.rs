//! UTS #46's CheckBidi, CheckJoiners, Transitional_Processing and
//! IgnoreInvalidPunycode as declarations: an implementation that honestly
//! runs with a non-default setting (`tests/impls/planted_domain.py` with no
//! plant, whose base is punycheck's whole-name reference served under
//! that setting) is CONFORMING when the check declares it, and
//! NONCONFORMING when the check declares the default, the differences the
//! setting makes reported as causes. IgnoreInvalidPunycode changes no
//! answer of UTS #46 revision 36 (step 4, item 3 refuses what item 2
//! kept), so both checks of it conform, and an implementation that takes
//! an invalid `xn--` label as it is stays NONCONFORMING with the flag
//! declared: a declaration never hides a wrong answer.

use crate::common;

use common::{BIN, punycheck, python};

const PLANTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/planted_domain.py");

/// Checks the planted implementation with `bug`, run with `switches`,
/// declared with `declared`: 1,000 questions of the domain codec, with a
/// 120 s ceiling that only a stuck run meets. The exit status and the
/// report.
fn check(bug: &str, switches: &[&str], declared: &[&str]) -> (Option<i32>, String) {
    let spec = format!(
        "pipe:{} {PLANTED} {BIN} --bug {bug} {}",
        python(),
        switches.join(" ")
    );
    let mut args = vec![
        "check",
        "--codec",
        "domain",
        "--impl",
        &spec,
        "--seed",
        "1",
        "--cases",
        "1000",
        "--seconds",
        "120",
    ];
    args.extend(declared);
    let out = punycheck(&args);
    let report =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), report)
}

#[test]
fn each_setting_declared_conforms_and_undeclared_is_reported() {
    for (setting, described) in [
        (
            &["--transitional-processing", "true"][..],
            "Transitional_Processing=true",
        ),
        (&["--check-bidi", "false"][..], "CheckBidi=false"),
        (&["--check-joiners", "false"][..], "CheckJoiners=false"),
    ] {
        let (status, report) = check("none", setting, setting);
        assert_eq!(status, Some(0), "{setting:?} declared:\n{report}");
        assert!(report.contains("CONFORMING"), "{report}");
        assert!(report.contains(described), "{setting:?}: {report}");
        // The same implementation checked as if it ran with the default.
        let (status, report) = check("none", setting, &[]);
        assert_eq!(status, Some(1), "{setting:?} undeclared:\n{report}");
        assert!(report.contains("NONCONFORMING"), "{report}");
    }
}

#[test]
fn ignore_invalid_punycode_changes_no_verdict_and_hides_no_wrong_answer() {
    let setting = &["--ignore-invalid-punycode", "true"][..];
    // Revision 36's text: the same answers with the flag and without it.
    for declared in [setting, &[][..]] {
        let (status, report) = check("none", setting, declared);
        assert_eq!(status, Some(0), "{declared:?}:\n{report}");
    }
    // Taking an invalid xn-- label as it is, without an error, is no
    // reading of UTS #46: reported, declared or not.
    for declared in [setting, &[][..]] {
        let (status, report) = check("invalid-punycode-as-is", setting, declared);
        assert_eq!(status, Some(1), "{declared:?}:\n{report}");
        assert!(
            report.contains("accepts what the reference rejects"),
            "{report}"
        );
    }
}
