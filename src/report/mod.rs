//! The reports of `check` in each [`Format`], rendered only when asked
//! for: readable text and JSON by the library
//! (`punycheck::harness::report`), JUnit XML for CI systems ([`junit`])
//! and SARIF for code-scanning dashboards ([`sarif`]) here.

use crate::config::Format;
use punycheck::harness::report::{self, CheckReport};

pub mod junit;
pub mod sarif;

/// `report` in `format`; `config` is the configuration file the check
/// read, if any (SARIF locates its results there).
pub fn render(format: Format, report: &CheckReport, config: Option<&str>) -> String {
    match format {
        Format::Text => report.to_text(),
        Format::Json => report.to_json(),
        Format::Junit => junit::report(report),
        Format::Sarif => sarif::report(report, config),
    }
}

/// The report, in `format`, of a check that could not start (`message`
/// says why; `interrupted`: because it was interrupted). Text has none: the
/// message goes to standard error.
pub fn setup_error(format: Format, spec: &str, message: &str, interrupted: bool) -> Option<String> {
    match format {
        Format::Text => None,
        Format::Json => Some(report::setup_error_json(spec, message, interrupted)),
        Format::Junit => Some(junit::setup_error_junit(spec, message, interrupted)),
        Format::Sarif => Some(sarif::setup_error(spec, message, interrupted)),
    }
}

/// Each format asked for rendered once, however many places it goes to.
pub struct Rendered<'a> {
    report: &'a CheckReport,
    config: Option<&'a str>,
    done: Vec<(Format, String)>,
}

impl<'a> Rendered<'a> {
    /// Nothing rendered yet of `report` (`config`: as for [`render`]).
    pub fn new(report: &'a CheckReport, config: Option<&'a str>) -> Self {
        Rendered {
            report,
            config,
            done: Vec::new(),
        }
    }

    /// The report in `format`, rendered on first use.
    pub fn get(&mut self, format: Format) -> &str {
        let k = match self.done.iter().position(|(f, _)| *f == format) {
            Some(k) => k,
            None => {
                let text = render(format, self.report, self.config);
                self.done.push((format, text));
                self.done.len() - 1
            }
        };
        &self.done[k].1
    }
}
