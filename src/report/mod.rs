//! The reports of `check` in each [`Format`], rendered only when asked
//! for: readable text and JSON by the library
//! (`punycheck::harness::report`), and JUnit XML for CI systems here
//! ([`junit`]).

use crate::config::Format;
use punycheck::harness::report::{self, CheckReport};

pub mod junit;

/// `report` in `format`.
pub fn render(format: Format, report: &CheckReport) -> String {
    match format {
        Format::Text => report.to_text(),
        Format::Json => report.to_json(),
        Format::Junit => junit::report(report),
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
    }
}

/// Each format asked for rendered once, however many places it goes to.
#[derive(Default)]
pub struct Rendered(Vec<(Format, String)>);

impl Rendered {
    /// `report` in `format`, rendered on first use.
    pub fn get(&mut self, format: Format, report: &CheckReport) -> &str {
        let k = match self.0.iter().position(|(f, _)| *f == format) {
            Some(k) => k,
            None => {
                self.0.push((format, render(format, report)));
                self.0.len() - 1
            }
        };
        &self.0[k].1
    }
}
