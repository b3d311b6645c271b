//! The machine's speed, so that the cost probe's verdict is the same on
//! every machine: the budget (`--cost-budget`) is CPU time on the machine
//! punycheck's margins were set on, and it is scaled into this machine's
//! seconds by how much slower or faster this machine runs a fixed workload
//! while a family is measured ([`super::cost::Series::budget_here`]); the
//! times measured, and the growth read from them, are left as they are.
//!
//! The workload is RFC 3492's own encoder, the C reference of Appendix C,
//! compiled at `-O2` whatever the profile of the build (`build.rs`), so
//! that a test build and a release build measure the machine alike: its
//! outer loop scans the whole input once per distinct code point, integer
//! work over an array that stays in the cache, the kind of work every
//! Punycode and IDNA implementation does. It is timed in the CPU time of
//! the thread that runs it ([`crate::engines::spent::thread_cpu`]), the
//! fastest of several runs (a run the scheduler interrupted, or whose
//! caches another process emptied, is slower, never faster), and its CPU
//! time on the reference machine is [`NOMINAL`].
//!
//! A CPU twice as slow runs an implementation about twice as slow whatever
//! its language, so its verdict moves far less than its seconds do. No
//! scaling is exact across runtimes, which is why the verdict keeps its
//! margins ([`super::cost::MARGIN`]) and a baseline records the families
//! near the budget ([`super::baseline`]).

use std::time::Duration;

use crate::c_reference;
use crate::engines::spent::thread_cpu;
use crate::vocabulary::families::Family;

/// The workload's CPU time on the reference machine: the fastest of
/// [`RUNS`], as it most often was on the machine where the margins were
/// set and the gates' baselines recorded (2 cores of a cloud virtual
/// machine, 2026: 2.0 to 3.3 ms, by the moment; the budget's second is
/// that machine's usual second).
pub const NOMINAL: Duration = Duration::from_micros(3_000);

/// How many times the workload runs for one measure; the fastest counts.
const RUNS: usize = 3;

/// The code points of the workload: the family that costs the RFC's
/// encoder the most, distinct code points, at this size (about 2 ms).
const SIZE: usize = 1024;

/// The most a factor may say: beyond it, the clock is not to be trusted
/// (a thread CPU clock that does not advance, a machine stopped while
/// measuring), and no scaling is done.
const PLAUSIBLE: f64 = 20.0;

/// How many times slower than the reference machine this one runs the
/// workload now (below 1: faster); 1 when it cannot be measured. A
/// virtual machine's speed moves by half and more within seconds (its
/// neighbours on the host, the host's clock), so the probe takes it as
/// each family starts and after each long answer, not once.
pub fn factor() -> f64 {
    let fastest = (0..RUNS).map(|_| workload()).min().unwrap_or_default();
    let factor = fastest.as_secs_f64() / NOMINAL.as_secs_f64();
    if (1.0 / PLAUSIBLE..=PLAUSIBLE).contains(&factor) {
        factor
    } else {
        1.0
    }
}

/// One run of the workload: its CPU time.
fn workload() -> Duration {
    let code_points = Family::DistinctAscending.code_points(SIZE);
    let start = thread_cpu();
    let encoded = c_reference::encode(&code_points, None);
    let spent = thread_cpu().saturating_sub(start);
    std::hint::black_box(encoded.ok());
    spent
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workload_is_an_encoding_the_reference_gives() {
        let code_points = Family::DistinctAscending.code_points(SIZE);
        let encoded = c_reference::encode(&code_points, None).expect("the C reference encodes");
        let clean_room = crate::punycode::encode(&code_points, None).expect("and so does ours");
        assert_eq!(encoded, clean_room);
    }

    #[test]
    fn the_factor_is_plausible() {
        let factor = factor();
        assert!((1.0 / PLAUSIBLE..=PLAUSIBLE).contains(&factor), "{factor}");
    }
}
