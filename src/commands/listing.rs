//! `punycheck list`, `punycheck vectors` and the default command (the
//! conformance matrix of every built-in implementation).

use super::{Outcome, Output, Status, codecs};
use crate::config::Implementation;
use punycheck::codec::Codec;
use punycheck::engines::declaration::describe;
use punycheck::engines::{self, Engine};
use punycheck::harness::runner::{self, Outcome as Row};
use punycheck::harness::vectors::{self, Case};
use punycheck::harness::{classes, cost, matrix};

/// `punycheck list`: the built-in implementations of each codec (or the
/// one chosen) with what each declares, and those this build lacks.
pub fn list(codec: Option<Codec>, out: &mut Output) -> Outcome {
    for codec in codecs(codec) {
        say!(out, "--codec {codec} ({}):", codec.specification());
        for (k, engine) in engines::builtin_for(codec).iter().enumerate() {
            let caps = engine.capabilities();
            let reference = if k == 0 { " (reference)" } else { "" };
            // In the words and values the options and punycheck.toml take.
            say!(
                out,
                "  {:<10} {}; {}{reference}",
                engine.name(),
                describe(&caps),
                caps.punycode_input.described()
            );
        }
        for missing in engines::missing_for(codec) {
            say!(
                out,
                "  {:<10} not in this build: {}",
                missing.name,
                missing.why
            );
        }
    }
    say!(
        out,
        "exec:CMD   any program following RFC 3492 Appendix C's test wrapper convention"
    );
    say!(
        out,
        "pipe:CMD   any program answering punycheck's line protocol (one process kept per job)"
    );
    say!(
        out,
        "so:PATH    a C library exporting Appendix C's punycode_encode and punycode_decode"
    );
    Ok(Status::Conforming)
}

/// What each built-in costs on distinct code points (the family that makes
/// RFC 3492's algorithm quadratic), each way: the growth per doubling and
/// the largest size answered within 1 s. Information: the RFC's own code is
/// quadratic, and the matrix does not fail on it (`punycheck cost` has the
/// full profile).
fn say_cost(engines: &[Box<dyn Engine>], out: &mut Output) -> Result<(), super::Stop> {
    let bounds = cost::Bounds::default();
    say!(
        out,
        "cost on {} code points, up to {} (CPU time: growth per doubling; largest size within {} s):",
        cost::Family::DistinctAscending.name(),
        bounds.max,
        bounds.budget.as_secs_f64()
    );
    for engine in engines {
        let mut line = format!("  {:<10}", engine.name());
        for direction in [cost::Direction::Encode, cost::Direction::Decode] {
            let settings = cost::Settings {
                budget: bounds.budget,
                max: bounds.max,
                until: std::time::Instant::now() + bounds.budget * 20,
            };
            let (series, _) = cost::measure(
                engine.as_ref(),
                cost::Family::DistinctAscending,
                direction,
                &settings,
            );
            let growth = series
                .growth()
                .map_or("too fast to read a growth".to_string(), cost::growth_words);
            let within = series
                .largest_size_within(bounds.budget)
                .map_or("none".to_string(), |n| {
                    format!("{n} {}", cost::unit(direction))
                });
            line += &format!(" {}: {growth}, {within};", direction.name());
        }
        say!(out, "{}", line.trim_end_matches(';'));
    }
    say!(out);
    Ok(())
}

/// Names the built-ins this build lacks, for a matrix or a vector report.
fn say_missing(codec: Codec, out: &mut Output) -> Result<(), super::Stop> {
    let missing = engines::missing_for(codec);
    if !missing.is_empty() {
        say!(out, "not in this build (not compared):");
        for m in missing {
            say!(out, "  {}: {}", m.name, m.why);
        }
        say!(out);
    }
    Ok(())
}

/// `punycheck vectors`: the vector files (and `files`) over `specs`, or
/// over every built-in implementation of each codec when none is named.
/// `vectors --export FILE`: every vector of every codec, and those of
/// `files`, as one JSON document ([`export`](punycheck::harness::export))
/// written to `path` (`-`: standard output). Runs nothing.
pub fn export(files: &[String], path: &str, out: &mut Output) -> Outcome {
    let cases = vectors::load(files)?;
    let text = punycheck::harness::export::to_json(&cases);
    if path == "-" {
        out.print(&text)?;
    } else {
        std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
        super::warn(&format!(
            "wrote {} tests of {} vector files to {path}",
            cases.len(),
            {
                let mut files: Vec<&str> = cases.iter().map(|c| c.file.as_str()).collect();
                files.sort_unstable();
                files.dedup();
                files.len()
            }
        ));
    }
    Ok(Status::Conforming)
}

pub fn vectors(
    codec: Option<Codec>,
    specs: &[String],
    files: &[String],
    implementation: &Implementation,
    verbose: bool,
    out: &mut Output,
) -> Outcome {
    let all_cases = vectors::load(files)?;
    let mut clean = true;
    let chosen = if specs.is_empty() {
        codecs(codec)
    } else {
        let codec = codec.unwrap_or(Codec::Punycode);
        vectors::refuse_other_codecs(files, codec)?;
        vec![codec]
    };
    for codec in chosen {
        let engines = if specs.is_empty() {
            engines::builtin_for(codec)
        } else {
            let options = implementation.options(codec)?;
            specs
                .iter()
                .map(|s| engines::from_spec(s, &options))
                .collect::<Result<Vec<_>, _>>()?
        };
        let cases: Vec<Case> = runner::cases_for(&all_cases, codec);
        let report = runner::run_with_builtin_expectations(&engines, &cases, None)?;
        say!(
            out,
            "{codec} ({}): {} vectors, {} implementations\n",
            codec.specification(),
            cases.len(),
            engines.len()
        );
        if specs.is_empty() {
            say_missing(codec, out)?;
        }
        out.print(&report.to_string())?;
        if verbose {
            say!(out, "\nevery skip and known deviation:");
            for row in &report.rows {
                match &row.outcome {
                    Row::Skip(why) => say!(out, "  {} skips {}: {why}", row.engine, row.case),
                    Row::KnownDeviation(why) => {
                        say!(out, "  {} deviates on {}: {why}", row.engine, row.case)
                    }
                    _ => {}
                }
            }
        }
        say!(out);
        clean &= report.failures().count() == 0;
    }
    Ok(Status::of(clean))
}

/// The default command: for each codec, vectors and a differential run over
/// every built-in implementation, as a matrix.
pub fn matrix(codec: Option<Codec>, out: &mut Output) -> Outcome {
    let all_cases = vectors::load(&[])?;
    let mut clean = true;
    for codec in codecs(codec) {
        let engines: Vec<Box<dyn Engine>> = engines::builtin_for(codec);
        let cases: Vec<Case> = runner::cases_for(&all_cases, codec);
        say!(
            out,
            "=== {codec} ({}): {} built-in implementations, the first is the reference\n",
            codec.specification(),
            engines.len()
        );
        say_missing(codec, out)?;
        let report = runner::run_with_builtin_expectations(&engines, &cases, None)?;
        say!(out, "vectors ({} cases):\n", cases.len());
        out.print(&report.to_string())?;
        let seed = 3492;
        // Punycode has the most implementations and the most to find.
        let questions = if codec == Codec::Punycode {
            20_000
        } else {
            5_000
        };
        let m = matrix::run(&engines, seed, questions);
        say!(out, "\ndifferential (seed {seed}): {}", m.to_text());
        clean &= report.failures().count() == 0 && m.clean();
        if codec == Codec::Punycode {
            say_cost(&engines, out)?;
        }
    }
    say!(
        out,
        "divergence classes (crates/punycheck/vectors/divergence-classes.toml):"
    );
    for entry in classes::table() {
        say!(out, "  {:<13} {}", entry.id, entry.title);
    }
    say!(
        out,
        "\n{}",
        if clean {
            "no unexplained difference: every one is a declared divergence class or a listed deviation (bugs marked BUG)"
        } else {
            "UNEXPLAINED DIFFERENCES: see above; `punycheck check --impl NAME` minimizes them"
        }
    );
    Ok(Status::of(clean))
}
