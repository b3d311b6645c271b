//! The `punycheck` command line: argument parsing and calls into the library.
//!
//! Exit status: 0 conforming (or done), 1 nonconforming (or a line failed),
//! 2 a usage or setup error, 3 (check) nothing found in what ran, but not
//! everything ran within --seconds.

use std::ffi::OsString;
use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

mod args;

use args::{BenchArgs, CheckArgs, Cli, Command, DeclArgs, DiffArgs, Format, ImplArgs, ReproArgs};
use clap::{Parser, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use punycheck::bench;
use punycheck::codec::Codec;
use punycheck::config::{self, Config};
use punycheck::engines::{self, Engine, SpecOptions};
use punycheck::harness::baseline::Baseline;
use punycheck::harness::campaign::{self, Settings};
use punycheck::harness::check::{self, CheckSettings, Phase};
use punycheck::harness::compare::{self, Request, Verdict};
use punycheck::harness::regressions;
use punycheck::harness::report::CheckReport;
use punycheck::harness::runner::{self, BUILTIN_EXPECTATIONS, Expectations, Outcome};
use punycheck::harness::vectors::{self, Case, CodePoints};
use punycheck::harness::{classes, matrix};
use punycheck::utf8;

/// An error that ends the command with status 2.
pub(crate) struct SetupError(pub(crate) String);

impl From<String> for SetupError {
    fn from(message: String) -> Self {
        SetupError(message)
    }
}

fn resolve(specs: &[String], options: &SpecOptions) -> Result<Vec<Box<dyn Engine>>, SetupError> {
    specs
        .iter()
        .map(|s| engines::from_spec(s, options).map_err(SetupError))
        .collect()
}

fn chosen_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
    })
}

fn progress_bar(total: u64, what: &str) -> Option<ProgressBar> {
    if !io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(total);
    let style =
        ProgressStyle::with_template("{spinner} {msg} [{elapsed_precise}] {bar:30} {pos}/{len}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(what.to_string());
    Some(bar)
}

/// Input lines: the arguments (their bytes), or standard input.
fn input_lines(args: &[OsString]) -> Result<Vec<Vec<u8>>, SetupError> {
    if !args.is_empty() {
        use std::os::unix::ffi::OsStrExt;
        return Ok(args.iter().map(|a| a.as_bytes().to_vec()).collect());
    }
    let mut lines = Vec::new();
    for line in io::stdin().lock().split(b'\n') {
        let mut line = line.map_err(|e| SetupError(format!("cannot read standard input: {e}")))?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        lines.push(line);
    }
    Ok(lines)
}

fn encode_cmd(
    codec: Codec,
    args: ImplArgs,
    codepoints: bool,
    mode: utf8::Mode,
    text: Vec<OsString>,
) -> Result<bool, SetupError> {
    let engine = engines::from_spec(&args.spec(), &args.declared.options(codec)?)?;
    let annotations = engine.capabilities().annotations;
    let mut ok = true;
    let mut stdout = io::stdout().lock();
    for (n, line) in input_lines(&text)?.into_iter().enumerate() {
        let parsed = if codepoints {
            std::str::from_utf8(&line)
                .map_err(|_| "not UTF-8".to_string())
                .and_then(CodePoints::parse)
        } else {
            utf8::decode(&line, mode)
                .map(|values| CodePoints {
                    flags: vec![false; values.len()],
                    values,
                })
                .map_err(|e| format!("not {} text: {e}", mode.name()))
        };
        let result = parsed.and_then(|cps| {
            let flags = (codepoints && annotations).then_some(cps.flags.as_slice());
            engine.encode(&cps.values, flags).map_err(|e| e.to_string())
        });
        match result {
            Ok(bytes) => {
                let _ = stdout.write_all(&bytes);
                let _ = stdout.write_all(b"\n");
            }
            Err(e) => {
                eprintln!("line {}: {e}", n + 1);
                let _ = stdout.write_all(b"\n");
                ok = false;
            }
        }
    }
    Ok(ok)
}

fn decode_cmd(
    codec: Codec,
    args: ImplArgs,
    codepoints: bool,
    mode: utf8::Mode,
    text: Vec<OsString>,
) -> Result<bool, SetupError> {
    let engine = engines::from_spec(&args.spec(), &args.declared.options(codec)?)?;
    let mut ok = true;
    let mut stdout = io::stdout().lock();
    for (n, line) in input_lines(&text)?.into_iter().enumerate() {
        let result = engine
            .decode(&line)
            .map_err(|e| e.to_string())
            .and_then(|d| {
                if codepoints {
                    Ok(CodePoints::from(d).to_string().into_bytes())
                } else {
                    utf8::encode(&d.code_points, mode).map_err(|e| {
                        format!(
                            "{e}; use --codepoints, or --utf8 rfc2279 for values up to 0x7FFFFFFF"
                        )
                    })
                }
            });
        match result {
            Ok(out) => {
                let _ = stdout.write_all(&out);
                let _ = stdout.write_all(b"\n");
            }
            Err(e) => {
                eprintln!("line {}: {e}", n + 1);
                let _ = writeln!(stdout);
                ok = false;
            }
        }
    }
    Ok(ok)
}

fn load_cases(files: &[String]) -> Result<Vec<Case>, SetupError> {
    Ok(vectors::load(files)?)
}

fn vectors_report(
    engines: &[Box<dyn Engine>],
    cases: &[Case],
) -> Result<runner::Report, SetupError> {
    Ok(runner::run_with_builtin_expectations(engines, cases, None)?)
}

/// The codecs a command covers: the one chosen, or all.
fn codecs(chosen: Option<Codec>) -> Vec<Codec> {
    chosen.map_or_else(|| Codec::ALL.to_vec(), |c| vec![c])
}

fn vectors_cmd(
    codec: Option<Codec>,
    specs: Vec<String>,
    files: Vec<String>,
    declared: DeclArgs,
    verbose: bool,
) -> Result<bool, SetupError> {
    let all_cases = load_cases(&files)?;
    let mut clean = true;
    let chosen = if specs.is_empty() {
        codecs(codec)
    } else {
        vec![codec.unwrap_or(Codec::Punycode)]
    };
    for codec in chosen {
        let engines = if specs.is_empty() {
            engines::builtin_for(codec)
        } else {
            resolve(&specs, &declared.options(codec)?)?
        };
        let cases: Vec<Case> = all_cases
            .iter()
            .filter(|c| c.codec == codec)
            .cloned()
            .collect();
        clean &= print_vectors(codec, &engines, &cases, verbose)?;
    }
    Ok(clean)
}

fn print_vectors(
    codec: Codec,
    engines: &[Box<dyn Engine>],
    cases: &[Case],
    verbose: bool,
) -> Result<bool, SetupError> {
    let report = vectors_report(engines, cases)?;
    println!(
        "{codec} ({}): {} vectors, {} implementations\n",
        codec.specification(),
        cases.len(),
        engines.len()
    );
    print!("{report}");
    if verbose {
        println!("\nevery skip and known deviation:");
        for row in &report.rows {
            match &row.outcome {
                Outcome::Skip(why) => println!("  {} skips {}: {why}", row.engine, row.case),
                Outcome::KnownDeviation(why) => {
                    println!("  {} deviates on {}: {why}", row.engine, row.case)
                }
                _ => {}
            }
        }
    }
    println!();
    Ok(report.failures().count() == 0)
}

fn diff_cmd(codec: Codec, args: DiffArgs) -> Result<bool, SetupError> {
    let DiffArgs {
        specs,
        seed,
        cases,
        seconds,
        declared,
    } = args;
    if let Some(s) = seconds
        && !(s.is_finite() && s > 0.0 && s <= 1e9)
    {
        return Err(SetupError(format!(
            "--seconds must be a number above 0 and at most 1e9, not {s}"
        )));
    }
    let engines = resolve(&specs, &declared.options(codec)?)?;
    let seed = chosen_seed(seed);
    let time = seconds.map(Duration::from_secs_f64);
    let cases = cases.or(if time.is_none() { Some(10_000) } else { None });
    let settings = Settings {
        seed,
        cases,
        time,
        properties: false,
        max_findings: 5,
        fail_fast: false,
    };
    let refs: Vec<&dyn Engine> = engines.iter().map(|e| e.as_ref()).collect();
    let bar = progress_bar(cases.unwrap_or(0), "diff");
    let outcomes = campaign::run(&refs, settings, &mut |n| {
        if let Some(bar) = &bar {
            bar.set_position(n);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let reference = engines::reference_for(codec).map_or("none".into(), |e| e.name().to_string());
    println!(
        "punycheck diff --codec {codec}, seed {seed}: every implementation against the reference ({reference})\n"
    );
    let mut clean = true;
    for outcome in &outcomes {
        let s = &outcome.stats;
        println!(
            "{}: {} requests, {} identical, {} nonconforming",
            outcome.implementation, s.requests, s.same, s.nonconformances
        );
        for class in classes::Class::ALL {
            let skipped = s.skipped.get(class.id()).copied().unwrap_or(0);
            if skipped > 0 {
                println!(
                    "  {}: {skipped} not asked ({})",
                    class.id(),
                    class.entry().title
                );
            }
            if let Some(d) = s.divergences.get(class.id()) {
                println!(
                    "  {}: {} classified differences ({}), e.g. {}",
                    class.id(),
                    d.count,
                    class.entry().title,
                    d.example
                );
            }
        }
        for cause in &outcome.causes {
            println!(
                "  CAUSE {}\n    input: {} ({})\n    {}\n    seen {} times\n    reproduce: punycheck repro{} --impl {}{} {}{}",
                cause.key,
                cause.input,
                cause.shape,
                cause.detail,
                cause.count,
                codec_arg(codec),
                shell_words::quote(&outcome.implementation),
                declared.printed(),
                cause.request.repro_args(),
                if cause.property.is_some() {
                    " --properties"
                } else {
                    ""
                }
            );
        }
        if let Some(why) = &outcome.aborted {
            println!("  STOPPED: {why}");
        }
        clean &= outcome.conforming();
    }
    Ok(clean)
}

/// ` --codec NAME` for a codec other than Punycode, for printed commands.
fn codec_arg(codec: Codec) -> String {
    if codec == Codec::Punycode {
        String::new()
    } else {
        format!(" --codec {codec}")
    }
}

/// `Some(conforming)`, or `None` when nothing was found in what ran but
/// not everything ran.
fn check_cmd(codec: Option<Codec>, check: CheckArgs) -> Result<Option<bool>, SetupError> {
    let file = match &check.config {
        Some(path) => Config::load(std::path::Path::new(path), true)?,
        None => Config::load(std::path::Path::new(config::DEFAULT_FILE), false)?,
    };
    let codec = match (codec, &file.check.codec) {
        (Some(codec), _) => codec,
        (None, Some(name)) => Codec::ALL
            .into_iter()
            .find(|c| c.to_string() == *name)
            .ok_or_else(|| SetupError(format!("unknown codec {name:?} in the configuration")))?,
        (None, None) => Codec::Punycode,
    };
    let spec = check
        .implementation
        .spec
        .clone()
        .or(file.implementation.spec.clone())
        .unwrap_or_else(|| "cleanroom".into());
    let declared = check.implementation.declared.over(&file.implementation);
    let seconds = check.seconds.or(file.check.seconds).unwrap_or(30.0);
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 1e9) {
        return Err(SetupError(format!(
            "--seconds must be a number above 0 and at most 1e9, not {seconds}"
        )));
    }
    let format = match (check.format, &file.check.format) {
        (Some(format), _) => format,
        (None, Some(name)) => Format::from_str(name, true)
            .map_err(|_| SetupError(format!("unknown format {name:?} in the configuration")))?,
        (None, None) => Format::Text,
    };
    let baseline = match check.baseline.as_ref().or(file.check.baseline.as_ref()) {
        Some(path) => Some(Baseline::parse(
            &std::fs::read_to_string(path)
                .map_err(|e| SetupError(format!("cannot read {path}: {e}")))?,
        )?),
        None => None,
    };
    let mut files = file.check.files.clone();
    files.extend(check.files.iter().cloned());
    // Where the run will write, refused before it starts.
    for path in [&check.save_regressions, &check.write_baseline]
        .into_iter()
        .flatten()
    {
        regressions::check_writable(path)?;
    }
    let engine = engines::from_spec(&spec, &declared.options(codec)?)?;
    let seed = chosen_seed(check.seed.or(file.check.seed));
    let vector_cases: Vec<Case> = load_cases(&files)?
        .into_iter()
        .filter(|c| c.codec == codec)
        .collect();
    let expectations = Expectations::parse(BUILTIN_EXPECTATIONS)?;
    let settings = CheckSettings {
        time: Duration::from_secs_f64(seconds),
        cases: check.cases.or(file.check.cases),
        seed,
        fail_fast: check.fail_fast || file.check.fail_fast == Some(true),
        repro_prefix: format!(
            "punycheck repro{} --impl {}{}",
            codec_arg(codec),
            shell_words::quote(&spec),
            declared.printed()
        ),
        spec: spec.clone(),
        declared_options: declared.declaration.options(),
        baseline,
    };
    let bar = (seconds > 3.0).then(|| progress_bar(0, "check")).flatten();
    let report = check::run(
        engine.as_ref(),
        &vector_cases,
        &expectations,
        &settings,
        &mut |phase, done, total| {
            if let Some(bar) = &bar {
                let name = match phase {
                    Phase::Vectors => "vectors",
                    Phase::Generated => "generated questions",
                    Phase::Causes => "minimizing and confirming causes",
                };
                bar.set_message(name);
                bar.set_length(total.unwrap_or(done));
                bar.set_position(done);
            }
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(path) = &check.save_regressions {
        save_regressions(codec, path, &report)?;
    }
    if let Some(path) = &check.write_baseline {
        std::fs::write(path, Baseline::of(&report.campaign.causes).to_toml())
            .map_err(|e| SetupError(format!("cannot write {path}: {e}")))?;
    }
    match format {
        Format::Text => print!("{}", report.to_text()),
        Format::Json => println!("{}", report.to_json()),
        Format::Junit => println!("{}", report.to_junit()),
    }
    if report.conforming() && !report.incomplete.is_empty() {
        return Ok(None);
    }
    Ok(Some(report.conforming()))
}

fn save_regressions(codec: Codec, path: &str, report: &CheckReport) -> Result<(), SetupError> {
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
            eprintln!("saved as case {saved:?} in {path}");
        }
    }
    Ok(file.save()?)
}

fn repro_cmd(codec: Codec, repro: ReproArgs) -> Result<bool, SetupError> {
    let ReproArgs {
        implementation: args,
        encode,
        no_flags,
        properties,
        decode,
        decode_hex,
        save,
        name,
        provenance,
    } = repro;
    let request = match (encode, decode, decode_hex) {
        (Some(tokens), None, None) => {
            let cps = CodePoints::parse(&tokens)?;
            Request::Encode {
                flags: (!no_flags).then(|| cps.flags.clone()),
                code_points: cps.values,
            }
        }
        (None, Some(text), None) => Request::Decode(text.into_bytes()),
        (None, None, Some(hex)) => Request::Decode(vectors::parse_hex(&hex)?),
        _ => {
            return Err(SetupError(
                "give one of --encode, --decode, --decode-hex".into(),
            ));
        }
    };
    let engine = engines::from_spec(&args.spec(), &args.declared.options(codec)?)?;
    let Some(want) = compare::reference_for(codec, &request) else {
        return Err(SetupError(format!(
            "{} cannot answer this question (too long, or not expressible)",
            regressions::reference_name(codec)
        )));
    };
    let (verdict, answer) = compare::judge_answer(engine.as_ref(), &request, &want, true);
    println!("question:        {request}");
    let label = if codec == Codec::Punycode {
        "C reference:".to_string()
    } else {
        "reference:".to_string()
    };
    println!("{label:<16} {}", compare::describe(&Ok(want)));
    match answer {
        Some(answer) => println!(
            "{:<16} {}",
            format!("{}:", engine.name()),
            compare::describe(&answer)
        ),
        None => println!("{:<16} not asked", format!("{}:", engine.name())),
    }
    let mut conforming = match verdict {
        Verdict::Same => {
            println!("verdict:         same");
            true
        }
        Verdict::Unfinished => {
            println!("verdict:         no answer (cancelled)");
            true
        }
        Verdict::Skip { class, reason } => {
            println!("verdict:         not asked ({class}: {reason})");
            true
        }
        Verdict::Divergence { class, detail } => {
            println!("verdict:         classified difference ({class}: {detail})");
            true
        }
        Verdict::Nonconformance(detail) => {
            println!("verdict:         NONCONFORMING: {detail}");
            false
        }
    };
    if properties {
        let answer = compare::ask(engine.as_ref(), &request);
        match punycheck::harness::properties::check_all(engine.as_ref(), &request, &answer, true) {
            Some(violation) => {
                println!(
                    "property:        BROKEN: {}: {}",
                    violation.property.name(),
                    violation.detail
                );
                conforming = false;
            }
            None => println!("property:        round trip and uniqueness hold"),
        }
    }
    if let Some(path) = save {
        save_case(codec, &path, &request, name, provenance)?;
    }
    Ok(conforming)
}

/// Saves one question as a vector case, its expected value computed by the
/// codec's reference.
fn save_case(
    codec: Codec,
    path: &str,
    request: &Request,
    name: Option<String>,
    provenance: Option<String>,
) -> Result<(), SetupError> {
    let name = name.unwrap_or_else(|| {
        let stamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        format!("regression-{stamp}")
    });
    let provenance = provenance.unwrap_or_else(|| "Saved with punycheck repro --save".into());
    let mut file = regressions::File::open(path, codec)?;
    match file.add(&name, request, &provenance)? {
        Some(saved) => {
            file.save()?;
            eprintln!("saved as case {saved:?} in {path}");
        }
        None => eprintln!("{path} already asks this question: not saved again"),
    }
    Ok(())
}

fn bench_cmd(args: BenchArgs) -> Result<bool, SetupError> {
    let mut settings = if args.quick {
        bench::Settings::quick()
    } else {
        bench::Settings::full()
    };
    if let Some(n) = args.max_size {
        settings = settings
            .with_max_size(n)
            .map_err(|e| SetupError(e.to_string()))?;
    }
    if let Some(s) = args.seconds_per_case {
        settings = settings
            .with_seconds_per_case(s)
            .map_err(|e| SetupError(e.to_string()))?;
    }
    print!("{}", bench::header(&bench::Machine::detect(), &settings));
    let _ = io::stdout().flush();
    let builtins = bench::Builtin::ALL;
    let subjects: Vec<&dyn bench::Subject> =
        builtins.iter().map(|b| b as &dyn bench::Subject).collect();
    let report = match bench::run(&settings, &subjects, &mut |line| eprintln!("  {line}")) {
        Ok(report) => report,
        Err(e @ bench::BenchError::WrongAnswer { .. }) => {
            println!("{e}");
            return Ok(false);
        }
        Err(e) => return Err(SetupError(e.to_string())),
    };
    print!("{}", report.table());
    if let Some(path) = &args.plot {
        let svg = bench::plot_svg(&report).map_err(|e| SetupError(e.to_string()))?;
        std::fs::write(path, svg).map_err(|e| SetupError(format!("cannot write {path}: {e}")))?;
        println!("plot: {path}");
    }
    let outputs = [
        ("json", &args.json, report.to_json() + "\n"),
        ("markdown", &args.markdown, report.to_markdown()),
    ];
    for (what, path, text) in outputs {
        if let Some(path) = path {
            std::fs::write(path, text)
                .map_err(|e| SetupError(format!("cannot write {path}: {e}")))?;
            println!("{what}: {path}");
        }
    }
    Ok(true)
}

fn list(codec: Option<Codec>) {
    for codec in codecs(codec) {
        println!("--codec {codec} ({}):", codec.specification());
        list_codec(codec);
    }
    println!("exec:CMD   any program following RFC 3492 Appendix C's test wrapper convention");
    println!("so:PATH    a C library exporting Appendix C's punycode_encode and punycode_decode");
}

fn list_codec(codec: Codec) {
    for (k, engine) in engines::builtin_for(codec).iter().enumerate() {
        let caps = engine.capabilities();
        let reference = if k == 0 { " (reference)" } else { "" };
        println!(
            "  {:<10} domain {:?}, annotations {}, errors {:?}, decodes from {:?}{reference}",
            engine.name(),
            caps.domain,
            if caps.annotations { "yes" } else { "no" },
            caps.errors,
            caps.punycode_input
        );
    }
}

/// The default command: for each codec, vectors and a differential run over
/// every built-in implementation, as a matrix.
fn matrix_cmd(codec: Option<Codec>) -> Result<bool, SetupError> {
    let all_cases = load_cases(&[])?;
    let mut clean = true;
    for codec in codecs(codec) {
        let engines = engines::builtin_for(codec);
        let cases: Vec<Case> = all_cases
            .iter()
            .filter(|c| c.codec == codec)
            .cloned()
            .collect();
        println!(
            "=== {codec} ({}): {} built-in implementations, the first is the reference\n",
            codec.specification(),
            engines.len()
        );
        let report = vectors_report(&engines, &cases)?;
        println!("vectors ({} cases):\n", cases.len());
        print!("{report}");
        let seed = 3492;
        // Punycode has the most implementations and the most to find.
        let questions = if codec == Codec::Punycode {
            20_000
        } else {
            5_000
        };
        let m = matrix::run(&engines, seed, questions);
        println!("\ndifferential (seed {seed}): {}", m.to_text());
        clean &= report.failures().count() == 0 && m.clean();
    }
    println!("divergence classes (vectors/divergence-classes.toml):");
    for entry in classes::table() {
        println!("  {:<13} {}", entry.id, entry.title);
    }
    println!(
        "\n{}",
        if clean {
            "no unexplained difference: every one is a declared divergence class or a listed deviation (bugs marked BUG)"
        } else {
            "UNEXPLAINED DIFFERENCES: see above; `punycheck check --impl NAME` minimizes them"
        }
    );
    Ok(clean)
}

fn main() -> ExitCode {
    // A so: library's worker process is this binary, started by itself.
    if let Some(status) = engines::so::worker_entry() {
        return status;
    }
    let cli = Cli::parse();
    let chosen = cli.codec.map(Codec::from);
    let codec = chosen.unwrap_or(Codec::Punycode);
    let result = match cli.command {
        None => matrix_cmd(chosen),
        Some(Command::Encode {
            implementation,
            codepoints,
            utf8,
            text,
        }) => encode_cmd(codec, implementation, codepoints, utf8.into(), text),
        Some(Command::Decode {
            implementation,
            codepoints,
            utf8,
            text,
        }) => decode_cmd(codec, implementation, codepoints, utf8.into(), text),
        Some(Command::Vectors {
            specs,
            files,
            declared,
            verbose,
        }) => vectors_cmd(chosen, specs, files, declared, verbose),
        Some(Command::Diff(args)) => diff_cmd(codec, args),
        Some(Command::Check(args)) => match check_cmd(chosen, args) {
            Ok(Some(conforming)) => Ok(conforming),
            Ok(None) => return ExitCode::from(3),
            Err(e) => Err(e),
        },
        Some(Command::Repro(args)) => repro_cmd(codec, args),
        Some(Command::List) => {
            list(chosen);
            Ok(true)
        }
        Some(Command::Bench(args)) => bench_cmd(args),
        Some(Command::WrapperPath) => {
            println!("{}", env!("PUNYCHECK_RFC3492_WRAPPER"));
            Ok(true)
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(SetupError(message)) => {
            eprintln!("punycheck: {message}");
            ExitCode::from(2)
        }
    }
}
