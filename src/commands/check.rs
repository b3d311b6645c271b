//! `punycheck check`: the conformance gate of one implementation, with its
//! settings from the command line over `punycheck.toml`, its reports (text,
//! JSON, JUnit: one on standard output, and `--json FILE` and `--junit
//! FILE` beside it), saved regressions and baselines.
//!
//! A setup error (an unknown implementation, a program that cannot start,
//! an unreadable file, ...) still writes the JSON and JUnit files asked
//! for, each saying what went wrong, so that a CI system reads an error
//! rather than an empty or missing file.

use std::path::Path;
use std::time::Duration;

use super::progress::{Progress, View};
use super::{
    Implementation, MAX_SECONDS, MAX_TIMEOUT, Outcome, Output, Stop, check_seconds, chosen_seed,
    codec_arg, warn,
};
use crate::config::{self, Config};
use punycheck::codec::Codec;
use punycheck::engines::{self, process};
use punycheck::harness::baseline::Baseline;
use punycheck::harness::check::{self, CheckSettings, Phase};
use punycheck::harness::cost;
use punycheck::harness::regressions;
use punycheck::harness::report::{self, CheckReport};
use punycheck::harness::runner::{BUILTIN_EXPECTATIONS, Expectations};
use punycheck::harness::vectors::{self, Case};

/// The report on standard output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Readable text.
    Text,
    /// JSON (see `docs/report.schema.json`).
    Json,
    /// JUnit XML.
    Junit,
}

impl Format {
    /// The format named `name` (`text`, `json`, `junit`).
    pub fn named(name: &str) -> Option<Format> {
        match name {
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            "junit" => Some(Format::Junit),
            _ => None,
        }
    }
}

/// `check` as the command line gives it; anything not given comes from
/// the configuration file, then from the defaults.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// `--codec`.
    pub codec: Option<Codec>,
    /// `--impl`.
    pub spec: Option<String>,
    /// The declaration options and `--timeout`.
    pub implementation: Implementation,
    /// `--config`: the configuration file (default `punycheck.toml` when
    /// it exists).
    pub config: Option<String>,
    /// `--seconds`.
    pub seconds: Option<f64>,
    /// `--cases`.
    pub cases: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--format`.
    pub format: Option<Format>,
    /// `--json FILE`.
    pub json: Option<String>,
    /// `--junit FILE`.
    pub junit: Option<String>,
    /// `--save-regressions FILE`.
    pub save_regressions: Option<String>,
    /// `--file FILE`s.
    pub files: Vec<String>,
    /// `--baseline FILE`.
    pub baseline: Option<String>,
    /// `--write-baseline FILE`.
    pub write_baseline: Option<String>,
    /// `--fail-fast`.
    pub fail_fast: bool,
    /// `--cost-budget SECONDS`.
    pub cost_budget: Option<f64>,
    /// `--cost-max N`.
    pub cost_max: Option<usize>,
    /// `--no-cost`.
    pub no_cost: bool,
}

/// Where the reports go.
#[derive(Clone, Debug)]
struct Reports {
    format: Format,
    json: Option<String>,
    junit: Option<String>,
}

impl Reports {
    /// Writes the report of a setup error to each report file and, for
    /// JSON and JUnit, to standard output.
    fn setup_error(&self, spec: &str, message: &str, out: &mut Output) {
        // A program killed by Ctrl-C or SIGTERM fails the probe: that is the
        // interruption, not a setup error.
        let interrupted = process::interrupted();
        let json = report::setup_error_json(spec, message, interrupted);
        let junit = crate::report::junit::setup_error_junit(spec, message, interrupted);
        for (path, text) in [(&self.json, &json), (&self.junit, &junit)] {
            // A report file that cannot be written is the setup error
            // itself when the message names it: said once, not twice.
            if let Some(path) = path
                && let Err(e) = std::fs::write(path, text)
                && !message.contains(path.as_str())
            {
                warn(&format!("punycheck: cannot write {path}: {e}"));
            }
        }
        let _ = match self.format {
            Format::Text => Ok(()),
            Format::Json => out.print(&json),
            Format::Junit => out.print(&junit),
        };
    }
}

/// Runs `check`: conforming, nonconforming, or incomplete (nothing found
/// in what ran, but not everything ran).
pub fn run(options: &CheckOptions, out: &mut Output) -> Outcome {
    let mut reports = Reports {
        format: options.format.unwrap_or(Format::Text),
        json: options.json.clone(),
        junit: options.junit.clone(),
    };
    let spec_given = options.spec.clone().unwrap_or_default();
    let file = match load_config(options) {
        Ok(file) => file,
        Err(message) => {
            reports.setup_error(&spec_given, &message, out);
            return Err(Stop::Setup(message));
        }
    };
    // A gate run from the wrong directory, or with a configuration that
    // names nothing, must not pass by checking a built-in instead.
    let spec = options
        .spec
        .clone()
        .or(file.implementation.spec.clone())
        .ok_or_else(|| no_implementation(options));
    reports.json = reports.json.or(file.check.json.clone());
    reports.junit = reports.junit.or(file.check.junit.clone());
    let format = match (options.format, &file.check.format) {
        (Some(format), _) => Ok(format),
        (None, Some(name)) => Format::named(name)
            .ok_or_else(|| format!("unknown format {name:?} in the configuration")),
        (None, None) => Ok(Format::Text),
    };
    if let Ok(format) = format {
        reports.format = format;
    }
    let prepared = format
        .and_then(|_| spec.clone())
        .and_then(|spec| prepare(options, &file, &spec, &reports));
    let (setup, engine, cases, expectations) = match prepared {
        Ok(prepared) => prepared,
        Err(message) => {
            reports.setup_error(spec.as_deref().unwrap_or(&spec_given), &message, out);
            return Err(Stop::Setup(message));
        }
    };
    let mut progress = Progress::stderr(true);
    let report = check::run(
        engine.as_ref(),
        &cases,
        &expectations,
        &setup.settings,
        &mut |phase, done, total| {
            progress.show(&match phase {
                Phase::Vectors => View::new("vectors", done, total),
                Phase::Cost => View::spinner("timing the cost probe's long inputs"),
                Phase::Generated => View::new("generated questions", done, total),
                Phase::Causes => View::spinner("minimizing and confirming causes"),
            })
        },
    );
    progress.finish();
    if let Some(path) = &options.save_regressions {
        save_regressions(setup.codec, path, &report)?;
    }
    if let Some(path) = &options.write_baseline {
        write_baseline(path, &report)?;
    }
    for (path, text) in [
        (&reports.json, report.to_json()),
        (&reports.junit, crate::report::junit::report(&report)),
    ] {
        if let Some(path) = path {
            std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
        }
    }
    let printed = match reports.format {
        Format::Text => out.print(&report.to_text()),
        Format::Json => out.print(&report.to_json()),
        Format::Junit => out.print(&crate::report::junit::report(&report)),
    };
    // A closed standard output does not change the verdict of a gate.
    match printed {
        Ok(()) | Err(Stop::Closed) => {}
        Err(e) => return Err(e),
    }
    Ok(report.status())
}

/// The working directory, for messages.
fn working_directory() -> String {
    std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|_| "the working directory".into())
}

/// The error of a check that names no implementation.
fn no_implementation(options: &CheckOptions) -> String {
    let file = match &options.config {
        Some(path) => format!("{path} names none"),
        None => {
            let cwd = working_directory();
            if Path::new(config::DEFAULT_FILE).exists() {
                format!("{} in {cwd} names none", config::DEFAULT_FILE)
            } else {
                format!("there is no {} in {cwd}", config::DEFAULT_FILE)
            }
        }
    };
    format!(
        "no implementation to check ({file}): name one with --impl SPEC (a built-in such as \
         cleanroom, or pipe:COMMAND, exec:COMMAND, so:PATH; see punycheck list), or with spec = \
         \"...\" under [implementation] in {}",
        config::DEFAULT_FILE
    )
}

/// The hint for a file named in `punycheck.toml` that cannot be read:
/// where its path was taken from.
fn from_working_directory() -> String {
    format!(
        " (paths in {} are taken from the working directory, {}, as on the command line)",
        config::DEFAULT_FILE,
        working_directory()
    )
}

/// Records the causes of `report` as the baseline at `path`, keeping the
/// note of every cause the file already recorded (a file that does not
/// exist yet, or does not parse, is simply replaced).
fn write_baseline(path: &str, report: &CheckReport) -> Result<(), String> {
    let mut baseline = Baseline::of(&report.campaign.causes);
    if let Some(old) = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| Baseline::parse(&text).ok())
    {
        for entry in &mut baseline.cause {
            if let Some(kept) = old
                .cause
                .iter()
                .find(|o| o.key().is_some() && o.key() == entry.key() && !o.note.is_empty())
            {
                entry.note = kept.note.clone();
            }
        }
    }
    std::fs::write(path, baseline.to_toml()).map_err(|e| format!("cannot write {path}: {e}"))
}

fn load_config(options: &CheckOptions) -> Result<Config, String> {
    match &options.config {
        Some(path) => Config::load(Path::new(path), true),
        None => Config::load(Path::new(config::DEFAULT_FILE), false),
    }
}

/// Everything resolved before the run.
struct Setup {
    codec: Codec,
    settings: CheckSettings,
}

type Prepared = (Setup, Box<dyn engines::Engine>, Vec<Case>, Expectations);

/// Resolves every setting and refuses what cannot work before the run
/// starts: bad numbers, unreadable inputs, unwritable outputs, an
/// implementation that cannot be started.
fn prepare(
    options: &CheckOptions,
    file: &Config,
    spec: &str,
    reports: &Reports,
) -> Result<Prepared, String> {
    let codec = match (options.codec, &file.check.codec) {
        (Some(codec), _) => codec,
        (None, Some(name)) => Codec::ALL
            .into_iter()
            .find(|c| c.to_string() == *name)
            .ok_or_else(|| format!("unknown codec {name:?} in the configuration"))?,
        (None, None) => Codec::Punycode,
    };
    let declared = options.implementation.over(&file.implementation);
    let seconds = options.seconds.or(file.check.seconds).unwrap_or(30.0);
    let seconds = check_seconds(seconds, MAX_SECONDS).map_err(|e| format!("--seconds {e}"))?;
    // A run that writes a baseline records the causes afresh: the one the
    // configuration names (which it may be about to create or replace) is
    // not read; one given on the command line still is.
    let configured = file
        .check
        .baseline
        .as_ref()
        .filter(|_| options.write_baseline.is_none());
    let baseline = match options.baseline.as_ref().or(configured) {
        Some(path) => Some(Baseline::parse(&std::fs::read_to_string(path).map_err(
            |e| {
                let hint = if options.baseline.is_none() {
                    from_working_directory()
                } else {
                    String::new()
                };
                format!("cannot read {path}: {e}{hint}")
            },
        )?)?),
        None => None,
    };
    let mut files = file.check.files.clone();
    files.extend(options.files.iter().cloned());
    // Where the run will write, refused before it starts.
    for path in [
        &options.save_regressions,
        &options.write_baseline,
        &reports.json,
        &reports.junit,
    ]
    .into_iter()
    .flatten()
    {
        regressions::check_writable(path)?;
    }
    let engine = engines::from_spec(spec, &declared.options(codec)?).map_err(|e| e.to_string())?;
    let seed = chosen_seed(options.seed.or(file.check.seed));
    let cases: Vec<Case> = vectors::load(&files)
        .map_err(|e| {
            if file.check.files.is_empty() {
                e
            } else {
                e + &from_working_directory()
            }
        })?
        .into_iter()
        .filter(|c| c.codec == codec)
        .collect();
    let expectations = Expectations::parse(BUILTIN_EXPECTATIONS)?;
    let cost_on = !options.no_cost && file.check.cost != Some(false);
    let budget = options
        .cost_budget
        .or(file.check.cost_budget)
        .map(|s| check_seconds(s, MAX_TIMEOUT).map_err(|e| format!("--cost-budget {e}")))
        .transpose()?;
    let max = options.cost_max.or(file.check.cost_max);
    if let Some(n) = max.filter(|n| !(cost::FIRST_SIZE..=cost::LARGEST_MAX).contains(n)) {
        return Err(format!(
            "cost-max must be from {} to {}, not {n}",
            cost::FIRST_SIZE,
            cost::LARGEST_MAX
        ));
    }
    let cost = cost_on.then(|| {
        let default = cost::Bounds::default();
        cost::Bounds {
            budget: budget.map_or(default.budget, Duration::from_secs_f64),
            max: max.unwrap_or(default.max),
        }
    });
    let settings = CheckSettings {
        time: Duration::from_secs_f64(seconds),
        cases: options.cases.or(file.check.cases),
        seed,
        fail_fast: options.fail_fast || file.check.fail_fast == Some(true),
        repro_prefix: format!(
            "punycheck repro{} --impl {}{}",
            codec_arg(codec),
            shell_words::quote(spec),
            declared.printed()
        ),
        spec: spec.to_string(),
        declared_options: declared.declaration.options(),
        baseline,
        cost,
    };
    Ok((Setup { codec, settings }, engine, cases, expectations))
}

/// Appends each cause's shortest request to the regression file at `path`
/// (a question the file already asks is not added again).
fn save_regressions(codec: Codec, path: &str, report: &CheckReport) -> Result<(), Stop> {
    let mut file = regressions::File::open(path, codec)?;
    for cause in &report.campaign.causes {
        let provenance = format!(
            "Found by `punycheck check{} --impl {}{} --seed {}` ({}: {})",
            codec_arg(codec),
            report.implementation,
            report.declared_options,
            report.seed,
            cause.key,
            cause.detail,
        );
        let name = format!("regression-seed{}", report.seed);
        if let Some(saved) = file.add(&name, &cause.request, &provenance)? {
            warn(&format!("saved as case {saved:?} in {path}"));
        }
    }
    Ok(file.save()?)
}
