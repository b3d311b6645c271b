//! `punycheck bench`: the speed of each built-in implementation in this
//! build, on the same inputs, each answer checked first.

use super::plot;
use super::{Outcome, Output, Status, Stop, warn};
use punycheck::bench;

/// Where `bench` writes besides standard output.
#[derive(Clone, Debug, Default)]
pub struct BenchOutputs {
    /// `--plot FILE.svg`.
    pub plot: Option<String>,
    /// `--json FILE`.
    pub json: Option<String>,
    /// `--markdown FILE`.
    pub markdown: Option<String>,
}

/// Runs the benchmark with `settings` and writes its table and files.
pub fn run(settings: &bench::Settings, files: &BenchOutputs, out: &mut Output) -> Outcome {
    out.print(&bench::header(&bench::Machine::detect(), settings))?;
    out.flush()?;
    let builtins = bench::Builtin::available();
    let subjects: Vec<&dyn bench::Subject> =
        builtins.iter().map(|b| b as &dyn bench::Subject).collect();
    let report = match bench::run(settings, &subjects, &mut |line| warn(&format!("  {line}"))) {
        Ok(report) => report,
        Err(e @ bench::BenchError::WrongAnswer { .. }) => {
            say!(out, "{e}");
            return Ok(Status::Nonconforming);
        }
        Err(e) => return Err(Stop::Setup(e.to_string())),
    };
    out.print(&report.table())?;
    if let Some(path) = &files.plot {
        let svg = plot::plot_svg(&report).map_err(|e| e.to_string())?;
        std::fs::write(path, svg).map_err(|e| format!("cannot write {path}: {e}"))?;
        say!(out, "plot: {path}");
    }
    let outputs = [
        ("json", &files.json, report.to_json() + "\n"),
        ("markdown", &files.markdown, report.to_markdown()),
    ];
    for (what, path, text) in outputs {
        if let Some(path) = path {
            std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
            say!(out, "{what}: {path}");
        }
    }
    Ok(Status::Conforming)
}
