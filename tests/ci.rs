//! The command line as an unattended CI job meets it: exit statuses in
//! `--help`, no panic on any argument or on a closed pipe, the JSON and
//! JUnit reports beside the text (parsed, and the JSON validated against
//! `docs/report.schema.json`), reports of a setup error, `encode` answering
//! line by line, a built-in's time limit, and regression files that stay
//! loadable.

use crate::common;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::{BIN, assert_valid, punycheck as run, python, run_first_reproducer};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("punycheck-ci-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A program with causes in both vectors and generated questions: pyny
/// (`tests/impls/pyny.py`, annotations and all) with its decoder's digits
/// 0-9 off by one, behind `pipe:` so that a check takes a second or two.
fn wrong_program() -> String {
    let pyny = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/pyny.py");
    format!("pipe:{} {pyny} --pipe --bug digit-offset", python())
}

#[test]
fn help_lists_the_exit_statuses() {
    for args in [&["--help"][..], &["check", "--help"][..]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0));
        let help = text(&out.stdout);
        assert!(help.contains("Exit status:"), "{args:?}: {help}");
        for status in ["  0  ", "  1  ", "  2  ", "  3  ", "  130 "] {
            assert!(help.contains(status), "{args:?}: {help}");
        }
    }
}

/// Each command's reader goes away before it reads anything, as with
/// `punycheck list | head -0`: the command ends quietly, never with a
/// panic's status 101.
#[test]
fn a_closed_standard_output_ends_a_command_quietly() {
    let commands: &[&[&str]] = &[
        &["list"],
        &[],
        &["--codec", "utf8"],
        &["vectors", "--impl", "cleanroom"],
        &["diff", "--impl", "cleanroom", "--cases", "200"],
        &["bench", "--quick"],
        &["encode", "a", "b"],
        &["repro", "--decode=a-"],
    ];
    for args in commands {
        let mut child = Command::new(BIN)
            .args(*args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn numbers_out_of_range_get_a_clear_error() {
    let cases: &[&[&str]] = &[
        &["check", "--seconds", "1e300"],
        &["check", "--seconds", "1e19"],
        &["check", "--seconds", "-5"],
        &["check", "--timeout", "1e300"],
        &["encode", "--timeout", "1e300", "a"],
        &["diff", "--impl", "idna", "--seconds=-1"],
        &["diff", "--impl", "idna", "--seconds", "nan"],
        &["diff", "--impl", "idna", "--seconds", "0"],
        &["diff", "--impl", "idna", "--timeout", "inf"],
        &["bench", "--seconds-per-case", "-1"],
        &["check", "--cases", "-1"],
        &["check", "--seed", "18446744073709551616"],
    ];
    for args in cases {
        let out = run(args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // The message names the value given, in a line a person reads.
        assert!(
            err.lines().next().is_some_and(|l| l.len() < 200),
            "{args:?}: {err}"
        );
    }
}

fn attributes(start: &quick_xml::events::BytesStart) -> Vec<(String, String)> {
    start
        .attributes()
        .map(|a| {
            let a = a.unwrap();
            (
                text(a.key.as_ref()),
                a.normalized_value(quick_xml::XmlVersion::Explicit1_0)
                    .unwrap()
                    .into_owned(),
            )
        })
        .collect()
}

/// The elements of a JUnit document with their attributes, in order.
fn elements(xml: &str) -> Vec<(String, Vec<(String, String)>)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = Vec::new();
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) | Event::Empty(e) => {
                out.push((text(e.name().as_ref()), attributes(&e)))
            }
            Event::Eof => break,
            _ => {}
        }
    }
    out
}

fn has(attrs: &[(String, String)], name: &str) -> bool {
    attrs.iter().any(|(k, _)| k == name)
}

fn attr<'a>(attrs: &'a [(String, String)], name: &str) -> &'a str {
    attrs.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v)
}

/// The JSON report's schema.
fn schema_validator() -> jsonschema::Validator {
    common::schema_validator("docs/report.schema.json")
}

/// One run writes the text report to standard output, and the JSON and
/// JUnit reports to their files; both parse, the JSON follows its schema,
/// and the JUnit has what the common schemas ask for.
#[test]
fn json_and_junit_files_beside_the_text_report() {
    let dir = temp_dir("outputs");
    let json_path = dir.join("report.json");
    let junit_path = dir.join("report.xml");
    let program = wrong_program();
    let check = |seed: &str| {
        run(&[
            "check",
            "--impl",
            &program,
            "--seed",
            seed,
            "--cases",
            "60",
            "--seconds",
            "600",
            // pyny is near the cost probe's budget at its largest sizes,
            // and further on a loaded machine: timing is tests/cost.rs's.
            "--no-cost",
            "--json",
            json_path.to_str().unwrap(),
            "--junit",
            junit_path.to_str().unwrap(),
        ])
    };
    let out = check("5");
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(
        common::verdict(&report).starts_with("NONCONFORMING: "),
        "{report}"
    );
    let again = run_first_reproducer("the wrong program", &report);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again.stdout));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_valid(&schema_validator(), &json);
    assert_eq!(json["version"], 9);
    assert_eq!(json["status"], "nonconforming");
    // Declared as it is: pyny has annotations.
    assert_eq!(json["declaration"]["annotations"], true);
    let causes = json["causes"].as_array().unwrap();
    assert!(!causes.is_empty());
    // Questions as data: a decoding's bytes are the bytes of its text.
    let results = json["vectors"]["results"].as_array().unwrap();
    let failed: Vec<&serde_json::Value> =
        results.iter().filter(|r| r["status"] == "fail").collect();
    assert!(!failed.is_empty());
    let repro: Vec<&str> = json["repro_commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    for vector in &failed {
        let command = vector["reproduce"].as_str().unwrap();
        assert!(repro.contains(&command), "{command} not in repro_commands");
        let cause = vector["cause"].as_u64().unwrap() as usize;
        assert!(
            causes[cause]["vectors"]
                .as_array()
                .unwrap()
                .contains(&vector["name"])
        );
    }
    let decode = failed
        .iter()
        .find(|r| r["question"]["direction"] == "decode")
        .unwrap();
    let bytes: Vec<u8> = decode["question"]["bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect();
    let case = punycheck::harness::vectors::builtin()
        .unwrap()
        .into_iter()
        .find(|c| c.name == decode["name"].as_str().unwrap())
        .unwrap();
    assert_eq!(
        punycheck::harness::runner::request_of(&case),
        punycheck::vocabulary::Request::Decode(bytes)
    );
    assert!(decode["question"]["code_points"].is_null());
    assert!(decode["expected"]["code_points"].is_array());

    let xml = std::fs::read_to_string(&junit_path).unwrap();
    let elements = elements(&xml);
    let (root, root_attrs) = &elements[0];
    assert_eq!(root, "testsuites");
    // Jenkins' schema allows no `skipped` on <testsuites>.
    assert!(!has(root_attrs, "skipped"), "{root_attrs:?}");
    let suites: Vec<_> = elements.iter().filter(|(n, _)| n == "testsuite").collect();
    assert_eq!(suites.len(), 1);
    for name in [
        "name",
        "tests",
        "failures",
        "errors",
        "skipped",
        "time",
        "timestamp",
        "hostname",
    ] {
        assert!(has(&suites[0].1, name), "testsuite without {name}");
    }
    let cases: Vec<_> = elements.iter().filter(|(n, _)| n == "testcase").collect();
    for (_, a) in &cases {
        for name in ["name", "classname", "time"] {
            assert!(has(a, name), "testcase without {name}: {a:?}");
        }
    }
    for (_, a) in elements.iter().filter(|(n, _)| n == "failure") {
        assert!(has(a, "type") && has(a, "message"), "{a:?}");
    }
    assert_eq!(attr(&suites[0].1, "tests"), cases.len().to_string());
    // One test case per vector and per cause, and three about the check.
    let vectors = json["vectors"]["cases"].as_u64().unwrap() as usize;
    assert_eq!(cases.len(), vectors + causes.len() + 3);
    let failures = elements.iter().filter(|(n, _)| n == "failure").count();
    assert_eq!(attr(&suites[0].1, "failures"), failures.to_string());
    assert!(failures >= failed.len() + causes.len(), "{failures}");
    let names = |elements: &[(String, Vec<(String, String)>)]| -> BTreeSet<String> {
        elements
            .iter()
            .filter(|(n, a)| {
                n == "testcase" && attr(a, "classname").starts_with("punycheck.vectors")
            })
            .map(|(_, a)| attr(a, "name").to_string())
            .collect()
    };
    let first = names(&elements);
    assert_eq!(first.len(), vectors, "vector test case names are unique");
    // Another seed: the same vector test cases, by name.
    let again = check("6");
    assert_eq!(again.status.code(), Some(1));
    let second = names(&self::elements(
        &std::fs::read_to_string(&junit_path).unwrap(),
    ));
    assert_eq!(first, second);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A check that cannot start still writes both reports, each saying why,
/// and prints the chosen format's on standard output.
#[test]
fn a_setup_error_writes_an_error_report_to_each_file() {
    let dir = temp_dir("setup");
    let json_path = dir.join("report.json");
    let junit_path = dir.join("report.xml");
    for bad in [
        &["--impl", "nope"][..],
        &["--impl", "exec:/nonexistent/program"][..],
        &["--impl", "cleanroom", "--file", "/nonexistent.toml"][..],
        // No implementation named, nor a punycheck.toml to name one.
        &[][..],
        &["--config", "/nonexistent.toml"][..],
    ] {
        let out = run(&[
            &["check", "--format", "json"][..],
            bad,
            &[
                "--json",
                json_path.to_str().unwrap(),
                "--junit",
                junit_path.to_str().unwrap(),
            ][..],
        ]
        .concat());
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
        assert_valid(&schema_validator(), &json);
        assert_eq!(json["status"], "error", "{bad:?}");
        let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(printed["error"], json["error"]);
        let xml = std::fs::read_to_string(&junit_path).unwrap();
        let elements = elements(&xml);
        let error = elements
            .iter()
            .find(|(n, _)| n == "error")
            .expect("an error");
        assert_eq!(attr(&error.1, "type"), "setup");
        assert!(!attr(&error.1, "message").is_empty());
        let _ = std::fs::remove_file(&json_path);
        let _ = std::fs::remove_file(&junit_path);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `encode` answers a line as soon as it is read: the answer to the first
/// line comes back while standard input is still open.
#[test]
fn encode_and_decode_answer_each_line_before_the_next() {
    for (command, first, answer, second, answer2) in [
        ("encode", "bücher", "bcher-kva", "abc", "abc-"),
        ("decode", "bcher-kva", "bücher", "abc-", "abc"),
    ] {
        let mut child = Command::new(BIN)
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        writeln!(stdin, "{first}").unwrap();
        stdin.flush().unwrap();
        // Blocks until the answer is written: it must come before EOF.
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line, format!("{answer}\n"));
        line.clear();
        writeln!(stdin, "{second}").unwrap();
        drop(stdin);
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line, format!("{answer2}\n"));
        assert_eq!(child.wait().unwrap().code(), Some(0));
    }
}

/// A built-in implementation on an input that takes it minutes: its
/// answer is abandoned at --timeout, the line reported as hung.
#[test]
fn a_built_in_that_takes_too_long_is_abandoned_at_the_timeout() {
    // 10^6 code points, half of them from five values: quadratic decoders
    // take minutes (see docs/performance.md).
    let input: Vec<u32> = (0..1_000_000u32)
        .map(|k| {
            if k % 2 == 0 {
                0x61 + k % 26
            } else {
                [0xE4, 0xE9, 0xF6, 0xFC, 0x161][(k / 2 % 5) as usize]
            }
        })
        .collect();
    let punycode = punycheck::punycode::encode(&input, None).unwrap();
    let mut child = Command::new(BIN)
        .args([
            "decode",
            "--codepoints",
            "--impl",
            "idna",
            "--timeout",
            "0.5",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&punycode).unwrap();
    stdin.write_all(b"\nabc-\n").unwrap();
    drop(stdin);
    let out: Output = child.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("line 1: hung") && err.contains("abandoned"),
        "{err}"
    );
}

/// Regression files stay loadable: the same question saved twice is saved
/// once, two questions saved in the same second without --name get two
/// names, and a LACE question saved into an empty file gets its codec line.
#[test]
fn saved_regressions_stay_loadable() {
    let dir = temp_dir("regressions");
    let file = dir.join("saved.toml");
    let path = file.to_str().unwrap();
    for question in ["--decode=ab-c_d", "--decode=a-", "--decode=ab-c_d"] {
        let out = run(&["repro", "--impl", "cleanroom", question, "--save", path]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let cases = punycheck::harness::vectors::load(&[path.to_string()]).unwrap();
    let saved: Vec<_> = cases
        .iter()
        .filter(|c| c.file.ends_with("saved.toml"))
        .collect();
    assert_eq!(saved.len(), 2, "{:?}", std::fs::read_to_string(&file));
    assert_ne!(saved[0].name, saved[1].name);
    // The same finding saved by two checks is saved once.
    let found = dir.join("found.toml");
    let found_path = found.to_str().unwrap();
    let program = wrong_program();
    let mut saved = Vec::new();
    for _ in 0..2 {
        let out = run(&[
            "check",
            "--impl",
            &program,
            "--seed",
            "5",
            "--cases",
            "20",
            "--seconds",
            "600",
            "--no-cost",
            "--fail-fast",
            "--save-regressions",
            found_path,
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        saved.push(std::fs::read_to_string(&found).unwrap());
    }
    assert!(saved[0].contains("name = "), "{}", saved[0]);
    assert_eq!(saved[0], saved[1], "the same finding was saved twice");
    let out = run(&["vectors", "--impl", "cleanroom", "--file", found_path]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    // A LACE question into an existing empty file.
    let lace = dir.join("lace.toml");
    std::fs::write(&lace, "").unwrap();
    let lace_path = lace.to_str().unwrap();
    let out = run(&[
        "repro",
        "--codec",
        "lace",
        "--impl",
        "cleanroom",
        "--encode",
        "u+0061 u+00E9",
        "--no-flags",
        "--save",
        lace_path,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let saved = std::fs::read_to_string(&lace).unwrap();
    assert!(saved.contains("codec = \"lace\""), "{saved}");
    let out = run(&[
        "vectors",
        "--codec",
        "lace",
        "--impl",
        "cleanroom",
        "--file",
        lace_path,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The option names of the real command line, with values of every shape
/// that matters: any argument vector built from them ends with a status of
/// 0 to 3 and no panic. Each run is bounded: one still running after a few
/// seconds is stopped, and what it printed so far is checked.
mod arguments {
    use super::*;
    use proptest::prelude::*;

    const COMMANDS: &[&str] = &[
        "check",
        "diff",
        "vectors",
        "encode",
        "decode",
        "repro",
        "list",
        "bench",
        "rfc-wrapper",
        "wrapper-path",
        "help",
        "nope",
    ];
    const OPTIONS: &[&str] = &[
        "--impl",
        "--seconds",
        "--timeout",
        "--cases",
        "--seed",
        "--format",
        "--json",
        "--junit",
        "--codec",
        "--domain",
        "--errors",
        "--max-encode",
        "--max-decode",
        "--file",
        "--config",
        "--baseline",
        "--save",
        "--name",
        "--encode",
        "--decode",
        "--decode-hex",
        "--utf8",
        "--max-size",
        "--seconds-per-case",
        "--no-annotations",
        "--decode-only",
        "--encode-only",
        "--fail-fast",
        "--no-flags",
        "--codepoints",
        "--properties",
        "--quick",
        "--verbose",
        "--help",
        "--version",
    ];
    const VALUES: &[&str] = &[
        "0",
        "1",
        "-1",
        "-5",
        "0.5",
        "1e300",
        "1e19",
        "-0",
        "nan",
        "inf",
        "-inf",
        "18446744073709551616",
        "99999999999999999999999",
        "",
        " ",
        "x",
        "u+FFFFFFFF",
        "U+0061 u+00E9",
        "u+110000*100000",
        "ab-c_d",
        "ww902716a",
        "zz",
        "cleanroom",
        "idna",
        "rfc-c",
        "exec:",
        "exec:'",
        "exec:/nonexistent",
        "punycode",
        "lace",
        "utf8",
        "amc-ace-z",
        "json",
        "junit",
        "text",
        "unicode",
        "u32",
        "kinds",
        "failure-only",
        "strict",
        "rfc2279",
        "/nonexistent/dir/file",
        "-e",
        "-d",
        "--",
        "\u{1}",
        "é",
    ];

    fn argument() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(OPTIONS).prop_map(String::from),
            prop::sample::select(VALUES).prop_map(String::from),
            (prop::sample::select(OPTIONS), prop::sample::select(VALUES))
                .prop_map(|(o, v)| format!("{o}={v}")),
        ]
    }

    fn arguments() -> impl Strategy<Value = Vec<String>> {
        (
            prop::option::of(prop::sample::select(COMMANDS)),
            prop::collection::vec(argument(), 0..6),
        )
            .prop_map(|(command, rest)| command.map(String::from).into_iter().chain(rest).collect())
    }

    /// Runs punycheck on `args` in a scratch directory for at most
    /// `limit`; its status (`None` when stopped) and standard error.
    fn bounded(args: &[String], limit: Duration) -> (Option<i32>, String) {
        let dir = temp_dir("args");
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = stderr.read_to_end(&mut text);
            text
        });
        let status = wait_timeout::ChildExt::wait_timeout(&mut child, limit).unwrap();
        let code = match status {
            Some(status) => status.code(),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                None
            }
        };
        let err = reader.join().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        (code, String::from_utf8_lossy(&err).into_owned())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn no_argument_vector_makes_punycheck_panic(args in arguments()) {
            let (code, err) = bounded(&args, Duration::from_secs(3));
            prop_assert!(!err.contains("panicked"), "{args:?}: {err}");
            if let Some(code) = code {
                prop_assert!((0..=3).contains(&code), "{args:?} exited {code}: {err}");
            }
        }
    }
}

/// libidn2 and ICU are cargo features: this build has each, or names it as
/// missing in `list`, never neither.
#[test]
fn list_names_the_built_ins_this_build_lacks() {
    use punycheck::codec::Codec;
    use punycheck::engines::{builtin_names, missing_for};
    let listed = text(&run(&["list"]).stdout);
    for name in ["libidn2", "icu"] {
        let built = builtin_names().iter().any(|n| n == name);
        let missing = missing_for(Codec::Punycode).iter().any(|m| m.name == name);
        assert!(built != missing, "{name}");
        assert!(listed.contains(&format!("  {name} ")), "{listed}");
        assert_eq!(
            listed.contains("not in this build"),
            !missing_for(Codec::Punycode).is_empty()
        );
    }
}

/// The failures and errors of a JUnit document, by their elements, after
/// checking that the suite's counts say the same.
fn junit_failures_and_errors(xml: &str) -> (usize, usize) {
    let elements = elements(xml);
    let count = |name: &str| elements.iter().filter(|(n, _)| n == name).count();
    let (failures, errors) = (count("failure"), count("error"));
    let suite = elements
        .iter()
        .find(|(n, _)| n == "testsuite")
        .expect("a testsuite");
    assert_eq!(attr(&suite.1, "failures"), failures.to_string(), "{xml}");
    assert_eq!(attr(&suite.1, "errors"), errors.to_string(), "{xml}");
    (failures, errors)
}

/// A CI page and a job's status never disagree: the JUnit file has no
/// failure and no error exactly when the check exits 0, whether it found
/// nothing, found causes, found only causes its baseline records, ran out
/// of time, or could not start. (An
/// interrupted check: `tests/processes.rs`.)
#[test]
fn junit_agrees_with_the_exit_status() {
    let dir = temp_dir("agree");
    let junit = dir.join("report.xml");
    let baseline = dir.join("baseline.toml");
    let program = wrong_program();
    let pyny = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/pyny.py");
    let slow = format!("pipe:{} {pyny} --pipe --delay 0.5", python());
    let wrong = [
        "--impl",
        &program,
        "--seed",
        "5",
        "--cases",
        "300",
        "--seconds",
        "600",
        // pyny is near the cost probe's budget at its largest sizes: its
        // timing is tests/cost.rs's business.
        "--no-cost",
    ];
    let recorded = run(&[
        &["check", "--write-baseline"][..],
        &[baseline.to_str().unwrap()],
        &wrong,
    ]
    .concat());
    assert_eq!(
        recorded.status.code(),
        Some(1),
        "{}",
        text(&recorded.stdout)
    );
    let written = std::fs::read_to_string(&baseline).unwrap();
    // The wrong program breaks its own round trips by decoding wrongly:
    // that is its decoding's cause, recorded once, not a property cause
    // beside it.
    assert!(written.contains("kind = \"wrong-output\""), "{written}");
    assert!(!written.contains("property = true"), "{written}");
    let runs: &[(&str, Vec<&str>, i32)] = &[
        (
            "conforming",
            vec!["--impl", "cleanroom", "--cases", "50", "--seconds", "600"],
            0,
        ),
        ("nonconforming", wrong.to_vec(), 1),
        (
            "every cause in the baseline",
            [&wrong[..], &["--baseline", baseline.to_str().unwrap()]].concat(),
            0,
        ),
        // Half a second an answer: 400 vectors cannot run in 3 s.
        (
            "not everything ran",
            vec!["--impl", &slow, "--seconds", "3", "--no-cost"],
            3,
        ),
        // A billion questions promised by --cases cannot be asked in 2 s:
        // a run cut short, not a pass.
        (
            "fewer questions than --cases",
            vec![
                "--impl",
                "cleanroom",
                "--cases",
                "1000000000",
                "--seconds",
                "2",
            ],
            3,
        ),
        ("cannot start", vec!["--impl", "nope"], 2),
        ("no implementation", vec![], 2),
    ];
    for (what, args, status) in runs {
        let _ = std::fs::remove_file(&junit);
        let out = Command::new(BIN)
            .arg("check")
            .args(args)
            .args(["--junit", junit.to_str().unwrap()])
            .current_dir(&dir)
            .output()
            .unwrap();
        let report = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(*status),
            "{what}: {report}{}",
            text(&out.stderr)
        );
        let xml = std::fs::read_to_string(&junit)
            .unwrap_or_else(|e| panic!("{what}: no JUnit file: {e}"));
        let (failures, errors) = junit_failures_and_errors(&xml);
        assert_eq!(
            failures + errors == 0,
            *status == 0,
            "{what}: exit {status} with {failures} failures and {errors} errors\n{xml}"
        );
        match status {
            1 => assert!(failures > 0, "{what}: {xml}"),
            2 | 3 => assert!(errors > 0, "{what}: {xml}"),
            _ => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A check that names no implementation, on the command line or in
/// `punycheck.toml`, checks nothing and says so: a job run from the wrong
/// directory must not pass by checking a built-in.
#[test]
fn a_check_without_an_implementation_is_refused() {
    let dir = temp_dir("no-impl");
    let in_dir = |args: &[&str]| {
        Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let nothing = in_dir(&["check", "--cases", "10"]);
    let err = text(&nothing.stderr);
    assert_eq!(nothing.status.code(), Some(2), "{err}");
    assert!(nothing.stdout.is_empty(), "{}", text(&nothing.stdout));
    assert!(
        err.contains("no implementation to check")
            && err.contains("--impl")
            && err.contains("no punycheck.toml"),
        "{err}"
    );
    // A configuration without `spec` names none either.
    std::fs::write(dir.join("punycheck.toml"), "[check]\ncases = 10\n").unwrap();
    let empty = in_dir(&["check"]);
    let err = text(&empty.stderr);
    assert_eq!(empty.status.code(), Some(2), "{err}");
    assert!(
        err.contains("punycheck.toml in") && err.contains("names none"),
        "{err}"
    );
    // Named in the file, it runs.
    std::fs::write(
        dir.join("punycheck.toml"),
        "[implementation]\nspec = \"cleanroom\"\n\n[check]\ncases = 10\nseconds = 600\n",
    )
    .unwrap();
    let named = in_dir(&["check"]);
    assert_eq!(named.status.code(), Some(0), "{}", text(&named.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A report file that cannot be written is said once, as the error it is.
#[test]
fn an_unwritable_report_file_is_said_once() {
    let out = run(&[
        "check",
        "--impl",
        "cleanroom",
        "--junit",
        "/nonexistent/dir/report.xml",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err.matches("/nonexistent/dir/report.xml").count(),
        1,
        "{err}"
    );
}

/// `punycheck list` speaks in the values the options take, not in the
/// names of Rust types.
#[test]
fn list_shows_the_values_one_types() {
    let out = run(&["list"]);
    let listing = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    for typed in [
        "domain u32",
        "domain unicode,",
        "errors kinds",
        "errors failure-only",
    ] {
        assert!(listing.contains(typed), "{typed}: {listing}");
    }
    for internal in [
        "UnicodeScalar",
        "FailureOnly",
        "Kinds",
        "U32",
        "Bytes",
        "Utf8",
    ] {
        assert!(!listing.contains(internal), "{internal}: {listing}");
    }
    assert!(listing.contains("pipe:CMD"), "{listing}");
    let help = text(&run(&["check", "--help"]).stdout);
    assert!(help.contains("pipe:COMMAND"), "{help}");
}

/// The text report leads with the causes, and says each reason vectors
/// were not asked once: a declared limit skips hundreds of vectors of as
/// many lengths, in one line per direction with the range of lengths.
#[test]
fn the_text_report_leads_with_causes_and_summarises_what_was_not_asked() {
    let program = wrong_program();
    let out = run(&[
        "check",
        "--impl",
        &program,
        "--max-encode",
        "100",
        "--max-decode",
        "100",
        "--seed",
        "5",
        "--cases",
        "60",
        "--seconds",
        "600",
    ]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    let limits: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("  vectors not asked") && l.contains("exceed its limit of 100"))
        .collect();
    assert_eq!(limits.len(), 2, "{report}");
    for line in limits {
        assert!(line.contains(" to "), "a range of lengths: {line}");
    }
    let causes = report.find("\ncauses (").expect("causes");
    let not_asked = report.find("\nnot asked or classified").expect("not asked");
    assert!(causes < not_asked, "{report}");
}

/// Paths in `punycheck.toml` are taken from the working directory, as on
/// the command line, and a file named there that cannot be read says so.
#[test]
fn a_configured_path_that_cannot_be_read_says_where_it_was_looked_for() {
    let dir = temp_dir("config-paths");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("sub/gate.toml"),
        "[implementation]\nspec = \"cleanroom\"\n\n[check]\nbaseline = \"baseline.toml\"\n",
    )
    .unwrap();
    // Beside the file, but not in the working directory.
    std::fs::write(dir.join("sub/baseline.toml"), "").unwrap();
    let out = Command::new(BIN)
        .args(["check", "--config", "sub/gate.toml", "--cases", "10"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot read baseline.toml")
            && err.contains("taken from the working directory"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
