//! Regression gates that catch every new bug (issue 30): a baseline that
//! records its witnesses, so a new bug beside a known one of the same class
//! is reported; every byte asked through the escaped channel and the small
//! cases; a program that crashes on the probe is a finding, not a setup
//! error; and an interrupted check always leaves its report.
//!
//! The subjects are pyny (`tests/impls/pyny.py`), whose planted bugs can be
//! combined: `leading-delimiter` reads a delimiter at position 0 as the end
//! of an empty literal part (CPython 3.11's codec does the same), and
//! `underscore-digit` reads `_` as a digit; both are "accepts what the
//! reference rejects (bad_input (not a digit))".

use crate::common;

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Output};

use common::{BIN, python, verdict};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// pyny behind the `pipe:` protocol with `bugs` planted.
fn pyny(bugs: &[&str]) -> String {
    let planted: String = bugs.iter().map(|b| format!(" --bug {b}")).collect();
    format!("pipe:{} tests/impls/pyny.py --pipe{planted}", python())
}

/// A `pipe:` spec for `script`, a Python wrapper (written as `name` in
/// `dir`) of `punycheck serve --impl cleanroom`, whose command it takes.
fn wrapped(dir: &std::path::Path, name: &str, script: &str) -> String {
    let program = dir.join(name);
    std::fs::write(&program, script).unwrap();
    format!(
        "pipe:{} {} {BIN} serve --impl cleanroom",
        python(),
        program.display()
    )
}

/// A folder of its own for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("punycheck-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `check --impl SPEC --seed 1 --cases N --no-cost` and `more`, from the
/// project's root.
fn check(spec: &str, cases: &str, more: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "--impl", spec, "--seed", "1", "--cases", cases])
        .args(["--seconds", "900", "--no-cost"])
        .args(more)
        .output()
        .unwrap()
}

/// The cause of the report that says `NEW:`, as its lines.
fn new_cause(report: &str) -> Vec<&str> {
    let lines: Vec<&str> = report.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("NEW:"))
        .unwrap_or_else(|| panic!("no new cause beside a known one:\n{report}"));
    let end = lines[at..]
        .iter()
        .position(|l| l.trim_start().starts_with("reproduce:"))
        .map_or(lines.len(), |k| at + k + 1);
    lines[at - 1..end].to_vec()
}

/// A baseline recorded on one bug makes it known with its witnesses; a new
/// bug of the same class beside it is a new cause with its own minimized
/// reproducer, which reproduces; the old bug stays known. A baseline
/// written before witnesses still reads, knowing the class, and says so.
#[test]
fn a_new_bug_beside_a_known_one_of_its_class_is_reported() {
    let dir = folder("witnesses");
    let baseline = dir.join("baseline.toml");
    let baseline = baseline.to_str().unwrap();
    let known = pyny(&["leading-delimiter"]);
    let recorded = check(&known, "200", &["--write-baseline", baseline]);
    let report = text(&recorded.stdout);
    assert_eq!(recorded.status.code(), Some(1), "{report}");
    // Ten times the gate's questions.
    assert!(report.contains("generated: 2000 questions"), "{report}");
    let written = std::fs::read_to_string(baseline).unwrap();
    assert!(
        written.contains("explained = [\"the byte 0x2D\"]"),
        "{written}"
    );
    assert!(written.contains("\"small:decode-2d-alone\""), "{written}");

    let same = check(&known, "200", &["--baseline", baseline]);
    let report = text(&same.stdout);
    assert_eq!(same.status.code(), Some(0), "{report}");
    assert!(!report.contains("NEW:"), "{report}");

    let both = pyny(&["leading-delimiter", "underscore-digit"]);
    let json = dir.join("both.json");
    let out = check(
        &both,
        "200",
        &["--baseline", baseline, "--json", json.to_str().unwrap()],
    );
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        verdict(&report).starts_with("NONCONFORMING: 1 new cause (1 known cause"),
        "{report}"
    );
    let cause = new_cause(&report).join("\n");
    assert!(
        cause.contains("the byte 0x5F, where the baseline's witnesses show the byte 0x2D"),
        "{cause}"
    );
    assert!(cause.contains("(reference: bad_input (not a digit); implementation: success)"));
    // Minimized keeping its own byte: never shrunk into the known `-`.
    let input = cause
        .lines()
        .find(|l| l.trim_start().starts_with("input:"))
        .unwrap();
    let question = input.split('"').nth(1).unwrap_or("");
    assert!(question.contains('_') && !question.contains('-'), "{input}");
    let repro = common::run_first_reproducer("the new cause", &cause);
    assert_eq!(repro.status.code(), Some(1), "{}", text(&repro.stdout));
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let causes = data["causes"].as_array().unwrap();
    assert_eq!(causes.iter().filter(|c| c["beside"].is_string()).count(), 1);
    assert_eq!(causes.iter().filter(|c| c["known"] == true).count(), 1);

    // The same baseline without its witnesses: the class alone is known,
    // as before, and the report says how many causes are known so.
    let old: String = written
        .lines()
        .filter(|l| !l.starts_with("vectors =") && !l.starts_with("explained ="))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(baseline, old).unwrap();
    let out = check(&both, "200", &["--baseline", baseline]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        report.contains("records 1 cause by class alone"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A recorded cause whose recorded witnesses now pass has narrowed: the
/// implementation changed where the baseline says it deviates, and the
/// gate fails until the baseline is recorded again. Here two bugs of one
/// class are recorded, and one of them is fixed: the cause is still there
/// (the other bug), and the fixed bug's witnesses now pass.
#[test]
fn a_known_deviation_that_narrows_is_reported() {
    let dir = folder("narrowed");
    let baseline = dir.join("baseline.toml");
    let baseline = baseline.to_str().unwrap();
    let recorded = check(
        &pyny(&["leading-delimiter", "underscore-digit"]),
        "100",
        &["--write-baseline", baseline],
    );
    assert_eq!(
        recorded.status.code(),
        Some(1),
        "{}",
        text(&recorded.stdout)
    );
    let written = std::fs::read_to_string(baseline).unwrap();
    assert!(written.contains("\"the byte 0x5F\""), "{written}");
    assert!(written.contains("\"small:decode-2d-alone\""), "{written}");

    let json = dir.join("narrowed.json");
    let out = check(
        &pyny(&["leading-delimiter"]),
        "100",
        &["--baseline", baseline, "--json", json.to_str().unwrap()],
    );
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(!report.contains("NEW:"), "{report}");
    assert_eq!(
        verdict(&report),
        "NONCONFORMING: 1 baseline cause narrowed (recorded witnesses now pass): record the baseline again",
        "{report}"
    );
    let line = report
        .lines()
        .find(|l| l.trim_start().starts_with("NARROWED:"))
        .unwrap_or_else(|| panic!("{report}"));
    assert!(line.contains("small:decode-5f-"), "{line}");
    assert!(!line.contains("small:decode-2d-"), "{line}");
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    common::assert_valid(&common::schema_validator("docs/report.schema.json"), &data);
    let narrowed = data["baseline"]["narrowed"].as_array().unwrap();
    assert_eq!(narrowed.len(), 1, "{narrowed:?}");
    assert_eq!(narrowed[0]["kind"], "accepts-invalid");
    let passing = narrowed[0]["passing"].as_array().unwrap();
    // The underscore's vector and small cases, and nothing of the `-`.
    assert!(
        passing.iter().all(|n| {
            let n = n.as_str().unwrap();
            n.contains("-5f-") || n.contains("underscore")
        }),
        "{passing:?}"
    );
    assert!(passing.len() >= 2, "{passing:?}");

    // Recorded again on what it is now, the gate passes.
    let again = check(
        &pyny(&["leading-delimiter"]),
        "100",
        &["--write-baseline", baseline],
    );
    assert_eq!(again.status.code(), Some(1), "{}", text(&again.stdout));
    let out = check(
        &pyny(&["leading-delimiter"]),
        "100",
        &["--baseline", baseline],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// U+007F is basic (RFC 3492 section 5): an encoder that takes it for
/// non-basic is found by the small cases through the escaped channel,
/// while the same program over `exec:` (pyny's `-e`/`-d` are the RFC
/// wrapper's, without escaped forms) is still checked, over printable
/// ASCII, and says so.
#[test]
fn every_byte_crosses_an_escaped_channel() {
    let out = check(&pyny(&["del-non-basic"]), "100", &[]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains(
            "small cases (every byte in each place, every code point below 0x100): 2562 of 2562 run"
        ),
        "{report}"
    );
    assert!(report.contains("input: encode [u+007F]"), "{report}");
    assert!(report.contains("small:encode-u+007F-alone"), "{report}");
    assert!(!report.contains("printable ASCII only"), "{report}");

    let exec = format!("exec:{} tests/impls/pyny.py", python());
    let out = check(&exec, "50", &[]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        report.contains("printable ASCII only (no escaped questions answered)"),
        "{report}"
    );
    assert!(report.contains("small cases not asked"), "{report}");
}

/// A program that answers in the protocol but crashes on the probe's
/// question is nonconforming with that crash as a cause and its
/// reproducer (exit 1); one that crashes on every question does not speak
/// the protocol at all: a setup error (exit 2).
#[test]
fn a_crash_on_the_probe_is_a_finding() {
    // Encodes as the clean-room code does, but dies on any decoding of a
    // string with a delimiter (the probe's a-bga among them).
    let script = "import subprocess,sys\n\
        p=subprocess.Popen(sys.argv[1:],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)\n\
        for line in sys.stdin:\n\
        \x20   if line.startswith('decode') and '-' in line: raise IndexError('planted')\n\
        \x20   p.stdin.write(line); p.stdin.flush(); sys.stdout.write(p.stdout.readline()); sys.stdout.flush()\n";
    let dir = folder("probe-crash");
    let spec = wrapped(&dir, "crash.py", script);
    let out = check(&spec, "50", &[]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(report.contains("decode: crash"), "{report}");
    assert!(report.contains("IndexError: planted"), "{report}");
    assert!(report.contains("small:probe-decode"), "{report}");
    let repro = common::run_first_reproducer("the crash", &report);
    assert_eq!(repro.status.code(), Some(1), "{}", text(&repro.stdout));

    // The same crash, caught by the adapter and answered `crash MESSAGE`:
    // the same finding, and the program goes on.
    let caught = script.replace(
        "raise IndexError('planted')",
        "sys.stdout.write('crash IndexError: planted\\n'); sys.stdout.flush(); continue",
    );
    let spec = wrapped(&dir, "caught.py", &caught);
    let out = check(&spec, "50", &[]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(
        report.contains(
            "decode: crash (implementation: raised, caught by its adapter: IndexError: planted)"
        ),
        "{report}"
    );

    // An encoder that writes a non-ASCII byte into its Punycode (a
    // punycode.js mutant did) answers outside the convention on the
    // probe's encoding, and in it on the decodings: it is checked, and
    // the broken answer is a cause.
    let non_ascii = script.replace(
        "if line.startswith('decode') and '-' in line: raise IndexError('planted')",
        "if line.startswith('encode') and 'u+00E9' in line: sys.stdout.write('ok a-\\u00e9\\n'); sys.stdout.flush(); continue",
    );
    let spec = wrapped(&dir, "non-ascii.py", &non_ascii);
    let out = check(&spec, "50", &[]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}{}", text(&out.stderr));
    assert!(report.contains("encode: broken answer"), "{report}");
    let repro = common::run_first_reproducer("the broken answer", &report);
    assert_eq!(repro.status.code(), Some(1), "{}", text(&repro.stdout));

    // A program that answers nothing in the convention does not speak it.
    let always = format!("pipe:{} -c 'raise SystemExit(3)'", python());
    let out = check(&always, "50", &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    // `cat` says back every question: never an answer.
    let out = check("pipe:cat", "50", &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
}

/// SIGTERM at any moment of a check of a program that hangs (in its probe,
/// its small cases, its confirmation) leaves the text report on standard
/// output and the JSON file, marked interrupted, even when the signal
/// arrives twice at once (to the process and to its group, as GNU timeout
/// sends it). The moments are spread over the check; which phase each
/// meets depends on the machine, and every one must report.
#[test]
fn an_interrupt_always_leaves_a_report() {
    // Answers the probe's questions as the clean-room code does, and
    // hangs on every other.
    let script = "import subprocess,sys,time\n\
        p=subprocess.Popen(sys.argv[1:],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)\n\
        for line in sys.stdin:\n\
        \x20   if line.split(' ',1)[-1].strip() not in ('u+0061 u+00E9','a-bga','612d626761'): time.sleep(60)\n\
        \x20   p.stdin.write(line); p.stdin.flush(); sys.stdout.write(p.stdout.readline()); sys.stdout.flush()\n";
    let dir = folder("interrupts");
    let spec = wrapped(&dir, "hang.py", script);
    for (k, after) in [1.0, 2.5, 4.0, 7.0, 12.0].into_iter().enumerate() {
        let json = dir.join(format!("report-{k}.json"));
        let child = Command::new(BIN)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["check", "--impl", &spec, "--cases", "100"])
            .args(["--timeout", "1", "--json", json.to_str().unwrap()])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_secs_f64(after));
        let pid = child.id() as i32;
        // Twice at once: to punycheck, and to its process group.
        // SAFETY: kill(2) on our own child and its group.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
            libc::kill(-pid, libc::SIGTERM);
        }
        let out = child.wait_with_output().unwrap();
        let report = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(130),
            "after {after} s ({:?}): {report}{}",
            out.status,
            text(&out.stderr)
        );
        assert!(
            verdict(&report).starts_with("INTERRUPTED"),
            "after {after} s: {report}"
        );
        let data = std::fs::read_to_string(&json)
            .unwrap_or_else(|e| panic!("after {after} s, no JSON report: {e}"));
        assert!(data.contains("\"status\": \"interrupted\""), "{data}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
