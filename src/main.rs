//! The `punycheck` command line: arguments parsed by clap (`args.rs`),
//! turned into the settings of `crate::commands`, which does the work;
//! its outcome becomes the exit status (`punycheck --help` lists them).

use std::io::{self, BufRead};
use std::process::ExitCode;

mod args;
mod commands;
mod config;
mod report;

use crate::commands::cost::CostSettings;
use crate::commands::diff::DiffSettings;
use crate::commands::lines::{self, Direction, LineSettings};
use crate::commands::repro::{Question, ReproSettings, Save};
use crate::commands::{INTERRUPTED, Outcome, Output, Stop};
use args::{BenchArgs, Cli, Command, CostArgs, DiffArgs, ReproArgs};
use clap::Parser;
use punycheck::bench;
use punycheck::codec::Codec;
use punycheck::engines::process;
use punycheck::harness::cost::Bounds;

fn diff_settings(codec: Codec, args: DiffArgs) -> DiffSettings {
    DiffSettings {
        codec,
        specs: args.specs,
        seed: args.seed,
        cases: args.cases,
        seconds: args.seconds,
        implementation: args.declared.implementation(),
    }
}

fn repro_settings(codec: Codec, args: ReproArgs) -> ReproSettings {
    ReproSettings {
        codec,
        implementation: crate::config::Implementation {
            entry_points: (!args.entry_points.is_empty()).then_some(args.entry_points),
            ..args.implementation.implementation()
        },
        question: Question {
            encode: args.encode,
            no_flags: args.no_flags,
            decode: args.decode,
            decode_hex: args.decode_hex,
            decode_of: args.decode_of,
            encode_file: args.encode_file,
            decode_file: args.decode_file,
        },
        properties: args.properties,
        slower_than: args.slower_than,
        cost_max: args.cost_max.map(|n| n as usize),
        save: args.save.map(|path| Save {
            path,
            name: args.name,
            provenance: args.provenance,
        }),
    }
}

fn cost_settings(codec: Codec, args: CostArgs) -> CostSettings {
    let default = Bounds::default();
    CostSettings {
        codec,
        implementation: args.implementation.implementation(),
        bounds: Bounds {
            budget: args
                .cost_budget
                .map_or(default.budget, std::time::Duration::from_secs_f64),
            max: args.cost_max.map_or(default.max, |n| n as usize),
        },
        seconds: args.seconds,
        plot: args.plot,
    }
}

fn bench(args: BenchArgs, out: &mut Output) -> Outcome {
    let mut settings = if args.quick {
        bench::Settings::quick()
    } else {
        bench::Settings::full()
    };
    if let Some(n) = args.max_size {
        settings = settings.with_max_size(n).map_err(|e| e.to_string())?;
    }
    if let Some(s) = args.seconds_per_case {
        settings = settings
            .with_seconds_per_case(s)
            .map_err(|e| e.to_string())?;
    }
    let files = commands::bench::BenchOutputs {
        plot: args.plot,
        json: args.json,
        markdown: args.markdown,
    };
    commands::bench::run(&settings, &files, out)
}

fn main() -> ExitCode {
    // A so: library's worker process is this binary, started by itself.
    if let Some(status) = punycheck::engines::so::worker_entry() {
        return status;
    }
    let cli = Cli::parse();
    // Every program an implementation spec starts ends with this run, also
    // on Ctrl-C or SIGTERM, and so do the orphans those programs leave.
    process::adopt_orphans();
    // `check` reports what it found so far when interrupted: it stops
    // asking, and writes its report and files, marked interrupted. Other
    // commands, and a check that cannot finish its report in time or is
    // interrupted again, end at once.
    let reports = matches!(cli.command, Some(Command::Check(_)));
    let first = std::sync::OnceLock::new();
    let _ = ctrlc::set_handler(move || {
        // A signal sent to the process and to its group at once (GNU
        // timeout, CI runners) arrives twice: the same interruption.
        let again = first
            .get()
            .is_some_and(|at: &std::time::Instant| at.elapsed() >= SAME_SIGNAL);
        if !reports || again {
            process::interrupt();
            std::process::exit(INTERRUPTED.into());
        }
        if first.set(std::time::Instant::now()).is_err() {
            return;
        }
        process::interrupt();
        let _ = std::thread::Builder::new()
            .name("report-deadline".into())
            .spawn(|| {
                std::thread::sleep(REPORT_GRACE);
                commands::warn(&format!(
                    "punycheck: interrupted, and the report was not written within {} s",
                    REPORT_GRACE.as_secs()
                ));
                process::end_all();
                std::process::exit(INTERRUPTED.into());
            });
    });
    let code = run(cli);
    process::end_all();
    // A command that ended because the interruption killed its programs
    // exits as interrupted, not with what their deaths made of it.
    if process::interrupted() {
        return ExitCode::from(INTERRUPTED);
    }
    code
}

/// How soon a second Ctrl-C or SIGTERM is the same interruption as the
/// first (one signal sent to the process and to its group): later, it
/// ends the check at once.
const SAME_SIGNAL: std::time::Duration = std::time::Duration::from_secs(1);

/// How long an interrupted check may take to write its report: CI systems
/// follow their SIGTERM with a SIGKILL a few seconds later.
const REPORT_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// Runs the command; the exit code says how it went.
fn run(cli: Cli) -> ExitCode {
    // check resolves its label options with punycheck.toml's.
    let check = matches!(cli.command, Some(Command::Check(_)));
    let chosen = match cli.chosen_codec() {
        _ if check => cli.codec,
        Ok(chosen) => chosen,
        Err(message) => {
            commands::warn(&format!("punycheck: {message}"));
            return ExitCode::from(Stop::Setup(message).code());
        }
    };
    let codec = chosen.unwrap_or(Codec::Punycode);
    let out = &mut Output::stdout();
    let lines_of = |direction, implementation: args::ImplArgs, codepoints, mode| LineSettings {
        codec,
        direction,
        implementation: implementation.implementation(),
        codepoints,
        mode,
    };
    let result = match cli.command {
        None => commands::listing::matrix(chosen, out),
        Some(Command::Encode {
            implementation,
            codepoints,
            utf8,
            text,
        }) => lines::run(
            &lines_of(Direction::Encode, implementation, codepoints, utf8),
            &arguments(&text),
            &mut io::stdin().lock() as &mut dyn BufRead,
            out,
        ),
        Some(Command::Decode {
            implementation,
            codepoints,
            utf8,
            text,
        }) => lines::run(
            &lines_of(Direction::Decode, implementation, codepoints, utf8),
            &arguments(&text),
            &mut io::stdin().lock() as &mut dyn BufRead,
            out,
        ),
        Some(Command::Vectors {
            files,
            export: Some(path),
            ..
        }) => commands::listing::export(&files, &path, out),
        Some(Command::Vectors {
            specs,
            files,
            declared,
            verbose,
            export: None,
        }) => commands::listing::vectors(
            chosen,
            &specs,
            &files,
            &declared.implementation(),
            verbose,
            out,
        ),
        Some(Command::Diff(args)) => commands::diff::run(&diff_settings(codec, args), out),
        Some(Command::Check(args)) => {
            // The label options stay options here, laid over those of
            // punycheck.toml, and the codec is resolved from both.
            let timings = args.timings;
            let (mut layer, config) = args.layer();
            layer.check.codec = cli.codec;
            layer.check.label_rules = cli.label_rules;
            layer.check.check_hyphens = cli.check_hyphens;
            layer.check.std3_rules = cli.std3_rules;
            layer.check.verify_dns_length = cli.verify_dns_length;
            layer.check.check_bidi = cli.check_bidi;
            layer.check.check_joiners = cli.check_joiners;
            layer.check.transitional_processing = cli.transitional_processing;
            layer.check.ignore_invalid_punycode = cli.ignore_invalid_punycode;
            layer.check.be_strict = cli.be_strict;
            layer.check.url_ascii_fallback = cli.url_ascii_fallback;
            commands::check::run(layer, config.as_deref(), timings, out)
        }
        Some(Command::Repro(args)) => commands::repro::run(&repro_settings(codec, args), out),
        Some(Command::Cost(args)) => commands::cost::run(&cost_settings(codec, args), out),
        Some(Command::List) => commands::listing::list(chosen, out),
        Some(Command::Bench(args)) => bench(args, out),
        Some(Command::Survey(args)) => match (args.compare.as_deref(), &args.docs) {
            (Some([old, new]), _) => commands::survey::compare(old, new, out),
            (_, Some(files)) => commands::survey_docs::run(&args.gates, files, args.check, out),
            _ => commands::survey::run(
                &commands::survey::SurveySettings {
                    gates: args.gates,
                    out: args.out.unwrap_or_default(),
                    jobs: args.jobs.map(|n| n as usize),
                },
                out,
            ),
        },
        Some(Command::RfcWrapper { args }) => commands::rfc_wrapper::run(&args),
        Some(Command::Serve { implementation }) => commands::serve::run(
            codec,
            &implementation.implementation(),
            &mut io::stdin().lock() as &mut dyn BufRead,
            &mut io::stdout().lock(),
        ),
        Some(Command::WrapperPath) => Err(Stop::Setup(
            "wrapper-path is gone: the RFC's wrapper is built in; use --impl 'exec:punycheck rfc-wrapper'"
                .into(),
        )),
    };
    match result {
        Ok(status) => ExitCode::from(status.code()),
        Err(stop) => {
            if let Stop::Setup(message) = &stop {
                commands::warn(&format!("punycheck: {message}"));
            }
            ExitCode::from(stop.code())
        }
    }
}

/// Lines given as arguments, as their bytes.
fn arguments(text: &[std::ffi::OsString]) -> Vec<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    text.iter().map(|a| a.as_bytes().to_vec()).collect()
}
