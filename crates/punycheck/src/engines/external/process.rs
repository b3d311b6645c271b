//! The processes punycheck starts for implementations under test (`exec:`
//! runs, `pipe:` workers), and making sure none of them outlives its run.
//!
//! Every program is started in a process group of its own and recorded
//! here until it has been reaped, so that [`end_all`] can end them all (on
//! Ctrl-C, SIGTERM, or at the end of a command). A process group is not
//! enough on its own: a program may start children that leave the group
//! (`setsid`), and those outlive a killed group. So the command line calls
//! [`adopt_orphans`] once: punycheck becomes a child subreaper
//! (`PR_SET_CHILD_SUBREAPER`), orphans of the programs it runs become its
//! children instead of init's, and a background thread kills and reaps
//! every child that is not one of the recorded programs.
//!
//! A library user who starts processes of their own does not call
//! [`adopt_orphans`]: the orphan reaper assumes that every child it does
//! not know is an orphan.
//!
//! The end of a program's standard error, where it says why it died, is
//! kept as it runs (`StderrTail`, for `pipe:` programs and `so:` workers).
//!
//! # Memory
//!
//! Every recorded program runs under a limit of resident memory
//! ([`set_memory_limit`], `--memory-limit`, 2,048 MB by default as
//! libFuzzer's `-rss_limit_mb`): a thread reads each one's resident memory
//! (`VmRSS`) every 25 ms, and its descendants' about once a
//! second, and kills the group of one over the limit. Resident memory, not
//! address space: Node and the JVM reserve far more than they use, so
//! `RLIMIT_AS` would stop them starting. Whoever waits for the program
//! then learns why it died from [`over_memory`].

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// The process ids (each also its group's id) of the programs started and
/// not yet reaped.
static LIVE: Mutex<BTreeSet<libc::pid_t>> = Mutex::new(BTreeSet::new());

/// Whether unknown children are orphans to be ended (after
/// [`adopt_orphans`]).
static ADOPTING: Once = Once::new();

/// Whether the run was interrupted ([`interrupt`]).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// How often the orphan reaper looks for adopted children.
const REAP_EVERY: Duration = Duration::from_millis(200);

/// The default `--memory-limit`, in bytes: libFuzzer's `-rss_limit_mb`.
pub const DEFAULT_MEMORY_LIMIT: u64 = 2048 << 20;

/// The limit of resident memory in bytes, 0 for none.
static MEMORY_LIMIT: AtomicU64 = AtomicU64::new(DEFAULT_MEMORY_LIMIT);

/// How often the memory watcher reads each program's resident memory.
const WATCH_EVERY: Duration = Duration::from_millis(25);

/// Every how many readings the watcher also counts the descendants in a
/// program's process group (which needs a walk over `/proc`).
const GROUP_EVERY: u32 = 40;

/// The programs killed for their memory: process id to the resident
/// memory read then, in bytes. Kept until asked ([`over_memory`]).
static OVER_MEMORY: Mutex<BTreeMap<libc::pid_t, u64>> = Mutex::new(BTreeMap::new());

/// Whether the memory watcher runs.
static WATCHING: Once = Once::new();

fn live() -> MutexGuard<'static, BTreeSet<libc::pid_t>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts `command` in a process group of its own and records it, so that
/// [`end_all`] ends it. End it with [`end`].
pub fn spawn(command: &mut Command) -> io::Result<Child> {
    command.process_group(0);
    // Holding the record while starting, so that the orphan reaper never
    // sees the new child before it is recorded.
    let mut live = live();
    // Nothing starts after an interruption: it would outlive the check.
    if interrupted() {
        return Err(io::Error::other("the check was interrupted"));
    }
    let child = command.spawn()?;
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        live.insert(pid);
    }
    drop(live);
    watch_memory();
    Ok(child)
}

/// Sets the limit of resident memory of every program started (`None`:
/// none), in bytes.
pub fn set_memory_limit(bytes: Option<u64>) {
    MEMORY_LIMIT.store(bytes.unwrap_or(0), Ordering::SeqCst);
}

/// The limit of resident memory, in bytes, if any.
pub fn memory_limit() -> Option<u64> {
    Some(MEMORY_LIMIT.load(Ordering::SeqCst)).filter(|&b| b > 0)
}

/// Whether the program `pid` was killed for going over the memory limit,
/// with the resident memory read then (bytes); asked once, forgotten.
pub fn over_memory(pid: u32) -> Option<u64> {
    let pid = libc::pid_t::try_from(pid).ok()?;
    OVER_MEMORY
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&pid)
}

/// What a program killed for its memory is told by: the limit, what it
/// held, and the option that moves the limit.
pub fn memory_message(held: u64) -> String {
    format!(
        "killed by punycheck holding {} MB of resident memory, over the limit of {} MB (--memory-limit)",
        held >> 20,
        memory_limit().unwrap_or(0) >> 20
    )
}

/// Starts the memory watcher, once.
fn watch_memory() {
    WATCHING.call_once(|| {
        let _ = thread::Builder::new()
            .name("memory-watcher".into())
            .spawn(|| {
                let mut turn = 0u32;
                loop {
                    thread::sleep(WATCH_EVERY);
                    turn = turn.wrapping_add(1);
                    if let Some(limit) = memory_limit() {
                        enforce(limit, turn.is_multiple_of(GROUP_EVERY));
                    }
                }
            });
    });
}

/// Kills every recorded program over `limit` bytes: its own resident
/// memory, or with `groups` its whole process group's.
fn enforce(limit: u64, groups: bool) {
    let programs: Vec<libc::pid_t> = live().iter().copied().collect();
    if programs.is_empty() {
        return;
    }
    let mut held: BTreeMap<libc::pid_t, u64> = programs
        .iter()
        .map(|&pid| {
            (
                pid,
                crate::engines::spent::resident_memory(pid).unwrap_or(0),
            )
        })
        .collect();
    if groups {
        for (pid, group, resident) in processes() {
            if pid != group
                && let Some(sum) = held.get_mut(&group)
            {
                *sum += resident;
            }
        }
    }
    for (pgid, resident) in held {
        if resident > limit {
            OVER_MEMORY
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(pgid, resident);
            kill_group(pgid);
        }
    }
}

/// Every process's id, process group and resident memory in bytes
/// (`/proc/PID/stat`).
fn processes() -> Vec<(libc::pid_t, libc::pid_t, u64)> {
    // SAFETY: sysconf(3) reads a constant.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid: libc::pid_t = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
            // From the state (field 3): pgrp is field 5, rss field 24.
            let group = fields.get(2)?.parse().ok()?;
            let pages: u64 = fields.get(21)?.parse().ok()?;
            Some((pid, group, pages * page))
        })
        .collect()
}

/// Kills `child`'s whole process group, reaps the child, and forgets it.
pub fn end(child: &mut Child) {
    let pid = libc::pid_t::try_from(child.id()).ok();
    if let Some(pid) = pid {
        kill_group(pid);
    }
    let _ = child.kill();
    let _ = child.wait();
    if let Some(pid) = pid {
        live().remove(&pid);
    }
}

/// Waits at most `within` for `child` to end, reaping it with `wait4(2)`:
/// how it ended and what it spent ([`crate::engines::spent`]); `None`
/// when it is still running (and left running). A reaped child is then
/// let go with [`forget`], never [`end`].
pub fn wait_spent(
    child: &mut Child,
    within: Duration,
) -> io::Result<Option<(ExitStatus, crate::engines::spent::Spent)>> {
    let pid = libc::pid_t::try_from(child.id()).map_err(io::Error::other)?;
    let end = Instant::now() + within;
    // Polled, from 50 us up to 2 ms apart: a run's start-up takes longer.
    let mut pause = Duration::from_micros(50);
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero rusage is a valid value of the plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4(2) on our own child writes one int and one rusage,
        // which `status` and `usage` are.
        let got = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if got == pid {
            return Ok(Some((
                ExitStatus::from_raw(status),
                crate::engines::spent::of_rusage(&usage),
            )));
        }
        if got < 0 {
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
        let now = Instant::now();
        if now >= end {
            return Ok(None);
        }
        thread::sleep(pause.min(end - now));
        pause = (pause * 2).min(Duration::from_millis(2));
    }
}

/// Lets go of a child that [`wait_spent`] reaped: kills what is left of
/// its process group and forgets it.
pub fn forget(child: &Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        kill_group(pid);
        live().remove(&pid);
    }
}

/// Sends SIGKILL to the process group `pgid`.
fn kill_group(pgid: libc::pid_t) {
    // SAFETY: kill(2) with a negative pid signals the process group that
    // `spawn` created (its id is the leader's pid); it touches no memory of
    // ours. A group that is already gone makes it fail with ESRCH.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

/// Makes this process the reaper of its descendants' orphans and starts a
/// thread that ends every child that is not a recorded program. Call it
/// once, early, from a program whose only children are those started by
/// [`spawn`] (the command line). Later calls do nothing.
pub fn adopt_orphans() {
    ADOPTING.call_once(|| {
        // SAFETY: prctl(PR_SET_CHILD_SUBREAPER, 1) only sets a flag of this
        // process; the remaining arguments are unused and passed as 0.
        let set = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
        if set != 0 {
            // An old kernel: orphans then go to init, as before.
            return;
        }
        let _ = thread::Builder::new()
            .name("orphan-reaper".into())
            .spawn(|| {
                loop {
                    thread::sleep(REAP_EVERY);
                    end_orphans();
                }
            });
    });
}

/// Ends every recorded program with its group and, once [`adopt_orphans`]
/// was called, every adopted orphan, waiting (at most about two seconds)
/// until none is left. For the end of a command and for Ctrl-C.
pub fn end_all() {
    let groups: Vec<libc::pid_t> = live().iter().copied().collect();
    for pgid in groups {
        kill_group(pgid);
    }
    if !ADOPTING.is_completed() {
        return;
    }
    // Killing a program can orphan its descendants, which then become
    // children here: repeat until there are none.
    let end = Instant::now() + Duration::from_secs(2);
    while Instant::now() < end {
        let children = children();
        if children.is_empty() {
            break;
        }
        for pid in children {
            kill_and_reap(pid);
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// Ends every program for an interruption (Ctrl-C, SIGTERM): marks the run
/// interrupted first, so that whatever fails because its program was
/// killed can tell ([`interrupted`]), then [`end_all`].
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    end_all();
}

/// Whether [`interrupt`] was called: an error seen since may only be the
/// interruption's doing.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Kills and reaps the children that are not recorded programs: orphans of
/// the programs run, adopted by the subreaper.
fn end_orphans() {
    let live = live();
    for pid in children() {
        if !live.contains(&pid) {
            kill_and_reap(pid);
        }
    }
}

/// Kills `pid` and its group, and reaps it if it has already died.
fn kill_and_reap(pid: libc::pid_t) {
    // SAFETY: kill(2) and waitpid(2) on a child of this process; no memory
    // is shared (the status pointer may be null). A child that is still
    // dying is reaped on a later call.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        libc::kill(-pid, libc::SIGKILL);
        libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
    }
}

/// The process ids of this process's children, living or dead.
fn children() -> Vec<libc::pid_t> {
    // SAFETY: getpid(2) cannot fail.
    let me = unsafe { libc::getpid() };
    pids().filter(|&pid| parent_of(pid) == Some(me)).collect()
}

/// Every process id `/proc` lists now; none where it cannot be read.
pub(crate) fn pids() -> impl Iterator<Item = libc::pid_t> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<libc::pid_t>().ok())
}

/// The parent process id of `pid`, from `/proc/PID/stat`.
fn parent_of(pid: libc::pid_t) -> Option<libc::pid_t> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses,
    // so read from the last ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// How much of a program's standard error [`StderrTail`] keeps: its last
/// 64 KiB.
const STDERR_KEPT: usize = 64 << 10;

/// The end of a program's standard error, read on a thread of its own as
/// the program runs (so that it never blocks on a full pipe): its last
/// [`STDERR_KEPT`] bytes, where a dying program says why.
#[derive(Debug)]
pub(crate) struct StderrTail {
    kept: Arc<Mutex<Vec<u8>>>,
    done: mpsc::Receiver<()>,
}

impl StderrTail {
    /// Starts reading `stream` (a child's standard error) to its end.
    pub(crate) fn start(mut stream: impl Read + Send + 'static) -> Self {
        let kept = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&kept);
        let (done, finished) = mpsc::channel();
        thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            while let Ok(n @ 1..) = stream.read(&mut chunk) {
                let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
                log.extend_from_slice(&chunk[..n]);
                // Cut back now and then, not on every chunk.
                if log.len() > STDERR_KEPT * 2 {
                    let cut = log.len() - STDERR_KEPT;
                    log.drain(..cut);
                }
            }
            let _ = done.send(());
        });
        StderrTail {
            kept,
            done: finished,
        }
    }

    fn kept(&self) -> MutexGuard<'_, Vec<u8>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets what was kept so far (before a new question).
    pub(crate) fn clear(&self) {
        self.kept().clear();
    }

    /// Waits at most `within` for the stream to end; whether it did.
    pub(crate) fn ended_within(&self, within: Duration) -> bool {
        // Disconnected: it ended, and this was already said.
        !matches!(
            self.done.recv_timeout(within),
            Err(mpsc::RecvTimeoutError::Timeout)
        )
    }

    /// The last [`STDERR_KEPT`] bytes read, as text.
    pub(crate) fn text(&self) -> String {
        let kept = self.kept();
        let from = kept.len().saturating_sub(STDERR_KEPT);
        String::from_utf8_lossy(&kept[from..]).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_of_a_spawned_child_is_this_process() {
        let mut child = spawn(Command::new("sleep").arg("5")).expect("sleep starts");
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        // SAFETY: getpid(2) cannot fail.
        let me = unsafe { libc::getpid() };
        assert_eq!(parent_of(pid), Some(me));
        assert!(children().contains(&pid));
        assert!(live().contains(&pid));
        end(&mut child);
        assert!(!live().contains(&pid));
        assert_eq!(parent_of(pid), None, "reaped");
    }

    #[test]
    fn a_stderr_tail_keeps_the_end() {
        let long = format!("{}the end\n", "x".repeat(3 * STDERR_KEPT));
        let tail = StderrTail::start(io::Cursor::new(long.clone().into_bytes()));
        assert!(tail.ended_within(Duration::from_secs(60)));
        assert_eq!(tail.text(), long[long.len() - STDERR_KEPT..]);
        tail.clear();
        assert_eq!(tail.text(), "");
    }
}
