//! Criterion benchmarks of the clean-room codec, the RFC's C reference and
//! the `idna` crate on the inputs of `punycheck bench` (`punycheck::bench`):
//! one group per direction, input set and size, one benchmark per
//! implementation, throughput in code points.
//!
//! ```sh
//! cargo bench --bench punycode                      # all groups
//! cargo bench --bench punycode -- 'encode/labels'   # one group
//! PUNYCHECK_BENCH_MAX_SIZE=100000 cargo bench --bench punycode
//! ```
//!
//! The long inputs go up to 10^4 code points by default: the three
//! implementations are quadratic today, and criterion runs each benchmark at
//! least ten times after warming up, so 10^5 (seconds per iteration) would
//! take about ten minutes more. `PUNYCHECK_BENCH_MAX_SIZE` raises the limit
//! (up to 10^6). `punycheck bench` covers every size within a time budget.
//!
//! Like `punycheck bench`, every implementation's answers are checked once
//! before timing (encodings against the C reference's, decodings against
//! the code points that were encoded): a wrong answer stops the benchmark.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use punycheck::bench::{self, Builtin, DecodeInput, EncodeInput, Settings, Subject};

/// The implementations benchmarked here.
const SUBJECTS: [Builtin; 3] = [Builtin::CleanRoom, Builtin::RfcC, Builtin::Idna];

/// The longest long input by default.
const DEFAULT_MAX_SIZE: usize = 10_000;

fn max_size() -> usize {
    match std::env::var("PUNYCHECK_BENCH_MAX_SIZE") {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("PUNYCHECK_BENCH_MAX_SIZE={text:?} is not a number")),
        Err(_) => DEFAULT_MAX_SIZE,
    }
}

fn punycode(c: &mut Criterion) {
    let settings = Settings::full()
        .with_max_size(max_size())
        .unwrap_or_else(|e| panic!("{e}"));
    let sets = bench::input_sets(&settings).unwrap_or_else(|e| panic!("{e}"));
    for set in &sets {
        let encode_inputs: Vec<EncodeInput> =
            set.inputs.iter().cloned().map(EncodeInput::new).collect();
        let encodings: Vec<Vec<u8>> = encode_inputs
            .iter()
            .map(|input| {
                Builtin::RfcC
                    .encode(input)
                    .unwrap_or_else(|e| panic!("the C reference fails on {}: {e}", set.id()))
            })
            .collect();
        let decode_inputs: Vec<DecodeInput> =
            encodings.iter().cloned().map(DecodeInput::new).collect();
        for subject in SUBJECTS {
            for (k, input) in encode_inputs.iter().enumerate() {
                assert_eq!(
                    subject.encode(input).as_ref(),
                    Ok(&encodings[k]),
                    "{} encodes {} input {k} differently from the C reference",
                    subject.name(),
                    set.id()
                );
            }
            for (k, input) in decode_inputs.iter().enumerate() {
                assert_eq!(
                    subject.decode(input).as_ref(),
                    Ok(&set.inputs[k]),
                    "{} decodes {} input {k} to other code points than were encoded",
                    subject.name(),
                    set.id()
                );
            }
        }

        let code_points = set.code_points() as u64;
        let mut group = c.benchmark_group(format!("encode/{}", set.id()));
        configure(&mut group, set.kind.is_long(), code_points);
        for subject in SUBJECTS {
            group.bench_function(subject.name(), |b| {
                b.iter(|| {
                    for input in &encode_inputs {
                        let _ = black_box(subject.encode(black_box(input)));
                    }
                })
            });
        }
        group.finish();

        let mut group = c.benchmark_group(format!("decode/{}", set.id()));
        configure(&mut group, set.kind.is_long(), code_points);
        for subject in SUBJECTS {
            group.bench_function(subject.name(), |b| {
                b.iter(|| {
                    for input in &decode_inputs {
                        let _ = black_box(subject.decode(black_box(input)));
                    }
                })
            });
        }
        group.finish();
    }
}

/// Throughput in code points; for the long inputs, the fewest samples
/// criterion takes, one iteration each.
fn configure(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    long: bool,
    code_points: u64,
) {
    group.throughput(Throughput::Elements(code_points));
    if long {
        group
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
    } else {
        group
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
    }
}

criterion_group!(benches, punycode);
criterion_main!(benches);
