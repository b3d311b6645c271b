//! The `punycheck` command line: argument parsing and calls into the library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use punycheck::engines::{self, Engine};
use punycheck::harness::runner::{self, BUILTIN_EXPECTATIONS, Expectations};
use punycheck::harness::vectors;

/// Checks Punycode (RFC 3492) implementations against each other.
///
/// With no command, runs every built-in implementation over every vector.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Runs the vector files over implementations (default: all built-in).
    Vectors {
        /// An implementation to run: one of the built-in names (repeatable).
        #[arg(long = "impl", value_name = "NAME")]
        implementations: Vec<String>,
        /// Also list every skip and known deviation, case by case.
        #[arg(long)]
        verbose: bool,
    },
    /// Lists the built-in implementations and what each declares.
    List,
}

fn select(names: &[String]) -> Result<Vec<Box<dyn Engine>>, String> {
    if names.is_empty() {
        return Ok(engines::builtin());
    }
    names
        .iter()
        .map(|name| {
            engines::by_name(name).ok_or_else(|| {
                format!(
                    "unknown implementation {name:?}; built-in: {}",
                    engines::builtin_names().join(", ")
                )
            })
        })
        .collect()
}

fn run_vectors(names: &[String], verbose: bool) -> Result<bool, String> {
    let engines = select(names)?;
    let cases = vectors::builtin()?;
    let expectations = Expectations::parse(BUILTIN_EXPECTATIONS)?;
    expectations.validate(&engines::builtin_names(), &cases)?;
    let report = runner::run(&engines, &cases, &expectations);
    println!(
        "{} vectors from {} files, {} implementations\n",
        cases.len(),
        vectors::BUILTIN.len(),
        engines.len()
    );
    print!("{report}");
    if verbose {
        println!("\nevery skip and known deviation:");
        for row in &report.rows {
            match &row.outcome {
                runner::Outcome::Skip(why) => {
                    println!("  {} skips {}: {why}", row.engine, row.case)
                }
                runner::Outcome::KnownDeviation(why) => {
                    println!("  {} deviates on {}: {why}", row.engine, row.case)
                }
                _ => {}
            }
        }
    }
    let failed = report.failures().count();
    println!(
        "\n{}",
        if failed == 0 {
            "all implementations conform on every vector they can run".to_string()
        } else {
            format!("{failed} failures")
        }
    );
    Ok(failed == 0)
}

fn list() {
    for engine in engines::builtin() {
        let caps = engine.capabilities();
        println!(
            "{:<10} domain {:?}, annotations {}, errors {:?}, decodes from {:?}",
            engine.name(),
            caps.domain,
            if caps.annotations { "yes" } else { "no" },
            caps.errors,
            caps.punycode_input
        );
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => run_vectors(&[], false),
        Some(Command::Vectors {
            implementations,
            verbose,
        }) => run_vectors(&implementations, verbose),
        Some(Command::List) => {
            list();
            Ok(true)
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("punycheck: {message}");
            ExitCode::from(2)
        }
    }
}
