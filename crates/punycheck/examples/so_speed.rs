//! How many questions a second a `so:` library answers through punycheck's
//! engine: the figure behind docs/checking.md's `so:` section.
//!
//! ```sh
//! cargo run --release --example so_speed -- SPEC [SECONDS] [THREADS] [MAX_LEN]
//! cargo run --release --example so_speed -- /tmp/libplanted.so 10
//! cargo run --release --example so_speed -- /usr/lib/x86_64-linux-gnu/libidn.so.12:lengths=size_t
//! ```
//!
//! SPEC is what follows `so:`. The questions are the generated ones of
//! `check` (seed 3492), asked in turn from THREADS threads (default: the
//! engine's own number: one per two cores) for SECONDS (default 10); each answer
//! is judged against the C reference's, computed beforehand, exactly as
//! the harness judges; MAX_LEN keeps only the questions up to that many
//! code points or bytes long. It prints the questions a second, then the same for
//! the C reference called in this process (`rfc-c`), for scale.
//!
//! This example is also its own worker binary: `main` hands over to
//! [`worker_entry`] first, as punycheck's does.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use punycheck::engines::so::worker_entry;
use punycheck::engines::{Declaration, Engine, RfcC, So};
use punycheck::harness::compare::{Verdict, judge, reference};
use punycheck::harness::generate::Generator;
use punycheck::vocabulary::{Expected, Request};

/// Asks `questions` of `engine` from `threads` threads for `seconds`;
/// returns (questions asked, seconds taken, nonconforming answers).
fn measure(
    engine: &dyn Engine,
    questions: &[(Request, Expected)],
    threads: usize,
    seconds: f64,
) -> (u64, f64, u64) {
    let asked = AtomicU64::new(0);
    let wrong = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (asked, wrong, stop) = (&asked, &wrong, &stop);
            scope.spawn(move || {
                let mut k = t;
                while !stop.load(Ordering::Relaxed) {
                    let (request, want) = &questions[k % questions.len()];
                    if let Verdict::Nonconformance(_) = judge(engine, request, want) {
                        wrong.fetch_add(1, Ordering::Relaxed);
                    }
                    asked.fetch_add(1, Ordering::Relaxed);
                    k += threads;
                }
            });
        }
        std::thread::sleep(Duration::from_secs_f64(seconds));
        stop.store(true, Ordering::Relaxed);
    });
    (
        asked.load(Ordering::Relaxed),
        start.elapsed().as_secs_f64(),
        wrong.load(Ordering::Relaxed),
    )
}

fn main() -> ExitCode {
    if let Some(status) = worker_entry() {
        return status;
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(spec) = args.first() else {
        eprintln!("usage: so_speed SPEC [SECONDS] [THREADS] [MAX_LEN]   (SPEC: what follows so:)");
        return ExitCode::from(2);
    };
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10.0);
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("cannot find this executable: {e}");
            return ExitCode::from(2);
        }
    };
    let so = match So::new(spec, Declaration::default(), Duration::from_secs(5), exe) {
        Ok(so) => so,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let threads: usize = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| so.workers());
    let max_len: usize = args
        .get(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let len = |r: &Request| match r {
        Request::Encode { code_points, .. } => code_points.len(),
        Request::Decode(bytes) => bytes.len(),
    };
    let mut generator = Generator::new(3492);
    let questions: Vec<_> = (0..20_000)
        .map(|_| generator.next_request())
        .filter(|r| len(r) <= max_len)
        .filter_map(|request| reference(&request).map(|want| (request, want)))
        .collect();
    let long = questions.iter().filter(|(r, _)| len(r) > 1000).count();
    println!(
        "{} generated questions (seed 3492, {long} of them over 1000 long), {threads} threads, {seconds} s each",
        questions.len()
    );
    for (name, engine) in [
        (format!("so:{spec}"), &so as &dyn Engine),
        ("rfc-c (in this process)".to_string(), &RfcC as &dyn Engine),
    ] {
        let (asked, took, wrong) = measure(engine, &questions, threads, seconds);
        println!(
            "{name}: {asked} questions in {took:.1} s = {:.0} questions/s ({wrong} nonconforming)",
            asked as f64 / took
        );
    }
    ExitCode::SUCCESS
}
