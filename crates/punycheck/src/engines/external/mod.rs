//! How punycheck reaches implementations outside itself: programs that
//! follow the RFC test wrapper's convention ([`Exec`], `exec:`), programs
//! that answer on a persistent pipe ([`Pipe`], `pipe:`), and C libraries
//! with Appendix C's functions, called in worker processes ([`So`],
//! `so:`).
//!
//! What they share:
//!
//! - `attempt`: the time limit of a question, asked once more with four
//!   times as long before it counts as hung, the deadline of a run, and
//!   the pool of started workers (`pipe:` programs, `so:` workers);
//! - `line`: the convention `exec:` and `pipe:` programs both speak
//!   (tokens, messages, crash lines) and the program behind it;
//! - [`process`]: every process started for them, and making sure none
//!   outlives its run.

mod attempt;
mod exec;
mod line;
mod pipe;
pub mod process;
pub mod so;
mod starved;

pub use exec::Exec;
pub use line::{crash_line, probe_questions};
pub use pipe::Pipe;
pub use so::So;

use std::fmt;

use crate::engines::EngineError;

/// Why an external implementation cannot be used: its spec is wrong, it
/// cannot be started or loaded, or it does not answer the probe (trivial
/// questions every implementation answers). The words are what punycheck
/// says of it (`exec: needs a command, e.g. exec:./my-punycode`).
#[derive(Debug)]
pub enum StartError {
    /// `exec:` or `pipe:` without a command.
    NoCommand {
        /// `exec` or `pipe`.
        scheme: &'static str,
        /// A command to show.
        example: &'static str,
    },
    /// A command that cannot be split into words (an unterminated quote).
    Unsplittable {
        /// The command.
        command: String,
        /// Why.
        error: shell_words::ParseError,
    },
    /// A `so:` spec without the library's path.
    NoLibrary,
    /// A `so:` spec that gives `lengths=` twice.
    LengthsTwice {
        /// The spec, after `so:`.
        spec: String,
    },
    /// A `so:` spec with a length type other than `uint32` and `size_t`.
    UnknownLengthType {
        /// The spec, after `so:`.
        spec: String,
        /// The length type it names.
        name: String,
    },
    /// A `so:` library whose worker could not be started, or could not
    /// load it.
    Worker {
        /// `so:SPEC`.
        name: String,
        /// Why.
        error: so::WorkerError,
    },
    /// A `so:` library that cannot be loaded into this process.
    Load(so::LoadError),
    /// A program that refused a probe, which every implementation
    /// accepts: it does not follow the convention it is named with.
    Refused {
        /// `exec:COMMAND` or `pipe:COMMAND`.
        name: String,
        /// The question (`to encode u+0061 u+00E9`).
        question: String,
        /// What it said (`bad_input`, `failed, saying "..."`, `no reason`).
        why: String,
        /// The convention it was asked in.
        convention: &'static str,
    },
    /// A `so:` library that refused a probe, which every Punycode
    /// implementation accepts: its signatures are not Appendix C's with
    /// the lengths its spec says.
    LibraryRefused {
        /// `so:SPEC`.
        name: String,
        /// The question (`to decode a-bga`).
        question: &'static str,
        /// Its refusal.
        error: EngineError,
        /// The length type of its spec.
        lengths: so::LengthType,
    },
    /// A program that could not be asked a probe at all (it cannot start,
    /// crashed, hung or answered outside the convention).
    ProbeFailed {
        /// `exec:COMMAND` or `pipe:COMMAND`.
        name: String,
        /// `encode` or `decode`.
        verb: &'static str,
        /// What asking it gave.
        error: EngineError,
    },
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::NoCommand { scheme, example } => {
                write!(f, "{scheme}: needs a command, e.g. {scheme}:{example}")
            }
            StartError::Unsplittable { command, error } => {
                write!(f, "cannot split the command {command:?}: {error}")
            }
            StartError::NoLibrary => write!(
                f,
                "so: needs the path of a shared library, e.g. so:./libmypuny.so or so:libidn.so.12:lengths=size_t"
            ),
            StartError::LengthsTwice { spec } => write!(f, "so:{spec}: lengths= is given twice"),
            StartError::UnknownLengthType { spec, name } => write!(
                f,
                "so:{spec}: unknown length type {name:?} (lengths=uint32, the RFC's punycode_uint, or lengths=size_t, as GNU libidn 1.x)"
            ),
            StartError::Worker { name, error } => write!(f, "{name}: {error}"),
            StartError::Load(error) => error.fmt(f),
            StartError::Refused {
                name,
                question,
                why,
                convention,
            } => write!(
                f,
                "{name} refused the probe {question} ({why}), which every implementation accepts: does it follow {convention}?"
            ),
            StartError::LibraryRefused {
                name,
                question,
                error,
                lengths,
            } => write!(
                f,
                "{name} refused the probe {question} ({error}), which every Punycode implementation accepts: check that it has Appendix C's signatures with {} lengths (so:PATH:lengths=size_t for size_t, as GNU libidn 1.x)",
                lengths.name()
            ),
            StartError::ProbeFailed { name, verb, error } => {
                write!(f, "{name} cannot {verb}: {error}")
            }
        }
    }
}

impl std::error::Error for StartError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StartError::Unsplittable { error, .. } => Some(error),
            StartError::Worker { error, .. } => Some(error),
            StartError::Load(error) => Some(error),
            _ => None,
        }
    }
}
