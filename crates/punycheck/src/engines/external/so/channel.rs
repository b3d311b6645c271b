//! The calls' fast path: one shared mapping per worker, in which punycheck
//! leaves a Call frame body and the worker leaves the Raw frame body that
//! answers it ([`super::wire`]).
//!
//! The mapping is a `memfd` that punycheck makes and hands the worker as
//! its standard output (which the worker then points at standard error). A word of it says whose turn it is (a request
//! waiting, a response waiting); each side spins briefly for its turn and
//! then sleeps on that word with `futex(2)`, and a side wakes the other only
//! when it is asleep. So a short question costs no system call when both
//! are running, and two when one slept. Punycheck sleeps in short slices
//! and checks between them that the worker is still alive: a worker that
//! died or hangs is noticed within a slice, or at the timeout.
//!
//! The numbers (spin for an answer 200 µs, for a question 50 µs, yielding
//! the processor after 5 µs; one harness thread per two cores, see
//! [`super::So`]'s `workers`) were chosen with `examples/so_speed.rs` on a
//! two-core machine shared with other work: pure spinning was fastest when
//! the machine was idle and many times slower when it was not, sleeping at
//! once was slow in both, and yielding kept most of the speed in both.
//!
//! The worker's library can write anywhere in the worker, this mapping
//! included: everything read from it is checked (lengths, then the frame
//! itself).

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::ptr;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::wire::MAX_FRAME;

/// The file descriptor the worker finds the mapping on: its standard
/// output.
pub const WORKER_FD: RawFd = 1;

/// Whose turn it is: the worker's (a request waits), or punycheck's (a
/// response waits); 0 before the first request.
/// A request waits for the worker.
pub const REQUEST: u32 = 1;
/// A response waits for punycheck.
pub const RESPONSE: u32 = 2;

/// How long a side waits for its turn before it sleeps: punycheck for an
/// answer (most come within it), the worker for the next question (the
/// harness asks the next one at once when it is busy).
fn spin_time(turn: u32) -> Duration {
    if turn == REQUEST {
        Duration::from_micros(50)
    } else {
        Duration::from_micros(200)
    }
}

/// How long a side spins on the processor before it yields it between
/// looks (on a loaded machine, the other side may be waiting for it).
const YIELD_AFTER: Duration = Duration::from_micros(5);

/// How long punycheck sleeps at most before it checks the worker.
const SLICE: Duration = Duration::from_millis(10);

/// The head of the mapping.
#[repr(C)]
struct Control {
    state: AtomicU32,
    /// Punycheck sleeps on `state` (a response awaited).
    parent_asleep: AtomicU32,
    /// The worker sleeps on `state` (a request awaited).
    worker_asleep: AtomicU32,
    _pad: u32,
    /// The bytes of the frame body after the head.
    length: AtomicU64,
}

/// Where the frame body starts.
const DATA: usize = 64;

/// The size of the mapping: the head and the longest frame.
const SIZE: usize = DATA + MAX_FRAME;

/// How waiting for a turn ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    /// The turn came.
    Ready,
    /// Not before the time given.
    TimedOut,
    /// The other side is gone.
    Gone,
}

/// One side's view of the shared mapping.
pub struct Channel {
    base: *mut u8,
}

// SAFETY: the mapping lives as long as the Channel; the atomics of its head
// say which side may touch the data, and each side's Channel is used by
// one thread at a time (`&mut self` for everything that touches the data).
unsafe impl Send for Channel {}

fn futex(word: &AtomicU32, op: libc::c_int, value: u32, timeout: Option<Duration>) {
    let spec = timeout.map(|t| libc::timespec {
        tv_sec: t.as_secs() as libc::time_t,
        tv_nsec: t.subsec_nanos() as libc::c_long,
    });
    let spec_ptr = spec
        .as_ref()
        .map_or(ptr::null(), |s| s as *const libc::timespec);
    // SAFETY: a futex call on a word of a shared mapping (no _PRIVATE: two
    // processes share it); FUTEX_WAIT returns at once when the word is not
    // `value`. The result is ignored: every caller checks the word again.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            op,
            value,
            spec_ptr,
            ptr::null::<u32>(),
            0,
        );
    }
}

impl Channel {
    /// Makes a mapping for a new worker: the channel, and the file
    /// descriptor to hand the worker as its standard output.
    pub fn create() -> io::Result<(Channel, OwnedFd)> {
        // SAFETY: memfd_create with a NUL-terminated name; the result is a
        // new descriptor owned here.
        let fd = unsafe { libc::memfd_create(c"punycheck-so".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: a descriptor just made, owned by nothing else.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: sizes the memfd; pages are only allocated when touched.
        if unsafe { libc::ftruncate(fd.as_raw_fd(), SIZE as libc::off_t) } != 0 {
            return Err(io::Error::last_os_error());
        }
        let channel = Channel::map(fd.as_raw_fd())?;
        Ok((channel, fd))
    }

    /// The worker's side: the mapping on [`WORKER_FD`].
    pub fn open() -> io::Result<Channel> {
        // SAFETY: fstat writes into the zeroed struct it is given.
        let size = unsafe {
            let mut stat: libc::stat = std::mem::zeroed();
            if libc::fstat(WORKER_FD, &mut stat) != 0 {
                return Err(io::Error::last_os_error());
            }
            stat.st_size
        };
        if size != SIZE as libc::off_t {
            return Err(io::Error::other(
                "standard output is not punycheck's shared mapping",
            ));
        }
        Channel::map(WORKER_FD)
    }

    fn map(fd: RawFd) -> io::Result<Channel> {
        // SAFETY: a shared mapping of a memfd of SIZE bytes.
        let base = unsafe {
            libc::mmap(
                ptr::null_mut(),
                SIZE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Channel {
            base: base.cast::<u8>(),
        })
    }

    fn control(&self) -> &Control {
        // SAFETY: the mapping starts with a Control (zeroed when the memfd
        // was made: IDLE, nobody asleep), aligned to a page.
        unsafe { &*self.base.cast::<Control>() }
    }

    /// Leaves `body` for the other side and hands it the turn `turn`
    /// ([`REQUEST`] from punycheck, [`RESPONSE`] from the worker), waking
    /// it if it sleeps.
    pub fn send(&mut self, body: &[u8], turn: u32) -> io::Result<()> {
        if body.len() > MAX_FRAME {
            return Err(io::Error::other(format!("a frame of {} bytes", body.len())));
        }
        // SAFETY: it is this side's turn, so the other does not touch the
        // data; body.len() <= MAX_FRAME fits after the head.
        unsafe { ptr::copy_nonoverlapping(body.as_ptr(), self.base.add(DATA), body.len()) };
        let control = self.control();
        control.length.store(body.len() as u64, Ordering::SeqCst);
        control.state.store(turn, Ordering::SeqCst);
        let asleep = if turn == REQUEST {
            &control.worker_asleep
        } else {
            &control.parent_asleep
        };
        if asleep.load(Ordering::SeqCst) != 0 {
            futex(&control.state, libc::FUTEX_WAKE, u32::MAX, None);
        }
        Ok(())
    }

    /// The frame body the other side left, copied out; an error when its
    /// length is impossible.
    pub fn receive(&self) -> io::Result<Vec<u8>> {
        let length = self.control().length.load(Ordering::SeqCst);
        let length = usize::try_from(length)
            .ok()
            .filter(|&l| l <= MAX_FRAME)
            .ok_or_else(|| io::Error::other(format!("a frame of {length} bytes")))?;
        let mut body = vec![0u8; length];
        // SAFETY: it is this side's turn; length <= MAX_FRAME is inside the
        // mapping.
        unsafe { ptr::copy_nonoverlapping(self.base.add(DATA), body.as_mut_ptr(), length) };
        Ok(body)
    }

    /// Waits for the turn `turn`: punycheck for a [`RESPONSE`] until
    /// `until`, checking `alive` between sleeps; the worker for a
    /// [`REQUEST`], for as long as it takes (it dies with punycheck).
    pub fn wait(&self, turn: u32, until: Option<Instant>, mut alive: impl FnMut() -> bool) -> Wait {
        let control = self.control();
        let start = Instant::now();
        let spin_until = start + spin_time(turn);
        loop {
            for _ in 0..64 {
                if control.state.load(Ordering::Acquire) == turn {
                    return Wait::Ready;
                }
                std::hint::spin_loop();
            }
            let now = Instant::now();
            if now >= spin_until {
                break;
            }
            if now - start >= YIELD_AFTER {
                // SAFETY: sched_yield has no preconditions.
                unsafe { libc::sched_yield() };
            }
        }
        let asleep = if turn == REQUEST {
            &control.worker_asleep
        } else {
            &control.parent_asleep
        };
        loop {
            asleep.fetch_add(1, Ordering::SeqCst);
            let now = control.state.load(Ordering::SeqCst);
            if now == turn {
                asleep.fetch_sub(1, Ordering::SeqCst);
                return Wait::Ready;
            }
            let slice = until.map(|end| SLICE.min(end.saturating_duration_since(Instant::now())));
            if slice.is_some_and(|s| s.is_zero()) {
                asleep.fetch_sub(1, Ordering::SeqCst);
                return Wait::TimedOut;
            }
            futex(&control.state, libc::FUTEX_WAIT, now, slice);
            asleep.fetch_sub(1, Ordering::SeqCst);
            if control.state.load(Ordering::SeqCst) == turn {
                return Wait::Ready;
            }
            if !alive() {
                return Wait::Gone;
            }
        }
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        // SAFETY: the mapping made by `map`, of SIZE bytes; nothing points
        // into it after the Channel.
        unsafe { libc::munmap(self.base.cast::<libc::c_void>(), SIZE) };
    }
}
