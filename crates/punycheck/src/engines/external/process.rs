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

use std::collections::BTreeSet;
use std::io::{self, Read};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
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
    let child = command.spawn()?;
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        live.insert(pid);
    }
    Ok(child)
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
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        if parent_of(pid) == Some(me) {
            found.push(pid);
        }
    }
    found
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
