//! The worker processes, seen from punycheck: starting one (from a
//! thread that lives as long as the process), handing it a call, waiting
//! for its answer within a time limit, and telling why it died.

use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

use super::super::line::crash_line;
use super::super::process::{self, StderrTail};
use super::channel::{self, Channel, Wait};
use super::library::{LoadError, Raw};
use super::wire::{self, CallFailure};
use super::worker::{FAULT_LINE, WORKER_ARG};
use crate::engines::{EngineError, spent};

/// Why a worker gave no answer.
pub(super) enum Failure {
    /// It did not answer within the time allowed (it was killed).
    TimedOut,
    /// It died (its end of the socket closed).
    Died,
    /// It answered something that is not a frame of the protocol (it was
    /// killed).
    Garbled(String),
}

/// Why a worker could not be started with the library loaded.
#[derive(Debug)]
pub enum WorkerError {
    /// The socket pair to the worker could not be made.
    Socket(io::Error),
    /// The mapping shared with the worker could not be made.
    Mapping(io::Error),
    /// The worker's executable could not be started.
    Spawn {
        /// The executable.
        exe: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// Its first answer is not a Ready frame: the executable is not
    /// punycheck, or not one that serves as a worker.
    Garbled {
        /// The executable.
        exe: PathBuf,
        /// What was wrong with the answer.
        why: String,
    },
    /// Loading the library (its constructors run then) took longer than
    /// this.
    LoadTimedOut(Duration),
    /// The worker died while loading the library: how, and what it said.
    DiedLoading(String),
    /// The library could not be loaded, or lacks a declared function.
    NotLoaded(LoadError),
}

impl std::fmt::Display for WorkerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorkerError::Socket(e) => write!(f, "cannot make a socket pair: {e}"),
            WorkerError::Mapping(e) => write!(f, "cannot make a shared mapping: {e}"),
            WorkerError::Spawn { exe, error } => {
                write!(f, "cannot start the worker {}: {error}", exe.display())
            }
            WorkerError::Garbled { exe, why } => write!(
                f,
                "the worker's first answer is garbled ({why}): is {} punycheck?",
                exe.display()
            ),
            WorkerError::LoadTimedOut(limit) => write!(
                f,
                "loading the library took more than {:.1} s (its constructors?)",
                limit.as_secs_f64()
            ),
            WorkerError::DiedLoading(death) => {
                write!(f, "the worker died while loading the library: {death}")
            }
            WorkerError::NotLoaded(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for WorkerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WorkerError::Socket(e)
            | WorkerError::Mapping(e)
            | WorkerError::Spawn { error: e, .. } => Some(e),
            WorkerError::NotLoaded(e) => Some(e),
            _ => None,
        }
    }
}

/// A running worker process.
pub(super) struct Worker {
    child: Child,
    /// Whether it has not been asked anything yet.
    fresh: bool,
    stream: UnixStream,
    channel: Channel,
    buffer: Vec<u8>,
    /// The end of its standard error.
    stderr: StderrTail,
}

/// Starts `command` on one thread that lives as long as the process:
/// `PR_SET_PDEATHSIG` fires when the *thread* that started a worker ends,
/// and the harness's threads come and go.
fn spawn_from_keeper(command: Command) -> io::Result<Child> {
    type Job = (Command, mpsc::Sender<io::Result<Child>>);
    static KEEPER: OnceLock<Option<Mutex<mpsc::Sender<Job>>>> = OnceLock::new();
    let keeper = KEEPER.get_or_init(|| {
        let (send, receive) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("so-worker-keeper".into())
            .spawn(move || {
                for (mut command, reply) in receive {
                    // Recorded, so that the orphan reaper leaves it alone
                    // and an interrupted run ends it.
                    let _ = reply.send(process::spawn(&mut command));
                }
            })
            .ok()
            .map(|_| Mutex::new(send))
    });
    let Some(keeper) = keeper else {
        return Err(io::Error::other(
            "cannot start the thread that starts workers",
        ));
    };
    let (reply, answer) = mpsc::channel();
    keeper
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send((command, reply))
        .map_err(|_| io::Error::other("the thread that starts workers is gone"))?;
    answer
        .recv()
        .map_err(|_| io::Error::other("the thread that starts workers is gone"))?
}

impl Worker {
    /// Starts `exe` as a worker and has it load the library of `setup`,
    /// waiting at most `timeout` (its constructors run then).
    pub(super) fn start(
        exe: &Path,
        setup: &wire::Setup,
        timeout: Duration,
    ) -> Result<Self, WorkerError> {
        let (ours, theirs) = UnixStream::pair().map_err(WorkerError::Socket)?;
        let (channel, shared) = Channel::create().map_err(WorkerError::Mapping)?;
        let mut command = Command::new(exe);
        command
            .arg(WORKER_ARG)
            .arg(std::process::id().to_string())
            .stdin(Stdio::from(OwnedFd::from(theirs)))
            .stdout(Stdio::from(shared))
            .stderr(Stdio::piped());
        let mut child = spawn_from_keeper(command).map_err(|error| WorkerError::Spawn {
            exe: exe.to_path_buf(),
            error,
        })?;
        let stderr = StderrTail::start(child.stderr.take().expect("stderr is piped"));
        let mut worker = Worker {
            child,
            fresh: true,
            stream: ours,
            channel,
            buffer: Vec::new(),
            stderr,
        };
        let garbled = |why: String| WorkerError::Garbled {
            exe: exe.to_path_buf(),
            why,
        };
        match worker.exchange(&wire::setup_body(setup), timeout) {
            Ok(body) => match wire::parse_ready(&body) {
                Ok(Ok(())) => Ok(worker),
                Ok(Err(why)) => Err(WorkerError::NotLoaded(why)),
                Err(e) => Err(garbled(e.to_string())),
            },
            Err(Failure::TimedOut) => Err(WorkerError::LoadTimedOut(timeout)),
            Err(Failure::Died) => Err(WorkerError::DiedLoading(worker.death())),
            Err(Failure::Garbled(why)) => Err(garbled(why)),
        }
    }

    /// Leaves one Call frame body in the mapping and reads what the
    /// functions did, within `allowed`.
    pub(super) fn ask(
        &mut self,
        body: &[u8],
        allowed: Duration,
    ) -> Result<Result<Raw, CallFailure>, Failure> {
        let end = Instant::now() + allowed;
        let before = spent::Before::read(self.child.id(), self.fresh);
        self.fresh = false;
        if let Err(e) = self.channel.send(body, channel::REQUEST) {
            return Ok(Err(CallFailure::NotSent(e.to_string())));
        }
        let socket = self.stream.as_raw_fd();
        let waited = self
            .channel
            .wait(channel::RESPONSE, Some(end), || alive(socket));
        // What it spent: for a call cut by its time limit, at least that.
        if let (Some(before), Wait::Ready | Wait::TimedOut) = (before, &waited) {
            before.record();
        }
        match waited {
            Wait::Ready => {}
            Wait::TimedOut => {
                self.kill();
                return Err(Failure::TimedOut);
            }
            Wait::Gone => return Err(Failure::Died),
        }
        let parsed = match self.channel.receive() {
            Ok(reply) => wire::parse_raw(&reply).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        parsed.map_err(|why| {
            self.kill();
            Failure::Garbled(why)
        })
    }

    /// Sends a frame and reads the reply frame's body, within `allowed`.
    fn exchange(&mut self, body: &[u8], allowed: Duration) -> Result<Vec<u8>, Failure> {
        let end = Instant::now() + allowed;
        if wire::write_frame(&mut &self.stream, body).is_err() {
            return Err(Failure::Died);
        }
        loop {
            if let Some(total) = wire::complete_frame(&self.buffer) {
                if total - 4 > wire::MAX_FRAME {
                    self.kill();
                    return Err(Failure::Garbled("a frame too long".into()));
                }
                let reply = self.buffer[4..total].to_vec();
                self.buffer.drain(..total);
                return Ok(reply);
            }
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() || !self.readable_within(left) {
                self.kill();
                return Err(Failure::TimedOut);
            }
            let at = self.buffer.len();
            self.buffer.resize(at + (1 << 16), 0);
            match (&self.stream).read(&mut self.buffer[at..]) {
                Ok(0) | Err(_) => {
                    self.buffer.truncate(at);
                    return Err(Failure::Died);
                }
                Ok(n) => self.buffer.truncate(at + n),
            }
        }
    }

    /// Waits until the socket has something to read (or is closed): the
    /// setup's answer.
    fn readable_within(&self, left: Duration) -> bool {
        let mut fd = libc::pollfd {
            fd: self.stream.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let millis = left.as_millis().clamp(1, i32::MAX as u128) as i32;
        loop {
            // SAFETY: one pollfd, ours.
            let ready = unsafe { libc::poll(&mut fd, 1, millis) };
            if ready >= 0 {
                return ready > 0;
            }
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return true;
            }
        }
    }

    fn kill(&mut self) {
        process::end(&mut self.child);
    }

    /// Why the worker died during a call: killed for its memory
    /// ([`process::over_memory`]), or else a crash ([`Worker::death`]).
    pub(super) fn fault(mut self) -> EngineError {
        // Reaped first, so that the memory watcher's word is in.
        let _ = self.child.wait_timeout(Duration::from_secs(2));
        match process::over_memory(self.child.id()) {
            Some(held) => EngineError::Memory(process::memory_message(held)),
            None => EngineError::Crashed(self.death()),
        }
    }

    /// Why the worker died, for a crash finding: how it ended, and the line
    /// of its standard error that says why (a guard page hit, a
    /// sanitizer's summary, ...).
    pub(super) fn death(mut self) -> String {
        let status = match self.child.wait_timeout(Duration::from_secs(2)) {
            Ok(Some(status)) => Some(status),
            _ => {
                self.kill();
                None
            }
        };
        self.stderr.ended_within(Duration::from_secs(1));
        let text = self.stderr.text();
        let how = match status {
            Some(s) if s.signal().is_some() => {
                let signal = s.signal().unwrap_or(0);
                format!("killed by signal {signal}{}", signal_name(signal))
            }
            Some(s) => format!(
                "ended the process with exit status {} during the call",
                s.code().unwrap_or(-1)
            ),
            None => "closed its connection during the call".into(),
        };
        let fault = text
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix(FAULT_LINE))
            .map(str::to_string);
        match fault.or_else(|| crash_line(&text)) {
            Some(why) => format!("{how}: {why}"),
            None => how,
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Whether the worker at the other end of `socket` is still there: it
/// never writes to the socket after the setup, so anything to read is the
/// end of it.
fn alive(socket: std::os::fd::RawFd) -> bool {
    let mut fd = libc::pollfd {
        fd: socket,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one pollfd, ours; a zero timeout.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready == 0
}

/// ` (SIGSEGV)` for the signals a library dies of, empty for others.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGFPE => " (SIGFPE)",
        libc::SIGILL => " (SIGILL)",
        libc::SIGTRAP => " (SIGTRAP)",
        libc::SIGKILL => " (SIGKILL)",
        _ => "",
    }
}
