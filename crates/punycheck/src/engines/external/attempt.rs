//! How long an external implementation may take to answer, and the
//! workers that answer: what `exec:`, `pipe:` and `so:` share.
//!
//! - [`ask_twice`]: a question is asked once within the time limit; one
//!   that does not answer in time is asked once more with the same limit
//!   ([`RETRY_FACTOR`]) before it counts as hung ([`EngineError::Hung`]):
//!   a machine busy for a moment is not a hang, and a hang costs the limit
//!   twice, no more.
//! - [`Deadline`]: the instant by which every answer of a run must be in
//!   ([`crate::engines::Engine::set_deadline`]); an attempt never waits
//!   past it, and one that it cuts short is [`EngineError::Cancelled`],
//!   never a hang; so is every attempt after an interruption (Ctrl-C,
//!   SIGTERM), which ends every program.
//! - [`Pool`]: the started workers that are not answering a question now
//!   (`pipe:` programs, `so:` worker processes), each taken for one
//!   question and put back when it is fit for the next.

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::vocabulary::EngineError;

/// How much longer the second try of a question that timed out may take:
/// no longer, so that a hang costs the time limit twice.
pub(super) const RETRY_FACTOR: u32 = 1;

/// The instant by which every answer must be in, or none; set for a whole
/// run and read by every question.
#[derive(Debug, Default)]
pub(super) struct Deadline(Mutex<Option<Instant>>);

impl Deadline {
    /// Sets it (`None`: no deadline).
    pub fn set(&self, deadline: Option<Instant>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = deadline;
    }

    /// What it is now.
    pub fn get(&self) -> Option<Instant> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// How one attempt at a question ended without an answer.
pub(super) enum Missed {
    /// Not within the time it was given (what asked it was ended). With
    /// what a hang's message adds (`; it had printed ...`), or nothing.
    TimedOut(String),
    /// Any other failure: the question's answer, not asked again.
    Failed(EngineError),
}

/// Asks a question by `attempt` (given the time it may take) within
/// `timeout`, never past `deadline`; when it times out, once more with
/// [`RETRY_FACTOR`] times `timeout`. Two timeouts are
/// [`EngineError::Hung`]: `no answer within T s, nor within T s when asked
/// again{again}` and what the second timeout added, `again` saying how it
/// was asked again (` (killed)`). A timeout that the deadline made
/// shorter, and an attempt the deadline leaves no time for, are
/// [`EngineError::Cancelled`].
pub(super) fn ask_twice<T>(
    timeout: Duration,
    deadline: &Deadline,
    again: &str,
    mut attempt: impl FnMut(Duration) -> Result<T, Missed>,
) -> Result<T, EngineError> {
    let deadline = deadline.get();
    let mut limit = timeout;
    let mut added = String::new();
    for first in [true, false] {
        let allowed = match deadline {
            Some(end) => limit.min(end.saturating_duration_since(Instant::now())),
            None => limit,
        };
        // Interrupted, nothing more is asked: what an attempt met since
        // may be the interruption's doing (it ends every program).
        if allowed.is_zero() || super::process::interrupted() {
            return Err(EngineError::Cancelled);
        }
        let result = attempt(allowed);
        if result.is_err() && super::process::interrupted() {
            return Err(EngineError::Cancelled);
        }
        match result {
            Ok(answer) => return Ok(answer),
            Err(Missed::Failed(e)) => return Err(e),
            Err(Missed::TimedOut(_)) if allowed < limit => return Err(EngineError::Cancelled),
            Err(Missed::TimedOut(said)) => {
                added = said;
                if first {
                    limit = timeout * RETRY_FACTOR;
                }
            }
        }
    }
    Err(EngineError::Hung(format!(
        "no answer within {:.1} s, nor within {:.1} s when asked again{again}{added}",
        timeout.as_secs_f64(),
        limit.as_secs_f64()
    )))
}

/// Started workers that are not answering a question now. A worker is
/// taken for one question and put back only when it is fit for the next;
/// one that is not is dropped, and its `Drop` ends it, as it ends those
/// left here when the pool goes.
#[derive(Debug)]
pub(super) struct Pool<W> {
    idle: Mutex<Vec<W>>,
}

impl<W> Pool<W> {
    /// An empty pool.
    pub fn new() -> Self {
        Pool {
            idle: Mutex::new(Vec::new()),
        }
    }

    fn idle(&self) -> MutexGuard<'_, Vec<W>> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// An idle worker, or else a new one from `start` (started without
    /// holding the pool, so that others take and put back meanwhile).
    pub fn take_or_start<E>(&self, start: impl FnOnce() -> Result<W, E>) -> Result<W, E> {
        let idle = self.idle().pop();
        match idle {
            Some(worker) => Ok(worker),
            None => start(),
        }
    }

    /// Puts back a worker fit for the next question.
    pub fn put(&self, worker: W) {
        self.idle().push(worker);
    }

    /// How many workers are idle.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.idle().len()
    }
}

/// How many cores this machine has, when it says.
pub(super) fn cores() -> Option<usize> {
    std::thread::available_parallelism().ok().map(|n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn a_timeout_is_asked_again_with_the_same_limit_then_hangs() {
        let mut given = Vec::new();
        let hung: Result<(), _> = ask_twice(SECOND, &Deadline::default(), " (killed)", |t| {
            given.push(t);
            Err(Missed::TimedOut(format!("; try {}", given.len())))
        });
        assert_eq!(given, [SECOND, SECOND]);
        assert_eq!(
            hung,
            Err(EngineError::Hung(
                "no answer within 1.0 s, nor within 1.0 s when asked again (killed); try 2".into()
            ))
        );
    }

    #[test]
    fn an_answer_or_a_failure_ends_the_question() {
        let mut tries = 0;
        let answer = ask_twice(SECOND, &Deadline::default(), "", |_| {
            tries += 1;
            if tries == 1 {
                Err(Missed::TimedOut(String::new()))
            } else {
                Ok(7)
            }
        });
        assert_eq!((answer, tries), (Ok(7), 2));
        let mut tries = 0;
        let failed: Result<(), _> = ask_twice(SECOND, &Deadline::default(), "", |_| {
            tries += 1;
            Err(Missed::Failed(EngineError::Crashed("signal 11".into())))
        });
        assert_eq!(
            (failed, tries),
            (Err(EngineError::Crashed("signal 11".into())), 1)
        );
    }

    #[test]
    fn the_deadline_cancels_rather_than_hangs() {
        let deadline = Deadline::default();
        deadline.set(Some(Instant::now()));
        let mut tries = 0;
        let cut: Result<(), _> = ask_twice(SECOND, &deadline, "", |_| {
            tries += 1;
            Ok(())
        });
        assert_eq!((cut, tries), (Err(EngineError::Cancelled), 0));
        // A deadline within the limit shortens the attempt, and its timeout
        // is a cancellation (an hour away: the attempt is given less than
        // the limit of two hours whatever the machine's speed).
        deadline.set(Some(Instant::now() + Duration::from_secs(3600)));
        let mut given = Vec::new();
        let cut: Result<(), _> = ask_twice(SECOND * 7200, &deadline, "", |t| {
            given.push(t);
            Err(Missed::TimedOut(String::new()))
        });
        assert_eq!(cut, Err(EngineError::Cancelled));
        assert!(given.len() == 1 && given[0] <= SECOND * 3600, "{given:?}");
        deadline.set(None);
        assert_eq!(deadline.get(), None);
    }

    #[test]
    fn a_pool_hands_back_what_was_put() {
        let pool = Pool::new();
        assert_eq!(pool.take_or_start(|| Ok::<_, ()>(1)), Ok(1));
        pool.put(2);
        assert_eq!(pool.len(), 1);
        assert_eq!(pool.take_or_start(|| Ok::<_, ()>(3)), Ok(2));
        assert_eq!(
            pool.take_or_start(|| Err::<i32, _>("cannot")),
            Err("cannot")
        );
    }
}
