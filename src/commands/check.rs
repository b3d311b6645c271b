//! `punycheck check`: the conformance gate of one implementation, with its
//! settings from the command line over `punycheck.toml`, its reports (text,
//! JSON, JUnit, SARIF: one on standard output, and `--json FILE`, `--junit
//! FILE` and `--sarif FILE` beside it), saved regressions and baselines.
//!
//! A setup error (an unknown implementation, a program that cannot start,
//! an unreadable file, ...) still writes the JSON, JUnit and SARIF files
//! asked for, each saying what went wrong, so that a CI system reads an error
//! rather than an empty or missing file.

use std::path::Path;
use std::time::Duration;

use super::progress::{Progress, View};
use super::{Outcome, Output, Stop, chosen_seed, codec_arg, warn};
use crate::config::{self, Config, Format, MAX_SECONDS, MAX_TIMEOUT, check_seconds};
use crate::report::{self, Rendered};
use punycheck::codec::Codec;
use punycheck::engines::{self, process};
use punycheck::harness::baseline::{self, Baseline};
use punycheck::harness::check::{self, CheckSettings, Phase};
use punycheck::harness::cost;
use punycheck::harness::regressions;
use punycheck::harness::report::CheckReport;
use punycheck::harness::runner::{self, BUILTIN_EXPECTATIONS, Expectations};
use punycheck::harness::sweep::{self, Span};
use punycheck::harness::vectors::{self, Case};
use punycheck::harness::witness;

/// Where the reports go.
#[derive(Clone, Debug)]
struct Reports {
    format: Format,
    json: Option<String>,
    junit: Option<String>,
    sarif: Option<String>,
}

impl Reports {
    /// The reports `settings` ask for.
    fn of(settings: &Config) -> Reports {
        Reports {
            format: settings.check.format.unwrap_or_default(),
            json: settings.check.json.clone(),
            junit: settings.check.junit.clone(),
            sarif: settings.check.sarif.clone(),
        }
    }

    /// The files asked for, each with its format.
    fn files(&self) -> impl Iterator<Item = (&String, Format)> {
        let json = self.json.iter().map(|p| (p, Format::Json));
        let junit = self.junit.iter().map(|p| (p, Format::Junit));
        json.chain(junit)
            .chain(self.sarif.iter().map(|p| (p, Format::Sarif)))
    }

    /// Writes the report of a setup error to each report file and, for
    /// JSON and JUnit, to standard output.
    fn setup_error(&self, spec: &str, message: &str, out: &mut Output) {
        // A program killed by Ctrl-C or SIGTERM fails the probe: that is the
        // interruption, not a setup error.
        let interrupted = process::interrupted();
        let of = |format| report::setup_error(format, spec, message, interrupted);
        for (path, format) in self.files() {
            // A report file that cannot be written is the setup error
            // itself when the message names it: said once, not twice.
            if let Some(text) = of(format)
                && let Err(e) = std::fs::write(path, text)
                && !message.contains(path.as_str())
            {
                warn(&format!("punycheck: cannot write {path}: {e}"));
            }
        }
        if let Some(text) = of(self.format) {
            let _ = out.print(&text);
        }
    }
}

/// Runs `check` with the command line's settings (`command_line`) over
/// the configuration file's (`config`, or `punycheck.toml` when it
/// exists): conforming, nonconforming, or incomplete (nothing found in
/// what ran, but not everything ran). With `timings`, where its time
/// went, on standard error.
pub fn run(command_line: Config, config: Option<&str>, timings: bool, out: &mut Output) -> Outcome {
    let spec_given = command_line.implementation.spec.clone().unwrap_or_default();
    let file_path = Path::new(config.unwrap_or(config::DEFAULT_FILE));
    let loaded = load_config(config).and_then(|file| {
        let root = file.root_of(file_path)?;
        Ok((file, root))
    });
    let (file, root) = match loaded {
        Ok(loaded) => loaded,
        Err(message) => {
            let reports = Reports::of(&command_line);
            reports.setup_error(&spec_given, &message, out);
            return Err(Stop::Setup(message));
        }
    };
    // Said before the check moves to the file's root, if it does.
    let read = config_read(config);
    let paths_from = paths_from(file_path, root.as_deref());
    // A root other than the working directory: the command line's paths
    // stay the working directory's, made absolute, and the check runs in
    // the root, where the file's paths and commands are taken from.
    let moved = match root.filter(|root| Some(root) != current_dir().as_ref()) {
        Some(root) => match current_dir() {
            Some(cwd) => Some((root, cwd)),
            None => {
                let message = "the working directory cannot be read, so the command line's \
                               paths cannot be told from the root's"
                    .to_string();
                Reports::of(&command_line).setup_error(&spec_given, &message, out);
                return Err(Stop::Setup(message));
            }
        },
        None => None,
    };
    let mut command_line = command_line;
    if let Some((_, cwd)) = &moved {
        absolute_paths(&mut command_line.check, cwd);
    }
    // A run that writes a baseline records the causes afresh: the one the
    // configuration names (which it may be about to create or replace) is
    // not read; one given on the command line still is.
    let baseline_from_file = command_line.check.baseline.is_none();
    let mut lower = file;
    if command_line.check.write_baseline.is_some() {
        lower.check.baseline = None;
    }
    let files_from_file = !lower.check.files.is_empty();
    let settings = command_line.over(lower);
    let reports = Reports::of(&settings);
    // A gate run from the wrong directory, or with a configuration that
    // names nothing, must not pass by checking a built-in instead.
    let spec = settings
        .implementation
        .spec
        .clone()
        .ok_or_else(|| no_implementation(config));
    let moved_to = match moved {
        Some((root, _)) => match std::env::set_current_dir(&root) {
            Ok(()) => Some(root),
            Err(e) => {
                let message = format!("cannot run in the root {}: {e}", root.display());
                reports.setup_error(&spec_given, &message, out);
                return Err(Stop::Setup(message));
            }
        },
        None => None,
    };
    let prepared = spec.clone().and_then(|spec| {
        prepare(
            &settings,
            &spec,
            &reports,
            Hints {
                baseline_from_file,
                files_from_file,
                paths_from,
                moved_to,
            },
        )
    });
    let (setup, engine, cases, expectations) = match prepared {
        Ok(prepared) => prepared,
        Err(message) => {
            reports.setup_error(spec.as_deref().unwrap_or(&spec_given), &message, out);
            return Err(Stop::Setup(message));
        }
    };
    let mut progress = Progress::stderr(true);
    let mut show = |phase, done, total| {
        progress.show(&match phase {
            Phase::Vectors => View::new("vectors", done, total),
            Phase::Cost => View::spinner("timing the cost probe's long inputs"),
            Phase::Generated => View::new("generated questions", done, total),
            Phase::Causes => View::spinner("minimizing and confirming causes"),
            Phase::Sweep => View::new("code points swept", done, total),
        })
    };
    let report = match setup.sweep {
        Some(span) => sweep::run(engine.as_ref(), &setup.settings, span, &mut show),
        None => Ok(check::run(
            engine.as_ref(),
            &cases,
            &expectations,
            &setup.settings,
            &mut show,
        )),
    };
    progress.finish();
    let report = match report {
        Ok(report) => report,
        Err(message) => {
            reports.setup_error(&setup.settings.spec, &message, out);
            return Err(Stop::Setup(message));
        }
    };
    if timings {
        eprintln!("{}", report.timings_text());
    }
    let mut report = report;
    write_long_inputs(&mut report, &reports)?;
    if let Some(path) = &settings.check.save_regressions {
        save_regressions(setup.codec, path, &report)?;
    }
    if let Some(path) = &settings.check.write_baseline {
        write_baseline(path, &report)?;
        // Its verdict, and exit status 1, are what it found: a recording
        // run never looks like a conforming implementation. Said, since it
        // surprised users who read it as a failure to record.
        let recorded = report.campaign.causes.len();
        if recorded > 0 && report.status() == punycheck::harness::report::Status::Nonconforming {
            warn(&format!(
                "punycheck: recorded {recorded} cause{} in {path}; this run exits 1, its verdict on \
                 what it found, and a check with this baseline passes on them",
                if recorded == 1 { "" } else { "s" }
            ));
        }
    }
    // Each format asked for is rendered once, and no other.
    let mut rendered = Rendered::new(&report, read.as_deref());
    for (path, format) in reports.files() {
        std::fs::write(path, rendered.get(format))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    let printed = out.print(rendered.get(reports.format));
    // A closed standard output does not change the verdict of a gate.
    match printed {
        Ok(()) | Err(Stop::Closed) => {}
        Err(e) => return Err(e),
    }
    Ok(report.status())
}

/// Writes each question too long for a `reproduce:` line to a file beside
/// the report (the folder of the first report file; with none,
/// `punycheck-inputs` in the temporary folder, never the working
/// directory), which the line then names.
fn write_long_inputs(
    report: &mut punycheck::harness::report::CheckReport,
    reports: &Reports,
) -> Result<(), Stop> {
    let folder = reports
        .files()
        .next()
        .and_then(|(path, _)| Path::new(path).parent().map(Path::to_path_buf))
        .map(|p| {
            if p.as_os_str().is_empty() {
                ".".into()
            } else {
                p
            }
        })
        .unwrap_or_else(|| std::env::temp_dir().join("punycheck-inputs"));
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    report.long_inputs = Some(folder);
    for (path, content) in report.long_inputs() {
        std::fs::write(&path, content)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// The working directory, for messages.
fn working_directory() -> String {
    std::env::current_dir()
        .map(|d| d.display().to_string())
        .unwrap_or_else(|_| "the working directory".into())
}

/// The working directory as a root is compared with: absolute, its links
/// resolved; `None` when it cannot be read.
fn current_dir() -> Option<std::path::PathBuf> {
    std::env::current_dir().and_then(std::fs::canonicalize).ok()
}

/// Makes each path of the command line's layer absolute, from `cwd`, so
/// that it still names the same file once the check runs in a root.
fn absolute_paths(check: &mut config::Check, cwd: &Path) {
    let absolute = |path: &mut String| {
        *path = cwd.join(&*path).display().to_string();
    };
    for path in [
        &mut check.json,
        &mut check.junit,
        &mut check.sarif,
        &mut check.baseline,
        &mut check.save_regressions,
        &mut check.write_baseline,
    ]
    .into_iter()
    .flatten()
    {
        absolute(path);
    }
    check.files.iter_mut().for_each(absolute);
}

/// The error of a check that names no implementation (`config`: the file
/// named by `--config`).
fn no_implementation(config: Option<&str>) -> String {
    let file = match config {
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

/// The hint for a file named in the configuration file (`file`) that
/// cannot be read: where its path was taken from, its root or the working
/// directory.
fn paths_from(file: &Path, root: Option<&Path>) -> String {
    match root {
        Some(root) => format!(
            " (paths in {} are taken from its root, {})",
            file.display(),
            root.display()
        ),
        None => format!(
            " (paths in {} are taken from the working directory, {}, as on the command line)",
            file.display(),
            working_directory()
        ),
    }
}

/// Records the causes of `report` as the baseline at `path`, with the
/// families its cost probe found near the budget, keeping the note of
/// every cause and family the file already recorded (a file that does not
/// exist yet, or does not parse, is simply replaced).
fn write_baseline(path: &str, report: &CheckReport) -> Result<(), String> {
    let mut baseline = match &report.cost {
        Some(cost) => Baseline::of(&report.campaign.causes, &cost.series, cost.bounds.budget),
        None => Baseline::of(&report.campaign.causes, &[], Duration::ZERO),
    };
    if let Some(old) = std::fs::read_to_string(path)
        .ok()
        .and_then(|text| Baseline::parse(&text).ok())
    {
        for entry in &mut baseline.cause {
            // The note of the cause of the same key and witness (two
            // refusals that minimize apart are two causes of one key),
            // else of the same key.
            let noted = |o: &&baseline::Entry| {
                o.key().is_some() && o.key() == entry.key() && !o.note.is_empty()
            };
            let same_witness = |o: &&baseline::Entry| {
                let (Some(was), Some(now)) = (&o.explained, &entry.explained) else {
                    return false;
                };
                now.iter().any(|w| witness::covers(was, w))
            };
            let kept = old
                .cause
                .iter()
                .filter(noted)
                .find(same_witness)
                .or_else(|| old.cause.iter().find(noted));
            if let Some(kept) = kept {
                entry.note = kept.note.clone();
            }
        }
        for near in &mut baseline.near_budget {
            if let Some(kept) = old.near_budget.iter().find(|o| {
                o.direction == near.direction && o.family == near.family && !o.note.is_empty()
            }) {
                near.note = kept.note.clone();
            }
        }
    }
    std::fs::write(path, baseline.to_toml()).map_err(|e| format!("cannot write {path}: {e}"))
}

/// The configuration file a check read: the one `--config` names, or
/// `punycheck.toml` when it exists.
fn config_read(config: Option<&str>) -> Option<String> {
    match config {
        Some(path) => Some(path.to_string()),
        None => Path::new(config::DEFAULT_FILE)
            .exists()
            .then(|| config::DEFAULT_FILE.to_string()),
    }
}

fn load_config(config: Option<&str>) -> Result<Config, String> {
    match config {
        Some(path) => Config::load(Path::new(path), true),
        None => Config::load(Path::new(config::DEFAULT_FILE), false),
    }
}

/// Everything resolved before the run.
struct Setup {
    codec: Codec,
    settings: CheckSettings,
    /// The code points to sweep, for a sweep (`--sweep`) instead of a
    /// check of vectors and generated questions.
    sweep: Option<Span>,
}

/// The ceiling of a sweep's time when `--seconds` is not given: it asks
/// every code point, in six contexts, both ways.
const SWEEP_SECONDS: f64 = 3600.0;

type Prepared = (Setup, Box<dyn engines::Engine>, Vec<Case>, Expectations);

/// Which of the settings came from the configuration file, for the hint
/// that says where its paths are taken from, and where the check runs.
struct Hints {
    /// The baseline read is the file's.
    baseline_from_file: bool,
    /// The file names vector files.
    files_from_file: bool,
    /// The hint: where the file's paths are taken from ([`paths_from`]).
    paths_from: String,
    /// The file's root, when the check moved there from another working
    /// directory: each reproducer goes there first (`cd ROOT &&`).
    moved_to: Option<std::path::PathBuf>,
}

/// Resolves every setting against the defaults and refuses what cannot
/// work before the run starts: bad numbers, unreadable inputs, unwritable
/// outputs, an implementation that cannot be started.
fn prepare(
    settings: &Config,
    spec: &str,
    reports: &Reports,
    hints: Hints,
) -> Result<Prepared, String> {
    let check = &settings.check;
    let codec = check.resolved_codec()?;
    let declared = &settings.implementation;
    let sweep = match (check.sweep == Some(true), &check.sweep_range) {
        (false, Some(_)) => return Err("--sweep-range needs --sweep (or sweep = true)".into()),
        (false, None) => None,
        (true, range) => {
            if codec.label_profile().is_none() {
                return Err(format!(
                    "--sweep asks every code point of the label and domain codecs: give --codec \
                     label or --codec domain, not {codec}"
                ));
            }
            Some(range.as_deref().map_or(Ok(Span::ALL), Span::parse)?)
        }
    };
    let seconds = check.seconds.unwrap_or(if sweep.is_some() {
        SWEEP_SECONDS
    } else {
        config::DEFAULT_SECONDS
    });
    let seconds = check_seconds(seconds, MAX_SECONDS).map_err(|e| format!("--seconds {e}"))?;
    let baseline = match &check.baseline {
        Some(path) => Some(
            Baseline::parse(&std::fs::read_to_string(path).map_err(|e| {
                let hint = if hints.baseline_from_file {
                    hints.paths_from.clone()
                } else {
                    String::new()
                };
                format!("cannot read {path}: {e}{hint}")
            })?)
            .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    // Where the run will write, refused before it starts.
    for path in [
        &check.save_regressions,
        &check.write_baseline,
        &reports.json,
        &reports.junit,
        &reports.sarif,
    ]
    .into_iter()
    .flatten()
    {
        regressions::check_writable(path).map_err(|e| e.to_string())?;
    }
    if let Some(path) = &check.save_regressions {
        // Nor a file that cannot take this codec's cases.
        regressions::File::open(path, codec).map_err(|e| e.to_string())?;
    }
    let engine = super::engine_of(spec, declared, codec)?;
    let seed = chosen_seed(check.seed);
    let all = vectors::load(&check.files).map_err(|e| {
        if hints.files_from_file {
            format!("{e}{}", hints.paths_from)
        } else {
            e.to_string()
        }
    })?;
    vectors::refuse_other_codecs(&check.files, codec).map_err(|e| e.to_string())?;
    let cases: Vec<Case> = runner::cases_for(&all, codec);
    let expectations = Expectations::parse(BUILTIN_EXPECTATIONS).map_err(|e| e.to_string())?;
    let budget = check
        .cost_budget
        .map(|s| check_seconds(s, MAX_TIMEOUT).map_err(|e| format!("--cost-budget {e}")))
        .transpose()?;
    if let Some(n) = check
        .cost_max
        .filter(|n| !(cost::FIRST_SIZE..=cost::LARGEST_MAX).contains(n))
    {
        return Err(format!(
            "cost-max must be from {} to {}, not {n}",
            cost::FIRST_SIZE,
            cost::LARGEST_MAX
        ));
    }
    let cost = (check.cost != Some(false)).then(|| {
        let default = cost::Bounds::default();
        cost::Bounds {
            budget: budget.map_or(default.budget, Duration::from_secs_f64),
            max: check.cost_max.unwrap_or(default.max),
        }
    });
    // Recording a baseline asks ten times the gate's questions (with ten
    // times its ceiling of time), so that the gate, asking fewer, meets
    // the known causes by the witnesses recorded.
    let recording = check.write_baseline.is_some() && check.cases.is_some() && sweep.is_none();
    let factor = if recording {
        baseline::RECORDING_FACTOR
    } else {
        1
    };
    let settings = CheckSettings {
        time: Duration::from_secs_f64(seconds * factor as f64),
        cases: check.cases.map(|n| n.saturating_mul(factor)),
        seed,
        fail_fast: check.fail_fast == Some(true),
        repro_prefix: format!(
            "{}punycheck repro{} --impl {}{}",
            hints
                .moved_to
                .as_ref()
                .map_or(String::new(), |root| format!(
                    "cd {} && ",
                    shell_words::quote(&root.display().to_string())
                )),
            codec_arg(codec),
            shell_words::quote(spec),
            declared.printed()
        ),
        spec: spec.to_string(),
        declared_options: declared.declaration().options(),
        baseline,
        cost,
        recording: check.write_baseline.is_some(),
    };
    Ok((
        Setup {
            codec,
            settings,
            sweep,
        },
        engine,
        cases,
        expectations,
    ))
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
