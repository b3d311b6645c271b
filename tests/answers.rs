//! How a program's answers and failures are described and judged, end to
//! end through `punycheck check`: what it printed is quoted bounded, with
//! its length, however long it was; what it says when it fails is shown
//! without splitting one cause into many; and a failure without an error
//! kind beyond a declared limit is that limit, not a finding.
//!
//! The program is `tests/impls/answers.py`, pyny's correct codec behind
//! `pipe:` with the answers these tests need.

use crate::common;

use std::path::PathBuf;

use common::{punycheck, python};

const ANSWERS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/answers.py");

/// The most a text report or a message about one huge answer may take:
/// the answers are 10 MB, the text report of everything else a few
/// kilobytes (the JSON report lists every vector: about 130 KB, bounded by
/// a MiB).
const SMALL: usize = 64 << 10;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn answers(options: &str) -> String {
    format!("pipe:{} {ANSWERS} {options} --pipe", python())
}

/// A folder of this test run's files.
fn folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punycheck-answers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
    dir
}

/// A shell script in [`folder`], executable: its path.
fn script(name: &str, body: &str) -> String {
    let path = folder().join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("the script is written");
    let made = std::process::Command::new("chmod")
        .arg("+x")
        .arg(&path)
        .status()
        .expect("chmod runs");
    assert!(made.success());
    path.display().to_string()
}

/// A program whose first answer (to the probe) is a 10 MB line is a setup
/// error whose message quotes the start of it and says how long it was,
/// through `pipe:` (a line outside the protocol) and `exec:` (an encoding
/// with a byte that is not printable ASCII).
#[test]
fn a_huge_first_answer_is_a_short_setup_error() {
    let huge = "head -c 10000000 /dev/zero | tr '\\000' x";
    let pipe = script(
        "huge-pipe",
        &format!("while read -r line; do {huge}; echo; done\n"),
    );
    let exec = script("huge-exec", &format!("{huge}; printf '\\001\\n'\n"));
    let specs = [
        (
            format!("pipe:{pipe}"),
            "answered \"xxx",
            "xx\"… (10,000,000 bytes in all), a line that starts with neither ok nor error",
        ),
        (
            format!("exec:{exec}"),
            "output contains byte 0x01, which is not printable ASCII: \"xxx",
            "xx\"… (10,000,002 bytes in all)",
        ),
    ];
    for (spec, start, end) in specs {
        let out = punycheck(&["check", "--impl", &spec, "--cases", "10"]);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{spec}: {stdout}{stderr}");
        assert!(
            stdout.len() + stderr.len() < SMALL,
            "{spec}: {} bytes of output",
            stdout.len() + stderr.len()
        );
        assert!(
            stderr.contains(start) && stderr.contains(end),
            "{spec}: {stderr}"
        );
    }
}

/// A 10 MB answer to one question in the middle of a check is a broken
/// answer whose cause quotes its start, with its length, in the text and
/// the JSON report alike.
#[test]
fn a_huge_answer_is_a_short_cause() {
    let vectors = folder().join("huge.toml");
    let _ = std::fs::remove_file(&vectors);
    let saved = punycheck(&[
        "repro",
        "--impl",
        "rfc-c",
        "--decode=zz",
        "--save",
        vectors.to_str().expect("a UTF-8 path"),
        "--name",
        "huge-answer",
        "--provenance",
        "tests/answers.rs: answers.py --huge zz answers it with 10 MB",
    ]);
    assert!(saved.status.code().is_some(), "{}", text(&saved.stderr));
    let spec = answers("--huge zz");
    let file = vectors.to_str().expect("a UTF-8 path");
    for format in ["text", "json"] {
        let out = punycheck(&[
            "check",
            "--impl",
            &spec,
            "--file",
            file,
            "--seed",
            "1",
            "--cases",
            "50",
            "--no-cost",
            "--format",
            format,
        ]);
        let report = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
        let most = if format == "json" { 1 << 20 } else { SMALL };
        assert!(report.len() < most, "{format}: {} bytes", report.len());
        assert!(
            report.contains("broken answer") && report.contains("(10,000,000 bytes in all)"),
            "{report}"
        );
        let quote = match format {
            "json" => "answered \\\"0123456789",
            _ => "answered \"0123456789",
        };
        assert!(report.contains(quote), "{report}");
    }
}

/// `--errors failure-only` with `--max-encode 256 --max-decode 256`: a
/// program that refuses, with only "failed: ...", whatever is beyond 256
/// (223 code points whose encoding has 257 bytes among them) is honestly
/// declared, and conforming. Without the limits declared, the same
/// refusals are findings, one cause per direction whatever the words of
/// each refusal, and the report shows those words.
#[test]
fn a_failure_beyond_a_declared_limit_is_the_limit_and_its_words_are_shown() {
    let spec = answers("--failed --max 256");
    let base = [
        "check",
        "--impl",
        &spec,
        "--errors",
        "failure-only",
        "--seed",
        "1",
        "--cases",
        "300",
        "--no-cost",
    ];
    let limited = punycheck(&[&base[..], &["--max-encode", "256", "--max-decode", "256"]].concat());
    let report = text(&limited.stdout);
    assert_eq!(
        limited.status.code(),
        Some(0),
        "{report}{}",
        text(&limited.stderr)
    );
    assert!(
        // The vectors of several lengths, in one line with their range.
        report.contains(
            "failed without saying why, which its declared limit explains: its encoding has 257 to "
        ) && report.contains(" bytes, beyond its declared --max-decode 256"),
        "{report}"
    );

    let unlimited = punycheck(&base);
    let report = text(&unlimited.stdout);
    assert_eq!(
        unlimited.status.code(),
        Some(1),
        "{report}{}",
        text(&unlimited.stderr)
    );
    assert!(report.contains("causes (2)"), "{report}");
    for direction in ["encode", "decode"] {
        assert!(
            report.contains(&format!(
                "{direction}: rejects what the reference accepts (reference: success; implementation: failure)"
            )),
            "{report}"
        );
    }
    assert!(
        report.contains("got failed (no error kind given): Illegal char found in "),
        "{report}"
    );
}
