//! The clean-room codec against ada-url's Punycode, the two alternating in
//! one process: the measurement behind "Against ada-url" in
//! `docs/performance.md` (issue 21 asks for at least 1.2x ada on every input
//! set of `punycheck bench`, both ways).
//!
//! ```sh
//! cargo run --example versus_ada --release -p punycheck --features ada -- [ROUNDS] [MAX_SIZE] [SET]
//! ```
//!
//! It takes the input sets of `punycheck bench` up to MAX_SIZE code points
//! (default 10^4; 1000000 adds the long sets, where ada is timed while it
//! stays linear) whose id contains SET (`labels`, `few-distinct-1000`;
//! default every set). For each set and direction, both answers are first
//! checked: encodings against the C reference's (the clean-room code's
//! beyond 10^4 code points, as `punycheck bench` does), decodings against
//! the code points that were encoded. Then ROUNDS rounds (default 31) each
//! take one sample of each, of about 10 ms of passes over the whole set,
//! and alternate which goes first; the best pass of each is kept, since
//! other processes only ever add time. A burst of load thus falls on both
//! alike. ada is left out where one pass would take more than a second,
//! extrapolated quadratically from the size before (its quadratic cases),
//! and past 10^4 code points when SET leaves out the sizes before.
//!
//! It prints, per set and direction, the best time per pass of each and
//! their ratio, ada's time over the clean-room code's (above 1: the
//! clean-room code is faster). Without the feature `ada` it says so and
//! exits with 2.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use punycheck::bench::{
    self, Builtin, DecodeInput, EncodeInput, Settings, Subject, format_seconds,
};
use punycheck::engines::EngineError;

/// About how long one sample lasts.
const SAMPLE: Duration = Duration::from_millis(10);

/// ada is not timed where one pass would take longer than this,
/// extrapolated quadratically from the size before.
const LONGEST_PASS: Duration = Duration::from_secs(1);

/// The largest long input whose answers are checked against the C
/// reference's (quadratic); the clean-room code's stand in beyond.
const REFERENCE_MAX: usize = 10_000;

/// One direction of one input set, prepared: a pass calls the subject on
/// each input.
enum Work {
    Encode(Vec<EncodeInput>),
    Decode(Vec<DecodeInput>),
}

/// The answers of one pass: encodings or decodings.
#[derive(PartialEq)]
enum Answers {
    Encode(Vec<Result<Vec<u8>, EngineError>>),
    Decode(Vec<Result<Vec<u32>, EngineError>>),
}

impl Work {
    /// One pass of `subject` over every input.
    fn pass(&self, subject: Builtin) {
        match self {
            Work::Encode(inputs) => {
                for input in inputs {
                    let _ = black_box(subject.encode(black_box(input)));
                }
            }
            Work::Decode(inputs) => {
                for input in inputs {
                    let _ = black_box(subject.decode(black_box(input)));
                }
            }
        }
    }

    /// One pass that keeps the answers, and its seconds.
    fn answers(&self, subject: Builtin) -> (Answers, f64) {
        let start = Instant::now();
        let answers = match self {
            Work::Encode(inputs) => {
                Answers::Encode(inputs.iter().map(|i| subject.encode(i)).collect())
            }
            Work::Decode(inputs) => {
                Answers::Decode(inputs.iter().map(|i| subject.decode(i)).collect())
            }
        };
        (answers, start.elapsed().as_secs_f64())
    }

    /// The seconds of one sample of `passes` passes, per pass.
    fn sample(&self, subject: Builtin, passes: u32) -> f64 {
        let start = Instant::now();
        for _ in 0..passes {
            self.pass(subject);
        }
        start.elapsed().as_secs_f64() / f64::from(passes)
    }
}

/// The best time per pass of `subjects` on `work`, taken alternating
/// after a first pass each of `first` seconds.
fn race(work: &Work, subjects: &[Builtin], first: &[f64], rounds: usize) -> Vec<f64> {
    let passes: Vec<u32> = first
        .iter()
        .map(|&seconds| (SAMPLE.as_secs_f64() / seconds).clamp(1.0, 1e6) as u32)
        .collect();
    let mut best = first.to_vec();
    for round in 0..rounds {
        for step in 0..subjects.len() {
            let k = (round + step) % subjects.len();
            best[k] = best[k].min(work.sample(subjects[k], passes[k]));
        }
    }
    best
}

/// The time one pass would take at `n` code points, from the time at the
/// last size timed, `(size, seconds)`, assuming the worst, quadratic growth;
/// with no size timed before (SET left the smaller ones out), unbounded past
/// [`REFERENCE_MAX`].
fn extrapolate(last: Option<(usize, f64)>, n: usize) -> f64 {
    match last {
        Some((size, seconds)) => seconds * (n as f64 / size as f64).powi(2),
        None if n > REFERENCE_MAX => f64::INFINITY,
        None => 0.0,
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |k: usize, default: usize| -> Result<usize, String> {
        args.get(k).map_or(Ok(default), |text| {
            text.parse()
                .map_err(|_| format!("{text:?} is not a number"))
        })
    };
    let (rounds, max_size) = match (number(0, 31), number(1, 10_000)) {
        (Ok(rounds), Ok(max_size)) if rounds > 0 => (rounds, max_size),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("versus_ada: {e}\nusage: versus_ada [ROUNDS] [MAX_SIZE] [SET]");
            return ExitCode::from(2);
        }
        _ => {
            eprintln!("versus_ada: at least one round");
            return ExitCode::from(2);
        }
    };
    let only = args.get(2).map(String::as_str).unwrap_or("");
    if !Builtin::available().contains(&Builtin::Ada) {
        eprintln!("versus_ada: ada is not in this build: add `--features ada`");
        return ExitCode::from(2);
    }
    let sets = match Settings::full()
        .with_max_size(max_size)
        .and_then(|settings| bench::input_sets(&settings))
    {
        Ok(sets) => sets,
        Err(e) => {
            eprintln!("versus_ada: {e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "{:<20} {:<6} {:>12} {:>12} {:>6}",
        "input", "dir", "cleanroom", "ada", "ratio"
    );
    // Per kind of set and direction: ada's last size and time per pass.
    let mut ada_times: Vec<(String, Option<(usize, f64)>)> = Vec::new();
    for set in sets.iter().filter(|set| set.id().contains(only)) {
        // The C reference is quadratic too: past REFERENCE_MAX the
        // clean-room code's answers stand in, as in `punycheck bench`.
        let reference = match set.size {
            Some(n) if n > REFERENCE_MAX => Builtin::CleanRoom,
            _ => Builtin::RfcC,
        };
        let encode: Vec<EncodeInput> = set.inputs.iter().cloned().map(EncodeInput::new).collect();
        let decode = encode
            .iter()
            .map(|input| reference.encode(input).map(DecodeInput::new))
            .collect::<Result<Vec<_>, _>>();
        let decode = match decode {
            Ok(decode) => decode,
            Err(e) => {
                eprintln!(
                    "versus_ada: {} fails on {}: {e}",
                    reference.name(),
                    set.id()
                );
                return ExitCode::FAILURE;
            }
        };
        for (direction, work) in [
            ("encode", Work::Encode(encode)),
            ("decode", Work::Decode(decode)),
        ] {
            let want = match work {
                Work::Encode(_) => work.answers(reference).0,
                Work::Decode(_) => Answers::Decode(set.inputs.iter().cloned().map(Ok).collect()),
            };
            let key = format!("{} {direction}", set.kind.name());
            let slot = match ada_times.iter().position(|(k, _)| *k == key) {
                Some(slot) => slot,
                None => {
                    ada_times.push((key, None));
                    ada_times.len() - 1
                }
            };
            let n = set.size.unwrap_or(0);
            let mut subjects = vec![Builtin::CleanRoom];
            if extrapolate(ada_times[slot].1, n) <= LONGEST_PASS.as_secs_f64() {
                subjects.push(Builtin::Ada);
            }
            let mut first = Vec::new();
            for &subject in &subjects {
                let (answers, seconds) = work.answers(subject);
                if answers != want {
                    eprintln!(
                        "versus_ada: {} answers {} ({direction}) otherwise than {}",
                        subject.name(),
                        set.id(),
                        reference.name()
                    );
                    return ExitCode::FAILURE;
                }
                first.push(seconds);
            }
            let best = race(&work, &subjects, &first, rounds);
            if let Some(&ada) = best.get(1) {
                ada_times[slot].1 = Some((n, ada));
            }
            let (ada, ratio) = match best.get(1) {
                Some(&ada) => (format_seconds(ada), format!("{:.2}", ada / best[0])),
                None => ("skipped".to_string(), "-".to_string()),
            };
            println!(
                "{:<20} {direction:<6} {:>12} {ada:>12} {ratio:>6}",
                set.label(),
                format_seconds(best[0]),
            );
        }
    }
    ExitCode::SUCCESS
}
