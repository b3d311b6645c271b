//! How punycheck reaches implementations outside itself: programs that
//! follow the RFC test wrapper's convention ([`Exec`], `exec:`), programs
//! that answer on a persistent pipe ([`Pipe`], `pipe:`), and C libraries
//! with Appendix C's functions, called in worker processes ([`So`],
//! `so:`).
//!
//! - [`process`]: every process started for them, and making sure none
//!   outlives its run.

mod exec;
mod pipe;
pub mod process;
pub mod so;

pub use exec::{Exec, crash_line};
pub use pipe::Pipe;
pub use so::So;
