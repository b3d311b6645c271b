//! Where a command's report goes: standard output, or any writer in tests.
//!
//! A reader that closes the pipe early (`punycheck list | head -1`) is not
//! an error of ours: writing then gives [`Stop::Closed`], which the command
//! passes up with `?` and the binary ends on quietly. Nothing here panics,
//! unlike `println!`.

use std::io::{self, Write};

use super::Stop;

/// A command's standard output.
pub struct Output {
    inner: Box<dyn Write>,
}

impl Output {
    /// The process's standard output.
    pub fn stdout() -> Self {
        Output {
            inner: Box::new(io::stdout()),
        }
    }

    /// Any writer (a closed pipe in a test).
    #[cfg(test)]
    pub fn to(writer: impl Write + 'static) -> Self {
        Output {
            inner: Box::new(writer),
        }
    }

    /// Writes `text` as it is.
    pub fn print(&mut self, text: &str) -> Result<(), Stop> {
        self.bytes(text.as_bytes())
    }

    /// Writes `text` and a newline.
    pub fn line(&mut self, text: &str) -> Result<(), Stop> {
        self.bytes(text.as_bytes())?;
        self.bytes(b"\n")
    }

    /// Writes bytes as they are.
    pub fn bytes(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        self.inner.write_all(bytes).map_err(stop)
    }

    /// Sends what was written on to the reader now.
    pub fn flush(&mut self) -> Result<(), Stop> {
        self.inner.flush().map_err(stop)
    }
}

fn stop(e: io::Error) -> Stop {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Stop::Closed
    } else {
        Stop::Setup(format!("cannot write to standard output: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn a_closed_pipe_is_a_quiet_stop() {
        let mut out = Output::to(Closed);
        assert_eq!(out.line("x"), Err(Stop::Closed));
        assert_eq!(out.flush(), Err(Stop::Closed));
    }
}
