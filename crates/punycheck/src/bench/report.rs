//! What a run found, and how it is shown: the results ([`Report`],
//! [`CaseResult`], [`Row`], [`Outcome`], [`Skip`], [`Timing`]), the
//! machine they were measured on ([`Machine`]), the text table and its
//! header, the Markdown table of docs/performance.md, and the JSON. A new column or
//! output format is added here.

use std::fmt::{self, Write as _};

use serde::Serialize;

use super::Settings;
use super::inputs::{Direction, SetKind, size_label};
use super::subjects::{REFERENCE, Subject};

/// The machine a run ran on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Machine {
    /// The CPU model (`model name` of /proc/cpuinfo).
    pub cpu: String,
    /// The logical CPUs that /proc/cpuinfo lists.
    pub logical_cpus: usize,
    /// The CPUs this process may use.
    pub available_cpus: usize,
    /// The operating system and architecture.
    pub os: String,
    /// Whether punycheck was compiled with optimizations.
    pub optimized: bool,
    /// The libidn2 loaded.
    pub libidn2: String,
    /// The ICU loaded.
    pub icu: String,
}

impl Machine {
    /// This machine.
    pub fn detect() -> Self {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let field = |name: &str| {
            cpuinfo.lines().find_map(|line| {
                let (key, value) = line.split_once(':')?;
                (key.trim() == name).then(|| value.trim().to_string())
            })
        };
        let cpu = field("model name")
            .or_else(|| field("Model"))
            .or_else(|| field("Hardware"))
            .unwrap_or_else(|| "unknown CPU".into());
        let logical_cpus = cpuinfo
            .lines()
            .filter(|line| {
                line.split(':')
                    .next()
                    .is_some_and(|k| k.trim() == "processor")
            })
            .count();
        let available_cpus = std::thread::available_parallelism().map_or(1, usize::from);
        Machine {
            cpu,
            logical_cpus: logical_cpus.max(available_cpus),
            available_cpus,
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            optimized: !cfg!(debug_assertions),
            #[cfg(punycheck_libidn2)]
            libidn2: crate::engines::Libidn2::library_version(),
            #[cfg(not(punycheck_libidn2))]
            libidn2: "not in this build".into(),
            #[cfg(punycheck_icu)]
            icu: crate::engines::Icu::library_version(),
            #[cfg(not(punycheck_icu))]
            icu: "not in this build".into(),
        }
    }

    /// One line: `AMD EPYC, 2 logical CPUs (2 available), linux x86_64, optimized build`.
    pub fn line(&self) -> String {
        format!(
            "{}, {} logical CPUs ({} available), {}, {}",
            self.cpu,
            self.logical_cpus,
            self.available_cpus,
            self.os,
            if self.optimized {
                "optimized build"
            } else {
                "DEBUG BUILD (use --release for real numbers)"
            }
        )
    }
}

/// Times per pass of one implementation on one input set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timing {
    /// The median over the samples, in seconds per pass.
    pub median_seconds: f64,
    /// The best sample, in seconds per pass.
    pub best_seconds: f64,
    /// How many samples.
    pub samples: usize,
    /// How many passes in all, the checking pass included.
    pub passes: u64,
}

impl Timing {
    /// The time per pass that reports and plots show: the best sample's,
    /// since other processes on the machine only ever add time.
    pub fn seconds(&self) -> f64 {
        self.best_seconds
    }
}

/// What became of one implementation on one input set.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Outcome {
    /// It was checked and timed.
    Measured(Timing),
    /// It was not timed.
    Skipped {
        /// Why, in short.
        skip: Skip,
        /// Why, in words.
        reason: String,
    },
}

/// Why an implementation was not timed on an input set.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Skip {
    /// Its time per pass, extrapolated from its smaller sizes, is over the
    /// budget.
    Extrapolated {
        /// The extrapolated seconds per pass.
        seconds: f64,
    },
    /// An input is beyond a length limit of its own, or outside what it
    /// supports.
    OwnLimit,
    /// It refuses an input, as one of its listed deviations explains.
    Deviation {
        /// The deviation's id.
        id: String,
    },
    /// No implementation encoded the long input within the budget, so there
    /// is nothing to decode.
    NothingToDecode,
}

impl fmt::Display for Skip {
    /// A few words: `≥ 40.1 s extrapolated`, `own limit`, `deviation ldh-only`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Skip::Extrapolated { seconds } => {
                write!(f, "≥ {} extrapolated", format_seconds_short(*seconds))
            }
            Skip::OwnLimit => f.write_str("own limit"),
            Skip::Deviation { id } => write!(f, "deviation {id}"),
            Skip::NothingToDecode => f.write_str("no encoding"),
        }
    }
}

/// One implementation's result on one input set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The implementation.
    pub implementation: String,
    /// What became of it.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// Every implementation's result on one input set in one direction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaseResult {
    /// The input set's kind.
    pub set: SetKind,
    /// The length of the long input.
    pub size: Option<usize>,
    /// The input set's label.
    pub label: String,
    /// Which way.
    pub direction: Direction,
    /// The number of inputs (labels).
    pub inputs: usize,
    /// The number of code points of all inputs.
    pub code_points: usize,
    /// Whose answers the others were checked against (for decoding: the
    /// input that was encoded, whose encoding this implementation gave).
    pub checked_against: Option<String>,
    /// One row per implementation, in the run's order.
    pub rows: Vec<Row>,
}

impl CaseResult {
    /// The timing of `implementation`, when it was measured.
    pub fn timing(&self, implementation: &str) -> Option<&Timing> {
        self.rows.iter().find_map(|row| match &row.outcome {
            Outcome::Measured(t) if row.implementation == implementation => Some(t),
            _ => None,
        })
    }

    /// Code points per second at [`Timing::seconds`].
    pub fn code_points_per_second(&self, timing: &Timing) -> f64 {
        self.code_points as f64 / timing.seconds()
    }

    /// Inputs (labels) per second at [`Timing::seconds`].
    pub fn inputs_per_second(&self, timing: &Timing) -> f64 {
        self.inputs as f64 / timing.seconds()
    }

    /// Throughput of `implementation` over that of the reference.
    pub fn ratio_to_reference(&self, implementation: &str) -> Option<f64> {
        let own = self.timing(implementation)?;
        let reference = self.timing(REFERENCE)?;
        Some(reference.seconds() / own.seconds())
    }

    /// Throughput of `implementation` over that of the fastest other one,
    /// with that one's name.
    pub fn ratio_to_fastest_other(&self, implementation: &str) -> Option<(f64, &str)> {
        let own = self.timing(implementation)?;
        let (name, best) = self
            .rows
            .iter()
            .filter(|row| row.implementation != implementation)
            .filter_map(|row| match &row.outcome {
                Outcome::Measured(t) => Some((row.implementation.as_str(), t.seconds())),
                Outcome::Skipped { .. } => None,
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        Some((best / own.seconds(), name))
    }
}

/// What a run found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Where it ran.
    pub machine: Machine,
    /// How.
    pub settings: Settings,
    /// The implementations, in order.
    pub implementations: Vec<String>,
    /// Each input set in each direction.
    pub cases: Vec<CaseResult>,
    /// How long the run took, in seconds.
    pub seconds: f64,
}

pub(super) fn row(subject: &dyn Subject, outcome: Outcome) -> Row {
    Row {
        implementation: subject.name().to_string(),
        outcome,
    }
}

/// Seconds with a unit: `15.2 µs`, `3.41 ms`, `4.02 s`.
pub fn format_seconds(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.3} s")
    } else if seconds >= 1e-3 {
        format!("{:.3} ms", seconds * 1e3)
    } else if seconds >= 1e-6 {
        format!("{:.3} µs", seconds * 1e6)
    } else {
        format!("{:.1} ns", seconds * 1e9)
    }
}

/// Seconds in three significant digits at most: `40.1 s`, `4170 s`,
/// `12.3 ms`.
fn format_seconds_short(seconds: f64) -> String {
    if seconds >= 100.0 {
        format!("{seconds:.0} s")
    } else if seconds >= 1.0 {
        format!("{seconds:.1} s")
    } else {
        format!("{:.1} ms", seconds * 1e3)
    }
}

/// A rate with an SI prefix: `38.2 M`, `512 k`.
pub fn format_rate(rate: f64) -> String {
    if rate >= 1e9 {
        format!("{:.3} G", rate / 1e9)
    } else if rate >= 1e6 {
        format!("{:.3} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.3} k", rate / 1e3)
    } else {
        format!("{rate:.3}")
    }
}

/// The columns of one table row: implementation, best time per pass, code
/// points/s, inputs/s, ratio to the reference, ratio to the fastest other.
fn row_cells(case: &CaseResult, row: &Row) -> Vec<String> {
    match &row.outcome {
        Outcome::Measured(t) => vec![
            row.implementation.clone(),
            format_seconds(t.seconds()),
            format_rate(case.code_points_per_second(t)),
            if case.set.is_long() {
                "-".into()
            } else {
                format_rate(case.inputs_per_second(t))
            },
            case.ratio_to_reference(&row.implementation)
                .map_or_else(|| "-".into(), |r| format!("{r:.2}")),
            case.ratio_to_fastest_other(&row.implementation)
                .map_or_else(|| "-".into(), |(r, name)| format!("{r:.2} ({name})")),
        ],
        Outcome::Skipped { reason, .. } => {
            vec![row.implementation.clone(), format!("skipped: {reason}")]
        }
    }
}

const COLUMNS: [&str; 8] = [
    "input",
    "dir",
    "implementation",
    "best/pass",
    "code points/s",
    "labels/s",
    "vs rfc-c",
    "vs fastest other",
];

impl Report {
    /// The header lines: the machine, the libraries, the settings.
    pub fn header(&self) -> String {
        header(&self.machine, &self.settings)
    }

    /// The header and the table.
    pub fn to_text(&self) -> String {
        self.header() + &self.table()
    }

    /// The table: one block per input set and direction, throughput at the
    /// best pass, ratios of throughput (above 1: faster).
    pub fn table(&self) -> String {
        let mut out = String::new();
        let mut widths = [0usize; 8];
        let mut lines: Vec<Vec<String>> = Vec::new();
        for case in &self.cases {
            for (k, row) in case.rows.iter().enumerate() {
                let (input, direction) = if k == 0 {
                    (case.label.clone(), case.direction.to_string())
                } else {
                    (String::new(), String::new())
                };
                let mut cells = vec![input, direction];
                cells.extend(row_cells(case, row));
                lines.push(cells);
            }
        }
        for cells in std::iter::once(&COLUMNS.map(String::from).to_vec()).chain(&lines) {
            if cells.len() == COLUMNS.len() {
                for (w, c) in widths.iter_mut().zip(cells) {
                    *w = (*w).max(c.chars().count());
                }
            }
        }
        let _ = writeln!(out);
        for (n, cells) in std::iter::once(&COLUMNS.map(String::from).to_vec())
            .chain(&lines)
            .enumerate()
        {
            if n > 0 && !cells[0].is_empty() {
                let _ = writeln!(out);
            }
            let mut line = String::new();
            for (k, cell) in cells.iter().enumerate() {
                let numeric = (3..=6).contains(&k) && cells.len() == COLUMNS.len();
                let width = if k + 1 == cells.len() { 0 } else { widths[k] };
                if numeric {
                    let _ = write!(line, "{cell:>width$}  ");
                } else {
                    let _ = write!(line, "{cell:<width$}  ");
                }
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        let _ = writeln!(
            out,
            "\nvs rfc-c, vs fastest other: throughput ratios (above 1: faster); labels/s for the label sets.\nEvery answer was checked against the reference before timing. {:.1} s in all.",
            self.seconds
        );
        out
    }

    /// A compact Markdown table, for docs/performance.md: one row per input set and
    /// direction, one column per implementation, each cell the code points
    /// per second at the best pass and the ratio to the reference's, or
    /// why it was skipped in a few words.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "| input | dir | {} |",
            self.implementations.join(" | ")
        );
        let _ = writeln!(
            out,
            "|---|---|{}",
            "---:|".repeat(self.implementations.len())
        );
        for case in &self.cases {
            let cells: Vec<String> = self
                .implementations
                .iter()
                .map(
                    |name| match case.rows.iter().find(|r| &r.implementation == name) {
                        Some(Row {
                            outcome: Outcome::Measured(t),
                            ..
                        }) => match case.ratio_to_reference(name) {
                            Some(ratio) if name != REFERENCE => {
                                format!(
                                    "{} ({ratio:.2})",
                                    format_rate(case.code_points_per_second(t))
                                )
                            }
                            _ => format_rate(case.code_points_per_second(t)),
                        },
                        Some(Row {
                            outcome: Outcome::Skipped { skip, .. },
                            ..
                        }) => format!("*{skip}*"),
                        None => "-".into(),
                    },
                )
                .collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                case.label,
                case.direction,
                cells.join(" | ")
            );
        }
        out
    }

    /// The whole report as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// The header of a run's output: where it runs and how.
pub fn header(machine: &Machine, settings: &Settings) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "punycheck bench{}",
        if settings.quick { " --quick" } else { "" }
    );
    let _ = writeln!(out, "machine:   {}", machine.line());
    let _ = writeln!(
        out,
        "libraries: libidn2 {}, ICU {}, idna crate (idna::punycode)",
        machine.libidn2, machine.icu
    );
    let sizes: Vec<String> = settings.sizes.iter().map(|&n| size_label(n)).collect();
    let _ = writeln!(
        out,
        "inputs:    RFC 3492 7.1 samples, {} random labels, long inputs of {} code points (seed {}); encoded without case flags",
        settings.labels,
        sizes.join(", "),
        settings.seed
    );
    let _ = writeln!(
        out,
        "timing:    best of up to {} samples of ~{} each (median in the JSON), {} per implementation and input set",
        settings.repetitions,
        format_seconds(settings.sample_seconds),
        format_seconds(settings.seconds_per_case)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_compare_throughput() {
        let timing = |s: f64| {
            Outcome::Measured(Timing {
                median_seconds: s,
                best_seconds: s,
                samples: 1,
                passes: 1,
            })
        };
        let case = CaseResult {
            set: SetKind::Labels,
            size: None,
            label: "labels (10)".into(),
            direction: Direction::Encode,
            inputs: 10,
            code_points: 100,
            checked_against: None,
            rows: vec![
                Row {
                    implementation: REFERENCE.into(),
                    outcome: timing(2.0),
                },
                Row {
                    implementation: "fast".into(),
                    outcome: timing(1.0),
                },
                Row {
                    implementation: "slow".into(),
                    outcome: timing(4.0),
                },
                Row {
                    implementation: "none".into(),
                    outcome: Outcome::Skipped {
                        skip: Skip::OwnLimit,
                        reason: "r".into(),
                    },
                },
            ],
        };
        assert_eq!(case.ratio_to_reference("fast"), Some(2.0));
        assert_eq!(case.ratio_to_reference("none"), None);
        assert_eq!(case.ratio_to_fastest_other("slow"), Some((0.25, "fast")));
        assert_eq!(case.ratio_to_fastest_other("fast"), Some((2.0, REFERENCE)));
        let t = case.timing("fast").expect("measured");
        assert_eq!(case.code_points_per_second(t), 100.0);
        assert_eq!(case.inputs_per_second(t), 10.0);
    }
}
