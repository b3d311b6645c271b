//! The workflows behind the `punycheck` command line, one module per
//! command: `main.rs` and `args.rs` parse the arguments into the
//! settings of these modules (`crate::config`) and call them, nothing more.
//!
//! Every command writes its report through an [`Output`], which turns a
//! closed standard output (`punycheck list | head -1`) into a quiet end
//! rather than a panic, and ends in a [`Status`] or a [`Stop`], which the
//! binary turns into its exit status ([`EXIT_STATUS`]).

/// Writes a formatted line to an [`Output`], returning from the calling
/// function with the [`Stop`] when the output is closed.
macro_rules! say {
    ($out:expr) => {
        $out.line("")?
    };
    ($out:expr, $($arg:tt)*) => {
        $out.line(&format!($($arg)*))?
    };
}

pub mod bench;
pub mod check;
pub mod cost;
pub mod diff;
pub mod lines;
pub mod listing;
pub mod output;
pub mod plot;
pub mod progress;
pub mod repro;
pub mod rfc_wrapper;
pub mod serve;
pub mod survey;
pub mod survey_docs;
pub mod survey_model;
pub mod survey_page;

pub use output::Output;

use punycheck::codec::Codec;
use punycheck::harness::errors::DataError;
use punycheck::label::{LabelOptions, LabelProfile, LabelRules};

/// The exit statuses, as `--help` prints them.
pub const EXIT_STATUS: &str = "\
Exit status:
  0  conforming: every difference explained (or the command did what it was asked)
  1  nonconforming: a cause found, a vector failed, or an input line failed
  2  usage or setup error: bad arguments, an unknown implementation, a program
     that cannot be started or fails the probe, an unreadable or unwritable file
  3  (check) nothing found in what ran, but not everything ran within --seconds
  130 interrupted by Ctrl-C or SIGTERM (check first writes what it found so far,
     marked interrupted, to standard output and its --json/--junit files)
A closed standard output (as in `punycheck list | head -1`) ends a command
quietly with status 0; check still exits with its verdict.";

/// How a command that ran ended: the verdict of a check (one rule for its
/// exit status and its reports), or done / an input line failed.
pub use punycheck::harness::report::{INTERRUPTED, Status};

/// Why a command stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A usage or setup error, with its message (exit status 2).
    Setup(String),
    /// Standard output was closed by its reader: nothing more can be
    /// reported (exit status 0, nothing printed).
    Closed,
}

impl Stop {
    /// The process exit status.
    pub fn code(&self) -> u8 {
        match self {
            Stop::Setup(_) => 2,
            Stop::Closed => 0,
        }
    }
}

impl From<String> for Stop {
    fn from(message: String) -> Self {
        Stop::Setup(message)
    }
}

impl From<DataError> for Stop {
    /// A data file that cannot be used stops the command before it starts.
    fn from(error: DataError) -> Self {
        Stop::Setup(error.to_string())
    }
}

/// An implementation that cannot be used is a setup error, with its
/// message.
impl From<punycheck::engines::SpecError> for Stop {
    fn from(error: punycheck::engines::SpecError) -> Self {
        Stop::Setup(error.to_string())
    }
}

/// What a command returns.
pub type Outcome = Result<Status, Stop>;

/// ` --codec NAME` for a codec other than Punycode, for printed commands.
pub fn codec_arg(codec: Codec) -> String {
    match codec {
        Codec::Punycode => String::new(),
        Codec::Label(profile) | Codec::Domain(profile) => {
            format!(" --codec {codec}{}", LabelOptions::printed(profile))
        }
        other => format!(" --codec {other}"),
    }
}

/// The codecs a command covers: the one chosen, or all, the label codec
/// under each of its rules and the domain codec under IDNA2008's too,
/// where libidn2 answers beside the reference (every switch on).
pub fn codecs(chosen: Option<Codec>) -> Vec<Codec> {
    chosen.map_or_else(
        || {
            let mut all = Codec::ALL.to_vec();
            let switches = LabelProfile::DEFAULT.switches;
            all.extend(
                LabelRules::ALL
                    .into_iter()
                    .filter(|&rules| rules != LabelProfile::DEFAULT.rules)
                    .map(|rules| Codec::label(rules, switches)),
            );
            all.push(Codec::domain(LabelRules::Idna2008, switches));
            all
        },
        |c| vec![c],
    )
}

/// The implementation `spec` names for `codec`, declared as
/// `implementation` says, with the entry points it lists beside it
/// ([`punycheck::engines::EntryPoints`]), each declared alike.
pub fn engine_of(
    spec: &str,
    implementation: &crate::config::Implementation,
    codec: Codec,
) -> Result<Box<dyn punycheck::engines::Engine>, String> {
    use punycheck::engines::{EntryPoint, EntryPoints, from_spec};
    let options = implementation.options(codec)?;
    let main = from_spec(spec, &options).map_err(|e| e.to_string())?;
    let listed = implementation.entry_points.as_deref().unwrap_or_default();
    if listed.is_empty() {
        return Ok(main);
    }
    let others = listed
        .iter()
        .map(|other| {
            let engine =
                from_spec(other, &options).map_err(|e| format!("entry point {other:?}: {e}"))?;
            Ok(EntryPoint::new(other.clone(), engine))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Box::new(
        EntryPoints::new(main, others).map_err(|e| e.to_string())?,
    ))
}

/// The seed given, or one chosen from the clock.
pub fn chosen_seed(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
    })
}

/// Writes a message to standard error; a closed standard error is ignored
/// (never a panic, unlike `eprintln!`).
pub fn warn(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{message}");
}
