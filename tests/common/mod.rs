//! Helpers shared by the tests that run the `punycheck` binary.

use std::process::{Command, Output};

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
