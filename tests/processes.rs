//! Every process an `exec:` or `pipe:` program starts ends with the run:
//! at its end, and when punycheck is interrupted, including children that
//! left the program's process group with `setsid`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// The binary under test.
const BIN: &str = env!("CARGO_BIN_EXE_punycheck");

/// The RFC's own test wrapper, compiled by the build script.
const RFC_WRAPPER: &str = punycheck::c_reference::WRAPPER;

/// The ids of the running processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat
            .rfind(')')
            .is_some_and(|k| stat[k + 1..].trim_start().starts_with('Z'));
        if !zombie && String::from_utf8_lossy(&cmdline).contains(marker) {
            found.push(pid);
        }
    }
    found
}

/// Waits (up to a minute, for a loaded machine) until no process carries
/// `marker`; the ones left, if any.
fn left_after_waiting(marker: &str) -> Vec<u32> {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let left = processes_with(marker);
        if left.is_empty() || Instant::now() > end {
            return left;
        }
        thread::sleep(Duration::from_millis(100));
    }
}

/// A `sleep` duration no other process uses, to find our sleepers by.
fn marker(tag: u32) -> String {
    format!("6{tag:02}.{}", std::process::id())
}

fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    path.display().to_string()
}

fn kill(pids: &[u32]) {
    for pid in pids {
        let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
    }
}

#[test]
fn children_that_leave_the_group_end_with_the_check() {
    let dir = tempfile_dir("setsid");
    let marker = marker(1);
    // Each run leaves a child in a session of its own, then answers as the
    // RFC's wrapper does.
    let program = script(
        &dir,
        "leaves-children",
        &format!("setsid sleep {marker} </dev/null >/dev/null 2>&1 &\nexec {RFC_WRAPPER} \"$@\"\n"),
    );
    let out = Command::new(BIN)
        .args([
            "check",
            "--impl",
            &format!("exec:{program}"),
            "--cases",
            "40",
            "--seconds",
            "600",
            "--seed",
            "1",
            // The RFC's wrapper's own limits (256 code points or bytes).
            "--max-encode",
            "256",
            "--max-decode",
            "256",
        ])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    let left = left_after_waiting(&marker);
    kill(&left);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        left.is_empty(),
        "{} children of the program outlived the check",
        left.len()
    );
}

#[test]
fn sigterm_ends_every_program_and_its_children() {
    let dir = tempfile_dir("sigterm");
    let in_group = marker(2);
    let own_session = marker(3);
    let adapter = Path::new(env!("CARGO_MANIFEST_DIR")).join("adapters/python/cpython_codec.py");
    let program = script(
        &dir,
        "pipe-with-children",
        &format!(
            "sleep {in_group} </dev/null >/dev/null 2>&1 &\n\
             setsid sleep {own_session} </dev/null >/dev/null 2>&1 &\n\
             exec python3 {}\n",
            adapter.display()
        ),
    );
    let mut check = Command::new(BIN)
        .args([
            "check",
            "--impl",
            &format!("pipe:{program}"),
            "--domain",
            "unicode",
            "--errors",
            "failure-only",
            "--no-annotations",
            "--seconds",
            "600",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the program is running, and its children.
    let end = Instant::now() + Duration::from_secs(120);
    while (processes_with(&in_group).is_empty() || processes_with(&own_session).is_empty())
        && Instant::now() < end
    {
        thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !processes_with(&in_group).is_empty(),
        "the program never started"
    );
    let pid = check.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let status = check.wait().unwrap();
    let left: Vec<u32> = [
        left_after_waiting(&in_group),
        left_after_waiting(&own_session),
    ]
    .concat();
    kill(&left);
    assert_eq!(status.code(), Some(130), "SIGTERM ends the check");
    assert!(
        left.is_empty(),
        "{} processes outlived the check",
        left.len()
    );
}

/// An interrupted check still reports: it stops asking, prints what it
/// found until then marked interrupted, and writes its JUnit and JSON
/// files (which agree with its exit status, 130), so that a CI page shows
/// why the job died. The programs its interruption killed are not
/// reported as crashes.
#[test]
fn an_interrupted_check_reports_what_it_found_so_far() {
    let dir = tempfile_dir("partial");
    let asked = dir.join("asked");
    let _ = std::fs::remove_file(&asked);
    let pyny = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/impls/pyny.py");
    // A slow program with a planted bug: causes are found as it goes. It
    // keeps the questions it is asked, so that the interruption comes
    // after the start-up probe, whatever the machine's load.
    let program = script(
        &dir,
        "slow-and-wrong",
        &format!(
            "tee -a {} | python3 {} --pipe --bug digit-offset --delay 0.2
",
            asked.display(),
            pyny.display()
        ),
    );
    let (junit, json) = (dir.join("report.xml"), dir.join("report.json"));
    let check = Command::new(BIN)
        .args(["check", "--impl", &format!("pipe:{program}")])
        .args(["--seconds", "600", "--seed", "1"])
        .arg("--junit")
        .arg(&junit)
        .arg("--json")
        .arg(&json)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Past the probe (a dozen questions at most) and into the small
    // cases: how many more does not matter to what follows.
    let questions = || {
        std::fs::read_to_string(&asked)
            .map(|text| text.lines().count())
            .unwrap_or(0)
    };
    let end = Instant::now() + Duration::from_secs(300);
    while questions() < 30 && Instant::now() < end {
        thread::sleep(Duration::from_millis(50));
    }
    assert!(
        questions() >= 30,
        "the program was asked {} questions",
        questions()
    );
    Command::new("kill")
        .args(["-TERM", &check.id().to_string()])
        .status()
        .unwrap();
    let out = check.wait_with_output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{report}");
    assert!(report.contains("\nINTERRUPTED after "), "{report}");
    assert!(
        report.contains("vectors and small cases not asked: the check was interrupted"),
        "{report}"
    );
    // Killed by the interruption, the program did not crash or hang.
    assert!(
        !report.contains(": crash") && !report.contains(": hang"),
        "{report}"
    );
    let xml = std::fs::read_to_string(&junit).expect("the JUnit file is written");
    assert!(xml.contains("type=\"interrupted\""), "{xml}");
    assert!(xml.contains("errors=\"1\""), "{xml}");
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the JSON file")).unwrap();
    assert_eq!(value["status"], "interrupted");
    assert_eq!(value["interrupted"], true);
    for cause in value["causes"].as_array().unwrap() {
        let kind = cause["kind"].as_str().unwrap();
        assert!(kind != "crash" && kind != "hang", "{cause}");
    }
}

/// A fresh directory for this test's scripts.
fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("punycheck-processes-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn jobs_bounds_the_processes_of_a_pipe_program() {
    let dir = tempfile_dir("jobs");
    let pyny = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/impls/pyny.py");
    for jobs in [1, 3] {
        let log = dir.join(format!("started-{jobs}"));
        let _ = std::fs::remove_file(&log);
        // Each process writes a line when it starts.
        let program = script(
            &dir,
            &format!("logs-starts-{jobs}"),
            &format!(
                "echo $$ >> {}\nexec python3 {} --pipe\n",
                log.display(),
                pyny.display()
            ),
        );
        let out = Command::new(BIN)
            .args(["check", "--impl", &format!("pipe:{program}")])
            .args(["--jobs", &jobs.to_string(), "--cases", "200"])
            .args(["--seconds", "600", "--seed", "1", "--no-cost"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let started = std::fs::read_to_string(&log).unwrap().lines().count();
        assert!(
            (1..=jobs).contains(&started),
            "--jobs {jobs} started {started} processes"
        );
    }
    let refused = Command::new(BIN)
        .args(["check", "--impl", "cleanroom", "--jobs", "0"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
}
