//! The `punycheck` command as a user runs it: exit statuses, messages,
//! reports, and the exec: protocol end to end with the RFC's own wrapper.

use crate::common;

use std::process::{Command, Output};

use common::{BIN, punycheck as run, run_first_reproducer};

/// RFC 3492 Appendix C's own test program, as punycheck carries it: a
/// command that works wherever punycheck is installed.
fn wrapper() -> String {
    format!("{BIN} rfc-wrapper")
}

fn run_with_stdin(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("punycheck runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn bad_command_lines_and_broken_programs_exit_2_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["check", "--impl", "nope"],
            "unknown punycode implementation",
        ),
        // The URL Standard's rules: whole names only, beStrict for the
        // switches, and its options only with them.
        (
            &["encode", "--codec", "label", "--label-rules", "url", "a"],
            "it goes with --codec domain",
        ),
        (
            &[
                "encode",
                "--codec",
                "domain",
                "--label-rules",
                "url",
                "--check-hyphens",
                "false",
                "a",
            ],
            "give --be-strict instead",
        ),
        (
            &["encode", "--codec", "domain", "--be-strict", "true", "a"],
            "go with --label-rules url",
        ),
        (
            &["check", "--impl", "exec:/nonexistent/prog"],
            "cannot start",
        ),
        (&["check", "--impl", "exec:"], "needs a command"),
        (&["check", "--impl", "exec:'unterminated"], "cannot split"),
        (
            &[
                "check",
                "--impl",
                "exec:sh -c 'sleep 30' sh",
                "--timeout",
                "0.5",
            ],
            "no answer within",
        ),
        (
            &["check", "--impl", "exec:sh -c 'echo garbage' sh"],
            "is not u+XXXX",
        ),
        (
            &["check", "--impl", "exec:sh -c 'kill -SEGV $$' sh"],
            "killed by signal",
        ),
        (
            &[
                "check",
                "--impl",
                "exec:sh -c 'echo invalid input >&2; exit 1' sh",
            ],
            "refused the probe",
        ),
        (&["check", "--seconds=-3"], "--seconds <SECONDS>"),
        (&["check", "--timeout=0"], "--timeout <SECONDS>"),
        (&["check", "--bogus"], "unexpected argument"),
        (&["diff"], "--impl"),
        (
            &["repro", "--decode", "a", "--encode", "u+0061"],
            "cannot be used with",
        ),
        (&["vectors", "--file", "/nonexistent.toml"], "cannot read"),
    ];
    for (args, needle) in cases {
        let out = run(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(needle),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!text(&out.stderr).contains("panicked"), "{args:?}");
    }
}

/// A program that answers the probes, then hangs on every other question:
/// the check ends at --seconds, not after the vectors' hundreds of
/// timeouts, and reports the hangs it confirmed (each asked twice, the
/// time limit each time: 2 s of the 3) and what did not run.
#[test]
fn a_check_cut_by_its_time_reports_what_did_not_run() {
    let out = run(&[
        "check",
        "--impl",
        "exec:sh -c 'read x; case $1$x in -eu+0061*) echo a-bga;; -da-bga) echo u+0061; echo u+00E9;; *) sleep 30;; esac' sh",
        "--seconds",
        "3",
        "--timeout",
        "1",
    ]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(report.contains(": hang (implementation: hang)"), "{report}");
    assert!(
        report.contains("no answer within 1.0 s, nor within 1.0 s when asked again"),
        "{report}"
    );
    assert!(report.contains("did not run within --seconds"), "{report}");
    assert!(!report.contains("families within"), "{report}");
}

/// The RFC wrapper's own limits (`unicode_max_length` and `ace_max_length`
/// in Appendix C's `main`): 256 code points, 256 characters of Punycode.
const WRAPPER_LIMITS: [&str; 4] = ["--max-encode", "256", "--max-decode", "256"];

#[test]
fn the_rfc_wrapper_passes_check_through_exec() {
    let w = wrapper();
    let spec = format!("exec:{w}");
    let out = run(&[
        "check",
        "--impl",
        &spec,
        WRAPPER_LIMITS[0],
        WRAPPER_LIMITS[1],
        WRAPPER_LIMITS[2],
        WRAPPER_LIMITS[3],
        "--seed",
        "7",
        "--cases",
        "300",
        "--seconds",
        "120",
    ]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}{}", text(&out.stderr));
    assert_eq!(common::verdict(&report), "CONFORMING", "{report}");
    // Its fixed 256-element buffers are its declared limits, counted.
    let count = punycheck::harness::vectors::builtin()
        .unwrap()
        .iter()
        .filter(|c| c.codec == punycheck::codec::Codec::Punycode)
        .count();
    assert!(
        report.contains(&format!("vectors: {count} of {count} run")),
        "{report}"
    );
}

/// The same wrapper with its limits undeclared: "input or output is too
/// large" where the reference answers is a refusal like any other, reported
/// with a reproducer that reproduces, and the report no longer calls it a
/// documented limit.
#[test]
fn an_undeclared_own_limit_is_a_finding() {
    let spec = format!("exec:{}", wrapper());
    let out = run(&[
        "check",
        "--impl",
        &spec,
        "--seed",
        "7",
        "--fail-fast",
        // A ceiling only: --fail-fast ends the run at the first cause.
        "--seconds",
        "600",
    ]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(
        report.contains("implementation: too large (a limit it does not declare))"),
        "{report}"
    );
    assert!(!report.contains("documented"), "{report}");
    let again = run_first_reproducer("the RFC's wrapper, limits undeclared", &report);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again.stdout));
}

#[test]
fn reports_in_json_and_junit_carry_the_same_verdict() {
    let w = wrapper();
    let spec = format!("exec:{w}");
    let json = run(&[
        "check",
        "--impl",
        &spec,
        WRAPPER_LIMITS[0],
        WRAPPER_LIMITS[1],
        WRAPPER_LIMITS[2],
        WRAPPER_LIMITS[3],
        "--seed",
        "3",
        "--cases",
        "50",
        // A process per question, 2,562 small cases among them: no
        // ceiling a busy machine could reach.
        "--seconds",
        "600",
        "--format",
        "json",
    ]);
    assert_eq!(json.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("valid JSON");
    assert_eq!(value["conforming"], true);
    assert_eq!(value["seed"], 3);
    assert_eq!(value["generated"]["nonconforming"], 0);
    let junit = run(&[
        "check",
        "--impl",
        &spec,
        WRAPPER_LIMITS[0],
        WRAPPER_LIMITS[1],
        WRAPPER_LIMITS[2],
        WRAPPER_LIMITS[3],
        "--seed",
        "3",
        "--cases",
        "50",
        "--format",
        "junit",
    ]);
    let xml = text(&junit.stdout);
    assert!(
        xml.starts_with("<?xml") && xml.contains("<testsuite") && !xml.contains("<failure"),
        "{xml}"
    );
}

#[test]
fn same_seed_same_run() {
    let args = [
        "check",
        "--impl",
        "idna",
        "--seed",
        "11",
        "--cases",
        "2000",
        "--format",
        "json",
        // A ceiling only: the run is decided by --cases, on any machine.
        "--seconds",
        "3600",
        // Times differ from run to run; what is asked and answered does not.
        "--no-cost",
    ];
    let strip = |out: Output| {
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // What the clock says differs; what was asked and answered does not.
        v["seconds"] = serde_json::Value::Null;
        v["started"] = serde_json::Value::Null;
        v["timings"] = serde_json::Value::Null;
        for result in v["vectors"]["results"].as_array_mut().unwrap() {
            result["seconds"] = serde_json::Value::Null;
        }
        v
    };
    assert_eq!(strip(run(&args)), strip(run(&args)));
}

/// A wrong implementation, as a shell script around the RFC wrapper that
/// answers every decoding with one extra code point: nonconforming, with a
/// minimized reproducer that reproduces.
#[test]
fn a_wrong_program_is_nonconforming_with_a_reproducer_that_reproduces() {
    let w = wrapper();
    let script =
        format!("exec:sh -c 'if [ \"$1\" = -d ]; then {w} -d && echo u+0080; else {w} -e; fi' sh");
    let dir = std::env::temp_dir().join(format!("punycheck-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("regressions.toml");
    let out = run(&[
        "check",
        "--impl",
        &script,
        "--seed",
        "5",
        "--cases",
        "100",
        "--save-regressions",
        saved.to_str().unwrap(),
    ]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(
        common::verdict(&report).starts_with("NONCONFORMING: "),
        "{report}"
    );
    let again = run_first_reproducer("the wrong program", &report);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again.stdout));
    // repro's own verdict line.
    let repro = text(&again.stdout);
    let verdict = repro.lines().find_map(|l| l.strip_prefix("verdict:"));
    assert!(
        verdict.is_some_and(|v| v.trim_start().starts_with("NONCONFORMING: ")),
        "{repro}"
    );
    // The saved regression is a valid vector file that the wrong program fails
    // and the reference passes.
    let file = saved.to_str().unwrap();
    let failing = run(&["vectors", "--impl", &script, "--file", file]);
    assert_eq!(failing.status.code(), Some(1), "{}", text(&failing.stdout));
    let passing = run(&["vectors", "--impl", "cleanroom", "--file", file]);
    assert_eq!(passing.status.code(), Some(0), "{}", text(&passing.stdout));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn repro_saves_a_question_as_a_vector_that_replays() {
    let dir = std::env::temp_dir().join(format!("punycheck-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("saved.toml");
    let path = file.to_str().unwrap();
    let save = ["--save", path, "--name", "saved-1", "--provenance", "test"];
    let out = run(&[
        &["repro", "--impl", "cleanroom", "--decode=-x-a"][..],
        &save[..],
    ]
    .concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&[
        &["repro", "--impl", "idna", "--encode=u+FFFFFFFF"][..],
        &save[..],
    ]
    .concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(
        saved.contains("name = \"saved-1\"")
            && saved.contains("test. Expected value computed by the C reference.")
    );
    // The name was taken: the second case is saved under another, so the
    // file still loads.
    assert!(saved.contains("name = \"saved-1-2\""), "{saved}");
    let loads = run(&["vectors", "--impl", "cleanroom", "--file", path]);
    assert_eq!(loads.status.code(), Some(0), "{}", text(&loads.stderr));
    // The same question again is not saved twice.
    let again = run(&[
        &["repro", "--impl", "cleanroom", "--decode=-x-a"][..],
        &save[..],
    ]
    .concat());
    assert!(
        text(&again.stderr).contains("not saved again"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), saved);
    let replay = run(&[
        "vectors",
        "--impl",
        "cleanroom",
        "--impl",
        "rfc-c",
        "--file",
        path,
    ]);
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stdout));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A saved label question keeps its rules and switches and replays under
/// them; a question of another profile is refused before it is asked.
#[test]
fn repro_saves_a_label_question_with_its_rules() {
    let dir = std::env::temp_dir().join(format!("punycheck-save-label-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("label.toml");
    let path = file.to_str().unwrap();
    let ask = |globals: &[&str]| {
        run(&[
            &["--codec", "label"][..],
            globals,
            &[
                "repro",
                "--impl",
                "label-ref",
                "--encode=u+0062 u+00FC",
                "--no-flags",
            ][..],
            &["--save", path][..],
        ]
        .concat())
    };
    let out = ask(&["--label-rules", "idna2008"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("label-rules = \"idna2008\""), "{saved}");
    for (globals, refusal) in [
        (&[][..], "holds label [idna2008 (CheckHyphens=true"),
        (
            &["--label-rules", "idna2008", "--check-hyphens", "false"][..],
            "this question is label [idna2008 (CheckHyphens=false",
        ),
    ] {
        let out = ask(globals);
        assert_eq!(out.status.code(), Some(2), "{globals:?}");
        assert!(text(&out.stderr).contains(refusal), "{}", text(&out.stderr));
        assert!(!text(&out.stdout).contains("question:"), "asked first");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), saved);
    }
    let replay = run(&[
        "--codec",
        "label",
        "--label-rules",
        "idna2008",
        "vectors",
        "--impl",
        "label-ref",
        "--file",
        path,
    ]);
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stdout));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn encode_and_decode_lines() {
    let out = run(&["encode", "bücher", "abc", "\u{4ED6}\u{4EEC}"]);
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines[1], "abc-");
    let back = run(&["decode", &lines[0], &lines[2]]);
    assert_eq!(text(&back.stdout), "bücher\n\u{4ED6}\u{4EEC}\n");
    // Flags need --codepoints; errors name the line and the kind, exit 1.
    let flagged = run_with_stdin(&["encode", "--codepoints"], "U+0061 u+00E9\nx+1\n");
    assert_eq!(flagged.status.code(), Some(1));
    let want = punycheck::c_reference::encode(&[0x61, 0xE9], Some(&[true, false])).unwrap();
    assert_eq!(
        text(&flagged.stdout).lines().next(),
        Some(text(&want).as_str())
    );
    assert!(
        text(&flagged.stderr).contains("line 2"),
        "{}",
        text(&flagged.stderr)
    );
    let bad = run_with_stdin(
        &["decode", "--codepoints", "--impl", "rfc-c"],
        "ww902716a\n99999999999\n-\n",
    );
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(text(&bad.stdout).lines().next(), Some("u+FFFFFFFF"));
    let err = text(&bad.stderr);
    assert!(
        err.contains("line 2: error overflow") && err.contains("line 3: error bad_input"),
        "{err}"
    );
    // A result outside Unicode cannot be printed as text.
    let text_out = run(&["decode", "ww902716a"]);
    assert_eq!(text_out.status.code(), Some(1));
    assert!(text(&text_out.stderr).contains("--codepoints"));
}

#[test]
fn the_default_command_prints_the_matrix_and_succeeds() {
    let out = run(&[]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}");
    // libidn2 and ICU where this build has them (their tests say when not:
    // crates/punycheck/tests/system_libraries.rs).
    let lacks = |name: &str| {
        punycheck::engines::missing_for(punycheck::codec::Codec::Punycode)
            .iter()
            .any(|m| m.name == name)
    };
    for name in ["rfc-c", "cleanroom", "idna", "libidn2", "icu"] {
        assert!(report.contains(name) || lacks(name), "{name} missing");
    }
    assert!(report.contains("no unexplained difference"), "{report}");
    assert!(
        report.contains("underscore-digit: BUG") || lacks("libidn2"),
        "{report}"
    );
}

#[test]
fn rfc2279_text_carries_code_points_above_unicode() {
    use std::os::unix::ffi::OsStrExt;
    // U+7FFFFFFF is six RFC 2279 octets; strict UTF-8 cannot carry it.
    let six =
        punycheck::utf8::encode(&[0x61, 0x7FFF_FFFF], punycheck::utf8::Mode::Rfc2279).unwrap();
    let arg = std::ffi::OsStr::from_bytes(&six);
    let strict = Command::new(BIN).arg("encode").arg(arg).output().unwrap();
    assert_eq!(strict.status.code(), Some(1));
    let err = text(&strict.stderr);
    assert!(err.contains("not strict text"), "{err}");
    let lax = Command::new(BIN)
        .args(["encode", "--utf8", "rfc2279"])
        .arg(arg)
        .output()
        .unwrap();
    assert_eq!(lax.status.code(), Some(0), "{}", text(&lax.stderr));
    let want = punycheck::c_reference::encode(&[0x61, 0x7FFF_FFFF], None).unwrap();
    assert_eq!(lax.stdout, [&want[..], b"\n"].concat());
    // And back: decoding writes the same octets.
    let back = run(&["decode", "--utf8", "rfc2279", text(&want).as_str()]);
    assert_eq!(back.stdout, [&six[..], b"\n"].concat());
}

#[test]
fn every_codec_has_its_vectors_matrix_and_check() {
    for codec in ["lace", "utf8"] {
        let out = run(&["--codec", codec]);
        let report = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{report}");
        assert!(report.contains(&format!("=== {codec}")), "{report}");
        assert!(report.contains("no unexplained difference"), "{report}");
        // Only this codec's matrix.
        assert!(!report.contains("rfc-c"), "{report}");
    }
    let utf8 = run(&[
        "check",
        "--codec",
        "utf8",
        "--impl",
        "std",
        "--seconds",
        "3",
    ]);
    assert_eq!(utf8.status.code(), Some(0), "{}", text(&utf8.stdout));
    assert_eq!(common::verdict(&text(&utf8.stdout)), "CONFORMING");
    // Encode with the codec's engines; unknown names list the codec's own.
    let lace = run(&["encode", "--codec", "lace", "\u{3a3}\u{3bf}"]);
    assert_eq!(lace.status.code(), Some(0), "{}", text(&lace.stderr));
    assert!(
        text(&lace.stdout).starts_with("bq--"),
        "{}",
        text(&lace.stdout)
    );
    let unknown = run(&["encode", "--codec", "lace", "--impl", "rfc-c", "x"]);
    assert_eq!(unknown.status.code(), Some(2));
    let err = text(&unknown.stderr);
    assert!(err.contains("unknown lace implementation"), "{err}");
}

#[test]
fn an_exec_program_of_another_codec_is_checked_and_its_bug_reproduced() {
    let lace = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/lace.py");
    let spec = format!("exec:{} {lace}", common::python());
    // Correct: the vectors pass through the convention.
    let out = run(&["vectors", "--codec", "lace", "--impl", &spec]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    // The RFC 2279 Python program through the hex channel.
    let utf8 = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/rfc2279.py");
    let utf8 = format!("exec:{} {utf8}", common::python());
    let out = run(&[
        "repro",
        "--codec",
        "utf8",
        "--impl",
        &utf8,
        "--decode-hex",
        "fdbfbfbfbfbf",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("u+7FFFFFFF"),
        "{}",
        text(&out.stdout)
    );
    // A lenient decoder (upper case accepted, the draft's own reading) is
    // nonconforming, and the printed command says --codec.
    let out = Command::new(BIN)
        .args(["check", "--codec", "lace", "--impl", &spec])
        // A ceiling only: --fail-fast ends the run at the first cause.
        .args(["--seconds", "600", "--seed", "1", "--fail-fast"])
        .env("LACE_PY_BUG", "ignore-case")
        .output()
        .unwrap();
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(report.contains("punycheck repro --codec lace"), "{report}");
    // The reproducer reproduces.
    let repro = Command::new(BIN)
        .args(
            shell_words::split(
                report
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("reproduce: punycheck "))
                    .unwrap(),
            )
            .unwrap(),
        )
        .env("LACE_PY_BUG", "ignore-case")
        .output()
        .unwrap();
    assert_eq!(repro.status.code(), Some(1), "{}", text(&repro.stdout));
}

/// A flag-aware program checked as if it had no annotations is not reported
/// (each code point is sent with the flag that leaves it as it is).
#[test]
fn the_rfc_wrapper_passes_without_annotations() {
    let w = wrapper();
    let spec = format!("exec:{w}");
    let out = run(&[
        "check",
        "--impl",
        &spec,
        "--no-annotations",
        WRAPPER_LIMITS[0],
        WRAPPER_LIMITS[1],
        WRAPPER_LIMITS[2],
        WRAPPER_LIMITS[3],
        "--seed",
        "7",
        "--cases",
        "300",
        "--seconds",
        "600",
    ]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}{}", text(&out.stderr));
    assert!(report.contains("annotations no"), "{report}");
}

/// `repro --encode` of code points without an uppercase flag asks an
/// implementation declared without annotations without flags: it answers,
/// where asked with flags it could only be "not asked".
#[test]
fn repro_asks_without_flags_where_no_annotations_are_declared() {
    let spec = format!("exec:{}", wrapper());
    let out = run(&[
        "repro",
        "--impl",
        &spec,
        "--no-annotations",
        "--encode",
        "u+0061 u+00E9",
    ]);
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}{}", text(&out.stderr));
    assert!(said.contains("without flags"), "{said}");
    assert!(said.contains("a-bga"), "{said}");
    assert!(!said.contains("not asked"), "{said}");
}

/// A decoder alone, declared, is never asked to encode: its -e prints
/// nonsense, and the check is still conforming.
#[test]
fn a_declared_decoder_alone_is_conforming() {
    let w = wrapper();
    let spec = format!(
        "exec:sh -c 'if [ \"$1\" = -e ]; then echo nonsense; exit 9; fi; exec {w} \"$@\"' sh"
    );
    let out = run(&[
        "check",
        "--impl",
        &spec,
        "--decode-only",
        WRAPPER_LIMITS[2],
        WRAPPER_LIMITS[3],
        "--seed",
        "3",
        "--cases",
        "200",
        "--seconds",
        "600",
    ]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}{}", text(&out.stderr));
    assert!(report.contains("decode only"), "{report}");
    // Undeclared, its encoder is asked and answers outside the convention,
    // while its decoder answers the probe right: it speaks the convention,
    // and its encoder is a finding with its reproducer.
    let out = run(&[
        "check",
        "--impl",
        &spec,
        "--seed",
        "3",
        "--cases",
        "20",
        "--seconds",
        "600",
    ]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(report.contains(". encode: broken answer"), "{report}");
}

/// The gate in one file: punycheck.toml names the program, the check and
/// its baseline; the first run writes the baseline the file names (which
/// does not exist yet), which makes its cause known in the next, keeping
/// the notes written into it when it is written again; and a recorded
/// cause that no longer reproduces fails the check.
#[test]
fn a_configured_gate_with_a_baseline() {
    let w = wrapper();
    let dir = std::env::temp_dir().join(format!("punycheck-gate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The RFC wrapper, except that it accepts `ab-c_d` (libidn2's bug).
    let buggy = format!(
        "exec:sh -c 'if [ \"$1\" = -d ]; then read x; if [ \"$x\" = ab-c_d ]; then echo u+0061; echo u+0062; echo u+0080; exit 0; fi; printf \"%s\\n\" \"$x\" | {w} -d; exit $?; fi; exec {w} \"$@\"' sh"
    );
    let config = format!(
        "[implementation]\nspec = {:?}\nmax-encode = 256\nmax-decode = 256\n\n[check]\nseconds = 600\ncases = 100\nseed = 5\nbaseline = \"baseline.toml\"\njunit = \"report.xml\"\n",
        buggy
    );
    std::fs::write(dir.join("punycheck.toml"), config).unwrap();
    let in_dir = |args: &[&str]| {
        Command::new(common::BIN)
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let first = in_dir(&["check", "--write-baseline", "baseline.toml"]);
    let report = text(&first.stdout);
    assert_eq!(
        first.status.code(),
        Some(1),
        "{report}{}",
        text(&first.stderr)
    );
    // Exit status 1 is the run's verdict on what it recorded, and it says
    // so (docs/checking.md): not a failure to record.
    assert!(
        text(&first.stderr).contains("cause")
            && text(&first.stderr).contains(" in baseline.toml; this run exits 1"),
        "{}",
        text(&first.stderr)
    );
    assert!(report.contains("ab-c_d"), "{report}");
    let recorded = std::fs::read_to_string(dir.join("baseline.toml")).unwrap();
    assert!(recorded.contains("accepts-invalid"), "{recorded}");
    // The JUnit file of the recording run is its report, not a setup error.
    let junit = std::fs::read_to_string(dir.join("report.xml")).unwrap();
    assert!(!junit.contains("type=\"setup\""), "{junit}");
    // A note written into the baseline survives writing it again.
    let noted = recorded.replace(
        "kind = \"accepts-invalid\"",
        "kind = \"accepts-invalid\"\nnote = \"read in its source\"",
    );
    assert_ne!(noted, recorded, "{recorded}");
    std::fs::write(dir.join("baseline.toml"), &noted).unwrap();
    let rewritten = in_dir(&["check", "--write-baseline", "baseline.toml"]);
    assert_eq!(rewritten.status.code(), Some(1));
    let kept = std::fs::read_to_string(dir.join("baseline.toml")).unwrap();
    assert!(kept.contains("note = \"read in its source\""), "{kept}");
    let second = in_dir(&["check"]);
    let report = text(&second.stdout);
    assert_eq!(
        second.status.code(),
        Some(0),
        "{report}{}",
        text(&second.stderr)
    );
    // Every recorded cause is still there, met by this run or shown again
    // by its reproducer.
    let recorded = kept.matches("[[cause]]").count();
    assert!(recorded >= 2, "{kept}");
    assert!(
        common::verdict(&report)
            .starts_with(&format!("PASSES ON ITS BASELINE: {recorded} known causes ")),
        "{report}"
    );
    // Fixed: the recorded cause no longer reproduces, which fails.
    let fixed = format!("exec:{w}");
    let third = in_dir(&["check", "--impl", &fixed, "--baseline", "baseline.toml"]);
    let report = text(&third.stdout);
    assert_eq!(
        third.status.code(),
        Some(1),
        "{report}{}",
        text(&third.stderr)
    );
    assert!(report.contains("no longer reproduce"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// UTS #46's own parameters on the command line: the reference answers
/// under them (`faß` is `fass` with Transitional Processing), a value
/// other than the default with other rules is a usage error that says
/// why, and `list` says why the `idna` crate is not among the built-ins
/// under them.
#[test]
fn uts46s_own_parameters_change_the_answer_and_go_with_uts46_only() {
    let transitional = ["--codec", "label", "--transitional-processing", "true"];
    let out = run(&[&transitional[..], &["encode", "--impl", "label-ref", "faß"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("fass"), "{}", text(&out.stdout));
    let out = run(&["--codec", "label", "encode", "--impl", "label-ref", "faß"]);
    assert!(
        text(&out.stdout).contains("xn--fa-hia"),
        "{}",
        text(&out.stdout)
    );
    let out = run(&[
        "--codec",
        "label",
        "--label-rules",
        "idna2008",
        "--check-bidi",
        "false",
        "encode",
        "--impl",
        "label-ref",
        "a",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--check-bidi, --check-joiners"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&[&transitional[..], &["list"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Transitional_Processing"),
        "{}",
        text(&out.stdout)
    );
}
