//! `so:` libraries: C code with Appendix C's two functions, checked in a
//! worker process.
//!
//! The libraries are `tests/impls/planted.c`, an independent Punycode
//! behind Appendix C's interface, compiled here with `cc` into a temporary
//! folder: as it is (conforming), and with one `-D` switch per planted
//! defect or interface change (listed at the top of the file). No test
//! depends on speed: each run is bounded by `--cases` or `--fail-fast`,
//! with a generous `--seconds` ceiling.

use crate::common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use common::{BIN, punycheck, run_first_reproducer};
use punycheck::engines::so::InProcess;
use punycheck::engines::{Declaration, Engine, EngineError, So};

const PLANTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/impls/planted.c");
const RFC_C: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/crates/punycheck/csrc/punycode.c"
);

/// A folder of this test run's libraries.
fn folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punycheck-so-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
    dir
}

/// `source` compiled into a shared library with `flags`, once per run.
fn library(source: &str, flags: &[&str]) -> PathBuf {
    static BUILT: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    let key = format!("{source} {}", flags.join(" "));
    let mut built = BUILT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(path) = built.get(&key) {
        return path.clone();
    }
    let path = folder().join(format!("lib{}.so", built.len()));
    let out = Command::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&path)
        .args(flags)
        .arg(source)
        .output()
        .expect("the C compiler runs");
    assert!(
        out.status.success(),
        "cc {flags:?} {source}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    built.insert(key, path.clone());
    path
}

fn planted(flags: &[&str]) -> String {
    library(PLANTED, flags).display().to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `check` of `spec` with `more` options, bounded by cases.
fn check(spec: &str, more: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec![
        "check",
        "--impl",
        spec,
        "--seed",
        "1",
        "--seconds",
        "600",
        "--timeout",
        "20",
        // These libraries follow RFC 3492's quadratic algorithm: their
        // timing is tests/cost.rs's business, not these tests'.
        "--no-cost",
    ];
    args.extend_from_slice(more);
    let out = punycheck(&args);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_write_one_past_the_output_is_a_crash_with_a_reproducer_that_reproduces() {
    let spec = format!("so:{}", planted(&["-DPLANT_OFF_BY_ONE"]));
    let (code, report, stderr) = check(&spec, &["--fail-fast", "--cases", "200"]);
    assert_eq!(code, Some(1), "{report}{stderr}");
    assert!(report.contains(": crash ("), "{report}");
    // The guard page after the array says which element was written.
    assert!(
        report.contains("killed by signal 11 (SIGSEGV): wrote "),
        "{report}"
    );
    assert!(report.contains("past the end of the"), "{report}");
    let again = run_first_reproducer("planted.c through so:", &report);
    let replay = text(&again.stdout);
    assert_eq!(
        again.status.code(),
        Some(1),
        "{replay}{}",
        text(&again.stderr)
    );
    assert!(replay.contains("crashed: killed by signal 11"), "{replay}");
}

#[test]
fn the_correct_library_and_the_rfc_code_as_a_library_are_conforming() {
    let rfc = library(RFC_C, &["-Dmain=rfc3492_wrapper_main"]);
    for spec in [
        format!("so:{}", planted(&[])),
        format!("so:{}", rfc.display()),
    ] {
        let (code, report, stderr) = check(&spec, &["--cases", "1500"]);
        assert_eq!(code, Some(0), "{spec}\n{report}{stderr}");
        assert_eq!(common::verdict(&report), "CONFORMING", "{report}");
        let n = builtin_vectors();
        assert!(report.contains(&format!("{n} of {n} run")), "{report}");
    }
}

#[test]
fn a_missing_symbol_is_a_setup_error_unless_its_direction_is_declared_away() {
    let decoder = format!("so:{}", planted(&["-DNO_ENCODE"]));
    let (code, report, stderr) = check(&decoder, &["--cases", "100"]);
    assert_eq!(code, Some(2), "{report}{stderr}");
    assert!(stderr.contains("has no symbol punycode_encode"), "{stderr}");
    assert!(stderr.contains("declare --decode-only"), "{stderr}");
    let (code, report, stderr) = check(&decoder, &["--decode-only", "--cases", "300"]);
    assert_eq!(code, Some(0), "{report}{stderr}");
    assert!(report.contains("decode only"), "{report}");

    let encoder = format!("so:{}", planted(&["-DNO_DECODE"]));
    let (code, _, stderr) = check(&encoder, &["--cases", "100"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("has no symbol punycode_decode"), "{stderr}");
    let (code, report, stderr) = check(&encoder, &["--encode-only", "--cases", "300"]);
    assert_eq!(code, Some(0), "{report}{stderr}");
}

#[test]
fn a_prefix_and_size_t_lengths_are_declared_in_the_spec() {
    let path = planted(&["-DPREFIX=my_", "-DLENGTH_T=size_t"]);
    let (code, report, stderr) = check(
        &format!("so:{path}:my_:lengths=size_t"),
        &["--cases", "300"],
    );
    assert_eq!(code, Some(0), "{report}{stderr}");
    let (code, _, stderr) = check(&format!("so:{path}:lengths=size_t"), &["--cases", "10"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("has no symbol punycode_encode"), "{stderr}");
    assert!(stderr.contains("so:PATH:PREFIX"), "{stderr}");
    let (code, _, stderr) = check(&format!("so:{path}:my_:lengths=long"), &["--cases", "10"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("unknown length type"), "{stderr}");
}

#[test]
fn libraries_that_cannot_be_loaded_are_setup_errors() {
    let not_a_library = folder().join("not-a-library.so");
    std::fs::write(&not_a_library, "int main;\n").expect("writable");
    for (spec, says) in [
        (
            "so:/nonexistent/libpuny.so".to_string(),
            "cannot load /nonexistent/libpuny.so",
        ),
        (format!("so:{}", not_a_library.display()), "cannot load"),
        ("so:".to_string(), "needs the path of a shared library"),
    ] {
        let (code, report, stderr) = check(&spec, &["--cases", "10"]);
        assert_eq!(code, Some(2), "{spec}: {report}{stderr}");
        assert!(stderr.contains(says), "{spec}: {stderr}");
    }
    let out = punycheck(&[
        "--codec", "lace", "check", "--impl", "so:/x.so", "--cases", "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("so: libraries are Punycode"),
        "{}",
        text(&out.stderr)
    );
}

/// A vector file with one decoding question per input, the C reference's
/// answer expected (written by `punycheck repro --save`).
fn vectors_with(inputs: &[&str]) -> PathBuf {
    let file = folder().join(format!("{}.toml", inputs.join("-")));
    let _ = std::fs::remove_file(&file);
    for input in inputs {
        let out = punycheck(&[
            "repro",
            "--impl",
            "rfc-c",
            &format!("--decode={input}"),
            "--save",
            file.to_str().expect("a UTF-8 path"),
            "--name",
            &format!("planted-trigger-{input}"),
            "--provenance",
            "A trigger of a planted defect of tests/impls/planted.c",
        ]);
        assert!(out.status.code().is_some(), "{}", text(&out.stderr));
    }
    file
}

#[test]
fn a_library_that_hangs_or_aborts_is_a_finding_and_the_run_goes_on() {
    let spec = format!("so:{}", planted(&["-DPLANT_HANG", "-DPLANT_ABORT"]));
    let file = vectors_with(&["hang", "abort"]);
    let file = file.to_str().expect("a UTF-8 path");
    let out = punycheck(&[
        "check",
        "--impl",
        &spec,
        "--file",
        file,
        "--seed",
        "1",
        "--cases",
        "300",
        "--seconds",
        "600",
        "--no-cost",
        "--timeout",
        "0.5",
    ]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(report.contains(": hang ("), "{report}");
    assert!(report.contains("killed by signal 6 (SIGABRT)"), "{report}");
    // Everything else ran: every other vector passed, and the generated
    // questions were all asked.
    let n = builtin_vectors();
    assert!(
        report.contains(&format!("{} of {} run: {n} passed", n + 2, n + 2)),
        "{report}"
    );
    assert!(
        report.contains("generated: 300 questions, 300 identical"),
        "{report}"
    );
    common::assert_every_reproducer_exits_1("so:", &report);
}

#[test]
fn a_library_that_prints_on_standard_output_is_still_conforming() {
    let spec = format!("so:{}", planted(&["-DPLANT_STDOUT"]));
    let (code, report, stderr) = check(&spec, &["--cases", "300"]);
    assert_eq!(code, Some(0), "{report}{stderr}");
    assert!(!report.contains("planted:"), "{report}");
}

#[test]
fn statuses_and_lengths_outside_the_interface_are_broken_answers() {
    let spec = format!(
        "so:{}",
        planted(&["-DPLANT_BAD_STATUS", "-DPLANT_BAD_LENGTH"])
    );
    for (input, says) in [
        (
            "status!",
            "returned status 42, which is not a punycode_status (0 to 3)",
        ),
        ("length!", "beyond the room for 7 code points it was given"),
    ] {
        let out = punycheck(&["repro", "--impl", &spec, &format!("--decode={input}")]);
        let replay = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{replay}{}", text(&out.stderr));
        assert!(replay.contains(says), "{replay}");
    }
}

/// The engine itself, outside the CLI: a crash is an answer, and the next
/// question goes to a new worker.
#[test]
fn after_a_crash_the_next_question_gets_a_new_worker() {
    let so = So::new(
        &planted(&["-DPLANT_OFF_BY_ONE"]),
        Declaration::default(),
        Duration::from_secs(20),
        PathBuf::from(BIN),
    )
    .expect("the library loads");
    match so.decode(b"bcher-kva") {
        Err(EngineError::Crashed(why)) => {
            assert!(
                why.contains("wrote case_flags[5], past the end of the 5 elements"),
                "{why}"
            );
        }
        other => panic!("{other:?}"),
    }
    // No code point to insert, so the planted check is never reached.
    let decoded = so.decode(b"abc-").expect("a new worker answers");
    assert_eq!(decoded.code_points, vec![0x61, 0x62, 0x63]);
    assert_eq!(so.encode(&[0x61, 0xE9], None).expect("encodes"), b"a-bga");
}

/// The in-process engine of the fuzz target answers as the worker does.
#[test]
fn the_in_process_engine_answers_as_the_worker() {
    let path = planted(&[]);
    let here = InProcess::load(&path, Declaration::default()).expect("loads");
    let there = So::new(
        &path,
        Declaration::default(),
        Duration::from_secs(20),
        PathBuf::from(BIN),
    )
    .expect("loads");
    for input in [
        &b"bcher-kva"[..],
        b"",
        b"a-",
        b"-a",
        b"w29b",
        b"99999999999",
    ] {
        assert_eq!(here.decode(input), there.decode(input), "{input:?}");
    }
    let flags = [true, false, true];
    assert_eq!(
        here.encode(&[0x61, 0xE9, 0x1F600], Some(&flags)),
        there.encode(&[0x61, 0xE9, 0x1F600], Some(&flags))
    );
    assert!(InProcess::load("/nonexistent/lib.so", Declaration::default()).is_err());
}

/// The children of process `pid` (all its threads'), from /proc.
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(Result::ok)
        .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
        .flat_map(|c| {
            c.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// Whether process `pid` exists and is not a zombie.
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .next()?
                .to_string();
            Some(state != "Z" && state != "X")
        })
        .unwrap_or(false)
}

/// Polls `what` every 50 ms until it holds or `limit` passes.
fn eventually(limit: Duration, mut what: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if what() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    what()
}

#[test]
fn the_worker_dies_with_punycheck() {
    let spec = format!("so:{}", planted(&["-DPLANT_HANG"]));
    let mut child = Command::new(BIN)
        .args([
            "repro",
            "--impl",
            &spec,
            "--timeout",
            "1000",
            "--decode=hang",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("punycheck starts");
    let mut workers = Vec::new();
    let found = eventually(Duration::from_secs(60), || {
        workers = children(child.id());
        !workers.is_empty()
    });
    assert!(found, "punycheck started no worker");
    assert!(workers.iter().all(|&w| running(w)));
    child.kill().expect("punycheck is killed");
    child.wait().expect("and reaped");
    let gone = eventually(Duration::from_secs(60), || {
        !workers.iter().any(|&w| running(w))
    });
    assert!(gone, "workers {workers:?} outlived punycheck");
}

#[test]
fn libidn_1_x_is_checked_through_size_t_lengths() {
    // GNU libidn 1.x: the same causes as its exec: adapter (adapters/VERDICTS.md).
    // A bare name is searched as dlopen(3) searches.
    let spec = "so:libidn.so.12:lengths=size_t";
    // A machine without libidn 1.x skips this with a visible line, as the
    // adapter gates do (CI installs it and requires it).
    let loads = punycheck(&["repro", "--impl", spec, "--decode=bcher-kva"]);
    if text(&loads.stderr).contains("cannot load libidn.so.12") {
        common::skip(
            "so: test of GNU libidn 1.x",
            "libidn.so.12 is not installed",
            "apt-get install libidn12",
        );
        return;
    }
    let out = punycheck(&[
        "repro",
        "--impl",
        spec,
        "--domain",
        "unicode",
        "--decode=-a",
    ]);
    let replay = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{replay}{}", text(&out.stderr));
    assert!(replay.contains("[u+0097]"), "{replay}");
    let out = punycheck(&["repro", "--impl", spec, "--decode=bcher-kva"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{} (libidn 1.x: apt-get install libidn12; CI installs it)",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// The fuzz targets' oracle, on libraries loaded into this process.
#[test]
fn the_fuzz_oracle_judges_as_check_does() {
    use punycheck::fuzz::engines::{RFC3492_SO, diff_engine};
    use punycheck::vocabulary::Request;
    let questions = [
        Request::Decode(b"bcher-kva".to_vec()),
        Request::Decode(b"-a".to_vec()),
        Request::Decode(b"w29b".to_vec()),
        Request::Decode(b"status!".to_vec()),
        Request::Encode {
            code_points: vec![0x61, 0xE9, 0x1F600],
            flags: Some(vec![true, false, false]),
        },
        Request::Encode {
            code_points: vec![0x100, 0xFFFF_FFFF],
            flags: None,
        },
    ];
    let rfc = InProcess::load(RFC3492_SO, Declaration::default()).expect("loads");
    let bad =
        InProcess::load(&planted(&["-DPLANT_BAD_STATUS"]), Declaration::default()).expect("loads");
    for question in &questions {
        assert_eq!(
            diff_engine(&rfc, question, true, "replay"),
            Ok(()),
            "{question}"
        );
        // Where this build has them (crates/punycheck/tests/system_libraries.rs
        // says when it does not).
        #[cfg(feature = "libidn2")]
        if !punycheck::engines::left_out("libidn2") {
            assert_eq!(
                punycheck::fuzz::engines::diff_libidn2(question),
                Ok(()),
                "{question}"
            );
        }
        #[cfg(feature = "icu")]
        if !punycheck::engines::left_out("icu") {
            assert_eq!(
                punycheck::fuzz::engines::diff_icu(question),
                Ok(()),
                "{question}"
            );
        }
        let verdict = diff_engine(&bad, question, true, "punycheck repro --impl so:bad.so");
        if question == &Request::Decode(b"status!".to_vec()) {
            let e = verdict.expect_err("status 42 is not an answer");
            assert!(e.contains("status 42"), "{e}");
            assert!(
                e.contains("punycheck repro --impl so:bad.so --decode=status!"),
                "{e}"
            );
        } else {
            assert_eq!(verdict, Ok(()), "{question}");
        }
    }
}

/// `adapters/c/so_template.c` builds warning-free and loads; unfilled, it
/// refuses the probe with a message that says what to check.
#[test]
fn the_c_template_builds_loads_and_says_it_is_not_filled_in() {
    let template = concat!(env!("CARGO_MANIFEST_DIR"), "/adapters/c/so_template.c");
    let path = library(template, &["-Wall", "-Wextra", "-Werror"]);
    let (code, report, stderr) = check(&format!("so:{}", path.display()), &["--cases", "10"]);
    assert_eq!(code, Some(2), "{report}{stderr}");
    assert!(
        stderr.contains("refused the probe to encode u+0061 u+00E9"),
        "{stderr}"
    );
    assert!(stderr.contains("Appendix C's signatures"), "{stderr}");
}

/// How many Punycode vectors punycheck carries.
fn builtin_vectors() -> usize {
    punycheck::harness::vectors::load(&[])
        .unwrap()
        .iter()
        .filter(|c| c.codec == punycheck::codec::Codec::Punycode)
        .count()
}
