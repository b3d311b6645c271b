//! What an answer cost the implementation that gave it: its CPU time and
//! its peak memory, not the wall-clock time that the machine's load and
//! speed move.
//!
//! The cost probe ([`crate::harness::cost`]) asks a question inside
//! [`measure`]; while it runs, the engine that answers records what its
//! process spent ([`record`]):
//!
//! - an `exec:` run: the user and system time of the process, with its
//!   descendants that it waited for, and its peak resident memory, as
//!   `wait4(2)` gives them;
//! - a `pipe:` program or a `so:` worker: the difference of the process's
//!   CPU clock (`clock_getcpuclockid(3)`, every thread; plus the
//!   descendants it reaped, from `/proc/PID/stat`) before and after the
//!   question, and its peak resident memory since the question was sent
//!   (`VmHWM`, reset through `/proc/PID/clear_refs`);
//! - a built-in implementation: the CPU time of the thread that asked,
//!   which is the thread that answered.
//!
//! Outside [`measure`] nothing is read, so that the checks' other
//! questions cost nothing more.

use std::cell::Cell;
use std::time::Duration;

/// What one answer cost.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spent {
    /// User and system CPU time of whatever answered.
    pub cpu: Duration,
    /// Peak resident memory of the answering process during the answer,
    /// in bytes, where it can be read (never for a built-in).
    pub peak_memory: Option<u64>,
    /// Whether the answering process was started for this question, so
    /// that what it spent includes its own start-up (a `pipe:` or `so:`
    /// worker; every `exec:` run is, and is not marked: its start-up is
    /// part of every answer alike).
    pub fresh: bool,
}

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static RECORDED: Cell<Option<Spent>> = const { Cell::new(None) };
}

/// Runs `ask` (one question to one engine) and says what answering cost.
pub fn measure<T>(ask: impl FnOnce() -> T) -> (T, Spent) {
    MEASURING.set(true);
    RECORDED.set(None);
    let start = thread_cpu();
    let answer = ask();
    let own = thread_cpu().saturating_sub(start);
    MEASURING.set(false);
    let spent = RECORDED.take().unwrap_or(Spent {
        cpu: own,
        peak_memory: None,
        fresh: false,
    });
    (answer, spent)
}

/// Whether the question being asked on this thread is measured: an engine
/// reads its process's clocks only then.
pub fn wanted() -> bool {
    MEASURING.get()
}

/// Records what the process that answered spent (the last attempt's, when
/// a question is asked twice).
pub fn record(spent: Spent) {
    if wanted() {
        RECORDED.set(Some(spent));
    }
}

fn clock(id: libc::clockid_t) -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime(2) writes one timespec, which `now` is.
    let read = unsafe { libc::clock_gettime(id, &mut now) };
    (read == 0).then(|| {
        Duration::new(
            u64::try_from(now.tv_sec).unwrap_or(0),
            u32::try_from(now.tv_nsec).unwrap_or(0),
        )
    })
}

/// The CPU time of the calling thread.
pub fn thread_cpu() -> Duration {
    clock(libc::CLOCK_THREAD_CPUTIME_ID).unwrap_or_default()
}

/// The CPU time of process `pid` (every thread), with what its reaped
/// descendants spent; `None` when it is gone.
pub fn process_cpu(pid: libc::pid_t) -> Option<Duration> {
    let mut id: libc::clockid_t = 0;
    // SAFETY: clock_getcpuclockid(3) writes one clockid_t, which `id` is.
    if unsafe { libc::clock_getcpuclockid(pid, &mut id) } != 0 {
        return None;
    }
    let own = clock(id)?;
    Some(own + reaped_children_cpu(pid).unwrap_or_default())
}

/// The user and system time of `pid`'s descendants that it waited for
/// (`cutime` and `cstime` of `/proc/PID/stat`, in clock ticks).
fn reaped_children_cpu(pid: libc::pid_t) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "PID (COMM) STATE ...": COMM may hold spaces; fields count from ')'.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    // cutime and cstime are fields 16 and 17; here, from the state (3).
    let ticks: u64 = fields.get(13)?.parse::<u64>().ok()? + fields.get(14)?.parse::<u64>().ok()?;
    // SAFETY: sysconf(3) reads a constant.
    let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) })
        .ok()
        .filter(|&t| t > 0)?;
    Some(Duration::from_nanos(ticks * 1_000_000_000 / per_second))
}

/// The peak resident memory of `pid` in bytes (`VmHWM`), since it started
/// or since [`reset_peak_memory`].
pub fn peak_memory(pid: libc::pid_t) -> Option<u64> {
    status_kib(pid, "VmHWM:").map(|kib| kib * 1024)
}

/// The resident memory of `pid` now, in bytes (`VmRSS`).
pub fn resident_memory(pid: libc::pid_t) -> Option<u64> {
    status_kib(pid, "VmRSS:").map(|kib| kib * 1024)
}

fn status_kib(pid: libc::pid_t, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line[field.len()..].split_whitespace().next()?.parse().ok()
}

/// Starts `pid`'s peak resident memory afresh from what it holds now
/// (writing 5 to `/proc/PID/clear_refs`); where the kernel does not allow
/// it, the peak stays the process's whole life's.
pub fn reset_peak_memory(pid: libc::pid_t) {
    let _ = std::fs::write(format!("/proc/{pid}/clear_refs"), b"5");
}

/// What an `exec:` run spent, from what `wait4(2)` said of it.
pub(crate) fn of_rusage(usage: &libc::rusage) -> Spent {
    let time = |t: libc::timeval| {
        Duration::new(
            u64::try_from(t.tv_sec).unwrap_or(0),
            u32::try_from(t.tv_usec).unwrap_or(0) * 1000,
        )
    };
    Spent {
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
        peak_memory: u64::try_from(usage.ru_maxrss).ok().map(|kib| kib * 1024),
        fresh: false,
    }
}

/// Reads process `pid`'s clocks around one question: [`Before::spent`]
/// after the answer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Before {
    pid: libc::pid_t,
    cpu: Duration,
    fresh: bool,
}

impl Before {
    /// Reads `pid`'s CPU clock and resets its peak memory, when the
    /// question is measured ([`wanted`]); `fresh` when the process was
    /// started for this question.
    pub(crate) fn read(pid: u32, fresh: bool) -> Option<Before> {
        if !wanted() {
            return None;
        }
        let pid = libc::pid_t::try_from(pid).ok()?;
        reset_peak_memory(pid);
        Some(Before {
            pid,
            cpu: process_cpu(pid)?,
            fresh,
        })
    }

    /// Records what the process spent in its whole life (an `exec:` run
    /// cut by its time limit).
    pub(crate) fn record_since_start(self) {
        record(Spent {
            cpu: self.cpu,
            peak_memory: peak_memory(self.pid),
            fresh: self.fresh,
        });
    }

    /// Records what the process spent since.
    pub(crate) fn record(self) {
        if let Some(now) = process_cpu(self.pid) {
            record(Spent {
                cpu: now.saturating_sub(self.cpu),
                peak_memory: peak_memory(self.pid),
                fresh: self.fresh,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loop that spends CPU on this thread is measured as this thread's
    /// CPU time, and nothing is recorded outside a measurement.
    #[test]
    fn a_built_in_answer_is_measured_on_its_thread() {
        record(Spent {
            cpu: Duration::from_secs(9),
            ..Spent::default()
        });
        let (sum, spent) = measure(|| {
            let mut x = 0u64;
            let start = thread_cpu();
            while thread_cpu() - start < Duration::from_millis(30) {
                x = std::hint::black_box(x.wrapping_add(1));
            }
            x
        });
        assert!(sum > 0);
        assert!(spent.cpu >= Duration::from_millis(30), "{spent:?}");
        assert!(spent.cpu < Duration::from_secs(9), "{spent:?}");
        assert!(!wanted());
    }

    /// Another process's CPU time and memory are read from outside it.
    #[test]
    fn a_process_is_read_from_outside() {
        let mut child = std::process::Command::new("sh")
            .args([
                "-c",
                "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; sleep 5",
            ])
            .spawn()
            .expect("sh starts");
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        let start = std::time::Instant::now();
        let mut spent = Duration::ZERO;
        while spent < Duration::from_millis(50) && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(10));
            spent = process_cpu(pid).expect("it runs");
        }
        assert!(spent >= Duration::from_millis(50));
        assert!(peak_memory(pid).is_some_and(|m| m > 0));
        assert!(resident_memory(pid).is_some_and(|m| m > 0));
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(process_cpu(pid), None, "reaped");
    }
}
