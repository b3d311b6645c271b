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
/// user would paste it into a shell.
pub fn run_first_reproducer(report: &str) -> Output {
    let repro = report
        .lines()
        .find_map(|l| l.trim().strip_prefix("reproduce: punycheck "))
        .unwrap_or_else(|| panic!("no reproducer in\n{report}"));
    let words = shell_words::split(repro).expect("the reproducer is a shell command");
    Command::new(BIN)
        .args(&words)
        .output()
        .expect("punycheck runs")
}
