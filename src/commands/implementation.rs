//! The implementation a command asks: what the user declares about it and
//! how long one question may take, from the command line and
//! `punycheck.toml`.

use std::time::Duration;

use super::{MAX_TIMEOUT, check_seconds};
use crate::config;
use punycheck::codec::Codec;
use punycheck::engines::{Declaration, SpecOptions};

/// The default of `--timeout`, in seconds.
pub const DEFAULT_TIMEOUT: f64 = 5.0;

/// A declaration and the time one question may take.
#[derive(Clone, Debug, Default)]
pub struct Implementation {
    /// What the user declares it supports.
    pub declaration: Declaration,
    /// Seconds one question may take (`--timeout`); [`DEFAULT_TIMEOUT`]
    /// when not given.
    pub timeout: Option<f64>,
    /// How many questions an `exec:` or `pipe:` program is asked at once
    /// (`--jobs`); its default when not given.
    pub jobs: Option<usize>,
}

impl Implementation {
    /// These options (the command line's) over the configuration file's:
    /// each fact the command line states wins.
    pub fn over(&self, file: &config::Implementation) -> Implementation {
        Implementation {
            declaration: config::merge(file.declaration(), self.declaration.clone()),
            timeout: self.timeout.or(file.timeout),
            jobs: self.jobs.or(file.jobs),
        }
    }

    /// The time one question may take, checked.
    pub fn timeout(&self) -> Result<Duration, String> {
        let seconds = self.timeout.unwrap_or(DEFAULT_TIMEOUT);
        check_seconds(seconds, MAX_TIMEOUT)
            .map(Duration::from_secs_f64)
            .map_err(|e| format!("--timeout {e}"))
    }

    /// What `engines::from_spec` needs for `codec`.
    pub fn options(&self, codec: Codec) -> Result<SpecOptions, String> {
        Ok(SpecOptions {
            codec,
            declaration: self.declaration.clone(),
            timeout: self.timeout()?,
            jobs: match self.jobs {
                Some(jobs) if !(1..=256).contains(&jobs) => {
                    return Err(format!("jobs must be from 1 to 256, not {jobs}"));
                }
                jobs => jobs,
            },
        })
    }

    /// The options as they are to be printed in a reproducer.
    pub fn printed(&self) -> String {
        let mut out = self.declaration.options();
        if let Some(timeout) = self.timeout.filter(|&t| t != DEFAULT_TIMEOUT) {
            out += &format!(" --timeout {timeout}");
        }
        out
    }
}
