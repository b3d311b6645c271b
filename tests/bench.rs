//! `punycheck bench` and the library behind it, in quick mode: every
//! answer is checked against the C reference before timing, a wrong answer
//! fails the run, the plot is well-formed SVG with a line per
//! implementation, and the command works. Nothing here asserts a time.

use std::collections::HashSet;
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use punycheck::bench::{
    self, BenchError, Builtin, DecodeInput, Direction, EncodeInput, Outcome, REFERENCE, Report,
    SetKind, Settings, Skip, Subject,
};
use punycheck::engines::EngineError;

const BIN: &str = env!("CARGO_BIN_EXE_punycheck");

/// Quick, with long inputs of 10^3 code points only and a small budget, so
/// that the debug build stays fast.
fn settings() -> Settings {
    Settings::quick()
        .with_max_size(1_000)
        .and_then(|s| s.with_seconds_per_case(0.2))
        .expect("valid settings")
}

/// The built-ins of this build: libidn2 and ICU are left out where the
/// build did not find them (crates/punycheck/tests/system_libraries.rs
/// says so).
fn builtins() -> Vec<&'static dyn Subject> {
    static BUILT: OnceLock<Vec<Builtin>> = OnceLock::new();
    BUILT
        .get_or_init(Builtin::available)
        .iter()
        .map(|b| b as &dyn Subject)
        .collect()
}

/// One quick run of the built-in implementations, shared by the tests.
fn report() -> &'static Report {
    static REPORT: OnceLock<Report> = OnceLock::new();
    REPORT.get_or_init(|| {
        bench::run(&settings(), &builtins(), &mut |_| {}).expect("every answer is right")
    })
}

#[test]
fn a_quick_run_checks_and_times_every_implementation_on_every_set() {
    let report = report();
    let names: Vec<&str> = builtins().iter().map(|b| b.name()).collect();
    assert_eq!(report.implementations, names);
    // RFC samples, labels, many-distinct 10^3, few-distinct 10^3; both ways.
    assert_eq!(report.cases.len(), 8);
    let mut skipped = Vec::new();
    for case in &report.cases {
        let rows: Vec<&str> = case
            .rows
            .iter()
            .map(|r| r.implementation.as_str())
            .collect();
        assert_eq!(rows, names, "{}", case.label);
        match case.direction {
            Direction::Encode => {
                assert_eq!(
                    case.checked_against.as_deref(),
                    Some(REFERENCE),
                    "{}",
                    case.label
                )
            }
            Direction::Decode => assert!(
                case.checked_against
                    .as_deref()
                    .is_some_and(|a| a.contains(REFERENCE)),
                "{}: {:?}",
                case.label,
                case.checked_against
            ),
        }
        for row in &case.rows {
            match &row.outcome {
                Outcome::Measured(t) => {
                    assert!(t.samples >= 1 && t.passes >= 1, "{row:?}");
                    assert!(t.best_seconds <= t.median_seconds, "{row:?}");
                    assert!(case.code_points_per_second(t) > 0.0);
                }
                Outcome::Skipped { skip, reason } => skipped.push((
                    case.label.as_str(),
                    case.direction,
                    row.implementation.as_str(),
                    skip.clone(),
                    reason.as_str(),
                )),
            }
        }
        assert!(
            case.timing(REFERENCE).is_some(),
            "{} {}",
            case.label,
            case.direction
        );
    }
    assert_eq!(report.cases[0].inputs, 19, "RFC 3492 7.1 samples A to S");
    assert_eq!(report.cases[2].inputs, settings().labels);
    // What cannot run is skipped with the reason, and nothing else is: the
    // Punycode of the RFC's sample S, "-> $1.00 <--", has bytes other than
    // letters, digits and hyphens and ends in a delimiter, which libidn2
    // refuses (listed deviations), and ICU decodes at most 2000 bytes, less
    // than the Punycode of 10^3 distinct code points.
    // ada's peer (src/bench/ada.rs) is among them: it answered like the C
    // reference on every input of every set, both ways.
    // (libidn2 and ICU where this build has them.)
    let built = |name: &str| names.contains(&name);
    assert_eq!(
        skipped.len(),
        usize::from(built("libidn2")) + usize::from(built("icu")),
        "{skipped:#?}"
    );
    assert!(names.contains(&"ada"), "{names:?}");
    let mut skipped = skipped.iter();
    if built("libidn2") {
        let (set, direction, who, skip, why) = skipped.next().expect("libidn2's skip");
        assert_eq!(
            (*set, *direction, *who),
            ("rfc-samples (19)", Direction::Decode, "libidn2")
        );
        assert!(matches!(skip, Skip::Deviation { .. }), "{skip:?}");
        assert!(
            why.starts_with("input 18: refuses decode \"-> $1.00 <--\""),
            "{why}"
        );
    }
    if built("icu") {
        let (set, direction, who, skip, why) = skipped.next().expect("ICU's skip");
        assert_eq!(
            (*set, *direction, *who),
            ("many-distinct 10^3", Direction::Decode, "icu")
        );
        assert_eq!(*skip, Skip::OwnLimit);
        assert!(why.contains("U_INPUT_TOO_LONG_ERROR"), "{why}");
    }
}

#[test]
fn the_report_renders_as_text_markdown_and_json() {
    let report = report();
    let text = report.to_text();
    assert!(
        text.contains(&format!("machine:   {}", report.machine.line())),
        "{text}"
    );
    for name in &report.implementations {
        assert!(text.contains(name.as_str()));
    }
    let built = |name: &str| report.implementations.iter().any(|n| n == name);
    // The skips are libidn2's and ICU's, where this build has them.
    assert_eq!(text.contains("skipped: "), built("libidn2") || built("icu"));
    let markdown = report.to_markdown();
    let widths: Vec<usize> = markdown.lines().map(|l| l.matches('|').count()).collect();
    // A header, a separator, a row per case; a column per implementation.
    assert_eq!(
        widths,
        vec![report.implementations.len() + 3; 2 + report.cases.len()]
    );
    assert_eq!(
        markdown.contains("| *deviation trailing-delimiter* |"),
        built("libidn2"),
        "{markdown}"
    );
    assert_eq!(
        markdown.contains("| *own limit* |"),
        built("icu"),
        "{markdown}"
    );
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).expect("JSON");
    assert_eq!(
        json["cases"].as_array().map(Vec::len),
        Some(report.cases.len())
    );
    assert_eq!(json["cases"][0]["rows"][0]["status"], "measured");
    assert!(json["cases"][0]["rows"][0]["median_seconds"].is_number());
}

/// A codec that answers like the clean-room code, except where it is told
/// to be wrong.
struct Faulty {
    name: &'static str,
    fault: Fault,
}

enum Fault {
    /// Encodes U+00FC (ü) as if it were U+00FD.
    EncodeU00fc,
    /// Decodes the last code point one higher, on inputs of more than 100.
    DecodeLongInputs,
    /// Fails to encode anything longer than 100 code points, giving no
    /// reason.
    RefuseLongInputs,
    /// Stops at a length limit of its own above 100 code points.
    LimitLongInputs,
}

impl Subject for Faulty {
    fn name(&self) -> &str {
        self.name
    }

    fn encode(&self, input: &EncodeInput) -> Result<Vec<u8>, EngineError> {
        let long = input.code_points.len() > 100;
        match self.fault {
            Fault::EncodeU00fc => {
                let changed: Vec<u32> = input
                    .code_points
                    .iter()
                    .map(|&cp| if cp == 0xFC { 0xFD } else { cp })
                    .collect();
                Builtin::CleanRoom.encode(&EncodeInput::new(changed))
            }
            Fault::RefuseLongInputs if long => Err(EngineError::Rejected(None)),
            Fault::LimitLongInputs if long => Err(EngineError::Limit("100 code points".into())),
            _ => Builtin::CleanRoom.encode(input),
        }
    }

    fn decode(&self, input: &DecodeInput) -> Result<Vec<u32>, EngineError> {
        let mut cps = Builtin::CleanRoom.decode(input)?;
        if let (Fault::DecodeLongInputs, true, Some(last)) =
            (&self.fault, cps.len() > 100, cps.last_mut())
        {
            *last += 1;
        }
        Ok(cps)
    }
}

fn run_with(faulty: &Faulty) -> Result<Report, BenchError> {
    let mut subjects = builtins();
    subjects.push(faulty);
    bench::run(&settings(), &subjects, &mut |_| {})
}

#[test]
fn a_wrong_encoding_fails_the_run() {
    let faulty = Faulty {
        name: "faulty",
        fault: Fault::EncodeU00fc,
    };
    match run_with(&faulty) {
        // The first input with ü is few-distinct 10^3's.
        Err(BenchError::WrongAnswer {
            implementation,
            direction: Direction::Encode,
            detail,
            ..
        }) => {
            assert_eq!(implementation, "faulty");
            assert!(detail.contains("differs from rfc-c's"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_wrong_decoding_fails_the_run() {
    let faulty = Faulty {
        name: "faulty",
        fault: Fault::DecodeLongInputs,
    };
    match run_with(&faulty) {
        Err(BenchError::WrongAnswer {
            implementation,
            input_set,
            direction: Direction::Decode,
            input: 0,
            detail,
        }) => {
            assert_eq!(implementation, "faulty");
            assert_eq!(input_set, "many-distinct 10^3");
            assert!(detail.contains("at element 999 of 1000"), "{detail}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_refusal_that_nothing_explains_fails_the_run() {
    let faulty = Faulty {
        name: "faulty",
        fault: Fault::RefuseLongInputs,
    };
    match run_with(&faulty) {
        Err(e @ BenchError::WrongAnswer { .. }) => {
            let message = e.to_string();
            assert!(message.contains("self-check failed: faulty"), "{message}");
            assert!(message.contains("encode many-distinct 10^3"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_own_length_limit_skips_the_set_with_the_reason() {
    let faulty = Faulty {
        name: "limited",
        fault: Fault::LimitLongInputs,
    };
    let report = run_with(&faulty).expect("a limit is no wrong answer");
    for case in &report.cases {
        let row = case.rows.last().expect("rows");
        assert_eq!(row.implementation, "limited");
        match (&row.outcome, case.set.is_long()) {
            (Outcome::Measured(_), false) => {}
            (Outcome::Skipped { skip, reason }, true) if case.direction == Direction::Encode => {
                assert_eq!(*skip, Skip::OwnLimit);
                assert_eq!(reason, "its own limit: 100 code points")
            }
            // It decodes long inputs: the reference encoded them.
            (Outcome::Measured(_), true) if case.direction == Direction::Decode => {}
            other => panic!("{}: {other:?}", case.label),
        }
    }
}

#[test]
fn the_clean_room_code_stands_in_where_the_c_reference_does_not_run() {
    // A C reference that stops at its own limit above 100 code points, as
    // the real one is skipped by extrapolation on the longest inputs.
    let limited_reference = Faulty {
        name: REFERENCE,
        fault: Fault::LimitLongInputs,
    };
    let subjects: Vec<&dyn Subject> = vec![&Builtin::Idna, &Builtin::CleanRoom, &limited_reference];
    let report = bench::run(&settings(), &subjects, &mut |_| {}).expect("right answers");
    for case in &report.cases {
        let against = case.checked_against.as_deref().unwrap_or_default();
        match (case.set.is_long(), case.direction) {
            (false, Direction::Encode) => assert_eq!(against, REFERENCE),
            (true, Direction::Encode) => assert_eq!(against, "cleanroom"),
            (false, Direction::Decode) => {
                assert!(against.contains("rfc-c's encoding"), "{against}")
            }
            (true, Direction::Decode) => {
                assert!(against.contains("cleanroom's encoding"), "{against}")
            }
        }
    }
    // The stand-in's encodings are still checked, by decoding them back.
    let wrong_decoder = Faulty {
        name: "faulty",
        fault: Fault::DecodeLongInputs,
    };
    let subjects: Vec<&dyn Subject> = vec![&Builtin::CleanRoom, &limited_reference, &wrong_decoder];
    match bench::run(&settings(), &subjects, &mut |_| {}) {
        Err(BenchError::WrongAnswer {
            implementation,
            direction: Direction::Decode,
            ..
        }) => assert_eq!(implementation, "faulty"),
        other => panic!("{other:?}"),
    }
}

/// A built-in implementation that logs which of its calls were on the
/// random labels (encoding a label, or decoding back to one).
struct Logged<'a> {
    inner: Builtin,
    labels: &'a HashSet<Vec<u32>>,
    log: &'a Mutex<Vec<(Direction, &'static str)>>,
}

impl Logged<'_> {
    fn note(&self, direction: Direction, code_points: &[u32]) {
        if self.labels.contains(code_points) {
            let name = match self.inner {
                Builtin::RfcC => REFERENCE,
                Builtin::CleanRoom => "cleanroom",
                _ => "idna",
            };
            self.log.lock().expect("log").push((direction, name));
        }
    }
}

impl Subject for Logged<'_> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn encode(&self, input: &EncodeInput) -> Result<Vec<u8>, EngineError> {
        self.note(Direction::Encode, &input.code_points);
        self.inner.encode(input)
    }

    fn decode(&self, input: &DecodeInput) -> Result<Vec<u32>, EngineError> {
        let got = self.inner.decode(input);
        if let Ok(cps) = &got {
            self.note(Direction::Decode, cps);
        }
        got
    }
}

#[test]
fn samples_are_interleaved_in_rotating_rounds() {
    let settings = settings();
    let labels = bench::random_labels(settings.seed, settings.labels);
    let label_set: HashSet<Vec<u32>> = labels.iter().cloned().collect();
    let log = Mutex::new(Vec::new());
    let logged = |inner| Logged {
        inner,
        labels: &label_set,
        log: &log,
    };
    // Given out of the encoding order (the reference, its stand-in, the
    // others), which the encoding checks follow.
    let (idna, cleanroom, rfc_c) = (
        logged(Builtin::Idna),
        logged(Builtin::CleanRoom),
        logged(Builtin::RfcC),
    );
    let subjects: Vec<&dyn Subject> = vec![&idna, &cleanroom, &rfc_c];
    let report = bench::run(&settings, &subjects, &mut |_| {}).expect("right answers");
    let log = log.into_inner().expect("log");
    for (direction, checks) in [
        (Direction::Encode, ["rfc-c", "cleanroom", "idna"]),
        (Direction::Decode, ["idna", "cleanroom", "rfc-c"]),
    ] {
        // The passes over the labels, one subject each.
        let calls: Vec<&str> = log
            .iter()
            .filter(|(d, _)| *d == direction)
            .map(|&(_, name)| name)
            .collect();
        let passes: Vec<&str> = calls
            .chunks(labels.len())
            .map(|pass| {
                assert!(pass.iter().all(|n| *n == pass[0]), "{direction}: {pass:?}");
                pass[0]
            })
            .collect();
        // What the timings say: first every checking pass, then round r
        // has a sample of each subject with more than r samples, starting
        // at the (r mod count)th of them, in the order of the checks.
        let case = report
            .cases
            .iter()
            .find(|c| c.set == SetKind::Labels && c.direction == direction)
            .expect("the labels case");
        let sampled: Vec<(&str, usize, u64)> = checks
            .iter()
            .map(|&name| {
                let t = case.timing(name).expect("measured");
                if t.passes == 1 {
                    (name, 0, 0)
                } else {
                    (name, t.samples, (t.passes - 1) / t.samples as u64)
                }
            })
            .collect();
        let mut expected: Vec<&str> = checks.to_vec();
        for round in 0.. {
            let mut order: Vec<&(&str, usize, u64)> =
                sampled.iter().filter(|s| s.1 > round).collect();
            if order.is_empty() {
                break;
            }
            let start = round % order.len();
            order.rotate_left(start);
            for &&(name, _, iterations) in &order {
                expected.extend(std::iter::repeat_n(name, iterations as usize));
            }
        }
        assert_eq!(passes, expected, "{direction}: {sampled:?}");
    }
}

#[test]
fn the_command_runs_quick_and_writes_the_plot_and_json() {
    let dir = std::env::temp_dir().join(format!("punycheck-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let plot = dir.join("bench.svg");
    let json = dir.join("bench.json");
    let markdown = dir.join("bench.md");
    let output = Command::new(BIN)
        .args([
            "bench",
            "--quick",
            "--max-size",
            "1000",
            "--seconds-per-case",
            "0.2",
        ])
        .arg("--plot")
        .arg(&plot)
        .arg("--json")
        .arg(&json)
        .arg("--markdown")
        .arg(&markdown)
        .output()
        .expect("punycheck runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    // The header names the machine, as /proc/cpuinfo does.
    let machine = bench::Machine::detect();
    assert!(
        stdout.starts_with("punycheck bench --quick\nmachine:   "),
        "{stdout}"
    );
    assert!(stdout.contains(&machine.cpu), "{stdout}");
    assert!(stdout.contains(&format!("{} logical CPUs", machine.logical_cpus)));
    assert!(stdout.contains("few-distinct 10^3"), "{stdout}");
    assert!(!stdout.contains("10^4"), "--max-size 1000: {stdout}");
    // Progress goes to stderr, one line per measurement.
    assert_eq!(
        stderr.lines().count(),
        8 * Builtin::available().len(),
        "{stderr}"
    );
    let svg = std::fs::read_to_string(&plot).expect("the plot was written");
    // The plot itself (well-formed, a line per implementation) is tested
    // beside its code, src/commands/plot.rs; here, that it was written.
    assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
    assert!(svg.contains("<polyline"), "{svg}");
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the JSON was written"))
            .expect("JSON");
    assert_eq!(value["settings"]["quick"], true);
    assert_eq!(value["cases"].as_array().map(Vec::len), Some(8));
    let table = std::fs::read_to_string(&markdown).expect("the table was written");
    let available = Builtin::available();
    let names: Vec<&str> = available.iter().map(|b| b.name()).collect();
    assert!(
        table.starts_with(&format!("| input | dir | {} |", names.join(" | "))),
        "{table}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_bench_arguments_exit_2_with_a_message() {
    for (args, message) in [
        (
            &["bench", "--max-size", "0"][..],
            "--max-size must be 1 to 1000000",
        ),
        (
            &["bench", "--max-size", "2000000"][..],
            "--max-size must be 1 to 1000000",
        ),
        (
            &["bench", "--seconds-per-case", "0"][..],
            "--seconds-per-case must be a positive",
        ),
        (
            &["bench", "--seconds-per-case", "nan"][..],
            "--seconds-per-case must be a positive",
        ),
    ] {
        let output = Command::new(BIN)
            .args(args)
            .output()
            .expect("punycheck runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}
