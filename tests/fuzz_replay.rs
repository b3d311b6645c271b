//! A crash of a Punycode fuzz target, from a fuzzing service or a local
//! run, replays with `punycheck repro`: the oracles of `diff_c` (and so of
//! `overflow`) and `uniqueness` end their failure message, which the
//! target panics with, with a `replay: punycheck repro ...` line asking the
//! same question (as `roundtrip`, `diff_idna` and the engine targets already
//! did). Shown on planted wrong answers, and the line run as it is printed.

use crate::common;

use punycheck::fuzz;
use punycheck::harness::compare::Request;
use punycheck::harness::vectors::{CodePoints, Expected};
use punycheck::punycode;

use common::BIN;

/// The `replay: ` line of a failure message, as the words of a command.
fn replay_of(message: &str) -> Vec<String> {
    let line = message.lines().last().unwrap();
    let command = line
        .strip_prefix("replay: punycheck ")
        .unwrap_or_else(|| panic!("the message does not end with a replay line:\n{message}"));
    shell_words::split(command).unwrap()
}

/// Runs a replay command; its output.
fn run(words: &[String]) -> (Option<i32>, String) {
    let out = std::process::Command::new(BIN)
        .args(words)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_diff_c_failure_ends_with_the_repro_command_that_asks_it() {
    // An answer that loses every overflow, as wrapping arithmetic would.
    let wrapping = |request: &Request| match fuzz::cleanroom_answer(request) {
        Expected::Error(punycode::ErrorKind::Overflow) => Expected::Decoded(CodePoints::default()),
        other => other,
    };
    for (request, question) in [
        (
            Request::Decode(b"a-k0902716b".to_vec()),
            "decode \"a-k0902716b\"",
        ),
        (
            Request::Encode {
                code_points: vec![0x61, 0x8000_0080],
                flags: None,
            },
            "encode [u+0061 u+80000080] without flags",
        ),
    ] {
        let message = fuzz::diff_c_of(&request, wrapping).unwrap_err();
        let words = replay_of(&message);
        assert_eq!(words[..3], ["repro", "--impl", "cleanroom"], "{message}");
        let (status, out) = run(&words);
        assert_eq!(status, Some(0), "{out}");
        assert!(
            out.contains(&format!("question:        {question}")),
            "{out}"
        );
        assert!(out.contains("error overflow"), "{out}");
    }
}

#[test]
fn a_uniqueness_failure_ends_with_the_repro_command_that_checks_the_property() {
    // An encoder that writes one digit too many.
    let longer = |cps: &[u32], flags: Option<&[bool]>| {
        punycode::encode(cps, flags).map(|mut text| {
            text.push(b'a');
            text
        })
    };
    for text in [&b"egbpdaj6bu4bxfgehfvwxn"[..], b"\x7fa-"] {
        let message = fuzz::uniqueness_of(text, punycode::decode, longer).unwrap_err();
        let words = replay_of(&message);
        assert_eq!(
            words[..4],
            ["repro", "--impl", "cleanroom", "--properties"],
            "{message}"
        );
        let (status, out) = run(&words);
        assert_eq!(status, Some(0), "{out}");
        assert!(out.contains("round trip and uniqueness hold"), "{out}");
    }
    // The clean-room code itself passes.
    fuzz::uniqueness(b"egbpdaj6bu4bxfgehfvwxn").unwrap();
}
