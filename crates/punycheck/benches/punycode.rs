//! Criterion benchmarks of the clean-room codec, the RFC's C reference, the
//! `idna` crate and ada-url's Punycode (cargo feature `ada`) on the inputs of `punycheck bench` (`punycheck::bench`):
//! one group per direction, input set and size, one benchmark per
//! implementation, throughput in code points.
//!
//! ```sh
//! cargo bench --bench punycode                      # all groups
//! cargo bench --bench punycode -- 'encode/labels'   # one group
//! PUNYCHECK_BENCH_MAX_SIZE=100000 cargo bench --bench punycode
//! ```
//!
//! The long inputs go up to 10^5 code points for few-distinct and 10^4 for
//! many-distinct: the C reference, idna and ada are quadratic, criterion
//! runs each benchmark at least eleven times, and encoding 10^5 distinct
//! code points takes about 40 s. `PUNYCHECK_BENCH_MAX_SIZE=N` sets both
//! limits to N (at most 10^6), e.g. once the clean-room code is O(n log n);
//! `punycheck bench` covers every size within a time budget instead.
//!
//! Like `punycheck bench`, every implementation's answers are checked once
//! before timing (encodings against the C reference's, decodings against
//! the code points that were encoded): a wrong answer stops the benchmark.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use punycheck::bench::{
    self, Builtin, DecodeInput, EncodeInput, InputSet, SetKind, Settings, Subject,
};

/// The implementations benchmarked here: ada with the cargo feature `ada` (a
/// default one).
fn subjects() -> Vec<Builtin> {
    let mut subjects = vec![Builtin::CleanRoom, Builtin::RfcC, Builtin::Idna];
    if cfg!(feature = "ada") {
        subjects.push(Builtin::Ada);
    }
    subjects
}

/// The longest few-distinct input by default.
const DEFAULT_MAX_SIZE: usize = 100_000;

/// The longest many-distinct input by default.
const DEFAULT_MAX_MANY_DISTINCT: usize = 10_000;

/// The longest long inputs: few-distinct, many-distinct.
fn max_sizes() -> (usize, usize) {
    match std::env::var("PUNYCHECK_BENCH_MAX_SIZE") {
        Ok(text) => {
            let n = text
                .parse()
                .unwrap_or_else(|_| panic!("PUNYCHECK_BENCH_MAX_SIZE={text:?} is not a number"));
            (n, n)
        }
        Err(_) => (DEFAULT_MAX_SIZE, DEFAULT_MAX_MANY_DISTINCT),
    }
}

fn punycode(c: &mut Criterion) {
    let (max_size, max_many_distinct) = max_sizes();
    let subjects = subjects();
    let settings = Settings::full()
        .with_max_size(max_size)
        .unwrap_or_else(|e| panic!("{e}"));
    let sets = bench::input_sets(&settings).unwrap_or_else(|e| panic!("{e}"));
    let wanted = |set: &&InputSet| {
        set.kind != SetKind::ManyDistinct || set.size.is_some_and(|n| n <= max_many_distinct)
    };
    for set in sets.iter().filter(wanted) {
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
        for &subject in &subjects {
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
        for &subject in &subjects {
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
        for &subject in &subjects {
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
            .measurement_time(Duration::from_secs(5));
    } else {
        group
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
    }
}

criterion_group!(benches, punycode);
criterion_main!(benches);
