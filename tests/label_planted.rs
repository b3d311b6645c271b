//! The A-label layer's advisories, each planted in a small implementation
//! of our own (`tests/impls/planted_label.py`, whose base is punycheck's
//! reference behind `punycheck serve`), are reported by a check through
//! `pipe:` with the rule each breaks, and each reproducer exits 1; the
//! implementation without a plant conforms.

use crate::common;

use common::{
    BIN, assert_every_reproducer_exits_1, assert_first_reproducer_exits_1, punycheck, python,
    run_first_reproducer,
};

const PLANTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/planted_label.py");

/// Checks the label implementation `spec`, bounded by `cases` questions
/// (`seconds` is only a ceiling), with `extra` arguments: the exit status
/// and the report.
fn check_label(spec: &str, cases: &str, seconds: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut args = vec![
        "check",
        "--codec",
        "label",
        "--impl",
        spec,
        "--seed",
        "1",
        "--cases",
        cases,
        "--seconds",
        seconds,
    ];
    args.extend(extra);
    let out = punycheck(&args);
    let report =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), report)
}

/// Checks the planted implementation with `bug`, with `extra` arguments:
/// 2,000 questions, with a 60 s ceiling as a CI gate would give it.
fn check(bug: &str, extra: &[&str]) -> (Option<i32>, String) {
    let spec = format!("pipe:{} {PLANTED} {BIN} --bug {bug}", python());
    check_label(&spec, "2000", "60", extra)
}

#[test]
fn the_implementation_without_a_plant_conforms() {
    let json = std::env::temp_dir().join(format!("punycheck-label-{}.json", std::process::id()));
    let (status, report) = check("none", &["--json", json.to_str().unwrap()]);
    assert_eq!(status, Some(0), "{report}");
    assert!(
        report.contains(" passed, 0 not asked, 0 known deviations, 0 failed"),
        "{report}"
    );
    // The JSON report follows the schema, and says the profile.
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let _ = std::fs::remove_file(&json);
    common::assert_valid(&common::schema_validator("docs/report.schema.json"), &value);
    assert_eq!(value["codec"], "label");
    let declared = value["declaration"]["text"].as_str().unwrap();
    assert!(
        declared.ends_with(
            "label rules uts46 (CheckHyphens=true UseSTD3ASCIIRules=true VerifyDnsLength=true); \
             the references' Unicode 18.0"
        ),
        "{declared}"
    );
}

#[test]
fn each_advisory_is_reported_with_its_rule_and_a_reproducer_that_reproduces() {
    // The plant, and what its cause's key says: the reference's rule, or
    // what the implementation did.
    let plants = [
        (
            "ascii-payload",
            "reference: refused (ascii-only); implementation: success",
        ),
        (
            "empty",
            "reference: refused (empty); implementation: success",
        ),
        (
            "non-ascii",
            "reference: refused (non-ascii-in-a-label); implementation: success",
        ),
        (
            "no-validation",
            "reference: refused (status); implementation: success",
        ),
        ("prefix-case", "rejects what the reference accepts"),
        ("crash", "decode: crash"),
        (
            "double-prefix",
            "reference: refused (non-ascii-in-a-label); implementation: success",
        ),
        (
            "leading-delimiter",
            "reference: refused (punycode); implementation: success",
        ),
    ];
    for (bug, key) in plants {
        let (status, report) = check(bug, &[]);
        assert_eq!(status, Some(1), "{bug}:\n{report}");
        let causes = causes_of(&report);
        assert_eq!(
            causes.len(),
            1,
            "{bug}: one cause, not {causes:#?}\n{report}"
        );
        assert!(causes[0].contains(key), "{bug}: {key:?} in {causes:#?}");
        let again = run_first_reproducer(bug, &report);
        assert_eq!(
            again.status.code(),
            Some(1),
            "{bug}: the reproducer does not reproduce:\n{}{}",
            String::from_utf8_lossy(&again.stdout),
            String::from_utf8_lossy(&again.stderr)
        );
    }
}

/// Erlang's idna 6.1.1 inverts the ContextJ rule of U+200C
/// (idna_context.erl 45-62); planted, a label check of 1,500 questions
/// reports both sides of it, each with a reproducer that exits 1: the
/// broken context taken, and the valid one refused.
#[test]
fn an_inverted_zwnj_rule_is_reported_both_ways() {
    let spec = format!("pipe:{} {PLANTED} {BIN} --bug zwnj-context", python());
    let (status, report) = check_label(&spec, "1500", "60", &[]);
    assert_eq!(status, Some(1), "{report}");
    let causes = causes_of(&report);
    assert_eq!(causes.len(), 2, "{causes:#?}\n{report}");
    assert!(
        causes.iter().any(|c| c
            .contains("encode: accepts what the reference rejects (reference: refused (contextj)")),
        "{causes:#?}"
    );
    assert!(
        causes
            .iter()
            .any(|c| c.contains("encode: rejects what the reference accepts")),
        "{causes:#?}"
    );
    assert_first_reproducer_exits_1("zwnj-context", &report);
}

/// Net::IDN::Encode 2.500 and ada 2.9.2 judge only the first ZWNJ or ZWJ
/// of a label; planted, a label check of 1,500 questions (the label
/// gates' `cases`) asks labels with two and three joiners, one of them
/// out of its context, and reports the later one taken, both ways, from
/// generated questions as well as the vectors, with reproducers that exit
/// 1.
#[test]
fn only_the_first_joiner_judged_is_reported() {
    let spec = format!("pipe:{} {PLANTED} {BIN} --bug first-joiner", python());
    let (status, report) = check_label(&spec, "1500", "60", &[]);
    assert_eq!(status, Some(1), "{report}");
    let causes = causes_of(&report);
    assert!(
        !causes.is_empty()
            && causes
                .iter()
                .all(|c| c
                    .contains("accepts what the reference rejects (reference: refused (contextj)")),
        "{causes:#?}\n{report}"
    );
    for direction in ["encode", "decode"] {
        assert!(
            causes
                .iter()
                .any(|c| c.contains(&format!(". {direction}: accepts"))),
            "{direction}: {causes:#?}"
        );
    }
    // The generator asks them, not only the vectors.
    let generated = report
        .lines()
        .filter(|l| l.trim_start().starts_with("seen ") && l.contains(" generated"))
        .count();
    assert_eq!(generated, 2, "{report}");
    assert_every_reproducer_exits_1("first-joiner", &report);
}

/// The causes of `report`: the lines that number them.
fn causes_of(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains(": "))
        .collect()
}

/// The label generator asks what Erlang's idna 6.1.1 gets wrong beyond
/// its ZWNJ rule, and a Bidi condition left unchecked: each planted, a
/// label check of 1,500 questions reports it, and every reproducer exits 1.
/// - ToASCII of ASCII labels: a lowercase `xn--` label returned as given
///   (`xn--go-`: accepts what the reference refuses; `xn--BCHER-kva`: not
///   lowercased), one with another case refused (`XN--BCHER-KVA`: rejects
///   what it accepts);
/// - UseSTD3ASCIIRules inverted: with it off, `a_é` refused;
/// - RFC 5893's condition 4 unchecked: `ب1٠` taken.
#[test]
fn ascii_labels_the_std3_switch_and_each_bidi_condition_are_asked() {
    let spec =
        |bug: &str, extra: &str| format!("pipe:{} {PLANTED} {BIN} --bug {bug}{extra}", python());
    let (status, report) = check_label(&spec("ascii-unchecked", ""), "1500", "60", &[]);
    assert_eq!(status, Some(1), "{report}");
    let causes = causes_of(&report);
    assert!(
        causes
            .iter()
            .any(|c| c.contains("encode: rejects what the reference accepts")),
        "{causes:#?}"
    );
    assert!(
        causes
            .iter()
            .any(|c| c.contains("encode: accepts what the reference rejects")),
        "{causes:#?}"
    );
    assert!(causes.iter().all(|c| c.contains("encode: ")), "{causes:#?}");
    assert!(assert_every_reproducer_exits_1("ascii-unchecked", &report) > 0);

    let (status, report) = check_label(
        &spec("std3-inverted", " --std3-rules false"),
        "1500",
        "60",
        &["--std3-rules", "false"],
    );
    assert_eq!(status, Some(1), "{report}");
    // One cause for each General_Category its shortest refusals show
    // (`"` is Po, `$` Sc: the questions hold every class), each the
    // plant's.
    let causes = causes_of(&report);
    assert!(!causes.is_empty(), "{report}");
    for cause in &causes {
        assert!(
            cause.contains("encode: rejects what the reference accepts"),
            "{causes:#?}"
        );
    }
    assert!(assert_every_reproducer_exits_1("std3-inverted", &report) > 0);
    // With the switch on, the plant refuses what the reference refuses.
    let (status, report) = check_label(&spec("std3-inverted", ""), "1500", "60", &[]);
    assert_eq!(status, Some(0), "{report}");

    let (status, report) = check_label(&spec("bidi-digits", ""), "1500", "60", &[]);
    assert_eq!(status, Some(1), "{report}");
    let causes = causes_of(&report);
    assert_eq!(causes.len(), 1, "{causes:#?}\n{report}");
    assert!(
        causes[0].contains("encode: accepts what the reference rejects (reference: refused (bidi)"),
        "{causes:#?}"
    );
    assert!(assert_every_reproducer_exits_1("bidi-digits", &report) > 0);
}

/// A long label refused only after a quadratic wait (CPython's
/// encodings.idna, python/cpython#157675; the Python idna package) is one
/// slow cause in each direction, though every answer is right, and its
/// reproducer exits 1. The planted cost is CPU time, 300 s * (n/65536)^2:
/// a hundred times the probe's margin at its limit.
#[test]
fn a_slow_refusal_is_a_slow_cause_that_reproduces() {
    let (status, report) = check("slow-refusal", &[]);
    assert_eq!(status, Some(1), "{report}");
    for direction in ["encode", "decode"] {
        let slow = format!(
            ". {direction}: slow (implementation: grows faster than linear on the distinct-ascending family)"
        );
        assert_eq!(report.matches(&slow).count(), 1, "{direction}: {report}");
    }
    assert!(report.contains("causes (2)"), "{report}");
    assert!(
        report.contains("on the largest input asked: label-ref "),
        "{report}"
    );
    let again = run_first_reproducer("slow-refusal", &report);
    assert_eq!(
        again.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
}

/// The same questions cross the `exec:` convention: the reference behind a
/// program started per question conforms, vectors included.
#[test]
fn a_label_program_through_exec_conforms() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/label_exec.sh");
    let spec = format!("exec:sh {script} {BIN}");
    let (status, report) = check_label(&spec, "60", "600", &[]);
    assert_eq!(status, Some(0), "{report}");
    assert!(
        report.contains(" passed, 0 not asked, 0 known deviations, 0 failed"),
        "{report}"
    );
}

/// Two table bugs of UTS #46 implementations (issue 45), planted on the
/// reference (`tests/impls/unicode_plants.py`), each reported by a check
/// of 3,000 questions, the default size of a label gate's kind, through
/// the questions drawn from the Unicode classes: a ToUnicode that
/// lowercases its answer (valid Cherokee capitals come back as the small
/// letters UTS #46 maps to them), and tables that refuse every code point
/// assigned after Unicode 15.1 in an implementation declared to cover
/// 17.0. Declared as 15.1, the second conforms; the correct one conforms
/// and asks every class both ways.
#[test]
fn table_bugs_are_reported_by_questions_drawn_from_the_data() {
    let spec = |bug: &str| format!("pipe:{} {PLANTED} {BIN} --bug {bug}", python());
    let (status, report) = check_label(&spec("none"), "3000", "300", &[]);
    assert_eq!(status, Some(0), "{report}");
    common::assert_every_unicode_class_asked("none", &report);

    let (status, report) = check_label(&spec("lowercase-to-unicode"), "3000", "300", &[]);
    assert_eq!(status, Some(1), "{report}");
    let causes = causes_of(&report);
    assert!(!causes.is_empty(), "{report}");
    for cause in &causes {
        assert!(
            cause.contains("decode: different output"),
            "not the plant's: {cause}\n{report}"
        );
    }
    // The witness holds a Cherokee capital, answered as its small letter.
    assert!(
        report.contains("expected [") && report.contains("u+13") && report.contains("u+AB"),
        "{report}"
    );
    assert_every_reproducer_exits_1("lowercase-to-unicode", &report);

    let claims = ["--unicode-version", "17.0"];
    let (status, report) = check_label(&spec("refuse-after-15.1"), "3000", "300", &claims);
    assert_eq!(status, Some(1), "{report}");
    let causes = causes_of(&report);
    assert!(!causes.is_empty(), "{report}");
    for cause in &causes {
        assert!(
            cause.contains("rejects what the reference accepts"),
            "not the plant's: {cause}\n{report}"
        );
    }
    assert!(report.contains("is not in its tables"), "{report}");
    assert_every_reproducer_exits_1("refuse-after-15.1", &report);
    let honest = ["--unicode-version", "15.1"];
    let (status, report) = check_label(&spec("refuse-after-15.1"), "3000", "300", &honest);
    assert_eq!(status, Some(0), "{report}");
}
