//! Helpers shared by the tests that run the `punycheck` binary.

// Each test binary uses a part of these.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_punycheck");

/// Runs `punycheck` with `args`.
pub fn punycheck(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("punycheck runs")
}

/// Runs the first `reproduce: punycheck ...` command of a report, as a
/// user would paste it into a shell. `what` names the check that made the
/// report (a planted bug, a program), for the message when it has none.
pub fn run_first_reproducer(what: &str, report: &str) -> Output {
    let repro = report
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce: punycheck "))
        .unwrap_or_else(|| panic!("{what}: no reproducer in the report:\n{report}"));
    let words = shell_words::split(repro)
        .unwrap_or_else(|e| panic!("{what}: the reproducer is not a shell command ({e}): {repro}"));
    Command::new(BIN)
        .args(&words)
        .output()
        .expect("punycheck runs")
}

/// Runs the first reproducer of `report` and asserts that it exits 1: it
/// reproduces.
pub fn assert_first_reproducer_exits_1(what: &str, report: &str) {
    let again = run_first_reproducer(what, report);
    assert_eq!(
        again.status.code(),
        Some(1),
        "{what}: the reproducer does not reproduce:\n{}{}",
        String::from_utf8_lossy(&again.stdout),
        String::from_utf8_lossy(&again.stderr)
    );
}

/// Runs every `reproduce: punycheck ...` command of a report from the
/// project's root, as a user would paste it into a shell there, and
/// asserts that each exits 1: it reproduces. `what` names the check that
/// made the report. Says how many there were.
pub fn assert_every_reproducer_exits_1(what: &str, report: &str) -> usize {
    let reproducers: Vec<&str> = report
        .lines()
        .filter_map(|l| l.trim().strip_prefix("reproduce: punycheck "))
        .collect();
    for repro in &reproducers {
        let words = shell_words::split(repro).unwrap_or_else(|e| {
            panic!("{what}: the reproducer is not a shell command ({e}): {repro}")
        });
        let again = Command::new(BIN)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(&words)
            .output()
            .expect("punycheck runs");
        assert_eq!(
            again.status.code(),
            Some(1),
            "{what}: `punycheck {repro}` does not reproduce:\n{}",
            String::from_utf8_lossy(&again.stdout)
        );
    }
    reproducers.len()
}

/// The Python interpreter that `python3` names, as its own path, followed
/// by `-S`: for the test programs under `tests/impls/`, which need only the
/// standard library. A version manager's `python3` is a shell script that
/// finds the interpreter each time it starts, and its `site` may import
/// packages: an `exec:` program started hundreds of times per check took
/// 170 ms a start that way, 35 to 90 ms this way.
pub fn python() -> &'static str {
    static PYTHON: OnceLock<String> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let out = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 runs (it is on every machine of this project's kind)");
        let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert!(
            out.status.success() && !path.is_empty() && !path.contains(char::is_whitespace),
            "python3 does not name its interpreter: {path:?}"
        );
        format!("{path} -S")
    })
}

/// A [`Command`] that starts [`python()`].
pub fn python_command() -> Command {
    let mut words = python().split(' ');
    let mut command = Command::new(words.next().expect("an interpreter"));
    command.args(words);
    command
}

/// Whether `PUNYCHECK_ADAPTERS=all` is set: `.ci/run` sets it after `bash
/// adapters/install.sh`, and then an implementation that is not installed
/// fails its test instead of being skipped.
pub fn all_required() -> bool {
    std::env::var("PUNYCHECK_ADAPTERS").is_ok_and(|v| v == "all")
}

/// Leaves out `what`, which needs something this machine lacks (`why`;
/// `hint` says how to get it), and says so in a line `SKIPPED what: why
/// (hint; PUNYCHECK_ADAPTERS=all makes this a failure)`. The line goes to
/// the test process's standard error itself, so that it is seen: libtest captures
/// `eprintln!` of a passing test and shows nothing of it, so a skipped
/// check read as a pass; a write to the `stderr()` handle is not captured
/// and shows in `cargo test`'s normal output. With [`all_required`] it
/// fails instead.
pub fn skip(what: &str, why: &str, hint: &str) {
    assert!(
        !all_required(),
        "{what}: {why} ({hint}); PUNYCHECK_ADAPTERS=all requires it"
    );
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {what}: {why} ({hint}; PUNYCHECK_ADAPTERS=all makes this a failure)"
    );
}

/// The verdict line of a text report: its last line that is not empty.
pub fn verdict(report: &str) -> &str {
    report
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
}

/// A validator for the JSON Schema at `path`, relative to the repository
/// (`docs/report.schema.json`, `tests/schemas/sarif-schema-2.1.0.json`).
pub fn schema_validator(path: &str) -> jsonschema::Validator {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    let schema: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{full}: {e}"));
    jsonschema::validator_for(&schema).expect("the schema is valid")
}

/// Asserts that `value` follows `validator`'s schema, listing every error.
pub fn assert_valid(validator: &jsonschema::Validator, value: &serde_json::Value) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The `Unicode classes: N of M asked` line of a label or domain check's
/// report says N = M: every class of the references' tables asked both
/// ways.
pub fn assert_every_unicode_class_asked(what: &str, report: &str) {
    let line = report
        .lines()
        .find(|l| l.starts_with("Unicode classes: "))
        .unwrap_or_else(|| panic!("{what}: no Unicode classes line:\n{report}"));
    let words: Vec<&str> = line.split(' ').collect();
    // "Unicode classes: N of M asked, ..."
    assert!(
        words.len() > 5 && words[3] == "of" && words[2] == words[4],
        "{what}: not every class asked: {line}"
    );
}
