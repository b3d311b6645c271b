//! How punycheck reaches implementations outside itself: programs that
//! follow the RFC test wrapper's convention ([`Exec`], `exec:`), programs
//! that answer on a persistent pipe ([`Pipe`], `pipe:`), and C libraries
//! with Appendix C's functions, called in worker processes ([`So`],
//! `so:`).
//!
//! What they share:
//!
//! - [`attempt`]: the time limit of a question, asked once more with four
//!   times as long before it counts as hung, the deadline of a run, and
//!   the pool of started workers (`pipe:` programs, `so:` workers);
//! - [`line`]: the convention `exec:` and `pipe:` programs both speak
//!   (tokens, messages, crash lines) and the program behind it;
//! - [`process`]: every process started for them, and making sure none
//!   outlives its run.

mod attempt;
mod exec;
mod line;
mod pipe;
pub mod process;
pub mod so;

pub use exec::Exec;
pub use line::crash_line;
pub use pipe::Pipe;
pub use so::So;
