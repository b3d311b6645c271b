//! The gates of the real implementations wrapped in `adapters/`. Each
//! `adapters/gates/NAME.toml` is run as a CI job of that project would run
//! it, `punycheck check --config adapters/gates/NAME.toml` from the
//! project's root, and must pass against its baseline: every deviation of
//! that implementation is recorded there (and read in its source, in
//! `adapters/FINDINGS.md`), none is new, and every recorded one still
//! reproduces.
//!
//! An adapter whose implementation is not installed (`bash
//! adapters/install.sh` installs them all) is left out, and `cargo test`'s
//! normal output says so, above the test's `ok`: `SKIPPED gate NAME: its
//! implementation is not installed ...` (written past libtest's capture,
//! see `common::skip`); with `PUNYCHECK_ADAPTERS=all`, which `.ci/run` sets
//! after running `install.sh`, a missing one fails its test. CPython and
//! Node are on every machine of this project's kind, so their gates always
//! run.
//!
//! The `label_*` gates check the A-label layer (`--codec label`) of the
//! adapters in `adapters/label/`, their deviations read in their sources in
//! `adapters/label/NOTES.md`; the `domain_*` gates whole domain names
//! (`--codec domain`) through `adapters/domain/`, each cause's note in its
//! baseline.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::BIN;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `pipe:` command of a gate file, as words.
fn command_of(gate: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(gate)).unwrap();
    let config: toml::Table = text.parse().unwrap();
    let spec = config["implementation"]["spec"].as_str().unwrap();
    let command = spec.strip_prefix("pipe:").expect("a pipe: spec");
    shell_words::split(command).unwrap()
}

/// Runs the adapter, with `extra` arguments, on `stdin`.
fn run_adapter(words: &[String], extra: &[&str], stdin: &str) -> Result<Output, String> {
    let mut child = Command::new(&words[0])
        .args(&words[1..])
        .args(extra)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{} does not start: {e}", words[0]))?;
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().map_err(|e| e.to_string())
}

/// Whether the adapter runs and its implementation answers, as `install.sh`
/// checks it: `a`, `é` encode to `a-bga`. `Err` says why not.
fn available(words: &[String]) -> Result<(), String> {
    let out = run_adapter(words, &["-e"], "u+0061 u+00E9\n")?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if stdout.trim() == "a-bga" {
        Ok(())
    } else {
        Err(format!(
            "encodes a, e-acute as {stdout:?} ({})",
            why_line(&String::from_utf8_lossy(&out.stderr))
        ))
    }
}

/// The line of an adapter's standard error that says why it failed, so that
/// a skip stays one line: the first that names an error (Node's `Error:
/// Cannot find module` comes after a stack of other lines), or else the last.
fn why_line(stderr: &str) -> &str {
    let mut lines = stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    lines
        .clone()
        .find(|l| l.contains("Error") || l.contains("error") || l.starts_with("Can't"))
        .or_else(|| lines.next_back())
        .unwrap_or("nothing on standard error")
}

/// What the adapter answers through `pipe:` to `questions`, one line each.
fn ask_pipe(words: &[String], questions: &str) -> String {
    let out = run_adapter(words, &[], questions).unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Whether a pipe adapter runs and its implementation answers `question`
/// with `want`, as `install.sh` checks it; `what` says the question in
/// words for the message.
fn answers(words: &[String], question: &str, want: &str, what: &str) -> Result<(), String> {
    let out = run_adapter(words, &[], question)?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if stdout.trim() == want {
        Ok(())
    } else {
        Err(format!(
            "{what} as {stdout:?} ({})",
            why_line(&String::from_utf8_lossy(&out.stderr))
        ))
    }
}

/// Whether a label adapter runs and its implementation answers:
/// `xn--bcher-kva` decodes to `bücher`.
fn label_available(words: &[String]) -> Result<(), String> {
    answers(
        words,
        "decode xn--bcher-kva\n",
        "ok u+0062 u+00FC u+0063 u+0068 u+0065 u+0072",
        "decodes xn--bcher-kva",
    )
}

/// Whether a domain adapter runs and its implementation answers:
/// `bücher.de` encodes to `xn--bcher-kva.de`.
fn domain_available(words: &[String]) -> Result<(), String> {
    answers(
        words,
        "encode u+0062 u+00FC u+0063 u+0068 u+0065 u+0072 u+002E u+0064 u+0065\n",
        "ok xn--bcher-kva.de",
        "encodes bücher.de",
    )
}

/// Whether a validator's adapter runs and its implementation answers
/// (`--answers verdict`): `bücher.de` is valid.
fn validator_available(words: &[String]) -> Result<(), String> {
    answers(
        words,
        "encode u+0062 u+00FC u+0063 u+0068 u+0065 u+0072 u+002E u+0064 u+0065\n",
        "valid",
        "judges bücher.de",
    )
}

/// Runs one gate; `always` for an implementation every machine has.
fn gate(name: &str, always: bool) {
    let gate = format!("adapters/gates/{name}.toml");
    let words = command_of(&gate);
    let label = name.starts_with("label_");
    let domain = name.starts_with("domain_");
    let validator = name.starts_with("validator_");
    let available = if label {
        label_available(&words)
    } else if domain {
        domain_available(&words)
    } else if validator {
        validator_available(&words)
    } else {
        available(&words)
    };
    if let Err(why) = available {
        assert!(
            !always,
            "{gate}: the adapter is not available: {why} (bash adapters/install.sh installs it)"
        );
        common::skip(
            &format!("gate {name}"),
            &format!("its implementation is not installed: {why}"),
            "bash adapters/install.sh installs it",
        );
        return;
    }
    // Our adapter, not the implementation, must carry every byte: a text
    // that starts with a space, empty payloads (Ruby's awk-style
    // `split(' ')` once dropped the space, and the report blamed the
    // library). A label adapter carries a label in another case and one
    // with a non-ASCII character.
    if domain {
        // A name crosses as tokens both ways: an empty name, and one in
        // another case, are the implementation's to answer (an adapter of
        // ToASCII only is asked the second to encode).
        let text = std::fs::read_to_string(root().join(&gate)).unwrap();
        let config: toml::Table = text.parse().unwrap();
        let encode_only =
            config["implementation"].get("directions") == Some(&toml::Value::from("encode-only"));
        let capitals = if encode_only {
            "encode u+0041 u+002E u+0042\n"
        } else {
            "decode u+0041 u+002E u+0042\n"
        };
        for question in ["encode\n", capitals] {
            let answer = ask_pipe(&words, question);
            assert!(
                answer.starts_with("ok")
                    || (answer.starts_with("error") && !answer.contains("adapter")),
                "{gate}: the adapter does not pass {question:?} on: {answer}"
            );
        }
        // Every domain adapter answers the escaped form, so that a name
        // holding a control is asked and its answer comes back:
        // `xn--a-bga` as its bytes.
        let answer = ask_pipe(&words, "encodex u+0061 u+00E9\n");
        assert!(
            answer == "ok 786e2d2d612d626761\n" || answer.starts_with("error failed"),
            "{gate}: the adapter does not answer encodex: {answer}"
        );
    } else if label {
        assert_eq!(
            ask_pipe(&words, "encode u+0062 u+00FC u+0063 u+0068 u+0065 u+0072\n"),
            "ok xn--bcher-kva\n",
            "{gate}: the adapter does not pass its questions on as they are"
        );
        // Refused or taken (CPython refuses the first, Go takes the second),
        // but by the implementation, not by the adapter.
        for question in ["decode XN--BCHER-KVA\n", "decode xn--\u{304C}-\n"] {
            let answer = ask_pipe(&words, question);
            assert!(
                answer.starts_with("ok")
                    || (answer.starts_with("error") && !answer.contains("adapter")),
                "{gate}: the adapter does not pass {question:?} on: {answer}"
            );
        }
    } else if validator {
        // A verdict on any name, the empty one and one that only its
        // escaped form carries included: the implementation's, not the
        // adapter's.
        for question in ["encode\n", "encode u+002D\n", "decodex 61\n"] {
            let answer = ask_pipe(&words, question);
            assert!(
                answer.starts_with("valid") || answer.starts_with("invalid"),
                "{gate}: the adapter does not pass {question:?} on: {answer}"
            );
        }
    } else {
        assert_eq!(
            ask_pipe(&words, "decode  a-\nencode u+0020\ndecode\nencode\n"),
            "ok u+0020 u+0061\nok  -\nok\nok\n",
            "{gate}: the adapter does not pass its questions on as they are"
        );
    }
    let out = Command::new(BIN)
        .args(["check", "--config", &gate])
        .current_dir(root())
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{gate}: new or gone causes:\n{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A label or domain gate asks every Unicode class both ways at its
    // size (issue 45).
    if label || domain || validator {
        common::assert_every_unicode_class_asked(&gate, &report);
    }
    // A gate with a baseline passes on it, and says so; one without
    // conforms.
    let verdict = common::verdict(&report);
    assert!(
        verdict == "CONFORMING" || verdict.starts_with("PASSES ON ITS BASELINE: "),
        "{gate}:\n{report}"
    );
}

/// A gate left out for want of its implementation shows in `cargo test`'s
/// normal output, and fails with `PUNYCHECK_ADAPTERS=all`. The test binary
/// runs its own `ruby_simpleidn` test with an empty `PATH`, where `ruby`
/// cannot start, as a fresh machine without the adapters would.
#[test]
fn a_skipped_gate_shows_in_the_test_output() {
    let empty = std::env::temp_dir().join(format!("punycheck-no-path-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let run = |all: bool| {
        let mut test = Command::new(std::env::current_exe().unwrap());
        test.args(["adapters::ruby_simpleidn", "--exact"])
            .env("PATH", &empty)
            .env_remove("PUNYCHECK_ADAPTERS");
        if all {
            test.env("PUNYCHECK_ADAPTERS", "all");
        }
        test.output().unwrap()
    };
    let skipped = run(false);
    let all = run(true);
    let _ = std::fs::remove_dir(&empty);
    let text = |out: &Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    assert!(skipped.status.success(), "{}", text(&skipped));
    assert!(
        String::from_utf8_lossy(&skipped.stderr).contains(
            "SKIPPED gate ruby_simpleidn: its implementation is not installed: ruby does not start"
        ),
        "the skip is not in the test's output:\n{}",
        text(&skipped)
    );
    assert!(text(&skipped).contains("1 passed"), "{}", text(&skipped));
    assert!(!all.status.success(), "{}", text(&all));
    assert!(
        text(&all).contains("PUNYCHECK_ADAPTERS=all requires it"),
        "{}",
        text(&all)
    );
}

macro_rules! gates {
    ($($name:ident: $always:expr,)*) => {
        $(
            #[test]
            fn $name() {
                gate(stringify!($name), $always);
            }
        )*

        /// Every gate file has its test above, its baseline, and the
        /// project's root as its root.
        #[test]
        fn every_gate_file_is_run() {
            let entry_path = |file: &str| root().join("adapters/gates").join(file);
            let tested = [$(stringify!($name)),*];
            for entry in std::fs::read_dir(root().join("adapters/gates")).unwrap() {
                let file = entry.unwrap().file_name().into_string().unwrap();
                if file.ends_with(".baseline.toml") {
                    continue;
                }
                let name = file.strip_suffix(".toml").expect("only TOML files");
                assert!(tested.contains(&name), "adapters/gates/{file} has no test");
                assert!(
                    root().join(format!("adapters/gates/{name}.baseline.toml")).exists(),
                    "adapters/gates/{file} has no baseline"
                );
                // Self-contained: its paths are the project's root's, from
                // any working directory (docs/checking.md, tests/gate_paths.rs).
                let text = std::fs::read_to_string(entry_path(&file)).unwrap();
                let gate: toml::Table = text.parse().unwrap();
                assert_eq!(
                    gate.get("root").and_then(toml::Value::as_str),
                    Some("../.."),
                    "adapters/gates/{file} does not say root = \"../..\""
                );
            }
        }
    };
}

gates! {
    cpython_codec: true,
    node_builtin: true,
    npm_punycode_2_3_1: false,
    npm_punycode_1_4_1: false,
    libidn: false,
    xnet_idna: false,
    jdk_punycode: false,
    perl_xs: false,
    perl_pp: false,
    ruby_addressable: false,
    ruby_simpleidn: false,
    rust_idna_0_1_5: false,
    rust_punycode_0_4_1: false,
    label_node_url: true,
    label_idna_1_1_0: false,
    label_idna_0_5_0: false,
    label_go_lookup: false,
    label_go_display: false,
    label_python_idna: false,
    label_cpython_idna: true,
    domain_node_url: true,
    domain_tr46_strict: false,
    domain_tr46_url: false,
    domain_tr46_defaults: false,
    domain_tr46_transitional: false,
    domain_node_host: true,
    domain_whatwg_url: false,
    domain_whatwg_url_16: false,
    domain_python_idna: false,
    domain_cpython_idna: true,
    domain_go_lookup: false,
    domain_go_display: false,
    domain_idna_1_1_0: false,
    domain_idna_1_1_0_strict: false,
    domain_perl_idn_encode: false,
    domain_ruby_addressable: false,
    validator_jsonschema_py: false,
    validator_hyperjump: false,
}

/// `check --config GATE` with `plant` (`tests/impls/plant_in_front.py`)
/// in front of the gate's own adapter: its status and report.
fn planted_gate(name: &str, plant: &str) -> (Option<i32>, String) {
    let gate = format!("adapters/gates/{name}.toml");
    let words = command_of(&gate);
    let spec = format!(
        "pipe:{} tests/impls/plant_in_front.py {plant} {}",
        common::python(),
        shell_words::join(&words)
    );
    let out = Command::new(BIN)
        .args(["check", "--config", &gate, "--impl", &spec])
        .current_dir(root())
        .output()
        .unwrap();
    let report =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), report)
}

/// The cause a report gives for `witness` (its numbered line and the
/// indented lines under it, the numbered line's number left out), when
/// there is one.
fn cause_with(report: &str, witness: &str) -> Option<String> {
    let mut blocks: Vec<String> = Vec::new();
    for line in report.lines() {
        let numbered = line
            .strip_prefix("  ")
            .and_then(|l| l.split_once(". "))
            .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        match (numbered, blocks.last_mut()) {
            (Some((_, rest)), _) => blocks.push(rest.to_string()),
            (None, Some(block)) if line.starts_with("     ") => {
                block.push('\n');
                block.push_str(line);
            }
            _ => {}
        }
    }
    blocks.into_iter().find(|b| b.contains(witness))
}

/// Issue 46: a baseline hides no new refusal. CPython's IDNA codec, whose
/// gate records its refusals of valid labels to decode (and pass on it,
/// as the gate test above shows), with a planted refusal of every question
/// holding a `q` in front of it, in each direction alone: the gate fails
/// on a new cause named by its minimized witness (beside the known
/// refusals of decoding, which its baseline records), and its reproducer
/// reproduces.
#[test]
fn a_planted_refusal_fails_a_gate_whose_baseline_records_a_refusal() {
    for direction in ["decode", "encode"] {
        let (status, report) = planted_gate(
            "label_cpython_idna",
            &format!("refuse-letter:q:{direction}"),
        );
        assert_eq!(status, Some(1), "{report}");
        let cause = cause_with(&report, "planted: refuses q")
            .unwrap_or_else(|| panic!("no cause of the planted refusal:\n{report}"));
        assert!(
            cause.starts_with(&format!("{direction}: rejects what the reference accepts")),
            "{cause}"
        );
        assert!(!cause.contains("[known"), "{cause}");
        if direction == "decode" {
            // Beside the recorded refusals of decoding, named by its own
            // short witness: the A-label holding the q, minimized through
            // its code points (`xn--aaaa-qqa`), or the q itself.
            assert!(
                cause.contains(
                    "NEW: new beside a known cause of the same class: the shortest refused: \""
                ),
                "{cause}"
            );
            let input = cause
                .lines()
                .find_map(|l| l.trim().strip_prefix("input: decode "))
                .and_then(|l| l.split(" (").next())
                .unwrap_or_else(|| panic!("no input: {cause}"));
            assert!(input.contains('q') && input.len() < 40, "{cause}");
        } else {
            assert!(cause.contains("input: encode [u+0071]"), "{cause}");
        }
        let line = cause
            .lines()
            .find_map(|l| l.trim().strip_prefix("reproduce: punycheck "))
            .unwrap_or_else(|| panic!("no reproducer: {cause}"));
        let words = shell_words::split(line).unwrap();
        let again = Command::new(BIN)
            .args(&words)
            .current_dir(root())
            .output()
            .unwrap();
        assert_eq!(again.status.code(), Some(1), "{line}");
    }
}

/// Issue 46: a refusal that follows the size is a limit cause of its own.
/// CPython's IDNA codec on whole names, whose gate records only refusals
/// of short names to decode, with a planted refusal of every answer to
/// decode longer than 400 bytes: the gate fails on a new cause, a size
/// limit with the size it begins at.
#[test]
fn a_planted_limit_is_a_cause_of_its_own_beside_a_short_refusal() {
    let (status, report) = planted_gate("domain_cpython_idna", "refuse-longer:400:decode");
    assert_eq!(status, Some(1), "{report}");
    let cause = cause_with(&report, "planted: too long")
        .unwrap_or_else(|| panic!("no cause of the planted limit:\n{report}"));
    assert!(
        cause.contains(
            "NEW: new beside a known cause of the same class: a size limit: refused from about "
        ),
        "{cause}"
    );
}
