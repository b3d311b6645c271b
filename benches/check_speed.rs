//! Questions a second of `punycheck check`: the whole check of an
//! implementation, `--no-cost`, a fixed number of generated questions and
//! seed, timed by the wall clock, and the generated questions' own phase
//! (the JSON report's `timings`). A benchmark, not a test: it prints
//! figures and judges none of them, but it checks itself: every run must
//! ask all its questions, and every run of one subject must end with the
//! same status and causes.
//!
//! ```sh
//! cargo bench --bench check_speed                  # every subject, 3 runs each
//! cargo bench --bench check_speed -- cleanroom     # those whose name holds "cleanroom"
//! PUNYCHECK_BIN=/tmp/old/punycheck cargo bench --bench check_speed   # another build, for before and after
//! ```
//!
//! `PUNYCHECK_BENCH_CASES` (default 100,000; the Python template gets a
//! fifth) and `PUNYCHECK_BENCH_RUNS` (default 3) size it. The best run is
//! the figure (other processes only ever add time); the median is beside
//! it, with the load average before and after.

use std::process::Command;
use std::time::Instant;

/// One implementation as `check` is asked to check it.
struct Subject {
    name: &'static str,
    args: Vec<String>,
    /// Its share of the cases: 1 for all, 5 for a fifth.
    divisor: u64,
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

/// One run's figures.
struct Run {
    wall: f64,
    generated: Option<f64>,
    outcome: String,
}

fn run(bin: &str, subject: &Subject, cases: u64, json: &std::path::Path) -> Run {
    let started = Instant::now();
    let out = Command::new(bin)
        .arg("check")
        .args(&subject.args)
        .args(["--no-cost", "--seed", "3", "--cases", &cases.to_string()])
        // Only a ceiling: a loaded machine must not cut the questions short.
        .args(["--seconds", "3600"])
        .arg("--json")
        .arg(json)
        .output()
        .unwrap_or_else(|e| panic!("{bin} does not run: {e}"));
    let wall = started.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(json).unwrap_or_else(|e| {
        panic!(
            "{}: no JSON report ({e}): {}",
            subject.name,
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let report: serde_json::Value = serde_json::from_str(&text).expect("a JSON report");
    let asked = report["generated"]["questions"].as_u64();
    assert_eq!(
        asked,
        Some(cases),
        "{}: asked {asked:?} of {cases} questions",
        subject.name
    );
    // Layout 8 on: the generated questions' own wall time.
    let generated = report["timings"].as_array().and_then(|t| {
        t.iter()
            .find(|p| p["phase"] == "generated")
            .and_then(|p| p["seconds"].as_f64())
    });
    let causes: Vec<String> = report["causes"]
        .as_array()
        .map(|c| c.iter().map(|c| c["key"].to_string()).collect())
        .unwrap_or_default();
    Run {
        wall,
        generated,
        outcome: format!("{} {}", report["status"], causes.join(" ")),
    }
}

fn main() {
    let bin = std::env::var("PUNYCHECK_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_punycheck").to_string());
    let cases = env_u64("PUNYCHECK_BENCH_CASES", 100_000);
    let runs = env_u64("PUNYCHECK_BENCH_RUNS", 3).max(1);
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let strings = |args: &[&str]| args.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let subjects = [
        Subject {
            name: "cleanroom (in-process)",
            args: strings(&["--impl", "cleanroom"]),
            divisor: 1,
        },
        Subject {
            name: "pipe:punycheck serve --impl cleanroom",
            args: vec![
                "--impl".into(),
                format!("pipe:{bin} serve --impl cleanroom"),
            ],
            divisor: 1,
        },
        Subject {
            name: "pipe: the Python template (CPython's codec)",
            args: strings(&[
                "--impl",
                "pipe:python3 adapters/templates/pipe_template.py",
                "--domain",
                "unicode-with-surrogates",
                "--errors",
                "failure-only",
                "--no-annotations",
            ]),
            divisor: 5,
        },
    ];
    let json =
        std::env::temp_dir().join(format!("punycheck-check-speed-{}.json", std::process::id()));
    println!("{bin}, seed 3, --no-cost, best and median of {runs} runs");
    println!(
        "{:<46} {:>9} {:>9} {:>9} {:>12} {:>12}  load",
        "subject", "questions", "best s", "median s", "q/s (check)", "q/s (asking)"
    );
    for subject in subjects
        .iter()
        .filter(|s| filters.is_empty() || filters.iter().any(|f| s.name.contains(f.as_str())))
    {
        let cases = (cases / subject.divisor).max(1);
        let before = load_average();
        let mut done: Vec<Run> = (0..runs)
            .map(|_| run(&bin, subject, cases, &json))
            .collect();
        let after = load_average();
        for other in &done[1..] {
            assert_eq!(
                other.outcome, done[0].outcome,
                "{}: two runs of one seed ended differently",
                subject.name
            );
        }
        done.sort_by(|a, b| a.wall.total_cmp(&b.wall));
        let best = &done[0];
        let median = done[done.len() / 2].wall;
        let asking = done
            .iter()
            .filter_map(|r| r.generated)
            .min_by(f64::total_cmp)
            .map_or("-".to_string(), |s| format!("{:.0}", cases as f64 / s));
        println!(
            "{:<46} {:>9} {:>9.2} {:>9.2} {:>12.0} {:>12}  {before} -> {after}",
            subject.name,
            cases,
            best.wall,
            median,
            cases as f64 / best.wall,
            asking
        );
    }
    let _ = std::fs::remove_file(&json);
}
