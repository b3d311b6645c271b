//! The worker process: loads the library and calls it, one [`Call`] at a
//! time, for the punycheck process that started it.
//!
//! It is the punycheck binary itself, started as `punycheck __so-worker
//! PID` (PID: punycheck's process id), with one end of a socket pair as
//! its standard input (the setup, and a worker's death seen as the end of
//! the socket) and the shared mapping of [`super::channel`] as its standard
//! output (the calls). Any binary whose `main` calls [`worker_entry`]
//! first can serve as the worker (the fuzz-free examples and tests do).
//!
//! - **Dies with punycheck:** it asks the kernel for `SIGKILL` when the
//!   thread that started it ends (`PR_SET_PDEATHSIG`; punycheck starts
//!   workers from one thread that lives as long as the process) and checks
//!   that punycheck is still its parent; punycheck kills the workers it no
//!   longer needs.
//! - **Its own output cannot garble the frames:** the frames go over a
//!   duplicate of the socket and the mapping; standard input becomes
//!   `/dev/null` and standard output is sent to standard error, which
//!   punycheck reads for crash messages.
//! - **Faults are explained:** a `SIGSEGV` or `SIGBUS` in a guard page is
//!   reported on standard error as a line starting with [`FAULT_LINE`]
//!   (`wrote output[5], past the end of the 5 elements it was given`), then
//!   the signal takes its course (a sanitizer's handler, if one was there,
//!   or the default action).

use std::ffi::{c_int, c_void};
use std::io::{BufReader, Write};
use std::os::fd::FromRawFd;
use std::os::unix::net::UnixStream;
use std::process::ExitCode;
use std::sync::OnceLock;

use super::channel::{Channel, REQUEST, RESPONSE, Wait};
use super::library::{Library, describe_fault};
use super::wire::{self, CallFailure};

/// The first argument that makes the punycheck binary a worker.
pub const WORKER_ARG: &str = "__so-worker";

/// What starts the line a worker writes to standard error when the library
/// touches a guard page.
pub const FAULT_LINE: &str = "punycheck so: worker: ";

/// Serves as a `so:` worker when this process was started as one
/// (`WORKER_ARG` first), and returns its exit status; `None` otherwise.
/// Call it first thing in `main`.
pub fn worker_entry() -> Option<ExitCode> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != WORKER_ARG {
        return None;
    }
    let parent = args
        .next()
        .and_then(|a| a.to_str().and_then(|a| a.parse::<libc::pid_t>().ok()));
    Some(serve(parent))
}

/// Whether file descriptor `fd` is a socket.
fn is_socket(fd: c_int) -> bool {
    // SAFETY: fstat writes into the zeroed struct it is given.
    unsafe {
        let mut stat: libc::stat = std::mem::zeroed();
        libc::fstat(fd, &mut stat) == 0 && stat.st_mode & libc::S_IFMT == libc::S_IFSOCK
    }
}

fn serve(parent: Option<libc::pid_t>) -> ExitCode {
    if !is_socket(0) {
        eprintln!(
            "punycheck {WORKER_ARG} is the worker that punycheck starts itself for so: libraries; it is not for use on its own"
        );
        return ExitCode::from(2);
    }
    // SAFETY: prctl(PR_SET_PDEATHSIG) and getppid() have no memory effects.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
        if parent.is_some_and(|p| libc::getppid() != p) {
            // Punycheck died before the request was in place.
            return ExitCode::from(2);
        }
    }
    let mut channel = match Channel::open() {
        Ok(channel) => channel,
        Err(e) => {
            eprintln!("punycheck {WORKER_ARG}: {e}");
            return ExitCode::from(2);
        }
    };
    // SAFETY: duplicates fd 0 (a socket, checked above) above the standard
    // streams, close-on-exec; then points fd 0 at /dev/null and fd 1 (mapped
    // above; the mapping keeps the memfd) at fd 2. Nothing in this process
    // holds Rust handles to fds 0 and 1.
    let frames = unsafe {
        let fd = libc::fcntl(0, libc::F_DUPFD_CLOEXEC, 3);
        if fd < 0 {
            return ExitCode::from(2);
        }
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
        if null >= 0 {
            libc::dup2(null, 0);
            libc::close(null);
        }
        libc::dup2(2, 1);
        UnixStream::from_raw_fd(fd)
    };
    let mut reader = BufReader::new(&frames);
    let mut writer = &frames;
    let setup = match wire::read_frame(&mut reader).map(|f| f.map(|b| wire::parse_setup(&b))) {
        Ok(Some(Ok(setup))) => setup,
        _ => return ExitCode::from(2),
    };
    let loaded = Library::load(
        &setup.path,
        &setup.prefix,
        setup.lengths,
        setup.encode,
        setup.decode,
    );
    let ready = loaded.as_ref().map(|_| ()).map_err(Clone::clone);
    if wire::write_frame(&mut writer, &wire::ready_body(&ready)).is_err() {
        return ExitCode::from(2);
    }
    let _ = writer.flush();
    let Ok(mut library) = loaded else {
        return ExitCode::SUCCESS;
    };
    install_fault_handler();
    // The socket stays open (punycheck sees the worker's death as its end);
    // the calls come through the mapping.
    loop {
        if channel.wait(REQUEST, None, || true) != Wait::Ready {
            return ExitCode::from(2);
        }
        let call = match channel.receive() {
            Ok(body) => wire::parse_call(&body).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        let reply = match call {
            Ok(call) => match library.execute(&call) {
                Ok(raw) => wire::raw_body(&raw),
                Err(e) => wire::failure_body(&CallFailure::NotMade(e.to_string())),
            },
            Err(e) => wire::failure_body(&CallFailure::Unreadable(e)),
        };
        if channel.send(&reply, RESPONSE).is_err() {
            return ExitCode::from(2);
        }
    }
}

/// The actions that were in place for `SIGSEGV` and `SIGBUS` before ours.
static PREVIOUS: OnceLock<[libc::sigaction; 2]> = OnceLock::new();

/// The signals handled, in the order of [`PREVIOUS`].
const SIGNALS: [c_int; 2] = [libc::SIGSEGV, libc::SIGBUS];

/// Whether the faulting access was a write, where the platform says.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn fault_was_write(context: *mut c_void) -> Option<bool> {
    if context.is_null() {
        return None;
    }
    // SAFETY: with SA_SIGINFO the third argument is the ucontext_t of the
    // interrupted code; on x86-64 the page-fault error code is in REG_ERR,
    // bit 1 set for a write.
    let error =
        unsafe { (*context.cast::<libc::ucontext_t>()).uc_mcontext.gregs[libc::REG_ERR as usize] };
    Some(error & 2 != 0)
}

/// Whether the faulting access was a write, where the platform says.
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn fault_was_write(_context: *mut c_void) -> Option<bool> {
    None
}

/// The handler: says which guard page was hit, if one was, then puts back
/// the previous action and returns, so that the access faults again and
/// meets it.
extern "C" fn on_fault(signal: c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
    let mut line = [0u8; 256];
    let head = FAULT_LINE.as_bytes();
    line[..head.len()].copy_from_slice(head);
    let start = head.len();
    // SAFETY: with SA_SIGINFO, `info` is the kernel's siginfo_t.
    let address = if info.is_null() {
        0
    } else {
        unsafe { (*info).si_addr() as usize }
    };
    let n = describe_fault(address, fault_was_write(context), &mut line[start..255]);
    if n > 0 {
        line[start + n] = b'\n';
        // SAFETY: write(2) is async-signal-safe; the bytes are ours.
        unsafe { libc::write(2, line.as_ptr().cast::<c_void>(), start + n + 1) };
    }
    let index = usize::from(signal == libc::SIGBUS);
    // SAFETY: sigaction(2) is async-signal-safe; PREVIOUS was set before
    // this handler was installed, and otherwise the default action is put
    // back.
    unsafe {
        match PREVIOUS.get() {
            Some(previous) => {
                libc::sigaction(signal, &previous[index], std::ptr::null_mut());
            }
            None => {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
    }
}

/// Installs [`on_fault`] for `SIGSEGV` and `SIGBUS`, on a stack of its own
/// (a fault may come from a library that has used up its stack).
fn install_fault_handler() {
    const STACK: usize = 64 << 10;
    // SAFETY: an anonymous mapping for the alternate stack, kept for the
    // life of the process; sigaction with a handler of the SA_SIGINFO
    // signature, the previous actions saved first.
    unsafe {
        let stack = libc::mmap(
            std::ptr::null_mut(),
            STACK,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if stack == libc::MAP_FAILED {
            return;
        }
        let alt = libc::stack_t {
            ss_sp: stack,
            ss_flags: 0,
            ss_size: STACK,
        };
        libc::sigaltstack(&alt, std::ptr::null_mut());
        let mut previous: [libc::sigaction; 2] = std::mem::zeroed();
        for (k, &signal) in SIGNALS.iter().enumerate() {
            libc::sigaction(signal, std::ptr::null(), &mut previous[k]);
        }
        if PREVIOUS.set(previous).is_err() {
            return;
        }
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_fault as *const () as usize;
        action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut action.sa_mask);
        for &signal in &SIGNALS {
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}
